// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public device verbs of verbs_device.c on a hand-made context
 * (t_device.h): dispatch to the provider's ops, the GID methods over
 * ioctl, and the sysfs GID and P_Key tables of a fake ibdev directory,
 * malformed files included. Links the static archive, where the hidden
 * seam hook is reachable.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_device.h"
#include "t_scenario.h"
#include "t_util.h"

/* The public verbs: dispatch to the provider's ops. */
static void test_query_device_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_device_attr attr = {};

	assert_int_equal(ibv_query_device(ctx, &attr), 0);
	assert_null(ops_seen.input);
	assert_int_equal(ops_seen.attr_size, sizeof(attr));
	assert_int_equal(attr.max_qp, 77);
	ops_seen.ret = EIO;
	assert_int_equal(ibv_query_device(ctx, &attr), EIO);
}

#undef ibv_query_port
/* The exported 48-byte query and the library's any-size slot. */
static void test_query_port_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_port_attr attr;
	union {
		struct ibv_port_attr attr;
		uint8_t bytes[sizeof(struct ibv_port_attr)];
	} small;

	memset(&small, 0xcc, sizeof(small));
	assert_int_equal(ibv_query_port(ctx, 1, (void *)&small), 0);
	assert_int_equal(small.attr.state, IBV_PORT_ACTIVE);
	assert_int_equal(small.bytes[48], 0xcc); /* nothing past the old size */
	/* The slot's function: a short caller's structure gets its bytes. */
	memset(&small, 0xcc, sizeof(small));
	assert_int_equal(verbs_query_port(ctx, 1, &small.attr, 40), 0);
	assert_int_equal(small.attr.gid_tbl_len, 4);
	assert_int_equal(small.bytes[40], 0xcc);
	/*
	 * A program built against rdma-core 44 has the 52-byte struct,
	 * without active_speed_ex: what lies behind it stays untouched.
	 */
	memset(&small, 0xcc, sizeof(small));
	assert_int_equal(verbs_query_port(ctx, 1, &small.attr, 52), 0);
	assert_int_equal(small.attr.port_cap_flags2, 0x99);
	assert_int_equal(small.bytes[52], 0xcc);
	assert_int_equal(small.bytes[55], 0xcc);
	memset(&attr, 0xcc, sizeof(attr));
	assert_int_equal(verbs_query_port(ctx, 1, &attr, sizeof(attr)), 0);
	assert_int_equal(attr.port_cap_flags2, 0x99);
	assert_int_equal(attr.active_speed_ex, 0x5a5a5a5a);
	assert_int_equal(attr.lid, 0); /* zeroed first */
	ops_seen.ret = ENODEV;
	assert_int_equal(ibv_query_port(ctx, 1, (void *)&small), ENODEV);
}

/* The GID methods over ioctl: bytes, and what the verbs make of them. */
static void test_gid_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e[2];
	union ibv_gid gid;

	assert_int_equal(ibv_query_gid_ex(ctx, 1, 5, &e[0], 0), 0);
	t_expect_method(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY,
			4);
	assert_int_equal(t_expect_attr(0, 0, UVERBS_ATTR_QUERY_GID_ENTRY_PORT,
				       8, UVERBS_ATTR_F_MANDATORY),
			 1);
	assert_int_equal(t_expect_attr(0, 1,
				       UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 5);
	assert_int_equal(t_expect_attr(0, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS,
				       4, UVERBS_ATTR_F_MANDATORY),
			 0);
	assert_int_equal(t_expect_attr(0, 3,
				       UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
				       sizeof(e[0]), UVERBS_ATTR_F_MANDATORY),
			 (uintptr_t)&e[0]);
	assert_int_equal(e[0].gid.raw[15], 5);
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), 1);
	t_expect_method(1, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE,
			4);
	assert_int_equal(t_expect_attr(1, 0,
				       UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
				       8, UVERBS_ATTR_F_MANDATORY),
			 sizeof(e[0]));
	t_expect_attr(1, 2, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
		      2 * sizeof(e[0]), UVERBS_ATTR_F_MANDATORY);
	assert_int_equal(ibv_query_gid(ctx, 1, 9, &gid), 0);
	assert_int_equal(gid.raw[15], 9);
	/* Kernel errors: positive, negative for the table, -1 for the old. */
	t_fail_next(ENODATA);
	memset(&gid, 0xff, sizeof(gid));
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), 0);
	assert_int_equal(gid.raw[0] | gid.raw[15], 0);
	t_fail_next(EIO);
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), -1);
	assert_int_equal(errno, EIO);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 2, &e[0], 0), EINVAL);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), -EINVAL);
	assert_int_equal(tk.writes, 0);
}

/*
 * Leaves hex digits where the next calls' stack frames will be, so that
 * a parser reading past the end of what it read would find a GID there.
 */
static void __attribute__((noinline)) t_hex_on_stack(void)
{
	volatile char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = i % 5 == 4 ? ':' : '1';
}

/* A GID file that is not eight groups of four hex digits is EINVAL. */
static void test_gid_sysfs_malformed(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e;
	union ibv_gid gid;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid(ctx, 2, 0, &gid), 0);
	assert_int_equal(gid.raw[15], 0x55);
	for (unsigned int i = 1; i <= 5; i++) {
		t_hex_on_stack();
		assert_int_equal(ibv_query_gid_ex(ctx, 2, i, &e, 0), EINVAL);
		t_hex_on_stack();
		assert_int_equal(ibv_query_gid(ctx, 2, i, &gid), -1);
	}
}

/* Kernels without the GID methods: one entry from sysfs. */
static void test_gid_sysfs_entry(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 0), 0);
	assert_int_equal(e.gid.raw[0], 0xfe);
	assert_int_equal(e.gid.raw[15], 0x55);
	assert_int_equal(e.gid_index, 0);
	assert_int_equal(e.port_num, 1);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_ROCE_V1);
	assert_int_equal(e.ndev_ifindex, if_nametoindex("lo"));
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 1, &e, 0), ENODATA);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 2, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(e.ndev_ifindex, 0);
	/* On an IB port a v1 GID is an IB one. */
	ops_seen.link_layer = IBV_LINK_LAYER_INFINIBAND;
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_IB);
	/* No gid_attrs at all: v1. */
	assert_int_equal(ibv_query_gid_ex(ctx, 2, 0, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_IB);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 1), EOPNOTSUPP);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 7, &e, 0), EINVAL);
	assert_int_equal(tk.writes, 0);
}

/* ibv_query_gid_type and ibv_query_gid read one part each. */
static void test_gid_sysfs_type(void **state)
{
	struct ibv_context *ctx = *state;
	enum ibv_gid_type_sysfs type;
	union ibv_gid gid;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid_type(ctx, 1, 2, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_ROCE_V2);
	assert_int_equal(ibv_query_gid_type(ctx, 1, 0, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_IB_ROCE_V1);
	assert_int_equal(ibv_query_gid_type(ctx, 2, 0, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_IB_ROCE_V1);
	/* No such type, or no type file while gid_attrs exists. */
	assert_int_equal(ibv_query_gid_type(ctx, 1, 9, &type), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_query_gid_type(ctx, 1, 4, &type), -1);
	assert_int_equal(errno, EINVAL);
	/* ibv_query_gid reads the GID only: an empty slot is zeroes. */
	memset(&gid, 0xff, sizeof(gid));
	assert_int_equal(ibv_query_gid(ctx, 1, 1, &gid), 0);
	assert_int_equal(gid.raw[0] | gid.raw[15], 0);
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), 0);
	assert_int_equal(gid.raw[10], 0xff);
	assert_int_equal(gid.raw[15], 0x01);
	/* As in rdma-core 44, errno is the missing file's. */
	assert_int_equal(ibv_query_gid(ctx, 1, 9, &gid), -1);
	assert_int_equal(errno, ENOENT);
}

/* The table from sysfs: non-empty entries only, the array's bounds kept. */
static void test_gid_sysfs_table(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e[4];

	tk.no_ioctl = true;
	memset(e, 0, sizeof(e));
	/* One port (phys_port_cnt 1 from the op), four slots, one empty. */
	assert_int_equal(ibv_query_gid_table(ctx, e, 4, 0), 3);
	assert_int_equal(e[0].gid_index, 0);
	assert_int_equal(e[0].gid_type, IBV_GID_TYPE_ROCE_V1);
	assert_int_equal(e[1].gid_index, 2);
	assert_int_equal(e[1].gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(e[2].gid_index, 3);
	assert_int_equal(e[3].gid_index, 0); /* untouched */
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), -EINVAL);
	assert_int_equal(ibv_query_gid_table(ctx, e, 4, 1), -EOPNOTSUPP);
	ops_seen.gid_tbl_len = 2;
	assert_int_equal(ibv_query_gid_table(ctx, e, 1, 0), 1);
}

static void test_pkey(void **state)
{
	struct ibv_context *ctx = *state;
	__be16 pkey;

	assert_int_equal(ibv_query_pkey(ctx, 1, 1, &pkey), 0);
	assert_int_equal(pkey, htobe16(0x8001));
	errno = 0;
	assert_int_equal(ibv_query_pkey(ctx, 1, 2, &pkey), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0xffff)), 0);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0x8001)), 1);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0x7fff)), -1);
	assert_int_equal(tk.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_query_device_verb),	  T_CASE(test_query_port_verbs),
		T_CASE(test_gid_ioctl),		  T_CASE(test_gid_sysfs_entry),
		T_CASE(test_gid_sysfs_malformed), T_CASE(test_gid_sysfs_type),
		T_CASE(test_gid_sysfs_table),	  T_CASE(test_pkey),
	};

	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
