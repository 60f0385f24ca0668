/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake rxe kernel driver that tests of our rxe plugin run on: the
 * fake kernel of t_uverbs.h answering with rdma_rxe's driver data
 * (<rdma/rdma_user_rxe.h>) to CREATE_CQ (basic and extended), CREATE_QP
 * (basic and extended), CREATE_SRQ, CREATE_AH, RESIZE_CQ and
 * MODIFY_SRQ (which move a queue: a new one, the entries copied over),
 * laying out each queue the provider maps as rdma_rxe shares it: a
 * struct rxe_queue_buf header (slot size, index mask, indices) and its
 * slots. rxe0 is the only device, claimed by our librxe-rdmav<N>.so
 * alone.
 */
#ifndef T_RXE_KERNEL_H
#define T_RXE_KERNEL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>

struct t_rxe_wire;

/* What the fake rxe driver answers, and what it saw. */
struct t_rxe_kern {
	/*
	 * CREATE_AH's ah_num. rdma_rxe numbers its AHs since Linux 5.18;
	 * older ones answer 0 and want the address vector in each WQE.
	 */
	uint32_t ah_num;
	unsigned int queues_mapped; /* headers laid out so far */
	/*
	 * The shared queues of the last CQ created or resized, of the last
	 * QP's send queue and of the last SRQ created or resized, where the
	 * provider mapped them; NULL while it has not (or could not).
	 */
	struct rxe_queue_buf *cq, *sq, *srq;
	unsigned int doorbells; /* POST_SEND commands the driver took */
	/* The send queue's consumer (t_rxe_req_attach()). */
	bool defer_requester; /* a doorbell does not run it */
	void (*on_take)(const struct t_rxe_wire *w, void *arg);
	void *on_take_arg;
};

extern struct t_rxe_kern t_rxe;

/*
 * The fake's QP states, as rdma_rxe keeps them: each MODIFY_QP with
 * IB_QP_STATE that the kernel would allow moves its QP, and POST_SEND
 * is refused with EINVAL while the QP is below RTS (rxe_post_send() of
 * Linux 6.1). A test may set a state behind the provider's back, as a
 * modify it did not see.
 */
enum ibv_qp_state t_rxe_qp_state(uint32_t qp_handle);
void t_rxe_set_qp_state(uint32_t qp_handle, enum ibv_qp_state state);

/*
 * The send queue's consumer, as rdma_rxe 6.1's requester and completer
 * treat a user QP's WQEs. A QP's requester is modelled once the test
 * attaches it, with the send queue the provider mapped for it (t_rxe.sq
 * right after the create). The requester takes every WQE between its
 * index and the producer index whenever it runs: at each accepted
 * doorbell (unless t_rxe.defer_requester, as when the kernel's task is
 * already busy and runs again later), when t_rxe_req_run() says so (the
 * completion of earlier WQEs, its timers), and it fails or flushes them
 * on the moves to ERROR. In RTS (and SQE, which rdma_rxe never enters
 * through a modify and where its requester stays ready) each WQE goes
 * on the wire, or fails with IBV_WC_LOC_QP_OP_ERR when its opcode has
 * no packet for the QP's type, which moves the QP to ERROR. In SQD the
 * requester takes nothing new. In ERROR each WQE completes with
 * IBV_WC_WR_FLUSH_ERR; the move to RESET discards what is left without
 * a completion. Each WQE taken is handed to t_rxe.on_take, under the
 * fake's lock, and its slot freed (the consumer index moves on).
 */
enum t_rxe_fate {
	T_RXE_SENT, /* on the wire, or a local operation done */
	T_RXE_FAILED, /* completed with an error status, the QP to ERROR */
	T_RXE_FLUSHED, /* completed with IBV_WC_WR_FLUSH_ERR */
	T_RXE_DISCARDED, /* gone with a RESET, never completed */
};

#define T_RXE_WIRE_BYTES 512u
#define T_RXE_WIRE_SGES 8u

/* One WQE as the kernel took it: the fields it reads for its opcode. */
struct t_rxe_wire {
	uint32_t qp_handle;
	enum t_rxe_fate fate;
	enum ibv_wc_status status;
	bool completion; /* a CQE: signalled, or any error status */
	/*
	 * What the kernel would have read past the slot (an inline payload
	 * or an SGE count beyond it): a WQE the provider must never write.
	 */
	bool overrun;
	uint64_t wr_id;
	uint32_t opcode, send_flags;
	/*
	 * The message: its length (dma.length), and for a SEND or WRITE
	 * its bytes, from the slot when INLINE or gathered from the SGEs
	 * otherwise (the first T_RXE_WIRE_BYTES of them).
	 */
	uint32_t length;
	bool inline_data;
	uint8_t bytes[T_RXE_WIRE_BYTES];
	/* The gather list, or the sink of a READ's or an atomic's reply. */
	uint32_t num_sge;
	struct rxe_sge sge[T_RXE_WIRE_SGES];
	uint64_t remote_addr; /* the WQE's iova: RDMA and atomics */
	uint32_t rkey;
	uint64_t compare_add, swap;
	uint32_t imm_data, invalidate_rkey;
	uint32_t remote_qpn, remote_qkey, ah_num; /* UD */
	struct rxe_send_wr mw; /* BIND_MW: its wr.mw, as read */
};

/* Models the requester of @qp, whose send queue the provider mapped at @sq. */
void t_rxe_req_attach(const struct ibv_qp *qp, struct rxe_queue_buf *sq);
void t_rxe_req_detach(const struct ibv_qp *qp);
/* Runs the requester of @qp once; returns how many WQEs it took. */
unsigned int t_rxe_req_run(const struct ibv_qp *qp);

/* The kernel writes a completion of @wr_id into the CQ's queue. */
void t_rxe_complete(uint64_t wr_id);

/*
 * Runs @tests on the fake rxe0, once on each of the fake's kernels
 * (ioctl, write() only, the tunnel), with our rxe plugin as the only
 * provider. Returns cmocka's result, or T_SKIP when the fake kernel
 * cannot be set up.
 */
int t_rxe_run(const struct CMUnitTest *tests, size_t n);

#endif /* T_RXE_KERNEL_H */
