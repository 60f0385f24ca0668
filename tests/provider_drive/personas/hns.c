// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libhns, HiSilicon RoCE engines (hip08 and later).
 */
#include "t_drive.h"

const struct t_persona t_persona_hns = {
	.name = "hns",
	.ibdev = "hns_0",
	.driver_id = RDMA_DRIVER_HNS,
	.vendor = 0x19e5,
	.device = 0xa222,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
