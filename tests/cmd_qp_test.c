// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The queue family of the command layer (cmd_qp.c, cmd_post.c,
 * cmd_srq.c, cmd_ah.c) against a fake kernel behind the transport seam,
 * and its public verbs (verbs_qp.c, verbs_ah.c) against fake provider
 * ops: the bytes each command sends, the write() fallback and that it is
 * remembered, responses decoded into the objects, errors passed through,
 * the wait for acknowledged events on destroy, and the core fields the
 * verbs keep. Links the static archive, where the seam is reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_kernel.h"

/*
 * Providers put their driver data behind struct ibv_<cmd>, whose flexible
 * driver_data[] then sits mid-struct; the tests build requests that way.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

#define T_DRIVER_ID 42

/*
 * What a write() gets back beyond the shared fake kernel: @resp copied
 * to its response pointer (the u64 after the header), even when it then
 * fails: the kernel reports a refused work request that way.
 */
static struct {
	uint8_t resp[256];
	size_t resp_len;
} fk;

/*
 * The kernel's uverbs ABI version, set by device discovery (netlink means
 * 6). Hidden in the library, reachable from this statically linked test.
 */
extern int abi_ver;

static int t_write_resp(const void *buf, size_t len, int err)
{
	uint64_t resp;

	if (fk.resp_len && len >= 16) {
		memcpy(&resp, (const uint8_t *)buf + 8, 8);
		memcpy((void *)(uintptr_t)resp, fk.resp, fk.resp_len);
	}
	return err;
}

/* The kernel has every method, the tunnel included. */
static int t_setup(void **state)
{
	struct ibv_context *ctx;

	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	abi_ver = 6;
	tk.tunnel = true;
	tk.on_write = t_write_resp;
	ctx = t_context_new(T_DRIVER_ID);
	ctx->async_fd = 33;
	tk.ncalls = 0; /* the tunnel probe is not under test here */
	*state = ctx;
	return 0;
}

/* The async fd is made up: not the context's to close. */
static int t_teardown(void **state)
{
	struct ibv_context *ctx = *state;

	ctx->async_fd = -1;
	t_context_free(ctx);
	return 0;
}

/* A PD, two CQs and a provider's create buffers with driver data. */
struct t_qp_objs {
	struct ibv_pd pd;
	struct ibv_cq scq, rcq;
	struct ibv_qp qp;
	struct {
		struct ibv_create_qp core;
		uint64_t drv;
	} cmd;
	struct {
		struct ib_uverbs_create_qp_resp core;
		uint64_t drv;
	} resp;
	struct ibv_qp_init_attr attr;
};

static void t_qp_objs(struct ibv_context *ctx, struct t_qp_objs *o)
{
	memset(o, 0, sizeof(*o));
	o->pd = (struct ibv_pd){ .context = ctx, .handle = 3 };
	o->scq.handle = 4;
	o->rcq.handle = 5;
	o->cmd.drv = 0xd1d1;
	o->attr = (struct ibv_qp_init_attr){
		.qp_context = o,
		.send_cq = &o->scq,
		.recv_cq = &o->rcq,
		.cap = { 16, 8, 2, 1, 64 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
	};
}

/* QP/CREATE succeeds: handle 0x55, QP number 0x123, caps doubled. */
static void t_qp_create_answer(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *a = t_attr(h, UVERBS_ATTR_CREATE_QP_HANDLE);
	uint32_t qpn = 0x123, cap[5] = { 32, 16, 4, 2, 128 };

	a->data = 0x55;
	a = t_attr(h, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM);
	memcpy((void *)(uintptr_t)a->data, &qpn, 4);
	a = t_attr(h, UVERBS_ATTR_CREATE_QP_RESP_CAP);
	memcpy((void *)(uintptr_t)a->data, cap, sizeof(cap));
}

static void t_check_created(struct t_qp_objs *o, struct ibv_context *ctx)
{
	assert_ptr_equal(o->qp.context, ctx);
	assert_ptr_equal(o->qp.qp_context, o);
	assert_ptr_equal(o->qp.pd, &o->pd);
	assert_ptr_equal(o->qp.send_cq, &o->scq);
	assert_ptr_equal(o->qp.recv_cq, &o->rcq);
	assert_int_equal(o->qp.qp_type, IBV_QPT_RC);
	assert_int_equal(o->qp.state, IBV_QPS_RESET);
	assert_int_equal(o->qp.events_completed, 0);
	assert_int_equal(o->attr.cap.max_send_wr, 32);
	assert_int_equal(o->attr.cap.max_recv_sge, 2);
	assert_int_equal(o->attr.cap.max_inline_data, 128);
}

/* The ioctl, attribute by attribute, and the answer in the QP. */
static void test_create_qp_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	uint8_t want[24 + 13 * 16], *p;

	t_qp_objs(ctx, &o);
	tk.on_ioctl = t_qp_create_answer;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE,
			    13);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, 1, 3);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, 1, 4);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, 1, 5);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_HANDLE, 0, 1, 0);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_TYPE, 8, 1, IBV_QPT_RC);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 1,
		       (uintptr_t)&o.qp);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_CAP, 20, 1, 0);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_EVENT_FD, 0, 1, 33);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_FLAGS, 4, 1,
		       IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_RESP_CAP, 20, 1, 0);
	p = t_put_attr(p, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, 1, 0);
	p = t_put_attr(p, UVERBS_ATTR_UHW_IN, 8, 1, 0xd1d1);
	t_put_attr(p, UVERBS_ATTR_UHW_OUT, 8, 1, (uintptr_t)&o.resp.drv);
	/* The caps travel from the library's stack copy: not compared. */
	for (int i = 6; i <= 10; i += i == 6 ? 3 : 1)
		memcpy(want + 24 + i * 16 + 8,
		       tk.log[0].bytes + 24 + i * 16 + 8, 8);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(tk.ncalls, 1);
	assert_int_equal(o.qp.handle, 0x55);
	assert_int_equal(o.qp.qp_num, 0x123);
	t_check_created(&o, ctx);
}

/* The kernel's basic CREATE_QP response, caps doubled. */
static void t_qp_write_answer(void)
{
	struct ib_uverbs_create_qp_resp r = {
		.qp_handle = 0x66,
		.qpn = 0x321,
		.max_send_wr = 32,
		.max_recv_wr = 16,
		.max_send_sge = 4,
		.max_recv_sge = 2,
		.max_inline_data = 128,
	};

	memcpy(fk.resp, &r, sizeof(r));
	fk.resp_len = sizeof(r);
}

/* No ioctl at all: CREATE_QP by write(), then write() at once. */
static void test_create_qp_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	uint8_t want[72];

	t_qp_objs(ctx, &o);
	tk.no_ioctl = true;
	t_qp_write_answer();
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_CREATE_QP);
	t_put16(want + 4, 72 / 4);
	t_put16(want + 6, 40 / 4);
	t_put64(want + 8, (uintptr_t)&o.resp.core);
	t_put64(want + 16, (uintptr_t)&o.qp);
	t_put32(want + 24, 3);
	t_put32(want + 28, 4);
	t_put32(want + 32, 5);
	t_put32(want + 40, 16);
	t_put32(want + 44, 8);
	t_put32(want + 48, 2);
	t_put32(want + 52, 1);
	t_put32(want + 56, 64);
	want[60] = 1; /* sq_sig_all */
	want[61] = IBV_QPT_RC;
	t_put64(want + 64, 0xd1d1);
	/* The ioctl (ENOTTY), the tunnel probe's refusal learned, write(). */
	assert_true(tk.log[0].is_ioctl);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_int_equal(o.qp.handle, 0x66);
	assert_int_equal(o.qp.qp_num, 0x321);
	t_check_created(&o, ctx);

	tk.ncalls = 0;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	assert_int_equal(tk.ncalls, 1);
	assert_false(tk.log[0].is_ioctl);
}

/* Only QP/CREATE refused: the fallback goes through the tunnel. */
static void test_create_qp_method_refused(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	struct ib_uverbs_attr *cmd;
	struct ib_uverbs_ioctl_hdr *h;

	t_qp_objs(ctx, &o);
	tk.refuse_obj = UVERBS_OBJECT_QP;
	tk.refuse_method = UVERBS_METHOD_QP_CREATE;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	assert_int_equal(tk.ncalls, 2);
	h = (struct ib_uverbs_ioctl_hdr *)tk.log[1].bytes;
	assert_int_equal(h->object_id, UVERBS_OBJECT_DEVICE);
	assert_int_equal(h->method_id, UVERBS_METHOD_INVOKE_WRITE);
	cmd = t_attr(h, UVERBS_ATTR_WRITE_CMD);
	assert_non_null(cmd);
	assert_int_equal(cmd->data, IB_USER_VERBS_CMD_CREATE_QP);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CORE_IN)->len, 56);
}

/* Errors of the kernel and of the arguments, unchanged and unsent. */
static void test_create_qp_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	struct verbs_qp vqp;
	struct ibv_qp_init_attr_ex ax = { .comp_mask = IBV_QP_INIT_ATTR_PD };

	t_qp_objs(ctx, &o);
	tk.ioctl_err = ENOMEM;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(tk.ncalls, 1);
	o.attr.qp_type = 77;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 EINVAL);
	ax.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	assert_int_equal(ibv_cmd_create_qp_ex(ctx, &vqp, &ax, &o.cmd.core,
					      sizeof(o.cmd), &o.resp.core,
					      sizeof(o.resp)),
			 EINVAL);
	assert_int_equal(tk.ncalls, 1);
}

/* Create flags need EX CREATE_QP when the method is missing. */
static void test_create_qp_ex2_fallback_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	struct verbs_qp vqp;
	struct ibv_create_qp_ex cmd;
	struct ib_uverbs_ex_create_qp_resp resp;
	struct ibv_qp_init_attr_ex ax = {
		.send_cq = &o.scq,
		.recv_cq = &o.rcq,
		.qp_type = IBV_QPT_UD,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = &o.pd,
		.create_flags = IBV_QP_CREATE_SOURCE_QPN,
		.source_qpn = 0x99,
	};
	const uint8_t *req;

	t_qp_objs(ctx, &o);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_qp_ex2(ctx, &vqp, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 0);
	req = tk.log[tk.ncalls - 1].bytes;
	assert_int_equal(tk.log[tk.ncalls - 1].len, sizeof(cmd));
	assert_int_equal(t_get64(req) & 0xffffffff,
			 0x80000000u | IB_USER_VERBS_EX_CMD_CREATE_QP);
	assert_int_equal(t_get64(req + 8), (uintptr_t)&resp);
	assert_int_equal(req[24 + 45], IBV_QPT_UD);
	assert_int_equal(t_get64(req + 24 + 52) >> 32, 0); /* rwq handle */
	assert_int_equal(t_get64(req + 24 + 52) & 0xffffffff,
			 IBV_QP_CREATE_SOURCE_QPN);
	assert_int_equal(t_get64(req + 24 + 56) >> 32, 0x99);
	assert_int_equal(vqp.comp_mask, 0);
}

/* QP/DESTROY reports 2 events; the destroy returns once both are acked. */
static void t_destroy_answer(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *a = t_attr(h, UVERBS_ATTR_DESTROY_QP_RESP);
	uint32_t reported = 2;

	if (a)
		memcpy((void *)(uintptr_t)a->data, &reported, 4);
}

static void *t_acker(void *arg)
{
	struct ibv_qp *qp = arg;

	usleep(50 * 1000);
	pthread_mutex_lock(&qp->mutex);
	qp->events_completed = 2;
	pthread_cond_broadcast(&qp->cond);
	pthread_mutex_unlock(&qp->mutex);
	return NULL;
}

static void test_destroy_qp_waits(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 9 };
	uint8_t want[24 + 2 * 16], *p;
	pthread_t th;

	pthread_mutex_init(&qp.mutex, NULL);
	pthread_cond_init(&qp.cond, NULL);
	tk.on_ioctl = t_destroy_answer;
	alarm(10); /* a lost wake-up fails the test rather than hanging it */
	assert_int_equal(pthread_create(&th, NULL, t_acker, &qp), 0);
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	assert_int_equal(qp.events_completed, 2);
	pthread_join(th, NULL);
	alarm(0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY,
			    2);
	p = t_put_attr(p, UVERBS_ATTR_DESTROY_QP_RESP, 4, 1,
		       t_get64(tk.log[0].bytes + 24 + 8));
	t_put_attr(p, UVERBS_ATTR_DESTROY_QP_HANDLE, 0, 1, 9);
	t_expect(0, true, want, sizeof(want));
}

/* DESTROY_QP by write(); an error returns at once, without waiting. */
static void test_destroy_qp_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 9 };
	uint32_t reported = 0;
	uint8_t want[24];

	pthread_mutex_init(&qp.mutex, NULL);
	pthread_cond_init(&qp.cond, NULL);
	tk.no_ioctl = true;
	memcpy(fk.resp, &reported, 4);
	fk.resp_len = 4;
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_DESTROY_QP);
	t_put16(want + 4, 6);
	t_put16(want + 6, 1);
	t_put64(want + 8, t_get64(tk.log[tk.ncalls - 1].bytes + 8));
	t_put32(want + 16, 9);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	tk.write_err = EBUSY;
	fk.resp_len = 0;
	qp.events_completed = 5; /* would never match: must not wait */
	assert_int_equal(ibv_cmd_destroy_qp(&qp), EBUSY);
}

/* Two chained sends with three scatter entries, byte for byte. */
static void test_post_send_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx,
			     .handle = 7,
			     .qp_type = IBV_QPT_RC };
	struct ibv_sge sg1[2] = { { 0x1000, 64, 0x11 }, { 0x2000, 32, 0x12 } };
	struct ibv_sge sg2 = { 0x3000, 16, 0x13 };
	struct ibv_send_wr w2 = { .wr_id = 0x2222,
				  .sg_list = &sg2,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .imm_data = 5 };
	struct ibv_send_wr w1 = { .wr_id = 0x1111,
				  .next = &w2,
				  .sg_list = sg1,
				  .num_sge = 2,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { 0xaabb, 0x77 } };
	struct ibv_send_wr *bad = NULL;
	uint8_t want[192];

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), 0);
	assert_null(bad);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_POST_SEND);
	t_put16(want + 4, 192 / 4);
	t_put16(want + 6, 1);
	t_put64(want + 8, t_get64(tk.log[tk.ncalls - 1].bytes + 8));
	t_put32(want + 16, 7);
	t_put32(want + 20, 2);
	t_put32(want + 24, 3);
	t_put32(want + 28, 56);
	t_put64(want + 32, 0x1111);
	t_put32(want + 40, 2);
	t_put32(want + 44, IBV_WR_RDMA_WRITE);
	t_put32(want + 48, IBV_SEND_SIGNALED);
	t_put64(want + 56, 0xaabb);
	t_put32(want + 64, 0x77);
	t_put64(want + 88, 0x2222);
	t_put32(want + 96, 1);
	t_put32(want + 100, IBV_WR_SEND);
	t_put32(want + 108, 5);
	t_put64(want + 144, 0x1000);
	t_put32(want + 152, 64);
	t_put32(want + 156, 0x11);
	t_put64(want + 160, 0x2000);
	t_put32(want + 168, 32);
	t_put32(want + 172, 0x12);
	t_put64(want + 176, 0x3000);
	t_put32(want + 184, 16);
	t_put32(want + 188, 0x13);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	/* The kernel refuses the second: bad_wr is 1-based. */
	t_put32(fk.resp, 2);
	fk.resp_len = 4;
	tk.write_err = EINVAL;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), EINVAL);
	assert_ptr_equal(bad, &w2);
	fk.resp_len = 0;
	tk.write_err = ENOMEM;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), ENOMEM);
	assert_ptr_equal(bad, &w1);
}

/*
 * Counts a request cannot hold fail with EINVAL before anything is
 * copied or sent: scatter counts whose 32-bit sum wraps, a negative
 * count, a chain that loops back on itself.
 */
static void test_post_counts_cannot_wrap(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 7 };
	struct ibv_srq srq = { .context = ctx, .handle = 8 };
	struct ibv_sge sg = { 0x1000, 8, 0x11 };
	struct ibv_send_wr s[3], *bad_s = NULL;
	struct ibv_recv_wr r[3], *bad_r = NULL;

	tk.no_ioctl = true;
	for (int i = 0; i < 3; i++) {
		/* 3 * 0x55555556 is 2 in 32 bits. */
		s[i] = (struct ibv_send_wr){ .next = i < 2 ? &s[i + 1] : NULL,
					     .sg_list = &sg,
					     .num_sge = 0x55555556 };
		r[i] = (struct ibv_recv_wr){ .next = i < 2 ? &r[i + 1] : NULL,
					     .sg_list = &sg,
					     .num_sge = 0x55555556 };
	}
	assert_int_equal(ibv_cmd_post_send(&qp, s, &bad_s), EINVAL);
	assert_ptr_equal(bad_s, s);
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad_r), EINVAL);
	assert_ptr_equal(bad_r, r);
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, r, &bad_r), EINVAL);

	s[0] = (struct ibv_send_wr){ .sg_list = &sg, .num_sge = -1 };
	assert_int_equal(ibv_cmd_post_send(&qp, s, &bad_s), EINVAL);
	r[0] = (struct ibv_recv_wr){ .sg_list = &sg, .num_sge = -1 };
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad_r), EINVAL);

	r[0] = (struct ibv_recv_wr){ .next = &r[1],
				     .sg_list = &sg,
				     .num_sge = 1 };
	r[1] = (struct ibv_recv_wr){ .next = &r[0],
				     .sg_list = &sg,
				     .num_sge = 1 };
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, r, &bad_r), EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* Receives: wqe_size 16, the UD AH handle path is not taken. */
static void test_post_recv_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 8 };
	struct ibv_sge sg = { 0x4000, 8, 0x21 };
	struct ibv_recv_wr wr = { .wr_id = 0x33, .sg_list = &sg, .num_sge = 1 };
	struct ibv_recv_wr *bad = NULL;
	uint8_t want[64];

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, &wr, &bad), 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_POST_SRQ_RECV);
	t_put16(want + 4, 16);
	t_put16(want + 6, 1);
	t_put64(want + 8, t_get64(tk.log[tk.ncalls - 1].bytes + 8));
	t_put32(want + 16, 8);
	t_put32(want + 20, 1);
	t_put32(want + 24, 1);
	t_put32(want + 28, 16);
	t_put64(want + 32, 0x33);
	t_put32(want + 40, 1);
	t_put64(want + 48, 0x4000);
	t_put32(want + 56, 8);
	t_put32(want + 60, 0x21);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
}

/* The mask picks the fields; the rest of the request stays zero. */
static void test_modify_qp_mask(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 7 };
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = 0x456,
		.rq_psn = 0x789,
		.qkey = 0xdead, /* not in the mask */
		.ah_attr = { .dlid = 0x12,
			     .sl = 3,
			     .port_num = 1,
			     .is_global = 1,
			     .grh = { .dgid.raw = { 0xfe, 0x80 },
				      .flow_label = 0xabc,
				      .sgid_index = 2,
				      .hop_limit = 64 } },
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	struct ibv_modify_qp cmd;
	uint8_t want[120];

	memset(&cmd, 0xff, sizeof(cmd));
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, mask, &cmd, sizeof(cmd)),
			 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_MODIFY_QP);
	t_put16(want + 4, 120 / 4);
	want[8] = 0xfe; /* dest.dgid */
	want[9] = 0x80;
	t_put32(want + 24, 0xabc);
	t_put16(want + 28, 0x12);
	want[32] = 2; /* sgid_index */
	want[33] = 64;
	want[35] = 3; /* sl */
	want[38] = 1; /* is_global */
	want[39] = 1; /* port_num */
	t_put32(want + 72, 7);
	t_put32(want + 76, mask);
	t_put32(want + 84, 0x789);
	t_put32(want + 92, 0x456);
	want[104] = IBV_QPS_RTR;
	want[106] = IBV_MTU_1024;
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	tk.ncalls = 0;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, IBV_QP_RATE_LIMIT, &cmd,
					   sizeof(cmd)),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

/* QUERY_QP's answer into both attrs; init attr partly from the QP. */
static void test_query_qp(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	struct ibv_qp qp = { .context = ctx,
			     .handle = 7,
			     .send_cq = &cq,
			     .qp_type = IBV_QPT_UC };
	struct ib_uverbs_query_qp_resp r = {
		.qkey = 0x1234,
		.max_send_wr = 10,
		.qp_state = IBV_QPS_RTS,
		.sq_sig_all = 1,
		.dest = { .dlid = 0x99, .port_num = 2 },
		.alt_timeout = 14,
	};
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_query_qp cmd;

	memcpy(fk.resp, &r, sizeof(r));
	fk.resp_len = sizeof(r);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_qp(&qp, &a, IBV_QP_STATE, &ia, &cmd,
					  sizeof(cmd)),
			 0);
	assert_int_equal(a.qkey, 0x1234);
	assert_int_equal(a.qp_state, IBV_QPS_RTS);
	assert_int_equal(a.ah_attr.dlid, 0x99);
	assert_int_equal(a.ah_attr.port_num, 2);
	assert_int_equal(a.alt_timeout, 14);
	assert_int_equal(ia.cap.max_send_wr, 10);
	assert_int_equal(ia.sq_sig_all, 1);
	assert_ptr_equal(ia.send_cq, &cq);
	assert_int_equal(ia.qp_type, IBV_QPT_UC);
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes + 16) & 0xffffffff,
			 7);
	tk.write_err = EACCES;
	assert_int_equal(ibv_cmd_query_qp(&qp, &a, 0, &ia, &cmd, sizeof(cmd)),
			 EACCES);
}

/* Multicast: the GID, QP handle and LID in one request each way. */
static void test_mcast(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 7 };
	union ibv_gid gid = { .raw = { 0xff, 0x12 } };
	uint8_t want[32];

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_attach_mcast(&qp, &gid, 0xc001), 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_ATTACH_MCAST);
	t_put16(want + 4, 8);
	want[8] = 0xff;
	want[9] = 0x12;
	t_put32(want + 24, 7);
	t_put16(want + 28, 0xc001);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_DETACH_MCAST);
	assert_int_equal(ibv_cmd_detach_mcast(&qp, &gid, 0xc001), 0);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
}

/* SRQ/CREATE on the ioctl path; then CREATE_SRQ by write(). */
static void t_srq_answer(struct ib_uverbs_ioctl_hdr *h)
{
	uint32_t v = 100;

	t_attr(h, UVERBS_ATTR_CREATE_SRQ_HANDLE)->data = 0x44;
	memcpy((void *)(uintptr_t)t_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR)
		       ->data,
	       &v, 4);
	v = 3;
	memcpy((void *)(uintptr_t)t_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE)
		       ->data,
	       &v, 4);
}

static void test_create_srq(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 3 };
	struct ibv_srq srq;
	struct ibv_srq_init_attr attr = { .attr = { 64, 2, 10 } };
	struct ibv_create_srq cmd;
	struct ib_uverbs_create_srq_resp resp = { 0 };
	struct ib_uverbs_ioctl_hdr *h;

	tk.on_ioctl = t_srq_answer;
	/* The PD is the public verb's to set, as in rdma-core 44. */
	srq.pd = NULL;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	h = (struct ib_uverbs_ioctl_hdr *)tk.log[0].bytes;
	assert_int_equal(h->object_id, UVERBS_OBJECT_SRQ);
	assert_int_equal(h->num_attrs, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_WR)->data, 64);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_LIMIT)->data, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE)->data, 3);
	assert_int_equal(srq.handle, 0x44);
	assert_ptr_equal(srq.context, ctx);
	assert_null(srq.pd);
	assert_int_equal(attr.attr.max_wr, 100);
	assert_int_equal(attr.attr.max_sge, 3);

	tk.ncalls = 0;
	tk.refuse_obj = UVERBS_OBJECT_SRQ;
	tk.refuse_method = UVERBS_METHOD_SRQ_CREATE;
	resp.srq_handle = 0x45;
	resp.max_wr = 128;
	memcpy(fk.resp, &resp, sizeof(resp));
	fk.resp_len = sizeof(resp);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	assert_false(tk.log[tk.ncalls - 1].is_ioctl);
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes) & 0xffffffff,
			 IB_USER_VERBS_CMD_CREATE_SRQ);
	assert_int_equal(srq.handle, 0x45);
	assert_int_equal(attr.attr.max_wr, 128);
}

/* create_srq_ex: unknown mask bits and a missing PD, unsent. */
static void test_create_srq_ex_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_srq vsrq;
	struct ibv_srq_init_attr_ex ax = { .comp_mask =
						   IBV_SRQ_INIT_ATTR_RESERVED };
	struct ibv_create_xsrq cmd;
	struct ib_uverbs_create_srq_resp resp;

	assert_int_equal(ibv_cmd_create_srq_ex(ctx, &vsrq, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 EOPNOTSUPP);
	ax.comp_mask = IBV_SRQ_INIT_ATTR_TYPE;
	assert_int_equal(ibv_cmd_create_srq_ex(ctx, &vsrq, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* Modify, query and destroy of an SRQ. */
static void test_srq_modify_query_destroy(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 6 };
	struct ibv_srq_attr a = { .max_wr = 50, .srq_limit = 5 };
	struct ibv_modify_srq mcmd;
	struct ibv_query_srq qcmd;
	struct ib_uverbs_query_srq_resp qr = { 70, 4, 9, 0 };
	uint8_t want[24];

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_LIMIT, &mcmd,
					    sizeof(mcmd)),
			 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_MODIFY_SRQ);
	t_put16(want + 4, 6);
	t_put32(want + 8, 6);
	t_put32(want + 12, IBV_SRQ_LIMIT);
	t_put32(want + 16, 50);
	t_put32(want + 20, 5);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	memcpy(fk.resp, &qr, sizeof(qr));
	fk.resp_len = sizeof(qr);
	assert_int_equal(ibv_cmd_query_srq(&srq, &a, &qcmd, sizeof(qcmd)), 0);
	assert_int_equal(a.max_wr, 70);
	assert_int_equal(a.max_sge, 4);
	assert_int_equal(a.srq_limit, 9);

	pthread_mutex_init(&srq.mutex, NULL);
	pthread_cond_init(&srq.cond, NULL);
	memset(fk.resp, 0, 4);
	fk.resp_len = 4;
	assert_int_equal(ibv_cmd_destroy_srq(&srq), 0);
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes) & 0xffffffff,
			 IB_USER_VERBS_CMD_DESTROY_SRQ);
}

/*
 * ABI 3 kernels: the request rebuilt in the old layout, the provider's
 * data behind it; a cmd_size no basic header can count is EINVAL before
 * anything is built (the old request's size would wrap).
 */
static void test_modify_srq_v3(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 6 };
	struct ibv_srq_attr a = { .max_wr = 50, .srq_limit = 5 };
	struct {
		struct ibv_modify_srq core;
		uint64_t drv;
	} mcmd = { .drv = 0xd1d1 };
	uint8_t want[40];

	tk.no_ioctl = true;
	abi_ver = 3;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, sizeof(mcmd)),
			 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_MODIFY_SRQ_V3);
	t_put16(want + 4, sizeof(want) / 4);
	t_put32(want + 8, 6);
	t_put32(want + 12, IBV_SRQ_MAX_WR);
	t_put32(want + 16, 50);
	t_put32(want + 24, 5);
	t_put64(want + 32, 0xd1d1);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	tk.ncalls = 0;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, SIZE_MAX - 8),
			 EINVAL);
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, (size_t)UINT16_MAX * 4),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* CREATE_AH: the address vector in the kernel's layout. */
static void test_create_destroy_ah(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 3 };
	struct ibv_ah ah = { 0 };
	struct ibv_ah_attr attr = { .dlid = 0x22,
				    .sl = 1,
				    .port_num = 1,
				    .static_rate = 3,
				    .grh = { .hop_limit = 9 } };
	struct {
		struct ib_uverbs_create_ah_resp core;
		uint32_t drv;
	} resp;
	uint32_t handle = 0x71;
	uint8_t want[24 + 8];
	const uint8_t *req;

	memcpy(fk.resp, &handle, 4);
	fk.resp_len = 4;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_ah(&pd, &ah, &attr, &resp.core,
					   sizeof(resp)),
			 0);
	req = tk.log[tk.ncalls - 1].bytes;
	assert_int_equal(tk.log[tk.ncalls - 1].len, 64);
	assert_int_equal(t_get64(req + 8), (uintptr_t)&resp);
	assert_int_equal(t_get64(req + 16), (uintptr_t)&ah);
	assert_int_equal(req[24], 3);
	assert_int_equal(req[32 + 21], 9); /* grh.hop_limit */
	assert_int_equal(req[32 + 24], 0x22); /* dlid */
	assert_int_equal(req[32 + 28], 3); /* static_rate */
	assert_int_equal(ah.handle, 0x71);
	assert_ptr_equal(ah.context, ctx);

	tk.ncalls = 0;
	fk.resp_len = 0;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_DESTROY_AH);
	t_put16(want + 4, 3);
	t_put32(want + 8, 0x71);
	t_expect(tk.ncalls - 1, false, want, 12);
}

/* AH/DESTROY on the ioctl path; EIO of a dead device passes through. */
static void test_destroy_ah_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_ah ah = { .context = ctx, .handle = 0x71 };
	uint8_t want[24 + 16];

	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	t_put_attr(t_put_ioctl_hdr(want, UVERBS_OBJECT_AH,
				   UVERBS_METHOD_AH_DESTROY, 1),
		   UVERBS_ATTR_DESTROY_AH_HANDLE, 0, 1, 0x71);
	t_expect(0, true, want, sizeof(want));
	tk.ioctl_err = EIO;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), EIO);
}

/* Fake provider ops for the public verbs. */
static struct {
	struct ibv_qp *qp;
	struct ibv_srq srq;
	struct ibv_ah ah;
	int ret;
	unsigned int calls;
} fp;

static int fp_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	(void)qp;
	(void)a;
	(void)mask;
	fp.calls++;
	return fp.ret;
}

static int fp_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		       struct ibv_qp_init_attr *ia)
{
	(void)qp;
	(void)mask;
	(void)ia;
	fp.calls++;
	a->qp_state = IBV_QPS_SQD;
	return fp.ret;
}

static int fp_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	fp.calls++;
	return 0;
}

static struct ibv_srq *fp_create_srq(struct ibv_pd *pd,
				     struct ibv_srq_init_attr *a)
{
	(void)pd;
	(void)a;
	fp.calls++;
	memset(&fp.srq, 0xee, sizeof(fp.srq));
	return &fp.srq;
}

static struct ibv_ah *fp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	(void)pd;
	(void)a;
	fp.calls++;
	return &fp.ah;
}

static int fp_destroy_ah(struct ibv_ah *ah)
{
	(void)ah;
	fp.calls++;
	return fp.ret;
}

static const struct verbs_context_ops t_ops = {
	.modify_qp = fp_modify_qp,
	.query_qp = fp_query_qp,
	.set_ece = fp_set_ece,
	.create_srq = fp_create_srq,
	.create_ah = fp_create_ah,
	.destroy_ah = fp_destroy_ah,
};

/* ibv_modify_qp/ibv_query_qp keep qp->state, only on success. */
static void test_verbs_qp_state(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .state = IBV_QPS_INIT };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	struct ibv_qp_init_attr ia;

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_PORT), 0);
	assert_int_equal(qp.state, IBV_QPS_INIT);
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_STATE), 0);
	assert_int_equal(qp.state, IBV_QPS_RTR);
	fp.ret = EINVAL;
	a.qp_state = IBV_QPS_RTS;
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_STATE), EINVAL);
	assert_int_equal(qp.state, IBV_QPS_RTR);
	fp.ret = 0;
	assert_int_equal(ibv_query_qp(&qp, &a, IBV_QP_STATE, &ia), 0);
	assert_int_equal(qp.state, IBV_QPS_SQD);
	assert_int_equal(fp.calls, 4);
}

/* Verbs without a provider op answer EOPNOTSUPP (the dummy ops). */
static void test_verbs_unsupported(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx };
	struct ibv_ece ece = { .vendor_id = 0x15b3 };
	union ibv_gid gid = { 0 };

	assert_int_equal(ibv_destroy_qp(&qp), EOPNOTSUPP);
	assert_int_equal(ibv_query_ece(&qp, &ece), EOPNOTSUPP);
	assert_int_equal(ibv_attach_mcast(&qp, &gid, 1), EOPNOTSUPP);
	/* Capability bits, not an error: none promised (rdma-core 44). */
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 0), 0);
}

/* ibv_set_ece: no vendor, no call; ibv_qp_to_qp_ex by comp_mask. */
static void test_verbs_ece_qp_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_qp vqp = { .qp = { .context = ctx } };
	struct ibv_ece ece = { 0 };

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	errno = 0;
	assert_int_equal(ibv_set_ece(&vqp.qp, &ece), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(fp.calls, 0);
	ece.vendor_id = 0x15b3;
	assert_int_equal(ibv_set_ece(&vqp.qp, &ece), 0);
	assert_int_equal(fp.calls, 1);
	assert_null(ibv_qp_to_qp_ex(&vqp.qp));
	vqp.comp_mask = VERBS_QP_EX;
	assert_ptr_equal(ibv_qp_to_qp_ex(&vqp.qp), &vqp.qp_ex);
}

/* ibv_create_srq and ibv_create_ah set the core's fields. */
static void test_verbs_srq_ah_fields(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct ibv_srq_init_attr sa = { .srq_context = &pd };
	struct ibv_ah_attr aa = { 0 };
	struct ibv_srq *srq;
	struct ibv_ah *ah;

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	srq = ibv_create_srq(&pd, &sa);
	assert_ptr_equal(srq, &fp.srq);
	assert_ptr_equal(srq->context, ctx);
	assert_ptr_equal(srq->srq_context, &pd);
	assert_ptr_equal(srq->pd, &pd);
	assert_int_equal(srq->events_completed, 0);
	assert_int_equal(pthread_mutex_trylock(&srq->mutex), 0);
	pthread_mutex_unlock(&srq->mutex);
	ah = ibv_create_ah(&pd, &aa);
	assert_ptr_equal(ah, &fp.ah);
	assert_ptr_equal(ah->context, ctx);
	assert_ptr_equal(ah->pd, &pd);
	fp.ret = EBUSY;
	assert_int_equal(ibv_destroy_ah(ah), EBUSY);
	assert_int_equal(fp.calls, 3);
}

#define T_CASE(fn) cmocka_unit_test_setup_teardown(fn, t_setup, t_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_qp_ioctl),
		T_CASE(test_create_qp_fallback),
		T_CASE(test_create_qp_method_refused),
		T_CASE(test_create_qp_errors),
		T_CASE(test_create_qp_ex2_fallback_ex),
		T_CASE(test_destroy_qp_waits),
		T_CASE(test_destroy_qp_fallback),
		T_CASE(test_post_send_bytes),
		T_CASE(test_post_recv_bytes),
		T_CASE(test_post_counts_cannot_wrap),
		T_CASE(test_modify_qp_mask),
		T_CASE(test_query_qp),
		T_CASE(test_mcast),
		T_CASE(test_create_srq),
		T_CASE(test_create_srq_ex_errors),
		T_CASE(test_srq_modify_query_destroy),
		T_CASE(test_modify_srq_v3),
		T_CASE(test_create_destroy_ah),
		T_CASE(test_destroy_ah_ioctl),
		T_CASE(test_verbs_qp_state),
		T_CASE(test_verbs_unsupported),
		T_CASE(test_verbs_ece_qp_ex),
		T_CASE(test_verbs_srq_ah_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
