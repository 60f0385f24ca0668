// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues. rdma_rxe writes each completion of a user CQ as a
 * struct ib_uverbs_wc (<rdma/ib_user_verbs.h>) into a slot of a queue
 * it shares with us (rxe_queue.h), advancing the producer index; we
 * read the slots and advance the consumer index. Arming goes through
 * the core's REQ_NOTIFY_CQ command.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

struct ibv_cq *rxe_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct rxe_resp_create_cq resp = {};
	struct ibv_create_cq cmd;
	struct rxe_cq *cq = calloc(1, sizeof(*cq));
	int ret;

	if (!cq)
		return NULL;
	ret = ibv_cmd_create_cq(ctx, cqe, channel, comp_vector, &cq->vcq.cq,
				&cmd, sizeof(cmd), &resp.ibv_resp,
				sizeof(resp));
	if (ret)
		goto err_free;
	ret = rxe_queue_map(&cq->q, ctx->cmd_fd, &resp.drv.mi,
			    sizeof(struct ib_uverbs_wc));
	if (ret)
		goto err_destroy;
	return &cq->vcq.cq;

err_destroy:
	ibv_cmd_destroy_cq(&cq->vcq.cq);
err_free:
	free(cq);
	errno = ret;
	return NULL;
}

int rxe_destroy_cq(struct ibv_cq *ibcq)
{
	struct rxe_cq *cq = to_rxecq(ibcq);
	int ret = ibv_cmd_destroy_cq(ibcq);

	if (ret)
		return ret;
	rxe_queue_unmap(&cq->q);
	free(cq);
	return 0;
}

/*
 * The kernel moves the entries to a queue of the new size and answers
 * where to map it; pollers wait on the lock while the queue changes.
 * Once the command succeeded, the kernel writes only the new queue: if
 * that cannot be mapped, the old mapping is let go rather than kept,
 * and the CQ is left without a queue (cq->q.hdr NULL), polls failing
 * with EIO, until a later resize maps one or the CQ is destroyed.
 */
int rxe_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct rxe_cq *cq = to_rxecq(ibcq);
	struct rxe_resp_resize_cq resp = {};
	struct ibv_resize_cq cmd;
	int ret;

	rxe_lock(&cq->lock);
	ret = ibv_cmd_resize_cq(ibcq, cqe, &cmd, sizeof(cmd), &resp.ibv_resp,
				sizeof(resp));
	if (ret)
		goto out;
	ret = rxe_queue_remap(&cq->q, ibcq->context->cmd_fd, &resp.drv.mi,
			      sizeof(struct ib_uverbs_wc));
	if (ret)
		verbs_err(
			verbs_get_ctx(ibcq->context),
			"CQ resized but its new queue not mapped (%s): polls fail until a resize maps one\n",
			strerror(ret));
out:
	rxe_unlock(&cq->lock);
	return ret;
}

int rxe_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	return ibv_cmd_req_notify_cq(ibcq, solicited_only);
}

/*
 * The kernel's completion in the core's. struct ib_uverbs_wc and struct
 * ibv_wc have one layout (the assertions check each field) and the
 * opcode values are the verbs API's: one block copy, three vector moves
 * rather than a store per field, then the two flag bits that differ
 * (rxe_wc_flags()). The kernel's last two bytes (port_num, reserved)
 * land in the padding of struct ibv_wc.
 */
#define RXE_WC_SAME(f, k)                                                    \
	static_assert(offsetof(struct ibv_wc, f) ==                          \
				      offsetof(struct ib_uverbs_wc, k) &&    \
			      sizeof(((struct ibv_wc *)0)->f) ==             \
				      sizeof(((struct ib_uverbs_wc *)0)->k), \
		      "ibv_wc." #f " where the kernel has " #k)
RXE_WC_SAME(wr_id, wr_id);
RXE_WC_SAME(status, status);
RXE_WC_SAME(opcode, opcode);
RXE_WC_SAME(vendor_err, vendor_err);
RXE_WC_SAME(byte_len, byte_len);
RXE_WC_SAME(imm_data, ex.imm_data);
RXE_WC_SAME(qp_num, qp_num);
RXE_WC_SAME(src_qp, src_qp);
RXE_WC_SAME(wc_flags, wc_flags);
RXE_WC_SAME(pkey_index, pkey_index);
RXE_WC_SAME(slid, slid);
RXE_WC_SAME(sl, sl);
RXE_WC_SAME(dlid_path_bits, dlid_path_bits);
static_assert(sizeof(struct ibv_wc) == sizeof(struct ib_uverbs_wc),
	      "a kernel completion fills exactly one struct ibv_wc");

static inline void rxe_wc_from(struct ibv_wc *wc, const struct ib_uverbs_wc *k)
{
	memcpy(wc, k, sizeof(*wc));
	/* The flags are rewritten only when one of the two bits is set. */
	if (__builtin_expect(k->wc_flags & 0xc, 0))
		wc->wc_flags = rxe_wc_flags(k->wc_flags);
}

int rxe_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
	struct rxe_cq *cq = to_rxecq(ibcq);
	struct rxe_qhdr *hdr;
	uint32_t prod, cons, mask;
	unsigned int log2;
	int done = 0;

	rxe_lock(&cq->lock);
	hdr = cq->q.hdr; /* a resize may have moved it */
	if (__builtin_expect(!hdr, 0)) { /* or failed to map it */
		rxe_unlock(&cq->lock);
		return -EIO;
	}
	/* Only we write the consumer index, and we hold the lock. */
	cons = atomic_load_explicit(&hdr->consumer_index, memory_order_relaxed);
	/*
	 * Acquire pairs with the kernel's release store of the producer
	 * index after it filled the slot: the slots up to it are complete.
	 */
	prod = atomic_load_explicit(&hdr->producer_index, memory_order_acquire);
	if (cons == prod || n <= 0)
		goto out; /* an empty poll reads nothing more */
	/* In registers: the stores to @wc may alias the queue's fields. */
	mask = cq->q.mask;
	log2 = cq->q.log2_elem;
	/*
	 * The first completion apart, the one a poll for one takes: no loop
	 * bookkeeping for it.
	 */
	rxe_wc_from(wc, (const void *)(hdr->data + ((size_t)cons << log2)));
	cons = (cons + 1) & mask;
	for (done = 1; done < n && cons != prod; done++) {
		rxe_wc_from(&wc[done],
			    (const void *)(hdr->data + ((size_t)cons << log2)));
		cons = (cons + 1) & mask;
	}
	/*
	 * Release pairs with the kernel's acquire load of the consumer index
	 * before it reuses a slot: our reads of the slots come first.
	 */
	atomic_store_explicit(&hdr->consumer_index, cons, memory_order_release);
out:
	rxe_unlock(&cq->lock);
	return done;
}
