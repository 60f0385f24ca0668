// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libirdma, Intel Ethernet 800/X722 RDMA (RoCE v2 and iWARP).
 *
 * The driver's answers (<rdma/irdma-abi.h>), as irdma gives them on an
 * E810 (GEN_2) in RoCE v2 mode: the hardware's limits in the context
 * (which the provider sizes its queues by), a doorbell page at mmap key
 * 0, ids from the handles, queues granted the depth the provider asked
 * for, and no push pages. irdma registers each CQ's and QP's ring as a
 * memory region of its own (irdma_mem_reg_req) before creating it.
 */
#include <stddef.h>
#include <string.h>

#include <rdma/irdma-abi.h>

#include "t_drive.h"

#define IRDMA_GEN_2 2
#define IRDMA_FEATURE_CQ_RESIZE (1 << 1)

/*
 * irdma 44 leaves rsvd32 and rsvd8[] of its GET_CONTEXT request (struct
 * irdma_alloc_ucontext_req, 8 bytes there: no comp_mask yet) as its
 * stack held them: only userspace_ver, byte 4, is its. And irdma (44.0
 * to 65.0) sets only reg_type in the REG_MR request of an application's
 * memory (struct irdma_mem_reg_req): the page counts, which the kernel
 * reads only for a queue's ring, hold what the stack held.
 */
static void irdma_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			  size_t len)
{
	size_t pages = offsetof(struct irdma_mem_reg_req, cq_pages);

	if (t_verb_of(cmd) == T_V_REG_MR && len > pages &&
	    drv_in[0] == IRDMA_MEMREG_TYPE_MEM && drv_in[1] == 0)
		memset(drv_in + pages, 0, len - pages);
	if (t_verb_of(cmd) != T_V_GET_CONTEXT)
		return;
	for (size_t i = 0; i < len && i < 8; i++)
		if (i != 4)
			drv_in[i] = 0;
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct irdma_alloc_ucontext_resp r = {
		.max_pds = 262144,
		.max_qps = 65536,
		.wq_size = 0,
		.kernel_ver = IRDMA_ABI_VER,
		.feature_flags = IRDMA_FEATURE_CQ_RESIZE,
		.db_mmap_key = 0,
		.max_hw_wq_frags = 13,
		.max_hw_read_sges = 13,
		.max_hw_inline = 101,
		.max_hw_rq_quanta = 32768,
		.max_hw_wq_quanta = 32768,
		.min_hw_cq_size = 1,
		.max_hw_cq_size = 1048575,
		.max_hw_sq_chunk = 8,
		.hw_rev = IRDMA_GEN_2,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct irdma_alloc_pd_resp r = { .pd_id = t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct irdma_create_cq_resp r = {
		.cq_id = t_cq_number(cmd),
		.cq_size = t_cq_entries(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct irdma_create_qp_resp r = {
		.qp_id = t_qp_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_ah(struct t_uv_cmd *cmd)
{
	struct irdma_create_ah_resp r = { .ah_id = 0x300 +
						   t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

const struct t_persona t_persona_irdma = {
	.name = "irdma",
	.ibdev = "irdma0",
	.driver_id = RDMA_DRIVER_IRDMA,
	.vendor = 0x8086,
	.device = 0x1592,
	.abi = 5,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	/*
	 * irdma has no create_qp_ex, and no SRQ on this device: 65.0's
	 * makes SRQs where the kernel says IRDMA_FEATURE_SRQ in the
	 * context, which irdma does for GEN_3 devices, not for an E810.
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_QP_EX | T_STEP_SRQ),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_AH] = create_ah,
	},
	.driver.mask_in = irdma_mask_in,
};
