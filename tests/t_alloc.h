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

#endif
