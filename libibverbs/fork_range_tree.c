// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The red-black tree under the fork tracker's page counts (fork_range_tree.h):
 * insertion and removal with rebalancing, a small cache of free nodes, and
 * the invariant check behind the test hook verbs_fork_check_tree().
 *
 * Nodes are ordered by start address. The tree knows nothing of counts:
 * keeping ranges disjoint and merged is fork_range_span.c's business.
 */
#include <errno.h>
#include <stdlib.h>

#include "fork_range_tree.h"

/* Nodes kept for reuse, so that a register/unregister pair costs no malloc. */
#define SPARE_MAX 32

static bool is_red(const struct range *n)
{
	return n && n->red;
}

static void replace_child(struct range_tree *t, struct range *parent,
			  struct range *old, struct range *new)
{
	if (!parent)
		t->root = new;
	else if (parent->child[LEFT] == old)
		parent->child[LEFT] = new;
	else
		parent->child[RIGHT] = new;
}

/* Rotate @x down towards @dir; its child on the other side takes its place. */
static void rotate(struct range_tree *t, struct range *x, int dir)
{
	struct range *y = x->child[!dir];

	x->child[!dir] = y->child[dir];
	if (y->child[dir])
		y->child[dir]->parent = x;
	y->parent = x->parent;
	replace_child(t, x->parent, x, y);
	y->child[dir] = x;
	x->parent = y;
}

static void insert_fixup(struct range_tree *t, struct range *z)
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
			rotate(t, p, dir);
			z = p;
			p = z->parent;
		}
		p->red = false;
		g->red = true;
		rotate(t, g, !dir);
	}
	t->root->red = false;
}

static HOT void tree_insert(struct range_tree *t, struct range *n)
{
	struct range **link = &t->root, *parent = NULL;

	while (*link) {
		parent = *link;
		link = &parent->child[n->start < parent->start ? LEFT : RIGHT];
	}
	n->parent = parent;
	n->child[LEFT] = n->child[RIGHT] = NULL;
	n->red = true;
	*link = n;
	insert_fixup(t, n);
	t->node_count++;
}

/*
 * Restore the black height after removing a black node; @x (maybe NULL)
 * took its place under @parent and is one black short.
 */
static void erase_fixup(struct range_tree *t, struct range *x,
			struct range *parent)
{
	struct range *w;
	int dir;

	while (x != t->root && !is_red(x)) {
		dir = x == parent->child[LEFT] ? LEFT : RIGHT;
		w = parent->child[!dir];
		if (w->red) {
			w->red = false;
			parent->red = true;
			rotate(t, parent, dir);
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
			rotate(t, w, !dir);
			w = parent->child[!dir];
		}
		w->red = parent->red;
		parent->red = false;
		w->child[!dir]->red = false;
		rotate(t, parent, dir);
		x = t->root;
	}
	if (x)
		x->red = false;
}

/* Put @y, the in-order successor of @z, where @z is. */
static void move_into_place(struct range_tree *t, struct range *z,
			    struct range *y)
{
	replace_child(t, z->parent, z, y);
	y->parent = z->parent;
	y->child[LEFT] = z->child[LEFT];
	y->child[LEFT]->parent = y;
	y->red = z->red;
}

static HOT void tree_erase(struct range_tree *t, struct range *z)
{
	struct range *x, *parent, *y;
	bool was_red;

	if (!z->child[LEFT] || !z->child[RIGHT]) {
		x = z->child[LEFT] ? z->child[LEFT] : z->child[RIGHT];
		parent = z->parent;
		was_red = z->red;
		replace_child(t, parent, z, x);
	} else {
		y = range_extreme(z->child[RIGHT], LEFT);
		was_red = y->red;
		x = y->child[RIGHT];
		parent = y;
		if (y->parent != z) {
			parent = y->parent;
			parent->child[LEFT] = x;
			y->child[RIGHT] = z->child[RIGHT];
			y->child[RIGHT]->parent = y;
		}
		move_into_place(t, z, y);
	}
	if (x)
		x->parent = parent;
	if (!was_red)
		erase_fixup(t, x, parent);
	t->node_count--;
}

/* ------------------------------------------------------------------ */
/* Node allocation                                                     */

int range_tree_refill(struct range_tree *t, size_t needed)
{
	struct range *n;

	while (t->spare_count < needed) {
		n = malloc(sizeof(*n));
		if (!n)
			return ENOMEM;
		n->child[RIGHT] = t->spares;
		t->spares = n;
		t->spare_count++;
	}
	return 0;
}

/* Only called after range_tree_reserve() made sure there is one. */
static struct range *take_spare(struct range_tree *t)
{
	struct range *n = t->spares;

	t->spares = n->child[RIGHT];
	t->spare_count--;
	return n;
}

static void put_spare(struct range_tree *t, struct range *n)
{
	if (t->spare_count >= SPARE_MAX) {
		free(n);
		return;
	}
	n->child[RIGHT] = t->spares;
	t->spares = n;
	t->spare_count++;
}

HOT struct range *range_tree_add(struct range_tree *t, uintptr_t start,
				 uintptr_t end, long refs)
{
	struct range *n = take_spare(t);

	n->start = start;
	n->end = end;
	n->refs = refs;
	tree_insert(t, n);
	return n;
}

HOT void range_tree_remove(struct range_tree *t, struct range *n)
{
	tree_erase(t, n);
	put_spare(t, n);
}

/* ------------------------------------------------------------------ */
/* Invariants                                                          */

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

static const char *check_order(struct range_tree *t)
{
	struct range *n, *prev = NULL;
	size_t count = 0;

	n = t->root ? range_extreme(t->root, LEFT) : NULL;
	for (; n; n = range_next(n)) {
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
	if (count != t->node_count)
		return "node count mismatch";
	return NULL;
}

const char *range_tree_check(struct range_tree *t)
{
	const char *why = NULL;

	if (is_red(t->root))
		return "red root";
	if (t->root && t->root->parent)
		return "root has a parent";
	if (check_subtree(t->root, &why) < 0)
		return why;
	return check_order(t);
}
