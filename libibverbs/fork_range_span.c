// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One change of the fork tracker's page counts: +1 (protect) or -1 on
 * every page of a span [start, end), applied to the tree of fork_range_tree.h.
 *
 * The tracker (fork.c) runs a change in three phases: (0)
 * range_span_plan() and range_tree_reserve() find what the span covers
 * and set aside every node the change can need, (1) fork.c calls
 * madvise() on the pages whose count crosses zero, walking the span with
 * range_walk_next(), (2) range_span_count() updates the tree. Phase 2
 * cannot fail, so when phase 1 fails the tree is simply left as it was.
 */
#include "fork_range_tree.h"

static uintptr_t min_addr(uintptr_t a, uintptr_t b)
{
	return a < b ? a : b;
}

/* ------------------------------------------------------------------ */
/* Phase 0: what [start, end) covers, and how many nodes it can need   */

void range_span_plan(struct span *sp)
{
	struct range *n = sp->first;
	uintptr_t pos = sp->start;

	sp->last = NULL;
	sp->gaps = 0;
	sp->ones = 0;
	for (; n && n->start < sp->end; n = range_next(n)) {
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
size_t range_span_nodes_needed(const struct span *sp, bool protect)
{
	size_t needed = protect ? sp->gaps : 0;

	needed += sp->first && sp->first->start < sp->start;
	needed += sp->last && sp->last->end > sp->end;
	return needed;
}

/* ------------------------------------------------------------------ */
/* Walking a span as a sequence of ranges and gaps                     */

void range_walk_init(struct walk *w, const struct span *sp, uintptr_t end)
{
	w->pos = sp->start;
	w->end = end;
	w->next = sp->first;
}

bool range_walk_next(struct walk *w, struct piece *p)
{
	struct range *n = w->next;

	if (w->pos >= w->end)
		return false;
	p->start = w->pos;
	if (n && n->start <= w->pos) {
		p->range = n;
		p->end = min_addr(n->end, w->end);
		w->next = p->end < w->end ? range_next(n) : NULL;
	} else {
		p->range = NULL;
		p->end = n ? min_addr(n->start, w->end) : w->end;
	}
	w->pos = p->end;
	return true;
}

/* ------------------------------------------------------------------ */
/* Phase 2: the tree                                                   */

/* Cut @n at @addr, inside it; returns the new upper part. */
static struct range *split(struct range_tree *t, struct range *n,
			   uintptr_t addr)
{
	struct range *upper = range_tree_add(t, addr, n->end, n->refs);

	n->end = addr;
	return upper;
}

/* Make the span's ends range boundaries; returns the first range inside. */
static struct range *split_ends(struct range_tree *t, struct span *sp)
{
	struct range *n = sp->first;

	if (n && n->start < sp->start) {
		n = split(t, n, sp->start);
		if (sp->last == sp->first)
			sp->last = n;
	}
	if (sp->last && sp->last->end > sp->end)
		split(t, sp->last, sp->end);
	return n;
}

/* Absorb @n's right neighbour if they touch with equal counts. */
static void merge_right(struct range_tree *t, struct range *n)
{
	struct range *r = range_next(n);

	if (r && r->start == n->end && r->refs == n->refs) {
		n->end = r->end;
		range_tree_remove(t, r);
	}
}

/* Let @n's left neighbour absorb it if they touch with equal counts. */
static void merge_left(struct range_tree *t, struct range *n)
{
	struct range *l = range_step(n, LEFT);

	if (l && l->end == n->start && l->refs == n->refs) {
		l->end = n->end;
		range_tree_remove(t, n);
	}
}

/*
 * Ranges inside the span keep their differences, so only the two ends
 * can need a merge: @head starts at the span's start, @tail ends at its
 * end (either may be NULL). The tail goes first, as the head may vanish.
 */
static HOT void merge_ends(struct range_tree *t, struct range *head,
			   struct range *tail)
{
	if (tail)
		merge_right(t, tail);
	if (head)
		merge_left(t, head);
}

static void count_up(struct range_tree *t, const struct span *sp,
		     struct range *n)
{
	struct range *cur = NULL, *head = NULL;
	uintptr_t pos = sp->start, gap_end;

	while (pos < sp->end) {
		if (n && n->start == pos) {
			cur = n;
			cur->refs++;
			n = n->end < sp->end ? range_next(n) : NULL;
		} else {
			gap_end = n && n->start < sp->end ? n->start : sp->end;
			cur = range_tree_add(t, pos, gap_end, 1);
		}
		if (!head)
			head = cur;
		pos = cur->end;
	}
	merge_ends(t, head, cur);
}

/*
 * Pages already at 0 stay at 0: an unbalanced dofork must not leave a debt
 * that would keep a later registration of the page unprotected.
 */
static void count_down(struct range_tree *t, const struct span *sp,
		       struct range *n)
{
	struct range *next, *head = NULL, *tail = NULL;

	for (; n && n->start < sp->end; n = next) {
		next = n->end < sp->end ? range_next(n) : NULL;
		if (--n->refs == 0) {
			range_tree_remove(t, n);
			continue;
		}
		if (n->start == sp->start)
			head = n;
		if (n->end == sp->end)
			tail = n;
	}
	merge_ends(t, head, tail);
}

/*
 * A buffer registered again, or released by one of several users: no
 * system call, no split, only the count and maybe a merge with a
 * neighbour. A range that starts and ends with the span is the only one
 * in it, so this needs no plan.
 */
bool range_span_count_only(struct range_tree *t, struct span *sp, bool protect)
{
	struct range *n = sp->first;

	if (!n || n->start != sp->start || n->end != sp->end ||
	    (!protect && n->refs == 1))
		return false;
	n->refs += protect ? 1 : -1;
	merge_ends(t, n, n);
	return true;
}

void range_span_count(struct range_tree *t, struct span *sp, bool protect)
{
	struct range *n = split_ends(t, sp);

	if (protect)
		count_up(t, sp, n);
	else
		count_down(t, sp, n);
}
