// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues in the command layer: create (SRQ/CREATE, with
 * CREATE_SRQ or CREATE_XSRQ by write() where the kernel lacks the
 * method), modify, query and destroy. Providers call these from their
 * SRQ ops. Routes as in rdma-core 44: create and destroy are ioctl
 * methods with a write() fallback; modify and query are write-only.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "cmd.h"
#include "context_priv.h"
#include "discover.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/* One create in progress, with the provider's write() buffers. */
struct srq_create {
	struct ibv_pd *pd;
	struct verbs_srq *vsrq; /* NULL for ibv_cmd_create_srq() */
	struct ibv_srq *srq;
	struct ibv_srq_init_attr_ex *attr;
	enum ibv_srq_type type;
	struct verbs_xrcd *vxrcd;
	void *cmd;
	size_t cmd_core, cmd_size;
	struct ib_uverbs_create_srq_resp *resp;
	size_t resp_size;
};

/* The verbs_srq fields of an extended SRQ. */
static void vsrq_fields(struct srq_create *c, uint32_t srq_num)
{
	struct verbs_srq *vsrq = c->vsrq;

	if (!vsrq)
		return;
	vsrq->srq_type = c->type;
	if (c->type == IBV_SRQT_XRC) {
		vsrq->srq_num = srq_num;
		vsrq->xrcd = c->vxrcd;
	}
	if (c->attr->comp_mask & IBV_SRQ_INIT_ATTR_CQ)
		vsrq->cq = c->attr->cq;
}

/* The write() form of the create, over the tail of the provider's cmd. */
static int create_srq_write(struct srq_create *c)
{
	struct ibv_srq_init_attr_ex *a = c->attr;
	bool xsrq = c->type != IBV_SRQT_BASIC;
	size_t req_core = xsrq ? sizeof(struct ibv_create_xsrq) :
				 sizeof(struct ibv_create_srq);
	/* ABI 5 kernels and older answered a basic create with the handle. */
	size_t rlen = !xsrq && abi_ver <= 5 ?
			      sizeof(struct ibv_create_srq_resp_v5) :
			      sizeof(*c->resp);
	struct kcmd_write_args w = {
		.command = xsrq ? IB_USER_VERBS_CMD_CREATE_XSRQ :
				  IB_USER_VERBS_CMD_CREATE_SRQ,
		.req_core = req_core,
		.req_len = req_core + c->cmd_size - c->cmd_core,
		.resp_core = rlen,
		.resp_len = c->resp_size - sizeof(*c->resp) + rlen,
	};
	struct ib_uverbs_create_srq_resp *resp;
	int ret;

	if (c->cmd_core < req_core)
		return with_errno(EINVAL);
	w.req = (char *)c->cmd + c->cmd_core - req_core;
	w.resp = resp = (void *)((char *)c->resp + sizeof(*c->resp) - rlen);
	if (xsrq) {
		struct ibv_create_xsrq *r = w.req;

		memset(&r->core_payload, 0, sizeof(r->core_payload));
		r->response = ioctl_ptr_to_u64(resp);
		r->user_handle = ioctl_ptr_to_u64(c->srq);
		r->srq_type = c->type;
		r->pd_handle = c->pd->handle;
		r->max_wr = a->attr.max_wr;
		r->max_sge = a->attr.max_sge;
		r->srq_limit = a->attr.srq_limit;
		r->cq_handle = a->cq->handle;
		if (c->type == IBV_SRQT_TM)
			r->max_num_tags = a->tm_cap.max_num_tags;
		else
			r->xrcd_handle = c->vxrcd->handle;
	} else {
		struct ibv_create_srq *r = w.req;

		r->response = ioctl_ptr_to_u64(resp);
		r->user_handle = ioctl_ptr_to_u64(c->srq);
		r->pd_handle = c->pd->handle;
		r->max_wr = a->attr.max_wr;
		r->max_sge = a->attr.max_sge;
		r->srq_limit = a->attr.srq_limit;
	}
	ret = kcmd_write(c->pd->context, &w);
	if (ret)
		return ret;
	c->srq->handle = resp->srq_handle;
	if (rlen == sizeof(*resp)) {
		a->attr.max_wr = resp->max_wr;
		a->attr.max_sge = resp->max_sge;
	}
	if (xsrq)
		vsrq_fields(c, resp->srqn);
	return 0;
}

/* The attributes of the SRQ's type: its XRC domain or tag matching. */
static int fill_type(struct srq_create *c, struct ibv_command_buffer *cmdb,
		     uint32_t *srq_num)
{
	struct ibv_srq_init_attr_ex *a = c->attr;
	uint32_t m = a->comp_mask;

	switch (c->type) {
	case IBV_SRQT_XRC:
		if (!(m & IBV_SRQ_INIT_ATTR_XRCD) ||
		    !(m & IBV_SRQ_INIT_ATTR_CQ))
			return with_errno(EINVAL);
		c->vxrcd = container_of(a->xrcd, struct verbs_xrcd, xrcd);
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE,
				 c->vxrcd->handle);
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE,
				 a->cq->handle);
		fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
				  srq_num);
		return 0;
	case IBV_SRQT_TM:
		if (!(m & IBV_SRQ_INIT_ATTR_CQ) ||
		    !(m & IBV_SRQ_INIT_ATTR_TM) || !a->tm_cap.max_num_tags)
			return with_errno(EINVAL);
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE,
				 a->cq->handle);
		fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
				    a->tm_cap.max_num_tags);
		return 0;
	default:
		return 0;
	}
}

/*
 * SRQ/CREATE, in rdma-core 44's attribute order. The core's fields of
 * the SRQ are set first: events may name it as soon as it exists. The
 * PD is among them for a provider of ABI 65, as rdma-core 65 sets it
 * here; rdma-core 44 and 56.1 leave it to the public verb (or to the
 * provider, for an SRQ made by create_srq_ex), so the older ABI's
 * providers see it unset, as there.
 */
static int create_srq(struct srq_create *c)
{
	struct ibv_srq_init_attr_ex *a = c->attr;
	struct ibv_context *ctx = c->pd->context;
	struct ib_uverbs_attr *handle;
	uint32_t max_wr, max_sge, srq_num = 0;
	int ret;
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_SRQ,
			       UVERBS_METHOD_SRQ_CREATE, 15);

	c->srq->context = ctx;
	if (get_priv(ctx)->abi.pabi >= 65)
		c->srq->pd = c->pd;
	pthread_mutex_init(&c->srq->mutex, NULL);
	pthread_cond_init(&c->srq->cond, NULL);
	c->type = a->comp_mask & IBV_SRQ_INIT_ATTR_TYPE ? a->srq_type :
							  IBV_SRQT_BASIC;
	ret = fill_type(c, cmdb, &srq_num);
	if (ret)
		return ret;
	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	fill_attr_const_in(cmdb, UVERBS_ATTR_CREATE_SRQ_TYPE, c->type);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE,
			    ioctl_ptr_to_u64(c->srq));
	fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, c->pd->handle);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_SRQ_MAX_WR,
			    a->attr.max_wr);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
			    a->attr.max_sge);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_SRQ_LIMIT,
			    a->attr.srq_limit);
	fill_attr_in_fd(cmdb, UVERBS_ATTR_CREATE_SRQ_EVENT_FD, ctx->async_fd);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &max_wr);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &max_sge);
	cmd_add_uhw(cmdb, c->cmd, c->cmd_size, c->cmd_core, c->resp,
		    c->resp_size, sizeof(*c->resp));
	/* An imported context's objects exist only through the ioctl API. */
	if (get_priv(ctx)->imported)
		cmdb->fallback_ioctl_only = 1;

	if (cmd_route(ctx, cmdb, &ret) != CMD_DONE) {
		ret = create_srq_write(c);
	} else if (!ret) {
		c->srq->handle =
			read_attr_obj(UVERBS_ATTR_CREATE_SRQ_HANDLE, handle);
		a->attr.max_wr = max_wr;
		a->attr.max_sge = max_sge;
		vsrq_fields(c, srq_num);
	}
	return ret;
}

/**
 * ibv_cmd_create_srq - create a basic SRQ on @pd (provider helper)
 * @attr: the verb's attributes; max_wr and max_sge are updated
 * @cmd, @cmd_size, @resp, @resp_size: the provider's write() buffers
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq,
				  struct ibv_srq_init_attr *attr,
				  struct ibv_create_srq *cmd, size_t cmd_size,
				  struct ib_uverbs_create_srq_resp *resp,
				  size_t resp_size)
{
	struct ibv_srq_init_attr_ex attr_ex = { 0 };
	struct srq_create c = {
		.pd = pd,
		.srq = srq,
		.attr = &attr_ex,
		.cmd = cmd,
		.cmd_core = sizeof(*cmd),
		.cmd_size = cmd_size,
		.resp = resp,
		.resp_size = resp_size,
	};
	int ret;

	memcpy(&attr_ex, attr, sizeof(*attr));
	ret = create_srq(&c);
	if (!ret) {
		attr->attr.max_wr = attr_ex.attr.max_wr;
		attr->attr.max_sge = attr_ex.attr.max_sge;
	}
	return ret;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_srq);

/**
 * ibv_cmd_create_srq_ex - create an SRQ of any type (provider helper)
 *
 * As ibv_cmd_create_srq(); XRC and tag-matching SRQs fall back to
 * CREATE_XSRQ. An unknown comp_mask bit gives EOPNOTSUPP, a missing PD
 * EINVAL.
 */
IBV_EXPORT int
ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq,
		      struct ibv_srq_init_attr_ex *attr_ex,
		      struct ibv_create_xsrq *cmd, size_t cmd_size,
		      struct ib_uverbs_create_srq_resp *resp, size_t resp_size)
{
	struct srq_create c = {
		.pd = attr_ex->pd,
		.vsrq = srq,
		.srq = &srq->srq,
		.attr = attr_ex,
		.cmd = cmd,
		.cmd_core = sizeof(*cmd),
		.cmd_size = cmd_size,
		.resp = resp,
		.resp_size = resp_size,
	};

	(void)context;
	if (attr_ex->comp_mask >= IBV_SRQ_INIT_ATTR_RESERVED)
		return with_errno(EOPNOTSUPP);
	if (!(attr_ex->comp_mask & IBV_SRQ_INIT_ATTR_PD))
		return with_errno(EINVAL);
	return create_srq(&c);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_srq_ex);

/*
 * ABI 3 kernels took a MODIFY_SRQ with a max_sge member: the request is
 * rebuilt in that layout, the provider's data moved behind it. The
 * caller bounded @cmd_size, so the old request's size cannot wrap.
 */
static __attribute__((cold, noinline)) int
modify_srq_v3(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
	      int srq_attr_mask, struct ibv_modify_srq *cmd, size_t cmd_size)
{
	size_t drv = cmd_size - sizeof(*cmd);
	uint64_t buf[(sizeof(struct ibv_modify_srq_v3) + drv + 7) / 8];
	struct ibv_modify_srq_v3 *req = (struct ibv_modify_srq_v3 *)buf;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_MODIFY_SRQ_V3,
		KCMD_REQ(req, sizeof(*req) + drv),
	};

	memcpy(req + 1, cmd + 1, drv);
	req->core_payload = (struct ib_uverbs_modify_srq_v3){
		.srq_handle = srq->handle,
		.attr_mask = srq_attr_mask,
		.max_wr = srq_attr->max_wr,
		.srq_limit = srq_attr->srq_limit,
	};
	return kcmd_write(srq->context, &w);
}

/**
 * ibv_cmd_modify_srq - change an SRQ's size or limit (provider helper)
 *
 * Write-only (MODIFY_SRQ, in the ABI 3 layout on such kernels). Returns 0
 * or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_modify_srq(struct ibv_srq *srq,
				  struct ibv_srq_attr *srq_attr,
				  int srq_attr_mask, struct ibv_modify_srq *cmd,
				  size_t cmd_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_MODIFY_SRQ,
		KCMD_REQ(cmd, cmd_size),
	};

	if (cmd_size < sizeof(*cmd))
		return with_errno(EINVAL);
	if (abi_ver == 3) {
		/* More than a header counts, in the longer layout: unbuilt. */
		if (cmd_size - sizeof(*cmd) >
		    KCMD_BASIC_MAX - sizeof(struct ibv_modify_srq_v3))
			return with_errno(EINVAL);
		return modify_srq_v3(srq, srq_attr, srq_attr_mask, cmd,
				     cmd_size);
	}
	cmd->srq_handle = srq->handle;
	cmd->attr_mask = srq_attr_mask;
	cmd->max_wr = srq_attr->max_wr;
	cmd->srq_limit = srq_attr->srq_limit;
	return kcmd_write(srq->context, &w);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_srq);

/**
 * ibv_cmd_query_srq - read an SRQ's attributes (provider helper)
 *
 * Write-only (QUERY_SRQ). Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_query_srq(struct ibv_srq *srq,
				 struct ibv_srq_attr *srq_attr,
				 struct ibv_query_srq *cmd, size_t cmd_size)
{
	struct ib_uverbs_query_srq_resp resp = { 0 };
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_QUERY_SRQ,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(&resp, sizeof(resp)),
	};
	int ret;

	cmd->response = ioctl_ptr_to_u64(&resp);
	cmd->srq_handle = srq->handle;
	cmd->reserved = 0;
	ret = kcmd_write(srq->context, &w);
	if (ret)
		return ret;
	srq_attr->max_wr = resp.max_wr;
	srq_attr->max_sge = resp.max_sge;
	srq_attr->srq_limit = resp.srq_limit;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_srq);

static const struct cmd_destroy srq_destroy = {
	CMD_DESTROY_IDS_RESP(SRQ),
	CMD_DESTROY_ANSWER(struct ib_uverbs_destroy_srq_resp, events_reported),
	.command = IB_USER_VERBS_CMD_DESTROY_SRQ,
};

/**
 * ibv_cmd_destroy_srq - destroy an SRQ once its reported events are acked
 *
 * SRQ/DESTROY, or DESTROY_SRQ by write(). Returns 0 or a positive errno.
 */
IBV_EXPORT int ibv_cmd_destroy_srq(struct ibv_srq *srq)
{
	return cmd_destroy_acked(srq->context, &srq_destroy, srq->handle,
				 &srq->mutex, &srq->cond,
				 &srq->events_completed);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_srq);
