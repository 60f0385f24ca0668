// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The queue family tests' fixture (t_qp.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t_qp.h"

struct t_qp_kernel fk;
struct t_qp_prov fp;

static int t_write_resp(const void *buf, size_t len, int err)
{
	uint64_t resp;

	if (fk.resp_len && len >= 16) {
		memcpy(&resp, (const uint8_t *)buf + CMD_RESPONSE, 8);
		memcpy((void *)(uintptr_t)resp, fk.resp, fk.resp_len);
	}
	return err;
}

/* The kernel has every method, the tunnel included. */
int t_setup(void **state)
{
	struct ibv_context *ctx;

	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	abi_ver = 6;
	tk.tunnel = true;
	tk.on_write = t_write_resp;
	ctx = t_context_new(T_DRIVER_ID);
	ctx->async_fd = 33;
	tk.ncalls = 0; /* the tunnel probe is not under test here */
	*state = ctx;
	return 0;
}

static int fp_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	(void)qp;
	(void)a;
	(void)mask;
	fp.calls++;
	return fp.ret;
}

static int fp_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		       struct ibv_qp_init_attr *ia)
{
	(void)qp;
	(void)mask;
	(void)ia;
	fp.calls++;
	a->qp_state = IBV_QPS_SQD;
	return fp.ret;
}

static int fp_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	fp.calls++;
	return 0;
}

static struct ibv_srq *fp_create_srq(struct ibv_pd *pd,
				     struct ibv_srq_init_attr *a)
{
	(void)pd;
	(void)a;
	fp.calls++;
	memset(&fp.srq, 0xee, sizeof(fp.srq));
	return &fp.srq;
}

static struct ibv_ah *fp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	(void)pd;
	(void)a;
	fp.calls++;
	return &fp.ah;
}

static int fp_destroy_ah(struct ibv_ah *ah)
{
	(void)ah;
	fp.calls++;
	return fp.ret;
}

const struct verbs_context_ops t_ops = {
	.modify_qp = fp_modify_qp,
	.query_qp = fp_query_qp,
	.set_ece = fp_set_ece,
	.create_srq = fp_create_srq,
	.create_ah = fp_create_ah,
	.destroy_ah = fp_destroy_ah,
};
