// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of completion counters (rdma-core 65, IBVERBS_1.18):
 * the device's limits, create and destroy, the two values of a counter,
 * and its attachment to a QP.
 *
 * Neither rxe nor siw makes counters, so on them each verb shows how the
 * library refuses. The verbs after create need a counter all the same:
 * where the device refuses one, they get a stand-in of the same context
 * (see t_cntr()), which both libraries hand to the provider's op by its
 * context alone; a provider without counters answers without reading it.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "verbs_diff.h"

static void s_cntr_query_caps(struct t_st *st)
{
	struct ibv_comp_cntr_caps caps;
	int rc;

	t_need65(_ibv_query_comp_cntr_caps);
	memset(&caps, 0xa5, sizeof(caps));
	errno = 0;
	rc = ibv_query_comp_cntr_caps(st->ctx, &caps);
	t_rc("ret", rc);
	if (!rc)
		t_out("max_counters=%u max_value=%#" PRIx64 " ops=%#x",
		      caps.max_counters, caps.max_value,
		      caps.supported_qp_attach_ops);
}

/* A caller of a layout shorter than any release's (8 bytes). */
static void s_cntr_query_caps_short(struct t_st *st)
{
	struct ibv_comp_cntr_caps caps;

	t_need65(_ibv_query_comp_cntr_caps);
	errno = 0;
	t_rc("ret", lib65._ibv_query_comp_cntr_caps(st->ctx, &caps, 8));
}

static void t_create_step(struct t_st *st, uint32_t mask,
			  enum ibv_comp_cntr_type type)
{
	struct ibv_comp_cntr_init_attr a = { .comp_mask = mask, .type = type };
	struct ibv_comp_cntr *cc;

	t_need65(ibv_create_comp_cntr);
	t_need65(ibv_destroy_comp_cntr);
	errno = 0;
	cc = lib65.ibv_create_comp_cntr(st->ctx, &a);
	if (!t_ptr("ret", cc))
		return;
	t_out("context-matches=%d", cc->context == st->ctx);
	errno = 0;
	t_rc("destroy", lib65.ibv_destroy_comp_cntr(cc));
}

static void s_cntr_create_wrs(struct t_st *st)
{
	t_create_step(st, 0, IBV_COMP_CNTR_TYPE_WRS);
}

static void s_cntr_create_bytes(struct t_st *st)
{
	t_create_step(st, 0, IBV_COMP_CNTR_TYPE_BYTES);
}

/* A mask bit that no release defines (comp_mask must be 0). */
static void s_cntr_create_bad_mask(struct t_st *st)
{
	t_create_step(st, 1, IBV_COMP_CNTR_TYPE_WRS);
}

/* A type no release defines: the provider judges it. */
static void s_cntr_create_bad_type(struct t_st *st)
{
	t_create_step(st, 0, (enum ibv_comp_cntr_type)7);
}

/*
 * A counter of @st's context: a real one where the device makes it,
 * else a stand-in, which the step names ("cntr=standin").
 */
static struct ibv_comp_cntr *t_cntr(struct t_st *st)
{
	static struct ibv_comp_cntr standin;
	struct ibv_comp_cntr_init_attr a = { .type = IBV_COMP_CNTR_TYPE_WRS };
	struct ibv_comp_cntr *cc;

	t_need65(ibv_create_comp_cntr);
	errno = 0;
	cc = lib65.ibv_create_comp_cntr(st->ctx, &a);
	if (cc) {
		t_out("cntr=created");
		return cc;
	}
	t_out("cntr=standin");
	standin.context = st->ctx;
	return &standin;
}

/* Set, add to and read the completions, then the same for the errors. */
static void s_cntr_values(struct t_st *st)
{
	struct ibv_comp_cntr *cc = t_cntr(st);
	uint64_t v = 0;
	int rc;

	t_need65(ibv_set_comp_cntr);
	t_need65(ibv_inc_comp_cntr);
	t_need65(ibv_read_comp_cntr);
	t_need65(ibv_set_err_comp_cntr);
	t_need65(ibv_inc_err_comp_cntr);
	t_need65(ibv_read_err_comp_cntr);
	errno = 0;
	t_rc("set", lib65.ibv_set_comp_cntr(cc, 5));
	errno = 0;
	t_rc("inc", lib65.ibv_inc_comp_cntr(cc, 3));
	errno = 0;
	rc = lib65.ibv_read_comp_cntr(cc, &v);
	t_rc("read", rc);
	if (!rc)
		t_out("value=%" PRIu64, v);
	errno = 0;
	t_rc("set_err", lib65.ibv_set_err_comp_cntr(cc, 2));
	errno = 0;
	t_rc("inc_err", lib65.ibv_inc_err_comp_cntr(cc, 1));
	errno = 0;
	rc = lib65.ibv_read_err_comp_cntr(cc, &v);
	t_rc("read_err", rc);
	if (!rc)
		t_out("err_value=%" PRIu64, v);
}

/* Count the sends and receives of an RC QP in RESET. */
static void s_cntr_attach(struct t_st *st)
{
	struct ibv_qp_attach_comp_cntr_attr a = {
		.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND |
			   IBV_QP_ATTACH_COMP_CNTR_OP_RECV,
	};
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_comp_cntr *cc = t_cntr(st);

	t_need65(ibv_qp_attach_comp_cntr);
	errno = 0;
	t_rc("ret", lib65.ibv_qp_attach_comp_cntr(qp, cc, &a));
}

static void s_cntr_destroy(struct t_st *st)
{
	struct ibv_comp_cntr *cc = t_cntr(st);

	t_need65(ibv_destroy_comp_cntr);
	errno = 0;
	t_rc("ret", lib65.ibv_destroy_comp_cntr(cc));
}

static const struct t_step cntr_steps[] = {
	{ "cntr.query_caps", T_CTX, s_cntr_query_caps },
	{ "cntr.query_caps.short", T_CTX, s_cntr_query_caps_short },
	{ "cntr.create.wrs", T_CTX, s_cntr_create_wrs },
	{ "cntr.create.bytes", T_CTX, s_cntr_create_bytes },
	{ "cntr.create.bad_mask", T_CTX, s_cntr_create_bad_mask },
	{ "cntr.create.bad_type", T_CTX, s_cntr_create_bad_type },
	{ "cntr.values", T_CTX, s_cntr_values },
	{ "cntr.attach.rc", T_CQ, s_cntr_attach },
	{ "cntr.destroy", T_CTX, s_cntr_destroy },
};

const struct t_steps t_cntr_steps = T_STEPS(cntr_steps);
