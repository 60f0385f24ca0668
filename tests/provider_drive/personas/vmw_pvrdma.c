// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libvmw_pvrdma, VMware's paravirtual RDMA device.
 *
 * The driver's answers (<rdma/vmw_pvrdma-abi.h>), as vmw_pvrdma gives
 * them: a context with the QP table's size (the provider indexes its QP
 * table by QP handle within it) and its UAR page at offset 0, which the
 * provider maps for doorbells; CQ, QP and SRQ numbers and QP handles
 * from the fake's handles. The rings live in user memory the provider
 * registers through the requests.
 *
 * The AH step ends the drive: vmw_pvrdma makes AHs without the kernel,
 * but on a port with IP-based GIDs (RoCE v2, as device.c's) it asks
 * ibv_resolve_eth_l2_from_gid() for the destination's MAC, which the
 * host's IP stack cannot give for a fake device's GID; both cores fail
 * it alike.
 */
#include <stddef.h>
#include <string.h>

#include <rdma/vmw_pvrdma-abi.h>

#include "t_drive.h"

#define QP_TAB_SIZE 1024

/*
 * vmw_pvrdma (44.0 to 65.0) leaves the reserved word of its CREATE_CQ
 * request (struct pvrdma_create_cq) as its stack held it; the kernel
 * reads only the ring's address and size.
 */
static void pvrdma_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			   size_t len)
{
	size_t off = offsetof(struct pvrdma_create_cq, reserved);

	if (t_verb_of(cmd) == T_V_CREATE_CQ &&
	    len >= off + sizeof(((struct pvrdma_create_cq *)0)->reserved))
		memset(drv_in + off, 0, len - off);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct pvrdma_alloc_ucontext_resp r = { .qp_tab_size = QP_TAB_SIZE };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct pvrdma_alloc_pd_resp r = { .pdn = t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct pvrdma_create_cq_resp r = {
		.cqn = t_cq_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct pvrdma_create_qp_resp r = {
		.qpn = t_qp_number(cmd),
		.qp_handle = t_new_handle(cmd, UVERBS_ATTR_CREATE_QP_HANDLE),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct pvrdma_create_srq_resp r = {
		.srqn = t_srq_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

const struct t_persona t_persona_vmw_pvrdma = {
	.name = "vmw_pvrdma",
	.ibdev = "vmw_pvrdma0",
	.driver_id = RDMA_DRIVER_VMW_PVRDMA,
	.vendor = 0x15ad,
	.device = 0x0820,
	.abi = 3,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	/* vmw_pvrdma (44.0 to 65.0) has no create_cq_ex nor create_qp_ex. */
	.steps = T_STEPS_ALL & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	/*
	 * vmw_pvrdma 44 hands ibv_cmd_modify_qp() a struct ibv_modify_qp
	 * from its stack, uninitialised: the fields outside the attribute
	 * mask hold what the stack held.
	 */
	.driver.mask_core_in = t_mask_modify_qp,
	.driver.mask_in = pvrdma_mask_in,
};
