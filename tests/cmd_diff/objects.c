// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The objects many cases of driver_cmd_diff_test need, made the way a
 * provider makes them (driver data both ways), traced like any case.
 */
#include "t_diff.h"

struct tdrv_alloc_pd {
	struct ibv_alloc_pd ibv_cmd;
	struct tdrv_drv_in drv;
};
struct tdrv_alloc_pd_resp {
	struct ib_uverbs_alloc_pd_resp ibv_resp;
	uint32_t pad;
	struct tdrv_drv_out drv;
};

int t_diff_pd(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct tdrv_alloc_pd cmd = { .drv = DRV_IN_INIT };
	struct tdrv_alloc_pd_resp resp;
	int ret;

	memset(&resp, 0, sizeof(resp));
	memset(pd, 0, sizeof(*pd));
	t_uv_name("pd", pd, sizeof(*pd));
	t_uv_name("alloc_pd_resp", &resp, sizeof(resp));
	ret = ibv_cmd_alloc_pd(ctx, pd, &cmd.ibv_cmd, sizeof(cmd),
			       &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("alloc_pd", ret);
	t_uv_dump("alloc_pd_resp", &resp, sizeof(resp));
	t_uv_dump("pd", pd, sizeof(*pd));
	t_uv_unname(&resp);
	return ret;
}

struct tdrv_create_cq {
	struct ibv_create_cq ibv_cmd;
	struct tdrv_drv_in drv;
};
struct tdrv_create_cq_resp {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct tdrv_drv_out drv;
};

int t_diff_cq(struct ibv_context *ctx, struct ibv_cq *cq)
{
	struct tdrv_create_cq cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_cq_resp resp;
	int ret;

	memset(&resp, 0, sizeof(resp));
	memset(cq, 0, sizeof(*cq));
	t_uv_name("cq", cq, sizeof(*cq));
	t_uv_name("create_cq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_cq(ctx, 64, NULL, 0, cq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_cq", ret);
	t_uv_dump("create_cq_resp", &resp, sizeof(resp));
	t_uv_note("cq handle=%x cqe=%d", cq->handle, cq->cqe);
	t_uv_unname(&resp);
	return ret;
}
