/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rxe provider's objects. Each wraps the core's object as its first
 * member, and to_rxe<obj>() goes back from the core's pointer.
 *
 * A queue the kernel shares with us (CQ today; SQ, RQ and SRQ next) is
 * a page-aligned mapping of the command file: a header with the indices
 * (struct rxe_qhdr, rxe_queue.h) and, behind it, a power-of-two number
 * of slots, each a power of two bytes long.
 */
#ifndef RXE_H
#define RXE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/driver.h>

#include "rxe_queue.h"

/*
 * The provider's functions are its own: kept out of the plugin's dynamic
 * symbols, so that no global of a program's can stand in for them.
 */
#pragma GCC visibility push(hidden)

struct rxe_device {
	struct verbs_device vdev;
};

struct rxe_context {
	struct verbs_context vctx;
};

/* A CQ: the kernel produces completions, we consume them. */
struct rxe_cq {
	struct verbs_cq vcq;
	struct rxe_queue q;
	struct rxe_lock lock; /* pollers of one CQ take turns */
	/* ibv_start_poll() to ibv_end_poll(), under the lock: */
	const struct ib_uverbs_wc *cur; /* the completion handed out */
	uint32_t cons; /* its index */
	uint32_t prod; /* the producer index last read */
};

/* A send or receive queue: we produce work requests, the kernel consumes. */
struct rxe_wq {
	struct rxe_queue q;
	struct rxe_lock lock; /* posters of one queue take turns */
	uint32_t max_sge;
	uint32_t max_inline; /* send queue only */
};

struct rxe_qp {
	struct verbs_qp vqp;
	struct rxe_wq sq;
	struct rxe_wq rq;
	/*
	 * The state the last successful modify through this provider set
	 * (IBV_QPS_*), written under the SQ's lock, which every modify
	 * takes and every send post holds anyway. Posters read it instead of
	 * ibv_qp->state, which the core writes only after the modify op has
	 * returned and so lags behind the kernel (rxe_qp.c has the reasons).
	 */
	_Atomic int state;
	/*
	 * The send sequence number of the next send WQE, under the SQ's
	 * lock; the kernel reads it from the slot (wqe->ssn).
	 */
	uint32_t ssn;
	/* ibv_wr_start() to ibv_wr_complete(), under the SQ's lock: */
	struct rxe_send_wqe *wr_cur; /* the WR being built, NULL after an error */
	uint32_t wr_prod; /* the SQ's producer index, not yet published */
	int wr_err; /* the first error, which wr_complete returns */
	uint8_t wr_why; /* what it was, for the message: enum rxe_wr_why */
	uint32_t wr_arg; /* the opcode, SGE count or inline bytes refused */
	uint32_t wr_ssn; /* ssn at wr_start, restored if nothing is posted */
	uint64_t send_ops; /* IBV_QP_EX_WITH_* granted at creation */
};

/* Why an ibv_wr_*() batch was refused (rxe_qp_ex.c). */
enum rxe_wr_why {
	RXE_WR_FULL = 1,
	RXE_WR_OPCODE,
	RXE_WR_SGES,
	RXE_WR_INLINE,
	RXE_WR_STATE, /* the QP below RTS (ibv_wr_complete() only) */
	RXE_WR_INLINE_OP, /* inline data on a WR that sends none */
};

struct rxe_srq {
	struct verbs_srq vsrq;
	struct rxe_wq rq;
};

struct rxe_ah {
	struct ibv_ah ibv_ah;
	uint32_t ah_num; /* the kernel's, for UD send WRs */
	struct rxe_av av; /* for a kernel that answers ah_num 0 (rxe_ah.c) */
};

/* The destination of a UD send WQE: the AH's number, or its AV. */
static inline void rxe_ud_dest(struct rxe_send_wr *k, const struct rxe_ah *ah)
{
	k->wr.ud.ah_num = ah->ah_num;
	if (__builtin_expect(!ah->ah_num, 0))
		memcpy(&k->wr.ud.av, &ah->av, sizeof(ah->av));
}

struct rxe_mr {
	struct verbs_mr vmr;
};

static inline struct rxe_device *to_rxedev(struct ibv_device *ibdev)
{
	return container_of(ibdev, struct rxe_device, vdev.device);
}

static inline struct rxe_context *to_rxectx(struct ibv_context *ibctx)
{
	return container_of(ibctx, struct rxe_context, vctx.context);
}

static inline struct rxe_cq *to_rxecq(struct ibv_cq *ibcq)
{
	return container_of(ibcq, struct rxe_cq, vcq.cq);
}

static inline struct rxe_qp *to_rxeqp(struct ibv_qp *ibqp)
{
	return container_of(ibqp, struct rxe_qp, vqp.qp);
}

static inline struct rxe_srq *to_rxesrq(struct ibv_srq *ibsrq)
{
	return container_of(ibsrq, struct rxe_srq, vsrq.srq);
}

static inline struct rxe_ah *to_rxeah(struct ibv_ah *ibah)
{
	return container_of(ibah, struct rxe_ah, ibv_ah);
}

static inline struct rxe_mr *to_rxemr(struct verbs_mr *vmr)
{
	return container_of(vmr, struct rxe_mr, vmr);
}

/*
 * The completion flags in the verbs API's bits. rdma_rxe writes the
 * kernel's IB_WC_* bits (<rdma/ib_verbs.h>): IB_WC_WITH_INVALIDATE is
 * bit 2 and IB_WC_IP_CSUM_OK bit 3, where the verbs API has
 * IBV_WC_IP_CSUM_OK at bit 2 and IBV_WC_WITH_INV at bit 3; seen in the
 * VM, where a SEND_WITH_INV arrived flagged 0x4. The two bits trade
 * places; GRH and WITH_IMM agree.
 */
static inline unsigned int rxe_wc_flags(uint32_t k)
{
	/* Most completions carry neither bit: one test, no rewrite. */
	if (__builtin_expect(!(k & 0xc), 1))
		return k;
	return (k & ~(uint32_t)0xc) | (k & 0x4) << 1 | (k & 0x8) >> 1;
}

/*
 * Whether a QP of @type carries @opcode, as rdma_rxe's requester does:
 * SEND and SEND_WITH_IMM on RC, UC and UD; RDMA WRITE and BIND_MW on RC
 * and UC; SEND_WITH_INV, READ, atomics and LOCAL_INV on RC only. Its
 * opcode table also lists SEND_WITH_INV for UC and UD, but IBTA gives
 * those transports no packet that carries an invalidate, and the
 * requester finds none: the WQE fails with IBV_WC_LOC_QP_OP_ERR and the
 * QP goes to ERROR. FLUSH and ATOMIC_WRITE (Linux 6.2 on) are RC only.
 * The kernel fails anything else only at completion time, with the QP
 * in error.
 */
static inline bool rxe_op_ok(enum ibv_qp_type type, enum ibv_wr_opcode op)
{
	enum {
		RC = 1 << IBV_QPT_RC,
		UC = 1 << IBV_QPT_UC,
		UD = 1 << IBV_QPT_UD,
	};
	static const uint8_t types[] = {
		[IBV_WR_RDMA_WRITE] = RC | UC,
		[IBV_WR_RDMA_WRITE_WITH_IMM] = RC | UC,
		[IBV_WR_SEND] = RC | UC | UD,
		[IBV_WR_SEND_WITH_IMM] = RC | UC | UD,
		[IBV_WR_RDMA_READ] = RC,
		[IBV_WR_ATOMIC_CMP_AND_SWP] = RC,
		[IBV_WR_ATOMIC_FETCH_AND_ADD] = RC,
		[IBV_WR_LOCAL_INV] = RC,
		[IBV_WR_BIND_MW] = RC | UC,
		[IBV_WR_SEND_WITH_INV] = RC,
		[IBV_WR_FLUSH] = RC,
		[IBV_WR_ATOMIC_WRITE] = RC,
	};

	return (unsigned int)op < sizeof(types) && (unsigned int)type < 8 &&
	       types[op] & 1u << type;
}

/*
 * Whether @op carries a payload the WQE may hold inline: a SEND or an
 * RDMA WRITE. rdma_rxe takes a READ's or an atomic's reply into the
 * gather list, whose slot space inline bytes would overwrite.
 */
static inline bool rxe_op_inline(enum ibv_wr_opcode op)
{
	return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ||
	       op == IBV_WR_SEND_WITH_INV || op == IBV_WR_RDMA_WRITE ||
	       op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

/* rxe_pd.c */
struct ibv_pd *rxe_alloc_pd(struct ibv_context *ctx);
int rxe_dealloc_pd(struct ibv_pd *pd);

/* rxe_mr.c */
struct ibv_mr *rxe_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access);
int rxe_dereg_mr(struct verbs_mr *vmr);
struct ibv_mw *rxe_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int rxe_dealloc_mw(struct ibv_mw *mw);

/* rxe_cq.c */
struct ibv_cq *rxe_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector);
int rxe_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc);
int rxe_req_notify_cq(struct ibv_cq *ibcq, int solicited_only);
struct ibv_cq_ex *rxe_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr);
int rxe_resize_cq(struct ibv_cq *ibcq, int cqe);
int rxe_destroy_cq(struct ibv_cq *ibcq);

/* rxe_qp.c */
struct ibv_qp *rxe_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
int rxe_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask);
int rxe_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr, int attr_mask,
		 struct ibv_qp_init_attr *init_attr);
int rxe_destroy_qp(struct ibv_qp *ibqp);
int rxe_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		struct ibv_mw_bind *bind);
int rxe_attach_mcast(struct ibv_qp *ibqp, const union ibv_gid *gid,
		     uint16_t lid);
int rxe_detach_mcast(struct ibv_qp *ibqp, const union ibv_gid *gid,
		     uint16_t lid);
int rxe_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);
int rxe_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);
int rxe_wq_map(struct rxe_wq *wq, int cmd_fd, const struct mminfo *mi,
	       size_t min_elem);
void rxe_wq_unmap(struct rxe_wq *wq);
int rxe_wq_post_recv(struct rxe_wq *wq, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad_wr);
int rxe_qp_map(struct rxe_qp *qp, int fd, const struct rxe_create_qp_resp *drv,
	       const struct ibv_qp_cap *cap, bool srq);
int rxe_ring_sq(struct rxe_qp *qp);
int rxe_sq_refused(struct rxe_qp *qp, uint32_t first, uint32_t ssn, int ret)
	__attribute__((cold, noinline));

/*
 * Whether rdma_rxe takes a send doorbell in the QP's state: its
 * post_send refuses one (EINVAL) while the requester is below ready,
 * which it is in RESET, INIT and RTR. Called under the SQ's lock.
 */
static inline bool rxe_sq_ready(const struct rxe_qp *qp)
{
	int state = atomic_load_explicit(&qp->state, memory_order_relaxed);

	return state != IBV_QPS_RESET && state != IBV_QPS_INIT &&
	       state != IBV_QPS_RTR;
}

/*
 * Rings the doorbell for the WQEs published from slot @first on, with
 * the SQ's lock held (which every modify through us takes), @ssn the
 * sequence number before they were numbered. Returns 0 when they stay
 * posted, the doorbell's error when they were withdrawn. README.md
 * ("Doorbell failures") has the kernel facts: an EINVAL from rdma_rxe
 * means the QP was below RTS (or being destroyed) and nothing ran the
 * requester for this doorbell; below RTS only a move to ERROR or RESET
 * consumes the queue, and no modify through us can run while we hold
 * the lock. So unless the consumer index has moved into them (a flush
 * began all the same) they are withdrawn. EIO means the device is gone:
 * nothing consumes the queue any more. Any other answer leaves them
 * posted: the requester also runs without a doorbell (on the completion
 * of earlier WQEs), and a flush completes them. The fast path is one
 * test of the doorbell's answer.
 */
static inline int rxe_sq_doorbell(struct rxe_qp *qp, uint32_t first,
				  uint32_t ssn)
{
	int ret = rxe_ring_sq(qp);

	if (__builtin_expect(!ret, 1))
		return 0;
	return rxe_sq_refused(qp, first, ssn, ret);
}

const char *rxe_opcode_name(enum ibv_wr_opcode op);
const char *rxe_qp_type_name(enum ibv_qp_type type);

/* rxe_qp_ex.c */
struct ibv_qp *rxe_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr);

/* rxe_srq.c */
struct ibv_srq *rxe_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr);
int rxe_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
		   int attr_mask);
int rxe_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr);
int rxe_destroy_srq(struct ibv_srq *ibsrq);
int rxe_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);

/* rxe_ah.c */
struct ibv_ah *rxe_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int rxe_destroy_ah(struct ibv_ah *ibah);

#pragma GCC visibility pop

#endif /* RXE_H */
