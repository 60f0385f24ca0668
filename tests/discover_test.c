// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The decoders of discover.c and sysfs.c, called directly: linked with
 * the static archive, which exposes them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/sysmacros.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "libibverbs/discover.h"
#include "libibverbs/sysfs.h"
#include "t_scenario.h"
#include "t_util.h"

/*
 * Netlink discovery hands the kernel's u8 node type to the same decoder
 * as sysfs; the host tests reach only the sysfs path, so check it here.
 */
static int sc_node_type(void *arg)
{
	enum ibv_node_type want;
	uint64_t v;

	for (v = 0; v <= 256; v++) {
		want = v >= 1 && v <= 7 ? (enum ibv_node_type)v :
					  IBV_NODE_UNKNOWN;
		T_CHECK(decode_node_type(v) == want);
	}
	T_CHECK(decode_node_type(1ULL << 32 | 1) == IBV_NODE_UNKNOWN);
	return 0;
}

static void test_node_type(void **s)
{
	t_scenario(sc_node_type, NULL);
}

/* A device number is "MAJ:MIN" in decimal, in the kernel's ranges. */
static void test_dev_text(void **s)
{
	static const char *const bad[] = {
		"",
		"5:",
		":5",
		"-1:+2",
		" 1:2",
		"1: 2",
		"1:2 ",
		"1:2\n",
		"0x1:2",
		"1:2:3",
		"4096:0",
		"0:1048576",
		"99999999999999999999:1",
	};
	dev_t d;

	(void)s;
	assert_int_equal(parse_dev_text("231:192", &d), 0);
	assert_int_equal(major(d), 231);
	assert_int_equal(minor(d), 192);
	assert_int_equal(parse_dev_text("4095:1048575", &d), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_dev_text(bad[i], &d) != EINVAL)
			fail_msg("\"%s\" taken as a device number", bad[i]);
}

/* A number starts with its digits: no sign, no blank. */
static void test_u64_text(void **s)
{
	uint64_t v;

	(void)s;
	assert_int_equal(sysfs_parse_u64("6\n", 10, &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(sysfs_parse_u64("0x1f", 0, &v), 0);
	assert_int_equal(v, 0x1f);
	assert_int_equal(sysfs_parse_u64("ffff", 16, &v), 0);
	assert_int_equal(v, 0xffff);
	assert_int_equal(sysfs_parse_u64("-1", 10, &v), EINVAL);
	assert_int_equal(sysfs_parse_u64("+1", 10, &v), EINVAL);
	assert_int_equal(sysfs_parse_u64(" 1", 10, &v), EINVAL);
	assert_int_equal(sysfs_parse_u64("a", 10, &v), EINVAL);
	assert_int_equal(sysfs_parse_u64("", 10, &v), EINVAL);
	assert_int_equal(sysfs_parse_u64("99999999999999999999", 10, &v),
			 EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_type),
		cmocka_unit_test(test_dev_text),
		cmocka_unit_test(test_u64_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
