// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libhfi1verbs, Intel Omni-Path host fabric interfaces.
 */
#include "t_drive.h"

const struct t_persona t_persona_hfi1verbs = {
	.name = "hfi1verbs",
	.ibdev = "hfi1_0",
	.driver_id = RDMA_DRIVER_HFI1,
	.vendor = 0x8086,
	.device = 0x24f0,
	.abi = 2,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	.steps = T_STEP_QUERY,
};
