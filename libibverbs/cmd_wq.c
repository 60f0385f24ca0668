// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Work queues and receive work queue indirection tables (the kernel's WQ
 * and RWQ_IND_TBL objects), the command layer behind the providers'
 * create_wq/modify_wq/destroy_wq and create/destroy_rwq_ind_table ops,
 * which the inline verbs of verbs.h reach. An indirection table spreads
 * received packets over WQs (RSS); a QP created on it names it by handle.
 *
 * Routes follow rdma-core 44: create and destroy of a WQ and destroy of
 * a table are ioctls with the extended write() command as fallback;
 * modify of a WQ and create of a table exist only as extended write()
 * commands. A WQ's destroy waits until the application has acked every
 * async event the kernel reported for it, so that no event can name a
 * freed WQ.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/* Attributes of WQ/CREATE, the provider's two included. */
#define CREATE_WQ_ATTRS 14

/*
 * create_flags count only with IBV_WQ_INIT_ATTR_FLAGS: stale bits in a
 * reused struct must not turn on VLAN stripping. (rdma-core 44 sends 0
 * in the ioctl then, but copies the bits into the write() form.)
 */
static uint32_t create_flags(const struct ibv_wq_init_attr *init)
{
	return init->comp_mask & IBV_WQ_INIT_ATTR_FLAGS ? init->create_flags :
							  0;
}

/* The write() form of create, on kernels without WQ/CREATE. */
static int create_wq_write(struct ibv_context *context,
			   struct ibv_wq_init_attr *init, struct ibv_wq *wq,
			   struct ibv_create_wq *cmd, size_t cmd_size,
			   struct ib_uverbs_ex_create_wq_resp *resp,
			   size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_WQ,
		.extended = true,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	cmd->core_payload = (struct ib_uverbs_ex_create_wq){
		.wq_type = init->wq_type,
		.user_handle = ioctl_ptr_to_u64(wq),
		.pd_handle = init->pd->handle,
		.cq_handle = init->cq->handle,
		.max_wr = init->max_wr,
		.max_sge = init->max_sge,
		.create_flags = create_flags(init),
	};
	ret = kcmd_write(context, &w);
	if (ret)
		return ret;
	wq->handle = resp->wq_handle;
	wq->wq_num = resp->wqn;
	init->max_wr = resp->max_wr;
	init->max_sge = resp->max_sge;
	return 0;
}

/* What WQ/CREATE answers, read back from its output attributes. */
struct wq_out {
	struct ib_uverbs_attr *handle;
	uint32_t max_wr, max_sge, wq_num;
};

static void fill_create_wq(struct ibv_command_buffer *cmdb,
			   struct ibv_context *context,
			   struct ibv_wq_init_attr *init, struct ibv_wq *wq,
			   struct wq_out *out)
{
	out->handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_CREATE_WQ_HANDLE);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_CREATE_WQ_USER_HANDLE,
			    ioctl_ptr_to_u64(wq));
	fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_WQ_PD_HANDLE,
			 init->pd->handle);
	fill_attr_in_obj(cmdb, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE,
			 init->cq->handle);
	fill_attr_const_in(cmdb, UVERBS_ATTR_CREATE_WQ_TYPE, init->wq_type);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_WQ_MAX_WR, init->max_wr);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_WQ_MAX_SGE, init->max_sge);
	/* Async events for the WQ go to the context's event file. */
	fill_attr_in_fd(cmdb, UVERBS_ATTR_CREATE_WQ_EVENT_FD,
			context->async_fd);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_CREATE_WQ_FLAGS,
			    create_flags(init));
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR,
			  &out->max_wr);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE,
			  &out->max_sge);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM,
			  &out->wq_num);
}

static bool unknown_flags(const struct ibv_wq_init_attr *init)
{
	return (init->comp_mask & IBV_WQ_INIT_ATTR_FLAGS) &&
	       (init->create_flags & ~(IBV_WQ_FLAGS_RESERVED - 1));
}

/*
 * Creates a WQ from @wq_init_attr; @cmd/@cmd_size and @resp/@resp_size
 * are the provider's extended request and response, core first. Fills
 * the WQ's context, pd, cq, type, handle and number, and the granted
 * max_wr/max_sge back into @wq_init_attr. 0 or a positive errno.
 */
IBV_EXPORT int ibv_cmd_create_wq(struct ibv_context *context,
				 struct ibv_wq_init_attr *wq_init_attr,
				 struct ibv_wq *wq, struct ibv_create_wq *cmd,
				 size_t cmd_size,
				 struct ib_uverbs_ex_create_wq_resp *resp,
				 size_t resp_size)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE,
			       CREATE_WQ_ATTRS);
	struct wq_out out = { 0 };
	int ret;

	if (wq_init_attr->comp_mask >= IBV_WQ_INIT_ATTR_RESERVED)
		return with_errno(EINVAL);
	/*
	 * Set before the call, as rdma-core 44 does, whatever its result,
	 * and before unknown flags are refused.
	 */
	wq->context = context;
	wq->cq = wq_init_attr->cq;
	wq->pd = wq_init_attr->pd;
	wq->wq_type = wq_init_attr->wq_type;
	if (unknown_flags(wq_init_attr))
		return with_errno(EOPNOTSUPP);

	fill_create_wq(cmdb, context, wq_init_attr, wq, &out);
	cmd_add_uhw(cmdb, cmd, cmd_size, sizeof(*cmd), resp, resp_size,
		    sizeof(*resp));
	cmdb->fallback_require_ex = 1;
	if (cmd_route(context, cmdb, &ret) != CMD_DONE)
		return create_wq_write(context, wq_init_attr, wq, cmd, cmd_size,
				       resp, resp_size);
	if (ret)
		return ret;
	wq->handle = read_attr_obj(UVERBS_ATTR_CREATE_WQ_HANDLE, out.handle);
	wq->wq_num = out.wq_num;
	wq_init_attr->max_wr = out.max_wr;
	wq_init_attr->max_sge = out.max_sge;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_wq);

/*
 * Changes @wq as @attr->attr_mask says (state, current state, flags);
 * @cmd/@cmd_size is the provider's extended request. Records the new
 * state in wq->state on success. 0 or a positive errno.
 */
IBV_EXPORT int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr,
				 struct ibv_modify_wq *cmd, size_t cmd_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_MODIFY_WQ,
		.extended = true,
		KCMD_REQ(cmd, cmd_size),
	};
	int ret;

	if (attr->attr_mask >= IBV_WQ_ATTR_RESERVED)
		return with_errno(EINVAL);
	memset(cmd, 0, sizeof(*cmd));
	cmd->curr_wq_state = attr->curr_wq_state;
	cmd->wq_state = attr->wq_state;
	if (attr->attr_mask & IBV_WQ_ATTR_FLAGS) {
		if (attr->flags_mask & ~(IBV_WQ_FLAGS_RESERVED - 1))
			return with_errno(EOPNOTSUPP);
		cmd->flags = attr->flags;
		cmd->flags_mask = attr->flags_mask;
	}
	cmd->wq_handle = wq->handle;
	cmd->attr_mask = attr->attr_mask;
	ret = kcmd_write(wq->context, &w);
	if (ret)
		return ret;
	if (attr->attr_mask & IBV_WQ_ATTR_STATE)
		wq->state = attr->wq_state;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_wq);

/*
 * The ioctl's answer is only the count of async events; the extended
 * write() form answers with the whole ib_uverbs_ex_destroy_wq_resp.
 */
static const struct cmd_destroy wq_destroy = {
	CMD_DESTROY_IDS_RESP(WQ),
	CMD_DESTROY_ANSWER(struct ib_uverbs_ex_destroy_wq_resp,
			   events_reported),
	.command = IB_USER_VERBS_EX_CMD_DESTROY_WQ,
	.extended = true,
};

/*
 * Destroys @wq, then waits for its reported async events to be acked.
 * A destroy the kernel failed returns at once, without waiting. 0 or a
 * positive errno.
 */
IBV_EXPORT int ibv_cmd_destroy_wq(struct ibv_wq *wq)
{
	return cmd_destroy_acked(wq->context, &wq_destroy, wq->handle,
				 &wq->mutex, &wq->cond, &wq->events_completed);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_wq);

/*
 * Creates an indirection table over the 2^log_ind_tbl_size WQs of
 * @init_attr->ind_tbl; @resp/@resp_size is the provider's response, core
 * first. Fills the table's context, handle and number. 0 or a positive
 * errno.
 */
IBV_EXPORT int ibv_cmd_create_rwq_ind_table(
	struct ibv_context *context,
	struct ibv_rwq_ind_table_init_attr *init_attr,
	struct ibv_rwq_ind_table *rwq_ind_table,
	struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size)
{
	/*
	 * The kernel refuses tables above 2^13 entries (EINVAL); refusing
	 * them here too keeps the request, on the stack, small. Its length
	 * is a multiple of 8, which the extended header counts in.
	 */
	uint32_t log = init_attr->log_ind_tbl_size;
	size_t n = log > IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE ? 0 : 1u << log;
	size_t len = (sizeof(struct ibv_create_rwq_ind_table) + 4 * n + 7) & ~7;
	uint64_t buf[len / 8];
	struct ibv_create_rwq_ind_table *cmd = (void *)buf;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
		.extended = true,
		.req = cmd,
		.req_core = len,
		.req_len = len,
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	if (init_attr->comp_mask >= IBV_CREATE_IND_TABLE_RESERVED || !n)
		return with_errno(EINVAL);
	memset(buf, 0, len);
	for (size_t i = 0; i < n; i++)
		cmd->wq_handles[i] = init_attr->ind_tbl[i]->handle;
	cmd->log_ind_tbl_size = log;
	ret = kcmd_write(context, &w);
	if (ret)
		return ret;
	if (resp->response_length < sizeof(*resp))
		return with_errno(EINVAL);
	rwq_ind_table->ind_tbl_handle = resp->ind_tbl_handle;
	rwq_ind_table->ind_tbl_num = resp->ind_tbl_num;
	rwq_ind_table->context = context;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_rwq_ind_table);

static const struct cmd_destroy rwq_ind_tbl_destroy = {
	CMD_DESTROY_IDS(RWQ_IND_TBL),
	.command = IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL,
	.extended = true,
};

/*
 * Destroys the table: RWQ_IND_TBL/DESTROY, or the extended write()
 * command on kernels without it. 0 or a positive errno.
 */
IBV_EXPORT int
ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	return cmd_destroy_handle(rwq_ind_table->context, &rwq_ind_tbl_destroy,
				  rwq_ind_table->ind_tbl_handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_rwq_ind_table);
