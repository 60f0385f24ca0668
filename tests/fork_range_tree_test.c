// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker's tree (libibverbs/fork_range_tree.c) under long
 * random sequences of ranges, from one thread and from several at once:
 * after each step its own invariant check passes and every page count
 * and the number of nodes match a model kept here.
 */
#include <pthread.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "libibverbs/fork.h"
#include "t_fork.h"
#include "t_fork_tracker.h"
#include "t_util.h"

#define T_PAGES 48

static void t_model_apply(long *model, size_t off, size_t len, bool up)
{
	size_t i;

	for (i = off / t_ps; i <= (off + len - 1) / t_ps; i++)
		model[i] = up ? model[i] + 1 : (model[i] ? model[i] - 1 : 0);
}

/* Touching pages with the same non-zero count make one node. */
static size_t t_model_nodes(const long *model)
{
	size_t i, n = 0;

	for (i = 0; i < T_PAGES; i++)
		if (model[i] && (!i || model[i - 1] != model[i]))
			n++;
	return n;
}

static void t_model_check(const char *p, const long *model, bool view)
{
	char got[T_PAGES + 1], want[T_PAGES + 1];
	size_t i;

	t_assert_tree();
	for (i = 0; i < T_PAGES; i++) {
		assert_int_equal(verbs_fork_refcount(p + i * t_ps), model[i]);
		want[i] = model[i] ? 'X' : '.';
	}
	want[T_PAGES] = 0;
	assert_int_equal(t_nodes(), t_model_nodes(model));
	if (!view)
		return;
	t_view(p, T_PAGES, t_ps, got);
	assert_string_equal(got, want);
}

static void test_random_against_model(void **state)
{
	uint64_t seed = 0x1234567887654321ULL;
	long model[T_PAGES] = { 0 };
	char *p = t_map(T_PAGES);
	size_t off, len, i;
	int iter;
	bool up;

	assert_non_null(p);
	for (iter = 0; iter < 6000; iter++) {
		off = t_rand(&seed) % (T_PAGES * t_ps);
		len = 1 + t_rand(&seed) % (6 * t_ps);
		if (len > T_PAGES * t_ps - off)
			len = T_PAGES * t_ps - off;
		up = t_rand(&seed) % 2;
		assert_int_equal(up ? ibv_dontfork_range(p + off, len) :
				      ibv_dofork_range(p + off, len),
				 0);
		t_model_apply(model, off, len, up);
		t_model_check(p, model, iter % 500 == 0);
	}
	for (i = 0; i < T_PAGES; i++)
		while (model[i]--)
			assert_int_equal(ibv_dofork_range(p + i * t_ps, 1), 0);
	assert_int_equal(t_nodes(), 0);
	t_expect_view(p, 4, "....");
	munmap(p, T_PAGES * t_ps);
}

#define T_THREADS 4
#define T_LIVE 16

struct t_worker {
	pthread_t th;
	char *buf;
	uint64_t seed;
	size_t off[T_LIVE], len[T_LIVE];
	int live;
	int errors;
};

/* Random balanced traffic; each worker leaves its live ranges in place. */
static void *t_worker_main(void *arg)
{
	struct t_worker *w = arg;
	int op, k;

	for (op = 0; op < 4000; op++) {
		if (w->live && (w->live == T_LIVE || t_rand(&w->seed) % 2)) {
			k = t_rand(&w->seed) % w->live;
			w->errors += !!ibv_dofork_range(w->buf + w->off[k],
							w->len[k]);
			w->off[k] = w->off[--w->live];
			w->len[k] = w->len[w->live];
			continue;
		}
		k = w->live++;
		w->off[k] = t_rand(&w->seed) % (T_PAGES * t_ps - 1);
		w->len[k] = 1 + t_rand(&w->seed) % (T_PAGES * t_ps - w->off[k]);
		if (w->len[k] > 5 * t_ps)
			w->len[k] = 5 * t_ps;
		w->errors +=
			!!ibv_dontfork_range(w->buf + w->off[k], w->len[k]);
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct t_worker w[T_THREADS];
	long model[T_PAGES] = { 0 };
	char *p = t_map(T_PAGES);
	int i, k;

	assert_non_null(p);
	for (i = 0; i < T_THREADS; i++) {
		w[i] = (struct t_worker){ .buf = p, .seed = 77 + i };
		assert_int_equal(pthread_create(&w[i].th, NULL, t_worker_main,
						&w[i]),
				 0);
	}
	for (i = 0; i < T_THREADS; i++) {
		assert_int_equal(pthread_join(w[i].th, NULL), 0);
		assert_int_equal(w[i].errors, 0);
		for (k = 0; k < w[i].live; k++)
			t_model_apply(model, w[i].off[k], w[i].len[k], true);
	}
	t_model_check(p, model, true);
	for (i = 0; i < T_THREADS; i++)
		for (k = 0; k < w[i].live; k++)
			assert_int_equal(ibv_dofork_range(p + w[i].off[k],
							  w[i].len[k]),
					 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, T_PAGES * t_ps);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_threads),
	};

	return t_fork_main(argc, argv, NULL, 0, tests, ARRAY_SIZE(tests));
}
