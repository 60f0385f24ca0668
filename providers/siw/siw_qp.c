// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's queue pairs. CREATE_QP answers the depth of each queue (a power
 * of two), the QP's id and a key per queue (struct siw_uresp_create_qp):
 * the send queue is num_sqe struct siw_sqe mapped at sq_key, the receive
 * queue num_rqe struct siw_rqe at rq_key (none when the QP uses an SRQ).
 *
 * Each element is owned by its flags word. A poster takes the element at
 * put only while its flags read zero (the kernel clears them once it has
 * taken the element), fills it, and hands it over by writing the flags
 * with SIW_WQE_VALID last. The kernel reads receive elements when data
 * arrive. Its transmit engine, once running, takes each valid send
 * element in turn; the doorbell, a POST_SEND command that carries no
 * work request (ibv_cmd_post_send() with an empty list), starts it. An
 * element marked valid is the kernel's from then on: providers/README.md
 * ("Doorbell failures") says what a refused doorbell means.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "siw.h"
#include "siw_abi.h"

int siw_wq_map(struct siw_wq *wq, int cmd_fd, uint32_t num, size_t elem,
	       uint64_t key)
{
	void *map;

	if (!num || (num & (num - 1)) || key == SIW_INVAL_UOBJ_KEY)
		return EPROTO;
	wq->num = num;
	wq->map_len = (size_t)num * elem;
	map = mmap(NULL, wq->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   cmd_fd, (off_t)key);
	if (map == MAP_FAILED)
		return errno;
	wq->ring = map;
	return 0;
}

/*
 * Why the kernel refused to create a queue (EINVAL), at VERBS_LOG_LEVEL=3:
 * the limit of siw's that the request passed. Failure path only.
 */
void __attribute__((cold, noinline))
siw_explain_create(struct ibv_context *ctx, const char *verb, uint32_t wr,
		   uint32_t sge, uint32_t inline_data)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	struct ibv_device_attr dev;

	if (sge > SIW_MAX_SGE)
		verbs_info(vctx, "%s: max_sge %u, siw takes at most %d", verb,
			   sge, SIW_MAX_SGE);
	else if (inline_data > SIW_MAX_INLINE)
		verbs_info(vctx,
			   "%s: max_inline_data %u, siw takes at most %zu",
			   verb, inline_data, (size_t)SIW_MAX_INLINE);
	else if (!ibv_query_device(ctx, &dev) && wr > (uint32_t)dev.max_qp_wr)
		verbs_info(vctx, "%s: %u work requests, siw0 takes at most %d",
			   verb, wr, dev.max_qp_wr);
	else
		verbs_info(vctx, "%s: the kernel refused it (EINVAL)", verb);
}

void siw_wq_unmap(struct siw_wq *wq)
{
	if (wq->ring)
		munmap(wq->ring, wq->map_len);
	wq->ring = NULL;
}

static void siw_qp_free(struct siw_qp *qp)
{
	siw_wq_unmap(&qp->sq);
	siw_wq_unmap(&qp->rq);
	free(qp);
}

struct ibv_qp *siw_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_create_qp cmd = {};
	struct siw_resp_create_qp resp = {};
	int fd = pd->context->cmd_fd;
	struct siw_qp *qp;
	int ret;

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	ret = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (ret) {
		if (ret == EINVAL)
			siw_explain_create(
				pd->context, "create_qp",
				attr->cap.max_send_wr > attr->cap.max_recv_wr ?
					attr->cap.max_send_wr :
					attr->cap.max_recv_wr,
				attr->cap.max_send_sge >
						attr->cap.max_recv_sge ?
					attr->cap.max_send_sge :
					attr->cap.max_recv_sge,
				attr->cap.max_inline_data);
		goto err_free;
	}
	qp->qp_id = resp.drv.qp_id;
	qp->sq.max_sge = attr->cap.max_send_sge;
	qp->rq.max_sge = attr->cap.max_recv_sge;
	qp->sq_signal = attr->sq_sig_all ? SIW_WQE_SIGNALLED : 0;
	ret = siw_wq_map(&qp->sq, fd, resp.drv.num_sqe, sizeof(struct siw_sqe),
			 resp.drv.sq_key);
	if (!ret && !attr->srq)
		ret = siw_wq_map(&qp->rq, fd, resp.drv.num_rqe,
				 sizeof(struct siw_rqe), resp.drv.rq_key);
	if (ret)
		goto err_destroy;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	siw_qp_free(qp);
	errno = ret;
	return NULL;
}

int siw_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct ibv_modify_qp cmd = {};

	return ibv_cmd_modify_qp(qp, attr, mask, &cmd, sizeof(cmd));
}

int siw_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init)
{
	struct ibv_query_qp cmd = {};

	return ibv_cmd_query_qp(qp, attr, mask, init, &cmd, sizeof(cmd));
}

int siw_destroy_qp(struct ibv_qp *ibqp)
{
	int ret = ibv_cmd_destroy_qp(ibqp);

	if (ret)
		return ret;
	siw_qp_free(to_siwqp(ibqp));
	return 0;
}

/* The flags word of a queue element, the one field both sides write. */
static inline _Atomic uint16_t *siw_wqe_flags(uint16_t *flags)
{
	return (_Atomic uint16_t *)flags;
}

/*
 * Whether the element is ours to fill. Acquire pairs with the kernel's
 * clearing of the flags after it copied the element out: our writes
 * that follow cannot overtake its reads.
 */
static inline bool siw_wqe_free(uint16_t *flags)
{
	return !atomic_load_explicit(siw_wqe_flags(flags),
				     memory_order_acquire);
}

/*
 * Hands the element over. Release pairs with the kernel's read of the
 * flags before it reads the element: it sees every field written above.
 */
static inline void siw_wqe_publish(uint16_t *flags, uint16_t value)
{
	atomic_store_explicit(siw_wqe_flags(flags), value,
			      memory_order_release);
}

/* enum ibv_wr_opcode -> enum siw_opcode; -1: siw has no such operation. */
static int siw_sq_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return SIW_OP_SEND;
	case IBV_WR_SEND_WITH_INV:
		return SIW_OP_SEND_REMOTE_INV;
	case IBV_WR_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IBV_WR_RDMA_READ:
		return SIW_OP_READ;
	default:
		return -1;
	}
}

/*
 * A work request's gather list into an element: struct siw_sge and
 * struct ibv_sge have one layout. One entry, the common case, is three
 * stores rather than a call to memcpy(), a per-WR cost the counts showed.
 */
static inline void siw_copy_sges(struct siw_sge *dst, const struct ibv_sge *src,
				 int n)
{
	if (n == 1) {
		dst->laddr = src->addr;
		dst->length = src->length;
		dst->lkey = src->lkey;
	} else if (n > 1) {
		memcpy(dst, src, (size_t)n * sizeof(*dst));
	}
}

/*
 * Inline data into an element, at most SIW_MAX_INLINE (80) bytes: whole
 * blocks, the last one overlapping the one before, so that 64 bytes are
 * four 16-byte moves and 12 bytes two 8-byte ones. Left to itself, gcc
 * expands a memcpy() of a length it knows to be at most 80 into a rep
 * movsq, whose start-up costs more than such a copy.
 */
static inline void siw_copy_inline(uint8_t *dst, const void *src, uint32_t len)
{
	const uint8_t *from = src;
	uint32_t i;

	if (len >= 16) {
		for (i = 0; i + 16 < len; i += 16)
			memcpy(dst + i, from + i, 16);
		memcpy(dst + len - 16, from + len - 16, 16);
	} else if (len >= 8) {
		memcpy(dst, from, 8);
		memcpy(dst + len - 8, from + len - 8, 8);
	} else if (len >= 4) {
		memcpy(dst, from, 4);
		memcpy(dst + len - 4, from + len - 4, 4);
	} else {
		for (i = 0; i < len; i++)
			dst[i] = from[i];
	}
}

/*
 * A send's element flags from its FENCE, SIGNALED and SOLICITED bits
 * (1, 2, 4), one load rather than a test and branch per bit; INLINE is
 * set apart, for the opcodes that carry data.
 */
#define SIW_SQ_FLAGS(f)                                                  \
	(SIW_WQE_VALID | ((f)&IBV_SEND_FENCE ? SIW_WQE_READ_FENCE : 0) | \
	 ((f)&IBV_SEND_SIGNALED ? SIW_WQE_SIGNALLED : 0) |               \
	 ((f)&IBV_SEND_SOLICITED ? SIW_WQE_SOLICITED : 0))
static_assert((IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED) == 7,
	      "the three send flags are the low three bits");
static const uint16_t siw_sq_flags[8] = {
	SIW_SQ_FLAGS(0), SIW_SQ_FLAGS(1), SIW_SQ_FLAGS(2), SIW_SQ_FLAGS(3),
	SIW_SQ_FLAGS(4), SIW_SQ_FLAGS(5), SIW_SQ_FLAGS(6), SIW_SQ_FLAGS(7),
};

/* Fills @sqe from @wr; an errno value if siw cannot take it. */
static int siw_fill_sqe(struct siw_qp *qp, struct siw_sqe *sqe,
			const struct ibv_send_wr *wr, uint16_t *flags)
{
	int opcode = siw_sq_opcode(wr->opcode);

	if (opcode < 0)
		return EINVAL;
	/*
	 * The QP's own max_send_sge bounds every gather list, the one
	 * that carries inline data too (ibv_post_send(3) makes no
	 * exception); a negative count is no list at all.
	 */
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->sq.max_sge)
		return EINVAL;
	/*
	 * The kernel takes a READ's sge[0] only and refuses a fenced READ
	 * when it picks the element up (siw_activate_tx()): refuse both
	 * here, where the caller still learns which WR it was.
	 */
	if (opcode == SIW_OP_READ &&
	    (wr->num_sge > 1 || wr->send_flags & IBV_SEND_FENCE))
		return EINVAL;
	*flags = siw_sq_flags[wr->send_flags & 7] | qp->sq_signal;
	sqe->id = wr->wr_id;
	sqe->opcode = (uint8_t)opcode;
	if (opcode == SIW_OP_WRITE || opcode == SIW_OP_READ) {
		sqe->raddr = wr->wr.rdma.remote_addr;
		sqe->rkey = wr->wr.rdma.rkey;
	} else if (opcode == SIW_OP_SEND_REMOTE_INV) {
		sqe->rkey = wr->invalidate_rkey;
	} else {
		sqe->rkey = 0;
		sqe->raddr = 0;
	}

	if (wr->send_flags & IBV_SEND_INLINE) {
		/* The data ride in sge[1..], their length in sge[0]. */
		uint8_t *dst = (uint8_t *)&sqe->sge[1];
		uint32_t len = 0;
		int i = 0;

		/*
		 * siw takes inline data with SEND and WRITE only, and
		 * refuses any other inline element as it activates it
		 * (siw_activate_tx()). Ignoring the flag would gather from
		 * the caller's buffer later, after the call told the caller
		 * the data had been copied: refuse it here.
		 */
		if (opcode != SIW_OP_SEND && opcode != SIW_OP_WRITE)
			return EINVAL;

		/*
		 * One entry, the common case, is one copy with no loop state
		 * live across the call (the loop's cost spills).
		 */
		if (__builtin_expect(wr->num_sge == 1, 1)) {
			len = wr->sg_list[0].length;
			if (len > SIW_MAX_INLINE)
				return EINVAL;
			siw_copy_inline(
				dst,
				(const void *)(uintptr_t)wr->sg_list[0].addr,
				len);
			i = 1;
		}
		for (; i < wr->num_sge; i++) {
			uint32_t n = wr->sg_list[i].length;

			if (n > SIW_MAX_INLINE - len)
				return EINVAL;
			siw_copy_inline(
				dst + len,
				(const void *)(uintptr_t)wr->sg_list[i].addr,
				n);
			len += n;
		}
		sqe->sge[0].laddr = 0;
		sqe->sge[0].length = len;
		sqe->sge[0].lkey = 0;
		sqe->num_sge = 1;
		*flags |= SIW_WQE_INLINE;
		return 0;
	}
	if (__builtin_expect(opcode == SIW_OP_READ && !wr->num_sge, 0)) {
		/*
		 * siw reads every READ into sge[0], whatever num_sge says
		 * (siw_activate_tx() sets it to 1): a READ of nothing gets
		 * an sge[0] of nothing, never the one the slot's previous
		 * request left. The peer answers a zero-length READ with a
		 * zero-length response, which touches no memory here.
		 */
		sqe->sge[0] = (struct siw_sge){ 0 };
		sqe->num_sge = 1;
		return 0;
	}
	siw_copy_sges(sqe->sge, wr->sg_list, wr->num_sge);
	sqe->num_sge = (uint8_t)wr->num_sge;
	return 0;
}

static const char *siw_wr_opcode_name(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return "RDMA_WRITE_WITH_IMM";
	case IBV_WR_SEND_WITH_IMM:
		return "SEND_WITH_IMM";
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return "ATOMIC_CMP_AND_SWP";
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return "ATOMIC_FETCH_AND_ADD";
	case IBV_WR_LOCAL_INV:
		return "LOCAL_INV";
	case IBV_WR_BIND_MW:
		return "BIND_MW";
	case IBV_WR_SEND_WITH_INV:
		return "SEND_WITH_INV";
	case IBV_WR_RDMA_READ:
		return "RDMA_READ";
	case IBV_WR_TSO:
		return "TSO";
	default:
		return "unknown";
	}
}

/*
 * Why a send work request was refused, at VERBS_LOG_LEVEL=3 (info), the
 * way the core explains its verbs: which limit or which opcode, on which
 * QP. Only the failure path calls it.
 */
static void __attribute__((cold, noinline))
siw_explain_send(struct siw_qp *qp, const struct ibv_send_wr *wr, int err)
{
	struct verbs_context *vctx = &to_siwctx(qp->vqp.qp.context)->vctx;
	uint32_t qpn = qp->vqp.qp.qp_num;
	uint32_t len = 0;

	if (err == ENOMEM) {
		verbs_info(
			vctx,
			"post_send on QP %u: the send queue is full (%u work requests)",
			qpn, qp->sq.num);
		return;
	}
	if (err == EIO) {
		verbs_info(
			vctx,
			"post_send on QP %u: the device is gone (%s), nothing of this call was posted",
			qpn, strerror(err));
		return;
	}
	if (siw_sq_opcode(wr->opcode) < 0) {
		verbs_info(vctx,
			   "post_send on QP %u (RC): siw has no %s (opcode %d)",
			   qpn, siw_wr_opcode_name(wr->opcode), wr->opcode);
		return;
	}
	if (wr->opcode == IBV_WR_RDMA_READ && wr->send_flags & IBV_SEND_FENCE) {
		verbs_info(vctx,
			   "post_send on QP %u: siw cannot fence an RDMA_READ",
			   qpn);
		return;
	}
	if (wr->opcode == IBV_WR_RDMA_READ && wr->num_sge > 1) {
		verbs_info(
			vctx,
			"post_send on QP %u: RDMA_READ with num_sge %d, siw reads into one SGE",
			qpn, wr->num_sge);
		return;
	}
	if (wr->send_flags & IBV_SEND_INLINE && wr->opcode != IBV_WR_SEND &&
	    wr->opcode != IBV_WR_RDMA_WRITE) {
		verbs_info(
			vctx,
			"post_send on QP %u: siw sends inline data with SEND and RDMA_WRITE only, not with %s",
			qpn, siw_wr_opcode_name(wr->opcode));
		return;
	}
	if (wr->send_flags & IBV_SEND_INLINE && wr->num_sge >= 0 &&
	    (uint32_t)wr->num_sge <= qp->sq.max_sge) {
		for (int i = 0; i < wr->num_sge; i++)
			len += wr->sg_list[i].length;
		verbs_info(
			vctx,
			"post_send on QP %u: %u bytes of inline data, siw takes at most %zu",
			qpn, len, (size_t)SIW_MAX_INLINE);
		return;
	}
	verbs_info(
		vctx,
		"post_send on QP %u: num_sge %d, the QP takes at most %u (max_send_sge)",
		qpn, wr->num_sge, qp->sq.max_sge);
}

/*
 * The device is gone: uverbs answers EIO to every command of a
 * disassociated device before its driver sees it, and the process no
 * longer shares its queues (the kernel put zeroed pages in their place).
 * No request of this call can complete, so each is reported failed and
 * its slot emptied, the put index back where the call found it.
 */
static void __attribute__((cold, noinline))
siw_sq_withdraw(struct siw_qp *qp, uint32_t put0)
{
	struct siw_sqe *ring = qp->sq.ring;

	while (qp->sq.put != put0) {
		qp->sq.put--;
		siw_wqe_publish(&ring[qp->sq.put & (qp->sq.num - 1)].flags, 0);
	}
}

/*
 * The kernel refused the doorbell (siw_post_send(): ENOTCONN outside RTS
 * or whenever another thread holds the QP's state lock, EINVAL for an
 * element it would not activate). The call's elements are posted all
 * the same: the engine may have taken them already, a flush on the move
 * to ERROR completes them, and no withdrawal could tell whether it beat
 * the kernel's read. Said at VERBS_LOG_LEVEL=3; failure path only.
 */
static void __attribute__((cold, noinline))
siw_explain_doorbell(struct siw_qp *qp, int err, uint32_t posted)
{
	verbs_info(
		&to_siwctx(qp->vqp.qp.context)->vctx,
		"post_send on QP %u: the doorbell failed (%s); the %u requests stay posted, and the next post rings again",
		qp->vqp.qp.qp_num, strerror(err), posted);
}

/*
 * Whether the kernel's send engine may be idle, after this call posted
 * @posted elements from index @start on. The kernel clears an element's
 * flags as it takes the element into its engine, and once done with one
 * element takes the next valid one. So while the element before our
 * first is still valid, the engine has yet to take it and will come to
 * ours without a doorbell. The fence orders our publishing before that
 * read, as the kernel's full barrier after its clearing orders it before
 * its look at the next element: either it sees ours, or we see its
 * clearing and ring. When this call filled the whole ring, the element
 * before the first is one of ours, and the queue was empty: ring. After
 * a refused doorbell a valid element proves nothing (no engine may be
 * running): the caller rings while one is owed.
 */
static bool siw_sq_may_idle(struct siw_qp *qp, uint32_t start, uint32_t posted)
{
	struct siw_sqe *prev;

	if (posted >= qp->sq.num)
		return true;
	prev = (struct siw_sqe *)qp->sq.ring + ((start - 1) & (qp->sq.num - 1));
	atomic_thread_fence(memory_order_seq_cst);
	return !atomic_load_explicit(siw_wqe_flags(&prev->flags),
				     memory_order_relaxed);
}

int siw_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr)
{
	struct siw_qp *qp = to_siwqp(ibqp);
	struct siw_sqe *ring = qp->sq.ring;
	struct ibv_send_wr *first = wr;
	struct ibv_send_wr *bad;
	uint32_t mask = qp->sq.num - 1;
	uint32_t start, posted;
	int ret = 0, db = 0;

	siw_lock(&qp->sq.lock);
	start = qp->sq.put; /* under the lock: another poster may be ahead */
	for (; wr; wr = wr->next) {
		struct siw_sqe *sqe = &ring[qp->sq.put & mask];
		uint16_t flags;

		if (!siw_wqe_free(&sqe->flags)) {
			ret = ENOMEM; /* the SQ is full */
			break;
		}
		ret = siw_fill_sqe(qp, sqe, wr, &flags);
		if (ret)
			break;
		siw_wqe_publish(&sqe->flags, flags);
		qp->sq.put++;
	}
	/*
	 * Ring the doorbell once for everything posted by this call, and
	 * only when the engine may be idle (a system call saved per WR
	 * while the queue is busy, as Debian's libsiw does) or a doorbell
	 * is owed. An owed doorbell rings even when this call posted
	 * nothing: a ring filled while the kernel refused doorbells (below
	 * RTS) would otherwise answer every later post ENOMEM, and no
	 * doorbell would ever start the engine that empties it. A refused
	 * doorbell fails none of the requests: they are valid in the ring,
	 * the kernel's from now on; only a device that is gone (EIO) will
	 * never complete them.
	 */
	posted = qp->sq.put - start;
	if (qp->sq_db_owed ||
	    (wr != first && siw_sq_may_idle(qp, start, posted))) {
		db = ibv_cmd_post_send(ibqp, NULL, &bad);
		qp->sq_db_owed = db != 0;
		if (db == EIO) {
			siw_sq_withdraw(qp, start);
			ret = db;
			wr = first;
			db = 0;
		}
	}
	siw_unlock(&qp->sq.lock);
	if (db)
		siw_explain_doorbell(qp, db, posted);
	if (ret) {
		*bad_wr = wr;
		siw_explain_send(qp, wr, ret);
	}
	return ret;
}

/* Why a receive was refused, at VERBS_LOG_LEVEL=3; failure path only. */
static void __attribute__((cold, noinline))
siw_explain_recv(struct siw_context *ctx, const char *verb,
		 const struct siw_wq *wq, const struct ibv_recv_wr *wr, int err)
{
	if (err == ENOMEM)
		verbs_info(&ctx->vctx,
			   "%s: the receive queue is full (%u work requests)",
			   verb, wq->num);
	else
		verbs_info(
			&ctx->vctx,
			"%s: num_sge %d, the queue takes at most %u (max_sge)",
			verb, wr->num_sge, wq->max_sge);
}

/*
 * Posts receives into @wq, a QP's RQ or an SRQ: no doorbell, the kernel
 * reads the elements when data arrive. Inlined into siw_post_recv(), so
 * that the per-WR path has no call (and no PLT hop) in between and
 * carries nothing the refusal's explanation needs: the caller explains.
 */
static inline __attribute__((always_inline)) int
post_rqes(struct siw_wq *wq, struct ibv_recv_wr *wr,
	  struct ibv_recv_wr **bad_wr)
{
	int ret = 0;

	siw_lock(&wq->lock);
	for (; wr; wr = wr->next) {
		/* Read here, not kept: fewer registers to save per call. */
		struct siw_rqe *rqe =
			(struct siw_rqe *)wq->ring + (wq->put & (wq->num - 1));

		if (!siw_wqe_free(&rqe->flags)) {
			ret = ENOMEM; /* the queue is full */
			break;
		}
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > wq->max_sge) {
			ret = EINVAL;
			break;
		}
		rqe->id = wr->wr_id;
		rqe->num_sge = (uint8_t)wr->num_sge;
		siw_copy_sges(rqe->sge, wr->sg_list, wr->num_sge);
		siw_wqe_publish(&rqe->flags, SIW_WQE_VALID);
		wq->put++;
	}
	siw_unlock(&wq->lock);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/* @verb names the caller for the explanation of a refusal. */
int siw_post_rqes(struct siw_context *ctx, const char *verb, struct siw_wq *wq,
		  struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	int ret = post_rqes(wq, wr, bad_wr);

	if (ret)
		siw_explain_recv(ctx, verb, wq, *bad_wr, ret);
	return ret;
}

int siw_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	struct siw_qp *qp = to_siwqp(ibqp);
	int ret;

	if (!qp->rq.ring) { /* the QP receives through an SRQ */
		*bad_wr = wr;
		return EINVAL;
	}
	ret = post_rqes(&qp->rq, wr, bad_wr);
	if (ret)
		siw_explain_recv(to_siwctx(ibqp->context), "post_recv", &qp->rq,
				 *bad_wr, ret);
	return ret;
}
