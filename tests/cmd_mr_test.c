// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MR and MW commands of cmd_mr.c against a fake kernel (t_mem.h):
 * registrations, re-registration, query, advice, dma-buf and memory
 * windows, byte for byte, the write() fallback where a command has one,
 * the answer decoded into the object, and errors passed through where it
 * has none (with cmd_dm.c's ioctl-only commands alongside).
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

static void test_reg_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 4 };
	struct ibv_reg_mr cmd;
	struct ib_uverbs_reg_mr_resp resp;
	struct verbs_mr vmr = { .mr_type = IBV_MR_TYPE_NULL_MR };
	uint32_t kresp[3] = { 0x10, 0x20, 0x30 };
	uint8_t want[48], *p;

	memcpy(fk.resp, kresp, sizeof(kresp));
	fk.resp_len = sizeof(kresp);
	assert_int_equal(ibv_cmd_reg_mr(&pd, (void *)0x1000, 0x2000, 0x7000,
					IBV_ACCESS_LOCAL_WRITE, &vmr, &cmd,
					sizeof(cmd), &resp, sizeof(resp)),
			 0);
	p = t_put_write_hdr(want, IB_USER_VERBS_CMD_REG_MR, 48, 12);
	p = t_put64(p, (uintptr_t)&resp);
	p = t_put64(p, 0x1000);
	p = t_put64(p, 0x2000);
	p = t_put64(p, 0x7000);
	p = t_put32(p, 4);
	t_put32(p, IBV_ACCESS_LOCAL_WRITE);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_int_equal(vmr.ibv_mr.handle, 0x10);
	assert_int_equal(vmr.ibv_mr.lkey, 0x20);
	assert_int_equal(vmr.ibv_mr.rkey, 0x30);
	assert_ptr_equal(vmr.ibv_mr.context, ctx);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);
	assert_int_equal(vmr.access, IBV_ACCESS_LOCAL_WRITE);
	t_fail_next(EFAULT);
	assert_int_equal(ibv_cmd_reg_mr(&pd, (void *)0x1000, 0x2000, 0x7000, 0,
					&vmr, &cmd, sizeof(cmd), &resp,
					sizeof(resp)),
			 EFAULT);
}

/* On-demand paging over everything: NULL and SIZE_MAX, never an address. */
static void test_reg_mr_implicit_odp(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct ibv_reg_mr cmd;
	struct ib_uverbs_reg_mr_resp resp;
	struct verbs_mr vmr = {};

	errno = 0;
	assert_int_equal(ibv_cmd_reg_mr(&pd, (void *)0x1000, SIZE_MAX, 0,
					IBV_ACCESS_ON_DEMAND, &vmr, &cmd,
					sizeof(cmd), &resp, sizeof(resp)),
			 EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.ncalls, 0);
	assert_int_equal(ibv_cmd_reg_mr(&pd, NULL, SIZE_MAX, 0,
					IBV_ACCESS_ON_DEMAND, &vmr, &cmd,
					sizeof(cmd), &resp, sizeof(resp)),
			 0);
	assert_int_equal(cmd.length, UINT64_MAX);
}

static void test_rereg_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_context other = {};
	struct ibv_pd pd = { .context = &other, .handle = 6 };
	struct ibv_rereg_mr cmd;
	struct ib_uverbs_rereg_mr_resp resp;
	struct verbs_mr vmr = { .ibv_mr = { .context = ctx, .handle = 8 } };
	uint32_t kresp[2] = { 0x111, 0x222 };
	uint8_t want[56], *p;

	memcpy(fk.resp, kresp, sizeof(kresp));
	fk.resp_len = sizeof(kresp);
	assert_int_equal(ibv_cmd_rereg_mr(&vmr, IBV_REREG_MR_CHANGE_ACCESS,
					  (void *)0x3000, 0x100, 0x3000,
					  IBV_ACCESS_REMOTE_READ, &pd, &cmd,
					  sizeof(cmd), &resp, sizeof(resp)),
			 0);
	p = t_put_write_hdr(want, IB_USER_VERBS_CMD_REREG_MR, 56, 8);
	p = t_put64(p, (uintptr_t)&resp);
	p = t_put32(p, 8);
	p = t_put32(p, IBV_REREG_MR_CHANGE_ACCESS);
	p = t_put64(p, 0x3000);
	p = t_put64(p, 0x100);
	p = t_put64(p, 0x3000);
	p = t_put32(p, 0); /* the PD only with CHANGE_PD */
	t_put32(p, IBV_ACCESS_REMOTE_READ);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_int_equal(vmr.ibv_mr.lkey, 0x111);
	assert_int_equal(vmr.ibv_mr.rkey, 0x222);
	assert_ptr_equal(vmr.ibv_mr.context, ctx);
	assert_int_equal(ibv_cmd_rereg_mr(&vmr, IBV_REREG_MR_CHANGE_PD, NULL, 0,
					  0, 0, &pd, &cmd, sizeof(cmd), &resp,
					  sizeof(resp)),
			 0);
	assert_int_equal(cmd.pd_handle, 6);
	assert_ptr_equal(vmr.ibv_mr.context, &other);
}

static void test_dereg_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_mr vmr = { .ibv_mr = { .context = ctx, .handle = 0x77 } };

	assert_int_equal(ibv_cmd_dereg_mr(&vmr), 0);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY,
			       0x77);
	tk.ncalls = 0;
	tk.refuse_obj = UVERBS_OBJECT_MR;
	tk.refuse_method = UVERBS_METHOD_MR_DESTROY;
	assert_int_equal(ibv_cmd_dereg_mr(&vmr), 0);
	t_expect_destroy_write(tk.ncalls - 1, IB_USER_VERBS_CMD_DEREG_MR, 0x77);
	tk.ncalls = 0;
	t_fail_next(EINVAL);
	assert_int_equal(ibv_cmd_dereg_mr(&vmr), EINVAL);
	assert_int_equal(tk.ncalls, 1);
	assert_false(tk.log[0].is_ioctl);
}

static void t_query_mr_handler(struct ib_uverbs_ioctl_hdr *h)
{
	uint64_t length = 0x5000;

	t_out_u32(h, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 0xa1);
	t_out_u32(h, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 0xb2);
	t_out_ptr(h, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length, 8);
}

static void test_query_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct verbs_mr vmr = { .ibv_mr.addr = &vmr };
	struct ibv_mr *mr = &vmr.ibv_mr;
	uint8_t want[IOCTL_ATTR(4)], *p;

	tk.on_ioctl = t_query_mr_handler;
	assert_int_equal(ibv_cmd_query_mr(&pd, &vmr, 0x31), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, 4);
	p = t_put_mattr(p, UVERBS_ATTR_QUERY_MR_HANDLE, 0, 0x31);
	p = t_put_mattr(p, UVERBS_ATTR_QUERY_MR_RESP_LKEY, 4,
			(uintptr_t)&mr->lkey);
	p = t_put_mattr(p, UVERBS_ATTR_QUERY_MR_RESP_RKEY, 4,
			(uintptr_t)&mr->rkey);
	t_put_mattr(p, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, 8,
		    (uintptr_t)&mr->length);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(mr->lkey, 0xa1);
	assert_int_equal(mr->rkey, 0xb2);
	assert_int_equal(mr->length, 0x5000);
	assert_int_equal(mr->handle, 0x31);
	assert_ptr_equal(mr->context, ctx);
	assert_ptr_equal(mr->pd, &pd);
	assert_null(mr->addr);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_IMPORTED_MR);
}

/* ioctl-only commands have nowhere to fall back to: errors pass through. */
static void test_ioctl_only_no_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct verbs_mr vmr = {};
	struct verbs_dm dm = { .dm.context = ctx };
	struct ibv_alloc_dm_attr attr = { .length = 64 };

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_mr(&pd, &vmr, 1), ENOTTY);
	assert_int_equal(ibv_cmd_reg_dmabuf_mr(&pd, 0, 4096, 0, 3, 0, &vmr,
					       NULL),
			 ENOTTY);
	assert_int_equal(ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
					   0, NULL, 0),
			 ENOTTY);
	assert_int_equal(ibv_cmd_alloc_dm(ctx, &attr, &dm, NULL), ENOTTY);
	assert_int_equal(ibv_cmd_free_dm(&dm), ENOTTY);
	tk.no_ioctl = false;
	tk.refuse_obj = UVERBS_OBJECT_MR;
	tk.refuse_method = UVERBS_METHOD_QUERY_MR;
	assert_int_equal(ibv_cmd_query_mr(&pd, &vmr, 1), EPROTONOSUPPORT);
	for (unsigned int i = 0; i < tk.ncalls; i++)
		assert_true(tk.log[i].is_ioctl);
	assert_int_equal(vmr.mr_type, 0);
	assert_null(vmr.ibv_mr.context);
}

static void test_advise_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 2 };
	struct ibv_sge sge[2] = {};
	uint8_t want[IOCTL_ATTR(4)], *p;

	assert_int_equal(ibv_cmd_advise_mr(&pd,
					   IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					   IBV_ADVISE_MR_FLAG_FLUSH, sge, 2),
			 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, 4);
	p = t_put_mattr(p, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, 0, 2);
	p = t_put_mattr(p, UVERBS_ATTR_ADVISE_MR_ADVICE, 8,
			IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE);
	p = t_put_mattr(p, UVERBS_ATTR_ADVISE_MR_FLAGS, 4,
			IBV_ADVISE_MR_FLAG_FLUSH);
	t_put_mattr(p, UVERBS_ATTR_ADVISE_MR_SGE_LIST, 32, (uintptr_t)sge);
	t_expect(0, true, want, sizeof(want));
	t_fail_next(EOPNOTSUPP);
	assert_int_equal(ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH,
					   0, sge, 1),
			 EOPNOTSUPP);
}

static void t_dmabuf_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0x61);
	t_out_u32(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 0xc1);
	t_out_u32(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 0xc2);
}

static void test_reg_dmabuf_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 5 };
	struct verbs_mr vmr = {};
	struct ib_uverbs_attr *a;
	uint8_t want[24];

	tk.on_ioctl = t_dmabuf_handler;
	assert_int_equal(ibv_cmd_reg_dmabuf_mr(&pd, 0x200, 0x1000, 0x9000, 11,
					       IBV_ACCESS_LOCAL_WRITE, &vmr,
					       NULL),
			 0);
	t_put_ioctl_hdr(want, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, 9);
	assert_int_equal(tk.log[0].len, IOCTL_ATTR(9));
	assert_memory_equal(tk.log[0].bytes, want, IOCTL_HDR_SIZE);
	/* Outputs first, then the inputs: the order rdma-core 44 sends. */
	a = (struct ib_uverbs_attr *)(tk.log[0].bytes + IOCTL_ATTR(0));
	assert_int_equal(a[0].attr_id, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	assert_int_equal(a[1].attr_id, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY);
	assert_int_equal(a[2].attr_id, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY);
	t_expect_mattr(0, 3, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0, 5);
	t_expect_mattr(0, 4, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 0x200);
	t_expect_mattr(0, 5, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, 0x1000);
	t_expect_mattr(0, 6, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, 0x9000);
	t_expect_mattr(0, 7, UVERBS_ATTR_REG_DMABUF_MR_FD, 4, 11);
	t_expect_mattr(0, 8, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4,
		       IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(vmr.ibv_mr.handle, 0x61);
	assert_int_equal(vmr.ibv_mr.lkey, 0xc1);
	assert_int_equal(vmr.ibv_mr.rkey, 0xc2);
	assert_ptr_equal(vmr.ibv_mr.addr, (void *)0x200);
	assert_int_equal(vmr.ibv_mr.length, 0x1000);
	assert_ptr_equal(vmr.ibv_mr.pd, &pd);
	assert_ptr_equal(vmr.ibv_mr.context, ctx);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_DMABUF_MR);
}

/* MR/REG_MR's numbers (Linux 6.17's ib_user_ioctl_cmds.h), as facts. */
enum {
	METHOD_REG_MR = 5,
	REG_MR_HANDLE = 0,
	REG_MR_PD_HANDLE = 1,
	REG_MR_DMA_HANDLE = 2,
	REG_MR_IOVA = 3,
	REG_MR_ADDR = 4,
	REG_MR_LENGTH = 5,
	REG_MR_ACCESS_FLAGS = 6,
	REG_MR_FD = 7,
	REG_MR_FD_OFFSET = 8,
	REG_MR_RESP_LKEY = 9,
	REG_MR_RESP_RKEY = 10,
};

static void t_reg_mr_ex_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, REG_MR_HANDLE, 0x71);
	t_out_u32(h, REG_MR_RESP_LKEY, 0xd1);
	t_out_u32(h, REG_MR_RESP_RKEY, 0xd2);
}

/* Memory by address: ADDR, IOVA (the address), outputs, then the rest. */
static void test_reg_mr_ex_addr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 6 };
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR,
		.addr = (void *)0x5000,
		.length = 0x2000,
		.access = IBV_ACCESS_LOCAL_WRITE,
		.fd = 9, /* stale: not read */
		.fd_offset = 0xa5,
	};
	struct verbs_mr vmr = {};

	tk.on_ioctl = t_reg_mr_ex_handler;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), 0);
	t_expect_method(0, UVERBS_OBJECT_MR, METHOD_REG_MR, 8);
	t_expect_mattr(0, 0, REG_MR_ADDR, 8, 0x5000);
	t_expect_mattr(0, 1, REG_MR_IOVA, 8, 0x5000);
	t_expect_mattr(0, 2, REG_MR_HANDLE, 0, 0);
	t_expect_attr(0, 3, REG_MR_RESP_LKEY, 4, UVERBS_ATTR_F_MANDATORY);
	t_expect_attr(0, 4, REG_MR_RESP_RKEY, 4, UVERBS_ATTR_F_MANDATORY);
	t_expect_mattr(0, 5, REG_MR_PD_HANDLE, 0, 6);
	t_expect_mattr(0, 6, REG_MR_LENGTH, 8, 0x2000);
	t_expect_mattr(0, 7, REG_MR_ACCESS_FLAGS, 4, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(vmr.ibv_mr.handle, 0x71);
	assert_int_equal(vmr.ibv_mr.lkey, 0xd1);
	assert_int_equal(vmr.ibv_mr.rkey, 0xd2);
	assert_ptr_equal(vmr.ibv_mr.context, ctx);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);
	assert_int_equal(vmr.access, IBV_ACCESS_LOCAL_WRITE);
	/* The public verb's fields are not this layer's. */
	assert_null(vmr.ibv_mr.pd);
	assert_null(vmr.ibv_mr.addr);
}

/* A dma-buf with a DMA handle: FD_OFFSET, FD, IOVA ... DMA_HANDLE last. */
static void test_reg_mr_ex_dmabuf(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 6 };
	struct verbs_dmah dmah = { .dmah.context = ctx, .handle = 0x33 };
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			     IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_DMAH,
		.fd = 12,
		.fd_offset = 0x400,
		.iova = 0x9000,
		.length = 0x1000,
		.dmah = &dmah.dmah,
		.addr = (void *)0xa5a5, /* stale */
	};
	struct verbs_mr vmr = {};

	tk.on_ioctl = t_reg_mr_ex_handler;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), 0);
	t_expect_method(0, UVERBS_OBJECT_MR, METHOD_REG_MR, 10);
	t_expect_mattr(0, 0, REG_MR_FD_OFFSET, 8, 0x400);
	t_expect_mattr(0, 1, REG_MR_FD, 0, 12);
	t_expect_mattr(0, 2, REG_MR_IOVA, 8, 0x9000);
	t_expect_mattr(0, 3, REG_MR_HANDLE, 0, 0);
	t_expect_mattr(0, 6, REG_MR_PD_HANDLE, 0, 6);
	t_expect_mattr(0, 7, REG_MR_LENGTH, 8, 0x1000);
	t_expect_mattr(0, 8, REG_MR_ACCESS_FLAGS, 4, 0);
	t_expect_mattr(0, 9, REG_MR_DMA_HANDLE, 0, 0x33);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_DMABUF_MR);
	assert_int_equal(vmr.ibv_mr.lkey, 0xd1);
}

/* Implicit ODP: no address, the whole space as U64_MAX. */
static void test_reg_mr_ex_implicit_odp(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 6 };
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR,
		.length = SIZE_MAX,
		.access = IBV_ACCESS_ON_DEMAND,
	};
	struct verbs_mr vmr = {};

	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), 0);
	t_expect_mattr(0, 6, REG_MR_LENGTH, 8, UINT64_MAX);
	in.addr = (void *)0x1000;
	errno = 0;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.ncalls, 1);
}

/* Every comp_mask that is no form of registration, refused unsent. */
static void test_reg_mr_ex_forms(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	const uint64_t bad[] = {
		0,
		IBV_REG_MR_MASK_IOVA,
		IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_IOVA,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET,
		IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR,
		/* A DMA handle bit without a handle: rdma-core 65 crashes. */
		IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH,
	};
	struct verbs_mr vmr = {};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ibv_mr_init_attr in = { .comp_mask = bad[i],
					       .length = 64 };

		errno = 0;
		assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EINVAL);
		assert_int_equal(errno, EINVAL);
	}
	assert_int_equal(tk.ncalls, 0);
}

/*
 * A kernel without MR/REG_MR: memory by address as the REG_MR write()
 * (the IOVA asked for as hca_va), a dma-buf or DMA handle EOPNOTSUPP.
 */
static void test_reg_mr_ex_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 4 };
	struct verbs_dmah dmah = { .handle = 1 };
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA,
		.addr = (void *)0x1000,
		.iova = 0x7000,
		.length = 0x2000,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	uint32_t kresp[3] = { 0x10, 0x20, 0x30 };
	struct verbs_mr vmr = {};
	unsigned int w;

	memcpy(fk.resp, kresp, sizeof(kresp));
	fk.resp_len = sizeof(kresp);
	tk.refuse_obj = UVERBS_OBJECT_MR;
	tk.refuse_method = METHOD_REG_MR;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), 0);
	w = t_last_call();
	assert_false(tk.log[w].is_ioctl);
	assert_int_equal(t_get32(tk.log[w].bytes + CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_REG_MR);
	/* start, length, hca_va, pd, access behind the response pointer */
	assert_int_equal(t_get64(tk.log[w].bytes + CMD_HDR_SIZE + 8), 0x1000);
	assert_int_equal(t_get64(tk.log[w].bytes + CMD_HDR_SIZE + 16), 0x2000);
	assert_int_equal(t_get64(tk.log[w].bytes + CMD_HDR_SIZE + 24), 0x7000);
	assert_int_equal(t_get32(tk.log[w].bytes + CMD_HDR_SIZE + 32), 4);
	assert_int_equal(vmr.ibv_mr.handle, 0x10);
	assert_int_equal(vmr.ibv_mr.lkey, 0x20);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);
	/* The refusal is remembered: the next one goes straight to write(). */
	t_kernel_reset();
	tk.on_write = NULL;
	tk.refuse_obj = UVERBS_OBJECT_MR;
	tk.refuse_method = METHOD_REG_MR;
	in.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
		       IBV_REG_MR_MASK_IOVA;
	errno = 0;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	in.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH;
	in.dmah = &dmah.dmah;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
	/* Without ioctl at all, the same. */
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EOPNOTSUPP);
}

/* Other kernel errors pass through, with no second try by write(). */
static void test_reg_mr_ex_error(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct ibv_mr_init_attr in = { .comp_mask = IBV_REG_MR_MASK_ADDR,
				       .addr = (void *)0x1000,
				       .length = 64 };
	struct verbs_mr vmr = {};

	t_fail_next(EFAULT);
	assert_int_equal(ibv_cmd_reg_mr_ex(&pd, &vmr, &in), EFAULT);
	assert_int_equal(tk.ncalls, 1);
	assert_null(vmr.ibv_mr.context);
}

static void test_alloc_mw(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 3 };
	struct ibv_alloc_mw cmd;
	struct ib_uverbs_alloc_mw_resp resp;
	struct ibv_mw mw = {};
	uint32_t kresp[2] = { 0x44, 0x55 }; /* mw_handle, rkey */
	uint8_t want[24], *p;

	memset(&cmd, 0xff, sizeof(cmd)); /* reserved bytes must be cleared */
	memcpy(fk.resp, kresp, sizeof(kresp));
	fk.resp_len = sizeof(kresp);
	assert_int_equal(ibv_cmd_alloc_mw(&pd, IBV_MW_TYPE_2, &mw, &cmd,
					  sizeof(cmd), &resp, sizeof(resp)),
			 0);
	p = t_put_write_hdr(want, IB_USER_VERBS_CMD_ALLOC_MW, 24, 8);
	p = t_put64(p, (uintptr_t)&resp);
	p = t_put32(p, 3);
	t_put32(p, IBV_MW_TYPE_2);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_ptr_equal(mw.context, ctx);
	assert_ptr_equal(mw.pd, &pd);
	assert_int_equal(mw.handle, 0x44);
	assert_int_equal(mw.rkey, 0x55);
	assert_int_equal(mw.type, IBV_MW_TYPE_2);
}

static void test_dealloc_mw(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_mw mw = { .context = ctx, .handle = 0x12 };

	assert_int_equal(ibv_cmd_dealloc_mw(&mw), 0);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			       0x12);
	tk.ncalls = 0;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_dealloc_mw(&mw), 0);
	t_expect_destroy_write(tk.ncalls - 1, IB_USER_VERBS_CMD_DEALLOC_MW,
			       0x12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_reg_mr),
		T_CMD(test_reg_mr_implicit_odp),
		T_CMD(test_rereg_mr),
		T_CMD(test_dereg_mr),
		T_CMD(test_query_mr),
		T_CMD(test_ioctl_only_no_fallback),
		T_CMD(test_advise_mr),
		T_CMD(test_reg_dmabuf_mr),
		T_CMD(test_reg_mr_ex_addr),
		T_CMD(test_reg_mr_ex_dmabuf),
		T_CMD(test_reg_mr_ex_implicit_odp),
		T_CMD(test_reg_mr_ex_forms),
		T_CMD(test_reg_mr_ex_fallback),
		T_CMD(test_reg_mr_ex_error),
		T_CMD(test_alloc_mw),
		T_CMD(test_dealloc_mw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
