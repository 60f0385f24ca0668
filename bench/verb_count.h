/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of verb_count share: the counted calls (verb_count_ops.c,
 * one function per verb, named vc_op_<what>, which callgrind collects
 * inside), the tally of what each of them answered, and the objects the
 * runs of the verbs work on.
 */
#ifndef VERB_COUNT_H
#define VERB_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

#include "wr_count.h"

/*
 * Every counted verb, in the order of the table the script prints. The
 * fork-safe pass runs the four VC_REG_ and VC_DEREG_ ones again, under
 * the same functions, and prints them with "_forksafe".
 */
enum vc_op {
	VC_OPEN_DEVICE,
	VC_CLOSE_DEVICE,
	VC_QUERY_DEVICE,
	VC_QUERY_DEVICE_EX,
	VC_QUERY_PORT,
	VC_QUERY_GID,
	VC_QUERY_GID_EX,
	VC_QUERY_GID_TABLE,
	VC_QUERY_PKEY,
	VC_ALLOC_PD,
	VC_DEALLOC_PD,
	VC_REG_MR_4K,
	VC_DEREG_MR_4K,
	VC_REG_MR_1M,
	VC_DEREG_MR_1M,
	VC_REREG_MR_ACCESS,
	VC_ALLOC_MW,
	VC_DEALLOC_MW,
	VC_CREATE_CQ,
	VC_DESTROY_CQ,
	VC_CREATE_CQ_EX,
	VC_RESIZE_CQ,
	VC_REQ_NOTIFY_CQ,
	VC_CREATE_COMP_CHANNEL,
	VC_DESTROY_COMP_CHANNEL,
	VC_GET_CQ_EVENT,
	VC_ACK_CQ_EVENTS,
	VC_POST_SEND,
	VC_POLL_CQ,
	VC_CREATE_QP,
	VC_DESTROY_QP,
	VC_CREATE_QP_EX,
	VC_MODIFY_QP_RESET_INIT,
	VC_MODIFY_QP_INIT_RTR,
	VC_MODIFY_QP_RTR_RTS,
	VC_MODIFY_QP_RTS_RESET,
	VC_MODIFY_QP_INIT_RESET,
	VC_QUERY_QP,
	VC_CREATE_SRQ,
	VC_DESTROY_SRQ,
	VC_MODIFY_SRQ,
	VC_QUERY_SRQ,
	VC_CREATE_AH,
	VC_DESTROY_AH,
	VC_CREATE_WQ,
	VC_CREATE_FLOW,
	VC_CREATE_COUNTERS,
	VC_NUM_OPS
};

/* The sizes of the two registrations (the fork-safe pass runs them too). */
#define VC_SIZE_4K 4096
#define VC_SIZE_1M (1 << 20)

/* What one run is about: the device, and the objects every group uses. */
struct vc {
	const char *dev_name;
	struct ibv_device *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	void *buf_4k, *buf_1m; /* page-aligned, faulted in */
	bool iwarp; /* siw: no AH, QPs connect through rdma_cm */
	int gid_index; /* RoCEv2 where the port has one */
	union ibv_gid gid;
	int gid_tbl_len;
	struct wrc w; /* two QPs connected, a to b, for the events */
};

/*
 * Record one call of @op that returned @ret: 0, a positive errno value,
 * or a negative number with the error in errno (the -1 of the verbs that
 * report so, the codes of ibv_rereg_mr()). A call that answers otherwise
 * than the first counted one marks the op mixed.
 */
void vc_note(enum vc_op op, int ret);

/* The same for a verb returning an object: NULL is a refusal in errno. */
void vc_note_obj(enum vc_op op, const void *obj);

/* @op was not called at all, for the reason @why. */
void vc_skip(enum vc_op op, const char *why);

/*
 * The groups of verbs, each verb @n times: the device's
 * (verb_count_device.c: open, queries), memory's (same file: PD, MR, MW;
 * vc_run_mr() is the registrations alone, the fork-safe pass), the
 * queues' (verb_count_queues.c: CQ, QP, SRQ, AH and the verbs rxe and
 * siw refuse) and the completion events' (verb_count_events.c).
 */
void vc_run_device(struct vc *v, int n);
void vc_run_pd(struct vc *v, int n);
void vc_run_mr(struct vc *v, int n);
void vc_run_cq(struct vc *v, int n);
void vc_run_events(struct vc *v, int n);
void vc_run_qp(struct vc *v, int n);
void vc_run_srq_ah(struct vc *v, int n);
void vc_run_refused(struct vc *v, int n);

/*
 * @v->w: two QPs connected a to b, a's CQ on a completion channel: on
 * rxe through the port's GID (wr_count_qps.c), on siw through rdma_cm
 * (wr_count_cm.c).
 */
void vc_setup(struct vc *v);

/* The counted calls (verb_count_ops.c), one verb each. */
struct ibv_context *vc_op_open_device(struct ibv_device *dev);
int vc_op_close_device(struct ibv_context *ctx);
int vc_op_query_device(struct ibv_context *ctx, struct ibv_device_attr *a);
int vc_op_query_device_ex(struct ibv_context *ctx,
			  struct ibv_device_attr_ex *a);
int vc_op_query_port(struct ibv_context *ctx, struct ibv_port_attr *a);
int vc_op_query_gid(struct ibv_context *ctx, int index, union ibv_gid *gid);
int vc_op_query_gid_ex(struct ibv_context *ctx, uint32_t index,
		       struct ibv_gid_entry *e);
ssize_t vc_op_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *e,
			      size_t max);
int vc_op_query_pkey(struct ibv_context *ctx, __be16 *pkey);
struct ibv_pd *vc_op_alloc_pd(struct ibv_context *ctx);
int vc_op_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *vc_op_reg_mr_4k(struct ibv_pd *pd, void *buf, size_t len);
int vc_op_dereg_mr_4k(struct ibv_mr *mr);
struct ibv_mr *vc_op_reg_mr_1m(struct ibv_pd *pd, void *buf, size_t len);
int vc_op_dereg_mr_1m(struct ibv_mr *mr);
int vc_op_rereg_mr_access(struct ibv_mr *mr, int access);
struct ibv_mw *vc_op_alloc_mw(struct ibv_pd *pd);
int vc_op_dealloc_mw(struct ibv_mw *mw);
struct ibv_cq *vc_op_create_cq(struct ibv_context *ctx, int cqe);
int vc_op_destroy_cq(struct ibv_cq *cq);
struct ibv_cq_ex *vc_op_create_cq_ex(struct ibv_context *ctx,
				     struct ibv_cq_init_attr_ex *a);
int vc_op_resize_cq(struct ibv_cq *cq, int cqe);
int vc_op_req_notify_cq(struct ibv_cq *cq);
struct ibv_comp_channel *vc_op_create_comp_channel(struct ibv_context *ctx);
int vc_op_destroy_comp_channel(struct ibv_comp_channel *ch);
int vc_op_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq,
		       void **cq_context);
void vc_op_ack_cq_events(struct ibv_cq *cq);
int vc_op_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr);
int vc_op_poll_cq(struct ibv_cq *cq, struct ibv_wc *wc);
struct ibv_qp *vc_op_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a);
int vc_op_destroy_qp(struct ibv_qp *qp);
struct ibv_qp *vc_op_create_qp_ex(struct ibv_context *ctx,
				  struct ibv_qp_init_attr_ex *a);
int vc_op_modify_qp_reset_init(struct ibv_qp *qp, struct ibv_qp_attr *a,
			       int mask);
int vc_op_modify_qp_init_rtr(struct ibv_qp *qp, struct ibv_qp_attr *a,
			     int mask);
int vc_op_modify_qp_rtr_rts(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask);
int vc_op_modify_qp_rts_reset(struct ibv_qp *qp, struct ibv_qp_attr *a,
			      int mask);
int vc_op_modify_qp_init_reset(struct ibv_qp *qp, struct ibv_qp_attr *a,
			       int mask);
int vc_op_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		   struct ibv_qp_init_attr *init);
struct ibv_srq *vc_op_create_srq(struct ibv_pd *pd,
				 struct ibv_srq_init_attr *a);
int vc_op_destroy_srq(struct ibv_srq *srq);
int vc_op_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *a, int mask);
int vc_op_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *a);
struct ibv_ah *vc_op_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a);
int vc_op_destroy_ah(struct ibv_ah *ah);
struct ibv_wq *vc_op_create_wq(struct ibv_context *ctx,
			       struct ibv_wq_init_attr *a);
struct ibv_flow *vc_op_create_flow(struct ibv_qp *qp, struct ibv_flow_attr *a);
struct ibv_counters *vc_op_create_counters(struct ibv_context *ctx,
					   struct ibv_counters_init_attr *a);

#endif
