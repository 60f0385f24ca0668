/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every file of the fork tracker shares (fork.h lists them): the
 * marks that keep its registration path together, and the types of its
 * debugging and test hooks, which the lower files fill for fork.c. A
 * leaf header: it declares no function and includes no header of the
 * library, so that the tree and page-size files below fork.c need not
 * include fork.c's own header. Library-internal.
 */
#ifndef IBV_FORK_TYPES_H
#define IBV_FORK_TYPES_H

#include <stddef.h>

/*
 * The register/unregister path runs between two madvise() calls, which
 * leave the caches and TLBs cold, and each extra code page it touches
 * costs measurably: the tracker's files keep that path's code together
 * (HOT, which the linker gathers into one section) and the slow paths out
 * of it (COLD, which also tells callers the branch is unlikely).
 */
#define HOT __attribute__((hot))
#define COLD __attribute__((cold))

/* The tracker's counters, read through verbs_fork_get_stats() (fork.h). */
struct verbs_fork_stats {
	/* Page-size look-ups answered by the PROCMAP_QUERY ioctl. */
	unsigned long procmap_queries;
	/* Page-size look-ups answered by scanning /proc/self/smaps. */
	unsigned long smaps_scans;
	/* Times /proc/self/maps was (re)opened for PROCMAP_QUERY. */
	unsigned long maps_opens;
	/* DOFORK calls that failed as a whole and were retried per page. */
	unsigned long dofork_retries;
	/* Live tree nodes and nodes kept for reuse. */
	size_t nodes;
	size_t cached_nodes;
};

/* How the page size of a mapping is found when huge pages are enabled. */
enum verbs_fork_pgsz_source {
	VERBS_FORK_PGSZ_AUTO, /* PROCMAP_QUERY, smaps if the kernel lacks it */
	VERBS_FORK_PGSZ_SMAPS, /* always scan /proc/self/smaps */
};

#endif
