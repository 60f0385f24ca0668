// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fork safety.
 *
 * A page that an RDMA device may be writing must not become copy-on-write
 * in the parent when the process forks: the first write after fork() would
 * move the parent to a fresh page while the device keeps using the old one.
 * MADV_DONTFORK keeps such pages out of the child instead. Registrations
 * overlap, so the tracker counts, per page, how many of them want the page
 * protected, and only changes the kernel's advice when a count leaves or
 * reaches zero.
 *
 * The counts live in a red-black tree of disjoint byte ranges
 * [start, end), each with a positive count; a page not covered by any
 * range has count 0. Touching ranges never have the same count (they are
 * merged), so the tree is as small as the set of distinct counts allows
 * and every operation costs O(log n) plus the ranges it covers.
 *
 * Every change happens in three phases under one lock: (0) reserve the
 * nodes the change can need, (1) call madvise() on the pages whose count
 * crosses zero, undoing earlier calls if one fails, (2) update the tree.
 * Only phase 1 can fail after phase 0, and it leaves the tree untouched,
 * so a failed dontfork leaves the tree and the mappings as they were.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <infiniband/verbs.h>

#include "ibverbs.h"
#include "kernel-headers/procmap_query.h"
#include "memory.h"

enum { LEFT, RIGHT };

struct range {
	struct range *parent;
	struct range *child[2];
	bool red;
	uintptr_t start; /* first byte */
	uintptr_t end; /* one past the last byte */
	long refs;
};

/*
 * The register/unregister path runs between two madvise() calls, which
 * leave the caches and TLBs cold, and each extra code page it touches
 * costs measurably: keep its code together (HOT) and the slow paths out
 * of it (COLD).
 */
#define HOT __attribute__((hot))
#define COLD __attribute__((cold))

/* Nodes kept for reuse, so that a register/unregister pair costs no malloc. */
#define SPARE_MAX 32

static pthread_mutex_t mm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct range *root;
static struct range *spares; /* linked through child[RIGHT] */
static size_t spare_count;
static size_t node_count;

static bool enabled; /* ibv_fork_init() succeeded */
static bool too_late; /* a range call came first: init would be unsafe */
static bool huge_pages; /* RDMAV_HUGEPAGES_SAFE was seen by ibv_fork_init() */
static size_t base_page;

static enum verbs_fork_pgsz_source pgsz_source = VERBS_FORK_PGSZ_AUTO;
static bool procmap_unsupported;
static struct verbs_fork_stats stats;

/* Our descriptor on /proc/self/maps for PROCMAP_QUERY, and whose it is. */
static int maps_fd = -1;
static pid_t maps_pid;
static dev_t maps_dev;
static ino_t maps_ino;

/* ------------------------------------------------------------------ */
/* Red-black tree                                                      */

static bool is_red(const struct range *n)
{
	return n && n->red;
}

static void replace_child(struct range *parent, struct range *old,
			  struct range *new)
{
	if (!parent)
		root = new;
	else if (parent->child[LEFT] == old)
		parent->child[LEFT] = new;
	else
		parent->child[RIGHT] = new;
}

/* Rotate @x down towards @dir; its child on the other side takes its place. */
static void rotate(struct range *x, int dir)
{
	struct range *y = x->child[!dir];

	x->child[!dir] = y->child[dir];
	if (y->child[dir])
		y->child[dir]->parent = x;
	y->parent = x->parent;
	replace_child(x->parent, x, y);
	y->child[dir] = x;
	x->parent = y;
}

static struct range *extreme(struct range *n, int dir)
{
	while (n->child[dir])
		n = n->child[dir];
	return n;
}

/* The in-order neighbour of @n on side @dir, or NULL. */
static HOT struct range *step(struct range *n, int dir)
{
	struct range *p;

	if (n->child[dir])
		return extreme(n->child[dir], !dir);
	for (p = n->parent; p && n == p->child[dir]; p = p->parent)
		n = p;
	return p;
}

static struct range *next_range(struct range *n)
{
	return step(n, RIGHT);
}

static void insert_fixup(struct range *z)
{
	struct range *p, *g, *u;
	int dir;

	while ((p = z->parent) && p->red) {
		/* A red node is never the root, so the grandparent exists. */
		g = p->parent;
		dir = p == g->child[LEFT] ? LEFT : RIGHT;
		u = g->child[!dir];
		if (is_red(u)) {
			p->red = u->red = false;
			g->red = true;
			z = g;
			continue;
		}
		if (z == p->child[!dir]) {
			rotate(p, dir);
			z = p;
			p = z->parent;
		}
		p->red = false;
		g->red = true;
		rotate(g, !dir);
	}
	root->red = false;
}

static HOT void tree_insert(struct range *n)
{
	struct range **link = &root, *parent = NULL;

	while (*link) {
		parent = *link;
		link = &parent->child[n->start < parent->start ? LEFT : RIGHT];
	}
	n->parent = parent;
	n->child[LEFT] = n->child[RIGHT] = NULL;
	n->red = true;
	*link = n;
	insert_fixup(n);
	node_count++;
}

/*
 * Restore the black height after removing a black node; @x (maybe NULL)
 * took its place under @parent and is one black short.
 */
static void erase_fixup(struct range *x, struct range *parent)
{
	struct range *w;
	int dir;

	while (x != root && !is_red(x)) {
		dir = x == parent->child[LEFT] ? LEFT : RIGHT;
		w = parent->child[!dir];
		if (w->red) {
			w->red = false;
			parent->red = true;
			rotate(parent, dir);
			w = parent->child[!dir];
		}
		if (!is_red(w->child[LEFT]) && !is_red(w->child[RIGHT])) {
			w->red = true;
			x = parent;
			parent = x->parent;
			continue;
		}
		if (!is_red(w->child[!dir])) {
			w->child[dir]->red = false;
			w->red = true;
			rotate(w, !dir);
			w = parent->child[!dir];
		}
		w->red = parent->red;
		parent->red = false;
		w->child[!dir]->red = false;
		rotate(parent, dir);
		x = root;
	}
	if (x)
		x->red = false;
}

/* Put @y, the in-order successor of @z, where @z is. */
static void move_into_place(struct range *z, struct range *y)
{
	replace_child(z->parent, z, y);
	y->parent = z->parent;
	y->child[LEFT] = z->child[LEFT];
	y->child[LEFT]->parent = y;
	y->red = z->red;
}

static HOT void tree_erase(struct range *z)
{
	struct range *x, *parent, *y;
	bool was_red;

	if (!z->child[LEFT] || !z->child[RIGHT]) {
		x = z->child[LEFT] ? z->child[LEFT] : z->child[RIGHT];
		parent = z->parent;
		was_red = z->red;
		replace_child(parent, z, x);
	} else {
		y = extreme(z->child[RIGHT], LEFT);
		was_red = y->red;
		x = y->child[RIGHT];
		parent = y;
		if (y->parent != z) {
			parent = y->parent;
			parent->child[LEFT] = x;
			y->child[RIGHT] = z->child[RIGHT];
			y->child[RIGHT]->parent = y;
		}
		move_into_place(z, y);
	}
	if (x)
		x->parent = parent;
	if (!was_red)
		erase_fixup(x, parent);
	node_count--;
}

/* The first range that ends after @addr: it holds @addr or lies above it. */
static HOT struct range *first_ending_after(uintptr_t addr)
{
	struct range *n = root, *best = NULL;

	while (n) {
		if (n->end > addr) {
			best = n;
			n = n->child[LEFT];
		} else {
			n = n->child[RIGHT];
		}
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* Node allocation                                                     */

static int reserve_spares(size_t needed)
{
	struct range *n;

	while (spare_count < needed) {
		n = malloc(sizeof(*n));
		if (!n)
			return ENOMEM;
		n->child[RIGHT] = spares;
		spares = n;
		spare_count++;
	}
	return 0;
}

/* Only called after reserve_spares() made sure there is one. */
static struct range *take_spare(void)
{
	struct range *n = spares;

	spares = n->child[RIGHT];
	spare_count--;
	return n;
}

static void put_spare(struct range *n)
{
	if (spare_count >= SPARE_MAX) {
		free(n);
		return;
	}
	n->child[RIGHT] = spares;
	spares = n;
	spare_count++;
}

static struct range *add_range(uintptr_t start, uintptr_t end, long refs)
{
	struct range *n = take_spare();

	n->start = start;
	n->end = end;
	n->refs = refs;
	tree_insert(n);
	return n;
}

static void remove_range(struct range *n)
{
	tree_erase(n);
	put_spare(n);
}

/* ------------------------------------------------------------------ */
/* Phase 0: what [start, end) covers, and how many nodes it can need   */

/*
 * One search per change: the phases after this one start from @first and
 * step through neighbours, so the cost is O(log n) plus the ranges
 * covered.
 */
struct span {
	uintptr_t start;
	uintptr_t end;
	size_t unit; /* page size at start, for per-page retries */
	struct range *first; /* first range ending after start, or NULL */
	struct range *last; /* last range starting before end, or NULL */
	size_t gaps; /* stretches at count 0 inside [start, end) */
	size_t ones; /* ranges at count 1 inside [start, end) */
};

/* Completes @sp, whose first range the caller has looked up. */
static void plan_span(struct span *sp)
{
	struct range *n = sp->first;
	uintptr_t pos = sp->start;

	sp->last = NULL;
	sp->gaps = 0;
	sp->ones = 0;
	for (; n && n->start < sp->end; n = next_range(n)) {
		sp->gaps += n->start > pos;
		sp->ones += n->refs == 1;
		pos = n->end;
		sp->last = n;
		if (pos >= sp->end)
			break;
	}
	sp->gaps += pos < sp->end;
}

/* Splits of a range across either end, plus a node per gap to fill. */
static size_t nodes_needed(const struct span *sp, bool protect)
{
	size_t needed = protect ? sp->gaps : 0;

	needed += sp->first && sp->first->start < sp->start;
	needed += sp->last && sp->last->end > sp->end;
	return needed;
}

/* ------------------------------------------------------------------ */
/* Walking a span as a sequence of ranges and gaps                     */

struct walk {
	uintptr_t pos;
	uintptr_t end;
	struct range *next; /* first range ending after pos */
};

struct piece {
	uintptr_t start;
	uintptr_t end;
	struct range *range; /* NULL for a gap (count 0) */
};

static void walk_init(struct walk *w, const struct span *sp, uintptr_t end)
{
	w->pos = sp->start;
	w->end = end;
	w->next = sp->first;
}

static uintptr_t min_addr(uintptr_t a, uintptr_t b)
{
	return a < b ? a : b;
}

/* The next piece, clipped to the walk's end; false at the end. */
static bool walk_next(struct walk *w, struct piece *p)
{
	struct range *n = w->next;

	if (w->pos >= w->end)
		return false;
	p->start = w->pos;
	if (n && n->start <= w->pos) {
		p->range = n;
		p->end = min_addr(n->end, w->end);
		w->next = p->end < w->end ? next_range(n) : NULL;
	} else {
		p->range = NULL;
		p->end = n ? min_addr(n->start, w->end) : w->end;
	}
	w->pos = p->end;
	return true;
}

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
	stats.dofork_retries++;
	for (; start < end; start += unit)
		advise(start, start + unit, MADV_DOFORK);
}

/* Undo the DONTFORK calls made on the gaps of the span up to @end. */
static COLD void undo_gaps(const struct span *sp, uintptr_t end)
{
	struct walk w;
	struct piece p;

	walk_init(&w, sp, end);
	while (walk_next(&w, &p))
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

	walk_init(&w, sp, sp->end);
	while (walk_next(&w, &p)) {
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

	walk_init(&w, sp, sp->end);
	while (walk_next(&w, &p))
		if (p.range && p.range->refs == 1)
			dofork_span(p.start, p.end, sp->unit);
}

/* ------------------------------------------------------------------ */
/* Phase 2: the tree                                                   */

/* Cut @n at @addr, inside it; returns the new upper part. */
static struct range *split(struct range *n, uintptr_t addr)
{
	struct range *upper = add_range(addr, n->end, n->refs);

	n->end = addr;
	return upper;
}

/* Make the span's ends range boundaries; returns the first range inside. */
static struct range *split_ends(struct span *sp)
{
	struct range *n = sp->first;

	if (n && n->start < sp->start) {
		n = split(n, sp->start);
		if (sp->last == sp->first)
			sp->last = n;
	}
	if (sp->last && sp->last->end > sp->end)
		split(sp->last, sp->end);
	return n;
}

/* Absorb @n's right neighbour if they touch with equal counts. */
static void merge_right(struct range *n)
{
	struct range *r = next_range(n);

	if (r && r->start == n->end && r->refs == n->refs) {
		n->end = r->end;
		remove_range(r);
	}
}

/* Let @n's left neighbour absorb it if they touch with equal counts. */
static void merge_left(struct range *n)
{
	struct range *l = step(n, LEFT);

	if (l && l->end == n->start && l->refs == n->refs) {
		l->end = n->end;
		remove_range(n);
	}
}

/*
 * Ranges inside the span keep their differences, so only the two ends
 * can need a merge: @head starts at the span's start, @tail ends at its
 * end (either may be NULL). The tail goes first, as the head may vanish.
 */
static HOT void merge_ends(struct range *head, struct range *tail)
{
	if (tail)
		merge_right(tail);
	if (head)
		merge_left(head);
}

static void count_up(const struct span *sp, struct range *n)
{
	struct range *cur = NULL, *head = NULL;
	uintptr_t pos = sp->start;

	while (pos < sp->end) {
		if (n && n->start == pos) {
			cur = n;
			cur->refs++;
			n = n->end < sp->end ? next_range(n) : NULL;
		} else {
			cur = add_range(pos,
					n && n->start < sp->end ? n->start :
								  sp->end,
					1);
		}
		if (!head)
			head = cur;
		pos = cur->end;
	}
	merge_ends(head, cur);
}

/*
 * Pages already at 0 stay at 0: an unbalanced dofork must not leave a debt
 * that would keep a later registration of the page unprotected.
 */
static void count_down(const struct span *sp, struct range *n)
{
	struct range *next, *head = NULL, *tail = NULL;

	for (; n && n->start < sp->end; n = next) {
		next = n->end < sp->end ? next_range(n) : NULL;
		if (--n->refs == 0) {
			remove_range(n);
			continue;
		}
		if (n->start == sp->start)
			head = n;
		if (n->end == sp->end)
			tail = n;
	}
	merge_ends(head, tail);
}

/*
 * The span is exactly one range whose count stays above zero (a buffer
 * registered again, or released by one of several users): no system
 * call, no split, only the count and maybe a merge with a neighbour.
 */
static bool count_only(struct span *sp, bool protect)
{
	struct range *n = sp->first;

	if (!n || n != sp->last || n->start != sp->start || n->end != sp->end ||
	    (!protect && n->refs == 1))
		return false;
	n->refs += protect ? 1 : -1;
	merge_ends(n, n);
	return true;
}

/* The range just below [start, ...), whether or not it touches it. */
static struct range *range_below(const struct span *sp)
{
	if (sp->first)
		return step(sp->first, LEFT);
	return root ? extreme(root, RIGHT) : NULL;
}

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
		remove_range(n);
		*ret = 0;
		return true;
	}
	if (n && n->start <= sp->end)
		return false;
	below = range_below(sp);
	if (below && below->end == sp->start)
		return false;
	*ret = reserve_spares(1);
	if (!*ret)
		*ret = advise(sp->start, sp->end, MADV_DONTFORK);
	if (!*ret)
		add_range(sp->start, sp->end, 1);
	return true;
}

static HOT int change_range(struct span *sp, bool protect)
{
	struct range *n;
	int ret;

	/* One search; every later step walks from this range. */
	sp->first = first_ending_after(sp->start);
	if (change_alone(sp, protect, &ret))
		return ret;
	plan_span(sp);
	if (count_only(sp, protect))
		return 0;
	ret = reserve_spares(nodes_needed(sp, protect));
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
	n = split_ends(sp);
	if (protect)
		count_up(sp, n);
	else
		count_down(sp, n);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Page size of the mapping that holds an address                      */

static bool maps_fd_is_ours(void)
{
	struct stat st;

	if (fstat(maps_fd, &st))
		return false;
	return st.st_dev == maps_dev && st.st_ino == maps_ino;
}

/*
 * A descriptor on /proc/self/maps stays bound to the address space it was
 * opened in, so a forked child must not reuse its parent's. And the
 * application may have closed ours and reused the number; the identity
 * check keeps us from sending the ioctl to some other file.
 */
static int get_maps_fd(void)
{
	struct stat st;
	bool ours = maps_fd >= 0 && maps_fd_is_ours();

	if (ours && maps_pid == getpid())
		return maps_fd;
	if (ours)
		close(maps_fd);
	maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (maps_fd < 0)
		return -1;
	if (fstat(maps_fd, &st)) {
		close(maps_fd);
		maps_fd = -1;
		return -1;
	}
	maps_pid = getpid();
	maps_dev = st.st_dev;
	maps_ino = st.st_ino;
	stats.maps_opens++;
	return maps_fd;
}

static COLD int procmap_page_size(uintptr_t addr, size_t *size,
				  uintptr_t *vma_end)
{
	struct procmap_query q = { .size = sizeof(q), .query_addr = addr };
	int fd = get_maps_fd();

	if (fd < 0)
		return errno;
	if (ioctl(fd, PROCMAP_QUERY, &q)) {
		/* "Nothing mapped there" is an answer too. */
		if (errno == ENOENT)
			stats.procmap_queries++;
		return errno;
	}
	stats.procmap_queries++;
	*size = q.vma_page_size;
	*vma_end = q.vma_end;
	return 0;
}

/* Parse an smaps mapping line, "start-end perms ...". */
static bool vma_header(const char *line, uintptr_t *lo, uintptr_t *hi)
{
	unsigned long a, b;

	/* Field lines ("Size:", "KernelPageSize:", ...) start in upper case. */
	if (!((line[0] >= '0' && line[0] <= '9') ||
	      (line[0] >= 'a' && line[0] <= 'f')))
		return false;
	if (sscanf(line, "%lx-%lx ", &a, &b) != 2)
		return false;
	*lo = a;
	*hi = b;
	return true;
}

/* Kernels before 6.11 only say it in smaps, mapping by mapping. */
static COLD int smaps_page_size(uintptr_t addr, size_t *size,
				uintptr_t *vma_end)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char *line = NULL;
	size_t cap = 0;
	uintptr_t lo, hi;
	unsigned long kb;
	bool inside = false;
	int ret = ENOENT;

	stats.smaps_scans++;
	if (!f)
		return errno;
	while (getline(&line, &cap, f) > 0) {
		if (vma_header(line, &lo, &hi)) {
			/* Mappings come in address order. */
			if (inside || lo > addr)
				break;
			inside = addr < hi;
			if (inside)
				*vma_end = hi;
		} else if (inside &&
			   sscanf(line, "KernelPageSize: %lu kB", &kb) == 1) {
			*size = kb * 1024;
			ret = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* A kernel before 6.11: stop asking, and stop holding the descriptor. */
static COLD void give_up_procmap(void)
{
	procmap_unsupported = true;
	if (maps_fd >= 0 && maps_fd_is_ours())
		close(maps_fd);
	maps_fd = -1;
}

/*
 * The page size the kernel uses for the mapping holding @addr; the base
 * page size when huge pages are off or the mapping cannot be found (the
 * madvise() that follows will then report the real problem).
 */
static COLD size_t page_size_at(uintptr_t addr, uintptr_t *vma_end)
{
	size_t size = base_page;
	int ret;

	*vma_end = UINTPTR_MAX;
	if (!huge_pages)
		return base_page;
	if (pgsz_source == VERBS_FORK_PGSZ_AUTO && !procmap_unsupported) {
		ret = procmap_page_size(addr, &size, vma_end);
		if (!ret)
			return size;
		if (ret == ENOENT)
			return base_page;
		if (ret == ENOTTY)
			give_up_procmap();
	}
	if (smaps_page_size(addr, &size, vma_end))
		return base_page;
	return size;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */

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

static HOT int mem_change(void *addr, size_t len, bool protect)
{
	struct span sp;
	int ret = 0;

	pthread_mutex_lock(&mm_lock);
	if (!enabled) {
		/* This range goes unprotected; a later init would lie. */
		too_late = true;
		goto out;
	}
	if (!addr || !len)
		goto out;
	ret = page_bounds(addr, len, &sp);
	if (!ret)
		ret = change_range(&sp, protect);
out:
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

HOT int verbs_mem_dontfork(void *addr, size_t len)
{
	return mem_change(addr, len, true);
}

HOT int verbs_mem_dofork(void *addr, size_t len)
{
	return mem_change(addr, len, false);
}

HOT int ibv_dontfork_range(void *base, size_t size)
{
	int ret = verbs_mem_dontfork(base, size);

	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

HOT int ibv_dofork_range(void *base, size_t size)
{
	int ret = verbs_mem_dofork(base, size);

	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

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
	if (too_late)
		return EINVAL;
	errno = EINVAL;
	size = sysconf(_SC_PAGESIZE);
	if (size <= 0)
		return errno;
	base_page = size;
	ret = probe_madvise();
	if (ret)
		return ret;
	enabled = true;
	return 0;
}

int ibv_fork_init(void)
{
	static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
	int ret;

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
/* Kernel copy-on-fork                                                 */

static int cof_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	uint8_t *cof = arg;

	if (nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1, NULL))
		return NL_STOP;
	if (tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK])
		*cof = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]);
	return NL_OK;
}

/*
 * Kernels that copy pinned DMA pages into the child at fork() say so in
 * the RDMA "sys" attributes (since Linux 5.13). Any failure (no RDMA
 * netlink, an older kernel without the attribute) means "no".
 */
static bool kernel_copies_on_fork(void)
{
	struct timeval tv = { .tv_sec = 5 };
	struct nl_sock *sk = nl_socket_alloc();
	uint8_t cof = 0;

	if (!sk)
		return false;
	if (nl_connect(sk, NETLINK_RDMA))
		goto out;
	/* The kernel always answers, but never hang a caller on it. */
	setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	if (nl_send_simple(
		    sk, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET),
		    0, NULL, 0) < 0)
		goto out;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cof_reply, &cof);
	if (nl_recvmsgs_default(sk) < 0)
		cof = 0;
out:
	nl_socket_free(sk);
	return cof;
}

static bool copy_on_fork;

static void query_copy_on_fork(void)
{
	copy_on_fork = kernel_copies_on_fork();
}

enum ibv_fork_status ibv_is_fork_initialized(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, query_copy_on_fork);
	if (copy_on_fork)
		return IBV_FORK_UNNEEDED;
	return verbs_fork_enabled() ? IBV_FORK_ENABLED : IBV_FORK_DISABLED;
}

/* ------------------------------------------------------------------ */
/* Debugging and test hooks                                            */

void verbs_fork_get_stats(struct verbs_fork_stats *out)
{
	pthread_mutex_lock(&mm_lock);
	*out = stats;
	out->nodes = node_count;
	out->cached_nodes = spare_count;
	pthread_mutex_unlock(&mm_lock);
}

void verbs_fork_set_pgsz_source(enum verbs_fork_pgsz_source src)
{
	pthread_mutex_lock(&mm_lock);
	pgsz_source = src;
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
	n = first_ending_after((uintptr_t)addr);
	if (n && n->start <= (uintptr_t)addr)
		ret = n->refs;
	pthread_mutex_unlock(&mm_lock);
	return ret;
}

/* Returns the black height of @n's subtree, or -1 with *why set. */
static int check_subtree(const struct range *n, const char **why)
{
	int lh, rh;

	if (!n)
		return 0;
	if (n->red && (is_red(n->child[LEFT]) || is_red(n->child[RIGHT]))) {
		*why = "red node with a red child";
		return -1;
	}
	if ((n->child[LEFT] && n->child[LEFT]->parent != n) ||
	    (n->child[RIGHT] && n->child[RIGHT]->parent != n)) {
		*why = "broken parent link";
		return -1;
	}
	lh = check_subtree(n->child[LEFT], why);
	rh = lh < 0 ? -1 : check_subtree(n->child[RIGHT], why);
	if (lh < 0 || rh < 0)
		return -1;
	if (lh != rh) {
		*why = "unequal black heights";
		return -1;
	}
	return lh + !n->red;
}

static const char *check_order(void)
{
	struct range *n, *prev = NULL;
	size_t count = 0;

	for (n = root ? extreme(root, LEFT) : NULL; n; n = next_range(n)) {
		count++;
		if (n->start >= n->end)
			return "empty or inverted range";
		if (n->refs <= 0)
			return "range with a count below 1";
		if (prev && prev->end > n->start)
			return "overlapping or unordered ranges";
		if (prev && prev->end == n->start && prev->refs == n->refs)
			return "touching ranges with equal counts";
		prev = n;
	}
	if (count != node_count)
		return "node count mismatch";
	return NULL;
}

const char *verbs_fork_check_tree(void)
{
	const char *why = NULL;

	pthread_mutex_lock(&mm_lock);
	if (is_red(root))
		why = "red root";
	else if (root && root->parent)
		why = "root has a parent";
	else if (check_subtree(root, &why) >= 0)
		why = check_order();
	pthread_mutex_unlock(&mm_lock);
	return why;
}
