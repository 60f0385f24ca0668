// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device object's commands: a context's set-up (GET_CONTEXT,
 * QUERY_CONTEXT, the async event file), device and port queries, and
 * the two GID table methods. Providers call the ibv_cmd_*() functions
 * from their own ops; the library calls the hidden ones (cmd_device.h).
 *
 * Routing follows rdma-core 44: GET_CONTEXT and QUERY_PORT are ioctl
 * methods with a write() fallback; QUERY_CONTEXT and ASYNC_EVENT/ALLOC
 * are ioctl only; QUERY_DEVICE exists only as a write() command (the
 * extended form first when the caller wants more than the base
 * attributes). The GID methods have no write() form: where the kernel
 * lacks them the public verbs read sysfs instead (verbs_device.c).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "kernel-headers/query_port_resp.h"
#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "cmd_device.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

static void port_attr_from_kern(struct ibv_port_attr *attr,
				const struct ib_uverbs_query_port_resp *r)
{
	attr->state = r->state;
	attr->max_mtu = r->max_mtu;
	attr->active_mtu = r->active_mtu;
	attr->gid_tbl_len = r->gid_tbl_len;
	attr->port_cap_flags = r->port_cap_flags;
	attr->max_msg_sz = r->max_msg_sz;
	attr->bad_pkey_cntr = r->bad_pkey_cntr;
	attr->qkey_viol_cntr = r->qkey_viol_cntr;
	attr->pkey_tbl_len = r->pkey_tbl_len;
	attr->lid = r->lid;
	attr->sm_lid = r->sm_lid;
	attr->lmc = r->lmc;
	attr->max_vl_num = r->max_vl_num;
	attr->sm_sl = r->sm_sl;
	attr->subnet_timeout = r->subnet_timeout;
	attr->init_type_reply = r->init_type_reply;
	attr->active_width = r->active_width;
	attr->active_speed = r->active_speed;
	attr->phys_state = r->phys_state;
	attr->link_layer = r->link_layer;
	attr->flags = r->flags;
}

/*
 * The write() form knows nothing of port_cap_flags2 or active_speed_ex:
 * they stay as they were.
 */
static int query_port_write(struct ibv_context *ctx, uint8_t port_num,
			    struct ibv_port_attr *attr,
			    struct ibv_query_port *cmd, size_t cmd_size)
{
	struct ib_uverbs_query_port_resp resp = {};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_QUERY_PORT,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(&resp, sizeof(resp)),
	};
	int ret;

	cmd->response = ioctl_ptr_to_u64(&resp);
	cmd->port_num = port_num;
	memset(cmd->reserved, 0, sizeof(cmd->reserved));
	ret = kcmd_write(ctx, &w);
	if (ret)
		return ret;
	port_attr_from_kern(attr, &resp);
	return 0;
}

/**
 * ibv_cmd_query_port - DEVICE/QUERY_PORT, or the QUERY_PORT write()
 * @context: the context
 * @port_num: the port, from 1
 * @port_attr: filled from the kernel's answer (the caller zeroed it); a
 *	full struct ibv_port_attr, since active_speed_ex is written too
 * @cmd: the provider's write() request, used only on the write() path
 * @cmd_size: its size
 */
IBV_EXPORT int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num,
				  struct ibv_port_attr *port_attr,
				  struct ibv_query_port *cmd, size_t cmd_size)
{
	struct kabi_query_port_resp_ex resp = {};
	union kcmd_call c;
	int ret;

	kcmd_attr(&c, 0, UVERBS_ATTR_QUERY_PORT_PORT_NUM, sizeof(uint64_t),
		  port_num);
	kcmd_attr_out(&c, 1, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	ret = kcmd_call(context, &c, 2, UVERBS_OBJECT_DEVICE,
			UVERBS_METHOD_QUERY_PORT);
	if (ret == ENOTTY || ret == EPROTONOSUPPORT)
		return query_port_write(context, port_num, port_attr, cmd,
					cmd_size);
	if (ret)
		return ret;
	port_attr_from_kern(port_attr, &resp.legacy_resp);
	port_attr->port_cap_flags2 = resp.port_cap_flags2;
	port_attr->active_speed_ex = resp.active_speed_ex;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_port);

/**
 * ibv_cmd_query_port_speed - DEVICE/QUERY_PORT_SPEED (rdma-core 65)
 * @context: the context
 * @port_num: the port, from 1
 * @speed: the port's effective speed in units of 100 Mb/s, as the
 *	kernel writes it (a u64)
 *
 * An ioctl method only, with no write() form to fall back on: a kernel
 * without it answers ENOTTY or EPROTONOSUPPORT, and one whose driver
 * keeps no speed EOPNOTSUPP (rdma_rxe and siw on 7.2), which the log
 * words. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_query_port_speed(struct ibv_context *context,
					uint32_t port_num, uint64_t *speed)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_DEVICE,
			       KABI_UVERBS_METHOD_QUERY_PORT_SPEED, 2);
	int ret;

	fill_attr_const_in(cmdb, KABI_UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM,
			   port_num);
	fill_attr_out_ptr(cmdb, KABI_UVERBS_ATTR_QUERY_PORT_SPEED_RESP, speed);
	ret = execute_ioctl(context, cmdb);
	if (ret == EOPNOTSUPP)
		explain_port_speed_refused(context, port_num);
	return ret;
}

int cmd_alloc_async_fd(struct ibv_context *ctx)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_ASYNC_EVENT,
			       UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1);
	struct ib_uverbs_attr *fd;
	int ret;

	fd = fill_attr_out_fd(cmdb, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	ret = execute_ioctl(ctx, cmdb);
	if (ret)
		return ret;
	ctx->async_fd =
		read_attr_fd(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, fd);
	return 0;
}

/*
 * The old kernel's answer carries the async event file itself, so no
 * ASYNC_EVENT/ALLOC follows; core_support stays unknown (0).
 */
static int get_context_write(struct ibv_context *ctx,
			     struct ibv_get_context *cmd, size_t cmd_size,
			     struct ib_uverbs_get_context_resp *resp,
			     size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_GET_CONTEXT,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	cmd->response = ioctl_ptr_to_u64(resp);
	ret = kcmd_write(ctx, &w);
	if (ret)
		return ret;
	ctx->async_fd = resp->async_fd;
	ctx->num_comp_vectors = resp->num_comp_vectors;
	return 0;
}

/**
 * ibv_cmd_get_context - DEVICE/GET_CONTEXT, or the GET_CONTEXT write()
 * @context_ex: the context being set up
 * @cmd: the provider's request (core, then its data), @cmd_size bytes
 * @fd_arr: file descriptors for the provider's kernel driver, or NULL
 * @resp: the provider's response (core, then its data), @resp_size bytes
 *
 * Learns the completion vector count and, over ioctl, the kernel's
 * core_support bits, which the device keeps. File descriptors travel by
 * ioctl only: a kernel without the method gets EOPNOTSUPP rather than a
 * context that lacks them (rdma-core 65 drops them on the write() path).
 */
IBV_EXPORT int ibv_cmd_get_context(struct verbs_context *context_ex,
				   struct ibv_get_context *cmd, size_t cmd_size,
				   struct ibv_fd_arr *fd_arr,
				   struct ib_uverbs_get_context_resp *resp,
				   size_t resp_size)
{
	struct ibv_context *ctx = &context_ex->context;
	bool fds = fd_arr && fd_arr->count;
	uint64_t core_support;
	uint32_t num_comp_vectors;
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_GET_CONTEXT, 5);
	int ret;

	fill_attr_out_ptr(cmdb, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
			  &num_comp_vectors);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
			  &core_support);
	if (fds)
		fill_attr_in_ptr_array(cmdb,
				       KABI_UVERBS_ATTR_GET_CONTEXT_FD_ARR,
				       fd_arr->arr, fd_arr->count);
	cmd_add_uhw(cmdb, cmd, cmd_size, sizeof(*cmd), resp, resp_size,
		    sizeof(*resp));
	if (cmd_route(ctx, cmdb, &ret) != CMD_DONE) {
		if (fds) {
			errno = EOPNOTSUPP;
			return EOPNOTSUPP;
		}
		return get_context_write(ctx, cmd, cmd_size, resp, resp_size);
	}
	if (ret)
		return ret;
	ctx->num_comp_vectors = num_comp_vectors;
	/*
	 * Every context of the device learns the same bits, while other
	 * threads may read them (reg_mr): one relaxed atomic store.
	 */
	__atomic_store_n(&verbs_get_device(ctx->device)->core_support,
			 core_support, __ATOMIC_RELAXED);
	return 0;
}
VERBS_PRIVATE_NEWEST(ibv_cmd_get_context);

/**
 * ibv_cmd_query_context - DEVICE/QUERY_CONTEXT (ioctl only)
 * @context: an imported context, whose details the kernel holds
 * @driver: the provider's buffer to link, or NULL
 */
IBV_EXPORT int ibv_cmd_query_context(struct ibv_context *context,
				     struct ibv_command_buffer *driver)
{
	uint64_t core_support;
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_DEVICE,
				    UVERBS_METHOD_QUERY_CONTEXT, 2, driver);
	int ret;

	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			  &context->num_comp_vectors);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
			  &core_support);
	ret = execute_ioctl(context, cmdb);
	if (ret)
		return ret;
	__atomic_store_n(&verbs_get_device(context->device)->core_support,
			 core_support, __ATOMIC_RELAXED);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_context);

/* Whether the kernel lacks the method: its write() form is sysfs. */
static bool no_method(struct ibv_context *ctx, struct ibv_command_buffer *cmdb,
		      int *ret)
{
	return cmd_route(ctx, cmdb, ret) != CMD_DONE;
}

bool cmd_query_gid_entry(struct ibv_context *ctx, uint32_t port_num,
			 uint32_t gid_index, struct ibv_gid_entry *entry,
			 uint32_t flags, size_t entry_size, int *ret)
{
	union kcmd_call c;

	/* An attribute's length has 16 bits. */
	if (entry_size > UINT16_MAX) {
		*ret = with_errno(EINVAL);
		return false;
	}
	kcmd_attr(&c, 0, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, sizeof(uint64_t),
		  port_num);
	kcmd_attr(&c, 1, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX,
		  sizeof(uint64_t), gid_index);
	kcmd_attr_in(&c, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, &flags,
		     sizeof(flags));
	kcmd_attr_out(&c, 3, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, entry,
		      entry_size);
	*ret = kcmd_call(ctx, &c, 4, UVERBS_OBJECT_DEVICE,
			 UVERBS_METHOD_QUERY_GID_ENTRY);
	return *ret == ENOTTY || *ret == EPROTONOSUPPORT;
}

bool cmd_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *entries,
			 size_t max_entries, uint32_t flags, size_t entry_size,
			 uint64_t *num_entries, int *ret)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_QUERY_GID_TABLE, 4);

	fill_attr_const_in(cmdb, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
			   entry_size);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, flags);
	fill_attr_out(cmdb, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, entries,
		      _array_len(entry_size, max_entries));
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			  num_entries);
	return no_method(ctx, cmdb, ret);
}

/*
 * The extended QUERY_DEVICE, which old kernels lack (EOPNOTSUPP, ENOSYS):
 * then only the base attributes are filled. The provider's answer (EFA's
 * limits, mlx5's offload capabilities) is the part of @resp behind the
 * core answer; the kernel's driver writes it only if the command says
 * where. 0 or a positive errno.
 */
static int query_device_ex_write(struct ibv_context *ctx,
				 struct ib_uverbs_ex_query_device_resp *resp,
				 size_t resp_size, size_t *attr_size)
{
	struct ibv_query_device_ex cmd = {};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
		.extended = true,
		KCMD_REQ(&cmd, sizeof(cmd)),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	/* A caller's answer shorter than the kernel's core one is all core. */
	if (resp_size < sizeof(*resp))
		w.resp_core = resp_size;
	ret = kcmd_write(ctx, &w);
	if (ret == EOPNOTSUPP || ret == ENOSYS) {
		*attr_size = sizeof(struct ibv_device_attr);
		return 0;
	}
	return ret;
}

static int query_device_write(struct ibv_context *ctx,
			      struct ib_uverbs_ex_query_device_resp *resp)
{
	struct ibv_query_device cmd = {};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_QUERY_DEVICE,
		KCMD_REQ(&cmd, sizeof(cmd)),
		.resp = &resp->base,
		.resp_core = sizeof(resp->base),
		.resp_len = sizeof(resp->base),
	};
	int ret;

	cmd.response = ioctl_ptr_to_u64(&resp->base);
	ret = kcmd_write(ctx, &w);
	if (!ret)
		resp->response_length = sizeof(resp->base);
	return ret;
}

/* fw_ver is left empty: each provider formats it from resp->base.fw_ver. */
static void device_attr_from_kern(struct ibv_device_attr *a,
				  const struct ib_uverbs_query_device_resp *r)
{
	a->node_guid = r->node_guid;
	a->sys_image_guid = r->sys_image_guid;
	a->max_mr_size = r->max_mr_size;
	a->page_size_cap = r->page_size_cap;
	a->vendor_id = r->vendor_id;
	a->vendor_part_id = r->vendor_part_id;
	a->hw_ver = r->hw_ver;
	a->max_qp = r->max_qp;
	a->max_qp_wr = r->max_qp_wr;
	a->device_cap_flags = r->device_cap_flags;
	a->max_sge = r->max_sge;
	a->max_sge_rd = r->max_sge_rd;
	a->max_cq = r->max_cq;
	a->max_cqe = r->max_cqe;
	a->max_mr = r->max_mr;
	a->max_pd = r->max_pd;
	a->max_qp_rd_atom = r->max_qp_rd_atom;
	a->max_ee_rd_atom = r->max_ee_rd_atom;
	a->max_res_rd_atom = r->max_res_rd_atom;
	a->max_qp_init_rd_atom = r->max_qp_init_rd_atom;
	a->max_ee_init_rd_atom = r->max_ee_init_rd_atom;
	a->atomic_cap = r->atomic_cap;
	a->max_ee = r->max_ee;
	a->max_rdd = r->max_rdd;
	a->max_mw = r->max_mw;
	a->max_raw_ipv6_qp = r->max_raw_ipv6_qp;
	a->max_raw_ethy_qp = r->max_raw_ethy_qp;
	a->max_mcast_grp = r->max_mcast_grp;
	a->max_mcast_qp_attach = r->max_mcast_qp_attach;
	a->max_total_mcast_qp_attach = r->max_total_mcast_qp_attach;
	a->max_ah = r->max_ah;
	a->max_fmr = r->max_fmr;
	a->max_map_per_fmr = r->max_map_per_fmr;
	a->max_srq = r->max_srq;
	a->max_srq_wr = r->max_srq_wr;
	a->max_srq_sge = r->max_srq_sge;
	a->max_pkeys = r->max_pkeys;
	a->local_ca_ack_delay = r->local_ca_ack_delay;
	a->phys_port_cnt = r->phys_port_cnt;
}

#define END_OF(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * An extended field is copied when both the caller's structure and the
 * kernel's answer reach to its end.
 */
#define CAN_COPY(attr_field, resp_field)                               \
	(attr_size >= END_OF(struct ibv_device_attr_ex, attr_field) && \
	 r->response_length >=                                         \
		 END_OF(struct ib_uverbs_ex_query_device_resp, resp_field))

static void caps_from_kern(struct ibv_device_attr_ex *a, size_t attr_size,
			   const struct ib_uverbs_ex_query_device_resp *r)
{
	if (CAN_COPY(odp_caps, odp_caps)) {
		a->odp_caps.general_caps = r->odp_caps.general_caps;
		a->odp_caps.per_transport_caps.rc_odp_caps =
			r->odp_caps.per_transport_caps.rc_odp_caps;
		a->odp_caps.per_transport_caps.uc_odp_caps =
			r->odp_caps.per_transport_caps.uc_odp_caps;
		a->odp_caps.per_transport_caps.ud_odp_caps =
			r->odp_caps.per_transport_caps.ud_odp_caps;
	}
	if (CAN_COPY(completion_timestamp_mask, timestamp_mask))
		a->completion_timestamp_mask = r->timestamp_mask;
	if (CAN_COPY(hca_core_clock, hca_core_clock))
		a->hca_core_clock = r->hca_core_clock;
	if (CAN_COPY(device_cap_flags_ex, device_cap_flags_ex))
		a->device_cap_flags_ex = r->device_cap_flags_ex;
	if (CAN_COPY(rss_caps, rss_caps)) {
		a->rss_caps.supported_qpts = r->rss_caps.supported_qpts;
		a->rss_caps.max_rwq_indirection_tables =
			r->rss_caps.max_rwq_indirection_tables;
		a->rss_caps.max_rwq_indirection_table_size =
			r->rss_caps.max_rwq_indirection_table_size;
	}
	if (CAN_COPY(max_wq_type_rq, max_wq_type_rq))
		a->max_wq_type_rq = r->max_wq_type_rq;
	if (CAN_COPY(raw_packet_caps, raw_packet_caps))
		a->raw_packet_caps = r->raw_packet_caps;
}

static void more_caps_from_kern(struct ibv_device_attr_ex *a, size_t attr_size,
				const struct ib_uverbs_ex_query_device_resp *r)
{
	if (CAN_COPY(tm_caps, tm_caps)) {
		a->tm_caps.max_rndv_hdr_size = r->tm_caps.max_rndv_hdr_size;
		a->tm_caps.max_num_tags = r->tm_caps.max_num_tags;
		a->tm_caps.flags = r->tm_caps.flags;
		a->tm_caps.max_ops = r->tm_caps.max_ops;
		a->tm_caps.max_sge = r->tm_caps.max_sge;
	}
	if (CAN_COPY(cq_mod_caps, cq_moderation_caps)) {
		a->cq_mod_caps.max_cq_count =
			r->cq_moderation_caps.max_cq_moderation_count;
		a->cq_mod_caps.max_cq_period =
			r->cq_moderation_caps.max_cq_moderation_period;
	}
	if (CAN_COPY(max_dm_size, max_dm_size))
		a->max_dm_size = r->max_dm_size;
	if (CAN_COPY(xrc_odp_caps, xrc_odp_caps))
		a->xrc_odp_caps = r->xrc_odp_caps;
}

/* Netlink's port count beats the 8-bit one when the device list had it. */
static void port_count(struct ibv_context *ctx, struct ibv_device_attr_ex *a,
		       size_t attr_size)
{
	struct verbs_sysfs_dev *sd = verbs_get_device(ctx->device)->sysfs;

	if (attr_size < END_OF(struct ibv_device_attr_ex, phys_port_cnt_ex))
		return;
	if (sd && sd->num_ports)
		a->phys_port_cnt_ex = sd->num_ports;
	else
		a->phys_port_cnt_ex = a->orig_attr.phys_port_cnt;
}

/**
 * ibv_cmd_query_device_any - the device's attributes, base or extended
 * @context: the context
 * @input: must carry no comp_mask bits (NULL is fine)
 * @attr: zeroed, then filled up to @attr_size bytes
 * @attr_size: sizeof(struct ibv_device_attr) or more
 * @resp: where the kernel's answer goes (the provider reads fw_ver and
 *        its own fields there), or NULL
 * @resp_size: in, the room at @resp; out, what the kernel answered
 */
IBV_EXPORT int
ibv_cmd_query_device_any(struct ibv_context *context,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr, size_t attr_size,
			 struct ib_uverbs_ex_query_device_resp *resp,
			 size_t *resp_size)
{
	struct ib_uverbs_ex_query_device_resp own;
	size_t own_size = sizeof(own), room;
	int ret;

	if ((input && input->comp_mask) || attr_size < sizeof(attr->orig_attr))
		return with_errno(EINVAL);
	if (!resp) {
		resp = &own;
		resp_size = &own_size;
	}
	room = *resp_size;
	memset(attr, 0, attr_size);
	if (attr_size > sizeof(attr->orig_attr)) {
		ret = query_device_ex_write(context, resp, *resp_size,
					    &attr_size);
		if (ret)
			return ret;
	}
	if (attr_size == sizeof(attr->orig_attr)) {
		ret = query_device_write(context, resp);
		if (ret)
			return ret;
	}
	/* A kernel claiming more than it had room for is not believed. */
	*resp_size = resp->response_length < room ? resp->response_length :
						    room;
	device_attr_from_kern(&attr->orig_attr, &resp->base);
	caps_from_kern(attr, attr_size, resp);
	more_caps_from_kern(attr, attr_size, resp);
	port_count(context, attr, attr_size);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_device_any);
