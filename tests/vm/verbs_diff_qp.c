// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of queue pairs: create, the state machine, query,
 * destroy and the extended QP.
 */
#include <errno.h>
#include <string.h>

#include "verbs_diff.h"

static void t_qp_step(struct t_st *st, enum ibv_qp_type type, uint32_t wr)
{
	struct ibv_qp *qp = t_qp(st, type, wr, false);

	if (!t_ptr("ret", qp))
		return;
	t_out("type=%d state=%d qpn!=0=%d", qp->qp_type, qp->state,
	      qp->qp_num != 0);
}

static void s_qp_create_rc(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_RC, 4);
}

static void s_qp_create_uc(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_UC, 4);
}

static void s_qp_create_ud(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_UD, 4);
}

static void s_qp_create_big_wr(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_RC, st->attr.max_qp_wr + 1);
}

static void s_qp_create_big_sge(struct t_st *st)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = st->attr.max_sge + 1,
			 .max_recv_sge = 1 },
	};

	t_need(ibv_create_qp);
	errno = 0;
	t_ptr("ret", lib.ibv_create_qp(st->pd, &ia));
}

static void s_qp_init_rc(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_rc("ret", t_to_init(qp, IBV_ACCESS_REMOTE_WRITE));
	t_out("state=%d", qp->state);
}

static void s_qp_init_ud(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_UD, 4, true);

	t_rc("ret", t_to_init(qp, 0));
	t_out("state=%d", qp->state);
}

/* RESET -> INIT without the port: the mask is wrong for the transition. */
static void s_qp_init_bad_mask(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };

	t_need(ibv_modify_qp);
	errno = 0;
	t_rc("ret",
	     lib.ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX));
}

/* RESET -> RTR skips INIT. */
static void s_qp_bad_transition(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };

	t_need(ibv_modify_qp);
	errno = 0;
	t_rc("ret", lib.ibv_modify_qp(qp, &a, IBV_QP_STATE));
}

static void s_qp_rts(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_loopback(st, qp, false);
	t_out("state=%d", qp->state);
}

static void s_qp_query(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	int rc;

	rc = t_to_init(qp, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE);
	if (rc) {
		errno = rc;
		t_setup_failed("modify_qp_init");
	}
	t_need(ibv_query_qp);
	memset(&a, 0, sizeof(a));
	memset(&ia, 0, sizeof(ia));
	errno = 0;
	t_rc("ret",
	     lib.ibv_query_qp(qp, &a,
			      IBV_QP_STATE | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS |
				      IBV_QP_CAP | IBV_QP_PKEY_INDEX,
			      &ia));
	t_out("state=%d port=%u access=%#x pkey_index=%u", a.qp_state,
	      a.port_num, a.qp_access_flags, a.pkey_index);
	t_out("cap=%u/%u/%u/%u/%u type=%d sq_sig_all=%d cq-matches=%d",
	      a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge,
	      a.cap.max_recv_sge, a.cap.max_inline_data, ia.qp_type,
	      ia.sq_sig_all, ia.send_cq == st->cq);
}

static void s_qp_destroy(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_destroy_qp);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_qp(qp));
}

static void s_qp_to_qp_ex(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_qp_to_qp_ex);
	errno = 0;
	t_out("ret=%s", lib.ibv_qp_to_qp_ex(qp) ? "ok" : "NULL");
}

/* Neither rxe nor siw has the op: what the library answers for them. */
static void s_qp_data_in_order(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_query_qp_data_in_order);
	errno = 0;
	t_out("send=%d write=%d",
	      lib.ibv_query_qp_data_in_order(qp, IBV_WR_SEND, 0),
	      lib.ibv_query_qp_data_in_order(qp, IBV_WR_RDMA_WRITE, 0));
}

static void s_qp_create_ex_ops(struct t_st *st)
{
	struct ibv_qp_init_attr_ex ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = st->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_SEND,
	};
	struct ibv_qp *qp;

	t_need(ibv_qp_to_qp_ex);
	errno = 0;
	qp = ibv_create_qp_ex(st->ctx, &ia);
	if (!t_ptr("ret", qp))
		return;
	t_out("qp_ex=%s", lib.ibv_qp_to_qp_ex(qp) ? "ok" : "NULL");
}

static const struct t_step qp_steps[] = {
	{ "qp.create.rc", T_CQ, s_qp_create_rc },
	{ "qp.create.uc", T_CQ, s_qp_create_uc },
	{ "qp.create.ud", T_CQ, s_qp_create_ud },
	{ "qp.create.big_wr", T_CQ, s_qp_create_big_wr },
	{ "qp.create.big_sge", T_CQ, s_qp_create_big_sge },
	{ "qp.modify.init.rc", T_CQ, s_qp_init_rc },
	{ "qp.modify.init.ud", T_CQ, s_qp_init_ud },
	{ "qp.modify.init.bad_mask", T_CQ, s_qp_init_bad_mask },
	{ "qp.modify.reset_to_rts", T_CQ, s_qp_bad_transition },
	{ "qp.modify.loopback_rts", T_CQ, s_qp_rts },
	{ "qp.query", T_CQ, s_qp_query },
	{ "qp.destroy", T_CQ, s_qp_destroy },
	{ "qp.to_qp_ex", T_CQ, s_qp_to_qp_ex },
	{ "qp.data_in_order", T_CQ, s_qp_data_in_order },
	{ "qp.create_ex.send_ops", T_CQ, s_qp_create_ex_ops },
};

const struct t_steps t_qp_steps = T_STEPS(qp_steps);
