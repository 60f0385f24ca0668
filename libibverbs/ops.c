// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A context's operation tables: the dummy table every context starts
 * with, and verbs_set_ops(), which copies a provider's ops over it into
 * the context's private table and into the public slots that inline
 * functions compiled into applications call. A new op reaches a context
 * only through both halves of this file; tests/ops_test.c checks that no
 * dummy slot is NULL and that every slot a provider sets is copied.
 *
 * The dummies report EOPNOTSUPP the way their public counterpart reports
 * errors. One deliberate difference from rdma-core: poll_cq returns a
 * negative value, since a positive one would be read as a count of
 * completions.
 */
#include <errno.h>
#include <stddef.h>

#include "context_priv.h"
#include "driver.h"
#include "export.h"
#include "ops.h"

static int dummy_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
			   uint32_t flags, struct ibv_sge *sg_list,
			   uint32_t num_sges)
{
	return EOPNOTSUPP;
}

static struct ibv_dm *dummy_alloc_dm(struct ibv_context *context,
				     struct ibv_alloc_dm_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_mw *dummy_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_mr *dummy_alloc_null_mr(struct ibv_pd *pd)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_pd *
dummy_alloc_parent_domain(struct ibv_context *context,
			  struct ibv_parent_domain_init_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_pd *dummy_alloc_pd(struct ibv_context *context)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_td *dummy_alloc_td(struct ibv_context *context,
				     struct ibv_td_init_attr *init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static void dummy_async_event(struct ibv_context *context,
			      struct ibv_async_event *event)
{
}

static int
dummy_attach_counters_point_flow(struct ibv_counters *counters,
				 struct ibv_counter_attach_attr *attr,
				 struct ibv_flow *flow)
{
	return EOPNOTSUPP;
}

static int dummy_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			      uint16_t lid)
{
	return EOPNOTSUPP;
}

static int dummy_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
			 struct ibv_mw_bind *mw_bind)
{
	return EOPNOTSUPP;
}

static int dummy_close_xrcd(struct ibv_xrcd *xrcd)
{
	return EOPNOTSUPP;
}

static void dummy_cq_event(struct ibv_cq *cq)
{
}

static struct ibv_ah *dummy_create_ah(struct ibv_pd *pd,
				      struct ibv_ah_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_counters *
dummy_create_counters(struct ibv_context *context,
		      struct ibv_counters_init_attr *init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_cq *dummy_create_cq(struct ibv_context *context, int cqe,
				      struct ibv_comp_channel *channel,
				      int comp_vector)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_cq_ex *
dummy_create_cq_ex(struct ibv_context *context,
		   struct ibv_cq_init_attr_ex *init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_flow *dummy_create_flow(struct ibv_qp *qp,
					  struct ibv_flow_attr *flow_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_flow_action *
dummy_create_flow_action_esp(struct ibv_context *context,
			     struct ibv_flow_action_esp_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_qp *dummy_create_qp(struct ibv_pd *pd,
				      struct ibv_qp_init_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_qp *
dummy_create_qp_ex(struct ibv_context *context,
		   struct ibv_qp_init_attr_ex *qp_init_attr_ex)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_rwq_ind_table *
dummy_create_rwq_ind_table(struct ibv_context *context,
			   struct ibv_rwq_ind_table_init_attr *init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_srq *dummy_create_srq(struct ibv_pd *pd,
					struct ibv_srq_init_attr *srq_init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_srq *
dummy_create_srq_ex(struct ibv_context *context,
		    struct ibv_srq_init_attr_ex *srq_init_attr_ex)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_wq *dummy_create_wq(struct ibv_context *context,
				      struct ibv_wq_init_attr *wq_init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static int dummy_dealloc_mw(struct ibv_mw *mw)
{
	return EOPNOTSUPP;
}

static int dummy_dealloc_pd(struct ibv_pd *pd)
{
	return EOPNOTSUPP;
}

static int dummy_dealloc_td(struct ibv_td *td)
{
	return EOPNOTSUPP;
}

static int dummy_dereg_mr(struct verbs_mr *vmr)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_ah(struct ibv_ah *ah)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_counters(struct ibv_counters *counters)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_cq(struct ibv_cq *cq)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_flow(struct ibv_flow *flow)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_flow_action(struct ibv_flow_action *action)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_qp(struct ibv_qp *qp)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_srq(struct ibv_srq *srq)
{
	return EOPNOTSUPP;
}

static int dummy_destroy_wq(struct ibv_wq *wq)
{
	return EOPNOTSUPP;
}

static int dummy_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			      uint16_t lid)
{
	return EOPNOTSUPP;
}

static void dummy_free_context(struct ibv_context *context)
{
}

static int dummy_free_dm(struct ibv_dm *dm)
{
	return EOPNOTSUPP;
}

static int dummy_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	return EOPNOTSUPP;
}

static struct ibv_dm *dummy_import_dm(struct ibv_context *context,
				      uint32_t dm_handle)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_mr *dummy_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_pd *dummy_import_pd(struct ibv_context *context,
				      uint32_t pd_handle)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static int dummy_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	return EOPNOTSUPP;
}

static int dummy_modify_flow_action_esp(struct ibv_flow_action *action,
					struct ibv_flow_action_esp_attr *attr)
{
	return EOPNOTSUPP;
}

static int dummy_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			   int attr_mask)
{
	return EOPNOTSUPP;
}

static int dummy_modify_qp_rate_limit(struct ibv_qp *qp,
				      struct ibv_qp_rate_limit_attr *attr)
{
	return EOPNOTSUPP;
}

static int dummy_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
			    int srq_attr_mask)
{
	return EOPNOTSUPP;
}

static int dummy_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr)
{
	return EOPNOTSUPP;
}

static struct ibv_qp *dummy_open_qp(struct ibv_context *context,
				    struct ibv_qp_open_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_xrcd *
dummy_open_xrcd(struct ibv_context *context,
		struct ibv_xrcd_init_attr *xrcd_init_attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static int dummy_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	return -EOPNOTSUPP;
}

static int dummy_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			   struct ibv_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return EOPNOTSUPP;
}

static int dummy_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			   struct ibv_send_wr **bad_wr)
{
	*bad_wr = wr;
	return EOPNOTSUPP;
}

static int dummy_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
			      struct ibv_ops_wr **bad_op)
{
	*bad_op = op;
	return EOPNOTSUPP;
}

static int dummy_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
			       struct ibv_recv_wr **bad_recv_wr)
{
	*bad_recv_wr = recv_wr;
	return EOPNOTSUPP;
}

static int dummy_query_device_ex(struct ibv_context *context,
				 const struct ibv_query_device_ex_input *input,
				 struct ibv_device_attr_ex *attr,
				 size_t attr_size)
{
	return EOPNOTSUPP;
}

static int dummy_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return EOPNOTSUPP;
}

static int dummy_query_port(struct ibv_context *context, uint8_t port_num,
			    struct ibv_port_attr *port_attr)
{
	return EOPNOTSUPP;
}

static int dummy_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			  int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	return EOPNOTSUPP;
}

/*
 * The answer is a set of capability bits, not an error: "no ordering
 * promised", as rdma-core 44 answers for providers without the op.
 */
static int dummy_query_qp_data_in_order(struct ibv_qp *qp,
					enum ibv_wr_opcode op, uint32_t flags)
{
	return 0;
}

static int dummy_query_rt_values(struct ibv_context *context,
				 struct ibv_values_ex *values)
{
	return EOPNOTSUPP;
}

static int dummy_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)
{
	return EOPNOTSUPP;
}

static int dummy_read_counters(struct ibv_counters *counters,
			       uint64_t *counters_value, uint32_t ncounters,
			       uint32_t flags)
{
	return EOPNOTSUPP;
}

static struct ibv_mr *dummy_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm,
				      uint64_t dm_offset, size_t length,
				      unsigned int access)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_mr *dummy_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					  size_t length, uint64_t iova, int fd,
					  int access)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_mr *dummy_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				   uint64_t hca_va, int access)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static int dummy_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return EOPNOTSUPP;
}

/* ibv_rereg_mr() turns this into its own code; errno keeps the cause. */
static int dummy_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
			  void *addr, size_t length, int access)
{
	errno = EOPNOTSUPP;
	return EOPNOTSUPP;
}

static int dummy_resize_cq(struct ibv_cq *cq, int cqe)
{
	return EOPNOTSUPP;
}

static int dummy_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return EOPNOTSUPP;
}

static void dummy_unimport_dm(struct ibv_dm *dm)
{
}

static void dummy_unimport_mr(struct ibv_mr *mr)
{
}

static void dummy_unimport_pd(struct ibv_pd *pd)
{
}

const struct verbs_context_ops verbs_dummy_ops = {
	.advise_mr = dummy_advise_mr,
	.alloc_dm = dummy_alloc_dm,
	.alloc_mw = dummy_alloc_mw,
	.alloc_null_mr = dummy_alloc_null_mr,
	.alloc_parent_domain = dummy_alloc_parent_domain,
	.alloc_pd = dummy_alloc_pd,
	.alloc_td = dummy_alloc_td,
	.async_event = dummy_async_event,
	.attach_counters_point_flow = dummy_attach_counters_point_flow,
	.attach_mcast = dummy_attach_mcast,
	.bind_mw = dummy_bind_mw,
	.close_xrcd = dummy_close_xrcd,
	.cq_event = dummy_cq_event,
	.create_ah = dummy_create_ah,
	.create_counters = dummy_create_counters,
	.create_cq = dummy_create_cq,
	.create_cq_ex = dummy_create_cq_ex,
	.create_flow = dummy_create_flow,
	.create_flow_action_esp = dummy_create_flow_action_esp,
	.create_qp = dummy_create_qp,
	.create_qp_ex = dummy_create_qp_ex,
	.create_rwq_ind_table = dummy_create_rwq_ind_table,
	.create_srq = dummy_create_srq,
	.create_srq_ex = dummy_create_srq_ex,
	.create_wq = dummy_create_wq,
	.dealloc_mw = dummy_dealloc_mw,
	.dealloc_pd = dummy_dealloc_pd,
	.dealloc_td = dummy_dealloc_td,
	.dereg_mr = dummy_dereg_mr,
	.destroy_ah = dummy_destroy_ah,
	.destroy_counters = dummy_destroy_counters,
	.destroy_cq = dummy_destroy_cq,
	.destroy_flow = dummy_destroy_flow,
	.destroy_flow_action = dummy_destroy_flow_action,
	.destroy_qp = dummy_destroy_qp,
	.destroy_rwq_ind_table = dummy_destroy_rwq_ind_table,
	.destroy_srq = dummy_destroy_srq,
	.destroy_wq = dummy_destroy_wq,
	.detach_mcast = dummy_detach_mcast,
	.free_context = dummy_free_context,
	.free_dm = dummy_free_dm,
	.get_srq_num = dummy_get_srq_num,
	.import_dm = dummy_import_dm,
	.import_mr = dummy_import_mr,
	.import_pd = dummy_import_pd,
	.modify_cq = dummy_modify_cq,
	.modify_flow_action_esp = dummy_modify_flow_action_esp,
	.modify_qp = dummy_modify_qp,
	.modify_qp_rate_limit = dummy_modify_qp_rate_limit,
	.modify_srq = dummy_modify_srq,
	.modify_wq = dummy_modify_wq,
	.open_qp = dummy_open_qp,
	.open_xrcd = dummy_open_xrcd,
	.poll_cq = dummy_poll_cq,
	.post_recv = dummy_post_recv,
	.post_send = dummy_post_send,
	.post_srq_ops = dummy_post_srq_ops,
	.post_srq_recv = dummy_post_srq_recv,
	.query_device_ex = dummy_query_device_ex,
	.query_ece = dummy_query_ece,
	.query_port = dummy_query_port,
	.query_qp = dummy_query_qp,
	.query_qp_data_in_order = dummy_query_qp_data_in_order,
	.query_rt_values = dummy_query_rt_values,
	.query_srq = dummy_query_srq,
	.read_counters = dummy_read_counters,
	.reg_dm_mr = dummy_reg_dm_mr,
	.reg_dmabuf_mr = dummy_reg_dmabuf_mr,
	.reg_mr = dummy_reg_mr,
	.req_notify_cq = dummy_req_notify_cq,
	.rereg_mr = dummy_rereg_mr,
	.resize_cq = dummy_resize_cq,
	.set_ece = dummy_set_ece,
	.unimport_dm = dummy_unimport_dm,
	.unimport_mr = dummy_unimport_mr,
	.unimport_pd = dummy_unimport_pd,
};

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

/**
 * verbs_set_ops - install a provider's operations in a context
 * @vctx: the context
 * @ops: the operations; NULL members leave the current ones in place, so
 *       providers may call this several times to layer tables
 */
IBV_EXPORT void verbs_set_ops(struct verbs_context *vctx,
			      const struct verbs_context_ops *ops)
{
	set_ctx_ops(vctx, ops);
	set_vctx_ops(vctx, ops);
	set_priv_ops(vctx, ops);
}
