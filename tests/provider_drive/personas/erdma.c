// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of liberdma, Alibaba Elastic RDMA (iWARP).
 */
#include "t_drive.h"

const struct t_persona t_persona_erdma = {
	.name = "erdma",
	.ibdev = "erdma_0",
	.driver_id = RDMA_DRIVER_ERDMA,
	.vendor = 0x1ded,
	.device = 0x107f,
	.abi = 1,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
