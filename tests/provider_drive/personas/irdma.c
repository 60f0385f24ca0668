// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libirdma, Intel Ethernet 800/X722 RDMA (RoCE v2 and iWARP).
 */
#include "t_drive.h"

/*
 * irdma 44 leaves rsvd32 and rsvd8[] of its GET_CONTEXT request (struct
 * irdma_alloc_ucontext_req) as its stack held them: only userspace_ver,
 * byte 4, is its.
 */
static void irdma_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			  size_t len)
{
	if (t_verb_of(cmd) != T_V_GET_CONTEXT)
		return;
	for (size_t i = 0; i < len && i < 8; i++)
		if (i != 4)
			drv_in[i] = 0;
}

const struct t_persona t_persona_irdma = {
	.name = "irdma",
	.ibdev = "irdma0",
	.driver_id = RDMA_DRIVER_IRDMA,
	.vendor = 0x8086,
	.device = 0x124c,
	.abi = 5,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
	.mask_in = irdma_mask_in,
};
