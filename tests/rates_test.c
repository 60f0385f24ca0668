// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rate conversions of rates.c, both ways, over every number up to
 * past the largest rate. Every expected value was read off Debian's
 * rdma-core 44 libibverbs; with IBV_TEST_REFERENCE=1 this binary runs
 * against that library and must pass unchanged.
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

/* Every enum ibv_rate value with its multiple (-1: none) and Mbit/s. */
static const struct {
	enum ibv_rate rate;
	int mult;
	int mbps;
} rates[] = {
	{ IBV_RATE_2_5_GBPS, 1, 2500 },
	{ IBV_RATE_5_GBPS, 2, 5000 },
	{ IBV_RATE_10_GBPS, 4, 10000 },
	{ IBV_RATE_20_GBPS, 8, 20000 },
	{ IBV_RATE_30_GBPS, 12, 30000 },
	{ IBV_RATE_40_GBPS, 16, 40000 },
	{ IBV_RATE_60_GBPS, 24, 60000 },
	{ IBV_RATE_80_GBPS, 32, 80000 },
	{ IBV_RATE_120_GBPS, 48, 120000 },
	{ IBV_RATE_14_GBPS, -1, 14062 },
	{ IBV_RATE_56_GBPS, -1, 56250 },
	{ IBV_RATE_112_GBPS, -1, 112500 },
	{ IBV_RATE_168_GBPS, -1, 168750 },
	{ IBV_RATE_25_GBPS, -1, 25781 },
	{ IBV_RATE_100_GBPS, -1, 103125 },
	{ IBV_RATE_200_GBPS, -1, 206250 },
	{ IBV_RATE_300_GBPS, -1, 309375 },
	{ IBV_RATE_28_GBPS, 11, 28125 },
	{ IBV_RATE_50_GBPS, 20, 53125 },
	{ IBV_RATE_400_GBPS, 160, 425000 },
	{ IBV_RATE_600_GBPS, 240, 637500 },
	{ IBV_RATE_800_GBPS, 320, 850000 },
	{ IBV_RATE_1200_GBPS, 480, 1275000 },
};

/* Rates with no number: IBV_RATE_MAX, the unused 1, and past the end. */
static const int no_rate[] = { INT_MIN, -1, IBV_RATE_MAX, 1, 25, 1000, INT_MAX };

static void test_rate_to_numbers(void **state)
{
	size_t i;

	assert_int_equal(N(rates), IBV_RATE_1200_GBPS - 1);
	for (i = 0; i < N(rates); i++) {
		assert_int_equal(ibv_rate_to_mult(rates[i].rate),
				 rates[i].mult);
		assert_int_equal(ibv_rate_to_mbps(rates[i].rate),
				 rates[i].mbps);
	}
	for (i = 0; i < N(no_rate); i++) {
		assert_int_equal(ibv_rate_to_mult(no_rate[i]), -1);
		assert_int_equal(ibv_rate_to_mbps(no_rate[i]), -1);
	}
}

/* The rate a number names, from the table; IBV_RATE_MAX if none. */
static enum ibv_rate expected_rate(int n, bool mult)
{
	size_t i;

	if (n <= 0) /* the table's -1 means "no multiple", not a number */
		return IBV_RATE_MAX;
	for (i = 0; i < N(rates); i++)
		if ((mult ? rates[i].mult : rates[i].mbps) == n)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

/*
 * Only exact numbers convert back; everything in between, zero, negative
 * or huge is IBV_RATE_MAX. The scan covers every number up to past the
 * largest rate, so it also proves there is no rounding.
 */
static void test_numbers_to_rate(void **state)
{
	static const int extremes[] = { INT_MIN, INT_MIN + 1, -100000,
					-1,	 INT_MAX - 1, INT_MAX };
	int n;
	size_t i;

	for (n = -1000; n <= 2000; n++)
		assert_int_equal(mult_to_ibv_rate(n), expected_rate(n, true));
	for (n = -1000; n <= 1400000; n++)
		if (mbps_to_ibv_rate(n) != expected_rate(n, false))
			fail_msg("mbps_to_ibv_rate(%d) = %d", n,
				 mbps_to_ibv_rate(n));
	for (i = 0; i < N(extremes); i++) {
		assert_int_equal(mult_to_ibv_rate(extremes[i]), IBV_RATE_MAX);
		assert_int_equal(mbps_to_ibv_rate(extremes[i]), IBV_RATE_MAX);
	}
	assert_int_equal(mult_to_ibv_rate(11), IBV_RATE_28_GBPS);
	assert_int_equal(mbps_to_ibv_rate(14062), IBV_RATE_14_GBPS);
}

/* The differential run must really call the reference, and vice versa. */
static int t_library_setup(void **state)
{
	return t_library_under_test((void *)ibv_rate_to_mult) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_to_numbers),
		cmocka_unit_test(test_numbers_to_rate),
	};

	return cmocka_run_group_tests(tests, t_library_setup, NULL);
}
