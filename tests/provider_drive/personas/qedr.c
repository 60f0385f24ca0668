// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libqedr, Marvell/QLogic FastLinQ 41000/45000 RoCE.
 *
 * The driver's answers (<rdma/qedr-abi.h>), as qedr gives them in RoCE
 * mode: a context with the device's queue limits, a doorbell BAR window
 * the provider maps at its bus address, and no DPM (so the plain
 * doorbell path); CQs and QPs with doorbell offsets into that window and
 * a doorbell-recovery page each at a mmap key of its own, which the
 * provider maps. ids (icids) come from the handles.
 */
#include <rdma/qedr-abi.h>

#include <string.h>

#include "t_drive.h"

#define PAGE 4096
#define DB_PA 0xfe000000ull
#define DB_SIZE (16 * PAGE)

static uint64_t next_key;

/* A mmap key of a page. */
static uint64_t new_key(void)
{
	return t_next_key(&next_key, PAGE);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct qedr_alloc_ucontext_resp r = {
		.db_pa = DB_PA,
		.db_size = DB_SIZE,
		.max_send_wr = 0x8000,
		.max_recv_wr = 0x8000,
		.max_srq_wr = 0x8000,
		.sges_per_send_wr = 4,
		.sges_per_recv_wr = 4,
		.sges_per_srq_wr = 4,
		.max_cqes = 0x10000,
		.dpm_flags = QEDR_DPM_SIZES_SET,
		.ldpm_limit_size = QEDR_LDPM_MAX_SIZE,
		.edpm_trans_size = QEDR_EDPM_TRANS_SIZE,
		.edpm_limit_size = 256,
	};

	next_key = PAGE;
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct qedr_alloc_pd_uresp r = { .pd_id = t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	uint16_t icid = t_cq_number(cmd);
	struct qedr_create_cq_uresp r = {
		.db_offset = 0x800 + 8 * icid,
		.icid = icid,
	};

	r.db_rec_addr = new_key();
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	uint16_t icid = t_qp_number(cmd);
	struct qedr_create_qp_uresp r = {
		.qp_id = icid,
		.atomic_supported = 1,
		.sq_db_offset = 0x1000 + 8 * icid,
		.sq_icid = icid,
		.rq_db_offset = 0x1004 + 8 * icid,
		.rq_icid = icid,
	};

	r.sq_db_rec_addr = new_key();
	r.rq_db_rec_addr = new_key();
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct qedr_create_srq_uresp r = {
		.srq_id = t_srq_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * qedr's CREATE_QP request starts with qp_handle_hi and qp_handle_lo, the
 * provider's QP's address in two halves, low half second: the trace sees
 * one word it cannot name as an address, which differs with the heap
 * under each core.
 */
static void qedr_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			 size_t len)
{
	if (t_verb_of(cmd) == T_V_CREATE_QP && len >= 8)
		memset(drv_in, 0, 8);
}

const struct t_persona t_persona_qedr = {
	.name = "qedr",
	.ibdev = "qedr0",
	.driver_id = RDMA_DRIVER_QEDR,
	.vendor = 0x1077,
	.device = 0x1656,
	.abi = 8,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	/*
	 * qedr (44.0 to 65.0) has no create_cq_ex, and its create_qp_ex,
	 * the same function as create_qp, refuses send_ops_flags
	 * (EOPNOTSUPP on both cores); the QP step goes through
	 * ibv_cmd_create_qp_ex already. It has no create_ah either.
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_CQ_EX | T_STEP_QP_EX | T_STEP_AH),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.driver.mask_in = qedr_mask_in,
};
