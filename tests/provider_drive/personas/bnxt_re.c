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
#include <string.h>

#include <rdma/bnxt_re-abi.h>

#include "t_drive.h"

#define PAGE 4096

/*
 * The first 24 bytes of the CREATE_QP request (struct bnxt_re_qp_req):
 * the queues' addresses and the QP's handle, all that 44.0 sends.
 */
#define QP_REQ_V1 24

/*
 * bnxt_re 56.1 sends comp_mask and sq_slots after them, but sets
 * sq_slots only in the variable WQE mode, and comp_mask never: in the
 * static mode of this device both, and the padding, hold what its stack
 * held (65.0 zeroes the request first).
 */
static void bnxt_re_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			    size_t len)
{
	if (t_verb_of(cmd) == T_V_CREATE_QP && len > QP_REQ_V1)
		memset(drv_in + QP_REQ_V1, 0, len - QP_REQ_V1);
}

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
	 * bnxt_re has no create_cq_ex, and 44.0's no create_qp_ex either
	 * (56.1's and 65.0's make one): the dv hook shows what each
	 * release does with both.
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.driver.mask_in = bnxt_re_mask_in,
	.dv = t_refuse_ex,
};
