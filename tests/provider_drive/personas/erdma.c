// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of liberdma, Alibaba Elastic RDMA (iWARP).
 *
 * erdma keeps its queues in the process's memory and tells the kernel
 * where (<rdma/erdma-abi.h>); the kernel answers a context with the
 * mmap keys of the send, receive and CQ doorbell pages, a CQ with its
 * depth, and a QP with its queue depths and where its receive queue
 * starts in the buffer, as erdma's kernel driver sizes them: depths
 * rounded up to powers of two, a send entry of up to four 32-byte
 * blocks, the receive queue on the next 4 KiB boundary after them.
 *
 * Not taken, of the steps an iWARP device takes: the extended CQ and QP
 * (liberdma, 44.0 to 65.0, has neither op; both cores refuse them
 * alike, the persona's own verbs check) and the SRQ (it has none).
 */
#include <errno.h>

#include <rdma/erdma-abi.h>

#include "t_drive.h"

static int get_context(struct t_uv_cmd *cmd)
{
	struct erdma_uresp_alloc_ctx r = {
		.dev_id = 0x107f,
		.sdb_type = 0, /* a send doorbell page of its own */
		.sdb = 0,
		.rdb = 4096,
		.cdb = 2 * 4096,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct erdma_uresp_create_cq r = {
		.cq_id = 1,
		.num_cqe = t_pow2_at_least(t_cq_entries(cmd)),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_qp_cap cap = t_qp_cap(cmd);
	struct erdma_uresp_create_qp r = {
		.qp_id = 2,
		.num_sqe = t_pow2_at_least(cap.max_send_wr * 4),
		.num_rqe = t_pow2_at_least(cap.max_recv_wr),
	};

	r.rq_offset = ((r.num_sqe << 5) + 4095) & ~4095u;
	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * The QP's data path (its doorbells are the mapped pages) and the CQ's;
 * what liberdma has not, which both cores must refuse alike.
 */
static void erdma_dv(const struct t_objs *o)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr qa;
	struct ibv_srq *srq;
	int ret;

	if (!o->qp)
		return;
	t_data_path(o);
	t_refuse_ex(o);
	errno = 0;
	srq = ibv_create_srq(o->pd, &sa);
	t_uv_note("create_srq %s errno=%d", srq ? "made" : "refused", errno);
	if (srq)
		ibv_destroy_srq(srq);
	ret = ibv_query_qp(o->qp, &qa, IBV_QP_STATE, &init);
	t_uv_note("query_qp ret=%d", ret);
}

const struct t_persona t_persona_erdma = {
	.name = "erdma",
	.ibdev = "erdma_0",
	.driver_id = RDMA_DRIVER_ERDMA,
	.vendor = 0x1ded,
	.device = 0x107f,
	.abi = 1,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_IWARP & ~(T_STEP_CQ_EX | T_STEP_QP_EX | T_STEP_SRQ),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
	},
	.dv = erdma_dv,
};
