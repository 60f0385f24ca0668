/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The library's half of a context (context.c): the private operation
 * table every verb dispatches through, and what the kernel behind the
 * context has refused.
 */
#ifndef IBV_CONTEXT_H
#define IBV_CONTEXT_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "provider_release.h"

/* Core ioctl objects below this have their refused methods remembered. */
#define KCMD_MAX_OBJECTS 32

/* Reached through verbs_context.priv. */
struct verbs_ex_private {
	struct verbs_context_ops ops;
	/* The layouts of the provider that opened the context. */
	struct provider_abi abi;
	uint32_t driver_id;
	bool imported;
	/*
	 * What the kernel refused (kcmd.c): no ioctl interface at all, or
	 * per object a bit for each method it does not know. Only ever set.
	 */
	atomic_bool no_ioctl;
	_Atomic uint32_t refused[KCMD_MAX_OBJECTS];
};

/*
 * Every context the library sees was set up by verbs_init_context(), so
 * it is extended: verbs_get_ctx()'s NULL, for applications holding
 * contexts of older libraries, cannot happen here.
 */
static inline struct verbs_ex_private *get_priv(struct ibv_context *ctx)
{
	return container_of(ctx, struct verbs_context, context)->priv;
}

static inline const struct verbs_context_ops *get_ops(struct ibv_context *ctx)
{
	return &get_priv(ctx)->ops;
}

/*
 * The members of struct verbs_qp after its struct ibv_qp_ex, as the
 * provider of @ctx laid them out: they follow that provider's ibv_qp_ex,
 * whose size is its release's (provider_release.h), not this header's.
 */
struct verbs_qp_tail {
	uint32_t comp_mask;
	struct verbs_xrcd *xrcd;
};
static_assert(offsetof(struct verbs_qp, comp_mask) == sizeof(struct ibv_qp_ex),
	      "verbs_qp's own members follow its ibv_qp_ex");
static_assert(offsetof(struct verbs_qp, xrcd) -
			      offsetof(struct verbs_qp, comp_mask) ==
		      offsetof(struct verbs_qp_tail, xrcd),
	      "verbs_qp_tail mirrors verbs_qp");

static inline struct verbs_qp_tail *vqp_tail(struct ibv_context *ctx,
					     struct verbs_qp *vqp)
{
	return (struct verbs_qp_tail *)((char *)vqp +
					get_priv(ctx)->abi.qp_ex_size);
}

int verbs_init_context(struct verbs_context *vctx, struct ibv_device *device,
		       int cmd_fd, uint32_t driver_id);

#endif
