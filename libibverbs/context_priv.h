/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The library's private half of a context, which files of every layer
 * read: the operation table every verb dispatches through (filled by
 * verbs_set_ops()), the provider's driver id, and what the kernel behind
 * the context has refused (kcmd.c). A leaf header: it declares no
 * function of any file and includes only the provider ABI, so that the
 * command layer, the transport and the explanations can reach the table
 * without depending on context.c, which sits above them.
 */
#ifndef IBV_CONTEXT_PRIV_H
#define IBV_CONTEXT_PRIV_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"

/* Core ioctl objects below this have their refused methods remembered. */
#define KCMD_MAX_OBJECTS 32

/*
 * The layouts a provider was built with, where releases that share one
 * provider ABI number still differ (provider_release.c finds them).
 */
struct provider_abi {
	uint16_t qp_ex_size; /* sizeof(struct ibv_qp_ex) */
	uint8_t dmabuf_args; /* ibv_cmd_reg_dmabuf_mr(): 7, or 8 (driver) */
	/* The provider ABI it registered through: its structs' layouts. */
	uint8_t pabi;
	const char *release; /* releases/table's name, or NULL: our note */
};

/*
 * How many bytes of slots the newest struct verbs_context has in front of
 * those a provider of provider ABI @pabi embeds: the six that ABI 65
 * added. A pointer to such a provider's struct verbs_context is that much
 * above the newest layout's pointer for the same ibv_context.
 */
static inline size_t vctx_growth(unsigned int pabi)
{
	return pabi < 65 ? offsetof(struct verbs_context, query_port) : 0;
}

/* The newest layout's pointer for an older provider's @vctx. */
static inline struct verbs_context *vctx_from_provider(void *vctx,
						       unsigned int pabi)
{
	return (struct verbs_context *)((char *)vctx - vctx_growth(pabi));
}

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
 * Every context the library sees was set up by context.c, so
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

#endif
