// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The queue locks of our providers (struct rxe_lock in
 * providers/rxe/rxe_queue.h, struct siw_lock in providers/siw/siw.h):
 * inline spin locks that every post and poll takes. Threads add to a
 * counter that only the lock protects, with a yield inside the critical
 * section so that the holder is often preempted while others wait; a
 * lock that let two in at once loses increments. A second check holds
 * the lock from one thread while another waits, so the waiting path
 * runs for sure, and shows it enters only after the release.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "providers/rxe/rxe_queue.h"
#include "providers/siw/siw.h"

#define THREADS 4
#define ROUNDS 2000

/* One lock of either provider, taken and given back through @ops. */
struct lock_ops {
	void *lock;
	void (*take)(void *lock);
	void (*give)(void *lock);
};

static void rxe_take(void *l)
{
	rxe_lock(l);
}

static void rxe_give(void *l)
{
	rxe_unlock(l);
}

static void siw_take(void *l)
{
	siw_lock(l);
}

static void siw_give(void *l)
{
	siw_unlock(l);
}

struct counted {
	const struct lock_ops *ops;
	volatile uint64_t count; /* read and written under the lock only */
	_Atomic int inside; /* how many hold the lock: must stay 0 or 1 */
	_Atomic int overlaps;
};

static void *count_thread(void *arg)
{
	struct counted *c = arg;

	for (int i = 0; i < ROUNDS; i++) {
		uint64_t v;

		c->ops->take(c->ops->lock);
		if (atomic_fetch_add(&c->inside, 1) != 0)
			atomic_fetch_add(&c->overlaps, 1);
		v = c->count;
		if (i % 64 == 0)
			sched_yield(); /* preempted while holding it */
		c->count = v + 1;
		atomic_fetch_sub(&c->inside, 1);
		c->ops->give(c->ops->lock);
	}
	return NULL;
}

static void check_exclusion(const struct lock_ops *ops)
{
	struct counted c = { .ops = ops };
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, count_thread, &c),
				 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(atomic_load(&c.overlaps), 0);
	assert_int_equal(c.count, (uint64_t)THREADS * ROUNDS);
}

struct waiter {
	const struct lock_ops *ops;
	_Atomic int started;
	_Atomic int entered;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	atomic_store(&w->started, 1);
	w->ops->take(w->ops->lock);
	atomic_store(&w->entered, 1);
	w->ops->give(w->ops->lock);
	return NULL;
}

static void check_wait(const struct lock_ops *ops)
{
	struct waiter w = { .ops = ops };
	pthread_t t;

	ops->take(ops->lock);
	assert_int_equal(pthread_create(&t, NULL, wait_thread, &w), 0);
	while (!atomic_load(&w.started))
		sched_yield();
	usleep(20000); /* it is spinning now, or about to */
	assert_int_equal(atomic_load(&w.entered), 0);
	ops->give(ops->lock);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&w.entered), 1);
	/* Given back by the waiter: free again. */
	ops->take(ops->lock);
	ops->give(ops->lock);
}

static struct rxe_lock rxe_lock_word;
static struct siw_lock siw_lock_word;
static const struct lock_ops rxe_ops = { &rxe_lock_word, rxe_take, rxe_give };
static const struct lock_ops siw_ops = { &siw_lock_word, siw_take, siw_give };

/* Run once per provider: @state is that provider's lock_ops. */
static void lock_excludes(void **state)
{
	check_exclusion(*state);
	check_wait(*state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		{ .name = "rxe_lock_excludes",
		  .test_func = lock_excludes,
		  .initial_state = (void *)&rxe_ops },
		{ .name = "siw_lock_excludes",
		  .test_func = lock_excludes,
		  .initial_state = (void *)&siw_ops },
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
