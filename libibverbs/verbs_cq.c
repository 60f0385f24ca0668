// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of completion queues: create, resize and destroy, and the
 * core's half of every CQ a provider creates (verbs_init_cq(): context,
 * channel reference, event counters, lock and condition). The library's
 * create_cq_ex is the slot the inline ibv_create_cq_ex() reaches through
 * verbs_context; it refuses completion fields no provider of rdma-core
 * 44 reports before the provider sees them. Polling and arming are inline
 * in <infiniband/verbs.h> and call the provider directly. A completion
 * channel counts the CQs that report to it.
 *
 * The @IBVERBS_1.0 versions live in compat_1_0.c.
 */
#include <errno.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "verbs_cq.h"

/**
 * verbs_init_cq - set the core fields of a new CQ
 * @cq: the CQ the provider created
 * @context: its context
 * @channel: the completion channel it reports to, or NULL
 * @cq_context: the application's cookie
 *
 * The channel counts its CQs under the context mutex, the same lock
 * ibv_destroy_comp_channel() checks the count under.
 */
IBV_EXPORT void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context,
			      struct ibv_comp_channel *channel,
			      void *cq_context)
{
	cq->context = context;
	cq->channel = channel;
	if (channel) {
		pthread_mutex_lock(&context->mutex);
		channel->refcnt++;
		pthread_mutex_unlock(&context->mutex);
	}
	cq->cq_context = cq_context;
	cq->comp_events_completed = 0;
	cq->async_events_completed = 0;
	pthread_mutex_init(&cq->mutex, NULL);
	pthread_cond_init(&cq->cond, NULL);
}
VERBS_PRIVATE_EXPORT(verbs_init_cq);

/*
 * Refuses completion fields no provider of rdma-core 44 can report
 * before asking the provider, so every provider sees only known bits.
 */
struct ibv_cq_ex *verbs_create_cq_ex(struct ibv_context *context,
				     struct ibv_cq_init_attr_ex *cq_attr)
{
	struct ibv_cq_ex *cq;

	if (cq_attr->wc_flags & ~(uint64_t)IBV_CREATE_CQ_SUP_WC_FLAGS) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = get_ops(context)->create_cq_ex(context, cq_attr);
	if (cq)
		verbs_init_cq(ibv_cq_ex_to_cq(cq), context, cq_attr->channel,
			      cq_attr->cq_context);
	else
		explain_create_cq(context, cq_attr->cqe, cq_attr->comp_vector);
	return cq;
}

/**
 * ibv_create_cq - create a completion queue
 * @context: the device context
 * @cqe: the minimum number of entries
 * @cq_context: returned with each completion event
 * @channel: completion channel for events, or NULL
 * @comp_vector: completion vector
 *
 * Returns the CQ, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(ibv_create_cq, "IBVERBS_1.1");
struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe,
			     void *cq_context, struct ibv_comp_channel *channel,
			     int comp_vector)
{
	struct ibv_cq *cq;

	cq = get_ops(context)->create_cq(context, cqe, channel, comp_vector);
	if (cq)
		verbs_init_cq(cq, context, channel, cq_context);
	else
		explain_create_cq(context, cqe, comp_vector);
	return cq;
}

/**
 * ibv_resize_cq - change the number of entries of a CQ
 * @cq: the CQ; its cqe holds the new size on success
 * @cqe: the minimum number of entries
 *
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_resize_cq, "IBVERBS_1.1");
int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	return get_ops(cq->context)->resize_cq(cq, cqe);
}

/**
 * ibv_destroy_cq - destroy a completion queue
 * @cq: the CQ; freed by the provider on success
 *
 * Returns 0 or a positive errno value. The channel is read before the
 * provider frees the CQ, and released only once the CQ is really gone.
 */
VERBS_DEFAULT_VERSION(ibv_destroy_cq, "IBVERBS_1.1");
int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct ibv_comp_channel *channel = cq->channel;
	int ret;

	ret = get_ops(cq->context)->destroy_cq(cq);
	if (ret == EBUSY)
		explain_busy(cq->context, EXPLAIN_CQ, cq);
	if (ret || !channel)
		return ret;
	pthread_mutex_lock(&channel->context->mutex);
	channel->refcnt--;
	pthread_mutex_unlock(&channel->context->mutex);
	return 0;
}
