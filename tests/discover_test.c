// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The node-type decoder of discover.c, called directly: linked with the
 * static archive, which exposes it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "libibverbs/discover.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
