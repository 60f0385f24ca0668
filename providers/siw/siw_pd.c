// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* siw's protection domains: no driver data either way. */
#include <stdlib.h>

#include "siw.h"

struct ibv_pd *siw_alloc_pd(struct ibv_context *ctx)
{
	struct ibv_alloc_pd cmd;
	struct ib_uverbs_alloc_pd_resp resp;
	struct siw_pd *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return NULL;
	if (ibv_cmd_alloc_pd(ctx, &pd->ibv_pd, &cmd, sizeof(cmd), &resp,
			     sizeof(resp))) {
		free(pd);
		return NULL;
	}
	return &pd->ibv_pd;
}

int siw_dealloc_pd(struct ibv_pd *ibpd)
{
	int ret = ibv_cmd_dealloc_pd(ibpd);

	if (ret)
		return ret;
	free(to_siwpd(ibpd));
	return 0;
}
