// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libocrdma, Emulex OneConnect RoCE adapters.
 */
#include "t_drive.h"

const struct t_persona t_persona_ocrdma = {
	.name = "ocrdma",
	.ibdev = "ocrdma0",
	.driver_id = RDMA_DRIVER_OCRDMA,
	.vendor = 0x10df,
	.device = 0xe220,
	.abi = 2,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
