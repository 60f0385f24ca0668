/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The page size of the mapping that holds an address (fork_page_size.c),
 * for the fork tracker with RDMAV_HUGEPAGES_SAFE: the kernel marks whole
 * pages only, so a range in huge pages must be rounded to huge pages.
 *
 * Callers hold the tracker's lock (fork.c); these functions keep state
 * (a descriptor, counters) that the lock protects.
 */
#ifndef IBV_PAGE_SIZE_H
#define IBV_PAGE_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "fork_types.h"

/*
 * The kernel's page size for the mapping holding @addr, or @base when
 * none is found (the madvise() that follows then reports the problem).
 * *vma_end gets the end of that mapping, or UINTPTR_MAX when unknown.
 */
COLD size_t page_size_lookup(uintptr_t addr, size_t base, uintptr_t *vma_end);

/* Test hooks behind verbs_fork_set_pgsz_source() and the statistics. */
void page_size_set_source(enum verbs_fork_pgsz_source src);
/* Fills the look-up counters of @stats, leaving the other fields alone. */
void page_size_get_stats(struct verbs_fork_stats *stats);

#endif
