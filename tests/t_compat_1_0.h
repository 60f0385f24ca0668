/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The @IBVERBS_1.0 tests' fixture: the 1.0 layouts, spelled out again
 * here on their own (they are frozen ABI), the 1.0 functions resolved
 * with dlvsym() from the library under test, and a 1.0 context on the
 * test provider's device whose real context has fake provider ops that
 * record what they receive. For scenario children (T_CHECK).
 */
#ifndef T_COMPAT_1_0_H
#define T_COMPAT_1_0_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * The 1.0 ABI, as old binaries were compiled (members they may read).
 * Restated here on purpose, not taken from
 * libibverbs/compat_1_0_queue.h: an oracle that shared the library's
 * layouts would share their mistakes.
 */
struct dev_1_0 {
	void *unused[2];
	struct ibv_device *real;
	void *ops[2];
};

struct ops_1_0 {
	void *unused1[7];
	int (*poll_cq)(void *cq, int n, struct ibv_wc *wc);
	int (*req_notify_cq)(void *cq, int solicited_only);
	void *unused2[7];
	int (*post_srq_recv)(void *srq, void *wr, void **bad_wr);
	void *unused3[4];
	int (*post_send)(void *qp, void *wr, void **bad_wr);
	int (*post_recv)(void *qp, void *wr, void **bad_wr);
	void *unused4[4];
};

struct ctx_1_0 {
	struct dev_1_0 *device;
	struct ops_1_0 ops;
	int cmd_fd, async_fd, num_comp_vectors;
	struct ibv_context *real;
};

/* The offsets old binaries were built with (LP64). */
_Static_assert(offsetof(struct ctx_1_0, ops.post_send) == 8 + 21 * 8, "");
_Static_assert(offsetof(struct ctx_1_0, real) == 240, "");

struct pd_1_0 {
	struct ctx_1_0 *context;
	uint32_t handle;
	struct ibv_pd *real;
};

struct mr_1_0 {
	struct ctx_1_0 *context;
	struct pd_1_0 *pd;
	uint32_t handle, lkey, rkey;
	struct ibv_mr *real;
};

struct cq_1_0 {
	struct ctx_1_0 *context;
	void *cq_context;
	uint32_t handle;
	int cqe;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t comp_events_completed, async_events_completed;
	struct ibv_cq *real;
};

struct srq_1_0 {
	struct ctx_1_0 *context;
	void *srq_context;
	struct pd_1_0 *pd;
	uint32_t handle;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_srq *real;
};

struct qp_1_0 {
	struct ctx_1_0 *context;
	void *qp_context;
	struct pd_1_0 *pd;
	struct cq_1_0 *send_cq, *recv_cq;
	struct srq_1_0 *srq;
	uint32_t handle, qp_num;
	enum ibv_qp_state state;
	enum ibv_qp_type qp_type;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_qp *real;
};

struct ah_1_0 {
	struct ctx_1_0 *context;
	struct pd_1_0 *pd;
	uint32_t handle;
	struct ibv_ah *real;
};

struct qp_init_attr_1_0 {
	void *qp_context;
	struct cq_1_0 *send_cq, *recv_cq;
	struct srq_1_0 *srq;
	struct ibv_qp_cap cap;
	enum ibv_qp_type qp_type;
	int sq_sig_all;
};

/* Like every layout here, written apart from the library's on purpose. */
struct send_wr_1_0 {
	struct send_wr_1_0 *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
	enum ibv_wr_opcode opcode;
	int send_flags;
	__be32 imm_data;
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr, compare_add, swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct ah_1_0 *ah;
			uint32_t remote_qpn, remote_qkey;
		} ud;
	} wr;
};

struct recv_wr_1_0 {
	struct recv_wr_1_0 *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
};

/* The 1.0 functions, from the library under test. */
struct t_v0 {
	struct dev_1_0 **(*get_device_list)(int *n);
	void (*free_device_list)(struct dev_1_0 **list);
	struct ctx_1_0 *(*open_device)(struct dev_1_0 *dev);
	int (*close_device)(struct ctx_1_0 *ctx);
	int (*query_device)(struct ctx_1_0 *ctx, struct ibv_device_attr *a);
	int (*query_port)(struct ctx_1_0 *ctx, uint8_t port, void *attr);
	int (*query_gid)(struct ctx_1_0 *ctx, uint8_t port, int i,
			 union ibv_gid *gid);
	int (*query_pkey)(struct ctx_1_0 *ctx, uint8_t port, int i,
			  __be16 *pkey);
	struct pd_1_0 *(*alloc_pd)(struct ctx_1_0 *ctx);
	int (*dealloc_pd)(struct pd_1_0 *pd);
	struct mr_1_0 *(*reg_mr)(struct pd_1_0 *pd, void *addr, size_t len,
				 int access);
	int (*dereg_mr)(struct mr_1_0 *mr);
	struct cq_1_0 *(*create_cq)(struct ctx_1_0 *ctx, int cqe, void *cq_ctx,
				    struct ibv_comp_channel *ch, int vector);
	int (*resize_cq)(struct cq_1_0 *cq, int cqe);
	int (*destroy_cq)(struct cq_1_0 *cq);
	int (*get_cq_event)(struct ibv_comp_channel *ch, struct cq_1_0 **cq,
			    void **cq_ctx);
	void (*ack_cq_events)(struct cq_1_0 *cq, unsigned int n);
	struct srq_1_0 *(*create_srq)(struct pd_1_0 *pd,
				      struct ibv_srq_init_attr *attr);
	int (*modify_srq)(struct srq_1_0 *srq, struct ibv_srq_attr *attr,
			  int mask);
	int (*query_srq)(struct srq_1_0 *srq, struct ibv_srq_attr *attr);
	int (*destroy_srq)(struct srq_1_0 *srq);
	struct qp_1_0 *(*create_qp)(struct pd_1_0 *pd,
				    struct qp_init_attr_1_0 *attr);
	int (*query_qp)(struct qp_1_0 *qp, struct ibv_qp_attr *attr, int mask,
			struct qp_init_attr_1_0 *init);
	int (*modify_qp)(struct qp_1_0 *qp, struct ibv_qp_attr *attr, int mask);
	int (*destroy_qp)(struct qp_1_0 *qp);
	int (*attach_mcast)(struct qp_1_0 *qp, union ibv_gid *gid,
			    uint16_t lid);
	int (*detach_mcast)(struct qp_1_0 *qp, union ibv_gid *gid,
			    uint16_t lid);
	struct ah_1_0 *(*create_ah)(struct pd_1_0 *pd, struct ibv_ah_attr *a);
	int (*destroy_ah)(struct ah_1_0 *ah);
	int (*get_async_event)(struct ctx_1_0 *ctx, struct ibv_async_event *e);
	void (*ack_async_event)(struct ibv_async_event *e);
};
extern struct t_v0 v0;

/* What the fake provider ops received. */
#define MAX_REC 32
struct t_rec {
	struct ibv_send_wr send[MAX_REC];
	struct ibv_recv_wr recv[MAX_REC];
	int nsend, nrecv, post_calls;
	int fail_at; /* the request a post op refuses, or -1 */
	int destroy_err; /* what destroy_qp returns once */
	void *obj; /* the object of the last poll, notify or modify */
	int arg; /* and its number argument */
	size_t attr_size;
	uint16_t lid;
};
extern struct t_rec rec;

/* Forgets what the fake ops recorded; no post op fails. */
void t_rec_reset(void);

/*
 * tprov0 on a fake kernel, opened through the 1.0 functions, with the
 * fake ops installed; NULL when the scenario must skip.
 */
struct ctx_1_0 *t_open_1_0(void);
void t_close_1_0(struct ctx_1_0 *ctx);

#endif
