// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs. rdma_rxe shares the send and the receive queue with us
 * (rxe_queue.h): we are their producer, filling a struct rxe_send_wqe
 * or struct rxe_recv_wqe (<rdma/rdma_user_rxe.h>) per slot and moving
 * the producer index; the kernel consumes them. The send queue's
 * doorbell is a POST_SEND command with no work request; the receive
 * queue needs none, the kernel reads it when a packet arrives.
 *
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

void rxe_wq_unmap(struct rxe_wq *wq)
{
	if (!wq->q.hdr)
		return; /* a QP on an SRQ has no receive queue */
	rxe_queue_unmap(&wq->q);
}

/* @wq's lock is free: the queue is part of a zeroed allocation. */
int rxe_wq_map(struct rxe_wq *wq, int cmd_fd, const struct mminfo *mi,
	       size_t min_elem)
{
	return rxe_queue_map(&wq->q, cmd_fd, mi, min_elem);
}

/*
 * Maps the two queues CREATE_QP answered, whose slots must hold the
 * caps the kernel granted (@cap, as the core wrote them back).
 */
int rxe_qp_map(struct rxe_qp *qp, int fd, const struct rxe_create_qp_resp *drv,
	       const struct ibv_qp_cap *cap, bool srq)
{
	size_t sq_bytes;
	int ret;

	qp->sq.max_sge = cap->max_send_sge;
	qp->sq.max_inline = cap->max_inline_data;
	qp->rq.max_sge = cap->max_recv_sge;
	/*
	 * The receive queue first, as Debian's librxe maps them; a QP on an
	 * SRQ has none (the kernel answers an empty mminfo).
	 */
	if (!srq) {
		ret = rxe_wq_map(&qp->rq, fd, &drv->rq_mi,
				 sizeof(struct rxe_recv_wqe) +
					 qp->rq.max_sge *
						 sizeof(struct rxe_sge));
		if (ret)
			return ret;
	}
	sq_bytes = qp->sq.max_sge * sizeof(struct rxe_sge);
	if (sq_bytes < qp->sq.max_inline)
		sq_bytes = qp->sq.max_inline;
	ret = rxe_wq_map(&qp->sq, fd, &drv->sq_mi,
			 sizeof(struct rxe_send_wqe) + sq_bytes);
	if (ret)
		rxe_wq_unmap(&qp->rq);
	return ret;
}

struct ibv_qp *rxe_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct rxe_resp_create_qp resp = {};
	struct ibv_create_qp cmd;
	struct rxe_qp *qp;
	int ret;

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (ret)
		goto err_free;
	ret = rxe_qp_map(qp, pd->context->cmd_fd, &resp.drv, &attr->cap,
			 attr->srq != NULL);
	if (ret)
		goto err_destroy;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	free(qp);
	errno = ret;
	return NULL;
}

/*
 * The state is recorded under the send queue's lock, in the same
 * critical section as the command: a poster, who holds that lock
 * anyway, sees the kernel's state as of the last modify, and no modify
 * lands between its check and what it does on the strength of it (a
 * doorbell, a flush of receives). The posts pay no lock of their own.
 */
int rxe_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct rxe_qp *qp = to_rxeqp(ibqp);
	struct ibv_modify_qp cmd = {};
	int ret;

	rxe_lock(&qp->sq.lock);
	ret = ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
	if (!ret && attr_mask & IBV_QP_STATE)
		atomic_store_explicit(&qp->state, (int)attr->qp_state,
				      memory_order_relaxed);
	rxe_unlock(&qp->sq.lock);
	return ret;
}

int rxe_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask,
		 struct ibv_qp_init_attr *init_attr)
{
	struct ibv_query_qp cmd;

	return ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr, &cmd,
				sizeof(cmd));
}

/*
 * A type 1 MW is bound by a BIND_MW work request on the QP's send queue,
 * with the MW's next rkey, which the MW takes once the WR is posted.
 */
int rxe_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		struct ibv_mw_bind *bind)
{
	struct ibv_send_wr wr = {
		.wr_id = bind->wr_id,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = bind->send_flags,
		.bind_mw = { .mw = mw,
			     .rkey = ibv_inc_rkey(mw->rkey),
			     .bind_info = bind->bind_info },
	};
	struct ibv_send_wr *bad;
	int ret;

	if (mw->type != IBV_MW_TYPE_1)
		return EINVAL;
	ret = rxe_post_send(ibqp, &wr, &bad);
	if (!ret)
		mw->rkey = wr.bind_mw.rkey;
	return ret;
}

int rxe_attach_mcast(struct ibv_qp *ibqp, const union ibv_gid *gid,
		     uint16_t lid)
{
	return ibv_cmd_attach_mcast(ibqp, gid, lid);
}

int rxe_detach_mcast(struct ibv_qp *ibqp, const union ibv_gid *gid,
		     uint16_t lid)
{
	return ibv_cmd_detach_mcast(ibqp, gid, lid);
}

int rxe_destroy_qp(struct ibv_qp *ibqp)
{
	struct rxe_qp *qp = to_rxeqp(ibqp);
	int ret = ibv_cmd_destroy_qp(ibqp);

	if (ret)
		return ret;
	rxe_wq_unmap(&qp->rq);
	rxe_wq_unmap(&qp->sq);
	free(qp);
	return 0;
}

/*
 * The next free slot of a queue we produce into, or NULL when it is
 * full. Acquire on the consumer index pairs with the kernel's release
 * store of it after it finished reading the slot: the slot is ours to
 * overwrite. The producer index is ours alone, under the queue's lock.
 */
static inline void *rxe_wq_next(struct rxe_wq *wq, uint32_t *prod)
{
	struct rxe_qhdr *hdr = wq->q.hdr;
	uint32_t cons;

	*prod = atomic_load_explicit(&hdr->producer_index,
				     memory_order_relaxed);
	cons = atomic_load_explicit(&hdr->consumer_index, memory_order_acquire);
	if (((*prod + 1) & wq->q.mask) == cons)
		return NULL;
	return rxe_queue_slot(&wq->q, *prod);
}

/*
 * Release pairs with the kernel's acquire load of the producer index:
 * the slots we filled are whole before it sees them.
 */
static inline void rxe_wq_publish(struct rxe_wq *wq, uint32_t prod)
{
	atomic_store_explicit(&wq->q.hdr->producer_index, prod & wq->q.mask,
			      memory_order_release);
}

#define RXE_SGE_SAME(f)                                                 \
	static_assert(offsetof(struct ibv_sge, f) ==                    \
				      offsetof(struct rxe_sge, f) &&    \
			      sizeof(((struct ibv_sge *)0)->f) ==       \
				      sizeof(((struct rxe_sge *)0)->f), \
		      "ibv_sge." #f " where the kernel's rxe_sge has it")
RXE_SGE_SAME(addr);
RXE_SGE_SAME(length);
RXE_SGE_SAME(lkey);
static_assert(sizeof(struct ibv_sge) == sizeof(struct rxe_sge),
	      "an ibv_sge is one rxe_sge");

/*
 * The gather list, or the bytes it names when the WR is inline. Inlined
 * into each poster, so that a receive (never inline) carries no inline
 * branch and no call: a per-WR cost the counts showed.
 */
static inline __attribute__((always_inline)) int
rxe_fill_dma(struct rxe_dma_info *dma, const struct ibv_sge *sg, int num_sge,
	     bool inline_data, uint32_t max_sge, uint32_t max_inline)
{
	uint32_t len = 0;

	if (num_sge < 0)
		return EINVAL;
	if (inline_data) {
		uint8_t *p = dma->inline_data;

		/*
		 * One entry, the common case, is one copy with nothing else
		 * live across the call: the loop's state costs spills.
		 */
		if (__builtin_expect(num_sge == 1, 1)) {
			len = sg->length;
			if (len > max_inline)
				return EINVAL;
			memcpy(p, (void *)(uintptr_t)sg->addr, len);
			num_sge = 0; /* the loop has nothing left to do */
			dma->num_sge = 1;
		} else {
			dma->num_sge = (uint32_t)num_sge;
		}
		for (int i = 0; i < num_sge; i++) {
			/* Not len + length: a hostile length wraps it. */
			if (sg[i].length > max_inline - len)
				return EINVAL;
			memcpy(p + len, (void *)(uintptr_t)sg[i].addr,
			       sg[i].length);
			len += sg[i].length;
		}
		/* dma->num_sge: the WR's count, as Debian's librxe leaves it. */
	} else {
		if ((uint32_t)num_sge > max_sge)
			return EINVAL;
		/*
		 * One 16-byte move an entry: the layouts are one (above). A
		 * total past 32 bits would reach the kernel wrapped, as a
		 * shorter message that completes successfully.
		 */
		for (int i = 0; i < num_sge; i++) {
			memcpy(&dma->sge[i], &sg[i], sizeof(sg[i]));
			if (__builtin_add_overflow(len, sg[i].length, &len))
				return EINVAL;
		}
		dma->num_sge = (uint32_t)num_sge;
	}
	dma->length = len;
	dma->resid = len;
	return 0;
}

/*
 * Clears a send WQE with thirteen 16-byte stores. memset() of its 208
 * bytes compiles to `rep stos`, which costs a setup and one instruction
 * per 8 bytes: twice the count (seen with callgrind). A slot is at
 * least 256-byte aligned (a power-of-two slot size past the 384-byte
 * header), so the stores are aligned. Written out, as a loop would be
 * turned back into memset().
 */
typedef uint8_t rxe_v16 __attribute__((vector_size(16)));
static_assert(sizeof(struct rxe_send_wqe) == 13 * sizeof(rxe_v16),
	      "a send WQE is thirteen 16-byte blocks");
static_assert(offsetof(struct rxe_qhdr, data) % sizeof(rxe_v16) == 0,
	      "the slots start 16-byte aligned");

static inline void rxe_clear_send_wqe(struct rxe_send_wqe *wqe)
{
	rxe_v16 *v = (rxe_v16 *)(void *)wqe;
	const rxe_v16 z = { 0 };

	v[0] = z;
	v[1] = z;
	v[2] = z;
	v[3] = z;
	v[4] = z;
	v[5] = z;
	v[6] = z;
	v[7] = z;
	v[8] = z;
	v[9] = z;
	v[10] = z;
	v[11] = z;
	v[12] = z;
}

static int rxe_fill_send(struct rxe_qp *qp, struct rxe_send_wqe *wqe,
			 const struct ibv_send_wr *wr)
{
	struct rxe_send_wr *k = &wqe->wr;

	if (!rxe_op_ok(qp->vqp.qp.qp_type, wr->opcode))
		return EINVAL;
	rxe_clear_send_wqe(wqe);
	k->wr_id = wr->wr_id;
	/* IBV_WR_* and IBV_SEND_* are the kernel's IB_UVERBS values. */
	k->opcode = wr->opcode;
	k->send_flags = wr->send_flags;
	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		k->ex.imm_data = wr->imm_data;
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		k->ex.invalidate_rkey = wr->invalidate_rkey;
		break;
	case IBV_WR_BIND_MW:
		/*
		 * The MW by its current rkey, the key it gets, and the MR
		 * range it opens.
		 */
		if (!wr->bind_mw.mw)
			return EINVAL;
		k->wr.mw.addr = wr->bind_mw.bind_info.addr;
		k->wr.mw.length = wr->bind_mw.bind_info.length;
		k->wr.mw.mr_lkey = wr->bind_mw.bind_info.mr ?
					   wr->bind_mw.bind_info.mr->lkey :
					   0;
		k->wr.mw.mw_rkey = wr->bind_mw.mw->rkey;
		k->wr.mw.rkey = wr->bind_mw.rkey;
		k->wr.mw.access = wr->bind_mw.bind_info.mw_access_flags;
		return 0;
	case IBV_WR_SEND:
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		break;
	default:
		return EINVAL;
	}
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		k->wr.rdma.remote_addr = wr->wr.rdma.remote_addr;
		k->wr.rdma.rkey = wr->wr.rdma.rkey;
		wqe->iova = wr->wr.rdma.remote_addr;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		k->wr.atomic.remote_addr = wr->wr.atomic.remote_addr;
		k->wr.atomic.compare_add = wr->wr.atomic.compare_add;
		k->wr.atomic.swap = wr->wr.atomic.swap;
		k->wr.atomic.rkey = wr->wr.atomic.rkey;
		wqe->iova = wr->wr.atomic.remote_addr;
		break;
	default:
		break;
	}
	if (qp->vqp.qp.qp_type == IBV_QPT_UD) {
		if (!wr->wr.ud.ah)
			return EINVAL;
		k->wr.ud.remote_qpn = wr->wr.ud.remote_qpn;
		k->wr.ud.remote_qkey = wr->wr.ud.remote_qkey;
		rxe_ud_dest(k, to_rxeah(wr->wr.ud.ah));
	}
	if (wr->opcode == IBV_WR_LOCAL_INV)
		return 0;
	return rxe_fill_dma(&wqe->dma, wr->sg_list, wr->num_sge,
			    wr->send_flags & IBV_SEND_INLINE &&
				    rxe_op_inline(wr->opcode),
			    qp->sq.max_sge, qp->sq.max_inline);
}

/* The send queue's doorbell: POST_SEND with no work request. */
int rxe_ring_sq(struct rxe_qp *qp)
{
	struct ibv_send_wr *bad;

	return ibv_cmd_post_send(&qp->vqp.qp, NULL, &bad);
}

int rxe_sq_refused(struct rxe_qp *qp, uint32_t first, uint32_t ssn, int ret)
{
	struct rxe_qhdr *hdr = qp->sq.q.hdr;
	uint32_t mask = qp->sq.q.mask;
	uint32_t ours = (atomic_load_explicit(&hdr->producer_index,
					      memory_order_relaxed) -
			 first) &
			mask;
	uint32_t taken = (atomic_load_explicit(&hdr->consumer_index,
					       memory_order_relaxed) -
			  first) &
			 mask;

	/* taken in 1..ours: the kernel's index has moved into ours. */
	if (ret != EIO && (ret != EINVAL || (taken && taken <= ours))) {
		verbs_info(
			verbs_get_ctx(qp->vqp.qp.context),
			"QP 0x%x: send doorbell failed (%s), WQEs left posted\n",
			qp->vqp.qp.qp_num, strerror(ret));
		return 0;
	}
	/* No kernel reader to order against: relaxed. */
	atomic_store_explicit(&hdr->producer_index, first,
			      memory_order_relaxed);
	qp->ssn = ssn;
	verbs_info(verbs_get_ctx(qp->vqp.qp.context),
		   "QP 0x%x: send doorbell refused (%s), WQEs withdrawn\n",
		   qp->vqp.qp.qp_num, strerror(ret));
	return ret;
}

const char *rxe_opcode_name(enum ibv_wr_opcode op)
{
	static const char *const names[] = {
		[IBV_WR_RDMA_WRITE] = "RDMA_WRITE",
		[IBV_WR_RDMA_WRITE_WITH_IMM] = "RDMA_WRITE_WITH_IMM",
		[IBV_WR_SEND] = "SEND",
		[IBV_WR_SEND_WITH_IMM] = "SEND_WITH_IMM",
		[IBV_WR_RDMA_READ] = "RDMA_READ",
		[IBV_WR_ATOMIC_CMP_AND_SWP] = "ATOMIC_CMP_AND_SWP",
		[IBV_WR_ATOMIC_FETCH_AND_ADD] = "ATOMIC_FETCH_AND_ADD",
		[IBV_WR_LOCAL_INV] = "LOCAL_INV",
		[IBV_WR_BIND_MW] = "BIND_MW",
		[IBV_WR_SEND_WITH_INV] = "SEND_WITH_INV",
		[IBV_WR_TSO] = "TSO",
		[IBV_WR_DRIVER1] = "DRIVER1",
		[IBV_WR_FLUSH] = "FLUSH",
		[IBV_WR_ATOMIC_WRITE] = "ATOMIC_WRITE",
	};

	if ((unsigned int)op < sizeof(names) / sizeof(names[0]) && names[op])
		return names[op];
	return "unknown";
}

const char *rxe_qp_type_name(enum ibv_qp_type type)
{
	switch (type) {
	case IBV_QPT_RC:
		return "RC";
	case IBV_QPT_UC:
		return "UC";
	case IBV_QPT_UD:
		return "UD";
	default:
		return "other";
	}
}

/*
 * Why a work request was refused, at VERBS_LOG_LEVEL=3 and above. Only
 * the failing path calls it, after the fact.
 */
static void __attribute__((cold, noinline))
rxe_explain_send(struct rxe_qp *qp, const struct ibv_send_wr *wr, int ret)
{
	struct verbs_context *vctx = verbs_get_ctx(qp->vqp.qp.context);
	uint32_t num = qp->vqp.qp.qp_num;
	bool inl = wr->send_flags & IBV_SEND_INLINE &&
		   rxe_op_inline(wr->opcode);
	enum ibv_qp_type type = qp->vqp.qp.qp_type;
	uint32_t len = 0;

	for (int i = 0; wr->sg_list && i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (ret == ENOMEM)
		verbs_info(vctx, "QP 0x%x: send queue full (%u WRs)\n", num,
			   qp->sq.q.mask);
	else if (!rxe_op_ok(type, wr->opcode)) /* wrong in any state */
		verbs_info(vctx, "QP 0x%x: opcode %s (%d) refused on a %s QP\n",
			   num, rxe_opcode_name(wr->opcode), wr->opcode,
			   rxe_qp_type_name(type));
	else if (!rxe_sq_ready(qp))
		verbs_info(vctx, "QP 0x%x: no sends below RTS\n", num);
	else if (inl && len > qp->sq.max_inline)
		verbs_info(vctx, "QP 0x%x: %u bytes inline, the limit is %u\n",
			   num, len, qp->sq.max_inline);
	else if (!inl &&
		 (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->sq.max_sge))
		verbs_info(vctx, "QP 0x%x: %d SGEs, the limit is %u\n", num,
			   wr->num_sge, qp->sq.max_sge);
	else if (wr->opcode == IBV_WR_FLUSH ||
		 wr->opcode == IBV_WR_ATOMIC_WRITE)
		/* struct ibv_send_wr has no fields for their arguments. */
		verbs_info(vctx, "QP 0x%x: %s is posted by ibv_wr_*() only\n",
			   num, rxe_opcode_name(wr->opcode));
	else if (type == IBV_QPT_UD && !wr->wr.ud.ah)
		verbs_info(vctx, "QP 0x%x: UD send without an AH\n", num);
	else
		verbs_info(vctx, "QP 0x%x: %s refused (%s)\n", num,
			   rxe_opcode_name(wr->opcode),
			   wr->opcode == IBV_WR_BIND_MW ? "no MW" : "invalid");
}

static void __attribute__((cold, noinline))
rxe_explain_recv(struct ibv_context *ctx, const char *what, uint32_t num,
		 const struct rxe_wq *wq, const struct ibv_recv_wr *wr, int ret)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);

	if (ret == ENOMEM)
		verbs_info(vctx, "%s 0x%x: receive queue full (%u WRs)\n", what,
			   num, wq->q.mask);
	else if (ret == EIO)
		verbs_info(vctx, "%s 0x%x: no queue mapped since its resize\n",
			   what, num);
	else
		verbs_info(vctx, "%s 0x%x: %d SGEs, the limit is %u\n", what,
			   num, wr->num_sge, wq->max_sge);
}

int rxe_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rxeqp(ibqp);
	struct ibv_send_wr *head = wr;
	uint32_t first, ssn, prod;
	int ret = 0;

	/*
	 * Held to the doorbell's answer: no modify (it takes this lock too)
	 * may change what the check below found before the kernel has
	 * judged the doorbell.
	 */
	rxe_lock(&qp->sq.lock);
	if (__builtin_expect(!rxe_sq_ready(qp), 0)) {
		ret = EINVAL;
		goto out;
	}
	first = atomic_load_explicit(&qp->sq.q.hdr->producer_index,
				     memory_order_relaxed);
	ssn = qp->ssn;
	for (; wr; wr = wr->next) {
		struct rxe_send_wqe *wqe = rxe_wq_next(&qp->sq, &prod);

		if (!wqe) {
			ret = ENOMEM;
			break;
		}
		ret = rxe_fill_send(qp, wqe, wr);
		if (ret)
			break;
		/* Numbered only once it is sure to be posted. */
		wqe->ssn = qp->ssn++;
		rxe_wq_publish(&qp->sq, prod + 1);
	}
	if (wr != head) {
		int db = rxe_sq_doorbell(qp, first, ssn);

		if (db) {
			/* Withdrawn: the whole list failed, from its first. */
			rxe_unlock(&qp->sq.lock);
			*bad_wr = head;
			return db;
		}
	}
out:
	rxe_unlock(&qp->sq.lock);
	if (ret) {
		*bad_wr = wr;
		rxe_explain_send(qp, wr, ret);
	}
	return ret;
}

/* rxe_wq_post_recv(), inlined into the two verbs that post receives. */
static inline __attribute__((always_inline)) int
wq_post_recv(struct rxe_wq *wq, struct ibv_recv_wr *wr,
	     struct ibv_recv_wr **bad_wr)
{
	uint32_t prod;
	int ret = 0;

	rxe_lock(&wq->lock);
	/* An SRQ whose resize could not map its new queue (rxe_srq.c). */
	if (__builtin_expect(!wq->q.hdr, 0))
		ret = EIO;
	for (; !ret && wr; wr = wr->next) {
		struct rxe_recv_wqe *wqe = rxe_wq_next(wq, &prod);

		if (!wqe) {
			ret = ENOMEM;
			break;
		}
		memset(wqe, 0, sizeof(*wqe));
		wqe->wr_id = wr->wr_id;
		ret = rxe_fill_dma(&wqe->dma, wr->sg_list, wr->num_sge, false,
				   wq->max_sge, 0);
		if (ret)
			break;
		rxe_wq_publish(wq, prod + 1);
	}
	rxe_unlock(&wq->lock);
	if (ret)
		*bad_wr = wr;
	return ret;
}

int rxe_wq_post_recv(struct rxe_wq *wq, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad_wr)
{
	return wq_post_recv(wq, wr, bad_wr);
}

/*
 * A QP in ERROR: rdma_rxe flushes its receive queue only when the
 * responder runs, which nothing does for receives posted after the
 * move (seen in the VM: they stayed in the queue). An empty POST_RECV
 * does not help (the kernel answers EOPNOTSUPP for a user QP); moving
 * the QP to ERROR again runs the responder, which flushes them.
 */
static void __attribute__((cold, noinline)) rxe_kick_rq(struct rxe_qp *qp)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp *ibqp = &qp->vqp.qp;
	struct ibv_modify_qp cmd = {};
	int ret = 0;

	/*
	 * Judged again under the lock, so that no modify lands between the
	 * check and the command: a QP another thread has just reset must
	 * not be sent back to ERROR (its next move to INIT would fail).
	 */
	rxe_lock(&qp->sq.lock);
	if (atomic_load_explicit(&qp->state, memory_order_relaxed) ==
	    IBV_QPS_ERR)
		ret = ibv_cmd_modify_qp(ibqp, &attr, IBV_QP_STATE, &cmd,
					sizeof(cmd));
	rxe_unlock(&qp->sq.lock);
	if (ret)
		verbs_info(verbs_get_ctx(ibqp->context),
			   "QP 0x%x: flushing its receives failed: %s\n",
			   ibqp->qp_num, strerror(ret));
}

int rxe_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rxeqp(ibqp);
	int ret;

	if (!qp->rq.q.hdr) { /* on an SRQ */
		*bad_wr = wr;
		verbs_info(verbs_get_ctx(ibqp->context),
			   "QP 0x%x: receives go to its SRQ\n", ibqp->qp_num);
		return EINVAL;
	}
	/*
	 * A QP in RESET takes no receive (IBTA: an immediate error), as
	 * Debian's librxe also refuses it.
	 */
	if (atomic_load_explicit(&qp->state, memory_order_relaxed) ==
	    IBV_QPS_RESET) {
		*bad_wr = wr;
		verbs_info(verbs_get_ctx(ibqp->context),
			   "QP 0x%x: no receives in the RESET state\n",
			   ibqp->qp_num);
		return EINVAL;
	}
	ret = wq_post_recv(&qp->rq, wr, bad_wr);
	if (ret)
		rxe_explain_recv(ibqp->context, "QP", ibqp->qp_num, &qp->rq,
				 *bad_wr, ret);
	if (atomic_load_explicit(&qp->state, memory_order_relaxed) ==
	    IBV_QPS_ERR)
		rxe_kick_rq(qp);
	return ret;
}

int rxe_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr)
{
	struct rxe_srq *srq = to_rxesrq(ibsrq);
	int ret = wq_post_recv(&srq->rq, wr, bad_wr);

	if (ret)
		rxe_explain_recv(ibsrq->context, "SRQ", srq->vsrq.srq_num,
				 &srq->rq, *bad_wr, ret);
	return ret;
}
