// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues: a receive queue of its own kind, shared with
 * the kernel like a QP's (rxe_qp.c posts into both). Growing one moves
 * it: MODIFY_SRQ carries the address of a struct mminfo the kernel
 * fills with where the queue now lives, and we map it again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

struct ibv_srq *rxe_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr)
{
	struct rxe_resp_create_srq resp = {};
	struct ibv_create_srq cmd;
	struct rxe_srq *srq = calloc(1, sizeof(*srq));
	int ret;

	if (!srq)
		return NULL;
	ret = ibv_cmd_create_srq(pd, &srq->vsrq.srq, attr, &cmd, sizeof(cmd),
				 &resp.ibv_resp, sizeof(resp));
	if (ret)
		goto err_free;
	srq->rq.max_sge = attr->attr.max_sge;
	ret = rxe_wq_map(&srq->rq, pd->context->cmd_fd, &resp.drv.mi,
			 sizeof(struct rxe_recv_wqe) +
				 srq->rq.max_sge * sizeof(struct rxe_sge));
	if (ret)
		goto err_destroy;
	srq->vsrq.srq_num = resp.drv.srq_num;
	return &srq->vsrq.srq;

err_destroy:
	ibv_cmd_destroy_srq(&srq->vsrq.srq);
err_free:
	free(srq);
	errno = ret;
	return NULL;
}

int rxe_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
		   int attr_mask)
{
	struct rxe_srq *srq = to_rxesrq(ibsrq);
	struct rxe_cmd_modify_srq cmd = {};
	struct mminfo mi = {};
	int ret;

	if (!(attr_mask & IBV_SRQ_MAX_WR))
		return ibv_cmd_modify_srq(ibsrq, attr, attr_mask, &cmd.ibv_cmd,
					  sizeof(cmd));
	/* Posters wait while the queue moves. */
	rxe_lock(&srq->rq.lock);
	cmd.drv.mmap_info_addr = (uintptr_t)&mi;
	ret = ibv_cmd_modify_srq(ibsrq, attr, attr_mask, &cmd.ibv_cmd,
				 sizeof(cmd));
	if (ret)
		goto out;
	/*
	 * Without the new queue's mapping the SRQ has none (hdr NULL), and
	 * posts fail with EIO until a later resize maps one or the SRQ is
	 * destroyed.
	 */
	ret = rxe_queue_remap(&srq->rq.q, ibsrq->context->cmd_fd, &mi,
			      sizeof(struct rxe_recv_wqe) +
				      srq->rq.max_sge * sizeof(struct rxe_sge));
	if (ret)
		verbs_err(
			verbs_get_ctx(ibsrq->context),
			"SRQ resized but its new queue not mapped (%s): posts fail until a resize maps one\n",
			strerror(ret));
out:
	rxe_unlock(&srq->rq.lock);
	return ret;
}

int rxe_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	struct ibv_query_srq cmd;

	return ibv_cmd_query_srq(ibsrq, attr, &cmd, sizeof(cmd));
}

int rxe_destroy_srq(struct ibv_srq *ibsrq)
{
	struct rxe_srq *srq = to_rxesrq(ibsrq);
	int ret = ibv_cmd_destroy_srq(ibsrq);

	if (ret)
		return ret;
	rxe_wq_unmap(&srq->rq);
	free(srq);
	return 0;
}
