// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: what rdmavt, the kernel side of libhfi1verbs and
 * libipathverbs, answers, and the verbs both personas take beyond the
 * generic steps (rvt.h).
 */
#include <errno.h>
#include <string.h>

#include "rvt.h"

static uint64_t next_offset = 4096;

/* Room for a ring of @bytes, at a fresh offset. */
static uint64_t ring(size_t bytes)
{
	return t_next_key(&next_offset, bytes);
}

/* The kernel says where a resized SRQ went, at the provider's address. */
int t_rvt_modify_srq(struct t_uv_cmd *cmd)
{
	uint64_t where, offset = ring(4096);

	if (cmd->drv_in_len < sizeof(where))
		return 0;
	memcpy(&where, cmd->drv_in, sizeof(where));
	memcpy((void *)(uintptr_t)where, &offset, sizeof(offset));
	return 0;
}

/* A new or resized queue's ring. */
int t_rvt_ring(struct t_uv_cmd *cmd)
{
	uint64_t offset = ring(8192);

	t_drv_answer(cmd, &offset, sizeof(offset));
	return 0;
}

/* The QP's data path: sends through the core, receives in the ring. */
static void post(const struct t_objs *o)
{
	char buf[64] = { 0 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 8 };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr swr = { .wr_id = 2,
				   .sg_list = &sge,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND },
			   *bad_s;
	struct ibv_recv_wr *bad_r;
	struct ibv_wc wc[2];

	t_uv_name("wr_buf", buf, sizeof(buf));
	t_uv_note("post_recv ret=%d", ibv_post_recv(o->qp, &rwr, &bad_r));
	t_uv_note("post_send ret=%d", ibv_post_send(o->qp, &swr, &bad_s));
	t_uv_unname(buf);
	t_uv_note("req_notify_cq ret=%d", ibv_req_notify_cq(o->cq, 0));
	t_uv_note("poll_cq ret=%d", ibv_poll_cq(o->cq, 2, wc));
}

/* What rdmavt's providers have not: both cores must refuse it alike. */
static void missing(const struct t_objs *o)
{
	struct ibv_cq_init_attr_ex ca = { .cqe = 8 };
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = o->cq,
		.recv_cq = o->cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = o->pd,
	};
	struct ibv_cq_ex *cq;
	struct ibv_qp *qp;

	errno = 0;
	cq = ibv_create_cq_ex(o->ctx, &ca);
	t_uv_note("create_cq_ex %s errno=%d", cq ? "made" : "refused", errno);
	if (cq)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	errno = 0;
	qp = ibv_create_qp_ex(o->ctx, &qa);
	t_uv_note("create_qp_ex %s errno=%d", qp ? "made" : "refused", errno);
	if (qp)
		ibv_destroy_qp(qp);
}

static void more_verbs(const struct t_objs *o)
{
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 16,
						  .max_sge = 1 } };
	struct ibv_srq_attr sa = { .max_wr = 48 };
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr qa;
	struct ibv_srq *srq;
	int ret;

	ret = ibv_query_qp(o->qp, &qa, IBV_QP_STATE | IBV_QP_CAP, &init);
	t_uv_note("query_qp ret=%d state=%d cap=%u/%u/%u/%u/%u", ret,
		  qa.qp_state, init.cap.max_send_wr, init.cap.max_recv_wr,
		  init.cap.max_send_sge, init.cap.max_recv_sge,
		  init.cap.max_inline_data);
	ret = ibv_resize_cq(o->cq, 100);
	t_uv_note("resize_cq ret=%d cqe=%d", ret, o->cq->cqe);
	srq = ibv_create_srq(o->pd, &si);
	if (!srq)
		return;
	t_uv_note("modify_srq ret=%d",
		  ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR));
	memset(&sa, 0, sizeof(sa));
	ret = ibv_query_srq(srq, &sa);
	t_uv_note("query_srq ret=%d max_wr=%u", ret, sa.max_wr);
	t_uv_note("destroy_srq ret=%d", ibv_destroy_srq(srq));
}

void t_rvt_dv(const struct t_objs *o)
{
	if (!o->qp)
		return;
	post(o);
	missing(o);
	more_verbs(o);
}
