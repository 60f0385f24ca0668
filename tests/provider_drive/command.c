// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: commands as a kernel driver reads them, for the
 * device's answers (device.c) and the personas': which verb a command
 * is, what it asks for whichever way it came (a method's attributes, or
 * a write-format command's core request, basic or extended), the sizes
 * and mmap keys a driver hands out, the driver part of an answer, and
 * the masks of request bytes providers leave unset.
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

int t_drv_answer(struct t_uv_cmd *cmd, const void *src, size_t len)
{
	memcpy(cmd->drv_out, src,
	       len < cmd->drv_out_len ? len : cmd->drv_out_len);
	return 0;
}

/* A u32 input: a method's @attr, or the one at @off of a core request. */
static uint32_t in_u32(const struct t_uv_cmd *cmd, uint16_t attr, size_t off)
{
	struct ib_uverbs_attr *a;
	uint32_t v = 0;

	if (cmd->is_ioctl) {
		a = t_uv_attr(cmd, attr);
		return a ? (uint32_t)a->data : 0;
	}
	if (cmd->core_in_len >= off + sizeof(v))
		memcpy(&v, (const uint8_t *)cmd->core_in + off, sizeof(v));
	return v;
}

static bool extended(const struct t_uv_cmd *cmd)
{
	return cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
}

uint32_t t_new_handle(const struct t_uv_cmd *cmd, uint16_t attr)
{
	struct ib_uverbs_attr *a = cmd->is_ioctl ? t_uv_attr(cmd, attr) : NULL;
	uint32_t h = 0;

	if (a)
		return a->data;
	if (cmd->core_out_len >= sizeof(h))
		memcpy(&h, cmd->core_out, sizeof(h));
	return h;
}

uint32_t t_cq_number(const struct t_uv_cmd *cmd)
{
	return 0x40 + t_new_handle(cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
}

uint32_t t_qp_number(const struct t_uv_cmd *cmd)
{
	return 0x100 + t_new_handle(cmd, UVERBS_ATTR_CREATE_QP_HANDLE);
}

uint32_t t_srq_number(const struct t_uv_cmd *cmd)
{
	return 0x200 + t_new_handle(cmd, UVERBS_ATTR_CREATE_SRQ_HANDLE);
}

uint32_t t_cq_entries(const struct t_uv_cmd *cmd)
{
	return in_u32(cmd, UVERBS_ATTR_CREATE_CQ_CQE,
		      extended(cmd) ?
			      offsetof(struct ib_uverbs_ex_create_cq, cqe) :
			      offsetof(struct ib_uverbs_create_cq, cqe));
}

struct ib_uverbs_qp_cap t_qp_cap(const struct t_uv_cmd *cmd)
{
	size_t off =
		extended(cmd) ?
			offsetof(struct ib_uverbs_ex_create_qp, max_send_wr) :
			offsetof(struct ib_uverbs_create_qp, max_send_wr);
	struct ib_uverbs_qp_cap cap = { 0 };
	struct ib_uverbs_attr *a;

	if (cmd->is_ioctl) {
		a = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_CAP);
		if (a && a->len >= sizeof(cap))
			memcpy(&cap, (void *)(uintptr_t)a->data, sizeof(cap));
	} else if (cmd->core_in_len >= off + sizeof(cap)) {
		memcpy(&cap, (const uint8_t *)cmd->core_in + off, sizeof(cap));
	}
	return cap;
}

/* CREATE_XSRQ's request has the SRQ's type before the fields they share. */
static bool xsrq(const struct t_uv_cmd *cmd)
{
	return !cmd->is_ioctl && cmd->command == IB_USER_VERBS_CMD_CREATE_XSRQ;
}

uint32_t t_srq_max_wr(const struct t_uv_cmd *cmd)
{
	return in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_WR,
		      xsrq(cmd) ?
			      offsetof(struct ib_uverbs_create_xsrq, max_wr) :
			      offsetof(struct ib_uverbs_create_srq, max_wr));
}

uint32_t t_srq_max_sge(const struct t_uv_cmd *cmd)
{
	return in_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
		      xsrq(cmd) ?
			      offsetof(struct ib_uverbs_create_xsrq, max_sge) :
			      offsetof(struct ib_uverbs_create_srq, max_sge));
}

uint64_t t_next_key(uint64_t *next, size_t len)
{
	uint64_t key = *next;

	*next += (len + 4095) & ~(uint64_t)4095;
	return key;
}

uint32_t t_pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n && p < 0x10000)
		p <<= 1;
	return p;
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
