// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP commands of cmd_qp.c against a fake kernel behind the
 * transport seam (t_qp.h): the bytes create, destroy and the multicast
 * commands send, the write() fallback and that it is remembered, the
 * answer decoded into the QP, errors passed through, and a destroy that
 * waits for acknowledged events. Links the static archive, where the
 * seam is reachable.
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

#include "t_qp.h"

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

/*
 * The write() requests of these cases, as offsets in the buffer: the
 * header, then the kernel's struct (ib_uverbs_create_qp and the rest),
 * its members where the uverbs ABI puts them.
 */
enum {
	CREATE_QP_USER_HANDLE = CMD_HDR_SIZE + 8,
	CREATE_QP_PD_HANDLE = CMD_HDR_SIZE + 16,
	CREATE_QP_SEND_CQ_HANDLE = CMD_HDR_SIZE + 20,
	CREATE_QP_RECV_CQ_HANDLE = CMD_HDR_SIZE + 24,
	CREATE_QP_SRQ_HANDLE = CMD_HDR_SIZE + 28,
	CREATE_QP_MAX_SEND_WR = CMD_HDR_SIZE + 32,
	CREATE_QP_MAX_RECV_WR = CMD_HDR_SIZE + 36,
	CREATE_QP_MAX_SEND_SGE = CMD_HDR_SIZE + 40,
	CREATE_QP_MAX_RECV_SGE = CMD_HDR_SIZE + 44,
	CREATE_QP_MAX_INLINE_DATA = CMD_HDR_SIZE + 48,
	CREATE_QP_SQ_SIG_ALL = CMD_HDR_SIZE + 52,
	CREATE_QP_QP_TYPE = CMD_HDR_SIZE + 53,
	CREATE_QP_DRIVER_DATA = CMD_HDR_SIZE + 56,
	/* struct ib_uverbs_ex_create_qp, after both headers */
	EX_CREATE_QP_QP_TYPE = EX_HDRS_SIZE + 45,
	EX_CREATE_QP_CREATE_FLAGS = EX_HDRS_SIZE + 52,
	EX_CREATE_QP_RWQ_IND_TBL_HANDLE = EX_HDRS_SIZE + 56,
	EX_CREATE_QP_SOURCE_QPN = EX_HDRS_SIZE + 60,
	/* struct ib_uverbs_destroy_qp */
	DESTROY_QP_QP_HANDLE = CMD_HDR_SIZE + 8,
	/* struct ib_uverbs_attach_mcast, and detach alike */
	MCAST_GID = CMD_HDR_SIZE + 0,
	MCAST_QP_HANDLE = CMD_HDR_SIZE + 16,
	MCAST_MLID = CMD_HDR_SIZE + 20,
};

/* The ioctl, attribute by attribute, and the answer in the QP. */
static void test_create_qp_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_qp_objs o;
	uint8_t want[IOCTL_ATTR(13)], *p;

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
		memcpy(want + IOCTL_ATTR(i) + ATTR_DATA,
		       tk.log[0].bytes + IOCTL_ATTR(i) + ATTR_DATA, 8);
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
	t_put_write_req(want, sizeof(want), IB_USER_VERBS_CMD_CREATE_QP, 40);
	t_put64(want + CMD_RESPONSE, (uintptr_t)&o.resp.core);
	t_put64(want + CREATE_QP_USER_HANDLE, (uintptr_t)&o.qp);
	t_put32(want + CREATE_QP_PD_HANDLE, 3);
	t_put32(want + CREATE_QP_SEND_CQ_HANDLE, 4);
	t_put32(want + CREATE_QP_RECV_CQ_HANDLE, 5);
	t_put32(want + CREATE_QP_MAX_SEND_WR, 16);
	t_put32(want + CREATE_QP_MAX_RECV_WR, 8);
	t_put32(want + CREATE_QP_MAX_SEND_SGE, 2);
	t_put32(want + CREATE_QP_MAX_RECV_SGE, 1);
	t_put32(want + CREATE_QP_MAX_INLINE_DATA, 64);
	want[CREATE_QP_SQ_SIG_ALL] = 1;
	want[CREATE_QP_QP_TYPE] = IBV_QPT_RC;
	t_put64(want + CREATE_QP_DRIVER_DATA, 0xd1d1);
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
					       sizeof(cmd), &resp, sizeof(resp),
					       NULL),
			 0);
	req = tk.log[tk.ncalls - 1].bytes;
	assert_int_equal(tk.log[tk.ncalls - 1].len, sizeof(cmd));
	assert_int_equal(t_get32(req + CMD_HDR_COMMAND),
			 0x80000000u | IB_USER_VERBS_EX_CMD_CREATE_QP);
	assert_int_equal(t_get64(req + EX_HDR_RESPONSE), (uintptr_t)&resp);
	assert_int_equal(req[EX_CREATE_QP_QP_TYPE], IBV_QPT_UD);
	assert_int_equal(t_get32(req + EX_CREATE_QP_RWQ_IND_TBL_HANDLE), 0);
	assert_int_equal(t_get32(req + EX_CREATE_QP_CREATE_FLAGS),
			 IBV_QP_CREATE_SOURCE_QPN);
	assert_int_equal(t_get32(req + EX_CREATE_QP_SOURCE_QPN), 0x99);
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
	uint8_t want[IOCTL_ATTR(2)], *p;
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
		       t_get64(tk.log[0].bytes + IOCTL_ATTR(0) + ATTR_DATA));
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
	t_put_write_req(want, sizeof(want), IB_USER_VERBS_CMD_DESTROY_QP, 4);
	t_put64(want + CMD_RESPONSE,
		t_get64(tk.log[tk.ncalls - 1].bytes + CMD_RESPONSE));
	t_put32(want + DESTROY_QP_QP_HANDLE, 9);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	tk.write_err = EBUSY;
	fk.resp_len = 0;
	qp.events_completed = 5; /* would never match: must not wait */
	assert_int_equal(ibv_cmd_destroy_qp(&qp), EBUSY);
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
	t_put_write_req(want, sizeof(want), IB_USER_VERBS_CMD_ATTACH_MCAST, 0);
	want[MCAST_GID] = 0xff;
	want[MCAST_GID + 1] = 0x12;
	t_put32(want + MCAST_QP_HANDLE, 7);
	t_put16(want + MCAST_MLID, 0xc001);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	t_put32(want + CMD_HDR_COMMAND, IB_USER_VERBS_CMD_DETACH_MCAST);
	assert_int_equal(ibv_cmd_detach_mcast(&qp, &gid, 0xc001), 0);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
}

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
		T_CASE(test_mcast),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
