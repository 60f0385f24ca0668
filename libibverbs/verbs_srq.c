// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of shared receive queues. Like rdma-core 44 they dispatch
 * without checking their arguments, and keep the core fields of an SRQ
 * that providers predating the command layer's init leave unset.
 */
#include <pthread.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "verbs_srq.h"

/**
 * ibv_create_srq - create a shared receive queue on @pd
 * Returns the SRQ, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(ibv_create_srq, "IBVERBS_1.1");
struct ibv_srq *ibv_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *srq_init_attr)
{
	struct ibv_srq *srq;

	srq = get_ops(pd->context)->create_srq(pd, srq_init_attr);
	if (!srq) {
		explain_create_srq(pd->context, &srq_init_attr->attr);
		return NULL;
	}
	/* Providers predating the command layer's init rely on these. */
	srq->context = pd->context;
	srq->srq_context = srq_init_attr->srq_context;
	srq->pd = pd;
	srq->events_completed = 0;
	pthread_mutex_init(&srq->mutex, NULL);
	pthread_cond_init(&srq->cond, NULL);
	return srq;
}

/* The inline ibv_create_srq_ex()'s slot, as verbs_create_qp_ex(). */
struct ibv_srq *verbs_create_srq_ex(struct ibv_context *context,
				    struct ibv_srq_init_attr_ex *attr)
{
	struct ibv_srq *srq = get_ops(context)->create_srq_ex(context, attr);

	if (!srq)
		explain_create_srq(context, &attr->attr);
	return srq;
}

/**
 * ibv_modify_srq - change the @srq_attr_mask attributes of @srq
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_modify_srq, "IBVERBS_1.1");
int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		   int srq_attr_mask)
{
	return get_ops(srq->context)->modify_srq(srq, srq_attr, srq_attr_mask);
}

/**
 * ibv_query_srq - read the attributes of @srq
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_query_srq, "IBVERBS_1.1");
int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	return get_ops(srq->context)->query_srq(srq, srq_attr);
}

/**
 * ibv_destroy_srq - destroy @srq
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_destroy_srq, "IBVERBS_1.1");
int ibv_destroy_srq(struct ibv_srq *srq)
{
	int ret = get_ops(srq->context)->destroy_srq(srq);

	if (ret == EBUSY)
		explain_busy(srq->context, EXPLAIN_SRQ, srq);
	return ret;
}
