// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The helpers that the benchmarks share; see bench_util.h.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

const char *const lib_label[NUM_LIBS] = { "ours", "rdma-core 44" };

/*
 * The program's own name as it was started (every benchmark execs itself
 * under its name for its children), so one die() serves them all.
 */
static void __attribute__((format(printf, 2, 0)))
report(const char *tag, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", program_invocation_short_name, tag);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	exit(1);
}

void skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("SKIP: ", fmt, ap);
	va_end(ap);
	exit(EXIT_SKIP);
}

static double clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Less disturbed than wall time by other load on the machine. */
double cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

uint64_t next_rand(uint64_t *s)
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

void sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double median(double *v, size_t n)
{
	sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Every child on the same CPU: none migrates in the middle of a timing,
 * and neither library gets a quieter core than the other.
 */
void pin_last_cpu(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (cpus > 1) {
		CPU_ZERO(&set);
		CPU_SET(cpus - 1, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
}
