// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Memory regions: rdma_rxe takes REG_MR with no driver data. */
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
