// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verb_count's counted calls: one verb each, in a function of its own
 * named vc_op_<what>, which callgrind collects inside
 * (--toggle-collect='vc_op_*'). Its inclusive cost is the verb's work in
 * user space, the library's and the provider's, down to the C library's
 * system call stubs, plus the few instructions of the call itself, the
 * same on both sides.
 */
#include <stddef.h>

#include "verb_count.h"

/*
 * Kept whole and apart: never inlined, cloned or folded into a twin
 * (GCC's identical code folding would merge reg_mr_4k and reg_mr_1m).
 */
#if defined(__clang__)
#define VC_OP __attribute__((noinline, used))
#else
#define VC_OP __attribute__((noinline, noclone, no_icf, used))
#endif

/*
 * The result passes through an empty asm: the call cannot become a tail
 * jump, which would leave the counted function before the verb ran.
 */
#define KEPT(x)                                     \
	({                                          \
		__typeof__(x) kept_ = (x);          \
		__asm__ volatile("" : "+r"(kept_)); \
		kept_;                              \
	})

/* The access of every registration: what an application asks most. */
#define MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE)

VC_OP struct ibv_context *vc_op_open_device(struct ibv_device *dev)
{
	return KEPT(ibv_open_device(dev));
}

VC_OP int vc_op_close_device(struct ibv_context *ctx)
{
	return KEPT(ibv_close_device(ctx));
}

VC_OP int vc_op_query_device(struct ibv_context *ctx, struct ibv_device_attr *a)
{
	return KEPT(ibv_query_device(ctx, a));
}

VC_OP int vc_op_query_device_ex(struct ibv_context *ctx,
				struct ibv_device_attr_ex *a)
{
	return KEPT(ibv_query_device_ex(ctx, NULL, a));
}

VC_OP int vc_op_query_port(struct ibv_context *ctx, struct ibv_port_attr *a)
{
	return KEPT(ibv_query_port(ctx, 1, a));
}

VC_OP int vc_op_query_gid(struct ibv_context *ctx, int index,
			  union ibv_gid *gid)
{
	return KEPT(ibv_query_gid(ctx, 1, index, gid));
}

VC_OP int vc_op_query_gid_ex(struct ibv_context *ctx, uint32_t index,
			     struct ibv_gid_entry *e)
{
	return KEPT(ibv_query_gid_ex(ctx, 1, index, e, 0));
}

VC_OP ssize_t vc_op_query_gid_table(struct ibv_context *ctx,
				    struct ibv_gid_entry *e, size_t max)
{
	return KEPT(ibv_query_gid_table(ctx, e, max, 0));
}

VC_OP int vc_op_query_pkey(struct ibv_context *ctx, __be16 *pkey)
{
	return KEPT(ibv_query_pkey(ctx, 1, 0, pkey));
}

VC_OP struct ibv_pd *vc_op_alloc_pd(struct ibv_context *ctx)
{
	return KEPT(ibv_alloc_pd(ctx));
}

VC_OP int vc_op_dealloc_pd(struct ibv_pd *pd)
{
	return KEPT(ibv_dealloc_pd(pd));
}

VC_OP struct ibv_mr *vc_op_reg_mr_4k(struct ibv_pd *pd, void *buf, size_t len)
{
	return KEPT(ibv_reg_mr(pd, buf, len, MR_ACCESS));
}

VC_OP int vc_op_dereg_mr_4k(struct ibv_mr *mr)
{
	return KEPT(ibv_dereg_mr(mr));
}

VC_OP struct ibv_mr *vc_op_reg_mr_1m(struct ibv_pd *pd, void *buf, size_t len)
{
	return KEPT(ibv_reg_mr(pd, buf, len, MR_ACCESS));
}

VC_OP int vc_op_dereg_mr_1m(struct ibv_mr *mr)
{
	return KEPT(ibv_dereg_mr(mr));
}

VC_OP int vc_op_rereg_mr_access(struct ibv_mr *mr, int access)
{
	return KEPT(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
				 access));
}

VC_OP struct ibv_mw *vc_op_alloc_mw(struct ibv_pd *pd)
{
	return KEPT(ibv_alloc_mw(pd, IBV_MW_TYPE_1));
}

VC_OP int vc_op_dealloc_mw(struct ibv_mw *mw)
{
	return KEPT(ibv_dealloc_mw(mw));
}

VC_OP struct ibv_cq *vc_op_create_cq(struct ibv_context *ctx, int cqe)
{
	return KEPT(ibv_create_cq(ctx, cqe, NULL, NULL, 0));
}

VC_OP int vc_op_destroy_cq(struct ibv_cq *cq)
{
	return KEPT(ibv_destroy_cq(cq));
}

VC_OP struct ibv_cq_ex *vc_op_create_cq_ex(struct ibv_context *ctx,
					   struct ibv_cq_init_attr_ex *a)
{
	return KEPT(ibv_create_cq_ex(ctx, a));
}

VC_OP int vc_op_resize_cq(struct ibv_cq *cq, int cqe)
{
	return KEPT(ibv_resize_cq(cq, cqe));
}

VC_OP int vc_op_req_notify_cq(struct ibv_cq *cq)
{
	return KEPT(ibv_req_notify_cq(cq, 0));
}

VC_OP struct ibv_comp_channel *
vc_op_create_comp_channel(struct ibv_context *ctx)
{
	return KEPT(ibv_create_comp_channel(ctx));
}

VC_OP int vc_op_destroy_comp_channel(struct ibv_comp_channel *ch)
{
	return KEPT(ibv_destroy_comp_channel(ch));
}

VC_OP int vc_op_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq,
			     void **cq_context)
{
	return KEPT(ibv_get_cq_event(ch, cq, cq_context));
}

VC_OP void vc_op_ack_cq_events(struct ibv_cq *cq)
{
	ibv_ack_cq_events(cq, 1);
	/* Not a tail call either: nothing may move past it. */
	__asm__ volatile("" ::: "memory");
}

/*
 * The data path, for the record: verbs.h dispatches both inline through
 * the context's ops to the provider, so the core adds nothing on either
 * side and the rows must be equal.
 */
VC_OP int vc_op_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return KEPT(ibv_post_send(qp, wr, &bad));
}

VC_OP int vc_op_poll_cq(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return KEPT(ibv_poll_cq(cq, 1, wc));
}

VC_OP struct ibv_qp *vc_op_create_qp(struct ibv_pd *pd,
				     struct ibv_qp_init_attr *a)
{
	return KEPT(ibv_create_qp(pd, a));
}

VC_OP int vc_op_destroy_qp(struct ibv_qp *qp)
{
	return KEPT(ibv_destroy_qp(qp));
}

VC_OP struct ibv_qp *vc_op_create_qp_ex(struct ibv_context *ctx,
					struct ibv_qp_init_attr_ex *a)
{
	return KEPT(ibv_create_qp_ex(ctx, a));
}

VC_OP int vc_op_modify_qp_reset_init(struct ibv_qp *qp, struct ibv_qp_attr *a,
				     int mask)
{
	return KEPT(ibv_modify_qp(qp, a, mask));
}

VC_OP int vc_op_modify_qp_init_rtr(struct ibv_qp *qp, struct ibv_qp_attr *a,
				   int mask)
{
	return KEPT(ibv_modify_qp(qp, a, mask));
}

VC_OP int vc_op_modify_qp_rtr_rts(struct ibv_qp *qp, struct ibv_qp_attr *a,
				  int mask)
{
	return KEPT(ibv_modify_qp(qp, a, mask));
}

VC_OP int vc_op_modify_qp_rts_reset(struct ibv_qp *qp, struct ibv_qp_attr *a,
				    int mask)
{
	return KEPT(ibv_modify_qp(qp, a, mask));
}

VC_OP int vc_op_modify_qp_init_reset(struct ibv_qp *qp, struct ibv_qp_attr *a,
				     int mask)
{
	return KEPT(ibv_modify_qp(qp, a, mask));
}

VC_OP int vc_op_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
			 struct ibv_qp_init_attr *init)
{
	return KEPT(ibv_query_qp(qp, a, mask, init));
}

VC_OP struct ibv_srq *vc_op_create_srq(struct ibv_pd *pd,
				       struct ibv_srq_init_attr *a)
{
	return KEPT(ibv_create_srq(pd, a));
}

VC_OP int vc_op_destroy_srq(struct ibv_srq *srq)
{
	return KEPT(ibv_destroy_srq(srq));
}

VC_OP int vc_op_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *a,
			   int mask)
{
	return KEPT(ibv_modify_srq(srq, a, mask));
}

VC_OP int vc_op_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *a)
{
	return KEPT(ibv_query_srq(srq, a));
}

VC_OP struct ibv_ah *vc_op_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	return KEPT(ibv_create_ah(pd, a));
}

VC_OP int vc_op_destroy_ah(struct ibv_ah *ah)
{
	return KEPT(ibv_destroy_ah(ah));
}

VC_OP struct ibv_wq *vc_op_create_wq(struct ibv_context *ctx,
				     struct ibv_wq_init_attr *a)
{
	return KEPT(ibv_create_wq(ctx, a));
}

VC_OP struct ibv_flow *vc_op_create_flow(struct ibv_qp *qp,
					 struct ibv_flow_attr *a)
{
	return KEPT(ibv_create_flow(qp, a));
}

VC_OP struct ibv_counters *
vc_op_create_counters(struct ibv_context *ctx, struct ibv_counters_init_attr *a)
{
	return KEPT(ibv_create_counters(ctx, a));
}
