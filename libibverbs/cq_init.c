// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The core's half of a completion queue: what the library owns in a CQ
 * a provider created (context, channel reference, event counters, lock
 * and condition), and the library's create_cq_ex, the one that inline
 * ibv_create_cq_ex() in applications reaches through verbs_context.
 *
 * It sits below context.c, which installs the wrapper in every context,
 * and below the public CQ verbs (verbs_cq.c), which share the set-up.
 */
#include <errno.h>

#include "explain.h"
#include "ibverbs.h"

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
void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context,
		   struct ibv_comp_channel *channel, void *cq_context)
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
