// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmthca, Mellanox InfiniHost (Tavor mode).
 *
 * mthca keeps its queues in the process's memory, registered as MRs of
 * a PD of its own that the context allocates; the kernel answers with
 * object numbers (<rdma/mthca-abi.h>). The context maps the UAR
 * doorbell page (offset 0). A Tavor device has no doorbell records in
 * memory (that is Arbel's mem-free mode), so the context's UAR context
 * size is 0. An AH is the provider's own, no kernel object.
 */
#include <rdma/mthca-abi.h>

#include "t_drive.h"

static int get_context(struct t_uv_cmd *cmd)
{
	struct mthca_alloc_ucontext_resp r = {
		.qp_tab_size = 1 << 16,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	static uint32_t pdn = 0x20;
	struct mthca_alloc_pd_resp r = { .pdn = pdn++ };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	static uint32_t cqn = 0x80;
	struct mthca_create_cq_resp r = { .cqn = cqn++ };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct mthca_create_srq_resp r = { .srqn = 0x40 };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* What libmthca has not: both cores must refuse it the same way. */
static void mthca_dv(const struct t_objs *o)
{
	if (!o->qp)
		return;
	t_refuse_ex(o);
	t_uv_note("resize_cq ret=%d", ibv_resize_cq(o->cq, 64));
}

const struct t_persona t_persona_mthca = {
	.name = "mthca",
	.ibdev = "mthca0",
	.driver_id = RDMA_DRIVER_MTHCA,
	.vendor = 0x15b3,
	.device = 0x5a44,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	/*
	 * libmthca has no create_cq_ex or create_qp_ex: the core refuses the
	 * extended CQ and QP (EOPNOTSUPP), which ends a drive; the persona's
	 * own verbs check that both cores refuse them alike.
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_UD | T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.dv = mthca_dv,
};
