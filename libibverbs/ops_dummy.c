// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The dummy operation table every context starts with, before its
 * provider's verbs_set_ops() (ops.c) replaces what the provider has: so no
 * slot is ever NULL, and tests/ops_test.c checks that none is.
 *
 * The dummies report EOPNOTSUPP the way their public counterpart reports
 * errors. One deliberate difference from rdma-core: poll_cq returns a
 * negative value, since a positive one would be read as a count of
 * completions. Two do work of their own: alloc_buf hands out page-aligned
 * memory of the C library, and reg_mr_ex registers through reg_mr or
 * reg_dmabuf_mr what those can express.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "context_priv.h"
#include "driver.h"
#include "ops.h"

static int dummy_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
			   uint32_t flags, struct ibv_sge *sg_list,
			   uint32_t num_sges)
{
	return EOPNOTSUPP;
}

/*
 * Without a provider's own allocator, ibv_alloc_buf() hands out page
 * aligned memory of the C library: registrable like any other.
 */
static void *dummy_alloc_buf(struct ibv_pd *pd, size_t size,
			     struct ibv_buf **buf)
{
	struct ibv_buf *b = calloc(1, sizeof(*b));
	void *addr;
	int ret;

	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	ret = posix_memalign(&addr, (size_t)sysconf(_SC_PAGESIZE), size);
	if (ret) {
		free(b);
		errno = ret;
		return NULL;
	}
	ibv_buf_init(b, pd, addr, size);
	*buf = b;
	return addr;
}

static struct ibv_dm *dummy_alloc_dm(struct ibv_context *context,
				     struct ibv_alloc_dm_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

static struct ibv_dmah *dummy_alloc_dmah(struct ibv_context *context,
					 struct ibv_dmah_init_attr *attr)
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

static struct ibv_comp_cntr *
dummy_create_comp_cntr(struct ibv_context *context,
		       struct ibv_comp_cntr_init_attr *attr)
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

static int dummy_dealloc_dmah(struct ibv_dmah *dmah)
{
	return EOPNOTSUPP;
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

static int dummy_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
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

static int dummy_dm_export_dmabuf_fd(struct ibv_dm *dm)
{
	errno = EOPNOTSUPP;
	return -1;
}

/* Frees what dummy_alloc_buf() handed out. */
static void dummy_free_buf(struct ibv_buf *buf)
{
	free(buf->addr);
	free(buf);
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

static int dummy_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)
{
	return EOPNOTSUPP;
}

static int dummy_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				   uint64_t amount)
{
	return EOPNOTSUPP;
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

static int dummy_qp_attach_comp_cntr(struct ibv_qp *qp,
				     struct ibv_comp_cntr *comp_cntr,
				     struct ibv_qp_attach_comp_cntr_attr *attr)
{
	return EOPNOTSUPP;
}

static int dummy_query_comp_cntr_caps(struct ibv_context *context,
				      struct ibv_comp_cntr_caps *caps,
				      size_t caps_size)
{
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

static int dummy_query_port_speed(struct ibv_context *context,
				  uint32_t port_num, uint64_t *speed)
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

static int dummy_read_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				uint64_t *value)
{
	return EOPNOTSUPP;
}

static int dummy_read_counters(struct ibv_counters *counters,
			       uint64_t *counters_value, uint32_t ncounters,
			       uint32_t flags)
{
	return EOPNOTSUPP;
}

static int dummy_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				    uint64_t *value)
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

/*
 * A provider without reg_mr_ex still registers what its older ops can
 * express: memory by address (reg_mr) or a dma-buf range with its iova
 * (reg_dmabuf_mr). A DMA handle or a buffer of ibv_alloc_buf() needs the
 * provider's own op: EOPNOTSUPP; a request that mixes or lacks the
 * members of either form: EINVAL.
 */
static struct ibv_mr *dummy_reg_mr_ex(struct ibv_pd *pd,
				      struct ibv_mr_init_attr *in)
{
	const uint64_t legacy = IBV_REG_MR_MASK_IOVA | IBV_REG_MR_MASK_ADDR |
				IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET;
	const uint64_t dmabuf = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
				IBV_REG_MR_MASK_IOVA;
	const struct verbs_context_ops *ops = get_ops(pd->context);
	uint64_t mask = in->comp_mask;

	if (mask & ~legacy) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (mask & IBV_REG_MR_MASK_FD) {
		if ((mask & dmabuf) != dmabuf ||
		    (mask & IBV_REG_MR_MASK_ADDR)) {
			errno = EINVAL;
			return NULL;
		}
		return ops->reg_dmabuf_mr(pd, in->fd_offset, in->length,
					  in->iova, in->fd, in->access);
	}
	if (!(mask & IBV_REG_MR_MASK_ADDR) ||
	    (mask & IBV_REG_MR_MASK_FD_OFFSET)) {
		errno = EINVAL;
		return NULL;
	}
	return ops->reg_mr(pd, in->addr, in->length,
			   (mask & IBV_REG_MR_MASK_IOVA) ?
				   in->iova :
				   (uint64_t)(uintptr_t)in->addr,
			   in->access);
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

static int dummy_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)
{
	return EOPNOTSUPP;
}

static int dummy_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return EOPNOTSUPP;
}

static int dummy_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				   uint64_t value)
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
	.alloc_buf = dummy_alloc_buf,
	.alloc_dm = dummy_alloc_dm,
	.alloc_dmah = dummy_alloc_dmah,
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
	.create_comp_cntr = dummy_create_comp_cntr,
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
	.dealloc_dmah = dummy_dealloc_dmah,
	.dealloc_mw = dummy_dealloc_mw,
	.dealloc_pd = dummy_dealloc_pd,
	.dealloc_td = dummy_dealloc_td,
	.dereg_mr = dummy_dereg_mr,
	.destroy_ah = dummy_destroy_ah,
	.destroy_comp_cntr = dummy_destroy_comp_cntr,
	.destroy_counters = dummy_destroy_counters,
	.destroy_cq = dummy_destroy_cq,
	.destroy_flow = dummy_destroy_flow,
	.destroy_flow_action = dummy_destroy_flow_action,
	.destroy_qp = dummy_destroy_qp,
	.destroy_rwq_ind_table = dummy_destroy_rwq_ind_table,
	.destroy_srq = dummy_destroy_srq,
	.destroy_wq = dummy_destroy_wq,
	.detach_mcast = dummy_detach_mcast,
	.dm_export_dmabuf_fd = dummy_dm_export_dmabuf_fd,
	.free_buf = dummy_free_buf,
	.free_context = dummy_free_context,
	.free_dm = dummy_free_dm,
	.get_srq_num = dummy_get_srq_num,
	.import_dm = dummy_import_dm,
	.import_mr = dummy_import_mr,
	.import_pd = dummy_import_pd,
	.inc_comp_cntr = dummy_inc_comp_cntr,
	.inc_err_comp_cntr = dummy_inc_err_comp_cntr,
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
	.qp_attach_comp_cntr = dummy_qp_attach_comp_cntr,
	.query_comp_cntr_caps = dummy_query_comp_cntr_caps,
	.query_device_ex = dummy_query_device_ex,
	.query_ece = dummy_query_ece,
	.query_port = dummy_query_port,
	.query_port_speed = dummy_query_port_speed,
	.query_qp = dummy_query_qp,
	.query_qp_data_in_order = dummy_query_qp_data_in_order,
	.query_rt_values = dummy_query_rt_values,
	.query_srq = dummy_query_srq,
	.read_comp_cntr = dummy_read_comp_cntr,
	.read_counters = dummy_read_counters,
	.read_err_comp_cntr = dummy_read_err_comp_cntr,
	.reg_dm_mr = dummy_reg_dm_mr,
	.reg_dmabuf_mr = dummy_reg_dmabuf_mr,
	.reg_mr = dummy_reg_mr,
	.reg_mr_ex = dummy_reg_mr_ex,
	.req_notify_cq = dummy_req_notify_cq,
	.rereg_mr = dummy_rereg_mr,
	.resize_cq = dummy_resize_cq,
	.set_comp_cntr = dummy_set_comp_cntr,
	.set_ece = dummy_set_ece,
	.set_err_comp_cntr = dummy_set_err_comp_cntr,
	.unimport_dm = dummy_unimport_dm,
	.unimport_mr = dummy_unimport_mr,
	.unimport_pd = dummy_unimport_pd,
};
