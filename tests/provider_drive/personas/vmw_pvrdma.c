// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libvmw_pvrdma, VMware paravirtual RDMA.
 */
#include "t_drive.h"

const struct t_persona t_persona_vmw_pvrdma = {
	.name = "vmw_pvrdma",
	.ibdev = "vmw_pvrdma0",
	.driver_id = RDMA_DRIVER_VMW_PVRDMA,
	.vendor = 0x15ad,
	.device = 0x0820,
	.abi = 3,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY,
};
