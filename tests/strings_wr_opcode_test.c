// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_wr_opcode_str() (strings.c), new in rdma-core 56.1. The expected
 * words, the NULL of the two unnamed values inside the table and the
 * "unknown" of everything else were read off Debian 13's libibverbs
 * 56.1-1 (its table of sixteen names and its bounds check). That library
 * needs a newer glibc than Debian 12's, so there is no reference run of
 * this binary on a Debian 12 host.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include "t_util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Indexed by opcode value; NULL where 56.1 answers NULL. */
static const char *const names[] = {
	"rdma-write",
	"rdma-write-with-imm",
	"send",
	"send-with-imm",
	"rdma-read",
	"atomic-cmp-and-swp",
	"atomic-fetch-and-add",
	"local-inv",
	"bind-mw",
	"send-with-inv",
	"tso",
	"driver1",
	NULL,
	NULL,
	"flush",
	"atomic-write",
};

static void test_library(void **state)
{
	assert_true(t_library_under_test((void *)ibv_wr_opcode_str));
}

static void test_every_value(void **state)
{
	size_t i;

	assert_int_equal(N(names), IBV_WR_ATOMIC_WRITE + 1);
	for (i = 0; i < N(names); i++) {
		const char *s = ibv_wr_opcode_str((enum ibv_wr_opcode)i);

		if (!names[i])
			assert_null(s);
		else
			assert_string_equal(s, names[i]);
	}
	assert_string_equal(ibv_wr_opcode_str(IBV_WR_FLUSH), "flush");
}

static void test_out_of_range(void **state)
{
	static const int values[] = { INT_MIN, -2, -1, 16, 17, 255, INT_MAX };
	size_t i;

	for (i = 0; i < N(values); i++)
		assert_string_equal(
			ibv_wr_opcode_str((enum ibv_wr_opcode)values[i]),
			"unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library),
		cmocka_unit_test(test_every_value),
		cmocka_unit_test(test_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
