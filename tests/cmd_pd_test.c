// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The PD commands of cmd_pd.c against a fake kernel (t_mem.h): the bytes
 * alloc and dealloc put on the wire, through the tunnel and by write(),
 * the fallback and that the context then goes straight to write(), the
 * response decoded, and errors passed through.
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
	uint8_t want[IOCTL_ATTR(5)], *p;

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_alloc_pd_write),
		T_CMD(test_alloc_pd_tunnel),
		T_CMD(test_alloc_pd_errno),
		T_CMD(test_dealloc_pd_ioctl),
		T_CMD(test_dealloc_pd_enotty),
		T_CMD(test_dealloc_pd_eprotonosupport),
		T_CMD(test_dealloc_pd_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
