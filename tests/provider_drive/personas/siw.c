// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libsiw, soft iWARP, the kernel's software iWARP.
 */
#include "t_drive.h"

const struct t_persona t_persona_siw = {
	.name = "siw",
	.ibdev = "siw0",
	.driver_id = RDMA_DRIVER_SIW,
	.abi = 1,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
