// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * device_list_bench - ibv_get_device_list() of our library against
 * Debian's rdma-core 44, on a fake sysfs tree of many devices, found
 * through sysfs alone and through a fake RDMA netlink.
 *
 * The parent builds the tree and a private /dev in a mount namespace of
 * its own, then runs every measurement in a fresh child (this program
 * again, in child mode) that dlopen()s one library by path. A child per
 * library keeps the two libraries, their providers and their caches
 * apart, and makes the first call really cold.
 *
 * This file is the parent: the command line, the children and the table.
 * The child is device_list_bench_child.c, the fake system it sees
 * device_list_bench_fake.c, and the netlink it sees in a netlink run
 * device_list_bench_nl.c.
 *
 * Exit status: 0 when every call returned the expected devices (whatever
 * the speed), 1 on a functional error, 2 on bad usage, 77 when the
 * benchmark cannot run here (not root, no mount namespaces, no reference).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"
#include "device_list_bench.h"

#define PROVIDER_SUFFIX IBVERBS_PROVIDER_SUFFIX

static const char *const mode_label[NUM_MODES] = { "sysfs", "netlink" };

/* Paths the children need, resolved once. */
struct child_env {
	const char *sysfs; /* SYSFS_PATH: the fake tree */
	char self[PATH_MAX];
	char drivers[PATH_MAX]; /* RDMAV_DRIVERS: provider minus its suffix */
	char libdir[NUM_LIBS][PATH_MAX];
};

static void dir_of(const char *file, char *dir)
{
	char *slash;

	if (!realpath(file, dir))
		die("%s: %s", file, strerror(errno));
	slash = strrchr(dir, '/');
	*slash = '\0';
}

static void resolve_env(const struct config *cf, struct child_env *ce)
{
	size_t len, slen = strlen(PROVIDER_SUFFIX);
	ssize_t n;
	int i;

	/* Valgrind reports the client here, not itself. */
	n = readlink("/proc/self/exe", ce->self, sizeof(ce->self) - 1);
	if (n < 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
	ce->self[n] = '\0';
	if (!realpath(cf->provider, ce->drivers))
		die("provider %s: %s", cf->provider, strerror(errno));
	len = strlen(ce->drivers);
	if (len <= slen || strcmp(ce->drivers + len - slen, PROVIDER_SUFFIX))
		die("provider %s does not end in %s", cf->provider,
		    PROVIDER_SUFFIX);
	ce->drivers[len - slen] = '\0';
	for (i = 0; i < NUM_LIBS; i++)
		if (cf->run[i])
			dir_of(cf->lib[i], ce->libdir[i]);
}

static void exec_child(const struct config *cf, const struct child_env *ce,
		       enum lib_id id, int result_fd)
{
	char fd[16], devices[16], iters[16], warmup[16], min_time[32];
	char *argv[] = { (char *)ce->self,
			 (char *)"--child",
			 (char *)"--result-fd",
			 fd,
			 (char *)"--devices",
			 devices,
			 (char *)"--min-iters",
			 iters,
			 (char *)"--warmup-ms",
			 warmup,
			 (char *)"--min-time",
			 min_time,
			 (char *)(cf->mode == MODE_NETLINK ? "--netlink" :
							     "--sysfs"),
			 (char *)cf->lib[id],
			 NULL };

	snprintf(fd, sizeof(fd), "%d", result_fd);
	snprintf(devices, sizeof(devices), "%u", cf->devices);
	snprintf(iters, sizeof(iters), "%u", cf->min_iters);
	snprintf(warmup, sizeof(warmup), "%u", cf->warmup_ms);
	snprintf(min_time, sizeof(min_time), "%.17g", cf->min_time);
	if (fcntl(result_fd, F_SETFD, 0) ||
	    setenv("SYSFS_PATH", ce->sysfs, 1) ||
	    setenv("RDMAV_DRIVERS", ce->drivers, 1) ||
	    unsetenv("IBV_DRIVERS") ||
	    setenv("LD_LIBRARY_PATH", ce->libdir[id], 1)) {
		perror("device_list_bench: child set-up");
		_exit(1);
	}
	execv(ce->self, argv);
	perror("device_list_bench: execv");
	_exit(1);
}

static void wait_child(pid_t pid, enum lib_id id)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP)
		exit(EXIT_SKIP);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("the %s child failed (status 0x%x)", lib_label[id], status);
}

static void run_child(const struct config *cf, const struct child_env *ce,
		      enum lib_id id, struct sample *s)
{
	char buf[256];
	ssize_t len = 0, n;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		exec_child(cf, ce, id, p[1]);
	close(p[1]);
	while ((n = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(p[0]);
	buf[len] = '\0';
	wait_child(pid, id);
	if (sscanf(buf, "%lf %lf %lf %lf %lu %lf %lf %lf %u %u", &s->cold_ns,
		   &s->cold_cpu_ns, &s->warm_median_ns, &s->warm_mean_ns,
		   &s->calls, &s->rss_kb, &s->hwm_kb, &s->rss_delta_kb,
		   &s->nl_dumps, &s->nl_chardevs) != 10)
		die("the %s child sent no result", lib_label[id]);
}

/* Round results of one library, folded into one line of the table. */
static struct sample summarise(struct sample *r, unsigned int rounds)
{
	double cold[rounds], cpu[rounds], med[rounds], weighted = 0;
	double rss[rounds], hwm[rounds], delta[rounds];
	struct sample s = {};
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		cold[i] = r[i].cold_ns;
		cpu[i] = r[i].cold_cpu_ns;
		med[i] = r[i].warm_median_ns;
		rss[i] = r[i].rss_kb;
		hwm[i] = r[i].hwm_kb;
		delta[i] = r[i].rss_delta_kb;
		weighted += r[i].warm_mean_ns * r[i].calls;
		s.calls += r[i].calls;
	}
	s.cold_ns = median(cold, rounds);
	s.cold_cpu_ns = median(cpu, rounds);
	s.warm_median_ns = median(med, rounds);
	s.rss_kb = median(rss, rounds);
	s.hwm_kb = median(hwm, rounds);
	s.rss_delta_kb = median(delta, rounds);
	s.warm_mean_ns = s.calls ? weighted / s.calls : 0;
	return s;
}

static void print_row(const char *label, const struct sample *s)
{
	printf("%-14s %9.3f %12.3f", label, s->cold_ns / 1e6,
	       s->cold_cpu_ns / 1e6);
	if (s->calls)
		printf(" %13.2f %13.2f %11lu\n", s->warm_median_ns / 1e3,
		       s->warm_mean_ns / 1e3, s->calls);
	else
		printf(" %13s %13s %11s\n", "-", "-", "0");
}

static const char *verdict(double ratio, double target)
{
	return ratio >= target ? "PASS" : "BELOW TARGET";
}

/*
 * The memory a process holds once its first listing is done: all of it
 * (VmRSS), its peak so far (VmHWM), and what the cold call added.
 */
static void print_memory(const struct config *cf, const struct sample *sum)
{
	int i;

	printf("\n%-14s %9s %12s %13s\n", "after cold", "rss KiB", "peak KiB",
	       "cold +KiB");
	for (i = 0; i < NUM_LIBS; i++)
		if (cf->run[i])
			printf("%-14s %9.0f %12.0f %13.0f\n", lib_label[i],
			       sum[i].rss_kb, sum[i].hwm_kb,
			       sum[i].rss_delta_kb);
}

/*
 * The verdicts use wall time: cold on the median run, warm on the median
 * call. The CPU-time ratio is shown to tell noise from a real loss.
 */
static void print_table(const struct config *cf, const struct sample *sum)
{
	const struct sample *o = &sum[LIB_OURS], *r = &sum[LIB_REF];
	const char *mode = mode_label[cf->mode];
	double cold, warm;
	int i;

	printf("\n%-14s %9s %12s %13s %13s %11s\n", mode, "cold ms",
	       "cold cpu ms", "warm med us", "warm mean us", "warm calls");
	for (i = 0; i < NUM_LIBS; i++)
		if (cf->run[i])
			print_row(lib_label[i], &sum[i]);
	print_memory(cf, sum);
	if (!cf->run[LIB_OURS] || !cf->run[LIB_REF])
		return;
	cold = r->cold_ns / o->cold_ns;
	warm = r->warm_median_ns / o->warm_median_ns;
	printf("\n%-8s reference/ours  cold %8.2fx  (cpu %.2fx)  target >= 1x   %s\n",
	       mode, cold, r->cold_cpu_ns / o->cold_cpu_ns, verdict(cold, 1.0));
	printf("%-8s reference/ours  rss  %8.2fx  (ours %+.0f KiB)\n", mode,
	       r->rss_kb / o->rss_kb, o->rss_kb - r->rss_kb);
	if (!o->calls || !r->calls)
		return;
	printf("%-8s reference/ours  warm %8.2fx                 target >= 10x  %s\n",
	       mode, warm, verdict(warm, 10.0));
}

static void print_round(unsigned int round, enum lib_id id,
			const struct sample *s)
{
	printf("round %-3u %-13s cold %8.3f ms (cpu %8.3f)  rss %6.0f KiB",
	       round + 1, lib_label[id], s->cold_ns / 1e6, s->cold_cpu_ns / 1e6,
	       s->rss_kb);
	if (s->nl_dumps)
		printf("  nl: %u dump, %u chardev", s->nl_dumps,
		       s->nl_chardevs);
	if (s->calls)
		printf("  warm median %9.2f us  mean %9.2f us  %6lu calls",
		       s->warm_median_ns / 1e3, s->warm_mean_ns / 1e3,
		       s->calls);
	printf("\n");
}

/* Every round of one mode, then its table. */
static void run_mode(const struct config *cf, const struct child_env *ce)
{
	struct sample rounds[NUM_LIBS][cf->rounds], sum[NUM_LIBS];
	unsigned int r, k;

	printf("\n%s: %s\n", mode_label[cf->mode],
	       cf->mode == MODE_NETLINK ?
		       "a fake RDMA netlink lists the devices; sysfs has the rest" :
		       "RDMA netlink hidden; sysfs lists the devices");
	for (r = 0; r < cf->rounds; r++) {
		/* Alternate the order so neither library always goes first. */
		for (k = 0; k < NUM_LIBS; k++) {
			enum lib_id id = (r + k) % NUM_LIBS;

			if (!cf->run[id])
				continue;
			run_child(cf, ce, id, &rounds[id][r]);
			print_round(r, id, &rounds[id][r]);
		}
	}
	for (k = 0; k < NUM_LIBS; k++)
		if (cf->run[k])
			sum[k] = summarise(rounds[k], cf->rounds);
	print_table(cf, sum);
}

static int parent_main(struct config *cf)
{
	struct child_env ce;
	int m;

	if (cf->run[LIB_REF] && access(cf->lib[LIB_REF], R_OK))
		skip("reference library %s: %s (unpack it with tests/reference/fetch DESTDIR)",
		     cf->lib[LIB_REF], strerror(errno));
	resolve_env(cf, &ce);
	/* The children inherit it: both libraries on the same core. */
	pin_last_cpu();
	ce.sysfs = fake_system(cf);
	printf("device_list_bench: %u devices, %s sysfs, %s; %u round(s) of a child per library: one cold call",
	       cf->devices, cf->sysfs_links ? "linked" : "plain",
	       cf->host_providers ? "host providers too" : "test provider only",
	       cf->rounds);
	if (cf->min_iters || cf->min_time > 0)
		printf(", %u ms warm-up, then >= %u warm calls and >= %.2f s",
		       cf->warmup_ms, cf->min_iters, cf->min_time);
	printf("\n");
	for (m = 0; m < NUM_MODES; m++) {
		if (!cf->run_mode[m])
			continue;
		cf->mode = (enum bench_mode)m;
		run_mode(cf, &ce);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Command line.                                                       */
/* ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr,
		"usage: device_list_bench [options] OURS_LIB REF_LIB PROVIDER\n"
		"  OURS_LIB   our libibverbs.so.1\n"
		"  REF_LIB    rdma-core 44's libibverbs.so.1\n"
		"  PROVIDER   the test provider, .../libtestprov" IBVERBS_PROVIDER_SUFFIX
		"\n"
		"options:\n"
		"  --devices N     fake devices (default 1024)\n"
		"  --rounds N      child processes per library (default 5)\n"
		"  --warmup-ms N   warm-up before timing warm calls (default 200)\n"
		"  --min-iters N   at least N timed warm calls (default 20)\n"
		"  --min-time S    and at least S seconds of them (default 1);\n"
		"                  with --min-iters 0 --min-time 0, cold calls only\n"
		"  --only ours|ref measure one library only\n"
		"  --sysfs         the sysfs runs only (RDMA netlink hidden)\n"
		"  --netlink       the netlink runs only (a fake RDMA netlink);\n"
		"                  default: both, sysfs first\n"
		"  --sysfs-links   class entries as symlinks into devices/, as\n"
		"                  on a real kernel (default: plain directories)\n"
		"  --host-providers  also load the providers " HOST_DRIVER_DIR
		"\n"
		"                  lists (default: hidden; test provider only)\n");
	exit(2);
}

static unsigned int parse_uint(const char *s, unsigned int min,
			       unsigned int max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		usage();
	return (unsigned int)v;
}

static double parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 3600))
		usage();
	return v;
}

static void parse_only(struct config *cf, const char *s)
{
	if (!strcmp(s, "ours"))
		cf->run[LIB_REF] = false;
	else if (!strcmp(s, "ref"))
		cf->run[LIB_OURS] = false;
	else
		usage();
}

enum {
	OPT_DEVICES = 256,
	OPT_ROUNDS,
	OPT_WARMUP,
	OPT_ITERS,
	OPT_TIME,
	OPT_ONLY,
	OPT_LINKS,
	OPT_HOST_PROVIDERS,
	OPT_SYSFS,
	OPT_NETLINK,
	OPT_CHILD,
	OPT_RESULT_FD
};

static const struct option options[] = {
	{ "devices", required_argument, NULL, OPT_DEVICES },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "warmup-ms", required_argument, NULL, OPT_WARMUP },
	{ "min-iters", required_argument, NULL, OPT_ITERS },
	{ "min-time", required_argument, NULL, OPT_TIME },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "sysfs-links", no_argument, NULL, OPT_LINKS },
	{ "host-providers", no_argument, NULL, OPT_HOST_PROVIDERS },
	{ "sysfs", no_argument, NULL, OPT_SYSFS },
	{ "netlink", no_argument, NULL, OPT_NETLINK },
	{ "child", no_argument, NULL, OPT_CHILD },
	{ "result-fd", required_argument, NULL, OPT_RESULT_FD },
	{}
};

int main(int argc, char **argv)
{
	struct config cf = { .devices = 1024,
			     .rounds = 5,
			     .min_iters = 20,
			     .warmup_ms = 200,
			     .min_time = 1.0,
			     .run = { true, true } };
	bool child = false;
	int opt, result_fd = -1;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case OPT_DEVICES:
			cf.devices = parse_uint(optarg, 1, 1u << 20);
			break;
		case OPT_ROUNDS:
			cf.rounds = parse_uint(optarg, 1, 1000);
			break;
		case OPT_WARMUP:
			cf.warmup_ms = parse_uint(optarg, 0, 3600000);
			break;
		case OPT_ITERS:
			cf.min_iters = parse_uint(optarg, 0, 100000000);
			break;
		case OPT_TIME:
			cf.min_time = parse_seconds(optarg);
			break;
		case OPT_ONLY:
			parse_only(&cf, optarg);
			break;
		case OPT_LINKS:
			cf.sysfs_links = true;
			break;
		case OPT_HOST_PROVIDERS:
			cf.host_providers = true;
			break;
		case OPT_SYSFS:
			cf.run_mode[MODE_SYSFS] = true;
			break;
		case OPT_NETLINK:
			cf.run_mode[MODE_NETLINK] = true;
			break;
		case OPT_CHILD:
			child = true;
			break;
		case OPT_RESULT_FD:
			result_fd = (int)parse_uint(optarg, 0, 1u << 20);
			break;
		default:
			usage();
		}
	}
	if (child) {
		if (argc - optind != 1 || result_fd < 0)
			usage();
		cf.lib[0] = argv[optind];
		if (cf.run_mode[MODE_NETLINK])
			cf.mode = MODE_NETLINK;
		return child_main(&cf, result_fd);
	}
	if (!cf.run_mode[MODE_SYSFS] && !cf.run_mode[MODE_NETLINK])
		cf.run_mode[MODE_SYSFS] = cf.run_mode[MODE_NETLINK] = true;
	if (argc - optind != 3)
		usage();
	cf.lib[LIB_OURS] = argv[optind];
	cf.lib[LIB_REF] = argv[optind + 1];
	cf.provider = argv[optind + 2];
	return parent_main(&cf);
}
