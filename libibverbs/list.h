/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A circular doubly linked list. struct list_node is part of the provider
 * ABI (it sits inside struct verbs_device and struct verbs_sysfs_dev), so
 * its layout is two pointers, next then prev.
 */
#ifndef IBV_LIST_H
#define IBV_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *next, *prev;
};

struct list_head {
	struct list_node n;
};

#define LIST_HEAD_INIT(name)                 \
	{                                    \
		{                            \
			&(name).n, &(name).n \
		}                            \
	}

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr)-offsetof(type, member)))
#endif

static inline void list_head_init(struct list_head *h)
{
	h->n.next = h->n.prev = &h->n;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->n.next == &h->n;
}

static inline void list_add_tail(struct list_head *h, struct list_node *n)
{
	n->next = &h->n;
	n->prev = h->n.prev;
	h->n.prev->next = n;
	h->n.prev = n;
}

/* Links @n in after @pos, a node of a list or its head's. */
static inline void list_add_after(struct list_node *pos, struct list_node *n)
{
	n->prev = pos;
	n->next = pos->next;
	pos->next->prev = n;
	pos->next = n;
}

static inline void list_del(struct list_node *n)
{
	n->next->prev = n->prev;
	n->prev->next = n->next;
	n->next = n->prev = n;
}

#define list_entry(n, type, member) container_of(n, type, member)

/* Iterate over the containers; @pos is a pointer to the container type. */
#define list_for_each(h, pos, member)                                 \
	for (pos = list_entry((h)->n.next, __typeof__(*pos), member); \
	     &pos->member != &(h)->n;                                 \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/* As list_for_each, but @pos may be unlinked inside the loop. */
#define list_for_each_safe(h, pos, nxt, member)                           \
	for (pos = list_entry((h)->n.next, __typeof__(*pos), member),     \
	    nxt = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != &(h)->n; pos = nxt,                          \
	    nxt = list_entry(nxt->member.next, __typeof__(*nxt), member))

#endif
