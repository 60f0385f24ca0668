/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The siw provider's objects, each around the core object it extends,
 * and the to_siw*() converters from the core's pointer to ours.
 */
#ifndef SIW_H
#define SIW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/driver.h>
#include <rdma/siw-abi.h>

/*
 * Hidden: calls between the provider's files bind directly, with no
 * PLT and no interposition by a program's symbol of the same name.
 */
#pragma GCC visibility push(hidden)

/*
 * The lock the posters of one queue, or the pollers of one CQ, take
 * turns with: an atomic exchange takes it and a store gives it back,
 * inline, where pthread_spin_lock() and pthread_spin_unlock() would be
 * two calls into the C library on every post and poll, and with no call
 * a post or poll saves no register. Acquire and release keep the
 * queue's accesses inside. A taken lock is read until it is free (its
 * cache line stays shared), with the CPU's pause hint. Zeroed, it is
 * free: the queues are parts of zeroed allocations.
 */
struct siw_lock {
	_Atomic bool held;
};

static inline void siw_lock(struct siw_lock *lock)
{
	while (__builtin_expect(atomic_exchange_explicit(&lock->held, true,
							 memory_order_acquire),
				0)) {
		while (atomic_load_explicit(&lock->held,
					    memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#elif defined(__aarch64__)
			__asm__ volatile("yield");
#endif
		}
	}
}

static inline void siw_unlock(struct siw_lock *lock)
{
	atomic_store_explicit(&lock->held, false, memory_order_release);
}

struct siw_device {
	struct verbs_device vdev;
};

struct siw_context {
	struct verbs_context vctx;
	uint32_t dev_id; /* from GET_CONTEXT's driver answer */
	_Atomic uint8_t next_stag_key; /* low byte of the next MR's STag */
};

struct siw_pd {
	struct ibv_pd ibv_pd;
};

struct siw_mr {
	struct verbs_mr vmr;
};

/*
 * A CQ: the kernel's ring of num_cqe struct siw_cqe, mapped from
 * cmd_fd at cq_key, with the struct siw_cq_ctrl notify word right after
 * the last entry. head counts the entries taken; lock serialises
 * pollers (the kernel's side is the producer).
 */
struct siw_cq {
	struct verbs_cq vcq;
	struct siw_lock lock;
	struct siw_cqe *ring;
	struct siw_cq_ctrl *ctrl;
	size_t map_len;
	uint32_t num_cqe; /* a power of two */
	uint32_t cq_id;
	uint32_t head;
};

/*
 * A work queue the kernel shares: num ring elements (a power of two) of
 * struct siw_sqe or struct siw_rqe, mapped from cmd_fd; put counts the
 * elements posted. lock serialises posters.
 */
struct siw_wq {
	struct siw_lock lock;
	void *ring;
	size_t map_len;
	uint32_t num;
	uint32_t put;
	uint32_t max_sge; /* the queue's own, as CREATE answered */
};

struct siw_qp {
	struct verbs_qp vqp;
	struct siw_wq sq; /* struct siw_sqe */
	struct siw_wq rq; /* struct siw_rqe; no ring with an SRQ */
	uint32_t qp_id;
	uint16_t sq_signal; /* SIW_WQE_SIGNALLED if every send is signalled */
	/*
	 * The kernel refused the last doorbell: the elements it was rung
	 * for may be lying valid with nothing to start the engine, so the
	 * next post rings whatever the ring looks like. Under sq.lock.
	 */
	bool sq_db_owed;
};

static inline struct siw_context *to_siwctx(struct ibv_context *ctx)
{
	return container_of(ctx, struct siw_context, vctx.context);
}

static inline struct siw_pd *to_siwpd(struct ibv_pd *pd)
{
	return container_of(pd, struct siw_pd, ibv_pd);
}

static inline struct siw_mr *to_siwmr(struct verbs_mr *vmr)
{
	return container_of(vmr, struct siw_mr, vmr);
}

static inline struct siw_cq *to_siwcq(struct ibv_cq *cq)
{
	return container_of(cq, struct siw_cq, vcq.cq);
}

static inline struct siw_qp *to_siwqp(struct ibv_qp *qp)
{
	return container_of(qp, struct siw_qp, vqp.qp);
}

struct siw_srq {
	struct verbs_srq vsrq;
	struct siw_wq rq; /* struct siw_rqe */
};

static inline struct siw_srq *to_siwsrq(struct ibv_srq *srq)
{
	return container_of(srq, struct siw_srq, vsrq.srq);
}

/* siw_pd.c */
struct ibv_pd *siw_alloc_pd(struct ibv_context *ctx);
int siw_dealloc_pd(struct ibv_pd *pd);

/* siw_mr.c */
struct ibv_mr *siw_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
			  uint64_t hca_va, int access);
int siw_dereg_mr(struct verbs_mr *vmr);

/* siw_cq.c */
struct ibv_cq *siw_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector);
int siw_destroy_cq(struct ibv_cq *cq);
int siw_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int siw_req_notify_cq(struct ibv_cq *cq, int solicited_only);

/* siw_qp.c */
struct ibv_qp *siw_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
int siw_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int siw_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init);
int siw_destroy_qp(struct ibv_qp *qp);
int siw_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);
int siw_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);
int siw_wq_map(struct siw_wq *wq, int cmd_fd, uint32_t num, size_t elem,
	       uint64_t key);
void siw_explain_create(struct ibv_context *ctx, const char *verb, uint32_t wr,
			uint32_t sge, uint32_t inline_data);
void siw_wq_unmap(struct siw_wq *wq);
int siw_post_rqes(struct siw_context *ctx, const char *verb, struct siw_wq *wq,
		  struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

/* siw_srq.c */
struct ibv_srq *siw_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr);
int siw_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask);
int siw_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int siw_destroy_srq(struct ibv_srq *srq);
int siw_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);

#pragma GCC visibility pop

#endif /* SIW_H */
