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

/* The output attribute @id, if the caller gave room for @len bytes. */
static void *out_attr(struct t_uv_cmd *cmd, uint16_t id, size_t len)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	return a && a->len >= len ? (void *)(uintptr_t)a->data : NULL;
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
			*cqe = t_cq_entries(cmd);
	} else if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		((struct ib_uverbs_ex_create_cq_resp *)cmd->core_out)->base.cqe =
			t_cq_entries(cmd);
	} else {
		((struct ib_uverbs_create_cq_resp *)cmd->core_out)->cqe =
			t_cq_entries(cmd);
	}
}

/* A resized CQ gets the entries asked for too. */
static void resize_cq(struct t_uv_cmd *cmd)
{
	((struct ib_uverbs_resize_cq_resp *)cmd->core_out)->cqe =
		((const struct ib_uverbs_resize_cq *)cmd->core_in)->cqe;
}

/* A QP gets the capabilities asked for and a number from its handle. */
static void create_qp(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_qp_cap cap = t_qp_cap(cmd);
	uint32_t qpn = t_qp_number(cmd);
	struct ib_uverbs_create_qp_resp *r = cmd->core_out;
	void *out;

	if (!cmd->is_ioctl) {
		r->qpn = qpn;
		r->max_send_wr = cap.max_send_wr;
		r->max_recv_wr = cap.max_recv_wr;
		r->max_send_sge = cap.max_send_sge;
		r->max_recv_sge = cap.max_recv_sge;
		r->max_inline_data = cap.max_inline_data;
		r->reserved = 0;
		return;
	}
	out = out_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP, sizeof(cap));
	if (out)
		memcpy(out, &cap, sizeof(cap));
	out = out_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, 4);
	if (out)
		memcpy(out, &qpn, 4);
}

/* An SRQ too, and a number. */
static void create_srq(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_create_srq_resp *r = cmd->core_out;
	uint32_t *out;

	if (!cmd->is_ioctl) {
		r->max_wr = t_srq_max_wr(cmd);
		r->max_sge = t_srq_max_sge(cmd);
		r->srqn = 0x200 + r->srq_handle;
		return;
	}
	out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, 4);
	if (out)
		*out = t_srq_max_wr(cmd);
	out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, 4);
	if (out)
		*out = t_srq_max_sge(cmd);
	out = out_attr(cmd, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, 4);
	if (out)
		*out = 0x200;
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
