// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the memory family's commands: protection and
 * XRC domains, memory regions and windows, device memory.
 */
#include "t_diff.h"

static void case_pd(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	T_NOTE_RET("dealloc_pd", ibv_cmd_dealloc_pd(&pd));
}

T_CASE_SET(t_cases_mem, T_CASE(pd));
