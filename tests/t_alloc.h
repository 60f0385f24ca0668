/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Allocation failure on demand (t_alloc.c): a test program linking it
 * replaces malloc() and its kin for every library in the process, counts
 * the blocks alive, and can make the Nth allocation from now fail with
 * ENOMEM. Single-threaded use: the count is exact, the arming is not
 * meant to race.
 */
#ifndef T_ALLOC_H
#define T_ALLOC_H

#include <stdbool.h>

/* From now on the @n-th allocation fails (1: the next); 0 disarms. */
void t_alloc_fail_at(unsigned long n);
/* Whether the armed allocation came and failed. */
bool t_alloc_failed(void);
/* Allocation calls since the last t_alloc_fail_at(). */
unsigned long t_alloc_calls(void);
/* Blocks allocated and not yet freed. */
long t_alloc_live(void);

/*
 * A verb under test. @make runs it on @arg and returns true when it made
 * its object; when it did not, it leaves in *@err the errno the verb
 * failed with (before any cleanup of its own clobbers it). @undo
 * destroys what @make made.
 */
struct t_alloc_verb {
	const char *name;
	bool (*make)(void *arg, int *err);
	void (*undo)(void *arg);
};

/*
 * @v's verb with each of its allocations failing in turn (N = 1, 2, ...
 * until it makes no Nth), then once more with none failing; a cmocka
 * failure when it fails without errno, fails with nothing failing, or
 * leaves a block behind. Returns how many allocations it makes.
 */
unsigned long t_alloc_each(const struct t_alloc_verb *v, void *arg);

#endif
