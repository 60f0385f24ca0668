// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The XRC domain commands of cmd_xrcd.c against a fake kernel (t_mem.h):
 * open with and without its attributes and close, byte for byte, and the
 * answer decoded into the domain.
 * Links the static archive, where the hidden seam and hooks are reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_mem.h"

static void test_open_xrcd(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_xrcd_init_attr attr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = 12,
		.oflags = O_CREAT,
	};
	struct ibv_open_xrcd cmd;
	struct ib_uverbs_open_xrcd_resp resp;
	struct verbs_xrcd xrcd = { .comp_mask = 77 };
	uint32_t handle = 0x99;
	uint8_t want[24], *p;

	memcpy(fk.resp, &handle, 4);
	fk.resp_len = 4;
	assert_int_equal(ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr,
					   &cmd, sizeof(cmd), &resp,
					   sizeof(resp)),
			 0);
	p = t_put_write_hdr(want, IB_USER_VERBS_CMD_OPEN_XRCD, 24, 4);
	p = t_put64(p, (uintptr_t)&resp);
	p = t_put32(p, 12);
	t_put32(p, O_CREAT);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_ptr_equal(xrcd.xrcd.context, ctx);
	assert_int_equal(xrcd.comp_mask, VERBS_XRCD_HANDLE);
	assert_int_equal(xrcd.handle, 0x99);
	/* A provider's struct that ends before the handle gets none. */
	xrcd.handle = 0;
	assert_int_equal(ibv_cmd_open_xrcd(ctx, &xrcd,
					   offsetof(struct verbs_xrcd, handle),
					   &attr, &cmd, sizeof(cmd), &resp,
					   sizeof(resp)),
			 0);
	assert_int_equal(xrcd.comp_mask, 0);
	assert_int_equal(xrcd.handle, 0);
}

static void test_open_xrcd_attr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_xrcd_init_attr attr = { .comp_mask = IBV_XRCD_INIT_ATTR_FD };
	struct ibv_open_xrcd cmd;
	struct ib_uverbs_open_xrcd_resp resp;
	struct verbs_xrcd xrcd = {};

	assert_int_equal(ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr,
					   &cmd, sizeof(cmd), &resp,
					   sizeof(resp)),
			 EINVAL);
	attr.comp_mask = IBV_XRCD_INIT_ATTR_RESERVED | 3;
	assert_int_equal(ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr,
					   &cmd, sizeof(cmd), &resp,
					   sizeof(resp)),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

static void test_close_xrcd(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_xrcd xrcd = { .xrcd.context = ctx, .handle = 3 };

	assert_int_equal(ibv_cmd_close_xrcd(&xrcd), 0);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, 3);
	tk.ncalls = 0;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_close_xrcd(&xrcd), 0);
	t_expect_destroy_write(tk.ncalls - 1, IB_USER_VERBS_CMD_CLOSE_XRCD, 3);
	t_fail_next(ENOENT);
	assert_int_equal(ibv_cmd_close_xrcd(&xrcd), ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_open_xrcd),
		T_CMD(test_open_xrcd_attr),
		T_CMD(test_close_xrcd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
