// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fork_bench - the fork tracker (ibv_dontfork_range/ibv_dofork_range) of
 * our library against Debian's rdma-core 44, in one run:
 *
 *   (a) pair:  a dontfork+dofork pair on one 4 KiB page, as overhead above
 *              a raw madvise(MADV_DONTFORK)+madvise(MADV_DOFORK) pair;
 *              target: ours no higher than the reference's.
 *   (b) huge:  the same pair with RDMAV_HUGEPAGES_SAFE set and 10,000
 *              other mappings in the process; target: ours >= 100x faster.
 *   (c) many:  100,000 live disjoint one-page ranges inserted, then
 *              removed, in random order; target: ours no slower.
 *
 * Every measurement runs in a fresh child (this program again, with
 * --child) that dlopen()s one library by path and calls ibv_fork_init()
 * first. Rounds alternate the libraries; the best round of each counts.
 *
 * usage: fork_bench [--rounds N] [--only a|b|c] [--strict] OURS REF
 *        (or IBV_BENCH_OURS and IBV_BENCH_REF in the environment)
 *
 * Exit status: 0 when every call behaved (whatever the speed; with
 * --strict, also every target met), 1 on an error or a missed target
 * under --strict, 2 on bad usage, 77 when it cannot run here.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_SKIP 77
#define MAX_MAP_COUNT "/proc/sys/vm/max_map_count"

enum lib_id { LIB_OURS, LIB_REF, NUM_LIBS };

static const char *const lib_label[NUM_LIBS] = { "ours", "rdma-core 44" };

typedef int (*fork_init_fn)(void);
typedef int (*range_fn)(void *, size_t);

struct lib {
	fork_init_fn fork_init;
	range_fn dontfork;
	range_fn dofork;
};

/* What one child reports: up to three numbers, meaning per scenario. */
struct sample {
	double v[3];
};

static size_t page;

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fork_bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ------------------------------------------------------------------ */
/* Child side                                                          */

static void load_lib(const char *path, struct lib *l)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	int ret;

	if (!h)
		die("dlopen %s: %s", path, dlerror());
	l->fork_init = (fork_init_fn)dlsym(h, "ibv_fork_init");
	l->dontfork = (range_fn)dlsym(h, "ibv_dontfork_range");
	l->dofork = (range_fn)dlsym(h, "ibv_dofork_range");
	if (!l->fork_init || !l->dontfork || !l->dofork)
		die("%s lacks the fork tracker symbols", path);
	ret = l->fork_init();
	if (ret)
		die("ibv_fork_init: %s", strerror(ret));
}

static char *map_pages(size_t n, int extra_flags)
{
	char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);

	if (p == MAP_FAILED)
		die("mmap of %zu pages: %s", n, strerror(errno));
	return p;
}

static double raw_pairs(char *p, unsigned int n)
{
	double t = now_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		if (madvise(p, page, MADV_DONTFORK) ||
		    madvise(p, page, MADV_DOFORK))
			die("madvise: %s", strerror(errno));
	return (now_ns() - t) / n;
}

static double lib_pairs(const struct lib *l, char *p, unsigned int n)
{
	double t = now_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		if (l->dontfork(p, page) || l->dofork(p, page))
			die("dontfork/dofork: %s", strerror(errno));
	return (now_ns() - t) / n;
}

/*
 * (a) Batches of raw and library pairs, interleaved so that drift hits
 * both; the overhead is the median of the per-batch differences.
 */
static struct sample run_pair(const struct lib *l)
{
	enum { BATCHES = 61, PER_BATCH = 1000 };
	double raw[BATCHES], lib[BATCHES], diff[BATCHES];
	char *buf = map_pages(64, 0);
	char *p = buf + 32 * page; /* inside the mapping: a real VMA split */
	struct sample s;
	int i;

	memset(buf, 1, 64 * page);
	raw_pairs(p, PER_BATCH); /* warm-up */
	lib_pairs(l, p, PER_BATCH);
	for (i = 0; i < BATCHES; i++) {
		raw[i] = raw_pairs(p, PER_BATCH);
		lib[i] = lib_pairs(l, p, PER_BATCH);
		diff[i] = lib[i] - raw[i];
	}
	s.v[0] = median(raw, BATCHES);
	s.v[1] = median(lib, BATCHES);
	s.v[2] = median(diff, BATCHES);
	return s;
}

static unsigned long count_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long n = 0;
	int c;

	while (f && (c = getc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

/* @n distinct mappings: one region whose pages alternate protections. */
static void make_mappings(unsigned int n)
{
	char *p = map_pages(n, MAP_NORESERVE);
	unsigned int i;

	for (i = 1; i < n; i += 2)
		if (mprotect(p + i * page, page, PROT_READ))
			die("mprotect: %s", strerror(errno));
}

/* (b) The buffer is mapped first, so it sits above the other mappings. */
static struct sample run_huge(const struct lib *l, unsigned int others)
{
	char *buf = map_pages(64, 0), *p = buf + 32 * page;
	double t, elapsed;
	unsigned long n = 0;
	struct sample s;

	memset(buf, 1, 64 * page);
	make_mappings(others);
	lib_pairs(l, p, 2); /* warm-up */
	t = now_ns();
	do {
		lib_pairs(l, p, 1);
		n++;
		elapsed = now_ns() - t;
	} while (n < 5 || (elapsed < 5e8 && n < 200000));
	s.v[0] = elapsed / n;
	s.v[1] = n;
	s.v[2] = count_mappings();
	return s;
}

static void shuffle(unsigned int *v, unsigned int n, uint64_t seed)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = next_rand(&seed) % (i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* Range k is page 2k: no two ranges touch, so none merge. */
static double sweep(const struct lib *l, char *buf, const unsigned int *order,
		    unsigned int n, bool protect)
{
	double t = now_ns();
	unsigned int i;
	char *p;
	int ret;

	for (i = 0; i < n; i++) {
		p = buf + 2 * (size_t)order[i] * page;
		if (l)
			ret = protect ? l->dontfork(p, page) :
					l->dofork(p, page);
		else
			ret = madvise(p, page,
				      protect ? MADV_DONTFORK : MADV_DOFORK);
		if (ret)
			die("range %u: %s", order[i], strerror(errno));
	}
	return (now_ns() - t) / n;
}

/* (c) Raw madvise first (both directions, per range), then the library. */
static struct sample run_many(const struct lib *l, unsigned int n)
{
	unsigned int *in = malloc(n * sizeof(*in));
	unsigned int *out = malloc(n * sizeof(*out));
	char *buf = map_pages(2 * (size_t)n, MAP_NORESERVE);
	struct sample s;

	if (!in || !out)
		die("out of memory");
	shuffle(in, n, 1);
	shuffle(out, n, 2);
	s.v[2] =
		sweep(NULL, buf, in, n, true) + sweep(NULL, buf, out, n, false);
	s.v[0] = sweep(l, buf, in, n, true);
	s.v[1] = sweep(l, buf, out, n, false);
	free(in);
	free(out);
	return s;
}

/* argv: scenario, library, parameter, result fd. */
static int child_main(char **argv)
{
	unsigned long param = strtoul(argv[2], NULL, 0);
	int fd = atoi(argv[3]);
	struct sample s;
	struct lib l;

	if (argv[0][0] == 'b')
		setenv("RDMAV_HUGEPAGES_SAFE", "1", 1);
	load_lib(argv[1], &l);
	if (argv[0][0] == 'a')
		s = run_pair(&l);
	else if (argv[0][0] == 'b')
		s = run_huge(&l, param);
	else
		s = run_many(&l, param);
	dprintf(fd, "%.17g %.17g %.17g\n", s.v[0], s.v[1], s.v[2]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parent side                                                         */

struct config {
	const char *lib[NUM_LIBS];
	unsigned int rounds;
	unsigned int huge_others;
	unsigned int many;
	const char *only;
	bool strict;
};

static void exec_child(const char *scenario, const char *lib,
		       unsigned long param, int fd)
{
	char p[32], f[16];

	snprintf(p, sizeof(p), "%lu", param);
	snprintf(f, sizeof(f), "%d", fd);
	execl("/proc/self/exe", "fork_bench", "--child", scenario, lib, p, f,
	      (char *)NULL);
	_exit(127);
}

static struct sample run_child(const char *scenario, const char *lib,
			       unsigned long param)
{
	struct sample s = { { 0 } };
	char line[256];
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		close(fds[0]);
		exec_child(scenario, lib, param, fds[1]);
	}
	close(fds[1]);
	n = read(fds[0], line, sizeof(line) - 1);
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n <= 0)
		die("scenario %s with %s failed", scenario, lib);
	line[n] = 0;
	if (sscanf(line, "%lf %lf %lf", &s.v[0], &s.v[1], &s.v[2]) != 3)
		die("bad child report: %s", line);
	return s;
}

/* How a round is ranked: the smaller the better. */
static double score(const struct sample *s, int key)
{
	return key < 0 ? s->v[0] + s->v[1] : s->v[key];
}

/*
 * Best of the rounds per library, by score(@key) (@key < 0: the sum of
 * the first two values); the library that runs first alternates.
 */
static void best_of(const struct config *cf, const char *scenario,
		    unsigned long param, int key, struct sample *best)
{
	struct sample s;
	unsigned int r, k;
	int id;

	for (r = 0; r < cf->rounds; r++) {
		for (k = 0; k < NUM_LIBS; k++) {
			id = (k + r) % NUM_LIBS;
			s = run_child(scenario, cf->lib[id], param);
			if (!r || score(&s, key) < score(&best[id], key))
				best[id] = s;
		}
	}
}

static const char *verdict(bool ok)
{
	return ok ? "PASS" : "MISSED";
}

static bool report_pair(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double ratio;
	int id;

	best_of(cf, "a", 0, 2, b);
	printf("\n(a) dontfork+dofork on one 4 KiB page, median of 61 batches of 1000 pairs\n");
	printf("%-14s %14s %14s %14s\n", "library", "raw pair ns",
	       "library pair ns", "overhead ns");
	for (id = 0; id < NUM_LIBS; id++)
		printf("%-14s %14.1f %15.1f %14.1f\n", lib_label[id],
		       b[id].v[0], b[id].v[1], b[id].v[2]);
	ratio = b[LIB_OURS].v[2] / b[LIB_REF].v[2];
	printf("overhead ours/reference = %.2f   target <= 1   %s\n", ratio,
	       verdict(b[LIB_OURS].v[2] <= b[LIB_REF].v[2]));
	return b[LIB_OURS].v[2] <= b[LIB_REF].v[2];
}

static bool report_huge(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double ratio;
	int id;

	best_of(cf, "b", cf->huge_others, 0, b);
	printf("\n(b) the same pair with RDMAV_HUGEPAGES_SAFE and %u other mappings\n",
	       cf->huge_others);
	printf("%-14s %14s %10s %14s\n", "library", "pair us", "pairs",
	       "maps lines");
	for (id = 0; id < NUM_LIBS; id++)
		printf("%-14s %14.2f %10.0f %14.0f\n", lib_label[id],
		       b[id].v[0] / 1e3, b[id].v[1], b[id].v[2]);
	ratio = b[LIB_REF].v[0] / b[LIB_OURS].v[0];
	printf("reference/ours = %.0fx   target >= 100x   %s\n", ratio,
	       verdict(ratio >= 100));
	return ratio >= 100;
}

static bool report_many(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double t[NUM_LIBS], ratio;
	int id;

	best_of(cf, "c", cf->many, -1, b);
	printf("\n(c) %u disjoint one-page ranges, inserted then removed in random order\n",
	       cf->many);
	printf("%-14s %14s %14s %14s\n", "library", "insert ns/op",
	       "remove ns/op", "raw both ns/op");
	for (id = 0; id < NUM_LIBS; id++) {
		t[id] = b[id].v[0] + b[id].v[1];
		printf("%-14s %14.1f %14.1f %14.1f\n", lib_label[id],
		       b[id].v[0], b[id].v[1], b[id].v[2]);
	}
	ratio = t[LIB_REF] / t[LIB_OURS];
	printf("reference/ours (insert + remove) = %.2fx   target >= 1x   %s\n",
	       ratio, verdict(ratio >= 1));
	return ratio >= 1;
}

/* @text as a number from a sysctl file, or -1. */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static bool write_long(const char *path, long v)
{
	FILE *f = fopen(path, "we");
	bool ok = f && fprintf(f, "%ld\n", v) > 0;

	if (f && fclose(f))
		ok = false;
	return ok;
}

/*
 * (c) needs about two mappings per range. Raise the limit for the run
 * when we may, else shrink the run to fit; returns the old limit to put
 * back, or -1.
 */
static long fit_map_count(struct config *cf)
{
	long have = read_long(MAX_MAP_COUNT), need = 2L * cf->many + 1000;

	if (have < 0 || have >= need)
		return -1;
	if (write_long(MAX_MAP_COUNT, need)) {
		printf("vm.max_map_count raised from %ld to %ld for (c)\n",
		       have, need);
		return have;
	}
	cf->many = (have - 1000) / 2;
	printf("vm.max_map_count is %ld and cannot be raised: (c) uses %u ranges\n",
	       have, cf->many);
	return -1;
}

static bool selected(const struct config *cf, char scenario)
{
	return !cf->only || strchr(cf->only, scenario);
}

static int parent_main(struct config *cf)
{
	bool ok = true;
	long old_maps;
	int id;

	for (id = 0; id < NUM_LIBS; id++)
		if (access(cf->lib[id], R_OK)) {
			printf("fork_bench: SKIP: %s library %s: %s\n",
			       lib_label[id], cf->lib[id], strerror(errno));
			return EXIT_SKIP;
		}
	printf("fork_bench: ours = %s\n            reference = %s\n",
	       cf->lib[LIB_OURS], cf->lib[LIB_REF]);
	printf("%u round(s), a fresh child per library and round; best round shown\n",
	       cf->rounds);
	if (selected(cf, 'a'))
		ok &= report_pair(cf);
	if (selected(cf, 'b'))
		ok &= report_huge(cf);
	if (selected(cf, 'c')) {
		old_maps = fit_map_count(cf);
		ok &= report_many(cf);
		if (old_maps >= 0)
			write_long(MAX_MAP_COUNT, old_maps);
	}
	return cf->strict && !ok ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fork_bench [--rounds N] [--only abc] [--strict] OURS_LIB REF_LIB\n"
		"       (or IBV_BENCH_OURS and IBV_BENCH_REF in the environment)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config cf = { .rounds = 3,
			     .huge_others = 10000,
			     .many = 100000 };
	int c;

	page = sysconf(_SC_PAGESIZE);
	if (argc == 6 && !strcmp(argv[1], "--child"))
		return child_main(argv + 2);
	while ((c = getopt_long(argc, argv, "r:o:sh", opts, NULL)) != -1) {
		if (c == 'r')
			cf.rounds = strtoul(optarg, NULL, 0);
		else if (c == 'o')
			cf.only = optarg;
		else if (c == 's')
			cf.strict = true;
		else
			usage();
	}
	cf.lib[LIB_OURS] = optind < argc ? argv[optind++] :
					   getenv("IBV_BENCH_OURS");
	cf.lib[LIB_REF] = optind < argc ? argv[optind++] :
					  getenv("IBV_BENCH_REF");
	if (!cf.lib[LIB_OURS] || !cf.lib[LIB_REF] || optind != argc ||
	    !cf.rounds)
		usage();
	return parent_main(&cf);
}
