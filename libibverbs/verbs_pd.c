// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of protection domains: allocation, destruction, and the
 * import of a PD that another process's context shares with ours
 * (ibv_import_device()).
 */
#include <errno.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"

/**
 * ibv_alloc_pd - allocate a protection domain
 * @context: the device context
 *
 * Returns the PD, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(ibv_alloc_pd, "IBVERBS_1.1");
struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct ibv_pd *pd = get_ops(context)->alloc_pd(context);

	if (pd)
		pd->context = context;
	return pd;
}

/**
 * ibv_dealloc_pd - destroy a protection domain
 * @pd: a PD with no objects left on it
 *
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_dealloc_pd, "IBVERBS_1.1");
int ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct ibv_context *ctx = pd->context;
	int ret = get_ops(ctx)->dealloc_pd(pd);

	if (ret == EBUSY)
		explain_busy(ctx, EXPLAIN_PD, NULL);
	return ret;
}

/**
 * ibv_import_pd - use a PD of an imported context as if it were ours
 * @context: a context from ibv_import_device()
 * @pd_handle: the PD's handle in the exporting context
 *
 * Returns the PD, or NULL with errno set.
 */
IBV_EXPORT struct ibv_pd *ibv_import_pd(struct ibv_context *context,
					uint32_t pd_handle)
{
	return get_ops(context)->import_pd(context, pd_handle);
}

/* Forget an imported PD here; the kernel object stays with its owner. */
IBV_EXPORT void ibv_unimport_pd(struct ibv_pd *pd)
{
	get_ops(pd->context)->unimport_pd(pd);
}
