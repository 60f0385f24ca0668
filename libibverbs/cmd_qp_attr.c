// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A queue pair's attributes in the command layer: QUERY_QP, MODIFY_QP and
 * the extended MODIFY_QP, between struct ibv_qp_attr and the kernel's
 * layouts. Write() commands only, as in rdma-core 44 (kcmd_write()
 * tunnels them through the ioctl interface where the kernel has it).
 * The rest of the QP's commands are cmd_qp.c's.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "kern_copy.h"
#include "util.h"

static void attr_from_query(struct ibv_qp_attr *a,
			    const struct ib_uverbs_query_qp_resp *r)
{
	QP_ATTR_FIELDS(SET_PUB, a, r);
	a->qp_state = r->qp_state;
	AV_FROM_KERN(&a->ah_attr, &r->dest, &r->dest);
	AV_FROM_KERN(&a->alt_ah_attr, &r->alt_dest, &r->alt_dest);
}

/*
 * Mask bits from IBV_QP_RATE_LIMIT up have no room in the basic MODIFY_QP
 * and QUERY_QP; a provider sends those with ibv_cmd_modify_qp_ex().
 */
#define QP_BASIC_ATTR_MASK (IBV_QP_RATE_LIMIT - 1)

/**
 * ibv_cmd_query_qp - read a QP's attributes from the kernel
 *
 * Write-only (QUERY_QP). Fills @qp_attr, and @qp_init_attr from the
 * answer and from @qp. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr,
				int attr_mask,
				struct ibv_qp_init_attr *qp_init_attr,
				struct ibv_query_qp *cmd, size_t cmd_size)
{
	struct ib_uverbs_query_qp_resp resp = { 0 };
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_QUERY_QP,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(&resp, sizeof(resp)),
	};
	int ret;

	if (attr_mask & ~QP_BASIC_ATTR_MASK)
		return with_errno(EOPNOTSUPP);
	cmd->response = ioctl_ptr_to_u64(&resp);
	cmd->qp_handle = qp->handle;
	cmd->attr_mask = attr_mask;
	ret = kcmd_write(qp->context, &w);
	if (ret)
		return ret;
	attr_from_query(qp_attr, &resp);
	qp_init_attr->qp_context = qp->qp_context;
	qp_init_attr->send_cq = qp->send_cq;
	qp_init_attr->recv_cq = qp->recv_cq;
	qp_init_attr->srq = qp->srq;
	qp_init_attr->qp_type = qp->qp_type;
	QP_CAP_FIELDS(SET_PUB, &qp_init_attr->cap, &resp);
	qp_init_attr->sq_sig_all = resp.sq_sig_all;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_qp);

/* The scalar fields of a modify, each only when its mask bit is set. */
static void modify_scalars(struct ib_uverbs_modify_qp *m,
			   const struct ibv_qp_attr *a, int mask)
{
	if (mask & IBV_QP_STATE)
		m->qp_state = a->qp_state;
	if (mask & IBV_QP_CUR_STATE)
		m->cur_qp_state = a->cur_qp_state;
	if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY)
		m->en_sqd_async_notify = a->en_sqd_async_notify;
	if (mask & IBV_QP_ACCESS_FLAGS)
		m->qp_access_flags = a->qp_access_flags;
	if (mask & IBV_QP_PKEY_INDEX)
		m->pkey_index = a->pkey_index;
	if (mask & IBV_QP_PORT)
		m->port_num = a->port_num;
	if (mask & IBV_QP_QKEY)
		m->qkey = a->qkey;
	if (mask & IBV_QP_PATH_MTU)
		m->path_mtu = a->path_mtu;
	if (mask & IBV_QP_TIMEOUT)
		m->timeout = a->timeout;
	if (mask & IBV_QP_RETRY_CNT)
		m->retry_cnt = a->retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		m->rnr_retry = a->rnr_retry;
	if (mask & IBV_QP_RQ_PSN)
		m->rq_psn = a->rq_psn;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		m->max_rd_atomic = a->max_rd_atomic;
	if (mask & IBV_QP_MIN_RNR_TIMER)
		m->min_rnr_timer = a->min_rnr_timer;
	if (mask & IBV_QP_SQ_PSN)
		m->sq_psn = a->sq_psn;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		m->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IBV_QP_PATH_MIG_STATE)
		m->path_mig_state = a->path_mig_state;
	if (mask & IBV_QP_DEST_QPN)
		m->dest_qp_num = a->dest_qp_num;
}

/*
 * The kernel's modify request from the public attr and mask. The mask
 * bits are the kernel's own (IB_QP_*), so they pass unchanged. Fields
 * outside the mask stay as the provider left them, as rdma-core 44 sends
 * them: the kernel reads only what the mask names. The reserved bytes
 * go as zero.
 */
static void modify_to_kern(struct ib_uverbs_modify_qp *m, struct ibv_qp *qp,
			   const struct ibv_qp_attr *a, int mask)
{
	m->qp_handle = qp->handle;
	m->attr_mask = mask;
	memset(m->reserved, 0, sizeof(m->reserved));
	modify_scalars(m, a, mask);
	if (mask & IBV_QP_AV)
		AV_TO_KERN(&m->dest, &m->dest, &a->ah_attr);
	if (mask & IBV_QP_ALT_PATH) {
		m->alt_pkey_index = a->alt_pkey_index;
		m->alt_port_num = a->alt_port_num;
		m->alt_timeout = a->alt_timeout;
		AV_TO_KERN(&m->alt_dest, &m->alt_dest, &a->alt_ah_attr);
	}
}

/**
 * ibv_cmd_modify_qp - change a QP's attributes (provider helper)
 *
 * Write-only (MODIFY_QP). Mask bits the basic command cannot carry give
 * EOPNOTSUPP. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
				 int attr_mask, struct ibv_modify_qp *cmd,
				 size_t cmd_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_MODIFY_QP,
		KCMD_REQ(cmd, cmd_size),
	};

	if (attr_mask & ~QP_BASIC_ATTR_MASK)
		return with_errno(EOPNOTSUPP);
	modify_to_kern(&cmd->core_payload, qp, attr, attr_mask);
	return kcmd_write(qp->context, &w);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_qp);

/**
 * ibv_cmd_modify_qp_ex - change a QP's attributes, rate limit included
 *
 * Write-only (EX MODIFY_QP), with the kernel's extended response in
 * @resp. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr,
				    int attr_mask, struct ibv_modify_qp_ex *cmd,
				    size_t cmd_size,
				    struct ib_uverbs_ex_modify_qp_resp *resp,
				    size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_MODIFY_QP,
		.extended = true,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};

	modify_to_kern(&cmd->base, qp, attr, attr_mask);
	cmd->rate_limit = 0;
	cmd->reserved = 0;
	if (attr_mask & IBV_QP_RATE_LIMIT)
		cmd->rate_limit = attr->rate_limit;
	return kcmd_write(qp->context, &w);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_qp_ex);
