// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmlx4, Mellanox ConnectX-3 and earlier.
 */
#include "t_drive.h"

const struct t_persona t_persona_mlx4 = {
	.name = "mlx4",
	.ibdev = "mlx4_0",
	.driver_id = RDMA_DRIVER_MLX4,
	.vendor = 0x15b3,
	.device = 0x6340,
	.abi = 4,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	.steps = T_STEP_QUERY,
};
