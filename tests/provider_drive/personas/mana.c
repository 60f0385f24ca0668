// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmana, the Microsoft Azure Network Adapter.
 */
#include "t_drive.h"

const struct t_persona t_persona_mana = {
	.name = "mana",
	.ibdev = "mana_0",
	.driver_id = RDMA_DRIVER_MANA_,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
