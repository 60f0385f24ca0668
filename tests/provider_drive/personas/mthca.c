// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmthca, Mellanox InfiniHost adapters.
 */
#include "t_drive.h"

const struct t_persona t_persona_mthca = {
	.name = "mthca",
	.ibdev = "mthca0",
	.driver_id = RDMA_DRIVER_MTHCA,
	.vendor = 0x15b3,
	.device = 0x5a44,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	.steps = T_STEP_QUERY,
};
