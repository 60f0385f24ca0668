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

#include "libibverbs/test_hooks.h"

/*
 * Providers put their driver data behind struct ibv_<cmd>, whose flexible
 * driver_data[] then sits mid-struct; the tests build requests that way.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

#define T_DRIVER_ID 42
#define T_MAX_CALLS 8
#define T_MAX_BYTES 512

/* One system call as the fake kernel saw it. */
struct t_call {
	bool is_ioctl;
	size_t len;
	uint8_t bytes[T_MAX_BYTES];
};

typedef void (*t_ioctl_fn)(struct ib_uverbs_ioctl_hdr *h);

/*
 * The fake kernel: which ioctls it refuses, what it answers, and a log
 * of what it was sent. A write() with a response pointer (the u64 after
 * the header) gets @resp copied there, even when it then fails: the
 * kernel reports a refused work request that way.
 */
static struct {
	bool no_ioctl;
	uint16_t refuse_obj, refuse_method;
	int ioctl_err, write_err;
	t_ioctl_fn on_ioctl;
	uint8_t resp[256];
	size_t resp_len;
	unsigned int ncalls;
	struct t_call log[T_MAX_CALLS];
} fk;

static struct verbs_device t_vdev = { .refcount = 1 };

/*
 * The kernel's uverbs ABI version, set by device discovery (netlink means
 * 6). Hidden in the library, reachable from this statically linked test.
 */
extern int abi_ver;

static void t_record(bool is_ioctl, const void *buf, size_t len)
{
	struct t_call *c;

	if (fk.ncalls >= T_MAX_CALLS)
		return;
	c = &fk.log[fk.ncalls++];
	c->is_ioctl = is_ioctl;
	c->len = len;
	memcpy(c->bytes, buf, len < T_MAX_BYTES ? len : T_MAX_BYTES);
}

static int t_ioctl(int fd, unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;

	(void)fd;
	(void)request;
	t_record(true, arg, h->length);
	if (fk.no_ioctl)
		errno = ENOTTY;
	else if (h->object_id == fk.refuse_obj &&
		 h->method_id == fk.refuse_method)
		errno = EPROTONOSUPPORT;
	else if (fk.ioctl_err)
		errno = fk.ioctl_err;
	else {
		if (fk.on_ioctl)
			fk.on_ioctl(h);
		return 0;
	}
	return -1;
}

static ssize_t t_write(int fd, const void *buf, size_t len)
{
	uint64_t resp;

	(void)fd;
	t_record(false, buf, len);
	if (fk.resp_len && len >= 16) {
		memcpy(&resp, (const uint8_t *)buf + 8, 8);
		memcpy((void *)(uintptr_t)resp, fk.resp, fk.resp_len);
	}
	if (fk.write_err) {
		errno = fk.write_err;
		return -1;
	}
	return len;
}

static int t_setup(void **state)
{
	struct verbs_context *vctx;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	memset(&fk, 0, sizeof(fk));
	abi_ver = 6;
	fk.refuse_obj = 0xffff;
	kcmd_set_transport(t_ioctl, t_write);
	vctx = _verbs_init_and_alloc_context(&t_vdev.device, fd, sizeof(*vctx),
					     NULL, T_DRIVER_ID);
	assert_non_null(vctx);
	vctx->context.async_fd = 33;
	fk.ncalls = 0; /* the tunnel probe is not under test here */
	*state = &vctx->context;
	return 0;
}

static int t_teardown(void **state)
{
	struct verbs_context *vctx = verbs_get_ctx(*state);

	close(vctx->context.cmd_fd);
	verbs_uninit_context(vctx);
	free(vctx);
	kcmd_set_transport(NULL, NULL);
	return 0;
}

/* Little-endian fields of an expected byte image. */
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint8_t *put_attr(uint8_t *p, uint16_t id, uint16_t len, uint16_t flags,
			 uint64_t data)
{
	memset(p, 0, 16);
	put16(p, id);
	put16(p + 2, len);
	put16(p + 4, flags);
	put64(p + 8, data);
	return p + 16;
}

static uint8_t *put_ioctl_hdr(uint8_t *p, uint16_t obj, uint16_t method,
			      uint16_t n)
{
	memset(p, 0, 24);
	put16(p, 24 + 16 * n);
	put16(p + 2, obj);
	put16(p + 4, method);
	put16(p + 6, n);
	put32(p + 16, T_DRIVER_ID);
	return p + 24;
}

static struct ib_uverbs_attr *t_attr(struct ib_uverbs_ioctl_hdr *h, uint16_t id)
{
	for (unsigned int i = 0; i < h->num_attrs; i++)
		if (h->attrs[i].attr_id == id)
			return &h->attrs[i];
	return NULL;
}

static void t_expect(unsigned int i, bool is_ioctl, const uint8_t *want,
		     size_t len)
{
	assert_true(i < fk.ncalls);
	assert_int_equal(fk.log[i].is_ioctl, is_ioctl);
	assert_int_equal(fk.log[i].len, len);
	assert_memory_equal(fk.log[i].bytes, want, len);
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
	fk.on_ioctl = t_qp_create_answer;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	p = put_ioctl_hdr(want, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 13);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, 1, 3);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, 1, 4);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, 1, 5);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_HANDLE, 0, 1, 0);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_TYPE, 8, 1, IBV_QPT_RC);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 1,
		     (uintptr_t)&o.qp);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_CAP, 20, 1, 0);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_EVENT_FD, 0, 1, 33);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_FLAGS, 4, 1,
		     IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_RESP_CAP, 20, 1, 0);
	p = put_attr(p, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4, 1, 0);
	p = put_attr(p, UVERBS_ATTR_UHW_IN, 8, 1, 0xd1d1);
	put_attr(p, UVERBS_ATTR_UHW_OUT, 8, 1, (uintptr_t)&o.resp.drv);
	/* The caps travel from the library's stack copy: not compared. */
	for (int i = 6; i <= 10; i += i == 6 ? 3 : 1)
		memcpy(want + 24 + i * 16 + 8,
		       fk.log[0].bytes + 24 + i * 16 + 8, 8);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(fk.ncalls, 1);
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
	fk.no_ioctl = true;
	t_qp_write_answer();
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_CREATE_QP);
	put16(want + 4, 72 / 4);
	put16(want + 6, 40 / 4);
	put64(want + 8, (uintptr_t)&o.resp.core);
	put64(want + 16, (uintptr_t)&o.qp);
	put32(want + 24, 3);
	put32(want + 28, 4);
	put32(want + 32, 5);
	put32(want + 40, 16);
	put32(want + 44, 8);
	put32(want + 48, 2);
	put32(want + 52, 1);
	put32(want + 56, 64);
	want[60] = 1; /* sq_sig_all */
	want[61] = IBV_QPT_RC;
	put64(want + 64, 0xd1d1);
	/* The ioctl (ENOTTY), the tunnel probe's refusal learned, write(). */
	assert_true(fk.log[0].is_ioctl);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));
	assert_int_equal(o.qp.handle, 0x66);
	assert_int_equal(o.qp.qp_num, 0x321);
	t_check_created(&o, ctx);

	fk.ncalls = 0;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	assert_int_equal(fk.ncalls, 1);
	assert_false(fk.log[0].is_ioctl);
}

/* Only QP/CREATE refused: the fallback goes through the tunnel. */
static void test_create_qp_method_refused(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	struct ib_uverbs_attr *cmd;
	struct ib_uverbs_ioctl_hdr *h;

	t_qp_objs(ctx, &o);
	fk.refuse_obj = UVERBS_OBJECT_QP;
	fk.refuse_method = UVERBS_METHOD_QP_CREATE;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 0);
	assert_int_equal(fk.ncalls, 2);
	h = (struct ib_uverbs_ioctl_hdr *)fk.log[1].bytes;
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
	fk.ioctl_err = ENOMEM;
	assert_int_equal(ibv_cmd_create_qp(&o.pd, &o.qp, &o.attr, &o.cmd.core,
					   sizeof(o.cmd), &o.resp.core,
					   sizeof(o.resp)),
			 ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(fk.ncalls, 1);
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
	assert_int_equal(fk.ncalls, 1);
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
	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_qp_ex2(ctx, &vqp, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 0);
	req = fk.log[fk.ncalls - 1].bytes;
	assert_int_equal(fk.log[fk.ncalls - 1].len, sizeof(cmd));
	assert_int_equal(get64(req) & 0xffffffff,
			 0x80000000u | IB_USER_VERBS_EX_CMD_CREATE_QP);
	assert_int_equal(get64(req + 8), (uintptr_t)&resp);
	assert_int_equal(req[24 + 45], IBV_QPT_UD);
	assert_int_equal(get64(req + 24 + 52) >> 32, 0); /* rwq handle */
	assert_int_equal(get64(req + 24 + 52) & 0xffffffff,
			 IBV_QP_CREATE_SOURCE_QPN);
	assert_int_equal(get64(req + 24 + 56) >> 32, 0x99);
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
	fk.on_ioctl = t_destroy_answer;
	alarm(10); /* a lost wake-up fails the test rather than hanging it */
	assert_int_equal(pthread_create(&th, NULL, t_acker, &qp), 0);
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	assert_int_equal(qp.events_completed, 2);
	pthread_join(th, NULL);
	alarm(0);
	p = put_ioctl_hdr(want, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY, 2);
	p = put_attr(p, UVERBS_ATTR_DESTROY_QP_RESP, 4, 1,
		     get64(fk.log[0].bytes + 24 + 8));
	put_attr(p, UVERBS_ATTR_DESTROY_QP_HANDLE, 0, 1, 9);
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
	fk.no_ioctl = true;
	memcpy(fk.resp, &reported, 4);
	fk.resp_len = 4;
	assert_int_equal(ibv_cmd_destroy_qp(&qp), 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_DESTROY_QP);
	put16(want + 4, 6);
	put16(want + 6, 1);
	put64(want + 8, get64(fk.log[fk.ncalls - 1].bytes + 8));
	put32(want + 16, 9);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));

	fk.write_err = EBUSY;
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

	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), 0);
	assert_null(bad);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_POST_SEND);
	put16(want + 4, 192 / 4);
	put16(want + 6, 1);
	put64(want + 8, get64(fk.log[fk.ncalls - 1].bytes + 8));
	put32(want + 16, 7);
	put32(want + 20, 2);
	put32(want + 24, 3);
	put32(want + 28, 56);
	put64(want + 32, 0x1111);
	put32(want + 40, 2);
	put32(want + 44, IBV_WR_RDMA_WRITE);
	put32(want + 48, IBV_SEND_SIGNALED);
	put64(want + 56, 0xaabb);
	put32(want + 64, 0x77);
	put64(want + 88, 0x2222);
	put32(want + 96, 1);
	put32(want + 100, IBV_WR_SEND);
	put32(want + 108, 5);
	put64(want + 144, 0x1000);
	put32(want + 152, 64);
	put32(want + 156, 0x11);
	put64(want + 160, 0x2000);
	put32(want + 168, 32);
	put32(want + 172, 0x12);
	put64(want + 176, 0x3000);
	put32(want + 184, 16);
	put32(want + 188, 0x13);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));

	/* The kernel refuses the second: bad_wr is 1-based. */
	put32(fk.resp, 2);
	fk.resp_len = 4;
	fk.write_err = EINVAL;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), EINVAL);
	assert_ptr_equal(bad, &w2);
	fk.resp_len = 0;
	fk.write_err = ENOMEM;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), ENOMEM);
	assert_ptr_equal(bad, &w1);
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

	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, &wr, &bad), 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_POST_SRQ_RECV);
	put16(want + 4, 16);
	put16(want + 6, 1);
	put64(want + 8, get64(fk.log[fk.ncalls - 1].bytes + 8));
	put32(want + 16, 8);
	put32(want + 20, 1);
	put32(want + 24, 1);
	put32(want + 28, 16);
	put64(want + 32, 0x33);
	put32(want + 40, 1);
	put64(want + 48, 0x4000);
	put32(want + 56, 8);
	put32(want + 60, 0x21);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));
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
	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, mask, &cmd, sizeof(cmd)),
			 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_MODIFY_QP);
	put16(want + 4, 120 / 4);
	want[8] = 0xfe; /* dest.dgid */
	want[9] = 0x80;
	put32(want + 24, 0xabc);
	put16(want + 28, 0x12);
	want[32] = 2; /* sgid_index */
	want[33] = 64;
	want[35] = 3; /* sl */
	want[38] = 1; /* is_global */
	want[39] = 1; /* port_num */
	put32(want + 72, 7);
	put32(want + 76, mask);
	put32(want + 84, 0x789);
	put32(want + 92, 0x456);
	want[104] = IBV_QPS_RTR;
	want[106] = IBV_MTU_1024;
	t_expect(fk.ncalls - 1, false, want, sizeof(want));

	fk.ncalls = 0;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, IBV_QP_RATE_LIMIT, &cmd,
					   sizeof(cmd)),
			 EOPNOTSUPP);
	assert_int_equal(fk.ncalls, 0);
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
	fk.no_ioctl = true;
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
	assert_int_equal(get64(fk.log[fk.ncalls - 1].bytes + 16) & 0xffffffff,
			 7);
	fk.write_err = EACCES;
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

	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_attach_mcast(&qp, &gid, 0xc001), 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_ATTACH_MCAST);
	put16(want + 4, 8);
	want[8] = 0xff;
	want[9] = 0x12;
	put32(want + 24, 7);
	put16(want + 28, 0xc001);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_DETACH_MCAST);
	assert_int_equal(ibv_cmd_detach_mcast(&qp, &gid, 0xc001), 0);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));
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

	fk.on_ioctl = t_srq_answer;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	h = (struct ib_uverbs_ioctl_hdr *)fk.log[0].bytes;
	assert_int_equal(h->object_id, UVERBS_OBJECT_SRQ);
	assert_int_equal(h->num_attrs, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_WR)->data, 64);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_LIMIT)->data, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE)->data, 3);
	assert_int_equal(srq.handle, 0x44);
	assert_ptr_equal(srq.context, ctx);
	assert_ptr_equal(srq.pd, &pd);
	assert_int_equal(attr.attr.max_wr, 100);
	assert_int_equal(attr.attr.max_sge, 3);

	fk.ncalls = 0;
	fk.refuse_obj = UVERBS_OBJECT_SRQ;
	fk.refuse_method = UVERBS_METHOD_SRQ_CREATE;
	resp.srq_handle = 0x45;
	resp.max_wr = 128;
	memcpy(fk.resp, &resp, sizeof(resp));
	fk.resp_len = sizeof(resp);
	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	assert_false(fk.log[fk.ncalls - 1].is_ioctl);
	assert_int_equal(get64(fk.log[fk.ncalls - 1].bytes) & 0xffffffff,
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
	assert_int_equal(fk.ncalls, 0);
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

	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_LIMIT, &mcmd,
					    sizeof(mcmd)),
			 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_MODIFY_SRQ);
	put16(want + 4, 6);
	put32(want + 8, 6);
	put32(want + 12, IBV_SRQ_LIMIT);
	put32(want + 16, 50);
	put32(want + 20, 5);
	t_expect(fk.ncalls - 1, false, want, sizeof(want));

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
	assert_int_equal(get64(fk.log[fk.ncalls - 1].bytes) & 0xffffffff,
			 IB_USER_VERBS_CMD_DESTROY_SRQ);
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
	fk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_ah(&pd, &ah, &attr, &resp.core,
					   sizeof(resp)),
			 0);
	req = fk.log[fk.ncalls - 1].bytes;
	assert_int_equal(fk.log[fk.ncalls - 1].len, 64);
	assert_int_equal(get64(req + 8), (uintptr_t)&resp);
	assert_int_equal(get64(req + 16), (uintptr_t)&ah);
	assert_int_equal(req[24], 3);
	assert_int_equal(req[32 + 21], 9); /* grh.hop_limit */
	assert_int_equal(req[32 + 24], 0x22); /* dlid */
	assert_int_equal(req[32 + 28], 3); /* static_rate */
	assert_int_equal(ah.handle, 0x71);
	assert_ptr_equal(ah.context, ctx);

	fk.ncalls = 0;
	fk.resp_len = 0;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	memset(want, 0, sizeof(want));
	put32(want, IB_USER_VERBS_CMD_DESTROY_AH);
	put16(want + 4, 3);
	put32(want + 8, 0x71);
	t_expect(fk.ncalls - 1, false, want, 12);
}

/* AH/DESTROY on the ioctl path; EIO of a dead device passes through. */
static void test_destroy_ah_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_ah ah = { .context = ctx, .handle = 0x71 };
	uint8_t want[24 + 16];

	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	put_attr(put_ioctl_hdr(want, UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY,
			       1),
		 UVERBS_ATTR_DESTROY_AH_HANDLE, 0, 1, 0x71);
	t_expect(0, true, want, sizeof(want));
	fk.ioctl_err = EIO;
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
		T_CASE(test_modify_qp_mask),
		T_CASE(test_query_qp),
		T_CASE(test_mcast),
		T_CASE(test_create_srq),
		T_CASE(test_create_srq_ex_errors),
		T_CASE(test_srq_modify_query_destroy),
		T_CASE(test_create_destroy_ah),
		T_CASE(test_destroy_ah_ioctl),
		T_CASE(test_verbs_qp_state),
		T_CASE(test_verbs_unsupported),
		T_CASE(test_verbs_ece_qp_ex),
		T_CASE(test_verbs_srq_ah_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
