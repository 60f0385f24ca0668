/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fork tracker's page counts: a red-black tree of disjoint byte
 * ranges [start, end), each with a positive count; a page covered by no
 * range has count 0. Touching ranges never have equal counts (they are
 * merged), so the tree is as small as the set of distinct counts allows
 * and every change costs O(log n) plus the ranges it covers.
 *
 * fork_range_tree.c keeps the tree itself (balance, node reuse, invariants);
 * fork_range_span.c turns "+1 or -1 on every page of [start, end)" into edits
 * of it. Both are bookkeeping only: no system calls and no locking. The
 * tracker (fork.c) serialises every call and makes the madvise() calls.
 */
#ifndef IBV_RANGE_TREE_H
#define IBV_RANGE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fork_types.h"

enum { LEFT, RIGHT };

struct range {
	struct range *parent;
	struct range *child[2];
	bool red;
	uintptr_t start; /* first byte */
	uintptr_t end; /* one past the last byte */
	long refs;
};

struct range_tree {
	struct range *root;
	struct range *spares; /* kept for reuse, linked through child[RIGHT] */
	size_t spare_count;
	size_t node_count;
};

/* The leftmost (@dir LEFT) or rightmost node of @n's subtree. */
static inline struct range *range_extreme(struct range *n, int dir)
{
	while (n->child[dir])
		n = n->child[dir];
	return n;
}

/* The in-order neighbour of @n on side @dir, or NULL. */
static inline HOT struct range *range_step(struct range *n, int dir)
{
	struct range *p;

	if (n->child[dir])
		return range_extreme(n->child[dir], !dir);
	for (p = n->parent; p && n == p->child[dir]; p = p->parent)
		n = p;
	return p;
}

static inline struct range *range_next(struct range *n)
{
	return range_step(n, RIGHT);
}

/* The range before @n in address order; with @n NULL, the last range. */
static inline struct range *range_prev(struct range_tree *t, struct range *n)
{
	if (n)
		return range_step(n, LEFT);
	return t->root ? range_extreme(t->root, RIGHT) : NULL;
}

/* The first range that ends after @addr: it holds @addr or lies above it. */
static inline HOT struct range *range_first_ending_after(struct range_tree *t,
							 uintptr_t addr)
{
	struct range *n = t->root, *best = NULL;

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

int range_tree_refill(struct range_tree *t, size_t needed);

/*
 * Nodes come from a small cache that range_tree_reserve() fills first, so
 * that once a change has begun, nothing in it can fail. The cache
 * usually holds enough: that check stays inline on the fast path.
 */
static inline int range_tree_reserve(struct range_tree *t, size_t needed)
{
	if (t->spare_count >= needed)
		return 0;
	return range_tree_refill(t, needed);
}

/* Insert [start, end) with @refs; a node must have been reserved. */
HOT struct range *range_tree_add(struct range_tree *t, uintptr_t start,
				 uintptr_t end, long refs);
HOT void range_tree_remove(struct range_tree *t, struct range *n);

/*
 * Red-black rules, ordered disjoint ranges, positive counts, no two
 * touching ranges with equal counts, the node count: NULL when all hold,
 * else a short description of the first broken rule.
 */
const char *range_tree_check(struct range_tree *t);

/* fork_range_span.c: one change, +1 or -1 on every page of a span. */

/*
 * One search per change: the steps after range_span_plan() start from
 * @first and walk through neighbours.
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

/* Completes @sp, whose @first the caller has looked up. */
void range_span_plan(struct span *sp);
/* The nodes a change of the planned @sp can need at most. */
size_t range_span_nodes_needed(const struct span *sp, bool protect);
/*
 * The cheap case, checked before planning: the span is exactly one range
 * whose count stays above zero. Changes the count and returns true, or
 * returns false.
 */
bool range_span_count_only(struct range_tree *t, struct span *sp, bool protect);
/* Apply +1 (@protect) or -1 to the planned @sp; the nodes are reserved. */
void range_span_count(struct range_tree *t, struct span *sp, bool protect);

/* A span seen as the ranges and gaps (count 0) it covers, in order. */
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

/* Walk the planned @sp from its start up to @end. */
void range_walk_init(struct walk *w, const struct span *sp, uintptr_t end);
/* The next piece, clipped to the walk's end; false at the end. */
bool range_walk_next(struct walk *w, struct piece *p);

#endif
