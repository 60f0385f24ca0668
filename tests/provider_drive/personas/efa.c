// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libefa, the AWS Elastic Fabric Adapter.
 */
#include "t_drive.h"

const struct t_persona t_persona_efa = {
	.name = "efa",
	.ibdev = "efa_0",
	.driver_id = RDMA_DRIVER_EFA,
	.vendor = 0x1d0f,
	.device = 0xefa0,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_UNSPECIFIED,
	.steps = T_STEP_QUERY,
};
