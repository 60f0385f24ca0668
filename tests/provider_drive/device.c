// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the core part of the answers, as a plausible
 * device gives them. The fake kernel (t_uverbs_cmds.c) fills core
 * answers with its pattern, which is right for comparing what a library
 * copies where, but a provider checks the kernel's limits (a queue
 * larger than the device allows, a port that is down) and would stop at
 * the first. So the device here has round limits, one active port of
 * the persona's link layer, and grants every queue the size asked for.
 * Handles and files stay the fake's.
 */
#include <stddef.h>
#include <string.h>

#include "t_drive.h"

enum t_verb t_verb_of(const struct t_uv_cmd *cmd)
{
	static const struct {
		uint16_t object, method;
		enum t_verb verb;
	} methods[] = {
		{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT,
		  T_V_GET_CONTEXT },
		{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT,
		  T_V_QUERY_PORT },
		{ UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, T_V_CREATE_CQ },
		{ UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, T_V_CREATE_QP },
		{ UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, T_V_CREATE_SRQ },
		{ UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, T_V_CREATE_WQ },
		{ UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, T_V_ALLOC_DM },
	};

	if (cmd->is_ioctl) {
		for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]);
		     i++)
			if (methods[i].object == cmd->object &&
			    methods[i].method == cmd->method)
				return methods[i].verb;
		return T_V_OTHER;
	}
	if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		switch (cmd->command & IB_USER_VERBS_CMD_COMMAND_MASK) {
		case IB_USER_VERBS_EX_CMD_QUERY_DEVICE:
			return T_V_QUERY_DEVICE;
		case IB_USER_VERBS_EX_CMD_CREATE_CQ:
			return T_V_CREATE_CQ;
		case IB_USER_VERBS_EX_CMD_CREATE_QP:
			return T_V_CREATE_QP;
		case IB_USER_VERBS_EX_CMD_MODIFY_QP:
			return T_V_MODIFY_QP;
		case IB_USER_VERBS_EX_CMD_CREATE_WQ:
			return T_V_CREATE_WQ;
		case IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL:
			return T_V_CREATE_IND_TBL;
		}
		return T_V_OTHER;
	}
	switch (cmd->command) {
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		return T_V_GET_CONTEXT;
	case IB_USER_VERBS_CMD_QUERY_DEVICE:
		return T_V_QUERY_DEVICE;
	case IB_USER_VERBS_CMD_QUERY_PORT:
		return T_V_QUERY_PORT;
	case IB_USER_VERBS_CMD_ALLOC_PD:
		return T_V_ALLOC_PD;
	case IB_USER_VERBS_CMD_REG_MR:
		return T_V_REG_MR;
	case IB_USER_VERBS_CMD_CREATE_CQ:
		return T_V_CREATE_CQ;
	case IB_USER_VERBS_CMD_RESIZE_CQ:
		return T_V_RESIZE_CQ;
	case IB_USER_VERBS_CMD_CREATE_QP:
		return T_V_CREATE_QP;
	case IB_USER_VERBS_CMD_MODIFY_QP:
		return T_V_MODIFY_QP;
	case IB_USER_VERBS_CMD_CREATE_SRQ:
	case IB_USER_VERBS_CMD_CREATE_XSRQ:
		return T_V_CREATE_SRQ;
	case IB_USER_VERBS_CMD_MODIFY_SRQ:
		return T_V_MODIFY_SRQ;
	case IB_USER_VERBS_CMD_CREATE_AH:
		return T_V_CREATE_AH;
	case IB_USER_VERBS_CMD_ALLOC_MW:
		return T_V_ALLOC_MW;
	case IB_USER_VERBS_CMD_OPEN_XRCD:
		return T_V_OPEN_XRCD;
	}
	return T_V_OTHER;
}

void t_drv_answer(struct t_uv_cmd *cmd, const void *src, size_t len)
{
	memcpy(cmd->drv_out, src,
	       len < cmd->drv_out_len ? len : cmd->drv_out_len);
}

#define MODIFY_FIELD(bit, field)                                         \
	{                                                                \
		bit, offsetof(struct ib_uverbs_modify_qp, field),        \
			sizeof(((struct ib_uverbs_modify_qp *)0)->field) \
	}

void t_mask_modify_qp(const struct t_uv_cmd *cmd, uint8_t *core, size_t len)
{
	static const struct {
		uint32_t bit;
		size_t off, size;
	} fields[] = {
		MODIFY_FIELD(IBV_QP_STATE, qp_state),
		MODIFY_FIELD(IBV_QP_CUR_STATE, cur_qp_state),
		MODIFY_FIELD(IBV_QP_EN_SQD_ASYNC_NOTIFY, en_sqd_async_notify),
		MODIFY_FIELD(IBV_QP_ACCESS_FLAGS, qp_access_flags),
		MODIFY_FIELD(IBV_QP_PKEY_INDEX, pkey_index),
		MODIFY_FIELD(IBV_QP_PORT, port_num),
		MODIFY_FIELD(IBV_QP_QKEY, qkey),
		MODIFY_FIELD(IBV_QP_AV, dest),
		MODIFY_FIELD(IBV_QP_PATH_MTU, path_mtu),
		MODIFY_FIELD(IBV_QP_TIMEOUT, timeout),
		MODIFY_FIELD(IBV_QP_RETRY_CNT, retry_cnt),
		MODIFY_FIELD(IBV_QP_RNR_RETRY, rnr_retry),
		MODIFY_FIELD(IBV_QP_RQ_PSN, rq_psn),
		MODIFY_FIELD(IBV_QP_MAX_QP_RD_ATOMIC, max_rd_atomic),
		MODIFY_FIELD(IBV_QP_ALT_PATH, alt_dest),
		MODIFY_FIELD(IBV_QP_ALT_PATH, alt_pkey_index),
		MODIFY_FIELD(IBV_QP_ALT_PATH, alt_port_num),
		MODIFY_FIELD(IBV_QP_ALT_PATH, alt_timeout),
		MODIFY_FIELD(IBV_QP_MIN_RNR_TIMER, min_rnr_timer),
		MODIFY_FIELD(IBV_QP_SQ_PSN, sq_psn),
		MODIFY_FIELD(IBV_QP_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic),
		MODIFY_FIELD(IBV_QP_PATH_MIG_STATE, path_mig_state),
		MODIFY_FIELD(IBV_QP_DEST_QPN, dest_qp_num),
		MODIFY_FIELD(0, reserved),
	};
	const struct ib_uverbs_modify_qp *m = (const void *)core;
	uint32_t mask;

	if (t_verb_of(cmd) != T_V_MODIFY_QP || len < sizeof(*m))
		return;
	mask = m->attr_mask;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!(mask & fields[i].bit))
			memset(core + fields[i].off, 0, fields[i].size);
}

/* The bytes of a send request's remote union that @opcode uses. */
static size_t remote_used(uint32_t opcode)
{
	switch (opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		return offsetof(struct ib_uverbs_send_wr, wr.rdma.reserved) -
		       offsetof(struct ib_uverbs_send_wr, wr);
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return offsetof(struct ib_uverbs_send_wr, wr.atomic.reserved) -
		       offsetof(struct ib_uverbs_send_wr, wr);
	}
	return 0;
}

void t_mask_post_send(const struct t_uv_cmd *cmd, uint8_t *core, size_t len)
{
	const struct ib_uverbs_post_send *h = (const void *)core;
	struct ib_uverbs_send_wr *wr;
	size_t off, used;

	if (cmd->is_ioctl || cmd->command != IB_USER_VERBS_CMD_POST_SEND ||
	    len < sizeof(*h) || h->wqe_size < sizeof(*wr))
		return;
	for (uint32_t i = 0; i < h->wr_count; i++) {
		off = sizeof(*h) + (size_t)i * h->wqe_size;
		if (off + sizeof(*wr) > len)
			return;
		wr = (struct ib_uverbs_send_wr *)(core + off);
		used = remote_used(wr->opcode);
		memset((uint8_t *)&wr->wr + used, 0, sizeof(wr->wr) - used);
	}
}

/* The output attribute @id, if the caller gave room for @len bytes. */
static void *out_attr(struct t_uv_cmd *cmd, uint16_t id, size_t len)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	return a && a->len >= len ? (void *)(uintptr_t)a->data : NULL;
}

static uint32_t in_attr_u32(struct t_uv_cmd *cmd, uint16_t id)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);
	uint32_t v = 0;

	if (a)
		memcpy(&v, &a->data, sizeof(v));
	return v;
}

static void device_attrs(const struct t_persona *p,
			 struct ib_uverbs_query_device_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->fw_ver = 0x0010002000300004ull;
	r->node_guid = 0x0b0a0ffffe000001ull;
	r->sys_image_guid = r->node_guid;
	r->max_mr_size = ~0ull;
	r->page_size_cap = 0xfffff000;
	r->vendor_id = p->vendor;
	r->vendor_part_id = p->device;
	r->max_qp = 1024;
	r->max_qp_wr = 4096;
	r->max_sge = 16;
	r->max_sge_rd = 16;
	r->max_cq = 1024;
	r->max_cqe = 65535;
	r->max_mr = 4096;
	r->max_pd = 1024;
	r->max_qp_rd_atom = 16;
	r->max_res_rd_atom = 16384;
	r->max_qp_init_rd_atom = 16;
	r->atomic_cap = IBV_ATOMIC_HCA;
	r->max_mw = 1024;
	r->max_ah = 4096;
	r->max_srq = 1024;
	r->max_srq_wr = 4096;
	r->max_srq_sge = 16;
	r->max_pkeys = 1;
	r->local_ca_ack_delay = 16;
	r->phys_port_cnt = 1;
}

static void query_device(const struct t_persona *p, struct t_uv_cmd *cmd)
{
	struct ib_uverbs_ex_query_device_resp ex;
	size_t n = cmd->core_out_len;

	if (!(cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED)) {
		if (n >= sizeof(struct ib_uverbs_query_device_resp))
			device_attrs(p, cmd->core_out);
		return;
	}
	memset(&ex, 0, sizeof(ex));
	device_attrs(p, &ex.base);
	if (n > sizeof(ex))
		n = sizeof(ex);
	ex.response_length = n;
	memcpy(cmd->core_out, &ex, n);
}

static void port_attrs(const struct t_persona *p,
		       struct ib_uverbs_query_port_resp *r)
{
	bool ib = p->link_layer != IBV_LINK_LAYER_ETHERNET;

	memset(r, 0, sizeof(*r));
	r->port_cap_flags = ib ? 0x2010000 : 0x4010000;
	r->max_msg_sz = 1u << 31;
	r->gid_tbl_len = 16;
	r->pkey_tbl_len = 1;
	r->lid = ib ? 1 : 0;
	r->sm_lid = ib ? 1 : 0;
	r->state = IBV_PORT_ACTIVE;
	r->max_mtu = IBV_MTU_4096;
	r->active_mtu = IBV_MTU_1024;
	r->max_vl_num = 1;
	r->active_width = 2;
	r->active_speed = 32;
	r->phys_state = 5;
	r->link_layer = p->link_layer;
}

static void query_port(const struct t_persona *p, struct t_uv_cmd *cmd)
{
	struct ib_uverbs_query_port_resp_ex *ex;

	if (!cmd->is_ioctl) {
		if (cmd->core_out_len >=
		    sizeof(struct ib_uverbs_query_port_resp))
			port_attrs(p, cmd->core_out);
		return;
	}
	ex = out_attr(cmd, UVERBS_ATTR_QUERY_PORT_RESP, sizeof(*ex));
	if (!ex)
		return;
	port_attrs(p, &ex->legacy_resp);
	ex->port_cap_flags2 = 0;
	memset(ex->reserved, 0, sizeof(ex->reserved));
}

/* A CQ gets the entries asked for. */
static void create_cq(struct t_uv_cmd *cmd)
{
	uint32_t *cqe;

	if (cmd->is_ioctl) {
		cqe = out_attr(cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4);
		if (cqe)
			*cqe = in_attr_u32(cmd, UVERBS_ATTR_CREATE_CQ_CQE);
		return;
	}
	if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED)
		((struct ib_uverbs_ex_create_cq_resp *)cmd->core_out)->base.cqe =
			((const struct ib_uverbs_ex_create_cq *)cmd->core_in)
				->cqe;
	else
		((struct ib_uverbs_create_cq_resp *)cmd->core_out)->cqe =
			((const struct ib_uverbs_create_cq *)cmd->core_in)->cqe;
}

/* A resized CQ gets the entries asked for too. */
static void resize_cq(struct t_uv_cmd *cmd)
{
	((struct ib_uverbs_resize_cq_resp *)cmd->core_out)->cqe =
		((const struct ib_uverbs_resize_cq *)cmd->core_in)->cqe;
}

static void qp_caps(struct ib_uverbs_create_qp_resp *r,
		    const struct ib_uverbs_qp_cap *cap)
{
	r->qpn = 0x100 + r->qp_handle;
	r->max_send_wr = cap->max_send_wr;
	r->max_recv_wr = cap->max_recv_wr;
	r->max_send_sge = cap->max_send_sge;
	r->max_recv_sge = cap->max_recv_sge;
	r->max_inline_data = cap->max_inline_data;
	r->reserved = 0;
}

/* A QP gets the capabilities asked for and a number from its handle. */
static void create_qp(struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_attr *in;
	struct ib_uverbs_create_qp_resp r = { 0 };
	struct ib_uverbs_qp_cap cap = { 0 };
	struct ib_uverbs_attr *handle;
	void *out;

	if (cmd->is_ioctl) {
		in = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_CAP);
		handle = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_HANDLE);
		if (in && in->len >= sizeof(cap))
			memcpy(&cap, (void *)(uintptr_t)in->data, sizeof(cap));
		r.qp_handle = handle ? handle->data : 0;
		qp_caps(&r, &cap);
		out = out_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP,
			       sizeof(cap));
		if (out)
			memcpy(out, &r.max_send_wr, sizeof(cap));
		out = out_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4);
		if (out)
			memcpy(out, &r.qpn, 4);
		return;
	}
	if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED)
		memcpy(&cap,
		       &((const struct ib_uverbs_ex_create_qp *)cmd->core_in)
				->max_send_wr,
		       sizeof(cap));
	else
		memcpy(&cap,
		       &((const struct ib_uverbs_create_qp *)cmd->core_in)
				->max_send_wr,
		       sizeof(cap));
	qp_caps(cmd->core_out, &cap);
}

static void create_srq(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_create_srq_resp *r = cmd->core_out;
	uint32_t *out;

	if (cmd->is_ioctl) {
		out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4);
		if (out)
			*out = in_attr_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_WR);
		out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4);
		if (out)
			*out = in_attr_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_SGE);
		out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4);
		if (out)
			*out = 0x200;
		return;
	}
	if (cmd->command == IB_USER_VERBS_CMD_CREATE_XSRQ) {
		const struct ib_uverbs_create_xsrq *x = cmd->core_in;

		r->max_wr = x->max_wr;
		r->max_sge = x->max_sge;
	} else {
		const struct ib_uverbs_create_srq *s = cmd->core_in;

		r->max_wr = s->max_wr;
		r->max_sge = s->max_sge;
	}
	r->srqn = 0x200 + r->srq_handle;
}

void t_device_answer(const struct t_persona *p, struct t_uv_cmd *cmd)
{
	switch (t_verb_of(cmd)) {
	case T_V_QUERY_DEVICE:
		query_device(p, cmd);
		break;
	case T_V_QUERY_PORT:
		query_port(p, cmd);
		break;
	case T_V_CREATE_CQ:
		create_cq(cmd);
		break;
	case T_V_RESIZE_CQ:
		resize_cq(cmd);
		break;
	case T_V_CREATE_QP:
		create_qp(cmd);
		break;
	case T_V_CREATE_SRQ:
		create_srq(cmd);
		break;
	default:
		break;
	}
}
