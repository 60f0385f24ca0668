// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The queue half of the @IBVERBS_1.0 versions (compat_1_0_queue.c),
 * called as a binary linked against libibverbs 1.0 would
 * (t_compat_1_0.h): SRQs, QPs and AHs on a PD, MR and CQ made through
 * the 1.0 functions, and the 1.0 context's poll, notify and post ops,
 * whose old work requests reach the provider translated. With
 * IBV_TEST_REFERENCE=1 the same binary runs against Debian's libibverbs;
 * the few checks of what rdma-core 44 leaves undefined (or crashes on)
 * are ours alone.
 */
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/driver.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "t_compat_1_0.h"
#include "t_scenario.h"
#include "t_util.h"

static struct pd_1_0 *check_pd(struct ctx_1_0 *ctx)
{
	struct pd_1_0 *pd = v0.alloc_pd(ctx);

	T_CHECK(pd && pd->context == ctx);
	T_CHECK(pd->real && pd->real->context == ctx->real);
	if (!t_reference())
		T_CHECK(pd->handle == 11);
	return pd;
}

static void check_mr(struct pd_1_0 *pd)
{
	static char buf[4096];
	struct mr_1_0 *mr;

	mr = v0.reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(mr && mr->context == pd->context && mr->pd == pd);
	T_CHECK(mr->lkey == 0x111 && mr->rkey == 0x222);
	T_CHECK(mr->real->pd == pd->real && mr->real->addr == buf &&
		mr->real->length == sizeof(buf));
	/* The address is the IOVA; the access flags pass unchanged. */
	T_CHECK(rec.obj == (void *)buf && rec.arg == IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(v0.dereg_mr(mr) == 0);
}

/* A CQ, SRQ, QP and AH through the 1.0 functions, and their layouts. */
static int sc_objects(void *arg)
{
	struct ctx_1_0 *ctx = t_open_1_0();
	struct qp_init_attr_1_0 ia = { 0 }, qia = { 0 };
	struct ibv_srq_init_attr sia = { .srq_context = &sia };
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_INIT };
	struct ibv_ah_attr aa = { .dlid = 1, .port_num = 1 };
	struct ibv_srq_attr sa = { 0 };
	union ibv_gid mgid = { 0 };
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct srq_1_0 *srq;
	struct qp_1_0 *qp;
	struct ah_1_0 *ah;

	if (!ctx)
		return T_SKIP;
	pd = check_pd(ctx);
	check_mr(pd);

	cq = v0.create_cq(ctx, 10, &ia, NULL, 0);
	T_CHECK(cq && cq->context == ctx && cq->cq_context == &ia);
	/* The size asked for, as rdma-core 44 keeps it. */
	T_CHECK(cq->cqe == 10 && cq->real->cqe == 20);
	/* The real CQ points back at the wrapper, for the event calls. */
	T_CHECK(cq->real->cq_context == cq && cq->real->context == ctx->real);
	T_CHECK(v0.resize_cq(cq, 40) == 0 && cq->real->cqe == 40);
	errno = 0;
	T_CHECK(v0.create_cq(ctx, -1, NULL, NULL, 0) == NULL &&
		errno == EINVAL);

	srq = v0.create_srq(pd, &sia);
	T_CHECK(srq && srq->context == ctx && srq->pd == pd);
	T_CHECK(srq->srq_context == &sia && srq->real->srq_context == srq);
	T_CHECK(srq->real->pd == pd->real);
	T_CHECK(v0.modify_srq(srq, &sa, IBV_SRQ_LIMIT) == 0);
	T_CHECK(rec.obj == srq->real && rec.arg == IBV_SRQ_LIMIT);
	T_CHECK(v0.query_srq(srq, &sa) == 0 && sa.max_wr == 55);

	ia = (struct qp_init_attr_1_0){ .qp_context = &qa,
					.send_cq = cq,
					.recv_cq = cq,
					.srq = srq,
					.cap.max_send_wr = 4,
					.qp_type = IBV_QPT_RC };
	qp = v0.create_qp(pd, &ia);
	T_CHECK(qp && qp->context == ctx && qp->pd == pd);
	T_CHECK(qp->qp_context == &qa && qp->real->qp_context == qp);
	T_CHECK(qp->send_cq == cq && qp->recv_cq == cq && qp->srq == srq);
	T_CHECK(qp->qp_num == 0x99 && qp->qp_type == IBV_QPT_RC);
	T_CHECK(qp->real->send_cq == cq->real && qp->real->srq == srq->real);
	/* What the provider granted goes back to the caller. */
	T_CHECK(ia.cap.max_send_wr == 128);

	T_CHECK(v0.query_qp(qp, &qa, IBV_QP_STATE, &qia) == 0);
	T_CHECK(qia.qp_context == &qa && qia.send_cq == cq &&
		qia.recv_cq == cq && qia.srq == srq);
	T_CHECK(qia.cap.max_recv_wr == 33 && qia.sq_sig_all == 1);
	T_CHECK(qia.qp_type == IBV_QPT_RC && qp->real->state == IBV_QPS_RTS);
	qa.qp_state = IBV_QPS_INIT;
	T_CHECK(v0.modify_qp(qp, &qa, IBV_QP_STATE) == 0);
	T_CHECK(rec.obj == qp->real && qp->real->state == IBV_QPS_INIT);
	T_CHECK(v0.attach_mcast(qp, &mgid, 0xc001) == 0 && rec.lid == 0xc001);
	T_CHECK(v0.detach_mcast(qp, &mgid, 0xc001) == 0 && rec.lid == 0xc002);

	ah = v0.create_ah(pd, &aa);
	T_CHECK(ah && ah->context == ctx && ah->pd == pd);
	T_CHECK(ah->real->pd == pd->real && ah->real->context == ctx->real);
	T_CHECK(v0.destroy_ah(ah) == 0);

	/* A destroy the provider refuses leaves the wrapper usable. */
	rec.destroy_err = EBUSY;
	T_CHECK(v0.destroy_qp(qp) == EBUSY);
	T_CHECK(qp->real->qp_num == 0x99);
	T_CHECK(v0.destroy_qp(qp) == 0);
	T_CHECK(v0.destroy_srq(srq) == 0);
	T_CHECK(v0.destroy_cq(cq) == 0);
	T_CHECK(v0.dealloc_pd(pd) == 0);
	t_close_1_0(ctx);
	return 0;
}

/* A QP without an SRQ queries as one (rdma-core 44 crashes here). */
static int sc_query_no_srq(void *arg)
{
	struct ctx_1_0 *ctx;
	struct qp_init_attr_1_0 ia = { 0 }, qia = { .srq = (void *)&ia };
	struct ibv_qp_attr qa;
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct qp_1_0 *qp;

	if (t_reference())
		return T_SKIP;
	ctx = t_open_1_0();
	if (!ctx)
		return T_SKIP;
	pd = v0.alloc_pd(ctx);
	cq = v0.create_cq(ctx, 1, NULL, NULL, 0);
	ia = (struct qp_init_attr_1_0){ .send_cq = cq,
					.recv_cq = cq,
					.qp_type = IBV_QPT_UC };
	qp = v0.create_qp(pd, &ia);
	T_CHECK(qp && qp->srq == NULL && qp->real->srq == NULL);
	T_CHECK(v0.query_qp(qp, &qa, IBV_QP_STATE, &qia) == 0);
	T_CHECK(qia.srq == NULL && qia.send_cq == cq);
	T_CHECK(v0.destroy_qp(qp) == 0 && v0.destroy_cq(cq) == 0);
	T_CHECK(v0.dealloc_pd(pd) == 0);
	t_close_1_0(ctx);
	return 0;
}

/* Old WRs reach the provider field by field in the current layout. */
static void check_send_translation(struct qp_1_0 *qp)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 64, .lkey = 7 };
	struct send_wr_1_0 w[2] = {
		{ .next = &w[1],
		  .wr_id = 0xaa,
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		  .send_flags = IBV_SEND_SIGNALED,
		  .imm_data = htobe32(0x1234),
		  .wr.rdma = { .remote_addr = 0xdead0000, .rkey = 0x55 } },
		{ .wr_id = 0xbb,
		  .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		  .wr.atomic = { .remote_addr = 0xbeef0000,
				 .compare_add = 3,
				 .swap = 4,
				 .rkey = 0x66 } },
	};
	struct ibv_send_wr *r = rec.send;
	void *bad = NULL;

	T_CHECK(qp->context->ops.post_send(qp, w, &bad) == 0);
	T_CHECK(rec.nsend == 2 && bad == NULL);
	T_CHECK(r[0].wr_id == 0xaa && r[0].sg_list == &sge &&
		r[0].num_sge == 1);
	T_CHECK(r[0].opcode == IBV_WR_RDMA_WRITE_WITH_IMM &&
		r[0].send_flags == IBV_SEND_SIGNALED);
	T_CHECK(r[0].imm_data == htobe32(0x1234));
	T_CHECK(r[0].wr.rdma.remote_addr == 0xdead0000 &&
		r[0].wr.rdma.rkey == 0x55);
	T_CHECK(r[1].wr_id == 0xbb && r[1].num_sge == 0 &&
		r[1].opcode == IBV_WR_ATOMIC_CMP_AND_SWP);
	T_CHECK(r[1].wr.atomic.remote_addr == 0xbeef0000 &&
		r[1].wr.atomic.compare_add == 3 && r[1].wr.atomic.swap == 4 &&
		r[1].wr.atomic.rkey == 0x66);
	/* Members the 1.0 layout lacks: zero in ours, unset in rdma-core 44. */
	if (!t_reference())
		T_CHECK(r[0].qp_type.xrc.remote_srqn == 0 &&
			r[0].bind_mw.mw == NULL);
}

/* The provider's bad request comes back as the program's. */
static void check_send_failure(struct qp_1_0 *qp)
{
	struct send_wr_1_0 w[20];
	void *bad = NULL;
	int i;

	memset(w, 0, sizeof(w));
	for (i = 0; i < 20; i++) {
		w[i].wr_id = i;
		w[i].next = i < 19 ? &w[i + 1] : NULL;
	}
	t_rec_reset();
	rec.fail_at = 18;
	T_CHECK(qp->context->ops.post_send(qp, w, &bad) == EINVAL);
	T_CHECK(bad == &w[18] && rec.nsend == 19);
	for (i = 0; i < 19; i++)
		T_CHECK(rec.send[i].wr_id == (uint64_t)i);
	t_rec_reset();
	rec.fail_at = 0;
	T_CHECK(qp->context->ops.post_send(qp, &w[5], &bad) == EINVAL);
	T_CHECK(bad == &w[5]);
}

/* A UD request names the 1.0 AH; the provider gets the real one. */
static void check_send_ud(struct qp_1_0 *qp, struct ah_1_0 *ah)
{
	struct send_wr_1_0 w = {
		.wr_id = 9,
		.opcode = IBV_WR_SEND,
		.wr.ud = { .ah = ah, .remote_qpn = 0x77, .remote_qkey = 0x11 },
	};
	void *bad = NULL;

	t_rec_reset();
	T_CHECK(qp->context->ops.post_send(qp, &w, &bad) == 0);
	T_CHECK(rec.nsend == 1 && rec.send[0].wr.ud.ah == ah->real);
	T_CHECK(rec.send[0].wr.ud.remote_qpn == 0x77 &&
		rec.send[0].wr.ud.remote_qkey == 0x11);
}

static void check_recv(struct qp_1_0 *qp, struct srq_1_0 *srq)
{
	struct ibv_sge sge = { .addr = 0x2000, .length = 8 };
	struct recv_wr_1_0 w[3] = {
		{ .next = &w[1], .wr_id = 1, .sg_list = &sge, .num_sge = 1 },
		{ .next = &w[2], .wr_id = 2 },
		{ .wr_id = 3 },
	};
	void *bad = NULL;

	t_rec_reset();
	T_CHECK(qp->context->ops.post_recv(qp, w, &bad) == 0);
	T_CHECK(rec.obj == qp->real && rec.nrecv == 3);
	T_CHECK(rec.recv[0].wr_id == 1 && rec.recv[0].sg_list == &sge &&
		rec.recv[0].num_sge == 1);
	T_CHECK(rec.recv[2].wr_id == 3 && rec.recv[2].next == NULL);
	t_rec_reset();
	rec.fail_at = 1;
	T_CHECK(srq->context->ops.post_srq_recv(srq, w, &bad) == ENOMEM);
	T_CHECK(rec.obj == srq->real && bad == &w[1]);
}

static void check_poll_notify(struct cq_1_0 *cq)
{
	struct ibv_wc wc[3];

	T_CHECK(cq->context->ops.poll_cq(cq, 3, wc) == 2);
	T_CHECK(rec.obj == cq->real && rec.arg == 3);
	T_CHECK(cq->context->ops.req_notify_cq(cq, 1) == 0);
	T_CHECK(rec.obj == cq->real && rec.arg == 1);
}

/* The 1.0 context's ops call the provider's, with translated requests. */
static int sc_ops(void *arg)
{
	struct ctx_1_0 *ctx = t_open_1_0();
	struct ibv_srq_init_attr sia = { 0 };
	struct ibv_ah_attr aa = { .dlid = 1, .port_num = 1 };
	struct qp_init_attr_1_0 ia;
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct srq_1_0 *srq;
	struct qp_1_0 *qp, *ud;
	struct ah_1_0 *ah;

	if (!ctx)
		return T_SKIP;
	pd = v0.alloc_pd(ctx);
	cq = v0.create_cq(ctx, 4, NULL, NULL, 0);
	srq = v0.create_srq(pd, &sia);
	ah = v0.create_ah(pd, &aa);
	ia = (struct qp_init_attr_1_0){ .send_cq = cq,
					.recv_cq = cq,
					.qp_type = IBV_QPT_RC };
	qp = v0.create_qp(pd, &ia);
	ia.qp_type = IBV_QPT_UD;
	ud = v0.create_qp(pd, &ia);
	T_CHECK(pd && cq && srq && ah && qp && ud);
	check_poll_notify(cq);
	check_send_translation(qp);
	check_send_failure(qp);
	check_send_ud(ud, ah);
	check_recv(qp, srq);
	T_CHECK(!v0.destroy_qp(ud) && !v0.destroy_qp(qp));
	T_CHECK(!v0.destroy_ah(ah) && !v0.destroy_srq(srq));
	T_CHECK(!v0.destroy_cq(cq) && !v0.dealloc_pd(pd));
	t_close_1_0(ctx);
	return 0;
}

static void test_objects(void **s)
{
	t_scenario(sc_objects, NULL);
}
static void test_query_no_srq(void **s)
{
	t_scenario(sc_query_no_srq, NULL);
}
static void test_ops(void **s)
{
	t_scenario(sc_ops, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_query_no_srq),
		cmocka_unit_test(test_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
