// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions and windows: rdma_rxe takes REG_MR and ALLOC_MW with no
 * driver data. A type 1 MW is bound through the QP (rxe_qp.c).
 */
#include <stdlib.h>

#include <infiniband/driver.h>

#include "rxe.h"

struct ibv_mr *rxe_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct ibv_reg_mr cmd;
	struct rxe_mr *mr = calloc(1, sizeof(*mr));

	if (!mr)
		return NULL;
	if (ibv_cmd_reg_mr(pd, addr, length, hca_va, access, &mr->vmr, &cmd,
			   sizeof(cmd), &resp, sizeof(resp))) {
		free(mr);
		return NULL;
	}
	return &mr->vmr.ibv_mr;
}

int rxe_dereg_mr(struct verbs_mr *vmr)
{
	int ret = ibv_cmd_dereg_mr(vmr);

	if (!ret)
		free(to_rxemr(vmr));
	return ret;
}

struct ibv_mw *rxe_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp;
	struct ibv_alloc_mw cmd;
	struct ibv_mw *mw = calloc(1, sizeof(*mw));

	if (!mw)
		return NULL;
	if (ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			     sizeof(resp))) {
		free(mw);
		return NULL;
	}
	return mw;
}

int rxe_dealloc_mw(struct ibv_mw *mw)
{
	int ret = ibv_cmd_dealloc_mw(mw);

	if (!ret)
		free(mw);
	return ret;
}
