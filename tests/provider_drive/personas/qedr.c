// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libqedr, QLogic/Marvell FastLinQ 41000/45000 RoCE.
 */
#include "t_drive.h"

const struct t_persona t_persona_qedr = {
	.name = "qedr",
	.ibdev = "qedr0",
	.driver_id = RDMA_DRIVER_QEDR,
	.vendor = 0x1077,
	.device = 0x1629,
	.abi = 8,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
