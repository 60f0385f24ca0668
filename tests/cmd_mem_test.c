// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The memory family against a fake kernel: protection domains, XRC
 * domains, memory regions and windows, device memory (cmd_pd.c,
 * cmd_xrcd.c, cmd_mr.c, cmd_dm.c), and the public verbs of verbs_mr.c
 * with small fake provider ops.
 *
 * For each ibv_cmd_* the bytes it puts on the wire, where it has both
 * forms the write() fallback when the kernel lacks the ioctl method (and
 * that the context then goes straight to write()), the response decoded
 * into the object, and errors passed through. For each public verb the
 * argument checks, the dispatch to the provider and the core fields it
 * sets, and the fork tracker around registrations (real madvise() calls
 * on our own pages, counts read through libibverbs/fork.h).
 *
 * Links the static archive, where the hidden seam and hooks are reachable.
 * The fake kernel answers write()-format commands as plain write(), since
 * it refuses DEVICE/INVOKE_WRITE unless a case says otherwise.
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

#include "libibverbs/fork.h"
#include "t_kernel.h"

#define T_DRIVER_ID 7

/* The response every write() command gets, as much as it has room for. */
static struct {
	uint8_t resp[64];
	size_t resp_len;
} fk;

/* A handler's outputs: a new object's handle, or bytes behind a pointer. */
static void t_out_obj(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	assert_non_null(a);
	a->data = v;
}

static void t_out_ptr(struct ib_uverbs_ioctl_hdr *h, uint16_t id, const void *v,
		      size_t len)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	assert_non_null(a);
	assert_int_equal(a->len, len);
	memcpy((void *)(uintptr_t)a->data, v, len);
}

/* A basic command's response pointer is the first u64 behind the header. */
static int t_write_resp(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	size_t out = h->out_words * 4u;
	uint64_t resp;

	if (err)
		return err;
	if (out && len >= 16) {
		memcpy(&resp, (const uint8_t *)buf + 8, 8);
		memcpy((void *)(uintptr_t)resp, fk.resp,
		       out < fk.resp_len ? out : fk.resp_len);
	}
	return 0;
}

/* The kernel lacks the tunnel unless a case says otherwise. */
static int t_setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.on_write = t_write_resp;
	t_vdev.core_support = 0;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

/* A one-handle destroy: the ioctl image. */
static void t_expect_destroy_ioctl(unsigned int i, uint16_t obj,
				   uint16_t method, uint32_t handle)
{
	uint8_t want[24 + 16], *p;

	p = t_put_ioctl_hdr(want, obj, method, 1);
	t_put_mattr(p, 0, 0, handle);
	t_expect(i, true, want, sizeof(want));
}

/* ... and its write() form: header and the handle. */
static void t_expect_destroy_write(unsigned int i, uint32_t cmd,
				   uint32_t handle)
{
	uint8_t want[12], *p;

	p = t_put_write_hdr(want, cmd, sizeof(want), 0);
	t_put32(p, handle);
	t_expect(i, false, want, sizeof(want));
}

/*
 * A provider's request and response: the core struct, then its driver
 * data (8 bytes in, 4 out). Built in plain buffers, since the core
 * structs end in flexible arrays and ISO C embeds those only last.
 */
struct t_alloc_pd {
	uint64_t buf[3];
	struct ibv_alloc_pd *cmd;
	uint64_t *drv;
	uint32_t rbuf[2];
	struct ib_uverbs_alloc_pd_resp *resp;
	uint32_t *rdrv;
};

static void t_alloc_pd_init(struct t_alloc_pd *t, uint64_t drv)
{
	memset(t, 0, sizeof(*t));
	t->cmd = (struct ibv_alloc_pd *)t->buf;
	t->drv = &t->buf[2];
	*t->drv = drv;
	t->resp = (struct ib_uverbs_alloc_pd_resp *)t->rbuf;
	t->rdrv = &t->rbuf[1];
}

static void test_alloc_pd_write(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_alloc_pd t;
	struct ibv_pd pd = {};
	uint8_t want[24], *p;
	uint32_t kresp[2] = { 0x51, 0xabcd };

	t_alloc_pd_init(&t, 0x1122334455667788);
	memcpy(fk.resp, kresp, sizeof(kresp));
	fk.resp_len = sizeof(kresp);
	assert_int_equal(ibv_cmd_alloc_pd(ctx, &pd, t.cmd, sizeof(t.buf),
					  t.resp, sizeof(t.rbuf)),
			 0);
	/* The header counts 4-byte words, provider data included. */
	p = t_put_write_hdr(want, IB_USER_VERBS_CMD_ALLOC_PD, 24, 8);
	p = t_put64(p, (uintptr_t)t.resp);
	t_put64(p, 0x1122334455667788);
	assert_int_equal(tk.ncalls, 2); /* the refused tunnel, then write() */
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(pd.handle, 0x51);
	assert_ptr_equal(pd.context, ctx);
	assert_int_equal(*t.rdrv, 0xabcd);
}

/* Through the INVOKE_WRITE tunnel the same command is one ioctl. */
static void test_alloc_pd_tunnel(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_alloc_pd t;
	struct ibv_pd pd = {};
	uint8_t want[24 + 5 * 16], *p;

	t_alloc_pd_init(&t, 5);
	tk.tunnel = true;
	assert_int_equal(ibv_cmd_alloc_pd(ctx, &pd, t.cmd, sizeof(t.buf),
					  t.resp, sizeof(t.rbuf)),
			 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INVOKE_WRITE, 5);
	p = t_put_mattr(p, UVERBS_ATTR_WRITE_CMD, 8,
			IB_USER_VERBS_CMD_ALLOC_PD);
	p = t_put_mattr(p, UVERBS_ATTR_CORE_IN, 8, (uintptr_t)t.resp);
	p = t_put_mattr(p, UVERBS_ATTR_CORE_OUT, 4, (uintptr_t)t.resp);
	p = t_put_mattr(p, UVERBS_ATTR_UHW_IN, 8, 5);
	t_put_mattr(p, UVERBS_ATTR_UHW_OUT, 4, (uintptr_t)t.rdrv);
	assert_int_equal(tk.ncalls, 1);
	t_expect(0, true, want, sizeof(want));
	assert_ptr_equal(pd.context, ctx);
}

static void test_alloc_pd_errno(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_alloc_pd cmd;
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_pd pd = {};

	tk.tunnel = true;
	t_fail_next(EMFILE);
	assert_int_equal(ibv_cmd_alloc_pd(ctx, &pd, &cmd, sizeof(cmd), &resp,
					  sizeof(resp)),
			 EMFILE);
	assert_null(pd.context);
}

static void test_dealloc_pd_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 0x42 };

	assert_int_equal(ibv_cmd_dealloc_pd(&pd), 0);
	assert_int_equal(tk.ncalls, 1);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       0x42);
}

/*
 * A kernel without the method gets DEALLOC_PD by write(), and from then
 * on only that; @no_ioctl: without any ioctl at all (ENOTTY).
 */
static void t_dealloc_pd_fallback(struct ibv_context *ctx, bool no_ioctl)
{
	struct ibv_pd pd = { .context = ctx, .handle = 9 };

	tk.no_ioctl = no_ioctl;
	tk.refuse_obj = UVERBS_OBJECT_PD;
	tk.refuse_method = UVERBS_METHOD_PD_DESTROY;
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), 0);
	t_expect_destroy_ioctl(0, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       9);
	/* The tunnel is probed (and refused) once, then write(). */
	t_expect_destroy_write(tk.ncalls - 1, IB_USER_VERBS_CMD_DEALLOC_PD, 9);
	tk.ncalls = 0;
	pd.handle = 10;
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), 0);
	assert_int_equal(tk.ncalls, 1);
	t_expect_destroy_write(0, IB_USER_VERBS_CMD_DEALLOC_PD, 10);
}

static void test_dealloc_pd_enotty(void **state)
{
	t_dealloc_pd_fallback(*state, true);
}

static void test_dealloc_pd_eprotonosupport(void **state)
{
	t_dealloc_pd_fallback(*state, false);
}

/* Other errors are the kernel's answer: no fallback, errno unchanged. */
static void test_dealloc_pd_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 1 };

	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), EBUSY);
	assert_int_equal(tk.ncalls, 1);
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_dealloc_pd(&pd), 0);
}

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
	uint32_t lkey = 0xa1, rkey = 0xb2;
	uint64_t length = 0x5000;

	t_out_ptr(h, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &lkey, 4);
	t_out_ptr(h, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, 4);
	t_out_ptr(h, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length, 8);
}

static void test_query_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct verbs_mr vmr = { .ibv_mr.addr = &vmr };
	struct ibv_mr *mr = &vmr.ibv_mr;
	uint8_t want[24 + 4 * 16], *p;

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
	assert_int_equal(ibv_cmd_reg_dmabuf_mr(&pd, 0, 4096, 0, 3, 0, &vmr),
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
	uint8_t want[24 + 4 * 16], *p;

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
	uint32_t lkey = 0xc1, rkey = 0xc2;

	t_out_obj(h, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0x61);
	t_out_ptr(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey, 4);
	t_out_ptr(h, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey, 4);
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
					       IBV_ACCESS_LOCAL_WRITE, &vmr),
			 0);
	t_put_ioctl_hdr(want, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, 9);
	assert_int_equal(tk.log[0].len, 24 + 9 * 16);
	assert_memory_equal(tk.log[0].bytes, want, 24);
	/* Outputs first, then the inputs: the order rdma-core 44 sends. */
	a = (struct ib_uverbs_attr *)(tk.log[0].bytes + 24);
	assert_int_equal(a[0].attr_id, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	assert_int_equal(a[1].attr_id, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY);
	assert_int_equal(a[2].attr_id, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 0, 5);
	assert_memory_equal(&a[3], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 8, 0x200);
	assert_memory_equal(&a[4], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 8, 0x1000);
	assert_memory_equal(&a[5], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 8, 0x9000);
	assert_memory_equal(&a[6], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_FD, 4, 11);
	assert_memory_equal(&a[7], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 4,
		    IBV_ACCESS_LOCAL_WRITE);
	assert_memory_equal(&a[8], want, 16);
	assert_int_equal(vmr.ibv_mr.handle, 0x61);
	assert_int_equal(vmr.ibv_mr.lkey, 0xc1);
	assert_int_equal(vmr.ibv_mr.rkey, 0xc2);
	assert_ptr_equal(vmr.ibv_mr.addr, (void *)0x200);
	assert_int_equal(vmr.ibv_mr.length, 0x1000);
	assert_ptr_equal(vmr.ibv_mr.pd, &pd);
	assert_ptr_equal(vmr.ibv_mr.context, ctx);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_DMABUF_MR);
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
	uint8_t want[24 + 4 * 16], *p;
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
	uint32_t lkey = 0xe1, rkey = 0xe2;

	t_out_obj(h, UVERBS_ATTR_REG_DM_MR_HANDLE, 0x81);
	t_out_ptr(h, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey, 4);
	t_out_ptr(h, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey, 4);
}

static void test_reg_dm_mr(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 2 };
	struct verbs_dm dm = { .dm.context = ctx, .handle = 0x15 };
	struct verbs_mr vmr = { .ibv_mr.addr = &vmr };
	struct ib_uverbs_attr *a;
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
	assert_int_equal(tk.log[0].len, 24 + 8 * 16);
	assert_memory_equal(tk.log[0].bytes, want, 24);
	a = (struct ib_uverbs_attr *)(tk.log[0].bytes + 24);
	t_put_mattr(want, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, 0, 0x15);
	assert_memory_equal(&a[4], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DM_MR_OFFSET, 8, 128);
	assert_memory_equal(&a[5], want, 16);
	t_put_mattr(want, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 4,
		    IBV_ACCESS_ZERO_BASED);
	assert_memory_equal(&a[7], want, 16);
	assert_int_equal(vmr.ibv_mr.handle, 0x81);
	assert_int_equal(vmr.ibv_mr.lkey, 0xe1);
	assert_int_equal(vmr.ibv_mr.rkey, 0xe2);
	assert_int_equal(vmr.ibv_mr.length, 64);
	assert_null(vmr.ibv_mr.addr);
	assert_ptr_equal(vmr.ibv_mr.pd, &pd);
	assert_int_equal(vmr.mr_type, IBV_MR_TYPE_MR);
}

/*
 * Public verbs, dispatched to fake provider ops. The fakes record what
 * they were given and, for registrations, the fork tracker's count of
 * the first page at that moment.
 */
static struct {
	int fail; /* errno the next op fails with, 0 to succeed */
	unsigned int calls;
	void *arg; /* the object or context the op was handed */
	void *addr;
	size_t length;
	uint64_t iova;
	int access, flags;
	long refcount; /* the tracker's count of addr's page, inside reg_mr */
	struct ibv_pd pd;
} fp;

static struct ibv_pd *fake_alloc_pd(struct ibv_context *context)
{
	fp.calls++;
	fp.arg = context;
	if (fp.fail) {
		errno = fp.fail;
		return NULL;
	}
	return &fp.pd;
}

static int fake_dealloc_pd(struct ibv_pd *pd)
{
	fp.calls++;
	fp.arg = pd;
	return fp.fail;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				  uint64_t hca_va, int access)
{
	struct verbs_mr *vmr;

	fp.calls++;
	fp.arg = pd;
	fp.addr = addr;
	fp.length = length;
	fp.iova = hca_va;
	fp.access = access;
	fp.refcount = verbs_fork_refcount(addr);
	if (fp.fail) {
		errno = fp.fail;
		return NULL;
	}
	vmr = calloc(1, sizeof(*vmr));
	assert_non_null(vmr);
	/* What ibv_cmd_reg_mr() fills in. */
	vmr->ibv_mr.context = pd->context;
	vmr->mr_type = IBV_MR_TYPE_MR;
	vmr->access = access;
	return &vmr->ibv_mr;
}

static struct ibv_mr *fake_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					 size_t length, uint64_t iova, int fd,
					 int access)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));

	assert_non_null(vmr);
	fp.calls++;
	fp.arg = pd;
	fp.iova = iova;
	fp.access = access + fd;
	vmr->mr_type = IBV_MR_TYPE_DMABUF_MR;
	(void)offset;
	(void)length;
	return &vmr->ibv_mr;
}

static int fake_dereg_mr(struct verbs_mr *vmr)
{
	fp.calls++;
	fp.arg = vmr;
	if (!fp.fail)
		free(vmr);
	return fp.fail;
}

static int fake_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
			 void *addr, size_t length, int access)
{
	fp.calls++;
	fp.arg = vmr;
	fp.flags = flags;
	fp.addr = addr;
	fp.length = length;
	fp.access = access;
	fp.refcount = verbs_fork_refcount(addr);
	(void)pd;
	return fp.fail;
}

static struct ibv_pd *fake_import_pd(struct ibv_context *context,
				     uint32_t handle)
{
	fp.calls++;
	fp.arg = context;
	fp.flags = handle;
	return &fp.pd;
}

static void fake_unimport_pd(struct ibv_pd *pd)
{
	fp.calls++;
	fp.arg = pd;
}

static struct ibv_mr *fake_import_mr(struct ibv_pd *pd, uint32_t handle)
{
	fp.calls++;
	fp.arg = pd;
	fp.flags = handle;
	return NULL;
}

static void fake_unimport_mr(struct ibv_mr *mr)
{
	fp.calls++;
	fp.arg = mr;
}

static struct ibv_dm *fake_import_dm(struct ibv_context *context,
				     uint32_t handle)
{
	fp.calls++;
	fp.arg = context;
	fp.flags = handle;
	return NULL;
}

static void fake_unimport_dm(struct ibv_dm *dm)
{
	fp.calls++;
	fp.arg = dm;
}

static const struct verbs_context_ops fake_ops = {
	.alloc_pd = fake_alloc_pd,
	.dealloc_pd = fake_dealloc_pd,
	.dereg_mr = fake_dereg_mr,
	.import_dm = fake_import_dm,
	.import_mr = fake_import_mr,
	.import_pd = fake_import_pd,
	.reg_dmabuf_mr = fake_reg_dmabuf_mr,
	.reg_mr = fake_reg_mr,
	.rereg_mr = fake_rereg_mr,
	.unimport_dm = fake_unimport_dm,
	.unimport_mr = fake_unimport_mr,
	.unimport_pd = fake_unimport_pd,
};

/* Pages of our own for registrations, so the tracker's madvise() works. */
#define T_PAGES 8
static char *t_buf;
static size_t t_page;

static int t_verbs_setup(void **state)
{
	t_setup(state);
	verbs_set_ops(verbs_get_ctx(*state), &fake_ops);
	memset(&fp, 0, sizeof(fp));
	fp.pd.context = *state;
	return 0;
}

static int t_fork_group_setup(void **state)
{
	(void)state;
	t_page = sysconf(_SC_PAGESIZE);
	t_buf = mmap(NULL, T_PAGES * t_page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t_buf == MAP_FAILED)
		return -1;
	/* Fork safety on, before this process registers anything. */
	return ibv_fork_init();
}

static int t_fork_group_teardown(void **state)
{
	(void)state;
	munmap(t_buf, T_PAGES * t_page);
	return 0;
}

/*
 * The old ibv_context_ops slots of moved ops hold the provider's op, as
 * rdma-core 44 leaves them for binaries that still read them.
 */
static void test_compat_slots(void **state)
{
	struct ibv_context *ctx = *state;

	assert_ptr_equal((void *)ctx->ops._compat_alloc_pd,
			 (void *)fake_alloc_pd);
	assert_ptr_equal((void *)ctx->ops._compat_reg_mr, (void *)fake_reg_mr);
	assert_ptr_equal((void *)ctx->ops._compat_dealloc_pd,
			 (void *)fake_dealloc_pd);
}

static void test_alloc_pd_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd *pd;

	pd = ibv_alloc_pd(ctx);
	assert_ptr_equal(pd, &fp.pd);
	assert_ptr_equal(fp.arg, ctx);
	fp.pd.context = NULL;
	assert_ptr_equal(ibv_alloc_pd(ctx), &fp.pd);
	assert_ptr_equal(fp.pd.context, ctx); /* set by the library */
	fp.fail = ENOMEM;
	errno = 0;
	assert_null(ibv_alloc_pd(ctx));
	assert_int_equal(errno, ENOMEM);
	fp.fail = EBUSY;
	assert_int_equal(ibv_dealloc_pd(&fp.pd), EBUSY);
	assert_ptr_equal(fp.arg, &fp.pd);
	fp.fail = 0;
	assert_int_equal(ibv_dealloc_pd(&fp.pd), 0);
	assert_int_equal(fp.calls, 5);
}

/* Without a provider op the library's dummy answers EOPNOTSUPP. */
static void test_verbs_without_op(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };

	errno = 0;
	assert_null(ibv_alloc_pd(ctx));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(&pd, 0, 4096, 0, 3, 0));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_dealloc_pd(&pd), EOPNOTSUPP);
}

/* rereg without the op: the command's code, errno naming the cause. */
static void test_rereg_without_op(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct verbs_mr vmr = {
		.ibv_mr = { .context = ctx, .pd = &pd },
		.mr_type = IBV_MR_TYPE_MR,
	};

	errno = 0;
	assert_int_equal(ibv_rereg_mr(&vmr.ibv_mr, IBV_REREG_MR_CHANGE_ACCESS,
				      NULL, NULL, 0, IBV_ACCESS_LOCAL_WRITE),
			 IBV_REREG_MR_ERR_CMD);
	assert_int_equal(errno, EOPNOTSUPP);
}

/*
 * Registration: the provider gets @iova and the access flags, the pages
 * are MADV_DONTFORK (count 1) while it pins them, and the library fills
 * the core fields.
 */
static void test_reg_mr_verb(void **state)
{
	struct ibv_context *ctx = *state;
	char *addr = t_buf + 100;
	struct ibv_mr *mr;

	mr = ibv_reg_mr(&fp.pd, addr, 2 * t_page, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_ptr_equal(fp.arg, &fp.pd);
	assert_int_equal(fp.iova, (uintptr_t)addr);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(fp.refcount, 1);
	assert_int_equal(verbs_fork_refcount(t_buf + 2 * t_page), 1);
	assert_int_equal(verbs_fork_refcount(t_buf + 3 * t_page), 0);
	assert_ptr_equal(mr->context, ctx);
	assert_ptr_equal(mr->pd, &fp.pd);
	assert_ptr_equal(mr->addr, addr);
	assert_int_equal(mr->length, 2 * t_page);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(verbs_fork_refcount(t_buf + 2 * t_page), 0);
	assert_null(verbs_fork_check_tree());
}

static void test_reg_mr_iova_verbs(void **state)
{
	struct ibv_mr *mr;
	unsigned int access = IBV_ACCESS_REMOTE_READ;

	mr = ibv_reg_mr_iova(&fp.pd, t_buf, t_page, 0xabc000, access);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0xabc000);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0xdef000, access);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0xdef000);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A failed provider leaves the pages as they were, and its errno. */
static void test_reg_mr_verb_fails(void **state)
{
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	fp.fail = EFAULT;
	errno = 0;
	assert_null(ibv_reg_mr(&fp.pd, t_buf, 2 * t_page, 0));
	assert_int_equal(errno, EFAULT);
	assert_int_equal(fp.refcount, 2);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(verbs_fork_refcount(t_buf + t_page), 0);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	(void)state;
}

/* On-demand paging pins nothing: the tracker is left alone both ways. */
static void test_reg_mr_odp(void **state)
{
	struct ibv_mr *mr;

	mr = ibv_reg_mr(&fp.pd, t_buf, t_page, IBV_ACCESS_ON_DEMAND);
	assert_non_null(mr);
	assert_int_equal(fp.refcount, 0);
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
	(void)state;
}

/* Optional access bits reach the provider only if the kernel knows them. */
static void test_reg_mr_optional_access(void **state)
{
	unsigned int access = IBV_ACCESS_LOCAL_WRITE |
			      IBV_ACCESS_RELAXED_ORDERING;
	struct ibv_mr *mr;

	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0, access);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	t_vdev.core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0, access);
	assert_int_equal(fp.access, access);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A failed dereg keeps the MR, so its pages stay protected. */
static void test_dereg_mr_fails(void **state)
{
	struct ibv_mr *mr = ibv_reg_mr(&fp.pd, t_buf, t_page, 0);

	fp.fail = EBUSY;
	assert_int_equal(ibv_dereg_mr(mr), EBUSY);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	(void)state;
}

/* dma-buf (and imported) MRs never went through the tracker. */
static void test_dmabuf_mr_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_mr *mr;

	mr = ibv_reg_dmabuf_mr(&fp.pd, (uintptr_t)t_buf, t_page, 0x5000, 4,
			       IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0x5000);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE + 4);
	assert_ptr_equal(mr->context, ctx);
	assert_ptr_equal(mr->pd, &fp.pd);
	assert_ptr_equal(mr->addr, t_buf);
	assert_int_equal(mr->length, t_page);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
}

static struct ibv_mr *t_reg(size_t page, size_t pages)
{
	struct ibv_mr *mr =
		ibv_reg_mr(&fp.pd, t_buf + page * t_page, pages * t_page, 0);

	assert_non_null(mr);
	fp.calls = 0;
	return mr;
}

/* Refused up front: -1 and EINVAL, the provider never asked. */
static void test_rereg_mr_input(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	struct verbs_mr *vmr = verbs_get_mr(mr);
	const int translate = IBV_REREG_MR_CHANGE_TRANSLATION;

	errno = 0;
	assert_int_equal(ibv_rereg_mr(mr, 1 << 3, NULL, NULL, 0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_rereg_mr(mr, translate, NULL, NULL, t_page, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(ibv_rereg_mr(mr, translate, NULL, t_buf, 0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, IBV_ACCESS_LOCAL_WRITE),
			 IBV_REREG_MR_ERR_INPUT);
	vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR;
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(fp.calls, 0);
	vmr->mr_type = IBV_MR_TYPE_MR;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A new range: protected before the provider moves the MR, old released. */
static void test_rereg_mr_translation(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	const int flags = IBV_REREG_MR_CHANGE_TRANSLATION |
			  IBV_REREG_MR_CHANGE_ACCESS;
	char *to = t_buf + 4 * t_page;

	assert_int_equal(ibv_rereg_mr(mr, flags, NULL, to, t_page,
				      IBV_ACCESS_REMOTE_WRITE),
			 0);
	assert_int_equal(fp.refcount, 1);
	assert_int_equal(fp.access, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(verbs_fork_refcount(to), 1);
	assert_ptr_equal(mr->addr, to);
	assert_int_equal(mr->length, t_page);
	/* The provider fails: the new range is released again. */
	fp.fail = ENOMEM;
	assert_int_equal(ibv_rereg_mr(mr, flags, NULL, t_buf, t_page, 0),
			 IBV_REREG_MR_ERR_CMD);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_ptr_equal(mr->addr, to);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(to), 0);
	(void)state;
}

static void test_rereg_mr_pd(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	struct ibv_pd other = { .context = *state };

	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &other, NULL,
				      0, 0),
			 0);
	assert_ptr_equal(fp.arg, verbs_get_mr(mr));
	assert_int_equal(fp.flags, IBV_REREG_MR_CHANGE_PD);
	assert_ptr_equal(mr->pd, &other);
	fp.fail = EINVAL;
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, 0),
			 IBV_REREG_MR_ERR_CMD);
	assert_ptr_equal(mr->pd, &other);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

static void test_import_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_mr mr = { .context = ctx };
	struct ibv_dm dm = { .context = ctx };

	assert_ptr_equal(ibv_import_pd(ctx, 21), &fp.pd);
	assert_int_equal(fp.flags, 21);
	ibv_unimport_pd(&fp.pd);
	assert_ptr_equal(fp.arg, &fp.pd);
	assert_null(ibv_import_mr(&fp.pd, 22));
	assert_int_equal(fp.flags, 22);
	assert_ptr_equal(fp.arg, &fp.pd);
	ibv_unimport_mr(&mr);
	assert_ptr_equal(fp.arg, &mr);
	assert_null(ibv_import_dm(ctx, 23));
	assert_int_equal(fp.flags, 23);
	ibv_unimport_dm(&dm);
	assert_ptr_equal(fp.arg, &dm);
	assert_int_equal(fp.calls, 6);
}

/*
 * Registering before ibv_fork_init() leaves pages the tracker never saw,
 * so a later init must refuse. Run in a child: the tracker's state is
 * per process and this group runs before the one that enables it.
 */
static void test_fork_init_after_reg(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	static char page[4096] __attribute__((aligned(4096)));
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		struct ibv_mr *mr;

		verbs_set_ops(verbs_get_ctx(ctx), &fake_ops);
		mr = ibv_reg_mr(&pd, page, sizeof(page), 0);
		_exit(mr && ibv_fork_init() == EINVAL ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

#define T_CMD(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup, t_context_teardown)
#define T_VERB(fn) \
	cmocka_unit_test_setup_teardown(fn, t_verbs_setup, t_context_teardown)

int main(void)
{
	const struct CMUnitTest cmd_tests[] = {
		T_CMD(test_alloc_pd_write),
		T_CMD(test_alloc_pd_tunnel),
		T_CMD(test_alloc_pd_errno),
		T_CMD(test_dealloc_pd_ioctl),
		T_CMD(test_dealloc_pd_enotty),
		T_CMD(test_dealloc_pd_eprotonosupport),
		T_CMD(test_dealloc_pd_errors),
		T_CMD(test_open_xrcd),
		T_CMD(test_open_xrcd_attr),
		T_CMD(test_close_xrcd),
		T_CMD(test_reg_mr),
		T_CMD(test_reg_mr_implicit_odp),
		T_CMD(test_rereg_mr),
		T_CMD(test_dereg_mr),
		T_CMD(test_query_mr),
		T_CMD(test_ioctl_only_no_fallback),
		T_CMD(test_advise_mr),
		T_CMD(test_reg_dmabuf_mr),
		T_CMD(test_alloc_mw),
		T_CMD(test_dealloc_mw),
		T_CMD(test_alloc_dm),
		T_CMD(test_free_dm),
		T_CMD(test_reg_dm_mr),
		T_CMD(test_verbs_without_op),
		T_CMD(test_rereg_without_op),
		T_CMD(test_fork_init_after_reg),
	};
	const struct CMUnitTest verb_tests[] = {
		T_VERB(test_compat_slots),
		T_VERB(test_alloc_pd_verb),
		T_VERB(test_reg_mr_verb),
		T_VERB(test_reg_mr_iova_verbs),
		T_VERB(test_reg_mr_verb_fails),
		T_VERB(test_reg_mr_odp),
		T_VERB(test_reg_mr_optional_access),
		T_VERB(test_dereg_mr_fails),
		T_VERB(test_dmabuf_mr_verbs),
		T_VERB(test_rereg_mr_input),
		T_VERB(test_rereg_mr_translation),
		T_VERB(test_rereg_mr_pd),
		T_VERB(test_import_verbs),
	};
	int failed;

	/* The command layer first: nothing there touches the tracker. */
	failed = cmocka_run_group_tests_name("cmd", cmd_tests, NULL, NULL);
	failed += cmocka_run_group_tests_name(
		"verbs", verb_tests, t_fork_group_setup, t_fork_group_teardown);
	return failed ? 1 : 0;
}
