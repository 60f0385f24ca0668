// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of librxe, Soft-RoCE, the kernel's software RoCE.
 */
#include "t_drive.h"

const struct t_persona t_persona_rxe = {
	.name = "rxe",
	.ibdev = "rxe0",
	.driver_id = RDMA_DRIVER_RXE,
	.abi = 2,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
