/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of device_list_bench share: the knobs, what one child
 * measured, the child itself (device_list_bench_child.c), the fake
 * system it runs in (device_list_bench_fake.c) and the fake RDMA netlink
 * of its netlink runs (device_list_bench_nl.c). See device_list_bench.c
 * for how a run goes.
 */
#ifndef DEVICE_LIST_BENCH_H
#define DEVICE_LIST_BENCH_H

#include <stdbool.h>

#include "bench_util.h"

/* IBV_CONFIG_DIR of both libraries, fixed when they were built. */
#define HOST_DRIVER_DIR "/etc/libibverbs.d"

/* Where the libraries find the devices: the two paths of discovery. */
enum bench_mode { MODE_SYSFS, MODE_NETLINK, NUM_MODES };

/* Knobs shared by the parent and, through argv, the children. */
struct config {
	enum bench_mode mode; /* of the children being run */
	bool run_mode[NUM_MODES];
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
	/* Resident memory after the cold call, and what the call added. */
	double rss_kb, hwm_kb, rss_delta_kb;
	/* Netlink runs: the requests the cold call made of the fake. */
	unsigned int nl_dumps, nl_chardevs;
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

/*
 * In a netlink child: answer RDMA netlink with the same @devices devices
 * the fake sysfs tree holds (before the library is loaded).
 */
void fake_netlink(unsigned int devices);

/* The dump and GET_CHARDEV requests the fake has answered so far. */
void fake_netlink_requests(unsigned int *dumps, unsigned int *chardevs);

#endif
