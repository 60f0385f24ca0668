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
 * first. Rounds alternate the libraries; the median round of each counts.
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
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_MAP_COUNT "/proc/sys/vm/max_map_count"

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
 * (a) Short runs of PER_SAMPLE pairs, raw and library alternately, each
 * timed on its own: the medians shrug off the preemptions and interrupts
 * of a shared machine, alternating spreads any drift over both, and the
 * clock's own cost is in both medians and cancels in the difference.
 */
static struct sample run_pair(const struct lib *l)
{
	enum { SAMPLES = 1001, PER_SAMPLE = 8 };
	double *raw = malloc(SAMPLES * sizeof(*raw));
	double *lib = malloc(SAMPLES * sizeof(*lib));
	char *buf = map_pages(64, 0);
	char *p = buf + 32 * page; /* inside the mapping: a real VMA split */
	struct sample s;
	int i;

	if (!raw || !lib)
		die("out of memory");
	memset(buf, 1, 64 * page);
	raw_pairs(p, 2000); /* warm-up */
	lib_pairs(l, p, 2000);
	for (i = 0; i < SAMPLES; i++) {
		raw[i] = raw_pairs(p, PER_SAMPLE);
		lib[i] = lib_pairs(l, p, PER_SAMPLE);
	}
	s.v[0] = median(raw, SAMPLES);
	s.v[1] = median(lib, SAMPLES);
	s.v[2] = s.v[1] - s.v[0];
	free(raw);
	free(lib);
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
	s.v[0] = elapsed / n / 1e3; /* microseconds */
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

/*
 * Children differ only in the library: the same address-space layout (no
 * randomisation) and the same CPU, so that a library is not measured
 * against luckier cache placement or a quieter core.
 */
static void settle_child(void)
{
	personality(personality(0xffffffff) | ADDR_NO_RANDOMIZE);
	pin_last_cpu();
}

static void exec_child(const char *scenario, const char *lib,
		       unsigned long param, int fd)
{
	char p[32], f[16];

	settle_child();
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

static void print_row(const char *label, const struct sample *s)
{
	printf("  %-22s %12.1f %12.1f %12.1f\n", label, s->v[0], s->v[1],
	       s->v[2]);
}

static void print_medians(const struct sample *b)
{
	int id;

	for (id = 0; id < NUM_LIBS; id++)
		print_row(lib_label[id], &b[id]);
}

/* How a round is ranked: @key < 0 is the sum of the first two values. */
static double score(const struct sample *s, int key)
{
	return key < 0 ? s->v[0] + s->v[1] : s->v[key];
}

#define MAX_ROUNDS 64
#define PAIR_ROUNDS(cf) \
	(9 * (cf)->rounds < MAX_ROUNDS ? 9 * (cf)->rounds : MAX_ROUNDS)

/* Mean and standard error of the mean of @v over @n rounds. */
static void mean_sem(const double *v, unsigned int n, double *mean, double *sem)
{
	double sum = 0, sq = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*sem = n > 1 ? sqrt(sq / (n - 1) / n) : 0;
}

/*
 * Every round runs one child per library, the library that goes first
 * alternating. Each round is shown, and the median round of each library
 * (by score(@key)) is the result: no lucky round decides.
 */
static void median_round(const struct config *cf, const char *scenario,
			 unsigned int n, unsigned long param, int key,
			 struct sample *mid, double *mean, double *sem)
{
	struct sample all[NUM_LIBS][MAX_ROUNDS];
	char label[32];
	double keys[MAX_ROUNDS];
	unsigned int r, k;
	int id;

	for (r = 0; r < n; r++) {
		for (k = 0; k < NUM_LIBS; k++) {
			id = (k + r) % NUM_LIBS;
			all[id][r] = run_child(scenario, cf->lib[id], param);
			snprintf(label, sizeof(label), "round %u %s", r + 1,
				 lib_label[id]);
			print_row(label, &all[id][r]);
		}
	}
	for (id = 0; id < NUM_LIBS; id++) {
		for (r = 0; r < n; r++)
			keys[r] = score(&all[id][r], key);
		if (mean)
			mean_sem(keys, n, &mean[id], &sem[id]);
		sort_doubles(keys, n);
		for (r = 0; r < n; r++)
			if (score(&all[id][r], key) == keys[n / 2])
				mid[id] = all[id][r];
	}
	printf("  median round:\n");
}

static const char *verdict(bool ok)
{
	return ok ? "PASS" : "MISSED";
}

/*
 * (a) The overhead is a small difference of two times of microseconds, and
 * it varies from process to process far more than within one (it depends
 * on where code and data land in the caches), with two clusters about
 * 300 ns apart. A median of such a mixture jumps between the clusters, so
 * the verdict uses the mean over many short children, with its standard
 * error.
 */
static bool report_pair(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double mean[NUM_LIBS], sem[NUM_LIBS], diff, noise;
	bool ok;
	int id;

	printf("\n(a) dontfork+dofork on one 4 KiB page, against raw madvise pairs:\n"
	       "    per child the medians of 1001 runs of 8 pairs each, raw and library alternately\n");
	printf("  %-22s %12s %12s %12s\n", "ns per pair", "raw", "library",
	       "overhead");
	median_round(cf, "a", PAIR_ROUNDS(cf), 0, 2, b, mean, sem);
	print_medians(b);
	printf("  mean overhead over %u children per library:\n",
	       PAIR_ROUNDS(cf));
	for (id = 0; id < NUM_LIBS; id++)
		printf("  %-22s %12.1f ns  +- %.1f (2 standard errors)\n",
		       lib_label[id], mean[id], 2 * sem[id]);
	diff = mean[LIB_OURS] - mean[LIB_REF];
	noise = 2 * sqrt(sem[LIB_OURS] * sem[LIB_OURS] +
			 sem[LIB_REF] * sem[LIB_REF]);
	ok = diff <= 0;
	printf("  overhead ours - reference = %+.1f ns (+- %.1f)   target <= 0   %s%s\n",
	       diff, noise, verdict(ok),
	       fabs(diff) < noise ? " (within noise)" : "");
	return ok;
}

static bool report_huge(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double ratio;

	printf("\n(b) the same pair with RDMAV_HUGEPAGES_SAFE and %u other mappings\n",
	       cf->huge_others);
	printf("  %-22s %12s %12s %12s\n", "", "us per pair", "pairs timed",
	       "maps lines");
	median_round(cf, "b", cf->rounds, cf->huge_others, 0, b, NULL, NULL);
	print_medians(b);
	ratio = b[LIB_REF].v[0] / b[LIB_OURS].v[0];
	printf("  reference/ours = %.0fx   target >= 100x   %s\n", ratio,
	       verdict(ratio >= 100));
	return ratio >= 100;
}

static bool report_many(const struct config *cf)
{
	struct sample b[NUM_LIBS];
	double ratio;

	printf("\n(c) %u disjoint one-page ranges inserted, then removed, in random order\n",
	       cf->many);
	printf("  %-22s %12s %12s %12s\n", "ns per range", "insert", "remove",
	       "raw both");
	median_round(cf, "c", cf->rounds, cf->many, -1, b, NULL, NULL);
	print_medians(b);
	ratio = score(&b[LIB_REF], -1) / score(&b[LIB_OURS], -1);
	printf("  reference/ours (insert + remove) = %.2fx   target >= 1x   %s\n",
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
		if (access(cf->lib[id], R_OK))
			skip("%s library %s: %s", lib_label[id], cf->lib[id],
			     strerror(errno));
	printf("fork_bench: ours = %s\n            reference = %s\n",
	       cf->lib[LIB_OURS], cf->lib[LIB_REF]);
	printf("%u round(s) ((a): %u), a fresh child per library and round; the median round counts\n",
	       cf->rounds, PAIR_ROUNDS(cf));
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
	struct config cf = { .rounds = 5,
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
	    !cf.rounds || cf.rounds > MAX_ROUNDS)
		usage();
	return parent_main(&cf);
}
