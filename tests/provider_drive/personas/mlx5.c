// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmlx5, NVIDIA/Mellanox Connect-IB and ConnectX-4 and later.
 */
#include "t_drive.h"

const struct t_persona t_persona_mlx5 = {
	.name = "mlx5",
	.ibdev = "mlx5_0",
	.driver_id = RDMA_DRIVER_MLX5,
	.vendor = 0x15b3,
	.device = 0x1011,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	.steps = T_STEP_QUERY,
};
