// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The extended CQ (ibv_create_cq_ex): the same shared queue as
 * rxe_cq.c's, read one completion at a time through ibv_start_poll(),
 * ibv_next_poll() and ibv_end_poll(), with the fields read on demand
 * from the slot in place. The CQ's lock is held from a successful
 * start_poll to end_poll, and the consumer index is published once, at
 * end_poll, for the whole batch.
 */
#include <errno.h>
#include <stdlib.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

static inline struct rxe_cq *to_rxecq_ex(struct ibv_cq_ex *cq_ex)
{
	return container_of(cq_ex, struct rxe_cq, vcq.cq_ex);
}

static inline const struct ib_uverbs_wc *rxe_cur(struct ibv_cq_ex *cq_ex)
{
	return to_rxecq_ex(cq_ex)->cur;
}

/* Makes the slot at cq->cons current, if the kernel has filled it. */
static inline int rxe_ex_load(struct rxe_cq *cq)
{
	const struct ib_uverbs_wc *wc;

	if (cq->cons == cq->prod) {
		/* Acquire: pairs with the kernel's release of the index. */
		cq->prod = atomic_load_explicit(&cq->q.hdr->producer_index,
						memory_order_acquire);
		if (cq->cons == cq->prod) {
			cq->cur = NULL;
			return ENOENT;
		}
	}
	wc = rxe_queue_slot(&cq->q, cq->cons);
	cq->cur = wc;
	cq->vcq.cq_ex.wr_id = wc->wr_id;
	cq->vcq.cq_ex.status = (enum ibv_wc_status)wc->status;
	return 0;
}

static int rxe_start_poll(struct ibv_cq_ex *cq_ex,
			  struct ibv_poll_cq_attr *attr)
{
	struct rxe_cq *cq = to_rxecq_ex(cq_ex);
	int ret;

	if (attr->comp_mask)
		return EINVAL;
	rxe_lock(&cq->lock);
	if (__builtin_expect(!cq->q.hdr, 0)) { /* rxe_resize_cq() */
		rxe_unlock(&cq->lock);
		return EIO;
	}
	/* Only we write the consumer index, and we hold the lock. */
	cq->cons = atomic_load_explicit(&cq->q.hdr->consumer_index,
					memory_order_relaxed);
	cq->prod = cq->cons;
	ret = rxe_ex_load(cq);
	/* No end_poll follows an empty start: let go here. */
	if (ret)
		rxe_unlock(&cq->lock);
	return ret;
}

static int rxe_next_poll(struct ibv_cq_ex *cq_ex)
{
	struct rxe_cq *cq = to_rxecq_ex(cq_ex);

	cq->cons = (cq->cons + 1) & cq->q.mask;
	return rxe_ex_load(cq);
}

static void rxe_end_poll(struct ibv_cq_ex *cq_ex)
{
	struct rxe_cq *cq = to_rxecq_ex(cq_ex);
	uint32_t cons = cq->cons;

	/*
	 * The completion handed out last, if the last next_poll found one,
	 * is consumed too. Release: our reads of the slots come before the
	 * kernel's acquire of the index lets it reuse them.
	 */
	if (cq->cur)
		cons = (cons + 1) & cq->q.mask;
	cq->cur = NULL;
	atomic_store_explicit(&cq->q.hdr->consumer_index, cons,
			      memory_order_release);
	rxe_unlock(&cq->lock);
}

static enum ibv_wc_opcode rxe_read_opcode(struct ibv_cq_ex *cq_ex)
{
	return (enum ibv_wc_opcode)rxe_cur(cq_ex)->opcode;
}

static uint32_t rxe_read_vendor_err(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->vendor_err;
}

static uint32_t rxe_read_byte_len(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->byte_len;
}

static __be32 rxe_read_imm_data(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->ex.imm_data;
}

static uint32_t rxe_read_qp_num(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->qp_num;
}

static uint32_t rxe_read_src_qp(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->src_qp;
}

static unsigned int rxe_read_wc_flags(struct ibv_cq_ex *cq_ex)
{
	return rxe_wc_flags(rxe_cur(cq_ex)->wc_flags);
}

static uint32_t rxe_read_slid(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->slid;
}

static uint8_t rxe_read_sl(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->sl;
}

static uint8_t rxe_read_dlid_path_bits(struct ibv_cq_ex *cq_ex)
{
	return rxe_cur(cq_ex)->dlid_path_bits;
}

struct ibv_cq_ex *rxe_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr)
{
	struct rxe_resp_create_cq_ex resp = {};
	struct ibv_create_cq_ex cmd;
	struct ibv_cq_ex *ex;
	struct rxe_cq *cq;
	int ret;

	/* rdma_rxe's completions carry no timestamp, VLAN or flow tag. */
	if (attr->wc_flags & ~(uint64_t)IBV_WC_STANDARD_FLAGS) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	ret = ibv_cmd_create_cq_ex(ctx, attr, NULL, &cq->vcq, &cmd, sizeof(cmd),
				   &resp.ibv_resp, sizeof(resp), 0);
	if (ret)
		goto err_free;
	ret = rxe_queue_map(&cq->q, ctx->cmd_fd, &resp.drv.mi,
			    sizeof(struct ib_uverbs_wc));
	if (ret)
		goto err_destroy;

	ex = &cq->vcq.cq_ex;
	ex->start_poll = rxe_start_poll;
	ex->next_poll = rxe_next_poll;
	ex->end_poll = rxe_end_poll;
	ex->read_opcode = rxe_read_opcode;
	ex->read_vendor_err = rxe_read_vendor_err;
	ex->read_wc_flags = rxe_read_wc_flags;
	if (attr->wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		ex->read_byte_len = rxe_read_byte_len;
	if (attr->wc_flags & IBV_WC_EX_WITH_IMM)
		ex->read_imm_data = rxe_read_imm_data;
	if (attr->wc_flags & IBV_WC_EX_WITH_QP_NUM)
		ex->read_qp_num = rxe_read_qp_num;
	if (attr->wc_flags & IBV_WC_EX_WITH_SRC_QP)
		ex->read_src_qp = rxe_read_src_qp;
	if (attr->wc_flags & IBV_WC_EX_WITH_SLID)
		ex->read_slid = rxe_read_slid;
	if (attr->wc_flags & IBV_WC_EX_WITH_SL)
		ex->read_sl = rxe_read_sl;
	if (attr->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		ex->read_dlid_path_bits = rxe_read_dlid_path_bits;
	return ex;

err_destroy:
	ibv_cmd_destroy_cq(&cq->vcq.cq);
err_free:
	free(cq);
	errno = ret;
	return NULL;
}
