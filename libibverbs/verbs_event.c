// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Events: completion channels, and the completion and asynchronous
 * events an application reads and acknowledges.
 *
 * The kernel delivers each event as a fixed-size record on a file: a
 * completion channel's fd carries struct ib_uverbs_comp_event_desc (the
 * CQ's user_handle, which the core set to the struct ibv_cq pointer at
 * create time), the context's async_fd struct ib_uverbs_async_event_desc.
 * Acknowledging counts the event on its object, under the object's own
 * lock; a destroy (ibv_cmd_destroy_*()) waits on that count so that no
 * thread still holds an event for a freed object.
 *
 * The channel is created with the write() command CREATE_COMP_CHANNEL
 * through the transport (kcmd.c); it has no ioctl form in rdma-core 44.
 * The @IBVERBS_1.0 versions of the 1.1 names live in compat_1_0.c.
 */
#include <stdlib.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#include "verbs_event.h"
#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "kcmd.h"

/**
 * ibv_create_comp_channel - create a completion event channel
 * @context: the device context
 *
 * Returns the channel, or NULL with errno set.
 */
IBV_EXPORT struct ibv_comp_channel *
ibv_create_comp_channel(struct ibv_context *context)
{
	struct ib_uverbs_create_comp_channel_resp resp = { 0 };
	struct ibv_create_comp_channel req = {
		.core_payload = { .response = ioctl_ptr_to_u64(&resp) },
	};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
		KCMD_REQ(&req, sizeof(req)),
		KCMD_RESP(&resp, sizeof(resp)),
	};
	struct ibv_comp_channel *channel;

	channel = malloc(sizeof(*channel));
	if (!channel)
		return NULL;
	if (kcmd_write(context, &w)) {
		free(channel);
		return NULL;
	}
	channel->context = context;
	channel->fd = resp.fd;
	channel->refcnt = 0;
	return channel;
}

/*
 * A channel some CQs still report to stays: unlocks, and gives EBUSY with
 * the count.
 */
static __attribute__((cold, noinline)) int
channel_busy(struct ibv_context *ctx, struct ibv_comp_channel *channel)
{
	int cqs = channel->refcnt;

	pthread_mutex_unlock(&ctx->mutex);
	explain_busy(ctx, EXPLAIN_COMP_CHANNEL, &cqs);
	return EBUSY;
}

/**
 * ibv_destroy_comp_channel - destroy a completion event channel
 * @channel: the channel
 *
 * Returns 0, or EBUSY while a CQ still reports to it.
 */
IBV_EXPORT int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct ibv_context *context = channel->context;

	/* The CQ verbs change refcnt under the same lock. */
	pthread_mutex_lock(&context->mutex);
	if (channel->refcnt)
		return channel_busy(context, channel);
	close(channel->fd);
	free(channel);
	pthread_mutex_unlock(&context->mutex);
	return 0;
}

/**
 * ibv_get_cq_event - read the next completion event of a channel
 * @channel: the channel
 * @cq: the CQ the event is for
 * @cq_context: that CQ's cq_context
 *
 * Blocks unless the channel's fd is non-blocking. Returns 0, or -1 with
 * errno as read() left it when no whole record was read.
 */
VERBS_DEFAULT_VERSION(ibv_get_cq_event, "IBVERBS_1.1");
int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		     void **cq_context)
{
	struct ib_uverbs_comp_event_desc ev;

	if (read(channel->fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	*cq = (struct ibv_cq *)(uintptr_t)ev.cq_handle;
	*cq_context = (*cq)->cq_context;
	get_ops((*cq)->context)->cq_event(*cq);
	return 0;
}

/**
 * ibv_ack_cq_events - acknowledge completion events
 * @cq: the CQ they were for
 * @nevents: how many
 */
VERBS_DEFAULT_VERSION(ibv_ack_cq_events, "IBVERBS_1.1");
void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}

/**
 * ibv_get_async_event - read the next asynchronous event of a context
 * @context: the device context
 * @event: the event; element names its object or port
 *
 * Blocks unless async_fd is non-blocking. Returns 0, or -1 with errno as
 * read() left it when no whole record was read.
 */
VERBS_DEFAULT_VERSION(ibv_get_async_event, "IBVERBS_1.1");
int ibv_get_async_event(struct ibv_context *context,
			struct ibv_async_event *event)
{
	struct ib_uverbs_async_event_desc ev;
	void *obj;

	if (read(context->async_fd, &ev, sizeof(ev)) != sizeof(ev))
		return -1;
	event->event_type = ev.event_type;
	obj = (void *)(uintptr_t)ev.element;
	switch (event_element(event->event_type)) {
	case EV_CQ:
		event->element.cq = obj;
		break;
	case EV_QP:
		event->element.qp = obj;
		break;
	case EV_SRQ:
		event->element.srq = obj;
		break;
	case EV_WQ:
		event->element.wq = obj;
		break;
	case EV_PORT:
		event->element.port_num = ev.element;
		break;
	}
	get_ops(context)->async_event(context, event);
	return 0;
}

/* One more event handled on an object; a destroy may be waiting. */
static void ack_one(pthread_mutex_t *mutex, pthread_cond_t *cond,
		    uint32_t *completed)
{
	pthread_mutex_lock(mutex);
	++*completed;
	pthread_cond_signal(cond);
	pthread_mutex_unlock(mutex);
}

/**
 * ibv_ack_async_event - acknowledge an asynchronous event
 * @event: the event from ibv_get_async_event()
 */
VERBS_DEFAULT_VERSION(ibv_ack_async_event, "IBVERBS_1.1");
void ibv_ack_async_event(struct ibv_async_event *event)
{
	struct ibv_cq *cq = event->element.cq;
	struct ibv_qp *qp = event->element.qp;
	struct ibv_srq *srq = event->element.srq;
	struct ibv_wq *wq = event->element.wq;

	switch (event_element(event->event_type)) {
	case EV_CQ:
		ack_one(&cq->mutex, &cq->cond, &cq->async_events_completed);
		break;
	case EV_QP:
		ack_one(&qp->mutex, &qp->cond, &qp->events_completed);
		break;
	case EV_SRQ:
		ack_one(&srq->mutex, &srq->cond, &srq->events_completed);
		break;
	case EV_WQ:
		ack_one(&wq->mutex, &wq->cond, &wq->events_completed);
		break;
	case EV_PORT:
		break;
	}
}
