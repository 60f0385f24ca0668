// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: what errno holds after a failed ibv_cmd_*(),
 * for the failures the library finds itself before sending anything
 * (unknown comp_mask or attr_mask bits, a missing attribute) and for
 * failures the kernel returns. errno is set to a value no call gives
 * before each call, so that the trace shows whether the call set it.
 * (The checks for which rdma-core 44 sets errno too are in the cases of
 * their families: the QP, SRQ, WQ and flow creates, reg_dm_mr.)
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

/* No command gives this; it shows that a call left errno alone. */
#define UNTOUCHED 1234

#define NOTE_ERRNO(what, call)                                      \
	do {                                                        \
		int ret_;                                           \
                                                                    \
		errno = UNTOUCHED;                                  \
		ret_ = (call);                                      \
		t_uv_note("%s ret=%d errno=%d", what, ret_, errno); \
	} while (0)

TDRV_CMD(create_cq_ex, ibv_create_cq_ex);
TDRV_RESP(create_cq_ex, ib_uverbs_ex_create_cq_resp);

/* The CQ, counters and device: comp_mask and attr_mask bits unknown. */
static void refused_cq_device(struct ibv_context *ctx, struct ibv_cq *cq)
{
	struct ibv_counters_init_attr counters = { .comp_mask = 1 };
	struct ibv_cq_init_attr_ex cq_attr = { .cqe = 4, .comp_mask = 0x80 };
	struct ibv_modify_cq_attr mod = { .attr_mask = IBV_CQ_ATTR_RESERVED };
	struct ibv_query_device_ex_input input = { .comp_mask = 1 };
	struct ib_uverbs_ex_query_device_resp dev_resp;
	size_t dev_resp_size = sizeof(dev_resp);
	struct tdrv_create_cq_ex cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_cq_ex_resp resp = { 0 };
	struct ibv_device_attr_ex dev_attr;
	struct ibv_modify_cq mod_cmd = { 0 };
	struct verbs_counters vc;
	struct verbs_cq vcq;

	NOTE_ERRNO("create_counters",
		   ibv_cmd_create_counters(ctx, &counters, &vc, NULL));
	NOTE_ERRNO("create_cq_ex",
		   ibv_cmd_create_cq_ex(ctx, &cq_attr, NULL, &vcq, &cmd.ibv_cmd,
					sizeof(cmd), &resp.ibv_resp,
					sizeof(resp), 0));
	NOTE_ERRNO("modify_cq",
		   ibv_cmd_modify_cq(cq, &mod, &mod_cmd, sizeof(mod_cmd)));
	NOTE_ERRNO("query_device_any",
		   ibv_cmd_query_device_any(ctx, &input, &dev_attr,
					    sizeof(dev_attr), &dev_resp,
					    &dev_resp_size));
}

static int open_qp(struct ibv_context *ctx, uint32_t mask)
{
	struct ibv_qp_open_attr attr = { .comp_mask = mask };
	struct ib_uverbs_create_qp_resp resp = { 0 };
	struct ibv_open_qp cmd = { 0 };
	struct verbs_qp vqp;

	return ibv_cmd_open_qp(ctx, &vqp, sizeof(vqp), &attr, &cmd, sizeof(cmd),
			       &resp, sizeof(resp));
}

/* The QP commands: reserved or missing comp_mask, attr_mask too wide. */
static void refused_qp(struct ibv_context *ctx, struct ibv_qp *qp)
{
	struct ibv_query_qp query_cmd = { 0 };
	struct ibv_modify_qp mod_cmd = { 0 };
	struct ibv_qp_attr attr = { 0 };
	struct ibv_qp_init_attr init;

	NOTE_ERRNO("open_qp reserved", open_qp(ctx, IBV_QP_OPEN_ATTR_RESERVED));
	NOTE_ERRNO("open_qp missing", open_qp(ctx, 0));
	NOTE_ERRNO("query_qp",
		   ibv_cmd_query_qp(qp, &attr, IBV_QP_RATE_LIMIT, &init,
				    &query_cmd, sizeof(query_cmd)));
	NOTE_ERRNO("modify_qp", ibv_cmd_modify_qp(qp, &attr, IBV_QP_RATE_LIMIT,
						  &mod_cmd, sizeof(mod_cmd)));
}

static int open_xrcd(struct ibv_context *ctx, uint32_t mask)
{
	struct ibv_xrcd_init_attr attr = { .comp_mask = mask };
	struct ib_uverbs_open_xrcd_resp resp = { 0 };
	struct ibv_open_xrcd cmd = { 0 };
	struct verbs_xrcd xrcd;

	return ibv_cmd_open_xrcd(ctx, &xrcd, sizeof(xrcd), &attr, &cmd,
				 sizeof(cmd), &resp, sizeof(resp));
}

/* XRC domains and RSS tables: reserved or missing comp_mask. */
static void refused_xrcd_table(struct ibv_context *ctx)
{
	struct ibv_rwq_ind_table_init_attr tattr = {
		.comp_mask = IBV_CREATE_IND_TABLE_RESERVED,
	};
	struct ib_uverbs_ex_create_rwq_ind_table_resp tresp = { 0 };
	struct ibv_rwq_ind_table table;

	NOTE_ERRNO("open_xrcd reserved",
		   open_xrcd(ctx, IBV_XRCD_INIT_ATTR_RESERVED));
	NOTE_ERRNO("open_xrcd missing", open_xrcd(ctx, 0));
	NOTE_ERRNO("create_rwq_ind_table",
		   ibv_cmd_create_rwq_ind_table(ctx, &tattr, &table, &tresp,
						sizeof(tresp)));
}

/* What the kernel fails: a write() command, then one with a response. */
static void kernel_failures(struct ibv_context *ctx, struct ibv_qp *qp,
			    struct ibv_cq *cq)
{
	struct ibv_query_qp query_cmd = { 0 };
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	struct ibv_pd pd;

	t_uv.next_err = EPERM;
	NOTE_ERRNO("kernel alloc_pd", t_diff_pd(ctx, &pd));
	t_uv.next_err = EPERM;
	NOTE_ERRNO("kernel req_notify_cq", ibv_cmd_req_notify_cq(cq, 0));
	t_uv.next_err = EPERM;
	NOTE_ERRNO("kernel query_qp",
		   ibv_cmd_query_qp(qp, &attr, IBV_QP_STATE, &init, &query_cmd,
				    sizeof(query_cmd)));
}

static void case_errno_on_failure(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	refused_cq_device(ctx, &o.cq);
	refused_qp(ctx, &o.qp.qp);
	refused_xrcd_table(ctx);
	kernel_failures(ctx, &o.qp.qp, &o.cq);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

T_CASE_SET(t_cases_errno, T_CASE(errno_on_failure));
