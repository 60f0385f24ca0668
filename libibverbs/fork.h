/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fork tracker: library-private entry points. Not installed and not
 * for providers, which use the exported ibv_dontfork_range() and
 * ibv_dofork_range().
 *
 * The tracker counts, per page, how many registrations want the page kept
 * out of fork() children. Pages go MADV_DONTFORK when their count leaves 0
 * and MADV_DOFORK when it returns to 0. Its files: fork.c (the entry
 * points, the madvise() calls, initialisation), fork_range_tree.c and
 * fork_range_span.c (the counts, see fork_range_tree.h),
 * fork_page_size.c (huge-page sizes, see fork_page_size.h) and
 * fork_cow.c (ibv_is_fork_initialized(), see fork_cow.h); fork_types.h
 * holds what they all share.
 */
#ifndef IBV_FORK_H
#define IBV_FORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fork_cow.h"
#include "fork_types.h"

/*
 * Exported (IBVERBS_1.1) but declared in no installed header: providers
 * see them through driver.h, the library through here. 0, or -1 and errno.
 */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

/*
 * Apply RDMAV_FORK_SAFE / IBV_FORK_SAFE: either one set to anything but "0"
 * calls ibv_fork_init(). Called once, from library initialisation (the
 * first ibv_get_device_list()); prints a warning if the init fails.
 */
void verbs_fork_env_init(void);

/*
 * What memory registration calls. Both return 0 or a positive errno and
 * behave like ibv_dontfork_range() / ibv_dofork_range(): a no-op that makes
 * a later ibv_fork_init() fail with EINVAL while the tracker is off, whole
 * pages (huge pages with RDMAV_HUGEPAGES_SAFE), and no change at all when
 * the dontfork side fails.
 */
int verbs_mem_dontfork(void *addr, size_t len);
int verbs_mem_dofork(void *addr, size_t len);

/* True once ibv_fork_init() has turned the tracker on in this process. */
bool verbs_fork_enabled(void);

/*
 * Debugging and test hooks. They take the tracker's lock, so they are
 * safe to call at any time, but they are not meant for the fast path.
 */

void verbs_fork_get_stats(struct verbs_fork_stats *stats);

void verbs_fork_set_pgsz_source(enum verbs_fork_pgsz_source src);

/*
 * The page size the tracker would use for @addr right now (the base page
 * size unless RDMAV_HUGEPAGES_SAFE was seen by ibv_fork_init()).
 */
size_t verbs_fork_page_size(const void *addr);

/* The registration count of the page that holds @addr (0 if untracked). */
long verbs_fork_refcount(const void *addr);

/*
 * Check the tree: red-black rules, ordered disjoint ranges, positive
 * counts, no two touching ranges with equal counts. Returns 0 when all
 * hold, else a short description of the first broken rule.
 */
const char *verbs_fork_check_tree(void);

#endif
