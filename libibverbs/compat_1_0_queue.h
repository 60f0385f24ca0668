/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The object layouts of the libibverbs 1.0 ABI, shared by compat_1_0.c
 * (device, context, PD, MR, CQ, events) and compat_1_0_queue.c (SRQ, QP,
 * AH, and the wrappers in a 1.0 context's op table), and the queue
 * file's entry point. The header of the lower of the two files, so that
 * both include it downwards. Library-internal.
 */
#ifndef IBV_COMPAT_1_0_QUEUE_H
#define IBV_COMPAT_1_0_QUEUE_H

#include <assert.h>
#include <stddef.h>

#include "driver.h"

/*
 * The device handle of libibverbs 1.0. Programs linked against that ABI
 * get arrays of these; the third pointer leads to the real device.
 */
struct ibv_device_1_0 {
	void *obsolete_sysfs_dev;
	void *obsolete_sysfs_ibdev;
	struct ibv_device *real_device;
	struct _ibv_device_ops _ops;
};

/*
 * The objects of the 1.0 ABI. Each is allocated here and leads to the
 * library's object through its last member; the library's object points
 * back through its *_context member (CQ, QP, SRQ), which the 1.0 event
 * functions follow to hand back the object the program knows. The layouts
 * are frozen: old binaries read their members directly.
 */
struct ibv_context_1_0;

struct ibv_pd_1_0 {
	struct ibv_context_1_0 *context;
	uint32_t handle;
	struct ibv_pd *real_pd;
};

struct ibv_mr_1_0 {
	struct ibv_context_1_0 *context;
	struct ibv_pd_1_0 *pd;
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
	struct ibv_mr *real_mr;
};

struct ibv_srq_1_0 {
	struct ibv_context_1_0 *context;
	void *srq_context;
	struct ibv_pd_1_0 *pd;
	uint32_t handle;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_srq *real_srq;
};

struct ibv_cq_1_0 {
	struct ibv_context_1_0 *context;
	void *cq_context;
	uint32_t handle;
	int cqe;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t comp_events_completed;
	uint32_t async_events_completed;
	struct ibv_cq *real_cq;
};

struct ibv_qp_1_0 {
	struct ibv_context_1_0 *context;
	void *qp_context;
	struct ibv_pd_1_0 *pd;
	struct ibv_cq_1_0 *send_cq;
	struct ibv_cq_1_0 *recv_cq;
	struct ibv_srq_1_0 *srq;
	uint32_t handle;
	uint32_t qp_num;
	enum ibv_qp_state state;
	enum ibv_qp_type qp_type;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_qp *real_qp;
};

struct ibv_ah_1_0 {
	struct ibv_context_1_0 *context;
	struct ibv_pd_1_0 *pd;
	uint32_t handle;
	struct ibv_ah *real_ah;
};

struct ibv_qp_init_attr_1_0 {
	void *qp_context;
	struct ibv_cq_1_0 *send_cq;
	struct ibv_cq_1_0 *recv_cq;
	struct ibv_srq_1_0 *srq;
	struct ibv_qp_cap cap;
	enum ibv_qp_type qp_type;
	int sq_sig_all;
};

/* The 1.0 work requests put next before wr_id and end at the wr union. */
struct ibv_send_wr_1_0 {
	struct ibv_send_wr_1_0 *next;
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
			uint64_t remote_addr;
			uint64_t compare_add;
			uint64_t swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct ibv_ah_1_0 *ah;
			uint32_t remote_qpn;
			uint32_t remote_qkey;
		} ud;
	} wr;
};

struct ibv_recv_wr_1_0 {
	struct ibv_recv_wr_1_0 *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
};

/*
 * The 1.0 context's operations. Old headers inlined only polling, arming
 * and posting, so only those five slots are filled (with the wrappers
 * below); everything else was an exported function and stays NULL.
 */
struct ibv_context_ops_1_0 {
	void *query_device, *query_port, *alloc_pd, *dealloc_pd;
	void *reg_mr, *dereg_mr, *create_cq;
	int (*poll_cq)(struct ibv_cq_1_0 *cq, int num_entries,
		       struct ibv_wc *wc);
	int (*req_notify_cq)(struct ibv_cq_1_0 *cq, int solicited_only);
	void *cq_event, *resize_cq, *destroy_cq;
	void *create_srq, *modify_srq, *query_srq, *destroy_srq;
	int (*post_srq_recv)(struct ibv_srq_1_0 *srq,
			     struct ibv_recv_wr_1_0 *wr,
			     struct ibv_recv_wr_1_0 **bad_wr);
	void *create_qp, *query_qp, *modify_qp, *destroy_qp;
	int (*post_send)(struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 *wr,
			 struct ibv_send_wr_1_0 **bad_wr);
	int (*post_recv)(struct ibv_qp_1_0 *qp, struct ibv_recv_wr_1_0 *wr,
			 struct ibv_recv_wr_1_0 **bad_wr);
	void *create_ah, *destroy_ah, *attach_mcast, *detach_mcast;
};

/* Old programs read up to num_comp_vectors; the real context follows. */
struct ibv_context_1_0 {
	struct ibv_device_1_0 *device;
	struct ibv_context_ops_1_0 ops;
	int cmd_fd;
	int async_fd;
	int num_comp_vectors;
	struct ibv_context *real_context;
};

/* What old binaries were compiled with (x86_64); a change breaks them. */
static_assert(sizeof(struct ibv_context_ops_1_0) == 27 * sizeof(void *),
	      "1.0 context ops");
static_assert(offsetof(struct ibv_send_wr_1_0, wr) ==
		      offsetof(struct ibv_send_wr, wr),
	      "1.0 send WR");
static_assert(sizeof(((struct ibv_send_wr_1_0 *)0)->wr) ==
		      sizeof(((struct ibv_send_wr *)0)->wr),
	      "the wr unions are copied whole");

/* Fills the five slots of a 1.0 context's op table old inline code calls. */
void compat_1_0_set_ops(struct ibv_context_ops_1_0 *ops);

#endif
