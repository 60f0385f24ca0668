// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libbnxt_re, Broadcom NetXtreme-E/-C RoCE adapters.
 *
 * The driver's answers (<rdma/bnxt_re-abi.h>): a context on a BCM57508
 * (a P5 chip) with 4 KiB pages, 32-byte CQEs and the static WQE mode;
 * the provider maps a shared page at offset 0 of the command file when
 * the context opens, and the first PD's doorbell page at the offset the
 * PD's answer gives (dbr). The queues' ids follow from their handles.
 */
#include <rdma/bnxt_re-abi.h>

#include "t_drive.h"

#define PAGE 4096

static int get_context(struct t_uv_cmd *cmd)
{
	struct bnxt_re_uctx_resp r = {
		.dev_id = 0,
		.max_qp = 1024,
		.pg_size = PAGE,
		.cqe_sz = 32,
		.max_cqd = 65535,
		.comp_mask = BNXT_RE_UCNTX_CMASK_HAVE_CCTX |
			     BNXT_RE_UCNTX_CMASK_HAVE_MODE,
		.chip_id0 = 0x1750,
		.mode = BNXT_QPLIB_WQE_MODE_STATIC,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct bnxt_re_pd_resp r = {
		.pdid = t_new_handle(cmd, 0),
		.dpi = 1,
		.dbr = 0xfe000000ull + PAGE,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct bnxt_re_cq_resp r = {
		.cqid = t_cq_number(cmd),
		.tail = 0,
		.phase = 1,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct bnxt_re_qp_resp r = {
		.qpid = t_qp_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct bnxt_re_srq_resp r = {
		.srqid = t_srq_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

const struct t_persona t_persona_bnxt_re = {
	.name = "bnxt_re",
	.ibdev = "bnxt_re0",
	.driver_id = RDMA_DRIVER_BNXT_RE,
	.vendor = 0x14e4,
	.device = 0x1605,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	/*
	 * bnxt_re 44 has neither create_cq_ex nor create_qp_ex: the dv
	 * hook shows both refused.
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.dv = t_refuse_ex,
};
