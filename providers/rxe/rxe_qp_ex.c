// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The extended QP (ibv_create_qp_ex) and its work-request builders,
 * ibv_wr_*(): each builder takes the send queue's next slot and fills
 * it in place; the producer index is published, and the doorbell rung,
 * once, at ibv_wr_complete(). The SQ's lock is held from ibv_wr_start()
 * to ibv_wr_complete() or ibv_wr_abort(). A builder that cannot go on
 * (queue full, too many SGEs, inline data too long) records the first
 * error, which wr_complete returns after dropping the whole batch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

static inline struct rxe_qp *to_rxeqp_ex(struct ibv_qp_ex *qp_ex)
{
	return container_of(qp_ex, struct rxe_qp, vqp.qp_ex);
}

/* Records the batch's first error and why, for rxe_explain_wr(). */
static void __attribute__((cold, noinline))
rxe_wr_fail(struct rxe_qp *qp, enum rxe_wr_why why, uint32_t arg)
{
	qp->wr_err = why == RXE_WR_FULL ? ENOMEM : EINVAL;
	qp->wr_why = (uint8_t)why;
	qp->wr_arg = arg;
	qp->wr_cur = NULL;
}

/* Why ibv_wr_complete() refused the batch, at VERBS_LOG_LEVEL=3. */
static void __attribute__((cold, noinline)) rxe_explain_wr(struct rxe_qp *qp)
{
	struct verbs_context *vctx = verbs_get_ctx(qp->vqp.qp.context);
	uint32_t num = qp->vqp.qp.qp_num;

	switch (qp->wr_why) {
	case RXE_WR_FULL:
		verbs_info(vctx, "QP 0x%x: send queue full (%u WRs)\n", num,
			   qp->wr_arg);
		break;
	case RXE_WR_OPCODE:
		verbs_info(vctx, "QP 0x%x: opcode %s (%u) refused on a %s QP\n",
			   num, rxe_opcode_name((enum ibv_wr_opcode)qp->wr_arg),
			   qp->wr_arg, rxe_qp_type_name(qp->vqp.qp.qp_type));
		break;
	case RXE_WR_SGES:
		verbs_info(vctx, "QP 0x%x: %u SGEs, the limit is %u\n", num,
			   qp->wr_arg, qp->sq.max_sge);
		break;
	case RXE_WR_INLINE:
		verbs_info(vctx, "QP 0x%x: %u bytes inline, the limit is %u\n",
			   num, qp->wr_arg, qp->sq.max_inline);
		break;
	case RXE_WR_INLINE_OP:
		verbs_info(vctx, "QP 0x%x: %s takes no inline data\n", num,
			   rxe_opcode_name((enum ibv_wr_opcode)qp->wr_arg));
		break;
	case RXE_WR_STATE:
		verbs_info(vctx, "QP 0x%x: no sends below RTS\n", num);
		break;
	}
	verbs_info(vctx, "QP 0x%x: ibv_wr_complete() dropped the batch\n", num);
}

static void rxe_wr_start(struct ibv_qp_ex *qp_ex)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);

	rxe_lock(&qp->sq.lock);
	/* Only we write the producer index, and we hold the lock. */
	qp->wr_prod = atomic_load_explicit(&qp->sq.q.hdr->producer_index,
					   memory_order_relaxed);
	qp->wr_cur = NULL;
	qp->wr_err = 0;
	qp->wr_ssn = qp->ssn;
}

/* Takes the next slot for a WR of @opcode, or records why it cannot. */
static struct rxe_send_wqe *rxe_wr_new(struct ibv_qp_ex *qp_ex,
				       enum ibv_wr_opcode opcode)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);
	struct rxe_send_wqe *wqe;
	uint32_t cons;

	qp->wr_cur = NULL;
	if (qp->wr_err)
		return NULL;
	if (!rxe_op_ok(qp->vqp.qp.qp_type, opcode)) {
		rxe_wr_fail(qp, RXE_WR_OPCODE, opcode);
		return NULL;
	}
	/*
	 * Acquire: pairs with the kernel's release of the consumer index
	 * once it has read the slot, which is then ours to overwrite.
	 */
	cons = atomic_load_explicit(&qp->sq.q.hdr->consumer_index,
				    memory_order_acquire);
	if (((qp->wr_prod + 1) & qp->sq.q.mask) == cons) {
		rxe_wr_fail(qp, RXE_WR_FULL, qp->sq.q.mask);
		return NULL;
	}
	wqe = rxe_queue_slot(&qp->sq.q, qp->wr_prod);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = qp_ex->wr_id;
	wqe->wr.opcode = opcode;
	wqe->wr.send_flags = qp_ex->wr_flags;
	wqe->ssn = qp->ssn++;
	qp->wr_prod = (qp->wr_prod + 1) & qp->sq.q.mask;
	qp->wr_cur = wqe;
	return wqe;
}

static void rxe_wr_send(struct ibv_qp_ex *qp_ex)
{
	rxe_wr_new(qp_ex, IBV_WR_SEND);
}

static void rxe_wr_send_imm(struct ibv_qp_ex *qp_ex, __be32 imm)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, IBV_WR_SEND_WITH_IMM);

	if (wqe)
		wqe->wr.ex.imm_data = imm;
}

static void rxe_wr_send_inv(struct ibv_qp_ex *qp_ex, uint32_t rkey)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, IBV_WR_SEND_WITH_INV);

	if (wqe)
		wqe->wr.ex.invalidate_rkey = rkey;
}

static void rxe_wr_local_inv(struct ibv_qp_ex *qp_ex, uint32_t rkey)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, IBV_WR_LOCAL_INV);

	if (wqe)
		wqe->wr.ex.invalidate_rkey = rkey;
}

static struct rxe_send_wqe *rxe_wr_rdma(struct ibv_qp_ex *qp_ex,
					enum ibv_wr_opcode opcode,
					uint32_t rkey, uint64_t addr)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, opcode);

	if (wqe) {
		wqe->wr.wr.rdma.remote_addr = addr;
		wqe->wr.wr.rdma.rkey = rkey;
		wqe->iova = addr;
	}
	return wqe;
}

static void rxe_wr_rdma_write(struct ibv_qp_ex *qp_ex, uint32_t rkey,
			      uint64_t addr)
{
	rxe_wr_rdma(qp_ex, IBV_WR_RDMA_WRITE, rkey, addr);
}

static void rxe_wr_rdma_write_imm(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				  uint64_t addr, __be32 imm)
{
	struct rxe_send_wqe *wqe =
		rxe_wr_rdma(qp_ex, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr);

	if (wqe)
		wqe->wr.ex.imm_data = imm;
}

static void rxe_wr_rdma_read(struct ibv_qp_ex *qp_ex, uint32_t rkey,
			     uint64_t addr)
{
	rxe_wr_rdma(qp_ex, IBV_WR_RDMA_READ, rkey, addr);
}

static void rxe_wr_atomic(struct ibv_qp_ex *qp_ex, enum ibv_wr_opcode opcode,
			  uint32_t rkey, uint64_t addr, uint64_t compare_add,
			  uint64_t swap)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, opcode);

	if (!wqe)
		return;
	wqe->wr.wr.atomic.remote_addr = addr;
	wqe->wr.wr.atomic.compare_add = compare_add;
	wqe->wr.wr.atomic.swap = swap;
	wqe->wr.wr.atomic.rkey = rkey;
	wqe->iova = addr;
}

static void rxe_wr_atomic_cmp_swp(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				  uint64_t addr, uint64_t compare,
				  uint64_t swap)
{
	rxe_wr_atomic(qp_ex, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare,
		      swap);
}

static void rxe_wr_atomic_fetch_add(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				    uint64_t addr, uint64_t add)
{
	rxe_wr_atomic(qp_ex, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

/*
 * FLUSH and ATOMIC_WRITE go out only on a QP created for them, which
 * the kernel's capabilities decided (rxe_create_qp_ex()); otherwise the
 * batch fails as for an opcode the QP cannot carry.
 */
static struct rxe_send_wqe *rxe_wr_granted(struct ibv_qp_ex *qp_ex,
					   enum ibv_wr_opcode opcode,
					   uint64_t with)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);

	if (__builtin_expect(!(qp->send_ops & with), 0)) {
		if (!qp->wr_err)
			rxe_wr_fail(qp, RXE_WR_OPCODE, opcode);
		qp->wr_cur = NULL;
		return NULL;
	}
	return rxe_wr_new(qp_ex, opcode);
}

/* 8 bytes written at @addr in one piece; the value travels in the WQE. */
static void rxe_wr_atomic_write(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				uint64_t addr, const void *value)
{
	struct rxe_send_wqe *wqe = rxe_wr_granted(qp_ex, IBV_WR_ATOMIC_WRITE,
						  IBV_QP_EX_WITH_ATOMIC_WRITE);

	if (!wqe)
		return;
	wqe->wr.wr.rdma.remote_addr = addr;
	wqe->wr.wr.rdma.rkey = rkey;
	wqe->iova = addr;
	/* rdma_rxe's dma.atomic_wr: the place inline data would take. */
	memcpy(wqe->dma.inline_data, value, 8);
	wqe->dma.length = 8;
	wqe->dma.resid = 8;
}

/*
 * Makes @len bytes at @addr (or the whole MR, for IBV_FLUSH_MR) reach
 * the placement @type asks for. rdma_rxe takes the length the request
 * carries from dma.resid, and fills wr.flush.length for the record.
 */
static void rxe_wr_flush(struct ibv_qp_ex *qp_ex, uint32_t rkey, uint64_t addr,
			 size_t len, uint8_t type, uint8_t level)
{
	struct rxe_send_wqe *wqe =
		rxe_wr_granted(qp_ex, IBV_WR_FLUSH, IBV_QP_EX_WITH_FLUSH);
	struct rxe_flush_wr *f;

	if (!wqe)
		return;
	f = (struct rxe_flush_wr *)&wqe->wr.wr;
	f->remote_addr = addr;
	f->length = (uint32_t)len;
	f->rkey = rkey;
	f->type = type;
	f->level = level;
	wqe->iova = addr;
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
}

/* The MW by its current rkey, the key it gets, and the MR range. */
static void rxe_wr_bind_mw(struct ibv_qp_ex *qp_ex, struct ibv_mw *mw,
			   uint32_t rkey, const struct ibv_mw_bind_info *info)
{
	struct rxe_send_wqe *wqe = rxe_wr_new(qp_ex, IBV_WR_BIND_MW);

	if (!wqe)
		return;
	wqe->wr.wr.mw.addr = info->addr;
	wqe->wr.wr.mw.length = info->length;
	wqe->wr.wr.mw.mr_lkey = info->mr ? info->mr->lkey : 0;
	wqe->wr.wr.mw.mw_rkey = mw->rkey;
	wqe->wr.wr.mw.rkey = rkey;
	wqe->wr.wr.mw.access = info->mw_access_flags;
}

static void rxe_wr_set_ud_addr(struct ibv_qp_ex *qp_ex, struct ibv_ah *ah,
			       uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct rxe_send_wqe *wqe = to_rxeqp_ex(qp_ex)->wr_cur;

	if (!wqe)
		return;
	wqe->wr.wr.ud.remote_qpn = remote_qpn;
	wqe->wr.wr.ud.remote_qkey = remote_qkey;
	rxe_ud_dest(&wqe->wr, to_rxeah(ah));
}

static void rxe_wr_set_sge_list(struct ibv_qp_ex *qp_ex, size_t num_sge,
				const struct ibv_sge *sg)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);
	struct rxe_send_wqe *wqe = qp->wr_cur;
	uint32_t len = 0;

	if (!wqe)
		return;
	if (num_sge > qp->sq.max_sge) {
		rxe_wr_fail(qp, RXE_WR_SGES, (uint32_t)num_sge);
		return;
	}
	for (size_t i = 0; i < num_sge; i++) {
		wqe->dma.sge[i].addr = sg[i].addr;
		wqe->dma.sge[i].length = sg[i].length;
		wqe->dma.sge[i].lkey = sg[i].lkey;
		/* A total past 32 bits would reach the kernel wrapped. */
		if (__builtin_add_overflow(len, sg[i].length, &len)) {
			rxe_wr_fail(qp, RXE_WR_SGES, (uint32_t)num_sge);
			return;
		}
	}
	wqe->dma.num_sge = (uint32_t)num_sge;
	wqe->dma.length = len;
	wqe->dma.resid = len;
}

static void rxe_wr_set_sge(struct ibv_qp_ex *qp_ex, uint32_t lkey,
			   uint64_t addr, uint32_t length)
{
	struct ibv_sge sge = { .addr = addr, .length = length, .lkey = lkey };

	rxe_wr_set_sge_list(qp_ex, 1, &sge);
}

static void rxe_wr_set_inline_data_list(struct ibv_qp_ex *qp_ex, size_t num_buf,
					const struct ibv_data_buf *buf)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);
	struct rxe_send_wqe *wqe = qp->wr_cur;
	size_t len = 0;

	if (!wqe)
		return;
	if (!rxe_op_inline((enum ibv_wr_opcode)wqe->wr.opcode)) {
		rxe_wr_fail(qp, RXE_WR_INLINE_OP, wqe->wr.opcode);
		return;
	}
	for (size_t i = 0; i < num_buf; i++) {
		/* Not len + length: a hostile length wraps it. */
		if (buf[i].length > qp->sq.max_inline - len) {
			for (; i < num_buf; i++)
				len += buf[i].length;
			rxe_wr_fail(qp, RXE_WR_INLINE, (uint32_t)len);
			return;
		}
		memcpy(wqe->dma.inline_data + len, buf[i].addr, buf[i].length);
		len += buf[i].length;
	}
	/* The kernel takes the payload from the slot when it sees INLINE. */
	wqe->wr.send_flags |= IBV_SEND_INLINE;
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
}

static void rxe_wr_set_inline_data(struct ibv_qp_ex *qp_ex, void *addr,
				   size_t length)
{
	struct ibv_data_buf buf = { .addr = addr, .length = length };

	rxe_wr_set_inline_data_list(qp_ex, 1, &buf);
}

/*
 * Publishes the batch and rings for it, under the SQ's lock (taken by
 * ibv_wr_start(), and by every modify) as rxe_post_send() does: a QP
 * below RTS takes nothing, and a batch whose doorbell the kernel
 * refused is withdrawn whole (rxe_sq_doorbell()).
 */
static int rxe_wr_publish(struct rxe_qp *qp, uint32_t first)
{
	if (!rxe_sq_ready(qp)) {
		rxe_wr_fail(qp, RXE_WR_STATE, 0);
		return EINVAL;
	}
	/*
	 * Release: pairs with the kernel's acquire of the producer index;
	 * the slots are whole before it sees them.
	 */
	atomic_store_explicit(&qp->sq.q.hdr->producer_index, qp->wr_prod,
			      memory_order_release);
	return rxe_sq_doorbell(qp, first, qp->wr_ssn);
}

static int rxe_wr_complete(struct ibv_qp_ex *qp_ex)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);
	uint32_t first = atomic_load_explicit(&qp->sq.q.hdr->producer_index,
					      memory_order_relaxed);
	int ret = qp->wr_err;

	if (!ret && qp->wr_prod != first)
		ret = rxe_wr_publish(qp, first);
	if (ret || qp->wr_prod == first)
		qp->ssn = qp->wr_ssn; /* nothing posted, nothing numbered */
	qp->wr_cur = NULL;
	rxe_unlock(&qp->sq.lock);
	if (qp->wr_err)
		rxe_explain_wr(qp);
	return ret;
}

static void rxe_wr_abort(struct ibv_qp_ex *qp_ex)
{
	struct rxe_qp *qp = to_rxeqp_ex(qp_ex);

	qp->wr_cur = NULL;
	qp->ssn = qp->wr_ssn;
	rxe_unlock(&qp->sq.lock);
}

enum {
	RXE_QP_EX_OPS =
		IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
		IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
		IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV |
		IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW |
		IBV_QP_EX_WITH_FLUSH | IBV_QP_EX_WITH_ATOMIC_WRITE,
	/*
	 * Creation flags go to the kernel, which judges them (rdma_rxe
	 * 6.1 refuses any with EOPNOTSUPP): asking for none is no reason
	 * to refuse, and Debian's librxe 44 passes them on too.
	 */
	RXE_QP_INIT_ATTR_MASK = IBV_QP_INIT_ATTR_PD |
				IBV_QP_INIT_ATTR_CREATE_FLAGS |
				IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
};

/* Marks @qp extended where the core looks (driver.h). */
static void rxe_mark_qp_ex(struct rxe_qp *qp, bool before_wr_flush)
{
	void *at = verbs_qp_comp_mask_at(&qp->vqp, before_wr_flush);
	uint32_t mask;

	memcpy(&mask, at, sizeof(mask));
	mask |= VERBS_QP_EX;
	memcpy(at, &mask, sizeof(mask));
}

/*
 * The send opcodes @attr asks for that this QP cannot have: FLUSH and
 * ATOMIC_WRITE need a kernel that advertises them (rdma_rxe since Linux
 * 6.2), and FLUSH also a core with the wr_flush slot.
 */
static uint64_t rxe_ops_missing(struct ibv_context *ctx, uint64_t ops,
				bool before_wr_flush)
{
	uint64_t missing = ops & ~(uint64_t)RXE_QP_EX_OPS;
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	uint64_t caps = 0;

	if (!(ops & (IBV_QP_EX_WITH_FLUSH | IBV_QP_EX_WITH_ATOMIC_WRITE)))
		return missing;
	memset(&attr, 0, sizeof(attr));
	if (!ibv_cmd_query_device_any(ctx, NULL, &attr, sizeof(attr), &resp,
				      &resp_size))
		caps = attr.device_cap_flags_ex;
	if (!(caps & RXE_KCAP_ATOMIC_WRITE))
		missing |= ops & IBV_QP_EX_WITH_ATOMIC_WRITE;
	if (before_wr_flush ||
	    !(caps & (RXE_KCAP_FLUSH_GLOBAL | RXE_KCAP_FLUSH_PERSISTENT)))
		missing |= ops & IBV_QP_EX_WITH_FLUSH;
	return missing;
}

static void __attribute__((cold, noinline))
rxe_explain_ops(struct ibv_context *ctx, uint64_t missing, bool before)
{
	const uint64_t kernel_ops = IBV_QP_EX_WITH_FLUSH |
				    IBV_QP_EX_WITH_ATOMIC_WRITE;
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	const char *why = "the kernel's rdma_rxe lacks it (Linux 6.2 has it)";

	if (missing & ~kernel_ops)
		verbs_info(vctx, "send_ops_flags 0x%llx: not rxe's\n",
			   (unsigned long long)(missing & ~kernel_ops));
	if (missing & IBV_QP_EX_WITH_FLUSH)
		verbs_info(vctx, "FLUSH: %s\n",
			   before ? "this libibverbs has no wr_flush slot" :
				    why);
	if (missing & IBV_QP_EX_WITH_ATOMIC_WRITE)
		verbs_info(vctx, "ATOMIC_WRITE: %s\n", why);
}

static void rxe_set_wr_ops(struct ibv_qp_ex *ex, bool before_wr_flush)
{
	ex->wr_start = rxe_wr_start;
	ex->wr_complete = rxe_wr_complete;
	ex->wr_abort = rxe_wr_abort;
	ex->wr_send = rxe_wr_send;
	ex->wr_send_imm = rxe_wr_send_imm;
	ex->wr_send_inv = rxe_wr_send_inv;
	ex->wr_local_inv = rxe_wr_local_inv;
	ex->wr_rdma_write = rxe_wr_rdma_write;
	ex->wr_rdma_write_imm = rxe_wr_rdma_write_imm;
	ex->wr_rdma_read = rxe_wr_rdma_read;
	ex->wr_atomic_cmp_swp = rxe_wr_atomic_cmp_swp;
	ex->wr_atomic_fetch_add = rxe_wr_atomic_fetch_add;
	ex->wr_bind_mw = rxe_wr_bind_mw;
	ex->wr_set_ud_addr = rxe_wr_set_ud_addr;
	ex->wr_set_sge = rxe_wr_set_sge;
	ex->wr_set_sge_list = rxe_wr_set_sge_list;
	ex->wr_set_inline_data = rxe_wr_set_inline_data;
	ex->wr_set_inline_data_list = rxe_wr_set_inline_data_list;
	ex->wr_atomic_write = rxe_wr_atomic_write;
	/* Before wr_flush, its place is the core's comp_mask. */
	if (!before_wr_flush)
		ex->wr_flush = rxe_wr_flush;
}

struct ibv_qp *rxe_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr)
{
	bool ex = attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	struct rxe_resp_create_qp_ex resp = {};
	struct ibv_create_qp_ex cmd = {};
	bool before = verbs_core_before_wr_flush(ctx);
	uint64_t missing;
	struct rxe_qp *qp;
	int ret;

	if (attr->comp_mask & ~(uint32_t)RXE_QP_INIT_ATTR_MASK) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (ex) {
		before = verbs_core_before_wr_flush(ctx);
		missing = rxe_ops_missing(ctx, attr->send_ops_flags, before);
		if (missing) {
			rxe_explain_ops(ctx, missing, before);
			errno = EOPNOTSUPP;
			return NULL;
		}
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	/*
	 * The extended command, as Debian's librxe 44 sends it: the one
	 * that carries creation flags, down to the write() route.
	 */
	ret = ibv_cmd_create_qp_ex2(ctx, &qp->vqp, attr, &cmd, sizeof(cmd),
				    &resp.ibv_resp, sizeof(resp), NULL);
	if (ret)
		goto err_free;
	ret = rxe_qp_map(qp, ctx->cmd_fd, &resp.drv, &attr->cap,
			 attr->srq != NULL);
	if (ret)
		goto err_destroy;
	if (ex) {
		qp->send_ops = attr->send_ops_flags;
		rxe_set_wr_ops(&qp->vqp.qp_ex, before);
		rxe_mark_qp_ex(qp, before);
	}
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	free(qp);
	errno = ret;
	return NULL;
}
