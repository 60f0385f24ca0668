// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's memory regions. The provider picks the STag's low byte (the
 * "key", siw_ureq_reg_mr.stag_key); the kernel puts it under its own
 * index and answers the whole STag (siw_uresp_reg_mr.stag), which is
 * also the lkey and rkey of the core answer. A key that changes from
 * one registration to the next makes a stale STag less likely to name
 * a newer region.
 */
#include <stdlib.h>

#include "siw.h"
#include "siw_abi.h"

struct ibv_mr *siw_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
			  uint64_t hca_va, int access)
{
	struct siw_context *ctx = to_siwctx(pd->context);
	struct siw_cmd_reg_mr cmd = {};
	struct siw_resp_reg_mr resp = {};
	struct siw_mr *mr = calloc(1, sizeof(*mr));

	if (!mr)
		return NULL;
	/* Only uniqueness matters here, not order: relaxed. */
	cmd.drv.stag_key = atomic_fetch_add_explicit(&ctx->next_stag_key, 1,
						     memory_order_relaxed);
	if (ibv_cmd_reg_mr(pd, addr, len, hca_va, access, &mr->vmr,
			   &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
			   sizeof(resp))) {
		free(mr);
		return NULL;
	}
	return &mr->vmr.ibv_mr;
}

int siw_dereg_mr(struct verbs_mr *vmr)
{
	int ret = ibv_cmd_dereg_mr(vmr);

	if (ret)
		return ret;
	free(to_siwmr(vmr));
	return 0;
}
