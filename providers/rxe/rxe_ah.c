// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles. rdma_rxe keeps the address vector itself and answers
 * CREATE_AH with a number that UD send WRs carry (wr.ud.ah_num).
 *
 * Not yet: kernels that answer no number (ah_num 0) want the whole
 * struct rxe_av in each UD WR; such an AH is refused for now.
 */
#include <errno.h>
#include <stdlib.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

struct ibv_ah *rxe_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rxe_resp_create_ah resp = {};
	struct rxe_ah *ah = calloc(1, sizeof(*ah));
	int ret;

	if (!ah)
		return NULL;
	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret)
		goto err_free;
	ah->ah_num = resp.drv.ah_num;
	if (!ah->ah_num) {
		ibv_cmd_destroy_ah(&ah->ibv_ah);
		ret = EOPNOTSUPP;
		goto err_free;
	}
	return &ah->ibv_ah;

err_free:
	free(ah);
	errno = ret;
	return NULL;
}

int rxe_destroy_ah(struct ibv_ah *ibah)
{
	int ret = ibv_cmd_destroy_ah(ibah);

	if (!ret)
		free(to_rxeah(ibah));
	return ret;
}
