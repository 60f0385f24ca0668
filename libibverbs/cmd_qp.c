// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Queue pairs in the command layer: create (QP/CREATE, with the write()
 * forms CREATE_QP and EX CREATE_QP behind it), open, destroy, and
 * multicast attach/detach. Query and modify are cmd_qp_attr.c's, the
 * kernel-side post of work requests cmd_post.c's. Providers call these from their QP ops; each marshals
 * one command for the transport (kcmd.c) and fills the fields of the
 * object the core owns.
 *
 * Which command takes which route is rdma-core 44's: create and destroy
 * are ioctl methods with a write() fallback, everything else exists only
 * as a write() command (tunnelled by kcmd_write() where it can).
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "cmd.h"
#include "context_priv.h"
#include "discover.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "kern_copy.h"
#include "util.h"

/* The create flags the kernel knows, whatever the route. */
#define QP_CREATE_FLAGS_SUPPORTED                                        \
	(IBV_QP_CREATE_BLOCK_SELF_MCAST_LB | IBV_QP_CREATE_SCATTER_FCS | \
	 IBV_QP_CREATE_CVLAN_STRIPPING | IBV_QP_CREATE_SOURCE_QPN |      \
	 IBV_QP_CREATE_PCI_WRITE_END_PADDING)

/*
 * The provider's write() buffers of a create, and the size of the
 * struct each starts with: the write() request of the route taken is
 * laid over the end of that struct, just before the driver data.
 */
struct qp_bufs {
	void *cmd;
	size_t cmd_core, cmd_size;
	void *resp;
	size_t resp_core, resp_size;
};

/* One create in progress: what both routes need. */
struct qp_create {
	struct ibv_context *ctx;
	struct verbs_qp *vqp; /* NULL for ibv_cmd_create_qp() */
	struct ibv_qp *qp;
	struct ibv_qp_init_attr_ex *attr;
	struct verbs_xrcd *vxrcd;
	uint32_t pd_handle, send_cq_handle, recv_cq_handle;
	struct qp_bufs b;
	struct ibv_command_buffer *link; /* the provider's attributes */
};

static void *buf_tail(void *buf, size_t have, size_t want)
{
	return (char *)buf + have - want;
}

/* The core's fields of a created QP, as rdma-core 44 sets them. */
static void qp_init_fields(struct qp_create *c)
{
	struct ibv_qp *qp = c->qp;
	struct verbs_qp_tail *tail;

	qp->qp_context = c->attr->qp_context;
	qp->pd = c->attr->pd;
	qp->send_cq = c->attr->send_cq;
	qp->recv_cq = c->attr->recv_cq;
	qp->srq = c->attr->srq;
	qp->qp_type = c->attr->qp_type;
	qp->state = IBV_QPS_RESET;
	qp->events_completed = 0;
	pthread_mutex_init(&qp->mutex, NULL);
	pthread_cond_init(&qp->cond, NULL);
	if (!c->vqp)
		return;
	tail = vqp_tail(qp->context, c->vqp);
	tail->comp_mask = 0;
	if (c->attr->comp_mask & IBV_QP_INIT_ATTR_XRCD) {
		tail->comp_mask |= VERBS_QP_XRCD;
		tail->xrcd = c->vxrcd;
	}
}

/* The capabilities the kernel granted, back into the caller's attr. */
static void caps_from_resp(struct ibv_qp_cap *cap,
			   const struct ib_uverbs_create_qp_resp *r)
{
	QP_CAP_FIELDS(SET_PUB, cap, r);
}

/* The request members the basic and extended CREATE_QP share. */
static void fill_create_req(struct qp_create *c, struct ib_uverbs_create_qp *r)
{
	struct ibv_qp_init_attr_ex *a = c->attr;

	r->user_handle = ioctl_ptr_to_u64(c->qp);
	r->pd_handle = c->pd_handle;
	r->send_cq_handle = c->send_cq_handle;
	r->recv_cq_handle = c->recv_cq_handle;
	r->srq_handle = a->srq ? a->srq->handle : 0;
	QP_CAP_FIELDS(SET_KERN, &a->cap, r);
	r->sq_sig_all = a->sq_sig_all;
	r->qp_type = a->qp_type;
	r->is_srq = !!a->srq;
	r->reserved = 0;
}

/*
 * Response size of the basic CREATE_QP by kernel ABI: ABI 4 kernels
 * answered without the trailing reserved word, ABI 3 kernels with the
 * handle and QP number only (and so granted no capabilities back).
 */
static size_t create_qp_resp_len(void)
{
	if (abi_ver > 4)
		return sizeof(struct ib_uverbs_create_qp_resp);
	if (abi_ver == 4)
		return sizeof(struct ibv_create_qp_resp_v4);
	return sizeof(struct ibv_create_qp_resp_v3);
}

/* CREATE_QP by write(), over the tail of the provider's request. */
static int create_qp_write(struct qp_create *c)
{
	size_t rlen = create_qp_resp_len();
	struct ibv_create_qp *req;
	struct ib_uverbs_create_qp_resp *resp;
	struct kcmd_write_args w = { .command = IB_USER_VERBS_CMD_CREATE_QP };
	int ret;

	if (c->b.cmd_core < sizeof(*req) ||
	    c->b.resp_core < sizeof(struct ib_uverbs_create_qp_resp))
		return with_errno(EINVAL);
	req = buf_tail(c->b.cmd, c->b.cmd_core, sizeof(*req));
	resp = buf_tail(c->b.resp, c->b.resp_core, rlen);
	fill_create_req(c, &req->core_payload);
	req->response = ioctl_ptr_to_u64(resp);
	w.req = req;
	w.req_core = sizeof(*req);
	w.req_len = sizeof(*req) + c->b.cmd_size - c->b.cmd_core;
	w.resp = resp;
	w.resp_core = rlen;
	w.resp_len = rlen + c->b.resp_size - c->b.resp_core;
	ret = kcmd_write(c->ctx, &w);
	if (ret)
		return ret;
	c->qp->handle = resp->qp_handle;
	c->qp->qp_num = resp->qpn;
	if (abi_ver > 3)
		caps_from_resp(&c->attr->cap, resp);
	return 0;
}

/* EX CREATE_QP: create flags and indirection tables need it. */
static int create_qp_write_ex(struct qp_create *c)
{
	struct ibv_qp_init_attr_ex *a = c->attr;
	struct ib_uverbs_ex_create_qp_resp *resp = c->b.resp;
	struct ibv_create_qp_ex *req = c->b.cmd;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_QP,
		.extended = true,
		KCMD_REQ(req, c->b.cmd_size),
		KCMD_RESP(resp, c->b.resp_size),
	};
	int ret;

	if (c->b.cmd_core != sizeof(*req) || c->b.resp_core != sizeof(*resp))
		return with_errno(EINVAL);
	memset(&req->core_payload, 0, sizeof(req->core_payload));
	fill_create_req(c, ibv_create_qp_ex_to_reg(req));
	if (a->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) {
		req->create_flags = a->create_flags;
		if (a->create_flags & IBV_QP_CREATE_SOURCE_QPN)
			req->source_qpn = a->source_qpn;
	}
	if (a->comp_mask & IBV_QP_INIT_ATTR_IND_TABLE) {
		req->rwq_ind_tbl_handle = a->rwq_ind_tbl->ind_tbl_handle;
		req->comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
	}
	ret = kcmd_write(c->ctx, &w);
	if (ret)
		return ret;
	c->qp->handle = resp->base.qp_handle;
	c->qp->qp_num = resp->base.qpn;
	caps_from_resp(&a->cap, &resp->base);
	return 0;
}

/* The CQ handles of an ordinary (not XRC receive) QP. */
static int fill_cqs(struct qp_create *c, struct ibv_command_buffer *cmdb)
{
	struct ibv_qp_init_attr_ex *a = c->attr;

	if (a->comp_mask & IBV_QP_INIT_ATTR_IND_TABLE) {
		/* Receives come from the table's WQs, not from this QP. */
		if (a->cap.max_recv_wr || a->cap.max_recv_sge || a->recv_cq ||
		    a->srq)
			return with_errno(EINVAL);
		cmdb->fallback_require_ex = 1;
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE,
				 a->rwq_ind_tbl->ind_tbl_handle);
		if (a->cap.max_send_wr) {
			c->send_cq_handle = a->send_cq->handle;
			fill_attr_in_obj(cmdb,
					 UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
					 c->send_cq_handle);
		}
		return 0;
	}
	c->send_cq_handle = a->send_cq->handle;
	fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE,
			 c->send_cq_handle);
	if (a->qp_type != IBV_QPT_XRC_SEND) {
		c->recv_cq_handle = a->recv_cq->handle;
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE,
				 c->recv_cq_handle);
	}
	return 0;
}

/* The owner of the QP: an XRC domain, or a PD and its CQs. */
static int fill_owner(struct qp_create *c, struct ibv_command_buffer *cmdb)
{
	struct ibv_qp_init_attr_ex *a = c->attr;
	int ret;

	switch (a->qp_type) {
	case IBV_QPT_XRC_RECV:
		if (!(a->comp_mask & IBV_QP_INIT_ATTR_XRCD))
			return with_errno(EINVAL);
		c->vxrcd = container_of(a->xrcd, struct verbs_xrcd, xrcd);
		c->pd_handle = c->vxrcd->handle;
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE,
				 c->pd_handle);
		return 0;
	case IBV_QPT_RC:
	case IBV_QPT_UC:
	case IBV_QPT_UD:
	case IBV_QPT_RAW_PACKET:
	case IBV_QPT_XRC_SEND:
	case IBV_QPT_DRIVER:
		break;
	default:
		return with_errno(EINVAL);
	}
	if (!(a->comp_mask & IBV_QP_INIT_ATTR_PD))
		return with_errno(EINVAL);
	c->pd_handle = a->pd->handle;
	fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_PD_HANDLE, c->pd_handle);
	ret = fill_cqs(c, cmdb);
	/* The write() command never gave an XRC send QP a receive queue. */
	if (!ret && a->qp_type == IBV_QPT_XRC_SEND)
		a->cap.max_recv_wr = a->cap.max_recv_sge = 0;
	return ret;
}

/* Create flags: SQ_SIG_ALL is one of them on the ioctl route. */
static int fill_flags(struct qp_create *c, struct ibv_command_buffer *cmdb)
{
	struct ibv_qp_init_attr_ex *a = c->attr;
	uint32_t flags = a->sq_sig_all ? IB_UVERBS_QP_CREATE_SQ_SIG_ALL : 0;

	if (a->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) {
		if (a->create_flags & ~QP_CREATE_FLAGS_SUPPORTED)
			return with_errno(EINVAL);
		cmdb->fallback_require_ex = 1;
		flags |= a->create_flags;
		/* The source QPN travels as its own attribute instead. */
		if (a->create_flags & IBV_QP_CREATE_SOURCE_QPN) {
			fill_attr_in_uint32(cmdb,
					    UVERBS_ATTR_CREATE_QP_SOURCE_QPN,
					    a->source_qpn);
			flags &= ~IBV_QP_CREATE_SOURCE_QPN;
		}
	}
	if (flags)
		fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_QP_FLAGS, flags);
	return 0;
}

/* struct ibv_qp_cap goes to the kernel as struct ib_uverbs_qp_cap. */
_Static_assert(sizeof(struct ibv_qp_cap) == sizeof(struct ib_uverbs_qp_cap),
	       "qp cap layout");
_Static_assert(offsetof(struct ibv_qp_cap, max_inline_data) ==
		       offsetof(struct ib_uverbs_qp_cap, max_inline_data),
	       "qp cap layout");

/*
 * QP/CREATE, with CREATE_QP or EX CREATE_QP where the kernel has no such
 * method. The attributes keep rdma-core 44's order.
 */
static int create_qp(struct qp_create *c)
{
	struct ibv_qp_init_attr_ex *a = c->attr;
	struct ib_uverbs_attr *handle;
	uint32_t qp_num;
	int ret;
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_QP,
				    UVERBS_METHOD_QP_CREATE, 17, c->link);

	c->qp->context = c->ctx;
	ret = fill_owner(c, cmdb);
	if (ret)
		return ret;
	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_CREATE_QP_HANDLE);
	fill_attr_const_in(cmdb, UVERBS_ATTR_CREATE_QP_TYPE, a->qp_type);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_CREATE_QP_USER_HANDLE,
			    ioctl_ptr_to_u64(c->qp));
	fill_attr_in_ptr(cmdb, UVERBS_ATTR_CREATE_QP_CAP, &a->cap);
	fill_attr_in_fd(cmdb, UVERBS_ATTR_CREATE_QP_EVENT_FD, c->ctx->async_fd);
	ret = fill_flags(c, cmdb);
	if (ret)
		return ret;
	if (a->srq)
		fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE,
				 a->srq->handle);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_QP_RESP_CAP, &a->cap);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qp_num);
	cmd_add_uhw(cmdb, c->b.cmd, c->b.cmd_size, c->b.cmd_core, c->b.resp,
		    c->b.resp_size, c->b.resp_core);

	switch (cmd_route(c->ctx, cmdb, &ret)) {
	case CMD_WRITE:
		ret = create_qp_write(c);
		break;
	case CMD_WRITE_EX:
		ret = create_qp_write_ex(c);
		break;
	case CMD_DONE:
		if (!ret) {
			c->qp->handle = read_attr_obj(
				UVERBS_ATTR_CREATE_QP_HANDLE, handle);
			c->qp->qp_num = qp_num;
		}
		break;
	}
	if (ret)
		return ret;
	qp_init_fields(c);
	return 0;
}

/* The provider's write() buffers, each with its core struct's size. */
#define QP_BUFS(cmd, cmd_size, resp, resp_size)                       \
	((struct qp_bufs){ (cmd), sizeof(*(cmd)), (cmd_size), (resp), \
			   sizeof(*(resp)), (resp_size) })

/**
 * ibv_cmd_create_qp - create a QP from a basic init attr (provider helper)
 * @pd, @qp, @attr: the verb's arguments; @attr->cap is updated
 * @cmd, @cmd_size, @resp, @resp_size: the provider's write() buffers
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
				 struct ibv_qp_init_attr *attr,
				 struct ibv_create_qp *cmd, size_t cmd_size,
				 struct ib_uverbs_create_qp_resp *resp,
				 size_t resp_size)
{
	struct ibv_qp_init_attr_ex attr_ex = {
		.qp_context = attr->qp_context,
		.send_cq = attr->send_cq,
		.recv_cq = attr->recv_cq,
		.srq = attr->srq,
		.cap = attr->cap,
		.qp_type = attr->qp_type,
		.sq_sig_all = attr->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};
	struct qp_create c = {
		.ctx = pd->context,
		.qp = qp,
		.attr = &attr_ex,
		.b = QP_BUFS(cmd, cmd_size, resp, resp_size),
	};
	int ret = create_qp(&c);

	if (!ret)
		attr->cap = attr_ex.cap;
	return ret;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_qp);

/*
 * The two creates of a verbs_qp differ only in the provider's write()
 * buffers (basic or extended CREATE_QP) and, following from that, in the
 * init attr fields they accept (@known).
 */
static int create_vqp(struct ibv_context *ctx, struct verbs_qp *qp,
		      struct ibv_qp_init_attr_ex *attr, uint64_t known,
		      struct qp_bufs b, struct ibv_command_buffer *link)
{
	struct qp_create c = {
		.ctx = ctx,
		.vqp = qp,
		.qp = &qp->qp,
		.attr = attr,
		.b = b,
		.link = link,
	};

	if (!check_comp_mask(attr->comp_mask, known))
		return with_errno(EINVAL);
	return create_qp(&c);
}

/* The init attr fields both creates of a verbs_qp accept. */
#define QP_INIT_BASIC                                  \
	(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD | \
	 IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)

/**
 * ibv_cmd_create_qp_ex - create a QP of a PD or XRC domain (provider helper)
 *
 * As ibv_cmd_create_qp(), for the extended init attr without the fields
 * that need the extended write() command.
 */
IBV_EXPORT int ibv_cmd_create_qp_ex(struct ibv_context *context,
				    struct verbs_qp *qp,
				    struct ibv_qp_init_attr_ex *attr_ex,
				    struct ibv_create_qp *cmd, size_t cmd_size,
				    struct ib_uverbs_create_qp_resp *resp,
				    size_t resp_size)
{
	return create_vqp(context, qp, attr_ex, QP_INIT_BASIC,
			  QP_BUFS(cmd, cmd_size, resp, resp_size), NULL);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_qp_ex);

/**
 * ibv_cmd_create_qp_ex2 - create a QP from any extended init attr
 *
 * As ibv_cmd_create_qp_ex(), with the provider's extended write()
 * buffers, so that create flags and RSS tables can fall back too, and
 * the provider's own attributes in @driver (or NULL), sent in the same
 * QP_CREATE ioctl. As for CQs, the write() form is taken without the
 * method only when every attribute of @driver is optional.
 */
IBV_EXPORT int
ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp,
		      struct ibv_qp_init_attr_ex *qp_attr,
		      struct ibv_create_qp_ex *cmd, size_t cmd_size,
		      struct ib_uverbs_ex_create_qp_resp *resp,
		      size_t resp_size, struct ibv_command_buffer *driver)
{
	const uint64_t known = QP_INIT_BASIC | IBV_QP_INIT_ATTR_CREATE_FLAGS |
			       IBV_QP_INIT_ATTR_MAX_TSO_HEADER |
			       IBV_QP_INIT_ATTR_IND_TABLE |
			       IBV_QP_INIT_ATTR_RX_HASH;

	return create_vqp(context, qp, qp_attr, known,
			  QP_BUFS(cmd, cmd_size, resp, resp_size), driver);
}
VERBS_PRIVATE_NEWEST(ibv_cmd_create_qp_ex2);

/* The fields of a QP opened by number: no PD, CQs or SRQ of its own. */
static void open_qp_fields(struct ibv_context *ctx, struct verbs_qp *qp,
			   int vqp_sz, struct ibv_qp_open_attr *attr,
			   struct verbs_xrcd *xrcd)
{
	struct verbs_qp_tail *tail = vqp_tail(ctx, qp);
	size_t tail_at = (char *)tail - (char *)qp;

	qp->qp.qp_context = attr->qp_context;
	qp->qp.pd = NULL;
	qp->qp.send_cq = qp->qp.recv_cq = NULL;
	qp->qp.srq = NULL;
	qp->qp.qp_num = attr->qp_num;
	qp->qp.qp_type = attr->qp_type;
	qp->qp.state = IBV_QPS_UNKNOWN;
	qp->qp.events_completed = 0;
	pthread_mutex_init(&qp->qp.mutex, NULL);
	pthread_cond_init(&qp->qp.cond, NULL);
	tail->comp_mask = 0;
	/* Providers built before verbs_qp grew xrcd pass a shorter size. */
	if (vqp_sz > 0 && (size_t)vqp_sz >= tail_at + sizeof(*tail)) {
		tail->comp_mask = VERBS_QP_XRCD;
		tail->xrcd = xrcd;
	}
}

/**
 * ibv_cmd_open_qp - open an XRC target QP another process created
 *
 * Write-only (OPEN_QP). Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp,
			       int vqp_sz, struct ibv_qp_open_attr *attr,
			       struct ibv_open_qp *cmd, size_t cmd_size,
			       struct ib_uverbs_create_qp_resp *resp,
			       size_t resp_size)
{
	const uint32_t need = IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_NUM |
			      IBV_QP_OPEN_ATTR_TYPE;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_OPEN_QP,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	struct verbs_xrcd *xrcd;
	int ret;

	if (attr->comp_mask >= IBV_QP_OPEN_ATTR_RESERVED)
		return with_errno(EOPNOTSUPP);
	if ((attr->comp_mask & need) != need)
		return with_errno(EINVAL);
	xrcd = container_of(attr->xrcd, struct verbs_xrcd, xrcd);
	cmd->response = ioctl_ptr_to_u64(resp);
	cmd->user_handle = ioctl_ptr_to_u64(qp);
	cmd->pd_handle = xrcd->handle;
	cmd->qpn = attr->qp_num;
	cmd->qp_type = attr->qp_type;
	ret = kcmd_write(context, &w);
	if (ret)
		return ret;
	qp->qp.handle = resp->qp_handle;
	qp->qp.context = context;
	open_qp_fields(context, qp, vqp_sz, attr, xrcd);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_open_qp);

static const struct cmd_destroy qp_destroy = {
	CMD_DESTROY_IDS_RESP(QP),
	CMD_DESTROY_ANSWER(struct ib_uverbs_destroy_qp_resp, events_reported),
	.command = IB_USER_VERBS_CMD_DESTROY_QP,
};

/**
 * ibv_cmd_destroy_qp - destroy a QP once its reported events are acked
 *
 * QP/DESTROY, or DESTROY_QP by write(). Blocks until the application has
 * acknowledged every async event the kernel says it delivered for @qp.
 */
IBV_EXPORT int ibv_cmd_destroy_qp(struct ibv_qp *qp)
{
	return cmd_destroy_acked(qp->context, &qp_destroy, qp->handle,
				 &qp->mutex, &qp->cond, &qp->events_completed);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_qp);

/* ATTACH_MCAST and DETACH_MCAST share one request layout. */
static int mcast(struct ibv_qp *qp, uint32_t command, const union ibv_gid *gid,
		 uint16_t lid)
{
	struct ibv_attach_mcast req = {
		.qp_handle = qp->handle,
		.mlid = lid,
	};
	struct kcmd_write_args w = {
		.command = command,
		KCMD_REQ(&req, sizeof(req)),
	};

	_Static_assert(sizeof(struct ibv_attach_mcast) ==
			       sizeof(struct ibv_detach_mcast),
		       "mcast layouts");
	memcpy(req.gid, gid->raw, sizeof(req.gid));
	return kcmd_write(qp->context, &w);
}

/**
 * ibv_cmd_attach_mcast - join @qp to the multicast group @gid / @lid
 *
 * Write-only (ATTACH_MCAST). Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
				    uint16_t lid)
{
	return mcast(qp, IB_USER_VERBS_CMD_ATTACH_MCAST, gid, lid);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_attach_mcast);

/**
 * ibv_cmd_detach_mcast - take @qp out of the multicast group @gid / @lid
 *
 * Write-only (DETACH_MCAST). Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
				    uint16_t lid)
{
	return mcast(qp, IB_USER_VERBS_CMD_DETACH_MCAST, gid, lid);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_detach_mcast);
