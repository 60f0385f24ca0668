// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libipathverbs, QLogic InfiniPath (qib).
 * Its kernel side is rdmavt's (rvt.h).
 */
#include "rvt.h"

const struct t_persona t_persona_ipathverbs = {
	.name = "ipathverbs",
	.ibdev = "qib0",
	.driver_id = RDMA_DRIVER_QIB,
	.vendor = 0x1fc1,
	.device = 0x0010,
	T_RVT_PERSONA,
};
