// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker's page counts (libibverbs/fork_range_span.c) through
 * ibv_dontfork_range() and ibv_dofork_range(): a range takes every page
 * it touches, touching pages with equal counts share one node and split
 * again, and a count never goes below zero. A fork()ed child shows which
 * pages are hidden.
 */
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

static void test_subpage_ranges(void **state)
{
	char *p = t_map(3);

	assert_non_null(p);
	/* A few bytes inside one page take the whole page. */
	assert_int_equal(ibv_dontfork_range(p + 100, 10), 0);
	assert_int_equal(verbs_fork_refcount(p), 1);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 0);
	t_expect_view(p, 3, "X..");
	/* Two bytes across a boundary take both pages. */
	assert_int_equal(ibv_dontfork_range(p + 2 * t_ps - 1, 2), 0);
	assert_int_equal(verbs_fork_refcount(p), 1);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 1);
	assert_int_equal(verbs_fork_refcount(p + 2 * t_ps), 1);
	t_expect_view(p, 3, "XXX");
	assert_int_equal(ibv_dofork_range(p + 100, 10), 0);
	t_expect_view(p, 3, ".XX");
	assert_int_equal(ibv_dofork_range(p + 2 * t_ps - 1, 2), 0);
	t_expect_view(p, 3, "...");
	/* Nothing to do for an empty range or NULL. */
	assert_int_equal(ibv_dontfork_range(p, 0), 0);
	assert_int_equal(ibv_dontfork_range(NULL, 100), 0);
	assert_int_equal(t_nodes(), 0);
	t_assert_tree();
	munmap(p, 3 * t_ps);
}

static void test_merge_and_split(void **state)
{
	char *p = t_map(4);

	assert_non_null(p);
	assert_int_equal(ibv_dontfork_range(p, t_ps), 0);
	assert_int_equal(ibv_dontfork_range(p + t_ps, t_ps), 0);
	/* Touching ranges with equal counts are one node. */
	assert_int_equal(t_nodes(), 1);
	assert_int_equal(ibv_dontfork_range(p + t_ps, 2 * t_ps), 0);
	assert_int_equal(t_nodes(), 3); /* 1, 2, 1 */
	assert_int_equal(ibv_dofork_range(p + 2 * t_ps, t_ps), 0);
	assert_int_equal(t_nodes(), 2); /* 1, 2 */
	assert_int_equal(ibv_dofork_range(p + t_ps, t_ps), 0);
	assert_int_equal(t_nodes(), 1); /* 1, 1 */
	t_expect_view(p, 4, "XX..");
	assert_int_equal(ibv_dofork_range(p, 2 * t_ps), 0);
	assert_int_equal(t_nodes(), 0);
	t_assert_tree();
	munmap(p, 4 * t_ps);
}

static void test_unbalanced_dofork(void **state)
{
	char *p = t_map(2);

	assert_non_null(p);
	/* Releasing what was never taken changes nothing... */
	assert_int_equal(ibv_dofork_range(p, 2 * t_ps), 0);
	assert_int_equal(verbs_fork_refcount(p), 0);
	assert_int_equal(t_nodes(), 0);
	/* ...and leaves no debt: the next registration protects. */
	assert_int_equal(ibv_dontfork_range(p, t_ps), 0);
	t_expect_view(p, 2, "X.");
	assert_int_equal(ibv_dofork_range(p, t_ps), 0);
	t_expect_view(p, 2, "..");
	munmap(p, 2 * t_ps);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subpage_ranges),
		cmocka_unit_test(test_merge_and_split),
		cmocka_unit_test(test_unbalanced_dofork),
	};

	return t_fork_main(argc, argv, NULL, 0, tests, ARRAY_SIZE(tests));
}
