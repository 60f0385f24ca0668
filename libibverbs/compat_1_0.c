// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Entry points kept only for binaries built against old libibverbs: the
 * @IBVERBS_1.0 versions of the pre-1.1 ABI, and the empty
 * ibv_register_driver@IBVERBS_1.1. Programs built against current headers
 * never bind to these. Shared library only: the static archive carries the
 * newest version of each symbol alone.
 *
 * The 1.0 ABI had objects of its own layout (device, context, PD, MR, CQ,
 * SRQ, QP, AH) and work requests with next before wr_id. Each 1.0 object
 * here is a small wrapper around the library's object, and each 1.0
 * function unwraps its arguments and calls the current verb. Old inline
 * code polls and posts through the 1.0 context's op table, whose wrappers
 * translate the work requests. None of this reaches a provider or the
 * kernel any other way than the current verbs do.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ibverbs.h"

/*
 * Providers of libibverbs 1.1 registered through this; none of those can
 * work with this library, but old libfabric binaries still import it.
 */
void ibv_register_driver_compat(const char *name, void *init_func);
void ibv_register_driver_compat(const char *name, void *init_func)
{
}
VERBS_COMPAT_VERSION(ibv_register_driver_compat, ibv_register_driver,
		     "IBVERBS_1.1");

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
 * The returned array is preceded by one hidden slot holding the current
 * list, so that freeing needs nothing but the array.
 */
struct ibv_device_1_0 **ibv_get_device_list_1_0(int *num_devices);
struct ibv_device_1_0 **ibv_get_device_list_1_0(int *num_devices)
{
	struct ibv_device_1_0 **list;
	struct ibv_device **real;
	int n = 0, i;

	real = ibv_get_device_list(&n);
	if (!real)
		return NULL;
	list = calloc(n + 2, sizeof(*list));
	if (!list)
		goto err_free_real;
	list[0] = (struct ibv_device_1_0 *)real;
	for (i = 0; i < n; i++) {
		list[i + 1] = calloc(1, sizeof(**list));
		if (!list[i + 1])
			goto err_free_list;
		list[i + 1]->real_device = real[i];
	}
	if (num_devices)
		*num_devices = n;
	return list + 1;

err_free_list:
	while (i--)
		free(list[i + 1]);
	free(list);
err_free_real:
	ibv_free_device_list(real);
	errno = ENOMEM;
	return NULL;
}
VERBS_COMPAT_VERSION(ibv_get_device_list_1_0, ibv_get_device_list,
		     "IBVERBS_1.0");

void ibv_free_device_list_1_0(struct ibv_device_1_0 **list);
void ibv_free_device_list_1_0(struct ibv_device_1_0 **list)
{
	struct ibv_device_1_0 **d;

	if (!list)
		return;
	for (d = list; *d; d++)
		free(*d);
	ibv_free_device_list((struct ibv_device **)list[-1]);
	free(list - 1);
}
VERBS_COMPAT_VERSION(ibv_free_device_list_1_0, ibv_free_device_list,
		     "IBVERBS_1.0");

const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device);
const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_name(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_name_1_0, ibv_get_device_name,
		     "IBVERBS_1.0");

__be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device);
__be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_guid(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_guid_1_0, ibv_get_device_guid,
		     "IBVERBS_1.0");

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

/* Receive requests go to a QP's queue, or with @srq set to the SRQ's. */
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

/*
 * The 1.0 context wraps a real one. rdma-core 44 leaves the descriptor
 * members unset; copying them lets an old program poll async_fd.
 */
struct ibv_context_1_0 *ibv_open_device_1_0(struct ibv_device_1_0 *device);
struct ibv_context_1_0 *ibv_open_device_1_0(struct ibv_device_1_0 *device)
{
	struct ibv_context_1_0 *ctx = calloc(1, sizeof(*ctx));
	struct ibv_context *real;

	if (!ctx)
		return NULL;
	real = ibv_open_device(device->real_device);
	if (!real) {
		free(ctx);
		return NULL;
	}
	ctx->device = device;
	ctx->real_context = real;
	ctx->cmd_fd = real->cmd_fd;
	ctx->async_fd = real->async_fd;
	ctx->num_comp_vectors = real->num_comp_vectors;
	ctx->ops.poll_cq = poll_cq_1_0;
	ctx->ops.req_notify_cq = req_notify_cq_1_0;
	ctx->ops.post_send = post_send_1_0;
	ctx->ops.post_recv = post_recv_1_0;
	ctx->ops.post_srq_recv = post_srq_recv_1_0;
	return ctx;
}
VERBS_COMPAT_VERSION(ibv_open_device_1_0, ibv_open_device, "IBVERBS_1.0");

/* A wrapper is freed only once the real object is gone. */
int ibv_close_device_1_0(struct ibv_context_1_0 *context);
int ibv_close_device_1_0(struct ibv_context_1_0 *context)
{
	int ret = ibv_close_device(context->real_context);

	if (!ret)
		free(context);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_close_device_1_0, ibv_close_device, "IBVERBS_1.0");

int ibv_query_device_1_0(struct ibv_context_1_0 *context,
			 struct ibv_device_attr *device_attr);
int ibv_query_device_1_0(struct ibv_context_1_0 *context,
			 struct ibv_device_attr *device_attr)
{
	return ibv_query_device(context->real_context, device_attr);
}
VERBS_COMPAT_VERSION(ibv_query_device_1_0, ibv_query_device, "IBVERBS_1.0");

/*
 * The caller's structure is the 1.0 one, which the exported 1.1 function
 * fills exactly (48 bytes). rdma-core 44 writes the current, longer
 * structure here instead, past the end of an old program's.
 */
int ibv_query_port_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       struct _compat_ibv_port_attr *port_attr);
int ibv_query_port_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       struct _compat_ibv_port_attr *port_attr)
{
	return (ibv_query_port)(context->real_context, port_num, port_attr);
}
VERBS_COMPAT_VERSION(ibv_query_port_1_0, ibv_query_port, "IBVERBS_1.0");

int ibv_query_gid_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		      int index, union ibv_gid *gid);
int ibv_query_gid_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		      int index, union ibv_gid *gid)
{
	return ibv_query_gid(context->real_context, port_num, index, gid);
}
VERBS_COMPAT_VERSION(ibv_query_gid_1_0, ibv_query_gid, "IBVERBS_1.0");

int ibv_query_pkey_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       int index, __be16 *pkey);
int ibv_query_pkey_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       int index, __be16 *pkey)
{
	return ibv_query_pkey(context->real_context, port_num, index, pkey);
}
VERBS_COMPAT_VERSION(ibv_query_pkey_1_0, ibv_query_pkey, "IBVERBS_1.0");

/* Which kind of object an asynchronous event names, if any. */
enum element_kind { ELEM_OTHER, ELEM_CQ, ELEM_QP, ELEM_SRQ };

static enum element_kind element_kind(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_CQ_ERR:
		return ELEM_CQ;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return ELEM_QP;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return ELEM_SRQ;
	default:
		return ELEM_OTHER;
	}
}

/*
 * The event names the library's object; the program gets its 1.0 one,
 * found through the back-pointer the 1.0 create left in *_context.
 */
int ibv_get_async_event_1_0(struct ibv_context_1_0 *context,
			    struct ibv_async_event *event);
int ibv_get_async_event_1_0(struct ibv_context_1_0 *context,
			    struct ibv_async_event *event)
{
	int ret = ibv_get_async_event(context->real_context, event);

	if (ret)
		return ret;
	switch (element_kind(event->event_type)) {
	case ELEM_CQ:
		event->element.cq = event->element.cq->cq_context;
		break;
	case ELEM_QP:
		event->element.qp = event->element.qp->qp_context;
		break;
	case ELEM_SRQ:
		event->element.srq = event->element.srq->srq_context;
		break;
	case ELEM_OTHER:
		break;
	}
	return 0;
}
VERBS_COMPAT_VERSION(ibv_get_async_event_1_0, ibv_get_async_event,
		     "IBVERBS_1.0");

/* Acknowledges on a copy: the program's event keeps its 1.0 object. */
void ibv_ack_async_event_1_0(struct ibv_async_event *event);
void ibv_ack_async_event_1_0(struct ibv_async_event *event)
{
	struct ibv_async_event real = *event;
	void *old = event->element.cq;

	switch (element_kind(event->event_type)) {
	case ELEM_CQ:
		real.element.cq = ((struct ibv_cq_1_0 *)old)->real_cq;
		break;
	case ELEM_QP:
		real.element.qp = ((struct ibv_qp_1_0 *)old)->real_qp;
		break;
	case ELEM_SRQ:
		real.element.srq = ((struct ibv_srq_1_0 *)old)->real_srq;
		break;
	case ELEM_OTHER:
		break;
	}
	ibv_ack_async_event(&real);
}
VERBS_COMPAT_VERSION(ibv_ack_async_event_1_0, ibv_ack_async_event,
		     "IBVERBS_1.0");

struct ibv_pd_1_0 *ibv_alloc_pd_1_0(struct ibv_context_1_0 *context);
struct ibv_pd_1_0 *ibv_alloc_pd_1_0(struct ibv_context_1_0 *context)
{
	struct ibv_pd_1_0 *pd = calloc(1, sizeof(*pd));
	struct ibv_pd *real;

	if (!pd)
		return NULL;
	real = ibv_alloc_pd(context->real_context);
	if (!real) {
		free(pd);
		return NULL;
	}
	pd->context = context;
	pd->handle = real->handle;
	pd->real_pd = real;
	return pd;
}
VERBS_COMPAT_VERSION(ibv_alloc_pd_1_0, ibv_alloc_pd, "IBVERBS_1.0");

int ibv_dealloc_pd_1_0(struct ibv_pd_1_0 *pd);
int ibv_dealloc_pd_1_0(struct ibv_pd_1_0 *pd)
{
	int ret = ibv_dealloc_pd(pd->real_pd);

	if (!ret)
		free(pd);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_dealloc_pd_1_0, ibv_dealloc_pd, "IBVERBS_1.0");

/*
 * Through the ibv_reg_mr() of <infiniband/verbs.h>, as rdma-core 44: with
 * flags unknown at compile time that is ibv_reg_mr_iova2() with the
 * address as IOVA.
 */
struct ibv_mr_1_0 *ibv_reg_mr_1_0(struct ibv_pd_1_0 *pd, void *addr,
				  size_t length, int access);
struct ibv_mr_1_0 *ibv_reg_mr_1_0(struct ibv_pd_1_0 *pd, void *addr,
				  size_t length, int access)
{
	struct ibv_mr_1_0 *mr = calloc(1, sizeof(*mr));
	struct ibv_mr *real;

	if (!mr)
		return NULL;
	real = ibv_reg_mr(pd->real_pd, addr, length, access);
	if (!real) {
		free(mr);
		return NULL;
	}
	mr->context = pd->context;
	mr->pd = pd;
	mr->handle = real->handle;
	mr->lkey = real->lkey;
	mr->rkey = real->rkey;
	mr->real_mr = real;
	return mr;
}
VERBS_COMPAT_VERSION(ibv_reg_mr_1_0, ibv_reg_mr, "IBVERBS_1.0");

int ibv_dereg_mr_1_0(struct ibv_mr_1_0 *mr);
int ibv_dereg_mr_1_0(struct ibv_mr_1_0 *mr)
{
	int ret = ibv_dereg_mr(mr->real_mr);

	if (!ret)
		free(mr);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_dereg_mr_1_0, ibv_dereg_mr, "IBVERBS_1.0");

/* The CQ reports its 1.0 wrapper as cq_context to the 1.1 event calls. */
struct ibv_cq_1_0 *ibv_create_cq_1_0(struct ibv_context_1_0 *context, int cqe,
				     void *cq_context,
				     struct ibv_comp_channel *channel,
				     int comp_vector);
struct ibv_cq_1_0 *ibv_create_cq_1_0(struct ibv_context_1_0 *context, int cqe,
				     void *cq_context,
				     struct ibv_comp_channel *channel,
				     int comp_vector)
{
	struct ibv_cq_1_0 *cq = calloc(1, sizeof(*cq));
	struct ibv_cq *real;

	if (!cq)
		return NULL;
	real = ibv_create_cq(context->real_context, cqe, cq_context, channel,
			     comp_vector);
	if (!real) {
		free(cq);
		return NULL;
	}
	cq->context = context;
	cq->cq_context = cq_context;
	cq->handle = real->handle;
	/* The size asked for, as in rdma-core 44; not the provider's. */
	cq->cqe = cqe;
	cq->real_cq = real;
	real->cq_context = cq;
	return cq;
}
VERBS_COMPAT_VERSION(ibv_create_cq_1_0, ibv_create_cq, "IBVERBS_1.0");

int ibv_resize_cq_1_0(struct ibv_cq_1_0 *cq, int cqe);
int ibv_resize_cq_1_0(struct ibv_cq_1_0 *cq, int cqe)
{
	return ibv_resize_cq(cq->real_cq, cqe);
}
VERBS_COMPAT_VERSION(ibv_resize_cq_1_0, ibv_resize_cq, "IBVERBS_1.0");

int ibv_destroy_cq_1_0(struct ibv_cq_1_0 *cq);
int ibv_destroy_cq_1_0(struct ibv_cq_1_0 *cq)
{
	int ret = ibv_destroy_cq(cq->real_cq);

	if (!ret)
		free(cq);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_cq_1_0, ibv_destroy_cq, "IBVERBS_1.0");

/* The channel is the current one: it never had a 1.0 layout. */
int ibv_get_cq_event_1_0(struct ibv_comp_channel *channel,
			 struct ibv_cq_1_0 **cq, void **cq_context);
int ibv_get_cq_event_1_0(struct ibv_comp_channel *channel,
			 struct ibv_cq_1_0 **cq, void **cq_context)
{
	struct ibv_cq *real;
	void *wrapper;
	int ret;

	ret = ibv_get_cq_event(channel, &real, &wrapper);
	if (ret)
		return ret;
	*cq = wrapper;
	*cq_context = (*cq)->cq_context;
	return 0;
}
VERBS_COMPAT_VERSION(ibv_get_cq_event_1_0, ibv_get_cq_event, "IBVERBS_1.0");

void ibv_ack_cq_events_1_0(struct ibv_cq_1_0 *cq, unsigned int nevents);
void ibv_ack_cq_events_1_0(struct ibv_cq_1_0 *cq, unsigned int nevents)
{
	ibv_ack_cq_events(cq->real_cq, nevents);
}
VERBS_COMPAT_VERSION(ibv_ack_cq_events_1_0, ibv_ack_cq_events, "IBVERBS_1.0");

struct ibv_srq_1_0 *ibv_create_srq_1_0(struct ibv_pd_1_0 *pd,
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

int ibv_modify_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask);
int ibv_modify_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask)
{
	return ibv_modify_srq(srq->real_srq, srq_attr, srq_attr_mask);
}
VERBS_COMPAT_VERSION(ibv_modify_srq_1_0, ibv_modify_srq, "IBVERBS_1.0");

int ibv_query_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr);
int ibv_query_srq_1_0(struct ibv_srq_1_0 *srq, struct ibv_srq_attr *srq_attr)
{
	return ibv_query_srq(srq->real_srq, srq_attr);
}
VERBS_COMPAT_VERSION(ibv_query_srq_1_0, ibv_query_srq, "IBVERBS_1.0");

int ibv_destroy_srq_1_0(struct ibv_srq_1_0 *srq);
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
struct ibv_qp_1_0 *ibv_create_qp_1_0(struct ibv_pd_1_0 *pd,
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
int ibv_query_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
		     int attr_mask, struct ibv_qp_init_attr_1_0 *init_attr);
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

int ibv_modify_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
		      int attr_mask);
int ibv_modify_qp_1_0(struct ibv_qp_1_0 *qp, struct ibv_qp_attr *attr,
		      int attr_mask)
{
	return ibv_modify_qp(qp->real_qp, attr, attr_mask);
}
VERBS_COMPAT_VERSION(ibv_modify_qp_1_0, ibv_modify_qp, "IBVERBS_1.0");

int ibv_destroy_qp_1_0(struct ibv_qp_1_0 *qp);
int ibv_destroy_qp_1_0(struct ibv_qp_1_0 *qp)
{
	int ret = ibv_destroy_qp(qp->real_qp);

	if (!ret)
		free(qp);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_qp_1_0, ibv_destroy_qp, "IBVERBS_1.0");

int ibv_attach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid);
int ibv_attach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid)
{
	return ibv_attach_mcast(qp->real_qp, gid, lid);
}
VERBS_COMPAT_VERSION(ibv_attach_mcast_1_0, ibv_attach_mcast, "IBVERBS_1.0");

int ibv_detach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid);
int ibv_detach_mcast_1_0(struct ibv_qp_1_0 *qp, union ibv_gid *gid,
			 uint16_t lid)
{
	return ibv_detach_mcast(qp->real_qp, gid, lid);
}
VERBS_COMPAT_VERSION(ibv_detach_mcast_1_0, ibv_detach_mcast, "IBVERBS_1.0");

struct ibv_ah_1_0 *ibv_create_ah_1_0(struct ibv_pd_1_0 *pd,
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

int ibv_destroy_ah_1_0(struct ibv_ah_1_0 *ah);
int ibv_destroy_ah_1_0(struct ibv_ah_1_0 *ah)
{
	int ret = ibv_destroy_ah(ah->real_ah);

	if (!ret)
		free(ah);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_ah_1_0, ibv_destroy_ah, "IBVERBS_1.0");
