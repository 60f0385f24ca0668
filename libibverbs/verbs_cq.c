// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of the CQ family: create, resize and destroy a completion
 * queue. Each calls the provider's op (which calls ibv_cmd_*_cq() in
 * cmd_cq.c) and then keeps what the core owns: the CQ's core fields
 * (verbs_init_cq() in cq_init.c) and the completion channel's count of
 * the CQs that report to it. Polling and arming are inline functions in
 * <infiniband/verbs.h> that call the provider directly; the extended
 * create is inline too and reaches cq_init.c through verbs_context.
 *
 * The @IBVERBS_1.0 versions live in compat_1_0.c.
 */
#include "explain.h"
#include "ibverbs.h"

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
VERBS_DEFAULT_VERSION(struct ibv_cq *, ibv_create_cq, "IBVERBS_1.1",
		      struct ibv_context *context, int cqe, void *cq_context,
		      struct ibv_comp_channel *channel, int comp_vector)
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
VERBS_DEFAULT_VERSION(int, ibv_resize_cq, "IBVERBS_1.1", struct ibv_cq *cq,
		      int cqe)
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
VERBS_DEFAULT_VERSION(int, ibv_destroy_cq, "IBVERBS_1.1", struct ibv_cq *cq)
{
	struct ibv_comp_channel *channel = cq->channel;
	int ret;

	ret = get_ops(cq->context)->destroy_cq(cq);
	if (ret || !channel)
		return ret;
	pthread_mutex_lock(&channel->context->mutex);
	channel->refcnt--;
	pthread_mutex_unlock(&channel->context->mutex);
	return 0;
}
