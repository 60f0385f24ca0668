// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libcxgb4, Chelsio T4/T5/T6 iWARP adapters.
 */
#include "t_drive.h"

const struct t_persona t_persona_cxgb4 = {
	.name = "cxgb4",
	.ibdev = "cxgb4_0",
	.driver_id = RDMA_DRIVER_CXGB4,
	.vendor = 0x1425,
	.device = 0x4400,
	.abi = 3,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
