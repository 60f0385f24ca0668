// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libsiw, the kernel's software iWARP.
 *
 * siw's kernel driver shares its queues with the provider: each create
 * answers with the queue's depth and a key, the offset on the command
 * file where the provider maps it (<rdma/siw-abi.h>), keys handed out a
 * page apart from 0. The queues start empty (no element valid), as the
 * fake's zeroed pages are. siw is matched by its driver id alone, which
 * only netlink gives.
 *
 * Not taken, of the steps an iWARP device takes: the extended CQ and QP
 * (libsiw has neither op, so the core refuses them; the persona's own
 * verbs check both cores do so alike).
 */
#include <rdma/siw-abi.h>

#include "t_drive.h"

static uint64_t next_key;

/* A mmap key of a page. */
static uint64_t new_key(void)
{
	return t_next_key(&next_key, 4096);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct siw_uresp_alloc_ctx r = { .dev_id = 0x1234 };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int reg_mr(struct t_uv_cmd *cmd)
{
	struct siw_uresp_reg_mr r = { .stag = 0x2a00 };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct siw_uresp_create_cq r = {
		.cq_id = 1,
		.num_cqe = t_pow2_at_least(t_cq_entries(cmd)),
		.cq_key = new_key(),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_qp_cap cap = t_qp_cap(cmd);
	struct siw_uresp_create_qp r = {
		.qp_id = 2,
		.num_sqe = t_pow2_at_least(cap.max_send_wr),
		.num_rqe = t_pow2_at_least(cap.max_recv_wr),
		.sq_key = new_key(),
		.rq_key = new_key(),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct siw_uresp_create_srq r = {
		.num_rqe = t_pow2_at_least(t_srq_max_wr(cmd)),
		.srq_key = new_key(),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* An SRQ's limit, the one attribute libsiw lets modify_srq change. */
static void srq_limit(struct ibv_pd *pd)
{
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 16,
						  .max_sge = 1 } };
	struct ibv_srq_attr sa = { .max_wr = 32, .srq_limit = 4 };
	struct ibv_srq *srq = ibv_create_srq(pd, &si);

	if (!srq)
		return;
	t_uv_note("modify_srq ret=%d", ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT));
	t_uv_note("destroy_srq ret=%d", ibv_destroy_srq(srq));
}

/*
 * The QP's queues, through the provider's own data path; what libsiw
 * has not, which both cores must refuse alike; its other verbs.
 */
static void siw_dv(const struct t_objs *o)
{
	if (!o->qp)
		return;
	t_data_path(o);
	t_refuse_ex(o);
	t_uv_note("resize_cq ret=%d", ibv_resize_cq(o->cq, 64));
	t_query_qp(o->qp);
	srq_limit(o->pd);
}

const struct t_persona t_persona_siw = {
	.name = "siw",
	.ibdev = "siw0",
	.driver_id = RDMA_DRIVER_SIW,
	.abi = 1,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_IWARP & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_REG_MR] = reg_mr,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.dv = siw_dv,
};
