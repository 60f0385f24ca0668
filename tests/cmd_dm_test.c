// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device memory commands of cmd_dm.c against a fake kernel
 * (t_mem.h): alloc, free and the registration of device memory, byte for
 * byte, and the answers decoded into the objects.
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

static void t_alloc_dm_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, UVERBS_ATTR_ALLOC_DM_HANDLE, 0x73);
}

/* The provider's linked attributes travel behind ours, in one call. */
static void test_alloc_dm(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_alloc_dm_attr attr = { .length = 4096, .log_align_req = 6 };
	struct verbs_dm dm = {};
	uint8_t want[IOCTL_ATTR(4)], *p;
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC,
			       1);

	fill_attr_in_uint32(drv, 0x1000 + 5, 0xdd);
	tk.on_ioctl = t_alloc_dm_handler;
	assert_int_equal(ibv_cmd_alloc_dm(ctx, &attr, &dm, drv), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 4);
	p = t_put_mattr(p, UVERBS_ATTR_ALLOC_DM_HANDLE, 0, 0);
	p = t_put_mattr(p, UVERBS_ATTR_ALLOC_DM_LENGTH, 8, 4096);
	p = t_put_mattr(p, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 4, 6);
	t_put_mattr(p, 0x1005, 4, 0xdd);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(dm.handle, 0x73);
	assert_int_equal(dm.dm.handle, 0x73);
	assert_int_equal(dm.dm.comp_mask, IBV_DM_MASK_HANDLE);
	assert_ptr_equal(dm.dm.context, ctx);
}

static void test_free_dm(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_dm dm = { .dm.context = ctx, .handle = 0x15 };

	assert_int_equal(ibv_cmd_free_dm(&dm), 0);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE,
			       0x15);
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_free_dm(&dm), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_free_dm(&dm), 0);
}

static void t_dm_mr_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, UVERBS_ATTR_REG_DM_MR_HANDLE, 0x81);
	t_out_u32(h, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, 0xe1);
	t_out_u32(h, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, 0xe2);
}

static void test_reg_dm_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 2 };
	struct verbs_dm dm = { .dm.context = ctx, .handle = 0x15 };
	struct verbs_mr vmr = { .ibv_mr.addr = &vmr };
	uint8_t want[24];

	errno = 0;
	assert_int_equal(ibv_cmd_reg_dm_mr(&pd, &dm, 0, 64, 0, &vmr, NULL),
			 EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.ncalls, 0);
	tk.on_ioctl = t_dm_mr_handler;
	assert_int_equal(ibv_cmd_reg_dm_mr(&pd, &dm, 128, 64,
					   IBV_ACCESS_ZERO_BASED, &vmr, NULL),
			 0);
	t_put_ioctl_hdr(want, UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, 8);
	assert_int_equal(tk.log[0].len, IOCTL_ATTR(8));
	assert_memory_equal(tk.log[0].bytes, want, IOCTL_HDR_SIZE);
	t_expect_mattr(0, 4, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, 0, 0x15);
	t_expect_mattr(0, 5, UVERBS_ATTR_REG_DM_MR_OFFSET, 8, 128);
	t_expect_mattr(0, 7, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 4,
		       IBV_ACCESS_ZERO_BASED);
	assert_int_equal(vmr.ibv_mr.handle, 0x81);
	assert_int_equal(vmr.ibv_mr.lkey, 0xe1);
	assert_int_equal(vmr.ibv_mr.rkey, 0xe2);
	assert_int_equal(vmr.ibv_mr.length, 64);
	assert_null(vmr.ibv_mr.addr);
	assert_ptr_equal(vmr.ibv_mr.pd, &pd);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_alloc_dm),
		T_CMD(test_free_dm),
		T_CMD(test_reg_dm_mr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
