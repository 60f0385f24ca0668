// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the fake uverbs kernel knows of the interface, from the system's
 * <rdma/ib_user_verbs.h> and <rdma/ib_user_ioctl_cmds.h>: the core sizes
 * of every write-format command, the attributes of every core ioctl
 * method that the kernel writes (outputs, new handles, new files) or
 * reads as a file, and the answers that carry meaning. Everything else
 * the fake answers with its pattern (t_uv_pattern()), so that a library
 * copying a field from the wrong place shows up in the results.
 *
 * Answers with meaning: new handles, counted from 0x10 after each reset;
 * new files; the "events reported" counts of destroys, the events of the
 * object the library has read (t_uv_track()); response_length, the bytes the kernel wrote; a
 * device with one port; an InfiniBand port; two completions per
 * POLL_CQ; no failed work request; a GID table as long as the room
 * given for it, up to 2; GID entries that name their port and index,
 * typed by index (1 RoCE v2, 2 RoCE v1, else IB) and with no netdev.
 * Completion counters are kept as the kernel keeps them (their two
 * values, set, added to and read), and a method naming one that does not
 * live fails with ENOENT, the kernel's answer to a handle it cannot find.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kernel-headers/uverbs_ids.h"

#include "t_uverbs_cmds.h"

static uint32_t next_handle;

uint32_t t_uv_new_handle(void)
{
	return next_handle++;
}

/* The completion counters that live, with their COMP and ERR values. */
#define T_UV_MAX_CNTRS 8
static struct {
	bool live;
	uint32_t handle;
	uint64_t value[2];
} cntrs[T_UV_MAX_CNTRS];

void t_uv_reset_handles(void)
{
	next_handle = 0x10;
	memset(cntrs, 0, sizeof(cntrs));
}

#define OUT_AS(type, cmd) ((type *)(cmd)->core_out)
/* Whether the core answer reaches to the end of @field of @type. */
#define HAS(type, cmd, field)   \
	((cmd)->core_out_len >= \
	 offsetof(type, field) + sizeof(((type *)0)->field))
#define IN_AS(type, cmd) ((const type *)(cmd)->core_in)
#define IN_HAS(type, cmd, field) \
	((cmd)->core_in_len >=   \
	 offsetof(type, field) + sizeof(((type *)0)->field))

/* Sets @field of the core answer, when the room given reaches it. */
#define SET(type, cmd, field, value)                        \
	do {                                                \
		if (HAS(type, cmd, field))                  \
			OUT_AS(type, cmd)->field = (value); \
	} while (0)

/* An extended answer: no comp_mask bit, and its whole length. */
#define SET_EX(type, cmd)                                      \
	do {                                                   \
		SET(type, cmd, comp_mask, 0);                  \
		SET(type, cmd, response_length, sizeof(type)); \
	} while (0)

/* The first u32 of the answer is the new object's handle. */
static void first_is_handle(struct t_uv_cmd *cmd)
{
	uint32_t h = t_uv_new_handle();

	if (cmd->core_out_len >= 4)
		memcpy(cmd->core_out, &h, 4);
}

static void get_context(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_get_context_resp, cmd, async_fd,
	    t_uv_new_fd(T_UV_ASYNC_FILE));
	SET(struct ib_uverbs_get_context_resp, cmd, num_comp_vectors, 3);
}

static void query_port(struct t_uv_cmd *cmd)
{
	/* 1: InfiniBand (IB_LINK_LAYER_INFINIBAND, kernel-internal). */
	SET(struct ib_uverbs_query_port_resp, cmd, link_layer, 1);
}

static void query_device(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_query_device_resp, cmd, phys_port_cnt, 1);
}

static void query_device_ex(struct t_uv_cmd *cmd)
{
	size_t n = cmd->core_out_len;

	if (n > sizeof(struct ib_uverbs_ex_query_device_resp))
		n = sizeof(struct ib_uverbs_ex_query_device_resp);
	SET(struct ib_uverbs_ex_query_device_resp, cmd, base.phys_port_cnt, 1);
	SET(struct ib_uverbs_ex_query_device_resp, cmd, comp_mask, 0);
	SET(struct ib_uverbs_ex_query_device_resp, cmd, device_cap_flags_ex,
	    t_uv.device_cap_flags_ex);
	SET(struct ib_uverbs_ex_query_device_resp, cmd, response_length, n);
}

static void create_comp_channel(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_create_comp_channel_resp, cmd, fd,
	    t_uv_new_fd(T_UV_COMP_FILE));
}

/*
 * A new handle for an object that has events (CQ, QP, SRQ, WQ), tracked
 * with the user handle the library gave, so that its destroy reports
 * the events read (t_uv_track()).
 */
#define NEW_TRACKED(req_t, cmd)                                         \
	({                                                              \
		uint32_t h_ = t_uv_new_handle();                        \
		if (IN_HAS(req_t, cmd, user_handle))                    \
			t_uv_track(h_, IN_AS(req_t, cmd)->user_handle); \
		h_;                                                     \
	})

static void create_cq(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_create_cq_resp, cmd, cq_handle,
	    NEW_TRACKED(struct ib_uverbs_create_cq, cmd));
}

static void create_cq_ex(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_ex_create_cq_resp R;

	SET(R, cmd, base.cq_handle,
	    NEW_TRACKED(struct ib_uverbs_ex_create_cq, cmd));
	SET_EX(R, cmd);
}

/* The events read of the object a destroy names, which it forgets. */
static void destroy_cq(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_destroy_cq_resp R;
	uint32_t comp = 0, async = 0;

	if (IN_HAS(struct ib_uverbs_destroy_cq, cmd, cq_handle))
		t_uv_untrack(IN_AS(struct ib_uverbs_destroy_cq, cmd)->cq_handle,
			     &comp, &async);
	memset(cmd->core_out, 0, cmd->core_out_len);
	SET(R, cmd, comp_events_reported, comp);
	SET(R, cmd, async_events_reported, async);
}

#define DESTROY_EVENTS(name, req_t, field, resp_t)                             \
	static void name(struct t_uv_cmd *cmd)                                 \
	{                                                                      \
		uint32_t comp = 0, async = 0;                                  \
                                                                               \
		if (IN_HAS(req_t, cmd, field))                                 \
			t_uv_untrack(IN_AS(req_t, cmd)->field, &comp, &async); \
		memset(cmd->core_out, 0, cmd->core_out_len);                   \
		SET(resp_t, cmd, events_reported, async);                      \
	}

DESTROY_EVENTS(destroy_qp, struct ib_uverbs_destroy_qp, qp_handle,
	       struct ib_uverbs_destroy_qp_resp)
DESTROY_EVENTS(destroy_srq, struct ib_uverbs_destroy_srq, srq_handle,
	       struct ib_uverbs_destroy_srq_resp)

/* Up to two completions of the pattern, never more than asked for. */
static void poll_cq(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_poll_cq_resp R;
	uint32_t ne = 0, room;

	if (IN_HAS(struct ib_uverbs_poll_cq, cmd, ne))
		ne = IN_AS(struct ib_uverbs_poll_cq, cmd)->ne;
	room = (cmd->core_out_len - sizeof(R)) / sizeof(struct ib_uverbs_wc);
	if (ne > room)
		ne = room;
	SET(R, cmd, count, ne < 2 ? ne : 2);
}

static void zero_answer(struct t_uv_cmd *cmd)
{
	memset(cmd->core_out, 0, cmd->core_out_len);
}

static void create_qp(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_create_qp_resp, cmd, qp_handle,
	    NEW_TRACKED(struct ib_uverbs_create_qp, cmd));
}

static void create_qp_ex(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_ex_create_qp_resp R;

	SET(R, cmd, base.qp_handle,
	    NEW_TRACKED(struct ib_uverbs_ex_create_qp, cmd));
	SET_EX(R, cmd);
}

static void modify_qp_ex(struct t_uv_cmd *cmd)
{
	SET_EX(struct ib_uverbs_ex_modify_qp_resp, cmd);
}

static void no_bad_wr(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_post_send_resp, cmd, bad_wr, 0);
}

static void create_srq(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_create_srq_resp, cmd, srq_handle,
	    NEW_TRACKED(struct ib_uverbs_create_srq, cmd));
}

static void create_flow(struct t_uv_cmd *cmd)
{
	SET(struct ib_uverbs_create_flow_resp, cmd, comp_mask, 0);
	SET(struct ib_uverbs_create_flow_resp, cmd, flow_handle,
	    t_uv_new_handle());
}

static void create_wq(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_ex_create_wq_resp R;

	SET_EX(R, cmd);
	SET(R, cmd, wq_handle, NEW_TRACKED(struct ib_uverbs_ex_create_wq, cmd));
}

static void destroy_wq(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_ex_destroy_wq_resp R;
	uint32_t comp = 0, async = 0;

	if (IN_HAS(struct ib_uverbs_ex_destroy_wq, cmd, wq_handle))
		t_uv_untrack(
			IN_AS(struct ib_uverbs_ex_destroy_wq, cmd)->wq_handle,
			&comp, &async);
	zero_answer(cmd);
	SET(R, cmd, response_length, sizeof(R));
	SET(R, cmd, events_reported, async);
}

static void create_ind_tbl(struct t_uv_cmd *cmd)
{
	typedef struct ib_uverbs_ex_create_rwq_ind_table_resp R;

	SET_EX(R, cmd);
	SET(R, cmd, ind_tbl_handle, t_uv_new_handle());
}

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED
#define W(cmd, req_t, resp_t, fn)                                    \
	{                                                            \
		IB_USER_VERBS_CMD_##cmd, #cmd, sizeof(struct req_t), \
			sizeof(struct resp_t), false, fn             \
	}
#define W_NORESP(cmd, req_t)                                                   \
	{                                                                      \
		IB_USER_VERBS_CMD_##cmd, #cmd, sizeof(struct req_t), 0, false, \
			NULL                                                   \
	}
#define W_VAR(cmd, req_t, resp_t, fn)                                \
	{                                                            \
		IB_USER_VERBS_CMD_##cmd, #cmd, sizeof(struct req_t), \
			sizeof(struct resp_t), true, fn              \
	}
#define W_EX(cmd, req_t, resp_t, fn)                                           \
	{                                                                      \
		EX | IB_USER_VERBS_EX_CMD_##cmd, "EX_" #cmd,                   \
			sizeof(struct req_t), sizeof(struct resp_t), false, fn \
	}
#define W_EX_NORESP(cmd, req_t)                              \
	{                                                    \
		EX | IB_USER_VERBS_EX_CMD_##cmd, "EX_" #cmd, \
			sizeof(struct req_t), 0, false, NULL \
	}

static const struct t_uv_write writes[] = {
	W(GET_CONTEXT, ib_uverbs_get_context, ib_uverbs_get_context_resp,
	  get_context),
	W(QUERY_DEVICE, ib_uverbs_query_device, ib_uverbs_query_device_resp,
	  query_device),
	W(QUERY_PORT, ib_uverbs_query_port, ib_uverbs_query_port_resp,
	  query_port),
	W(ALLOC_PD, ib_uverbs_alloc_pd, ib_uverbs_alloc_pd_resp,
	  first_is_handle),
	W_NORESP(DEALLOC_PD, ib_uverbs_dealloc_pd),
	W(CREATE_AH, ib_uverbs_create_ah, ib_uverbs_create_ah_resp,
	  first_is_handle),
	W_NORESP(DESTROY_AH, ib_uverbs_destroy_ah),
	W(REG_MR, ib_uverbs_reg_mr, ib_uverbs_reg_mr_resp, NULL),
	W(REREG_MR, ib_uverbs_rereg_mr, ib_uverbs_rereg_mr_resp, NULL),
	W_NORESP(DEREG_MR, ib_uverbs_dereg_mr),
	W(ALLOC_MW, ib_uverbs_alloc_mw, ib_uverbs_alloc_mw_resp,
	  first_is_handle),
	W_NORESP(DEALLOC_MW, ib_uverbs_dealloc_mw),
	W(CREATE_COMP_CHANNEL, ib_uverbs_create_comp_channel,
	  ib_uverbs_create_comp_channel_resp, create_comp_channel),
	W(CREATE_CQ, ib_uverbs_create_cq, ib_uverbs_create_cq_resp, create_cq),
	W(RESIZE_CQ, ib_uverbs_resize_cq, ib_uverbs_resize_cq_resp, NULL),
	W(DESTROY_CQ, ib_uverbs_destroy_cq, ib_uverbs_destroy_cq_resp,
	  destroy_cq),
	W_VAR(POLL_CQ, ib_uverbs_poll_cq, ib_uverbs_poll_cq_resp, poll_cq),
	W_NORESP(REQ_NOTIFY_CQ, ib_uverbs_req_notify_cq),
	W(CREATE_QP, ib_uverbs_create_qp, ib_uverbs_create_qp_resp, create_qp),
	W(QUERY_QP, ib_uverbs_query_qp, ib_uverbs_query_qp_resp, NULL),
	W_NORESP(MODIFY_QP, ib_uverbs_modify_qp),
	W(DESTROY_QP, ib_uverbs_destroy_qp, ib_uverbs_destroy_qp_resp,
	  destroy_qp),
	W_VAR(POST_SEND, ib_uverbs_post_send, ib_uverbs_post_send_resp,
	      no_bad_wr),
	W_VAR(POST_RECV, ib_uverbs_post_recv, ib_uverbs_post_recv_resp,
	      no_bad_wr),
	W_NORESP(ATTACH_MCAST, ib_uverbs_attach_mcast),
	W_NORESP(DETACH_MCAST, ib_uverbs_detach_mcast),
	W(CREATE_SRQ, ib_uverbs_create_srq, ib_uverbs_create_srq_resp,
	  create_srq),
	W_NORESP(MODIFY_SRQ, ib_uverbs_modify_srq),
	W(QUERY_SRQ, ib_uverbs_query_srq, ib_uverbs_query_srq_resp, NULL),
	W(DESTROY_SRQ, ib_uverbs_destroy_srq, ib_uverbs_destroy_srq_resp,
	  destroy_srq),
	W_VAR(POST_SRQ_RECV, ib_uverbs_post_srq_recv,
	      ib_uverbs_post_srq_recv_resp, no_bad_wr),
	W(OPEN_XRCD, ib_uverbs_open_xrcd, ib_uverbs_open_xrcd_resp,
	  first_is_handle),
	W_NORESP(CLOSE_XRCD, ib_uverbs_close_xrcd),
	W(CREATE_XSRQ, ib_uverbs_create_xsrq, ib_uverbs_create_srq_resp,
	  create_srq),
	W(OPEN_QP, ib_uverbs_open_qp, ib_uverbs_create_qp_resp, create_qp),
	W_EX(QUERY_DEVICE, ib_uverbs_ex_query_device,
	     ib_uverbs_ex_query_device_resp, query_device_ex),
	W_EX(CREATE_CQ, ib_uverbs_ex_create_cq, ib_uverbs_ex_create_cq_resp,
	     create_cq_ex),
	W_EX(CREATE_QP, ib_uverbs_ex_create_qp, ib_uverbs_ex_create_qp_resp,
	     create_qp_ex),
	W_EX(MODIFY_QP, ib_uverbs_ex_modify_qp, ib_uverbs_ex_modify_qp_resp,
	     modify_qp_ex),
	W_EX(CREATE_FLOW, ib_uverbs_create_flow, ib_uverbs_create_flow_resp,
	     create_flow),
	W_EX_NORESP(DESTROY_FLOW, ib_uverbs_destroy_flow),
	W_EX(CREATE_WQ, ib_uverbs_ex_create_wq, ib_uverbs_ex_create_wq_resp,
	     create_wq),
	W_EX_NORESP(MODIFY_WQ, ib_uverbs_ex_modify_wq),
	W_EX(DESTROY_WQ, ib_uverbs_ex_destroy_wq, ib_uverbs_ex_destroy_wq_resp,
	     destroy_wq),
	W_EX(CREATE_RWQ_IND_TBL, ib_uverbs_ex_create_rwq_ind_table,
	     ib_uverbs_ex_create_rwq_ind_table_resp, create_ind_tbl),
	W_EX_NORESP(DESTROY_RWQ_IND_TBL, ib_uverbs_ex_destroy_rwq_ind_table),
	W_EX_NORESP(MODIFY_CQ, ib_uverbs_ex_modify_cq),
};

int t_uv_put(struct t_uv_cmd *cmd, const void *src, size_t len)
{
	memcpy(cmd->drv_out, src,
	       len < cmd->drv_out_len ? len : cmd->drv_out_len);
	return 0;
}

enum t_uv_verb t_uv_verb_of(const struct t_uv_cmd *cmd)
{
	if (cmd->is_ioctl) {
		if (cmd->object == UVERBS_OBJECT_DEVICE &&
		    cmd->method == UVERBS_METHOD_GET_CONTEXT)
			return T_UV_GET_CONTEXT;
		if (cmd->object == UVERBS_OBJECT_CQ &&
		    cmd->method == UVERBS_METHOD_CQ_CREATE)
			return T_UV_CREATE_CQ;
		if (cmd->object == UVERBS_OBJECT_QP &&
		    cmd->method == UVERBS_METHOD_QP_CREATE)
			return T_UV_CREATE_QP;
		if (cmd->object == UVERBS_OBJECT_SRQ &&
		    cmd->method == UVERBS_METHOD_SRQ_CREATE)
			return T_UV_CREATE_SRQ;
		return T_UV_OTHER;
	}
	switch (cmd->command) {
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		return T_UV_GET_CONTEXT;
	case IB_USER_VERBS_CMD_REG_MR:
		return T_UV_REG_MR;
	case IB_USER_VERBS_CMD_CREATE_CQ:
	case EX | IB_USER_VERBS_EX_CMD_CREATE_CQ:
		return T_UV_CREATE_CQ;
	case IB_USER_VERBS_CMD_CREATE_QP:
	case EX | IB_USER_VERBS_EX_CMD_CREATE_QP:
		return T_UV_CREATE_QP;
	case IB_USER_VERBS_CMD_CREATE_SRQ:
	case IB_USER_VERBS_CMD_CREATE_XSRQ:
		return T_UV_CREATE_SRQ;
	case IB_USER_VERBS_CMD_CREATE_AH:
		return T_UV_CREATE_AH;
	case IB_USER_VERBS_CMD_POST_SEND:
		return T_UV_POST_SEND;
	case IB_USER_VERBS_CMD_MODIFY_QP:
	case EX | IB_USER_VERBS_EX_CMD_MODIFY_QP:
		return T_UV_MODIFY_QP;
	case IB_USER_VERBS_CMD_RESIZE_CQ:
		return T_UV_RESIZE_CQ;
	case IB_USER_VERBS_CMD_MODIFY_SRQ:
		return T_UV_MODIFY_SRQ;
	}
	return T_UV_OTHER;
}

const struct t_uv_write *t_uv_find_write(uint32_t command)
{
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++)
		if (writes[i].command == command)
			return &writes[i];
	return NULL;
}

/* The methods' answers with meaning. */

static void *out_data(struct t_uv_cmd *cmd, uint16_t id, size_t len)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	if (!a || a->len < len)
		return NULL;
	return (void *)(uintptr_t)a->data;
}

static void put_u32(struct t_uv_cmd *cmd, uint16_t id, uint32_t v)
{
	void *p = out_data(cmd, id, sizeof(v));

	if (p)
		memcpy(p, &v, sizeof(v));
}

static void query_port_ioctl(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_query_port_resp_ex *r = out_data(
		cmd, UVERBS_ATTR_QUERY_PORT_RESP, sizeof(r->legacy_resp));

	if (!r)
		return;
	r->legacy_resp.state = 4; /* IB_PORT_ACTIVE */
	r->legacy_resp.link_layer = 1; /* InfiniBand */
}

static void get_context_ioctl(struct t_uv_cmd *cmd)
{
	put_u32(cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 3);
}

static void query_context_ioctl(struct t_uv_cmd *cmd)
{
	put_u32(cmd, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, 3);
}

/* An entry's type by its index, so that each type is seen. */
static void gid_entry_of(struct ib_uverbs_gid_entry *e, uint32_t port,
			 uint32_t index)
{
	e->gid_index = index;
	e->port_num = port;
	e->gid_type = index == 1 ? IB_UVERBS_GID_TYPE_ROCE_V2 :
		      index == 2 ? IB_UVERBS_GID_TYPE_ROCE_V1 :
				   IB_UVERBS_GID_TYPE_IB;
	e->netdev_ifindex = 0;
}

static void gid_entry(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *port, *index;
	struct ib_uverbs_gid_entry *e;

	port = t_uv_attr(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_PORT);
	index = t_uv_attr(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	e = out_data(cmd, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, sizeof(*e));
	if (e && port && index)
		gid_entry_of(e, port->data, index->data);
}

/* Never more entries than the room for them, at most 2. */
static void gid_table(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *size, *entries;
	uint64_t n = 0, *count;

	size = t_uv_attr(cmd, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE);
	entries = t_uv_attr(cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	count = out_data(cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			 sizeof(*count));
	if (size && size->data && entries)
		n = entries->len / size->data;
	if (n > 2)
		n = 2;
	if (count)
		*count = n;
	/* The entries of port 1, as long as the caller's entries are. */
	for (uint64_t i = 0; i < n; i++)
		if (size->data >= sizeof(struct ib_uverbs_gid_entry))
			gid_entry_of((void *)(uintptr_t)(entries->data +
							 i * size->data),
				     1, i);
}

/* A method's new tracked object: its NEW handle and its USER_HANDLE. */
static void track_method(struct t_uv_cmd *cmd, uint16_t new_id,
			 uint16_t user_id)
{
	struct ib_uverbs_attr *h = t_uv_attr(cmd, new_id);
	struct ib_uverbs_attr *u = t_uv_attr(cmd, user_id);

	if (h && u)
		t_uv_track((uint32_t)h->data, u->data);
}

static void create_cq_ioctl(struct t_uv_cmd *cmd)
{
	track_method(cmd, UVERBS_ATTR_CREATE_CQ_HANDLE,
		     UVERBS_ATTR_CREATE_CQ_USER_HANDLE);
}

static void create_qp_ioctl(struct t_uv_cmd *cmd)
{
	track_method(cmd, UVERBS_ATTR_CREATE_QP_HANDLE,
		     UVERBS_ATTR_CREATE_QP_USER_HANDLE);
}

static void create_srq_ioctl(struct t_uv_cmd *cmd)
{
	track_method(cmd, UVERBS_ATTR_CREATE_SRQ_HANDLE,
		     UVERBS_ATTR_CREATE_SRQ_USER_HANDLE);
}

static void create_wq_ioctl(struct t_uv_cmd *cmd)
{
	track_method(cmd, UVERBS_ATTR_CREATE_WQ_HANDLE,
		     UVERBS_ATTR_CREATE_WQ_USER_HANDLE);
}

static void zero_outputs(struct t_uv_cmd *cmd);

/*
 * A destroy method's answer: zeroes, then the events read of the object
 * @handle_id names (the CQ's answer is two u32: completion events, then
 * async events; the others' one u32, async events).
 */
static void destroy_method(struct t_uv_cmd *cmd, uint16_t handle_id,
			   uint16_t resp_id)
{
	struct ib_uverbs_attr *h = t_uv_attr(cmd, handle_id);
	struct ib_uverbs_attr *r = t_uv_attr(cmd, resp_id);
	uint32_t counts[2] = { 0, 0 };

	zero_outputs(cmd);
	if (!h)
		return;
	t_uv_untrack((uint32_t)h->data, &counts[0], &counts[1]);
	if (!r)
		return;
	if (cmd->object == UVERBS_OBJECT_CQ)
		memcpy((void *)(uintptr_t)r->data, counts,
		       r->len < sizeof(counts) ? r->len : sizeof(counts));
	else if (r->len >= sizeof(uint32_t))
		memcpy((void *)(uintptr_t)r->data, &counts[1],
		       sizeof(uint32_t));
}

static void destroy_cq_ioctl(struct t_uv_cmd *cmd)
{
	destroy_method(cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE,
		       UVERBS_ATTR_DESTROY_CQ_RESP);
}

static void destroy_qp_ioctl(struct t_uv_cmd *cmd)
{
	destroy_method(cmd, UVERBS_ATTR_DESTROY_QP_HANDLE,
		       UVERBS_ATTR_DESTROY_QP_RESP);
}

static void destroy_srq_ioctl(struct t_uv_cmd *cmd)
{
	destroy_method(cmd, UVERBS_ATTR_DESTROY_SRQ_HANDLE,
		       UVERBS_ATTR_DESTROY_SRQ_RESP);
}

static void destroy_wq_ioctl(struct t_uv_cmd *cmd)
{
	destroy_method(cmd, UVERBS_ATTR_DESTROY_WQ_HANDLE,
		       UVERBS_ATTR_DESTROY_WQ_RESP);
}

/*
 * Completion counters. The device the fake plays has room for
 * T_UV_MAX_CNTRS; it reports the max_value of a 64-bit counter and three
 * attach ops, with a bit beside them that a later kernel may define.
 */
/* SEND, RECV and REMOTE_RDMA_WRITE (bits 0, 1, 5), and bit 6. */
#define T_UV_CNTR_OPS (1u << 0 | 1u << 1 | 1u << 5 | 1u << 6)
/* enum ib_uverbs_comp_cntr_modify_op, newer than the system's headers */
#define T_UV_CNTR_OP_SET 0

static void comp_cntr_caps(struct t_uv_cmd *cmd)
{
	uint64_t *max = out_data(
		cmd, KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_VALUE, 8);

	put_u32(cmd, KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_COUNTERS,
		T_UV_MAX_CNTRS);
	put_u32(cmd,
		KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS,
		T_UV_CNTR_OPS);
	if (max)
		*max = UINT64_MAX;
}

/* The index of the live counter the attribute @id names, or -1. */
static int cntr_of(const struct t_uv_cmd *cmd, uint16_t id)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	for (int i = 0; a && i < T_UV_MAX_CNTRS; i++)
		if (cntrs[i].live && cntrs[i].handle == a->data)
			return i;
	return -1;
}

/* An entry or op attribute: 0 or 1, else EINVAL as the kernel's enum. */
static int enum_ok(const struct t_uv_cmd *cmd, uint16_t id)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	return a && a->data <= 1 ? 0 : EINVAL;
}

static int create_cntr_check(struct t_uv_cmd *cmd)
{
	for (int i = 0; i < T_UV_MAX_CNTRS; i++)
		if (!cntrs[i].live)
			return 0;
	return ENOMEM;
}

static void create_cntr(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *h =
		t_uv_attr(cmd, KABI_UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE);

	for (int i = 0; h && i < T_UV_MAX_CNTRS; i++)
		if (!cntrs[i].live) {
			cntrs[i].live = true;
			cntrs[i].handle = (uint32_t)h->data;
			cntrs[i].value[0] = cntrs[i].value[1] = 0;
			return;
		}
}

static int destroy_cntr_check(struct t_uv_cmd *cmd)
{
	return cntr_of(cmd, KABI_UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE) < 0 ?
		       ENOENT :
		       0;
}

static void destroy_cntr(struct t_uv_cmd *cmd)
{
	cntrs[cntr_of(cmd, KABI_UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE)].live =
		false;
}

static int modify_cntr_check(struct t_uv_cmd *cmd)
{
	if (cntr_of(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE) < 0)
		return ENOENT;
	if (!t_uv_attr(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE))
		return EINVAL;
	return enum_ok(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY) ?:
		       enum_ok(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_OP);
}

static void modify_cntr(struct t_uv_cmd *cmd)
{
	int i = cntr_of(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE);
	uint64_t entry =
		t_uv_attr(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY)->data;
	uint64_t op =
		t_uv_attr(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_OP)->data;
	uint64_t v =
		t_uv_attr(cmd, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE)->data;

	if (op == T_UV_CNTR_OP_SET)
		cntrs[i].value[entry] = v;
	else
		cntrs[i].value[entry] += v;
}

static int read_cntr_check(struct t_uv_cmd *cmd)
{
	if (cntr_of(cmd, KABI_UVERBS_ATTR_READ_COMP_CNTR_HANDLE) < 0)
		return ENOENT;
	return enum_ok(cmd, KABI_UVERBS_ATTR_READ_COMP_CNTR_ENTRY);
}

static void read_cntr(struct t_uv_cmd *cmd)
{
	int i = cntr_of(cmd, KABI_UVERBS_ATTR_READ_COMP_CNTR_HANDLE);
	uint64_t entry =
		t_uv_attr(cmd, KABI_UVERBS_ATTR_READ_COMP_CNTR_ENTRY)->data;
	uint64_t *v =
		out_data(cmd, KABI_UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE, 8);

	if (v)
		*v = cntrs[i].value[entry];
}

/* The counter must live; the QP's handle the fake does not keep. */
static int attach_cntr_check(struct t_uv_cmd *cmd)
{
	return cntr_of(cmd, KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_CNTR_HANDLE) <
			       0 ?
		       ENOENT :
		       0;
}

static void zero_outputs(struct t_uv_cmd *cmd)
{
	for (unsigned int i = 0; i < cmd->hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &cmd->hdr->attrs[i];
		const struct t_uv_method *m =
			t_uv_find_method(cmd->object, cmd->method);

		if (t_uv_attr_kind(m, a->attr_id) == T_OUT)
			memset((void *)(uintptr_t)a->data, 0, a->len);
	}
}

#define M(obj, meth, fn, ...)                                              \
	{                                                                  \
		UVERBS_OBJECT_##obj, UVERBS_METHOD_##meth, #obj "/" #meth, \
			{ __VA_ARGS__ }, fn, NULL                          \
	}
#define NEW(id)                             \
	{                                   \
		UVERBS_ATTR_##id, T_NEW_OBJ \
	}
#define OUT(id)                         \
	{                               \
		UVERBS_ATTR_##id, T_OUT \
	}
#define NEW_FD(id)                         \
	{                                  \
		UVERBS_ATTR_##id, T_NEW_FD \
	}
#define FD_IN(id)                         \
	{                                 \
		UVERBS_ATTR_##id, T_FD_IN \
	}

/* A method newer than the system's headers (uverbs_ids.h), checked. */
#define M_NEW(obj, obj_id, meth, fn, chk, ...)                     \
	{                                                          \
		obj_id, KABI_UVERBS_METHOD_##meth, #obj "/" #meth, \
			{ __VA_ARGS__ }, fn, chk                   \
	}
#define K_NEW(id)                                \
	{                                        \
		KABI_UVERBS_ATTR_##id, T_NEW_OBJ \
	}
#define K_OUT(id)                            \
	{                                    \
		KABI_UVERBS_ATTR_##id, T_OUT \
	}

/*
 * rdma-core 65's objects and methods, which Linux 6.1's headers lack: the
 * kernel's numbers (ib_user_ioctl_cmds.h of Linux 6.17 and 6.18), stated
 * here as facts of the ABI.
 */
enum {
	T_OBJ_DMAH = 17,
	T_OBJ_DMABUF = 18,
	T_METHOD_QUERY_PORT_SPEED = 7,
	T_METHOD_REG_MR = 5,
	T_METHOD_DMAH_ALLOC = 0,
	T_METHOD_DMAH_FREE = 1,
	T_METHOD_DMABUF_ALLOC = 0,
	T_ATTR_QUERY_PORT_SPEED_PORT_NUM = 0,
	T_ATTR_QUERY_PORT_SPEED_RESP = 1,
	T_ATTR_REG_MR_HANDLE = 0,
	T_ATTR_REG_MR_FD = 7,
	T_ATTR_REG_MR_RESP_LKEY = 9,
	T_ATTR_REG_MR_RESP_RKEY = 10,
	T_ATTR_ALLOC_DMAH_HANDLE = 0,
	T_ATTR_ALLOC_DMABUF_HANDLE = 0,
};

/*
 * The port's effective speed, a u64 in units of 100 Mb/s: 400 Gb/s on
 * the fake's one port, 0 elsewhere (the kernel would refuse the port).
 */
static void query_port_speed_ioctl(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *port =
		t_uv_attr(cmd, T_ATTR_QUERY_PORT_SPEED_PORT_NUM);
	uint64_t *speed =
		out_data(cmd, T_ATTR_QUERY_PORT_SPEED_RESP, sizeof(*speed));

	if (speed)
		*speed = port && port->data == 1 ? 4000 : 0;
}

#define M_IDS(obj, meth, name, fn, ...)                    \
	{                                                  \
		obj, meth, name, { __VA_ARGS__ }, fn, NULL \
	}
#define KIND(id, kind)   \
	{                \
		id, kind \
	}

static const struct t_uv_method methods[] = {
	/* Answered as the write-format command it carries (t_uverbs.c). */
	M(DEVICE, INVOKE_WRITE, NULL, OUT(CORE_OUT)),
	M(DEVICE, QUERY_PORT, query_port_ioctl, OUT(QUERY_PORT_RESP)),
	M(DEVICE, GET_CONTEXT, get_context_ioctl,
	  OUT(GET_CONTEXT_NUM_COMP_VECTORS), OUT(GET_CONTEXT_CORE_SUPPORT)),
	M(DEVICE, QUERY_CONTEXT, query_context_ioctl,
	  OUT(QUERY_CONTEXT_NUM_COMP_VECTORS), OUT(QUERY_CONTEXT_CORE_SUPPORT)),
	M(DEVICE, QUERY_GID_TABLE, gid_table, OUT(QUERY_GID_TABLE_RESP_ENTRIES),
	  OUT(QUERY_GID_TABLE_RESP_NUM_ENTRIES)),
	M(DEVICE, QUERY_GID_ENTRY, gid_entry, OUT(QUERY_GID_ENTRY_RESP_ENTRY)),
	M(DEVICE, INFO_HANDLES, NULL, OUT(INFO_TOTAL_HANDLES),
	  OUT(INFO_HANDLES_LIST)),
	M(ASYNC_EVENT, ASYNC_EVENT_ALLOC, NULL,
	  NEW_FD(ASYNC_EVENT_ALLOC_FD_HANDLE)),
	M(PD, PD_DESTROY, NULL),
	M(MR, DM_MR_REG, NULL, NEW(REG_DM_MR_HANDLE), OUT(REG_DM_MR_RESP_LKEY),
	  OUT(REG_DM_MR_RESP_RKEY)),
	M(MR, MR_DESTROY, NULL),
	M(MR, ADVISE_MR, NULL),
	M(MR, QUERY_MR, NULL, OUT(QUERY_MR_RESP_LKEY), OUT(QUERY_MR_RESP_RKEY),
	  OUT(QUERY_MR_RESP_LENGTH), OUT(QUERY_MR_RESP_IOVA)),
	M(MR, REG_DMABUF_MR, NULL, NEW(REG_DMABUF_MR_HANDLE),
	  FD_IN(REG_DMABUF_MR_FD), OUT(REG_DMABUF_MR_RESP_LKEY),
	  OUT(REG_DMABUF_MR_RESP_RKEY)),
	M(MW, MW_DESTROY, NULL),
	M(XRCD, XRCD_DESTROY, NULL),
	M(AH, AH_DESTROY, NULL),
	M(DM, DM_ALLOC, NULL, NEW(ALLOC_DM_HANDLE)),
	M(DM, DM_FREE, NULL),
	M(CQ, CQ_CREATE, create_cq_ioctl, NEW(CREATE_CQ_HANDLE),
	  FD_IN(CREATE_CQ_COMP_CHANNEL), FD_IN(CREATE_CQ_EVENT_FD),
	  OUT(CREATE_CQ_RESP_CQE)),
	M(CQ, CQ_DESTROY, destroy_cq_ioctl, OUT(DESTROY_CQ_RESP)),
	M(QP, QP_CREATE, create_qp_ioctl, NEW(CREATE_QP_HANDLE),
	  FD_IN(CREATE_QP_EVENT_FD), OUT(CREATE_QP_RESP_CAP),
	  OUT(CREATE_QP_RESP_QP_NUM)),
	M(QP, QP_DESTROY, destroy_qp_ioctl, OUT(DESTROY_QP_RESP)),
	M(SRQ, SRQ_CREATE, create_srq_ioctl, NEW(CREATE_SRQ_HANDLE),
	  FD_IN(CREATE_SRQ_EVENT_FD), OUT(CREATE_SRQ_RESP_MAX_WR),
	  OUT(CREATE_SRQ_RESP_MAX_SGE), OUT(CREATE_SRQ_RESP_SRQ_NUM)),
	M(SRQ, SRQ_DESTROY, destroy_srq_ioctl, OUT(DESTROY_SRQ_RESP)),
	M(WQ, WQ_CREATE, create_wq_ioctl, NEW(CREATE_WQ_HANDLE),
	  FD_IN(CREATE_WQ_EVENT_FD), OUT(CREATE_WQ_RESP_MAX_WR),
	  OUT(CREATE_WQ_RESP_MAX_SGE), OUT(CREATE_WQ_RESP_WQ_NUM)),
	M(WQ, WQ_DESTROY, destroy_wq_ioctl, OUT(DESTROY_WQ_RESP)),
	M(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY, NULL),
	M(FLOW, FLOW_DESTROY, NULL),
	M(FLOW_ACTION, FLOW_ACTION_ESP_CREATE, NULL,
	  NEW(CREATE_FLOW_ACTION_ESP_HANDLE)),
	M(FLOW_ACTION, FLOW_ACTION_ESP_MODIFY, NULL),
	M(FLOW_ACTION, FLOW_ACTION_DESTROY, NULL),
	M(COUNTERS, COUNTERS_CREATE, NULL, NEW(CREATE_COUNTERS_HANDLE)),
	M(COUNTERS, COUNTERS_DESTROY, NULL),
	M(COUNTERS, COUNTERS_READ, NULL, OUT(READ_COUNTERS_BUFF)),
	M_NEW(DEVICE, UVERBS_OBJECT_DEVICE, QUERY_COMP_CNTR_CAPS,
	      comp_cntr_caps, NULL, K_OUT(QUERY_COMP_CNTR_CAPS_MAX_COUNTERS),
	      K_OUT(QUERY_COMP_CNTR_CAPS_MAX_VALUE),
	      K_OUT(QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS)),
	M_NEW(QP, UVERBS_OBJECT_QP, QP_ATTACH_COMP_CNTR, NULL,
	      attach_cntr_check),
	M_NEW(COMP_CNTR, KABI_UVERBS_OBJECT_COMP_CNTR, COMP_CNTR_CREATE,
	      create_cntr, create_cntr_check, K_NEW(CREATE_COMP_CNTR_HANDLE)),
	M_NEW(COMP_CNTR, KABI_UVERBS_OBJECT_COMP_CNTR, COMP_CNTR_DESTROY,
	      destroy_cntr, destroy_cntr_check),
	M_NEW(COMP_CNTR, KABI_UVERBS_OBJECT_COMP_CNTR, COMP_CNTR_MODIFY,
	      modify_cntr, modify_cntr_check),
	M_NEW(COMP_CNTR, KABI_UVERBS_OBJECT_COMP_CNTR, COMP_CNTR_READ,
	      read_cntr, read_cntr_check, K_OUT(READ_COMP_CNTR_RESP_VALUE)),
	M_IDS(UVERBS_OBJECT_DEVICE, T_METHOD_QUERY_PORT_SPEED,
	      "DEVICE/QUERY_PORT_SPEED", query_port_speed_ioctl,
	      KIND(T_ATTR_QUERY_PORT_SPEED_RESP, T_OUT)),
	M_IDS(UVERBS_OBJECT_MR, T_METHOD_REG_MR, "MR/REG_MR", NULL,
	      KIND(T_ATTR_REG_MR_HANDLE, T_NEW_OBJ),
	      KIND(T_ATTR_REG_MR_FD, T_FD_IN),
	      KIND(T_ATTR_REG_MR_RESP_LKEY, T_OUT),
	      KIND(T_ATTR_REG_MR_RESP_RKEY, T_OUT)),
	M_IDS(T_OBJ_DMAH, T_METHOD_DMAH_ALLOC, "DMAH/DMAH_ALLOC", NULL,
	      KIND(T_ATTR_ALLOC_DMAH_HANDLE, T_NEW_OBJ)),
	M_IDS(T_OBJ_DMAH, T_METHOD_DMAH_FREE, "DMAH/DMAH_FREE", NULL),
	M_IDS(T_OBJ_DMABUF, T_METHOD_DMABUF_ALLOC, "DMABUF/DMABUF_ALLOC", NULL,
	      KIND(T_ATTR_ALLOC_DMABUF_HANDLE, T_NEW_FD)),
};

const struct t_uv_method *t_uv_find_method(uint16_t object, uint16_t method)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].object == object && methods[i].method == method)
			return &methods[i];
	return NULL;
}

enum t_uv_kind t_uv_attr_kind(const struct t_uv_method *m, uint16_t id)
{
	if (id == UVERBS_ATTR_UHW_OUT)
		return T_OUT;
	if (!m)
		return T_IN;
	for (size_t i = 0; i < sizeof(m->attrs) / sizeof(m->attrs[0]); i++)
		if (m->attrs[i].kind != T_IN && m->attrs[i].id == id)
			return m->attrs[i].kind;
	return T_IN;
}

void t_uv_echo_qp_caps(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *in, *out;
	size_t in_off, out_off;

	if (cmd->is_ioctl) {
		in = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_CAP);
		out = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP);
		if (in && out && in->len >= sizeof(struct ib_uverbs_qp_cap) &&
		    out->len >= sizeof(struct ib_uverbs_qp_cap))
			memmove((void *)(uintptr_t)out->data,
				(const void *)(uintptr_t)in->data,
				sizeof(struct ib_uverbs_qp_cap));
		return;
	}
	if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		in_off = offsetof(struct ib_uverbs_ex_create_qp, max_send_wr);
		out_off = offsetof(struct ib_uverbs_ex_create_qp_resp,
				   base.max_send_wr);
	} else {
		in_off = offsetof(struct ib_uverbs_create_qp, max_send_wr);
		out_off =
			offsetof(struct ib_uverbs_create_qp_resp, max_send_wr);
	}
	if (cmd->core_in_len >= in_off + sizeof(struct ib_uverbs_qp_cap) &&
	    cmd->core_out_len >= out_off + sizeof(struct ib_uverbs_qp_cap))
		memcpy((uint8_t *)cmd->core_out + out_off,
		       (const uint8_t *)cmd->core_in + in_off,
		       sizeof(struct ib_uverbs_qp_cap));
}
