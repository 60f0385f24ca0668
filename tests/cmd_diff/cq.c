// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the CQ family's commands.
 */
#include "t_diff.h"

static void case_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

T_CASE_SET(t_cases_cq, T_CASE(cq));
