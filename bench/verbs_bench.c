// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_bench - the control path and the data path of our library against
 * Debian's rdma-core 44, side by side in one boot of the test VM, both
 * driving Debian's own rxe provider on rxe0:
 *
 *   open+close, query device/port/GID, alloc+dealloc PD, reg+dereg MR of
 *   4 KiB, 1 MiB and 64 MiB (without and with RDMAV_FORK_SAFE=1), create+
 *   destroy CQ and QP, modify QP RESET->INIT->RTR->RTS->RESET, and on an
 *   RC QP looped back on rxe0: RDMA WRITE and SEND message rate and a SEND
 *   ping-pong between two QPs.
 *
 * Each library lives in a worker process of its own (this program again,
 * with --worker), which dlopen()s it by path with LD_LIBRARY_PATH pointing
 * at its directory, so that the provider binds to the same copy. One
 * process with both libraries (dlmopen) is not an option: a provider must
 * resolve verbs_register_driver_<N> and ibv_cmd_* in the namespace of the
 * library that loads it, and libnl and the providers' constructors do not
 * take kindly to being loaded twice. The parent sends a worker "run line L
 * for N iterations" over a pipe and reads back the elapsed time
 * (CLOCK_MONOTONIC, taken in the worker); only one worker runs at a time,
 * the other waits in read().
 *
 * Per line the parent sizes N on ours so that a batch lasts --batch-ms,
 * then runs --batches pairs of batches. Every pair gets two fresh workers
 * (under TCG a process can be up to 2x slower than another on the same
 * short call, for its whole life, whatever the library): both warm up,
 * then run one timed batch each, back to back, the library that goes
 * first alternating. The pair's ratio is rdma-core's time over ours
 * (above 1: ours is faster); the line's ratio is the median of those, so
 * a slow phase of a shared host hits both sides of a pair and drops out.
 *
 * This file is the parent: the command line, the workers' lives, the
 * batches and the table. The worker is verbs_bench_worker.c, what it runs
 * for each line verbs_bench_lines.c.
 *
 * usage: verbs_bench [options] OURS_LIB REF_LIB   (paths of libibverbs.so.1)
 *
 * Exit status: 0 when every line ran (whatever the speed), 1 when a verb
 * failed, 2 on bad usage, 77 when there is no rxe device (outside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "verbs_bench.h"

#define TARGET_RATIO 0.95
#define MAX_BATCHES 31

struct config {
	const char *lib[2];
	const char *dev;
	const char *gid_index;
	unsigned int batches;
	double batch_ns;
	const char *only;
};

struct worker {
	pid_t pid;
	int to, from;
};

/*
 * Workers run on one CPU, so that none migrates mid-batch. The address
 * space stays randomised: under TCG a process's speed depends on where
 * things land (up to 2x on a short system call, the same library against
 * itself), and fresh layouts per batch make that noise the medians remove
 * rather than a bias that a fixed layout would keep for a whole line.
 */
static void exec_worker(const struct config *cf, int id, bool fork_safe, int in,
			int out)
{
	char dir[PATH_MAX], self[PATH_MAX], fi[16], fo[16];
	ssize_t len;

	snprintf(dir, sizeof(dir), "%s", cf->lib[id]);
	*strrchr(dir, '/') = 0;
	setenv("LD_LIBRARY_PATH", dir, 1);
	if (fork_safe)
		setenv("RDMAV_FORK_SAFE", "1", 1);
	else
		unsetenv("RDMAV_FORK_SAFE");
	unsetenv("IBV_FORK_SAFE");
	pin_last_cpu();
	snprintf(fi, sizeof(fi), "%d", in);
	snprintf(fo, sizeof(fo), "%d", out);
	/* By name: under valgrind, /proc/self/exe is valgrind itself. */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		_exit(127);
	self[len] = 0;
	execl(self, "verbs_bench", "--worker", cf->lib[id], cf->dev,
	      cf->gid_index, fork_safe ? "1" : "0", fi, fo, (char *)NULL);
	_exit(127);
}

static bool get_reply(struct worker *wk, struct reply *rp)
{
	return read(wk->from, rp, sizeof(*rp)) == sizeof(*rp);
}

static void start_worker(const struct config *cf, int id, bool fork_safe,
			 struct worker *wk, bool verbose)
{
	int req[2], rep[2];
	struct reply hello;

	if (pipe2(req, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	wk->pid = fork();
	if (wk->pid < 0)
		die("fork: %s", strerror(errno));
	if (!wk->pid) {
		/* The child's ends must survive the exec. */
		fcntl(req[0], F_SETFD, 0);
		fcntl(rep[1], F_SETFD, 0);
		exec_worker(cf, id, fork_safe, req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	wk->to = req[1];
	wk->from = rep[0];
	if (!get_reply(wk, &hello))
		die("the %s worker did not start", lib_label[id]);
	if (verbose)
		printf("  %-12s %s%s, provider %s\n", lib_label[id],
		       cf->lib[id], fork_safe ? " (RDMAV_FORK_SAFE=1)" : "",
		       hello.msg);
}

static void stop_worker(struct worker *wk)
{
	int status;

	if (!wk->pid)
		return;
	close(wk->to);
	close(wk->from);
	if (waitpid(wk->pid, &status, 0) != wk->pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("a worker ended badly");
	wk->pid = 0;
}

/* One batch: nanoseconds per iteration, or a negative value on failure. */
static double batch(struct worker *wk, unsigned int line, unsigned int n,
		    char *why, size_t len)
{
	struct request rq = { line, n };
	struct reply rp;

	if (write(wk->to, &rq, sizeof(rq)) != sizeof(rq) || !get_reply(wk, &rp))
		die("lost a worker");
	if (rp.err) {
		snprintf(why, len, "%s", rp.msg);
		return -1;
	}
	return rp.ns / n;
}

struct result {
	double t[2]; /* median ns per iteration, per library */
	double ratio, lo, hi; /* median, min and max of the pair ratios */
	unsigned int iters;
	char why[200];
};

/* A fresh pair of workers for @l, library @first started first. */
static void start_pair(const struct config *cf, const struct line *l,
		       struct worker *wk, int first, bool verbose)
{
	start_worker(cf, first, l->fork_safe, &wk[first], verbose);
	start_worker(cf, !first, l->fork_safe, &wk[!first], verbose);
}

static void stop_pair(struct worker *wk)
{
	stop_worker(&wk[0]);
	stop_worker(&wk[1]);
}

/*
 * Size a batch on ours (the first batches are the warm-up of the objects
 * and of the provider) so that it lasts about --batch-ms.
 */
static unsigned int calibrate(const struct config *cf, unsigned int line,
			      struct result *r, bool verbose)
{
	struct worker wk[2] = { { 0 } };
	unsigned int n = 1, k;
	double t, t3;

	start_pair(cf, &lines[line], wk, 0, verbose);
	/* The line's setup (QPs, connections, first faults) is not timed. */
	t = batch(&wk[0], line, 1, r->why, sizeof(r->why));
	while (t >= 0) {
		t = batch(&wk[0], line, n, r->why, sizeof(r->why));
		if (t < 0 || t * n >= cf->batch_ns / 2 || n >= 1u << 24)
			break;
		n = t * n < cf->batch_ns / 64 ? n * 8 : n * 2;
	}
	/*
	 * A stall of the shared host may have ended the doubling early: the
	 * fastest of three more batches of that size sets the size.
	 */
	for (k = 0; k < 3 && t >= 0; k++) {
		t3 = batch(&wk[0], line, n, r->why, sizeof(r->why));
		t = t3 < 0 || t3 < t ? t3 : t;
	}
	stop_pair(wk);
	if (t < 0)
		return 0;
	return cf->batch_ns / t > 1 ? cf->batch_ns / t : 1;
}

/*
 * Batch pair @b on fresh workers: both warm up (a quarter batch: lazy
 * binding, first faults, the provider's first calls), then the timed
 * batches run back to back, the library that goes first alternating.
 */
static bool batch_pair(const struct config *cf, unsigned int line,
		       unsigned int b, struct result *r, double *t)
{
	struct worker wk[2] = { { 0 } };
	unsigned int k, id, warm = r->iters / 4 ? r->iters / 4 : 1;
	bool ok = true;

	start_pair(cf, &lines[line], wk, b % 2, false);
	for (k = 0; k < 2 && ok; k++)
		ok = batch(&wk[k], line, warm, r->why, sizeof(r->why)) >= 0;
	for (k = 0; k < 2 && ok; k++) {
		id = (k + b) % 2;
		t[id] = batch(&wk[id], line, r->iters, r->why, sizeof(r->why));
		ok = t[id] >= 0;
	}
	stop_pair(wk);
	return ok;
}

static bool measure(const struct config *cf, unsigned int line,
		    struct result *r, bool verbose)
{
	double t[2][MAX_BATCHES], ratio[MAX_BATCHES], pair[2];
	unsigned int b;

	r->iters = calibrate(cf, line, r, verbose);
	if (!r->iters)
		return false;
	for (b = 0; b < cf->batches; b++) {
		if (!batch_pair(cf, line, b, r, pair))
			return false;
		t[0][b] = pair[0];
		t[1][b] = pair[1];
		ratio[b] = pair[1] / pair[0];
	}
	r->t[0] = median(t[0], cf->batches);
	r->t[1] = median(t[1], cf->batches);
	r->ratio = median(ratio, cf->batches); /* sorts @ratio */
	r->lo = ratio[0];
	r->hi = ratio[cf->batches - 1];
	return true;
}

/* A time per iteration in the line's unit. */
static void fmt_value(char *buf, size_t len, enum unit u, double ns)
{
	if (u == U_MSG)
		snprintf(buf, len, "%.1f k/s", 1e6 / ns);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static void print_header(void)
{
	printf("\n%-31s %12s %12s %7s %13s %6s  %s\n", "line", "ours",
	       "rdma-core", "ratio", "pair range", "iters", "verdict");
}

static void print_line(const struct line *l, const struct result *r, bool ok)
{
	char a[32], b[32];

	if (!ok) {
		printf("%-31s ERROR: %s\n", l->label, r->why);
		return;
	}
	fmt_value(a, sizeof(a), l->unit, r->t[0]);
	fmt_value(b, sizeof(b), l->unit, r->t[1]);
	printf("%-31s %12s %12s %6.2fx %5.2f-%-5.2f %7u  %s\n", l->label, a, b,
	       r->ratio, r->lo, r->hi, r->iters,
	       r->ratio >= TARGET_RATIO ? "PASS" : "BELOW");
	fflush(stdout);
}

static bool selected(const struct config *cf, const struct line *l)
{
	return !cf->only || strstr(l->label, cf->only);
}

static int parent_main(const struct config *cf)
{
	unsigned int i, below = 0, errors = 0;
	int mode = -1;
	struct result r;
	bool ok, fresh;

	printf("verbs_bench: device %s, per line %u pairs of batches of ~%.0f ms, each pair on a fresh worker per library\n",
	       cf->dev, cf->batches, cf->batch_ns / 1e6);
	printf("ratio = rdma-core time / ours (above 1: ours faster), median over the batch pairs\n");
	for (i = 0; i < num_lines; i++) {
		if (!selected(cf, &lines[i]))
			continue;
		fresh = mode != lines[i].fork_safe;
		mode = lines[i].fork_safe;
		memset(&r, 0, sizeof(r));
		ok = measure(cf, i, &r, fresh);
		if (fresh)
			print_header();
		print_line(&lines[i], &r, ok);
		errors += !ok;
		below += ok && r.ratio < TARGET_RATIO;
	}
	printf("\nverbs_bench: %u line(s) below %.2fx, %u error(s)\n", below,
	       TARGET_RATIO, errors);
	return errors ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: verbs_bench [--batches N] [--batch-ms MS] [--device NAME] [--only TEXT] OURS_LIB REF_LIB\n"
		"       (paths of the two libibverbs.so.1; run inside tests/vm/run)\n");
	exit(2);
}

static void parse(int argc, char **argv, struct config *cf)
{
	static const struct option opts[] = {
		{ "batches", required_argument, NULL, 'b' },
		{ "batch-ms", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, 'd' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "b:m:d:o:", opts, NULL)) != -1) {
		if (c == 'b')
			cf->batches = strtoul(optarg, NULL, 0);
		else if (c == 'm')
			cf->batch_ns = strtod(optarg, NULL) * 1e6;
		else if (c == 'd')
			cf->dev = optarg;
		else if (c == 'o')
			cf->only = optarg;
		else
			usage();
	}
	if (argc - optind != 2 || !cf->batches || cf->batches > MAX_BATCHES ||
	    !(cf->batch_ns > 0))
		usage();
	cf->lib[0] = argv[optind];
	cf->lib[1] = argv[optind + 1];
}

int main(int argc, char **argv)
{
	struct config cf = { .batches = 11, .batch_ns = 40e6 };
	const char *gi = getenv("IBV_VM_RXE_GID_INDEX");
	int id;

	if (argc == 8 && !strcmp(argv[1], "--worker"))
		return worker_main(argv + 2);
	cf.dev = getenv("IBV_VM_RXE");
	cf.gid_index = gi ? gi : "1";
	parse(argc, argv, &cf);
	if (!cf.dev)
		skip("no rxe device (run it in the VM: tests/vm/run)");
	for (id = 0; id < NUM_LIBS; id++)
		if (access(cf.lib[id], R_OK) || !strchr(cf.lib[id], '/'))
			skip("%s library %s: %s", lib_label[id], cf.lib[id],
			     strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	return parent_main(&cf);
}
