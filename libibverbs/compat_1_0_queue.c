// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The queue half of the @IBVERBS_1.0 compat layer: the 1.0 SRQ, QP, AH
 * and multicast functions, and the wrappers a 1.0 context's op table
 * holds, through which old inline code polls, arms and posts. The posting
 * wrappers translate old work requests into current ones on the stack.
 * compat_1_0.c opens the 1.0 context and installs them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compat_1_0_queue.h"
#include "export.h"

/*
 * Polling and arming: the old inline functions call these through the
 * 1.0 context; they call the provider through the real context's slots,
 * as the current inline functions do.
 */
static int poll_cq_1_0(struct ibv_cq_1_0 *cq, int num_entries,
		       struct ibv_wc *wc)
{
	struct ibv_context *ctx = cq->context->real_context;

	return ctx->ops.poll_cq(cq->real_cq, num_entries, wc);
}

static int req_notify_cq_1_0(struct ibv_cq_1_0 *cq, int solicited_only)
{
	struct ibv_context *ctx = cq->context->real_context;

	return ctx->ops.req_notify_cq(cq->real_cq, solicited_only);
}

/*
 * Old work requests are translated into current ones on the stack, in
 * batches of this many, so that a long list costs no heap and bounded
 * stack. Posting a list in several calls is what the provider would have
 * done with one: it posts in order and stops at the first bad request.
 */
#define WR_BATCH 16

/* One old send request as the provider expects it; @wr is zeroed. */
static void send_wr_from_1_0(const struct ibv_qp_1_0 *qp,
			     const struct ibv_send_wr_1_0 *old,
			     struct ibv_send_wr *wr)
{
	wr->wr_id = old->wr_id;
	wr->sg_list = old->sg_list;
	wr->num_sge = old->num_sge;
	wr->opcode = old->opcode;
	wr->send_flags = old->send_flags;
	wr->imm_data = old->imm_data;
	memcpy(&wr->wr, &old->wr, sizeof(wr->wr));
	/* A UD request names a 1.0 AH; the provider needs the real one. */
	if (qp->qp_type == IBV_QPT_UD)
		wr->wr.ud.ah = old->wr.ud.ah ? old->wr.ud.ah->real_ah : NULL;
}

/*
 * Translates up to WR_BATCH requests from *@old on into @batch, linked
 * in order, and moves *@old past them. Returns how many.
 */
static int send_batch(const struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 **old,
		      struct ibv_send_wr *batch)
{
	int n;

	for (n = 0; *old && n < WR_BATCH; n++, *old = (*old)->next) {
		memset(&batch[n], 0, sizeof(batch[n]));
		send_wr_from_1_0(qp, *old, &batch[n]);
		if (n)
			batch[n - 1].next = &batch[n];
	}
	return n;
}

static int recv_batch(struct ibv_recv_wr_1_0 **old, struct ibv_recv_wr *batch)
{
	int n;

	for (n = 0; *old && n < WR_BATCH; n++, *old = (*old)->next) {
		batch[n].wr_id = (*old)->wr_id;
		batch[n].sg_list = (*old)->sg_list;
		batch[n].num_sge = (*old)->num_sge;
		batch[n].next = NULL;
		if (n)
			batch[n - 1].next = &batch[n];
	}
	return n;
}

/* Where @bad is in @batch of @n entries of @size bytes, or -1. */
static int batch_index(const void *bad, const void *batch, size_t size, int n)
{
	const char *p = batch;
	int i;

	for (i = 0; i < n; i++, p += size)
		if (p == bad)
			return i;
	return -1;
}

/*
 * The provider's bad request, as the program's old one. A provider that
 * names none of the batch leaves *bad_wr alone, as rdma-core 44 does.
 */
static void set_bad_send(struct ibv_send_wr_1_0 *first,
			 const struct ibv_send_wr *batch, int n,
			 const struct ibv_send_wr *bad,
			 struct ibv_send_wr_1_0 **bad_wr)
{
	int i = batch_index(bad, batch, sizeof(*batch), n);

	if (i < 0)
		return;
	while (i--)
		first = first->next;
	*bad_wr = first;
}

static void set_bad_recv(struct ibv_recv_wr_1_0 *first,
			 const struct ibv_recv_wr *batch, int n,
			 const struct ibv_recv_wr *bad,
			 struct ibv_recv_wr_1_0 **bad_wr)
{
	int i = batch_index(bad, batch, sizeof(*batch), n);

	if (i < 0)
		return;
	while (i--)
		first = first->next;
	*bad_wr = first;
}

/* An empty list still reaches the provider once, with NULL. */
static int post_send_1_0(struct ibv_qp_1_0 *qp, struct ibv_send_wr_1_0 *wr,
			 struct ibv_send_wr_1_0 **bad_wr)
{
	struct ibv_context *ctx = qp->context->real_context;
	struct ibv_send_wr batch[WR_BATCH], *bad = NULL;
	struct ibv_send_wr_1_0 *first;
	int n, ret;

	do {
		first = wr;
		n = send_batch(qp, &wr, batch);
		ret = ctx->ops.post_send(qp->real_qp, n ? batch : NULL, &bad);
	} while (!ret && wr);
	if (ret)
		set_bad_send(first, batch, n, bad, bad_wr);
	return ret;
}

/*
 * Receive requests go to a QP's queue, or with @srq set to the SRQ's.
 * post_srq_recv_1_0() passes a NULL @qp beside its @srq. gcc's
 * -fanalyzer (scripts/test) follows a NULL @srq there too, which only a
 * caller breaking the verb's contract passes, and reports the NULL @qp
 * below.
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-null-dereference"
#endif
static int post_recv_once(struct ibv_qp_1_0 *qp, struct ibv_srq_1_0 *srq,
			  struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct ibv_context *ctx;

	if (srq) {
		ctx = srq->context->real_context;
		return ctx->ops.post_srq_recv(srq->real_srq, wr, bad);
	}
	ctx = qp->context->real_context;
	return ctx->ops.post_recv(qp->real_qp, wr, bad);
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

static int post_recv_any(struct ibv_qp_1_0 *qp, struct ibv_srq_1_0 *srq,
			 struct ibv_recv_wr_1_0 *wr,
			 struct ibv_recv_wr_1_0 **bad_wr)
{
	struct ibv_recv_wr batch[WR_BATCH], *bad = NULL;
	struct ibv_recv_wr_1_0 *first;
	int n, ret;

	do {
		first = wr;
		n = recv_batch(&wr, batch);
		ret = post_recv_once(qp, srq, n ? batch : NULL, &bad);
	} while (!ret && wr);
	if (ret)
		set_bad_recv(first, batch, n, bad, bad_wr);
	return ret;
}

static int post_recv_1_0(struct ibv_qp_1_0 *qp, struct ibv_recv_wr_1_0 *wr,
			 struct ibv_recv_wr_1_0 **bad_wr)
{
	return post_recv_any(qp, NULL, wr, bad_wr);
}

static int post_srq_recv_1_0(struct ibv_srq_1_0 *srq,
			     struct ibv_recv_wr_1_0 *wr,
			     struct ibv_recv_wr_1_0 **bad_wr)
{
	return post_recv_any(NULL, srq, wr, bad_wr);
}

void compat_1_0_set_ops(struct ibv_context_ops_1_0 *ops)
{
	ops->poll_cq = poll_cq_1_0;
	ops->req_notify_cq = req_notify_cq_1_0;
	ops->post_send = post_send_1_0;
	ops->post_recv = post_recv_1_0;
	ops->post_srq_recv = post_srq_recv_1_0;
}

IBV_EXPORT struct ibv_srq_1_0 *
ibv_create_srq_1_0(struct ibv_pd_1_0 *pd,
		   struct ibv_srq_init_attr *srq_init_attr);
struct ibv_srq_1_0 *ibv_create_srq_1_0(struct ibv_pd_1_0 *pd,
				       struct ibv_srq_init_attr *srq_init_attr)
{
	struct ibv_srq_1_0 *srq = calloc(1, sizeof(*srq));
	struct ibv_srq *real;

	if (!srq)
		return NULL;
	real = ibv_create_srq(pd->real_pd, srq_init_attr);
	if (!real) {
		free(srq);
		return NULL;
	}
	srq->context = pd->context;
	srq->srq_context = srq_init_attr->srq_context;
	srq->pd = pd;
	srq->handle = real->handle;
	srq->real_srq = real;
	real->srq_context = srq;
	return srq;
}
VERBS_COMPAT_VERSION(ibv_create_srq_1_0, ibv_create_srq, "IBVERBS_1.0");

IBV_EXPORT int ibv_modify_srq_1_0(struct ibv_srq_1_0 *srq,
				  struct ibv_srq_attr *srq_attr,
				  int srq_attr_mask);
int ibv_modify_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask)
{
	return ibv_modify_srq(srq->real_srq, srq_attr, srq_attr_mask);
}
VERBS_COMPAT_VERSION(ibv_modify_srq_1_0, ibv_modify_srq, "IBVERBS_1.0");

IBV_EXPORT int ibv_query_srq_1_0(struct ibv_srq_1_0 *srq,
				 struct ibv_srq_attr *srq_attr);
int ibv_query_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr)
{
	return ibv_query_srq(srq->real_srq, srq_attr);
}
VERBS_COMPAT_VERSION(ibv_query_srq_1_0, ibv_query_srq, "IBVERBS_1.0");

IBV_EXPORT int ibv_destroy_srq_1_0(struct ibv_srq_1_0 *srq);
int ibv_destroy_srq_1_0(struct ibv_srq_1_0 *srq)
{
	int ret = ibv_destroy_srq(srq->real_srq);

	if (!ret)
		free(srq);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_srq_1_0, ibv_destroy_srq, "IBVERBS_1.0");

/*
 * Between wrappers and real objects, either way. NULL stays NULL (where
 * rdma-core 44 would follow it), e.g. the SRQ of a QP without one.
 */
static struct ibv_cq *real_cq(struct ibv_cq_1_0 *cq)
{
	return cq ? cq->real_cq : NULL;
}

static struct ibv_srq *real_srq(struct ibv_srq_1_0 *srq)
{
	return srq ? srq->real_srq : NULL;
}

static struct ibv_cq_1_0 *cq_1_0(struct ibv_cq *cq)
{
	return cq ? cq->cq_context : NULL;
}

static struct ibv_srq_1_0 *srq_1_0(struct ibv_srq *srq)
{
	return srq ? srq->srq_context : NULL;
}

static void fill_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_pd_1_0 *pd,
			const struct ibv_qp_init_attr_1_0 *attr,
			struct ibv_qp *real)
{
	qp->context = pd->context;
	qp->qp_context = attr->qp_context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->srq = attr->srq;
	qp->handle = real->handle;
	qp->qp_num = real->qp_num;
	/* post_send_1_0() needs it to translate the AHs of UD requests. */
	qp->qp_type = attr->qp_type;
	qp->real_qp = real;
}

/* The capabilities the provider granted go back to the caller. */
IBV_EXPORT struct ibv_qp_1_0 *
ibv_create_qp_1_0(struct ibv_pd_1_0 *pd,
		  struct ibv_qp_init_attr_1_0 *qp_init_attr);
struct ibv_qp_1_0 *ibv_create_qp_1_0(struct ibv_pd_1_0 *pd,
				     struct ibv_qp_init_attr_1_0 *qp_init_attr)
{
	struct ibv_qp_1_0 *qp = calloc(1, sizeof(*qp));
	struct ibv_qp_init_attr attr = {
		.qp_context = qp_init_attr->qp_context,
		.send_cq = real_cq(qp_init_attr->send_cq),
		.recv_cq = real_cq(qp_init_attr->recv_cq),
		.srq = real_srq(qp_init_attr->srq),
		.cap = qp_init_attr->cap,
		.qp_type = qp_init_attr->qp_type,
		.sq_sig_all = qp_init_attr->sq_sig_all,
	};
	struct ibv_qp *real;

	if (!qp)
		return NULL;
	real = ibv_create_qp(pd->real_pd, &attr);
	if (!real) {
		free(qp);
		return NULL;
	}
	fill_qp_1_0(qp, pd, qp_init_attr, real);
	qp_init_attr->cap = attr.cap;
	real->qp_context = qp;
	return qp;
}
VERBS_COMPAT_VERSION(ibv_create_qp_1_0, ibv_create_qp, "IBVERBS_1.0");

/* The objects in @init_attr come back as the program's 1.0 ones. */
IBV_EXPORT int ibv_query_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
				int attr_mask,
				struct ibv_qp_init_attr_1_0 *init_attr);
int ibv_query_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
		     int attr_mask, struct ibv_qp_init_attr_1_0 *init_attr)
{
	struct ibv_qp_init_attr real = {};
	int ret;

	ret = ibv_query_qp(qp->real_qp, attr, attr_mask, &real);
	if (ret)
		return ret;
	init_attr->qp_context = qp->qp_context;
	init_attr->send_cq = cq_1_0(real.send_cq);
	init_attr->recv_cq = cq_1_0(real.recv_cq);
	init_attr->srq = srq_1_0(real.srq);
	init_attr->qp_type = real.qp_type;
	init_attr->cap = real.cap;
	init_attr->sq_sig_all = real.sq_sig_all;
	return 0;
}
VERBS_COMPAT_VERSION(ibv_query_qp_1_0, ibv_query_qp, "IBVERBS_1.0");

IBV_EXPORT int ibv_modify_qp_1_0(struct ibv_qp_1_0 *qp,
				 struct ibv_qp_attr *attr, int attr_mask);
int ibv_modify_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
		      int attr_mask)
{
	return ibv_modify_qp(qp->real_qp, attr, attr_mask);
}
VERBS_COMPAT_VERSION(ibv_modify_qp_1_0, ibv_modify_qp, "IBVERBS_1.0");

IBV_EXPORT int ibv_destroy_qp_1_0(struct ibv_qp_1_0 *qp);
int ibv_destroy_qp_1_0(struct ibv_qp_1_0 *qp)
{
	int ret = ibv_destroy_qp(qp->real_qp);

	if (!ret)
		free(qp);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_qp_1_0, ibv_destroy_qp, "IBVERBS_1.0");

IBV_EXPORT int ibv_attach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
				    uint16_t lid);
int ibv_attach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid)
{
	return ibv_attach_mcast(qp->real_qp, gid, lid);
}
VERBS_COMPAT_VERSION(ibv_attach_mcast_1_0, ibv_attach_mcast, "IBVERBS_1.0");

IBV_EXPORT int ibv_detach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
				    uint16_t lid);
int ibv_detach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid)
{
	return ibv_detach_mcast(qp->real_qp, gid, lid);
}
VERBS_COMPAT_VERSION(ibv_detach_mcast_1_0, ibv_detach_mcast, "IBVERBS_1.0");

IBV_EXPORT struct ibv_ah_1_0 *ibv_create_ah_1_0(struct ibv_pd_1_0 *pd,
						struct ibv_ah_attr *attr);
struct ibv_ah_1_0 *ibv_create_ah_1_0(struct ibv_pd_1_0 *pd,
				     struct ibv_ah_attr *attr)
{
	struct ibv_ah_1_0 *ah = calloc(1, sizeof(*ah));
	struct ibv_ah *real;

	if (!ah)
		return NULL;
	real = ibv_create_ah(pd->real_pd, attr);
	if (!real) {
		free(ah);
		return NULL;
	}
	ah->context = pd->context;
	ah->pd = pd;
	ah->handle = real->handle;
	ah->real_ah = real;
	return ah;
}
VERBS_COMPAT_VERSION(ibv_create_ah_1_0, ibv_create_ah, "IBVERBS_1.0");

IBV_EXPORT int ibv_destroy_ah_1_0(struct ibv_ah_1_0 *ah);
int ibv_destroy_ah_1_0(struct ibv_ah_1_0 *ah)
{
	int ret = ibv_destroy_ah(ah->real_ah);

	if (!ret)
		free(ah);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_ah_1_0, ibv_destroy_ah, "IBVERBS_1.0");
