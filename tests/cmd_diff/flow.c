// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: flows, flow actions, WQs, RSS indirection
 * tables and counters.
 */
#include "t_diff.h"

struct tdrv_create_wq {
	struct ibv_create_wq ibv_cmd;
	struct tdrv_drv_in drv;
};
struct tdrv_create_wq_resp {
	struct ib_uverbs_ex_create_wq_resp ibv_resp;
	struct tdrv_drv_out drv;
};

/* A reused attribute struct: create_flags set, but not in comp_mask. */
static void case_wq_stale_flags(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_wq wq = { 0 };
	struct tdrv_create_wq cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_wq_resp resp;
	struct ibv_wq_init_attr init;
	int ret;

	if (t_diff_pd(ctx, &pd) || t_diff_cq(ctx, &cq))
		return;
	t_diff_stale(&init, sizeof(init));
	init.comp_mask = 0;
	init.wq_type = IBV_WQT_RQ;
	init.max_wr = 16;
	init.max_sge = 2;
	init.pd = &pd;
	init.cq = &cq;
	init.create_flags = IBV_WQ_FLAGS_CVLAN_STRIPPING;
	memset(&resp, 0, sizeof(resp));
	t_uv_name("wq", &wq, sizeof(wq));
	t_uv_name("create_wq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_wq(ctx, &init, &wq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_wq", ret);
	t_uv_dump("create_wq_resp", &resp, sizeof(resp));
	t_uv_note("wq handle=%x wq_num=%x max_wr=%u max_sge=%u", wq.handle,
		  wq.wq_num, init.max_wr, init.max_sge);
	if (!ret)
		T_NOTE_RET("destroy_wq", ibv_cmd_destroy_wq(&wq));
}

T_CASE_SET(t_cases_flow, T_CASE(wq_stale_flags));
