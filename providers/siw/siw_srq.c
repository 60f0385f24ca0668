// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's shared receive queues. CREATE_SRQ answers the depth (a power of
 * two) and the key of the ring (struct siw_uresp_create_srq): num_rqe
 * struct siw_rqe mapped from cmd_fd, posted into the way a QP's RQ is
 * (siw_post_rqes()). The limit is the kernel's to watch, set through
 * MODIFY_SRQ; it raises IBV_EVENT_SRQ_LIMIT_REACHED.
 */
#include <errno.h>
#include <stdlib.h>

#include "siw.h"
#include "siw_abi.h"

struct ibv_srq *siw_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr)
{
	struct ibv_create_srq cmd = {};
	struct siw_resp_create_srq resp = {};
	struct siw_srq *srq;
	int ret;

	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return NULL;
	ret = ibv_cmd_create_srq(pd, &srq->vsrq.srq, attr, &cmd, sizeof(cmd),
				 &resp.ibv_resp, sizeof(resp));
	if (ret) {
		if (ret == EINVAL)
			siw_explain_create(pd->context, "create_srq",
					   attr->attr.max_wr,
					   attr->attr.max_sge, 0);
		goto err_free;
	}
	srq->rq.max_sge = attr->attr.max_sge;
	ret = siw_wq_map(&srq->rq, pd->context->cmd_fd, resp.drv.num_rqe,
			 sizeof(struct siw_rqe), resp.drv.srq_key);
	if (ret)
		goto err_destroy;
	return &srq->vsrq.srq;

err_destroy:
	ibv_cmd_destroy_srq(&srq->vsrq.srq);
err_free:
	free(srq);
	errno = ret;
	return NULL;
}

int siw_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
	struct ibv_modify_srq cmd = {};

	return ibv_cmd_modify_srq(srq, attr, mask, &cmd, sizeof(cmd));
}

int siw_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct ibv_query_srq cmd = {};

	return ibv_cmd_query_srq(srq, attr, &cmd, sizeof(cmd));
}

int siw_destroy_srq(struct ibv_srq *ibsrq)
{
	struct siw_srq *srq = to_siwsrq(ibsrq);
	int ret = ibv_cmd_destroy_srq(ibsrq);

	if (ret)
		return ret;
	siw_wq_unmap(&srq->rq);
	free(srq);
	return 0;
}

int siw_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr)
{
	return siw_post_rqes(to_siwctx(srq->context), "post_srq_recv",
			     &to_siwsrq(srq)->rq, wr, bad_wr);
}
