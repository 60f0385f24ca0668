// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_set_ops(), which copies a provider's ops over a context's current
 * table (the dummies of ops_dummy.c at first) into the context's private
 * table and into the public slots that inline functions compiled into
 * applications call. A new op reaches a context only through a dummy
 * there and a line here; tests/ops_test.c checks that every slot a
 * provider sets is copied.
 */
#include <stdbool.h>
#include <stddef.h>

#include "context_priv.h"
#include "driver.h"
#include "export.h"
#include "ops.h"

/* Copies one op into the private table and, if given, a public slot. */
#define SET_PRIV(name)                          \
	do {                                    \
		if (ops->name)                  \
			priv->name = ops->name; \
	} while (0)
#define SET_CTX(name)                                           \
	do {                                                    \
		if (ops->name)                                  \
			priv->name = ctx->ops.name = ops->name; \
	} while (0)
/*
 * Ops that moved into the library also keep their old ibv_context_ops
 * slot, _compat_<name>, which rdma-core 44 fills with the provider's op
 * for binaries and tools that still read it.
 */
#define SET_COMPAT(name)                                                    \
	do {                                                                \
		if (ops->name)                                              \
			priv->name = ops->name,                             \
			ctx->ops._compat_##name =                           \
				(void *(*)(void))(void (*)(void))ops->name; \
	} while (0)
#define SET_VCTX(name)                                       \
	do {                                                 \
		if (ops->name)                               \
			priv->name = vctx->name = ops->name; \
	} while (0)
/*
 * A slot of the newest provider ABI's six on top of struct verbs_context:
 * the struct that a provider of an older ABI embeds ends before them (its
 * sz says so), and the memory there is the provider's own. @full: the
 * context has them all.
 */
#define SET_VCTX_NEW(name, full)                        \
	do {                                            \
		if (ops->name) {                        \
			priv->name = ops->name;         \
			if (full)                       \
				vctx->name = ops->name; \
		}                                       \
	} while (0)

/* Ops reached by inline functions through struct ibv_context_ops. */
static void set_ctx_ops(struct verbs_context *vctx,
			const struct verbs_context_ops *ops)
{
	struct verbs_context_ops *priv = &vctx->priv->ops;
	struct ibv_context *ctx = &vctx->context;

	SET_CTX(alloc_mw);
	SET_CTX(bind_mw);
	SET_CTX(dealloc_mw);
	SET_CTX(poll_cq);
	SET_CTX(req_notify_cq);
	SET_CTX(post_srq_recv);
	SET_CTX(post_send);
	SET_CTX(post_recv);
}

/* Ops reached by inline functions through the slots of verbs_context. */
static void set_vctx_ops(struct verbs_context *vctx,
			 const struct verbs_context_ops *ops)
{
	struct verbs_context_ops *priv = &vctx->priv->ops;

	SET_VCTX(advise_mr);
	SET_VCTX(alloc_dm);
	SET_VCTX(alloc_null_mr);
	SET_VCTX(alloc_parent_domain);
	SET_VCTX(alloc_td);
	SET_VCTX(attach_counters_point_flow);
	SET_VCTX(close_xrcd);
	SET_VCTX(create_counters);
	SET_VCTX(create_cq_ex);
	SET_VCTX(create_flow_action_esp);
	SET_VCTX(create_qp_ex);
	SET_VCTX(create_rwq_ind_table);
	SET_VCTX(create_srq_ex);
	SET_VCTX(create_wq);
	SET_VCTX(dealloc_td);
	SET_VCTX(destroy_counters);
	SET_VCTX(destroy_flow_action);
	SET_VCTX(destroy_rwq_ind_table);
	SET_VCTX(destroy_wq);
	SET_VCTX(free_dm);
	SET_VCTX(get_srq_num);
	SET_VCTX(modify_cq);
	SET_VCTX(modify_flow_action_esp);
	SET_VCTX(modify_qp_rate_limit);
	SET_VCTX(modify_wq);
	SET_VCTX(open_qp);
	SET_VCTX(open_xrcd);
	SET_VCTX(post_srq_ops);
	SET_VCTX(query_device_ex);
	SET_VCTX(query_rt_values);
	SET_VCTX(read_counters);
	SET_VCTX(reg_dm_mr);
	/* The extended flow slots carry an ibv_ prefix. */
	if (ops->create_flow)
		priv->create_flow = vctx->ibv_create_flow = ops->create_flow;
	if (ops->destroy_flow)
		priv->destroy_flow = vctx->ibv_destroy_flow = ops->destroy_flow;
}

/* Ops only the library itself calls (and their legacy slots). */
static void set_priv_ops(struct verbs_context *vctx,
			 const struct verbs_context_ops *ops)
{
	struct verbs_context_ops *priv = &vctx->priv->ops;
	struct ibv_context *ctx = &vctx->context;

	SET_COMPAT(alloc_pd);
	SET_COMPAT(async_event);
	SET_COMPAT(attach_mcast);
	SET_COMPAT(cq_event);
	SET_COMPAT(create_ah);
	SET_COMPAT(create_cq);
	SET_COMPAT(create_qp);
	SET_COMPAT(create_srq);
	SET_COMPAT(dealloc_pd);
	SET_COMPAT(dereg_mr);
	SET_COMPAT(destroy_ah);
	SET_COMPAT(destroy_cq);
	SET_COMPAT(destroy_qp);
	SET_COMPAT(destroy_srq);
	SET_COMPAT(detach_mcast);
	SET_PRIV(free_context);
	SET_PRIV(import_dm);
	SET_PRIV(import_mr);
	SET_PRIV(import_pd);
	SET_COMPAT(modify_qp);
	SET_COMPAT(modify_srq);
	SET_PRIV(query_ece);
	SET_PRIV(query_port);
	SET_COMPAT(query_qp);
	SET_PRIV(query_qp_data_in_order);
	SET_COMPAT(query_srq);
	SET_PRIV(reg_dmabuf_mr);
	SET_COMPAT(reg_mr);
	SET_COMPAT(rereg_mr);
	SET_COMPAT(resize_cq);
	SET_PRIV(set_ece);
	SET_PRIV(unimport_dm);
	SET_PRIV(unimport_mr);
	SET_PRIV(unimport_pd);
}

/*
 * The ops provider ABI 65 added; a table of an older ABI has none of them
 * (compat_pabi34.c skips this part).
 */
static void set_abi65_ops(struct verbs_context *vctx,
			  const struct verbs_context_ops *ops)
{
	struct verbs_context_ops *priv = &vctx->priv->ops;
	const bool full = vctx->sz >= sizeof(*vctx);

	SET_VCTX_NEW(alloc_buf, full);
	SET_VCTX_NEW(alloc_dmah, full);
	SET_PRIV(create_comp_cntr);
	SET_VCTX_NEW(dealloc_dmah, full);
	SET_PRIV(destroy_comp_cntr);
	SET_VCTX_NEW(dm_export_dmabuf_fd, full);
	SET_VCTX_NEW(free_buf, full);
	SET_PRIV(inc_comp_cntr);
	SET_PRIV(inc_err_comp_cntr);
	SET_PRIV(qp_attach_comp_cntr);
	SET_PRIV(query_comp_cntr_caps);
	SET_PRIV(query_port_speed);
	SET_PRIV(read_comp_cntr);
	SET_PRIV(read_err_comp_cntr);
	SET_VCTX_NEW(reg_mr_ex, full);
	SET_PRIV(set_comp_cntr);
	SET_PRIV(set_err_comp_cntr);
}

/**
 * verbs_set_ops - install a provider's operations in a context
 * @vctx: the context
 * @ops: the operations; NULL members leave the current ones in place, so
 *       providers may call this several times to layer tables
 */
IBV_EXPORT void verbs_set_ops(struct verbs_context *vctx,
			      const struct verbs_context_ops *ops)
{
	ops_set_older(vctx, ops);
	set_abi65_ops(vctx, ops);
}
VERBS_PRIVATE_NEWEST(verbs_set_ops);

/* verbs_set_ops() without the members provider ABI 65 added. */
void ops_set_older(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops)
{
	set_ctx_ops(vctx, ops);
	set_vctx_ops(vctx, ops);
	set_priv_ops(vctx, ops);
}
