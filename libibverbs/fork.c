// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fork safety: the tracker behind ibv_fork_init(), ibv_dontfork_range()
 * and ibv_dofork_range().
 *
 * A page that an RDMA device may be writing must not become copy-on-write
 * in the parent when the process forks: the first write after fork() would
 * move the parent to a fresh page while the device keeps using the old one.
 * MADV_DONTFORK keeps such pages out of the child instead. Registrations
 * overlap, so the tracker counts, per page, how many of them want the page
 * protected (fork_range_tree.h), and only changes the kernel's advice when a
 * count leaves or reaches zero.
 *
 * Every change happens in three phases under one lock: (0) reserve the
 * nodes the change can need, (1) call madvise() on the pages whose count
 * crosses zero, undoing earlier calls if one fails, (2) update the tree.
 * Only phase 1 can fail after phase 0, and it leaves the tree untouched,
 * so a failed dontfork leaves the tree and the mappings as they were.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "driver.h"
#include "env.h"
#include "export.h"
#include "fork.h"
#include "fork_page_size.h"
#include "fork_range_tree.h"

/* Guards everything below, and fork_page_size.c's state. */
static pthread_mutex_t mm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct range_tree tree;

/*
 * ibv_fork_init() succeeded; and a range call came first, so that an
 * init would be unsafe. Both only ever turn true, and a registration
 * reads them without the lock (see untracked()).
 */
static bool enabled;
static bool too_late;
static bool huge_pages; /* RDMAV_HUGEPAGES_SAFE was seen by ibv_fork_init() */
static size_t base_page;

static unsigned long dofork_retries; /* see struct verbs_fork_stats */

/* ------------------------------------------------------------------ */
/* Phase 1: the kernel's advice                                        */

static int advise(uintptr_t start, uintptr_t end, int advice)
{
	if (madvise((void *)start, end - start, advice))
		return errno;
	return 0;
}

/*
 * DOFORK cannot be allowed to fail: the pages are no longer ours to keep.
 * If the range has holes (the caller unmapped part of it) or something
 * else refuses, give each page its own chance and ignore the errors.
 */
static void dofork_span(uintptr_t start, uintptr_t end, size_t unit)
{
	if (!advise(start, end, MADV_DOFORK))
		return;
	dofork_retries++;
	for (; start < end; start += unit)
		advise(start, start + unit, MADV_DOFORK);
}

/* Undo the DONTFORK calls made on the gaps of the span up to @end. */
static COLD void undo_gaps(const struct span *sp, uintptr_t end)
{
	struct walk w;
	struct piece p;

	range_walk_init(&w, sp, end);
	while (range_walk_next(&w, &p))
		if (!p.range)
			dofork_span(p.start, p.end, sp->unit);
}

/*
 * Pages at count 0 go DONTFORK. A failed call may have advised part of its
 * gap already (madvise() skips holes but reports them), so the undo
 * covers the failed gap too.
 */
static int protect_gaps(const struct span *sp)
{
	struct walk w;
	struct piece p;
	int ret;

	range_walk_init(&w, sp, sp->end);
	while (range_walk_next(&w, &p)) {
		if (p.range)
			continue;
		ret = advise(p.start, p.end, MADV_DONTFORK);
		if (ret) {
			undo_gaps(sp, p.end);
			return ret;
		}
	}
	return 0;
}

static void release_ones(const struct span *sp)
{
	struct walk w;
	struct piece p;

	range_walk_init(&w, sp, sp->end);
	while (range_walk_next(&w, &p))
		if (p.range && p.range->refs == 1)
			dofork_span(p.start, p.end, sp->unit);
}

/* ------------------------------------------------------------------ */
/* One change                                                          */

/*
 * The usual pair, registering memory no one else registered and releasing
 * it, needs neither splits nor merges: a span that is one gap touching no
 * range becomes one node, and a span that is exactly one node at count 1
 * goes away. Returns false when the general path must run.
 */
static HOT bool change_alone(struct span *sp, bool protect, int *ret)
{
	struct range *n = sp->first, *below;

	if (!protect) {
		if (!n || n->start != sp->start || n->end != sp->end ||
		    n->refs != 1)
			return false;
		dofork_span(sp->start, sp->end, sp->unit);
		range_tree_remove(&tree, n);
		*ret = 0;
		return true;
	}
	if (n && n->start <= sp->end)
		return false;
	below = range_prev(&tree, n);
	if (below && below->end == sp->start)
		return false;
	*ret = range_tree_reserve(&tree, 1);
	if (*ret)
		return true;
	*ret = advise(sp->start, sp->end, MADV_DONTFORK);
	/* madvise() goes on past a hole: undo all of the span, one gap. */
	if (*ret)
		undo_gaps(sp, sp->end);
	else
		range_tree_add(&tree, sp->start, sp->end, 1);
	return true;
}

static HOT int change_range(struct span *sp, bool protect)
{
	int ret;

	/* One search; every later step walks from this range. */
	sp->first = range_first_ending_after(&tree, sp->start);
	if (change_alone(sp, protect, &ret))
		return ret;
	if (range_span_count_only(&tree, sp, protect))
		return 0;
	range_span_plan(sp);
	ret = range_tree_reserve(&tree, range_span_nodes_needed(sp, protect));
	if (ret)
		return ret;
	/* Most changes of a shared page cross no zero: no system call. */
	if (protect && sp->gaps) {
		ret = protect_gaps(sp);
		if (ret)
			return ret;
	} else if (!protect && sp->ones) {
		release_ones(sp);
	}
	range_span_count(&tree, sp, protect);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */

/* The base page size unless RDMAV_HUGEPAGES_SAFE asks to look. */
static COLD size_t page_size_at(uintptr_t addr, uintptr_t *vma_end)
{
	*vma_end = UINTPTR_MAX;
	if (!huge_pages)
		return base_page;
	return page_size_lookup(addr, base_page, vma_end);
}

/*
 * Round [addr, addr + len) out to whole pages of the mappings that hold
 * its first and last byte.
 */
static int page_bounds(const void *addr, size_t len, struct span *sp)
{
	uintptr_t a = (uintptr_t)addr, vma_end, last;
	size_t lo_size = base_page, hi_size = base_page;

	if (len > UINTPTR_MAX - a)
		return EINVAL;
	last = a + len - 1;
	if (huge_pages) {
		lo_size = page_size_at(a, &vma_end);
		hi_size = last < vma_end ? lo_size :
					   page_size_at(last, &vma_end);
	}
	if (last > UINTPTR_MAX - hi_size)
		return EINVAL;
	sp->start = a & ~(uintptr_t)(lo_size - 1);
	sp->end = (last | (hi_size - 1)) + 1;
	sp->unit = lo_size;
	return 0;
}

/*
 * Whether a range call may skip the tracker, which is off: most programs
 * never ask for fork safety, and their registrations take no lock. The
 * range goes unprotected, so a later init would lie: too_late says so.
 * With an init running on another thread, the two flags are written and
 * then the other's read, each in that order (sequentially consistent): at
 * least one side sees the other, so either the range is tracked, or the
 * init fails (tracker_init() turns enabled back off, and the locked path
 * below looks again).
 */
static HOT bool untracked(void)
{
	if (__atomic_load_n(&enabled, __ATOMIC_SEQ_CST))
		return false;
	if (!__atomic_load_n(&too_late, __ATOMIC_RELAXED))
		__atomic_store_n(&too_late, true, __ATOMIC_SEQ_CST);
	return !__atomic_load_n(&enabled, __ATOMIC_SEQ_CST);
}

/* The tracker's side of mem_change(), apart so its frame costs the rest nothing. */
static __attribute__((noinline)) int tracked_change(void *addr, size_t len,
						    bool protect)
{
	struct span sp;
	int ret = 0;

	pthread_mutex_lock(&mm_lock);
	if (!enabled)
		goto out;
	if (!addr || !len)
		goto out;
	ret = page_bounds(addr, len, &sp);
	if (!ret)
		ret = change_range(&sp, protect);
out:
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

static inline int mem_change(void *addr, size_t len, bool protect)
{
	return untracked() ? 0 : tracked_change(addr, len, protect);
}

HOT int verbs_mem_dontfork(void *addr, size_t len)
{
	return mem_change(addr, len, true);
}

HOT int verbs_mem_dofork(void *addr, size_t len)
{
	return mem_change(addr, len, false);
}

IBV_EXPORT HOT int ibv_dontfork_range(void *base, size_t size)
{
	int ret = verbs_mem_dontfork(base, size);

	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

IBV_EXPORT HOT int ibv_dofork_range(void *base, size_t size)
{
	int ret = verbs_mem_dofork(base, size);

	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Initialisation                                                      */

/* Check that this kernel honours MADV_DONTFORK, on a page of our own. */
static int probe_madvise(void)
{
	void *p = mmap(NULL, base_page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret = 0;

	if (p == MAP_FAILED)
		return ENOMEM;
	if (madvise(p, base_page, MADV_DONTFORK) ||
	    madvise(p, base_page, MADV_DOFORK))
		ret = ENOSYS;
	munmap(p, base_page);
	return ret;
}

/*
 * Hold the lock across fork() so that the child never inherits it taken,
 * or the tree half-changed, from another thread.
 */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&mm_lock);
}

static void atfork_release(void)
{
	pthread_mutex_unlock(&mm_lock);
}

static void register_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_release, atfork_release);
}

static int tracker_init(void)
{
	long size;
	int ret;

	if (enabled)
		return 0;
	if (__atomic_load_n(&too_late, __ATOMIC_RELAXED))
		return EINVAL;
	errno = EINVAL;
	size = sysconf(_SC_PAGESIZE);
	if (size <= 0)
		return errno;
	base_page = size;
	ret = probe_madvise();
	if (ret)
		return ret;
	/* Announce, then look for a range call that came first (untracked()). */
	__atomic_store_n(&enabled, true, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&too_late, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&enabled, false, __ATOMIC_SEQ_CST);
		return EINVAL;
	}
	return 0;
}

IBV_EXPORT int ibv_fork_init(void)
{
	static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
	int ret;

	/*
	 * The kernel keeps the parent's pinned pages its own: fork safety
	 * holds already, and the tracker would only cost a split mapping per
	 * registration and the registered pages in every child.
	 */
	if (verbs_fork_copy_on_fork())
		return 0;
	pthread_mutex_lock(&mm_lock);
	/* Read on every call and never forgotten, even if the init fails. */
	if (env_present(ENV_RDMAV_HUGEPAGES_SAFE))
		huge_pages = true;
	ret = tracker_init();
	pthread_mutex_unlock(&mm_lock);
	if (!ret)
		pthread_once(&atfork_once, register_atfork);
	return ret;
}

/* The kernel's answer first: where it copies on fork, nothing is needed. */
IBV_EXPORT enum ibv_fork_status ibv_is_fork_initialized(void)
{
	if (verbs_fork_copy_on_fork())
		return IBV_FORK_UNNEEDED;
	return verbs_fork_enabled() ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
}

bool verbs_fork_enabled(void)
{
	bool ret;

	pthread_mutex_lock(&mm_lock);
	ret = enabled;
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

static const char *init_failure_cause(int err)
{
	switch (err) {
	case EINVAL:
		return "memory was registered before fork protection was requested";
	case ENOSYS:
		return "the kernel refused madvise(MADV_DONTFORK)";
	default:
		return strerror(err);
	}
}

void verbs_fork_env_init(void)
{
	enum verbs_env var;
	int ret;

	if (env_enabled(ENV_RDMAV_FORK_SAFE))
		var = ENV_RDMAV_FORK_SAFE;
	else if (env_enabled(ENV_IBV_FORK_SAFE))
		var = ENV_IBV_FORK_SAFE;
	else
		return;
	ret = ibv_fork_init();
	if (ret)
		fprintf(stderr,
			"libibverbs: Warning: %s is set but fork protection could not be enabled: %s\n",
			env_name(var), init_failure_cause(ret));
}

/* ------------------------------------------------------------------ */
/* Debugging and test hooks                                            */

void verbs_fork_get_stats(struct verbs_fork_stats *out)
{
	pthread_mutex_lock(&mm_lock);
	page_size_get_stats(out);
	out->dofork_retries = dofork_retries;
	out->nodes = tree.node_count;
	out->cached_nodes = tree.spare_count;
	pthread_mutex_unlock(&mm_lock);
}

void verbs_fork_set_pgsz_source(enum verbs_fork_pgsz_source src)
{
	pthread_mutex_lock(&mm_lock);
	page_size_set_source(src);
	pthread_mutex_unlock(&mm_lock);
}

size_t verbs_fork_page_size(const void *addr)
{
	uintptr_t vma_end;
	size_t ret;

	pthread_mutex_lock(&mm_lock);
	ret = enabled ? page_size_at((uintptr_t)addr, &vma_end) : 0;
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

long verbs_fork_refcount(const void *addr)
{
	struct range *n;
	long ret = 0;

	pthread_mutex_lock(&mm_lock);
	n = range_first_ending_after(&tree, (uintptr_t)addr);
	if (n && n->start <= (uintptr_t)addr)
		ret = n->refs;
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

const char *verbs_fork_check_tree(void)
{
	const char *why;

	pthread_mutex_lock(&mm_lock);
	why = range_tree_check(&tree);
	pthread_mutex_unlock(&mm_lock);
	return why;
}
