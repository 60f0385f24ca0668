// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Protection domains: the kernel's object, nothing of the provider's. */
#include <stdlib.h>

#include <infiniband/driver.h>

#include "rxe.h"

struct ibv_pd *rxe_alloc_pd(struct ibv_context *ctx)
{
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_alloc_pd cmd;
	struct ibv_pd *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return NULL;
	if (ibv_cmd_alloc_pd(ctx, pd, &cmd, sizeof(cmd), &resp, sizeof(resp))) {
		free(pd);
		return NULL;
	}
	return pd;
}

int rxe_dealloc_pd(struct ibv_pd *pd)
{
	int ret = ibv_cmd_dealloc_pd(pd);

	if (!ret)
		free(pd);
	return ret;
}
