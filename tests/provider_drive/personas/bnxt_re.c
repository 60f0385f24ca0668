// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libbnxt_re, Broadcom NetXtreme-E/-C RoCE adapters.
 */
#include "t_drive.h"

const struct t_persona t_persona_bnxt_re = {
	.name = "bnxt_re",
	.ibdev = "bnxt_re0",
	.driver_id = RDMA_DRIVER_BNXT_RE,
	.vendor = 0x14e4,
	.device = 0x1605,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
