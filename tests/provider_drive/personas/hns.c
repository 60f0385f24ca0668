// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libhns, HiSilicon Kunpeng 920 (HIP08/HIP09) RoCE.
 *
 * The driver's answers (<rdma/hns-abi.h>), as hns_roce_hw_v2 gives them
 * on a HIP09: a context with 64-byte CQEs (hns 44 asks for no extended
 * SGE config, so none is granted), QPs and CQs with record doorbells in
 * user memory, ids from the handles. The device's hardware version,
 * which the provider takes from ibv_query_device, is HIP09's (0x130):
 * hns 44 refuses address handles below HIP08.
 *
 * The AH step ends the drive under 44.0: hns 44 creates the kernel's
 * AH, then asks ibv_resolve_eth_l2_from_gid() for the destination's
 * MAC, which the host's IP stack cannot give for a fake device's GID;
 * both cores fail it alike. hns of 56.1 and 65.0 first takes the MAC
 * the kernel resolved from CREATE_AH's answer (struct
 * hns_roce_ib_create_ah_resp, which newer kernels than 6.1 give, and
 * whose layout is declared here): the persona answers one, so those
 * providers make their AH.
 */
#include <rdma/hns-abi.h>

#include "t_drive.h"

#define HW_VER_HIP09 0x130

/* CREATE_AH's answer, of the uapi of kernels newer than 6.1. */
struct t_hns_create_ah_resp {
	uint8_t dmac[6];
	uint8_t priority;
	uint8_t tc_mode; /* 0: the priority is the AH's service level */
};
_Static_assert(sizeof(struct t_hns_create_ah_resp) == 8, "create_ah_resp");

static int get_context(struct t_uv_cmd *cmd)
{
	struct hns_roce_ib_alloc_ucontext_resp r = {
		.qp_tab_size = 0x10000,
		.cqe_size = 64,
		.srq_tab_size = 0x10000,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The core answer (device.c's) says which hardware this is. */
static int query_device(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_query_device_resp *r = cmd->core_out;

	if (cmd->core_out_len >= sizeof(*r))
		r->hw_ver = HW_VER_HIP09;
	return 0;
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct hns_roce_ib_alloc_pd_resp r = { .pdn = t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct hns_roce_ib_create_cq_resp r = {
		.cqn = t_cq_number(cmd),
		.cap_flags = HNS_ROCE_CQ_FLAG_RECORD_DB,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct hns_roce_ib_create_qp_resp r = {
		.cap_flags = HNS_ROCE_QP_CAP_RQ_RECORD_DB |
			     HNS_ROCE_QP_CAP_SQ_RECORD_DB,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * The destination's MAC as the kernel resolved it (a neighbour's,
 * locally administered), the AH's service level as its priority.
 */
static int create_ah(struct t_uv_cmd *cmd)
{
	struct t_hns_create_ah_resp r = {
		.dmac = { 0x02, 0x00, 0x5e, 0x00, 0x02, 0x02 },
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct hns_roce_ib_create_srq_resp r = {
		.srqn = t_srq_number(cmd),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

const struct t_persona t_persona_hns = {
	.name = "hns",
	.ibdev = "hns_0",
	.driver_id = RDMA_DRIVER_HNS,
	.vendor = 0x19e5,
	.device = 0xa222,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_ALL,
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_QUERY_DEVICE] = query_device,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
		[T_V_CREATE_AH] = create_ah,
	},
	/*
	 * hns 44 hands ibv_cmd_modify_qp() a struct ibv_modify_qp from its
	 * stack, uninitialised: the fields outside the attribute mask (the
	 * alternate path among them) hold what the stack held.
	 */
	.driver.mask_core_in = t_mask_modify_qp,
};
