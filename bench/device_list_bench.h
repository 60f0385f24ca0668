/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of device_list_bench share: the knobs, what one child
 * measured, the child itself (device_list_bench_child.c) and the fake
 * system it runs in (device_list_bench_fake.c). See device_list_bench.c
 * for how a run goes.
 */
#ifndef DEVICE_LIST_BENCH_H
#define DEVICE_LIST_BENCH_H

#include <stdbool.h>

#include "bench_util.h"

/* IBV_CONFIG_DIR of both libraries, fixed when they were built. */
#define HOST_DRIVER_DIR "/etc/libibverbs.d"

/* Knobs shared by the parent and, through argv, the children. */
struct config {
	unsigned int devices;
	unsigned int rounds;
	unsigned int min_iters;
	unsigned int warmup_ms;
	double min_time;
	bool sysfs_links;
	bool host_providers;
	const char *lib[NUM_LIBS];
	const char *provider;
	bool run[NUM_LIBS];
};

/* What one child measured. */
struct sample {
	double cold_ns;
	double cold_cpu_ns; /* user + system time of the process */
	double warm_median_ns;
	double warm_mean_ns;
	unsigned long calls;
};

/*
 * The child: one library (@cf->lib[0]), one process; its sample goes to
 * @result_fd as one line of text.
 */
int child_main(const struct config *cf, int result_fd);

/*
 * Enter a private mount namespace and build there what the children see
 * (see device_list_bench_fake.c), as @cf asks; returns the root of the
 * fake sysfs tree, removed at exit. Skips (exit 77) where it cannot.
 */
const char *fake_system(const struct config *cf);

#endif
