// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libhfi1verbs, Intel Omni-Path (hfi1).
 * Its kernel side is rdmavt's (rvt.h).
 */
#include "rvt.h"

const struct t_persona t_persona_hfi1verbs = {
	.name = "hfi1verbs",
	.ibdev = "hfi1_0",
	.driver_id = RDMA_DRIVER_HFI1,
	.vendor = 0x8086,
	.device = 0x24f0,
	T_RVT_PERSONA,
};
