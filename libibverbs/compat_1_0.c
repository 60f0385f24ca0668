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
 * translate the work requests (compat_1_0_queue.c, with the queue
 * objects). None of this reaches a provider or the kernel any other way
 * than the current verbs do. The layouts are in compat_1_0_queue.h.
 */
#include <errno.h>
#include <stdlib.h>

#include "verbs_event.h"
#include "compat_1_0_queue.h"
#include "export.h"

/*
 * Providers of libibverbs 1.1 registered through this; none of those can
 * work with this library, but old libfabric binaries still import it.
 */
IBV_EXPORT void ibv_register_driver_compat(const char *name, void *init_func);
void ibv_register_driver_compat(const char *name, void *init_func)
{
}
VERBS_COMPAT_VERSION(ibv_register_driver_compat, ibv_register_driver,
		     "IBVERBS_1.1");

/*
 * The returned array is preceded by one hidden slot holding the current
 * list, so that freeing needs nothing but the array.
 */
IBV_EXPORT struct ibv_device_1_0 **ibv_get_device_list_1_0(int *num_devices);
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

IBV_EXPORT void ibv_free_device_list_1_0(struct ibv_device_1_0 **list);
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

IBV_EXPORT const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device);
const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_name(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_name_1_0, ibv_get_device_name,
		     "IBVERBS_1.0");

IBV_EXPORT __be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device);
__be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_guid(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_guid_1_0, ibv_get_device_guid,
		     "IBVERBS_1.0");

/*
 * The 1.0 context wraps a real one. rdma-core 44 leaves the descriptor
 * members unset; copying them lets an old program poll async_fd.
 */
IBV_EXPORT struct ibv_context_1_0 *
ibv_open_device_1_0(struct ibv_device_1_0 *device);
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
	compat_1_0_set_ops(&ctx->ops);
	return ctx;
}
VERBS_COMPAT_VERSION(ibv_open_device_1_0, ibv_open_device, "IBVERBS_1.0");

/* A wrapper is freed only once the real object is gone. */
IBV_EXPORT int ibv_close_device_1_0(struct ibv_context_1_0 *context);
int ibv_close_device_1_0(struct ibv_context_1_0 *context)
{
	int ret = ibv_close_device(context->real_context);

	if (!ret)
		free(context);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_close_device_1_0, ibv_close_device, "IBVERBS_1.0");

IBV_EXPORT int ibv_query_device_1_0(struct ibv_context_1_0 *context,
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
IBV_EXPORT int ibv_query_port_1_0(struct ibv_context_1_0 *context,
				  uint8_t port_num,
				  struct _compat_ibv_port_attr *port_attr);
int ibv_query_port_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       struct _compat_ibv_port_attr *port_attr)
{
	return (ibv_query_port)(context->real_context, port_num, port_attr);
}
VERBS_COMPAT_VERSION(ibv_query_port_1_0, ibv_query_port, "IBVERBS_1.0");

IBV_EXPORT int ibv_query_gid_1_0(struct ibv_context_1_0 *context,
				 uint8_t port_num, int index,
				 union ibv_gid *gid);
int ibv_query_gid_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		      int index, union ibv_gid *gid)
{
	return ibv_query_gid(context->real_context, port_num, index, gid);
}
VERBS_COMPAT_VERSION(ibv_query_gid_1_0, ibv_query_gid, "IBVERBS_1.0");

IBV_EXPORT int ibv_query_pkey_1_0(struct ibv_context_1_0 *context,
				  uint8_t port_num, int index, __be16 *pkey);
int ibv_query_pkey_1_0(struct ibv_context_1_0 *context, uint8_t port_num,
		       int index, __be16 *pkey)
{
	return ibv_query_pkey(context->real_context, port_num, index, pkey);
}
VERBS_COMPAT_VERSION(ibv_query_pkey_1_0, ibv_query_pkey, "IBVERBS_1.0");

/*
 * The event names the library's object; the program gets its 1.0 one,
 * found through the back-pointer the 1.0 create left in *_context.
 */
IBV_EXPORT int ibv_get_async_event_1_0(struct ibv_context_1_0 *context,
				       struct ibv_async_event *event);
int ibv_get_async_event_1_0(struct ibv_context_1_0 *context,
			    struct ibv_async_event *event)
{
	int ret = ibv_get_async_event(context->real_context, event);

	if (ret)
		return ret;
	switch (event_element(event->event_type)) {
	case EV_CQ:
		event->element.cq = event->element.cq->cq_context;
		break;
	case EV_QP:
		event->element.qp = event->element.qp->qp_context;
		break;
	case EV_SRQ:
		event->element.srq = event->element.srq->srq_context;
		break;
	case EV_WQ: /* no 1.0 wrapper: the library's own WQ */
	case EV_PORT:
		break;
	}
	return 0;
}
VERBS_COMPAT_VERSION(ibv_get_async_event_1_0, ibv_get_async_event,
		     "IBVERBS_1.0");

/* Acknowledges on a copy: the program's event keeps its 1.0 object. */
IBV_EXPORT void ibv_ack_async_event_1_0(struct ibv_async_event *event);
void ibv_ack_async_event_1_0(struct ibv_async_event *event)
{
	struct ibv_async_event real = *event;
	void *old = event->element.cq;

	switch (event_element(event->event_type)) {
	case EV_CQ:
		real.element.cq = ((struct ibv_cq_1_0 *)old)->real_cq;
		break;
	case EV_QP:
		real.element.qp = ((struct ibv_qp_1_0 *)old)->real_qp;
		break;
	case EV_SRQ:
		real.element.srq = ((struct ibv_srq_1_0 *)old)->real_srq;
		break;
	case EV_WQ: /* no 1.0 wrapper: the library's own WQ */
	case EV_PORT:
		break;
	}
	ibv_ack_async_event(&real);
}
VERBS_COMPAT_VERSION(ibv_ack_async_event_1_0, ibv_ack_async_event,
		     "IBVERBS_1.0");

IBV_EXPORT struct ibv_pd_1_0 *ibv_alloc_pd_1_0(struct ibv_context_1_0 *context);
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

IBV_EXPORT int ibv_dealloc_pd_1_0(struct ibv_pd_1_0 *pd);
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
IBV_EXPORT struct ibv_mr_1_0 *ibv_reg_mr_1_0(struct ibv_pd_1_0 *pd, void *addr,
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

IBV_EXPORT int ibv_dereg_mr_1_0(struct ibv_mr_1_0 *mr);
int ibv_dereg_mr_1_0(struct ibv_mr_1_0 *mr)
{
	int ret = ibv_dereg_mr(mr->real_mr);

	if (!ret)
		free(mr);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_dereg_mr_1_0, ibv_dereg_mr, "IBVERBS_1.0");

/* The CQ reports its 1.0 wrapper as cq_context to the 1.1 event calls. */
IBV_EXPORT struct ibv_cq_1_0 *
ibv_create_cq_1_0(struct ibv_context_1_0 *context, int cqe, void *cq_context,
		  struct ibv_comp_channel *channel, int comp_vector);
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

IBV_EXPORT int ibv_resize_cq_1_0(struct ibv_cq_1_0 *cq, int cqe);
int ibv_resize_cq_1_0(struct ibv_cq_1_0 *cq, int cqe)
{
	return ibv_resize_cq(cq->real_cq, cqe);
}
VERBS_COMPAT_VERSION(ibv_resize_cq_1_0, ibv_resize_cq, "IBVERBS_1.0");

IBV_EXPORT int ibv_destroy_cq_1_0(struct ibv_cq_1_0 *cq);
int ibv_destroy_cq_1_0(struct ibv_cq_1_0 *cq)
{
	int ret = ibv_destroy_cq(cq->real_cq);

	if (!ret)
		free(cq);
	return ret;
}
VERBS_COMPAT_VERSION(ibv_destroy_cq_1_0, ibv_destroy_cq, "IBVERBS_1.0");

/* The channel is the current one: it never had a 1.0 layout. */
IBV_EXPORT int ibv_get_cq_event_1_0(struct ibv_comp_channel *channel,
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

IBV_EXPORT void ibv_ack_cq_events_1_0(struct ibv_cq_1_0 *cq,
				      unsigned int nevents);
void ibv_ack_cq_events_1_0(struct ibv_cq_1_0 *cq, unsigned int nevents)
{
	ibv_ack_cq_events(cq->real_cq, nevents);
}
VERBS_COMPAT_VERSION(ibv_ack_cq_events_1_0, ibv_ack_cq_events, "IBVERBS_1.0");
