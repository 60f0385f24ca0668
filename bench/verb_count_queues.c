// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verb_count's queue verbs: CQ, QP (create, each state transition,
 * query), SRQ, AH, and the verbs that rxe and siw refuse (WQ, flow,
 * counters), whose refusal is counted as it comes. The QPs here are not
 * connected to anything but themselves: on rxe, through the port's own
 * GID; siw's reach RTR only through a connection, so there the
 * transitions counted are RESET -> INIT -> RESET.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bench_util.h"
#include "rc_connect.h"
#include "verb_count.h"

#define CQE 64

/* The QPs of this file: RC, one SGE, on a CQ of the run's context. */
static struct ibv_qp_init_attr qp_attr(struct ibv_cq *cq)
{
	return (struct ibv_qp_init_attr){
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 32,
			 .max_recv_wr = 64,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
}

static struct ibv_cq *plain_cq(struct vc *v)
{
	struct ibv_cq *cq = ibv_create_cq(v->ctx, CQE, NULL, NULL, 0);

	if (!cq)
		die("ibv_create_cq: %s", strerror(errno));
	return cq;
}

static struct ibv_qp *plain_qp(struct vc *v, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr a = qp_attr(cq);
	struct ibv_qp *qp = ibv_create_qp(v->pd, &a);

	if (!qp)
		die("ibv_create_qp: %s", strerror(errno));
	return qp;
}

static void cq_ex(struct vc *v, int n)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = CQE,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM,
	};
	struct ibv_cq_ex *cq;

	for (int i = 0; i < n; i++) {
		cq = vc_op_create_cq_ex(v->ctx, &a);
		vc_note_obj(VC_CREATE_CQ_EX, cq);
		if (cq && ibv_destroy_cq(ibv_cq_ex_to_cq(cq)))
			die("ibv_destroy_cq (extended): %s", strerror(errno));
	}
}

static void comp_channel(struct vc *v, int n)
{
	struct ibv_comp_channel *ch;

	for (int i = 0; i < n; i++) {
		ch = vc_op_create_comp_channel(v->ctx);
		vc_note_obj(VC_CREATE_COMP_CHANNEL, ch);
		if (!ch) {
			vc_skip(VC_DESTROY_COMP_CHANNEL,
				"create_comp_channel failed");
			continue;
		}
		vc_note(VC_DESTROY_COMP_CHANNEL,
			vc_op_destroy_comp_channel(ch));
	}
}

void vc_run_cq(struct vc *v, int n)
{
	struct ibv_cq *cq;
	int i;

	for (i = 0; i < n; i++) {
		cq = vc_op_create_cq(v->ctx, CQE);
		vc_note_obj(VC_CREATE_CQ, cq);
		if (!cq) {
			vc_skip(VC_DESTROY_CQ, "create_cq failed");
			continue;
		}
		vc_note(VC_DESTROY_CQ, vc_op_destroy_cq(cq));
	}
	cq_ex(v, n);
	cq = plain_cq(v);
	/* Every call changes the size: twice as large, then back. */
	for (i = 0; i < n; i++)
		vc_note(VC_RESIZE_CQ,
			vc_op_resize_cq(cq, i % 2 ? CQE : 2 * CQE));
	ibv_destroy_cq(cq);
	/* The CQ of the events, on its channel; arming it again is allowed. */
	for (i = 0; i < n; i++)
		vc_note(VC_REQ_NOTIFY_CQ, vc_op_req_notify_cq(v->w.cq_a));
	comp_channel(v, n);
}

/* The transitions out of RESET and INIT, each noted as its own op. */
static int to_init(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	int ret = vc_op_modify_qp_reset_init(qp, a, mask);

	vc_note(VC_MODIFY_QP_RESET_INIT, ret);
	return ret;
}

static int to_rtr_rts(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	int ret;

	if (a->qp_state == IBV_QPS_RTR) {
		ret = vc_op_modify_qp_init_rtr(qp, a, mask);
		vc_note(VC_MODIFY_QP_INIT_RTR, ret);
	} else {
		ret = vc_op_modify_qp_rtr_rts(qp, a, mask);
		vc_note(VC_MODIFY_QP_RTR_RTS, ret);
	}
	return ret;
}

static void modify(struct vc *v, struct ibv_qp *qp, int n)
{
	struct ibv_qp_attr reset = { .qp_state = IBV_QPS_RESET };
	const char *why = "siw: RTR and RTS need an rdma_cm connection";

	for (int i = 0; i < n; i++) {
		rc_to_init(to_init, qp);
		if (v->iwarp) {
			vc_skip(VC_MODIFY_QP_INIT_RTR, why);
			vc_skip(VC_MODIFY_QP_RTR_RTS, why);
			vc_skip(VC_MODIFY_QP_RTS_RESET, why);
			vc_note(VC_MODIFY_QP_INIT_RESET,
				vc_op_modify_qp_init_reset(qp, &reset,
							   IBV_QP_STATE));
			continue;
		}
		/* Looped to itself through the port's own GID. */
		rc_to_rts(to_rtr_rts, qp, &v->gid, v->gid_index, qp->qp_num,
			  NULL);
		vc_note(VC_MODIFY_QP_RTS_RESET,
			vc_op_modify_qp_rts_reset(qp, &reset, IBV_QP_STATE));
	}
}

static void qp_ex(struct vc *v, struct ibv_cq *cq, int n)
{
	struct ibv_qp_init_attr plain = qp_attr(cq);
	struct ibv_qp_init_attr_ex a = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = plain.cap,
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = v->pd,
	};
	struct ibv_qp *qp;

	for (int i = 0; i < n; i++) {
		qp = vc_op_create_qp_ex(v->ctx, &a);
		vc_note_obj(VC_CREATE_QP_EX, qp);
		if (qp && ibv_destroy_qp(qp))
			die("ibv_destroy_qp (extended): %s", strerror(errno));
	}
}

void vc_run_qp(struct vc *v, int n)
{
	const int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			 IBV_QP_ACCESS_FLAGS | IBV_QP_PATH_MTU |
			 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_SQ_PSN |
			 IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			 IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC |
			 IBV_QP_MIN_RNR_TIMER | IBV_QP_CAP | IBV_QP_AV;
	struct ibv_cq *cq = plain_cq(v);
	struct ibv_qp_init_attr a = qp_attr(cq), init;
	struct ibv_qp_attr qa;
	struct ibv_qp *qp;
	int i;

	for (i = 0; i < n; i++) {
		qp = vc_op_create_qp(v->pd, &a);
		vc_note_obj(VC_CREATE_QP, qp);
		if (!qp) {
			vc_skip(VC_DESTROY_QP, "create_qp failed");
			continue;
		}
		vc_note(VC_DESTROY_QP, vc_op_destroy_qp(qp));
	}
	qp_ex(v, cq, n);
	qp = plain_qp(v, cq);
	modify(v, qp, n);
	ibv_destroy_qp(qp);
	/* The connected QP of the events, in RTS on either device. */
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_QP, vc_op_query_qp(v->w.a, &qa, mask, &init));
	ibv_destroy_cq(cq);
}

static void srq(struct vc *v, int n)
{
	struct ibv_srq_init_attr a = { .attr = { .max_wr = 64, .max_sge = 1 } };
	struct ibv_srq_attr sa;
	struct ibv_srq *srq;
	int i;

	for (i = 0; i < n; i++) {
		srq = vc_op_create_srq(v->pd, &a);
		vc_note_obj(VC_CREATE_SRQ, srq);
		if (!srq) {
			vc_skip(VC_DESTROY_SRQ, "create_srq failed");
			continue;
		}
		vc_note(VC_DESTROY_SRQ, vc_op_destroy_srq(srq));
	}
	srq = ibv_create_srq(v->pd, &a);
	if (!srq)
		die("ibv_create_srq: %s", strerror(errno));
	for (i = 0; i < n; i++) {
		/* Every call changes the limit: 8, then 16. */
		sa = (struct ibv_srq_attr){ .srq_limit = i % 2 ? 16 : 8 };
		vc_note(VC_MODIFY_SRQ,
			vc_op_modify_srq(srq, &sa, IBV_SRQ_LIMIT));
	}
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_SRQ, vc_op_query_srq(srq, &sa));
	ibv_destroy_srq(srq);
}

void vc_run_srq_ah(struct vc *v, int n)
{
	struct ibv_ah_attr a = {
		.is_global = 1,
		.grh = { .dgid = v->gid,
			 .sgid_index = v->gid_index,
			 .hop_limit = 1 },
		.port_num = 1,
	};
	struct ibv_ah *ah;

	srq(v, n);
	for (int i = 0; i < n; i++) {
		ah = vc_op_create_ah(v->pd, &a);
		vc_note_obj(VC_CREATE_AH, ah);
		if (!ah) {
			vc_skip(VC_DESTROY_AH, "create_ah refused");
			continue;
		}
		vc_note(VC_DESTROY_AH, vc_op_destroy_ah(ah));
	}
}

/*
 * One Ethernet rule, the simplest a flow can be; the spec follows the
 * attribute with no padding (both are 4-byte aligned, the attribute 20
 * bytes long).
 */
struct eth_flow {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
};
_Static_assert(offsetof(struct eth_flow, eth) == sizeof(struct ibv_flow_attr),
	       "the flow spec must follow its attribute");

/*
 * Neither rxe nor siw has WQs, flows or counters: the refusal is what is
 * counted. Should a verb succeed after all, its object is destroyed
 * (uncounted) and the result says so.
 */
void vc_run_refused(struct vc *v, int n)
{
	struct ibv_cq *cq = plain_cq(v);
	struct ibv_qp *qp = plain_qp(v, cq);
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ,
				       .max_wr = 64,
				       .max_sge = 1,
				       .pd = v->pd,
				       .cq = cq };
	struct eth_flow fa = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(fa),
			  .num_of_specs = 1,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(struct ibv_flow_spec_eth) },
	};
	struct ibv_counters_init_attr ca = { 0 };
	struct ibv_counters *counters;
	struct ibv_flow *flow;
	struct ibv_wq *wq;
	int i;

	for (i = 0; i < n; i++) {
		wq = vc_op_create_wq(v->ctx, &wa);
		vc_note_obj(VC_CREATE_WQ, wq);
		if (wq)
			ibv_destroy_wq(wq);
	}
	for (i = 0; i < n; i++) {
		flow = vc_op_create_flow(qp, &fa.attr);
		vc_note_obj(VC_CREATE_FLOW, flow);
		if (flow)
			ibv_destroy_flow(flow);
	}
	for (i = 0; i < n; i++) {
		counters = vc_op_create_counters(v->ctx, &ca);
		vc_note_obj(VC_CREATE_COUNTERS, counters);
		if (counters)
			ibv_destroy_counters(counters);
	}
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
}
