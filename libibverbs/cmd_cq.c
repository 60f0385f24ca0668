// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues in the kernel: the ibv_cmd_*_cq() helpers providers
 * call from their create, poll, notify, resize, modify and destroy ops.
 *
 * Create and destroy exist as the CQ object's ioctl methods and as
 * write() commands; they go through cmd_route() (cmd.c), ioctl first.
 * Poll, notify, resize and modify only ever were write() commands, sent
 * by kcmd_write() (kcmd.c), which tunnels them through INVOKE_WRITE when
 * the kernel can. The provider's request and response structs carry its
 * driver data behind the core part; on the ioctl path that data becomes
 * the UHW attributes, on the write() path it follows the core request
 * in place. Nothing here allocates: poll_cq works in bounded chunks.
 */
#include <errno.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "context_priv.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/* The provider's buffers for one create, and where they came from. */
struct cq_bufs {
	void *cmd;
	size_t cmd_size;
	void *resp;
	size_t resp_size;
	bool ex; /* struct ibv_create_cq_ex and its extended response */
};

/* What the caller asked for, the same on every route. */
struct cq_req {
	int cqe;
	struct ibv_comp_channel *channel;
	int comp_vector;
	uint32_t flags; /* IB_UVERBS_CQ_FLAGS_* */
	uint32_t cmd_flags; /* enum create_cq_cmd_flags */
	/* The queue's buffer, with CREATE_CQ_CMD_FLAGS_WITH_MEM_*. */
	const struct verbs_create_cq_prov_attr *prov;
};

/* How far into an extended request and response the basic ones start. */
#define CQ_EX_IN_SKIP \
	(sizeof(struct ibv_create_cq_ex) - sizeof(struct ibv_create_cq))
#define CQ_EX_OUT_SKIP                                \
	(sizeof(struct ib_uverbs_ex_create_cq_resp) - \
	 sizeof(struct ib_uverbs_create_cq_resp))

/*
 * The basic CREATE_CQ write(). From an extended buffer the basic request
 * is built inside it, ending where the extended core ends, so that the
 * provider's data stays where the provider put it; the basic response
 * likewise ends where the extended core response ends. A provider may
 * pass no request at all (rxe: NULL, 0), as rdma-core 44 allows: then
 * the core request is built on the stack.
 */
static int create_cq_write(struct ibv_cq *cq, const struct cq_req *r,
			   const struct cq_bufs *b)
{
	size_t in_skip = b->ex ? CQ_EX_IN_SKIP : 0;
	size_t out_skip = b->ex ? CQ_EX_OUT_SKIP : 0;
	struct ibv_create_cq onstack;
	struct ibv_create_cq *req =
		b->cmd ? (void *)((char *)b->cmd + in_skip) : &onstack;
	struct ib_uverbs_create_cq_resp *resp =
		(void *)((char *)b->resp + out_skip);
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_CREATE_CQ,
		KCMD_REQ(req, b->cmd ? b->cmd_size - in_skip : sizeof(onstack)),
		KCMD_RESP(resp, b->resp_size - out_skip),
	};
	int ret;

	req->core_payload = (struct ib_uverbs_create_cq){
		.response = ioctl_ptr_to_u64(resp),
		.user_handle = ioctl_ptr_to_u64(cq),
		.cqe = r->cqe,
		.comp_vector = r->comp_vector,
		.comp_channel = r->channel ? r->channel->fd : -1,
	};
	ret = kcmd_write(cq->context, &w);
	if (ret)
		return ret;
	cq->handle = resp->cq_handle;
	cq->cqe = resp->cqe;
	return 0;
}

/* EX CREATE_CQ: the only write() form that carries flags. */
static int create_cq_write_ex(struct ibv_cq *cq, const struct cq_req *r,
			      const struct cq_bufs *b)
{
	struct ibv_create_cq_ex onstack;
	struct ibv_create_cq_ex *req = b->cmd ? b->cmd : &onstack;
	struct ib_uverbs_ex_create_cq_resp *resp = b->resp;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_CQ,
		.extended = true,
		KCMD_REQ(req, b->cmd ? b->cmd_size : sizeof(onstack)),
		KCMD_RESP(resp, b->resp_size),
	};
	int ret;

	req->core_payload = (struct ib_uverbs_ex_create_cq){
		.user_handle = ioctl_ptr_to_u64(cq),
		.cqe = r->cqe,
		.comp_vector = r->comp_vector,
		.comp_channel = r->channel ? r->channel->fd : -1,
		.flags = r->flags,
	};
	ret = kcmd_write(cq->context, &w);
	if (ret)
		return ret;
	cq->handle = resp->base.cq_handle;
	cq->cqe = resp->base.cqe;
	return 0;
}

/*
 * The ioctl form's attributes, in rdma-core 44's order. The async event
 * file is optional so that kernels predating it still take the ioctl;
 * an imported context has no write() path at all, since write() would
 * create the CQ on the original owner's file.
 */
static struct ib_uverbs_attr *fill_create_cq(struct ibv_command_buffer *cmdb,
					     struct ibv_cq *cq,
					     const struct cq_req *r,
					     uint32_t *resp_cqe)
{
	struct ibv_context *ctx = cq->context;
	struct ib_uverbs_attr *handle, *async_fd;

	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_CREATE_CQ_HANDLE);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_CQ_RESP_CQE, resp_cqe);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_CQ_CQE, r->cqe);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
			    ioctl_ptr_to_u64(cq));
	if (r->channel)
		fill_attr_in_fd(cmdb, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL,
				r->channel->fd);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
			    r->comp_vector);
	async_fd = fill_attr_in_fd(cmdb, UVERBS_ATTR_CREATE_CQ_EVENT_FD,
				   ctx->async_fd);
	if (get_priv(ctx)->imported)
		cmdb->fallback_ioctl_only = 1;
	else
		attr_optional(async_fd);
	/* A queue the provider allocated is known to the ioctl only. */
	if (r->cmd_flags & CREATE_CQ_CMD_FLAGS_WITH_MEM_VA) {
		fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_VA,
				    ioctl_ptr_to_u64(r->prov->buffer.ptr));
		fill_attr_in_uint64(cmdb,
				    KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH,
				    r->prov->buffer.length);
		cmdb->fallback_ioctl_only = 1;
	} else if (r->cmd_flags & CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF) {
		fill_attr_in_fd(cmdb, KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_FD,
				r->prov->buffer.dmabuf.fd);
		fill_attr_in_uint64(cmdb,
				    KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET,
				    r->prov->buffer.dmabuf.offset);
		fill_attr_in_uint64(cmdb,
				    KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH,
				    r->prov->buffer.length);
		cmdb->fallback_ioctl_only = 1;
	}
	if (!r->flags)
		return handle;
	/*
	 * Only the extended write() has room for flags. A provider that
	 * passes CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX does without the
	 * kernel's timestamp flag, so the basic write() may drop it.
	 */
	if ((r->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION) ||
	    !(r->cmd_flags & CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX))
		cmdb->fallback_require_ex = 1;
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_CQ_FLAGS, r->flags);
	return handle;
}

/*
 * Every create: user_handle is @cq itself, echoed back in every event.
 * @link is the provider's own attributes, or NULL.
 */
static int create_cq(struct ibv_context *ctx, struct ibv_cq *cq,
		     const struct cq_req *r, const struct cq_bufs *b,
		     struct ibv_command_buffer *link)
{
	size_t core_in = b->ex ? sizeof(struct ibv_create_cq_ex) :
				 sizeof(struct ibv_create_cq);
	size_t core_out = b->ex ? sizeof(struct ib_uverbs_ex_create_cq_resp) :
				  sizeof(struct ib_uverbs_create_cq_resp);
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_CQ,
				    UVERBS_METHOD_CQ_CREATE, 13, link);
	struct ib_uverbs_attr *handle;
	uint32_t resp_cqe = 0;
	int ret;

	cq->context = ctx;
	handle = fill_create_cq(cmdb, cq, r, &resp_cqe);
	cmd_add_uhw(cmdb, b->cmd, b->cmd_size, core_in, b->resp, b->resp_size,
		    core_out);
	switch (cmd_route(ctx, cmdb, &ret)) {
	case CMD_WRITE:
		return create_cq_write(cq, r, b);
	case CMD_WRITE_EX:
		return create_cq_write_ex(cq, r, b);
	case CMD_DONE:
		break;
	}
	if (ret)
		return ret;
	cq->handle = read_attr_obj(UVERBS_ATTR_CREATE_CQ_HANDLE, handle);
	cq->cqe = resp_cqe;
	return 0;
}

/**
 * ibv_cmd_create_cq - create a CQ in the kernel for a provider
 * @context: the context
 * @cqe: the minimum number of entries asked for
 * @channel: completion channel for its events, or NULL
 * @comp_vector: completion vector
 * @cq: the provider's CQ; gets context, handle and the real cqe
 * @cmd, @cmd_size: the provider's request, struct ibv_create_cq first
 * @resp, @resp_size: the provider's response, the kernel's struct first
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
				 struct ibv_comp_channel *channel,
				 int comp_vector, struct ibv_cq *cq,
				 struct ibv_create_cq *cmd, size_t cmd_size,
				 struct ib_uverbs_create_cq_resp *resp,
				 size_t resp_size)
{
	const struct cq_req r = {
		.cqe = cqe,
		.channel = channel,
		.comp_vector = comp_vector,
	};
	const struct cq_bufs b = { cmd, cmd_size, resp, resp_size, false };

	return create_cq(context, cq, &r, &b, NULL);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_cq);

/*
 * The kernel's create flags for @attr: a timestamp of either kind needs
 * the kernel to report completion times.
 */
static uint32_t create_cq_flags(const struct ibv_cq_init_attr_ex *attr)
{
	uint32_t flags = 0;

	if (attr->wc_flags & (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			      IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK))
		flags |= IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN))
		flags |= IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN;
	return flags;
}

/**
 * ibv_cmd_create_cq_ex2 - create an extended CQ, with driver attributes
 * @context: the context
 * @cq_attr: what the application asked for
 * @prov_attr: the queue's buffer, which the provider allocated, for
 *	CREATE_CQ_CMD_FLAGS_WITH_MEM_VA or _DMABUF in @cmd_flags; or NULL
 * @cq: the provider's CQ
 * @cmd, @cmd_size: the provider's request, struct ibv_create_cq_ex first
 * @resp, @resp_size: the provider's response, the kernel's struct first
 * @cmd_flags: enum create_cq_cmd_flags
 * @driver: the provider's attributes for the same ioctl (rdma-core 56.1's
 *	mlx5 passes one, e.g. for the UAR of a parent domain), or NULL
 *
 * The attributes of @driver travel with the core's in one CQ_CREATE
 * ioctl. A kernel without the method gets the write() form only when
 * every one of them is optional: a mandatory one would be lost there,
 * so that ends in EOPNOTSUPP.
 *
 * A queue buffer goes by ioctl only: without the method, EOPNOTSUPP.
 *
 * Returns 0, EOPNOTSUPP for comp_mask bits the kernel cannot honour, or
 * another positive errno value; EINVAL for a WITH_MEM flag without
 * @prov_attr.
 */
IBV_EXPORT int ibv_cmd_create_cq_ex2(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq,
	struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags, struct ibv_command_buffer *driver)
{
	const uint32_t known = IBV_CQ_INIT_ATTR_MASK_FLAGS |
			       IBV_CQ_INIT_ATTR_MASK_PD;
	const struct cq_req r = {
		.cqe = cq_attr->cqe,
		.channel = cq_attr->channel,
		.comp_vector = cq_attr->comp_vector,
		.flags = create_cq_flags(cq_attr),
		.cmd_flags = cmd_flags,
		.prov = prov_attr,
	};
	const struct cq_bufs b = { cmd, cmd_size, resp, resp_size, true };
	const uint32_t with_mem = CREATE_CQ_CMD_FLAGS_WITH_MEM_VA |
				  CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF;

	if (cq_attr->comp_mask & ~known)
		return with_errno(EOPNOTSUPP);
	if ((cmd_flags & with_mem) && !prov_attr)
		return with_errno(EINVAL);
	return create_cq(context, &cq->cq, &r, &b, driver);
}
VERBS_PRIVATE_NEWEST(ibv_cmd_create_cq_ex2);

/**
 * ibv_cmd_create_cq_ex - create an extended CQ in the kernel
 *
 * ibv_cmd_create_cq_ex2() without driver attributes; same arguments.
 */
IBV_EXPORT int ibv_cmd_create_cq_ex(struct ibv_context *context,
				    const struct ibv_cq_init_attr_ex *cq_attr,
				    struct verbs_create_cq_prov_attr *prov_attr,
				    struct verbs_cq *cq,
				    struct ibv_create_cq_ex *cmd,
				    size_t cmd_size,
				    struct ib_uverbs_ex_create_cq_resp *resp,
				    size_t resp_size, uint32_t cmd_flags)
{
	return ibv_cmd_create_cq_ex2(context, cq_attr, prov_attr, cq, cmd,
				     cmd_size, resp, resp_size, cmd_flags,
				     NULL);
}
VERBS_PRIVATE_NEWEST(ibv_cmd_create_cq_ex);

/* Until every event the kernel delivered for @cq has been acknowledged. */
static void wait_for_acks(struct ibv_cq *cq,
			  const struct ib_uverbs_destroy_cq_resp *resp)
{
	pthread_mutex_lock(&cq->mutex);
	while (cq->comp_events_completed != resp->comp_events_reported ||
	       cq->async_events_completed != resp->async_events_reported)
		pthread_cond_wait(&cq->cond, &cq->mutex);
	pthread_mutex_unlock(&cq->mutex);
}

static const struct cmd_destroy cq_destroy = {
	CMD_DESTROY_IDS_RESP(CQ),
	/* Both counts, in the same bytes in either form. */
	.resp_len = sizeof(struct ib_uverbs_destroy_cq_resp),
	.ioctl_resp_len = sizeof(struct ib_uverbs_destroy_cq_resp),
	.command = IB_USER_VERBS_CMD_DESTROY_CQ,
};

/**
 * ibv_cmd_destroy_cq - destroy a CQ in the kernel
 * @cq: the CQ
 *
 * The kernel answers with how many events it delivered for the CQ;
 * returning before the application acknowledged them all would let it
 * free the CQ under a thread still handling one, so this waits.
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_destroy_cq(struct ibv_cq *cq)
{
	struct ib_uverbs_destroy_cq_resp resp = { 0 };
	int ret;

	ret = cmd_destroy(cq->context, &cq_destroy, cq->handle, &resp);
	if (ret)
		return cmd_destroy_result(ret);
	wait_for_acks(cq, &resp);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_cq);

/* Kernel work completions per POLL_CQ, bounding the stack buffer. */
#define POLL_CHUNK 32

/* The kernel's layout of a work completion into the public one. */
static void copy_wc(struct ibv_wc *dst, const struct ib_uverbs_wc *src)
{
	dst->wr_id = src->wr_id;
	dst->status = src->status;
	dst->opcode = src->opcode;
	dst->vendor_err = src->vendor_err;
	dst->byte_len = src->byte_len;
	dst->imm_data = src->ex.imm_data;
	dst->qp_num = src->qp_num;
	dst->src_qp = src->src_qp;
	dst->wc_flags = src->wc_flags;
	dst->pkey_index = src->pkey_index;
	dst->slid = src->slid;
	dst->sl = src->sl;
	dst->dlid_path_bits = src->dlid_path_bits;
}

/* One POLL_CQ for at most POLL_CHUNK entries; the count or -1/errno. */
static int poll_chunk(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
	/*
	 * Room for the count and POLL_CHUNK entries, 8-byte aligned; zeroed
	 * here as kcmd_write() would zero it, so that no compiler sees its
	 * address taken (ioctl_ptr_to_u64()) as a read of unset memory.
	 */
	uint64_t buf[(sizeof(struct ib_uverbs_poll_cq_resp) +
		      POLL_CHUNK * sizeof(struct ib_uverbs_wc)) /
		     sizeof(uint64_t)] = { 0 };
	struct ib_uverbs_poll_cq_resp *resp = (void *)buf;
	size_t resp_len = sizeof(*resp) + ne * sizeof(resp->wc[0]);
	struct ibv_poll_cq req = {
		.core_payload = {
			.response = ioctl_ptr_to_u64(resp),
			.cq_handle = cq->handle,
			.ne = ne,
		},
	};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_POLL_CQ,
		KCMD_REQ(&req, sizeof(req)),
		.resp = resp,
		.resp_core = resp_len,
		.resp_len = resp_len,
	};
	unsigned int i, n;

	if (kcmd_write(cq->context, &w))
		return -1;
	n = resp->count < (unsigned int)ne ? resp->count : (unsigned int)ne;
	for (i = 0; i < n; i++)
		copy_wc(&wc[i], &resp->wc[i]);
	return n;
}

/**
 * ibv_cmd_poll_cq - poll a CQ through the kernel
 * @cq: the CQ
 * @ne: room in @wc
 * @wc: the completions
 *
 * Returns how many completions were stored, or -1 with errno set.
 * Beyond POLL_CHUNK entries the kernel is asked again while it filled
 * every entry asked for; completions already taken from the kernel are
 * never dropped, so a failure after the first call returns the count.
 */
IBV_EXPORT int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
	int done = 0, want, n;

	if (ne < 0) {
		errno = EINVAL;
		return -1;
	}
	do {
		want = ne - done < POLL_CHUNK ? ne - done : POLL_CHUNK;
		n = poll_chunk(cq, want, wc + done);
		if (n < 0)
			return done ? done : -1;
		done += n;
	} while (n == POLL_CHUNK && done < ne);
	return done;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_poll_cq);

/**
 * ibv_cmd_req_notify_cq - arm a CQ's completion event
 * @cq: the CQ
 * @solicited_only: only for solicited completions
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct ibv_req_notify_cq req = {
		.core_payload = {
			.cq_handle = cq->handle,
			.solicited_only = !!solicited_only,
		},
	};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_REQ_NOTIFY_CQ,
		KCMD_REQ(&req, sizeof(req)),
	};

	return kcmd_write(cq->context, &w);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_req_notify_cq);

/**
 * ibv_cmd_resize_cq - resize a CQ in the kernel
 * @cq: the CQ; cqe becomes the size the kernel chose
 * @cqe: the minimum number of entries asked for
 * @cmd, @cmd_size: the provider's request, struct ibv_resize_cq first
 * @resp, @resp_size: the provider's response, the kernel's struct first
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe,
				 struct ibv_resize_cq *cmd, size_t cmd_size,
				 struct ib_uverbs_resize_cq_resp *resp,
				 size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_RESIZE_CQ,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	cmd->core_payload = (struct ib_uverbs_resize_cq){
		.response = ioctl_ptr_to_u64(resp),
		.cq_handle = cq->handle,
		.cqe = cqe,
	};
	ret = kcmd_write(cq->context, &w);
	if (ret)
		return ret;
	cq->cqe = resp->cqe;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_resize_cq);

/**
 * ibv_cmd_modify_cq - change a CQ's moderation in the kernel
 * @cq: the CQ
 * @attr: what to change
 * @cmd, @cmd_size: the provider's request, struct ibv_modify_cq first
 *
 * Returns 0, EINVAL for attr_mask bits rdma-core 44 does not know, or
 * another positive errno value.
 */
IBV_EXPORT int ibv_cmd_modify_cq(struct ibv_cq *cq,
				 struct ibv_modify_cq_attr *attr,
				 struct ibv_modify_cq *cmd, size_t cmd_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_MODIFY_CQ,
		.extended = true,
		KCMD_REQ(cmd, cmd_size),
	};

	if (attr->attr_mask >= IBV_CQ_ATTR_RESERVED)
		return with_errno(EINVAL);
	cmd->core_payload = (struct ib_uverbs_ex_modify_cq){
		.cq_handle = cq->handle,
		.attr_mask = attr->attr_mask,
		.attr = {
			.cq_count = attr->moderate.cq_count,
			.cq_period = attr->moderate.cq_period,
		},
	};
	return kcmd_write(cq->context, &w);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_cq);
