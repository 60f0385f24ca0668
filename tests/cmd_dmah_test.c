// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma-core 65's DMA handles and dma-buf export against a fake kernel
 * (t_mem.h): the commands of cmd_dmah.c and cmd_dmabuf.c byte for byte,
 * their answers decoded, a kernel without the methods; and the public
 * verbs of verbs_dmah.c and verbs_dm.c's export, which refuse bad input
 * before any provider is asked. Their explanations are explain_test.c's.
 * Links the static archive, where the hidden seam and hooks are reachable.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_mem.h"

/*
 * The kernel's numbers for these objects (include/uapi/rdma/
 * ib_user_ioctl_cmds.h of Linux 6.17 and later), as facts of the ABI.
 */
enum {
	OBJ_DMAH = 17,
	OBJ_DMABUF = 18,
	METHOD_DMAH_ALLOC = 0,
	METHOD_DMAH_FREE = 1,
	ALLOC_DMAH_HANDLE = 0,
	ALLOC_DMAH_CPU_ID = 1,
	ALLOC_DMAH_TPH_MEM_TYPE = 2,
	ALLOC_DMAH_PH = 3,
	FREE_DMA_HANDLE = 0,
	METHOD_DMABUF_ALLOC = 0,
	ALLOC_DMABUF_HANDLE = 0,
	ALLOC_DMABUF_PGOFF = 1,
};

static void t_dmah_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, ALLOC_DMAH_HANDLE, 0x5d);
}

/* Every hint: CPU_ID, then the memory type as an enum's element, then PH. */
static void test_alloc_dmah_all(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_dmah_init_attr attr = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_CPU_ID |
			     IBV_DMAH_INIT_ATTR_MASK_PH |
			     IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE,
		.cpu_id = 3,
		.ph = 2,
		.tph_mem_type = IBV_TPH_MEM_TYPE_PM,
	};
	struct verbs_dmah dmah = {};
	const uint8_t *a;

	tk.on_ioctl = t_dmah_handler;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr), 0);
	t_expect_method(0, OBJ_DMAH, METHOD_DMAH_ALLOC, 4);
	t_expect_mattr(0, 0, ALLOC_DMAH_HANDLE, 0, 0);
	t_expect_mattr(0, 1, ALLOC_DMAH_CPU_ID, 4, 3);
	/* ENUM_IN: the variant in attr_data, no bytes. */
	a = tk.log[0].bytes + IOCTL_ATTR(2);
	assert_int_equal(t_get16(a + ATTR_ID), ALLOC_DMAH_TPH_MEM_TYPE);
	assert_int_equal(t_get16(a + ATTR_LEN), 0);
	assert_int_equal(t_get16(a + ATTR_FLAGS), UVERBS_ATTR_F_MANDATORY);
	assert_int_equal(a[ATTR_DATA_RESERVED], IBV_TPH_MEM_TYPE_PM);
	t_expect_mattr(0, 3, ALLOC_DMAH_PH, 1, 2);
	assert_int_equal(dmah.handle, 0x5d);
	assert_ptr_equal(dmah.dmah.context, ctx);
}

/* Members without their bit, and bits this layer does not know, stay home. */
static void test_alloc_dmah_mask(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_dmah_init_attr attr = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH | 0x80,
		.cpu_id = 0xa5a5a5a5,
		.ph = 1,
		.tph_mem_type = 0xa5,
	};
	struct verbs_dmah dmah = {};

	tk.on_ioctl = t_dmah_handler;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr), 0);
	t_expect_method(0, OBJ_DMAH, METHOD_DMAH_ALLOC, 2);
	t_expect_mattr(0, 1, ALLOC_DMAH_PH, 1, 1);
	attr.comp_mask = 0;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr), 0);
	t_expect_method(1, OBJ_DMAH, METHOD_DMAH_ALLOC, 1);
}

/* No DMAH object (a kernel before 6.17): the refusal as it came. */
static void test_alloc_dmah_no_method(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_dmah_init_attr attr = {};
	struct verbs_dmah dmah = {};

	tk.refuse_obj = OBJ_DMAH;
	tk.refuse_method = T_ANY_METHOD;
	errno = 0;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr),
			 EPROTONOSUPPORT);
	assert_int_equal(errno, EPROTONOSUPPORT);
	assert_null(dmah.dmah.context);
	dmah.dmah.context = ctx;
	assert_int_equal(ibv_cmd_free_dmah(&dmah), EPROTONOSUPPORT);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr), ENOTTY);
	for (unsigned int i = 0; i < tk.ncalls; i++)
		assert_true(tk.log[i].is_ioctl);
	t_fail_next(ENOMEM);
	tk.no_ioctl = false;
	tk.refuse_obj = T_NO_OBJECT;
	assert_int_equal(ibv_cmd_alloc_dmah(ctx, &dmah, &attr), ENOMEM);
}

static void test_free_dmah(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_dmah dmah = { .dmah.context = ctx, .handle = 0x21 };

	assert_int_equal(ibv_cmd_free_dmah(&dmah), 0);
	t_expect_destroy_ioctl(0, OBJ_DMAH, METHOD_DMAH_FREE, 0x21);
	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_free_dmah(&dmah), EBUSY);
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_free_dmah(&dmah), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_free_dmah(&dmah), 0);
	verbs_allow_disassociate_destroy = false;
}

static void t_dmabuf_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, ALLOC_DMABUF_HANDLE, 77);
}

/* The new file comes back as the result; a failure is -1 and errno. */
static void test_export_dmabuf_fd(void **state)
{
	struct ibv_context *ctx = *state;

	tk.on_ioctl = t_dmabuf_handler;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(ctx, 0x123000), 77);
	t_expect_method(0, OBJ_DMABUF, METHOD_DMABUF_ALLOC, 2);
	t_expect_mattr(0, 0, ALLOC_DMABUF_HANDLE, 0, 0);
	t_expect_mattr(0, 1, ALLOC_DMABUF_PGOFF, 8, 0x123000);
	t_fail_next(EINVAL);
	errno = 0;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(ctx, 1), -1);
	assert_int_equal(errno, EINVAL);
	tk.refuse_obj = OBJ_DMABUF;
	tk.refuse_method = T_ANY_METHOD;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(ctx, 1), -1);
	assert_int_equal(errno, EPROTONOSUPPORT);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_export_dmabuf_fd(ctx, 1), -1);
	assert_int_equal(errno, ENOTTY);
}

/* The public verbs refuse what would crash a provider, before asking it. */
static void test_dmah_verbs_input(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_dmah_init_attr attr = { .comp_mask = 1u << 3 };

	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(ibv_alloc_dmah(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	attr.comp_mask = 0x80000000u | IBV_DMAH_INIT_ATTR_MASK_PH;
	assert_null(ibv_alloc_dmah(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_dealloc_dmah(NULL), EINVAL);
	assert_int_equal(ibv_dm_export_dmabuf_fd(NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* A provider without the ops (rdma-core 65's dummies): EOPNOTSUPP. */
static void test_dmah_verbs_no_op(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_dmah_init_attr attr = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH,
	};
	struct ibv_dmah dmah = { .context = ctx };
	struct ibv_dm dm = { .context = ctx };

	errno = 0;
	assert_null(ibv_alloc_dmah(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_dealloc_dmah(&dmah), EOPNOTSUPP);
	errno = 0;
	assert_int_equal(ibv_dm_export_dmabuf_fd(&dm), -1);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_alloc_dmah_all),	  T_CMD(test_alloc_dmah_mask),
		T_CMD(test_alloc_dmah_no_method), T_CMD(test_free_dmah),
		T_CMD(test_export_dmabuf_fd),	  T_CMD(test_dmah_verbs_input),
		T_CMD(test_dmah_verbs_no_op),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
