// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the personas of Debian's 17 providers, in the
 * order of their library names. Each device is matched the way the
 * kernel presents it: PCI ids in the modalias (sysfs) and the driver id
 * (netlink), with the uverbs ABI version its kernel driver reports.
 * Providers with a file of their own (<hw>.c) answer for their driver;
 * the rest get zeroes for their driver's part and go only as far as
 * that lets them.
 */

#include "t_drive.h"

/* Linux 6.2 added MANA after ERDMA; the oldest headers we build on lack it. */
#define RDMA_DRIVER_MANA_ (RDMA_DRIVER_ERDMA + 1)

#define ETH IBV_LINK_LAYER_ETHERNET
#define IB IBV_LINK_LAYER_INFINIBAND
#define CA 1
#define RNIC 4

#define PERSONA(n, dev, id, ven, pci, a, nt, ll, st, ...) \
	static const struct t_persona persona_##n = {     \
		.name = #n,                               \
		.ibdev = dev,                             \
		.driver_id = RDMA_DRIVER_##id,            \
		.vendor = ven,                            \
		.device = pci,                            \
		.abi = a,                                 \
		.node_type = nt,                          \
		.link_layer = ll,                         \
		.steps = st,                              \
		__VA_ARGS__                               \
	}

PERSONA(bnxt_re, "bnxt_re0", BNXT_RE, 0x14e4, 0x1605, 1, CA, ETH, T_STEP_QUERY);
PERSONA(cxgb4, "cxgb4_0", CXGB4, 0x1425, 0x4400, 3, RNIC, ETH, T_STEP_QUERY);
PERSONA(efa, "efa_0", EFA, 0x1d0f, 0xefa0, 1, CA, IBV_LINK_LAYER_UNSPECIFIED,
	T_STEP_QUERY);
PERSONA(erdma, "erdma_0", ERDMA, 0x1ded, 0x107f, 1, RNIC, ETH, T_STEP_QUERY);
PERSONA(hfi1verbs, "hfi1_0", HFI1, 0x8086, 0x24f0, 2, CA, IB, T_STEP_QUERY);
PERSONA(hns, "hns_0", HNS, 0x19e5, 0xa222, 1, CA, ETH, T_STEP_QUERY);
PERSONA(ipathverbs, "qib0", QIB, 0x1fc1, 0x0010, 2, CA, IB, T_STEP_QUERY);
/*
 * irdma 44 leaves rsvd32 and rsvd8[] of its GET_CONTEXT request (struct
 * irdma_alloc_ucontext_req) as its stack held them: only userspace_ver,
 * byte 4, is its.
 */
static void irdma_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			  size_t len)
{
	if (t_verb_of(cmd) != T_V_GET_CONTEXT)
		return;
	for (size_t i = 0; i < len && i < 8; i++)
		if (i != 4)
			drv_in[i] = 0;
}

PERSONA(irdma, "irdma0", IRDMA, 0x8086, 0x124c, 5, CA, ETH, T_STEP_QUERY,
	.mask_in = irdma_mask_in);
PERSONA(mana, "mana_0", MANA_, 0, 0, 1, CA, ETH, T_STEP_QUERY);
PERSONA(mlx4, "mlx4_0", MLX4, 0x15b3, 0x6340, 4, CA, IB, T_STEP_QUERY);
PERSONA(mlx5, "mlx5_0", MLX5, 0x15b3, 0x1011, 1, CA, IB, T_STEP_QUERY);
PERSONA(mthca, "mthca0", MTHCA, 0x15b3, 0x5a44, 1, CA, IB, T_STEP_QUERY);
PERSONA(ocrdma, "ocrdma0", OCRDMA, 0x10df, 0xe220, 2, CA, ETH, T_STEP_QUERY);
PERSONA(qedr, "qedr0", QEDR, 0x1077, 0x1629, 8, CA, ETH, T_STEP_QUERY);
PERSONA(rxe, "rxe0", RXE, 0, 0, 2, CA, ETH, T_STEP_QUERY);
PERSONA(siw, "siw0", SIW, 0, 0, 1, RNIC, ETH, T_STEP_QUERY);
PERSONA(vmw_pvrdma, "vmw_pvrdma0", VMW_PVRDMA, 0x15ad, 0x0820, 3, CA, ETH,
	T_STEP_QUERY);

const struct t_persona *const t_personas[] = {
	&persona_bnxt_re,    &persona_cxgb4,	  &persona_efa,
	&persona_erdma,	     &persona_hfi1verbs,  &persona_hns,
	&persona_ipathverbs, &persona_irdma,	  &persona_mana,
	&persona_mlx4,	     &persona_mlx5,	  &persona_mthca,
	&persona_ocrdma,     &persona_qedr,	  &persona_rxe,
	&persona_siw,	     &persona_vmw_pvrdma,
};
const unsigned int t_npersonas = sizeof(t_personas) / sizeof(t_personas[0]);
