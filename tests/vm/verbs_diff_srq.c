// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of shared receive queues and XRC domains.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "verbs_diff.h"

static struct ibv_srq *t_srq(struct t_st *st, uint32_t wr, bool setup)
{
	struct ibv_srq_init_attr ia = {
		.attr = { .max_wr = wr, .max_sge = 1 },
	};
	struct ibv_srq *srq;

	t_need(ibv_create_srq);
	errno = 0;
	srq = lib.ibv_create_srq(st->pd, &ia);
	if (!srq && setup)
		t_setup_failed("create_srq");
	if (!setup && t_ptr("ret", srq))
		t_out("max_wr>=%u=%d max_sge=%u", wr, ia.attr.max_wr >= wr,
		      ia.attr.max_sge);
	return srq;
}

static void s_srq_create(struct t_st *st)
{
	t_srq(st, 16, false);
}

static void s_srq_create_big(struct t_st *st)
{
	t_srq(st, st->attr.max_srq_wr + 1, false);
}

/* Modify a fresh SRQ of 16 WRs with @attr, @mask. */
static void t_srq_modify_step(struct t_st *st, struct ibv_srq_attr attr,
			      int mask)
{
	struct ibv_srq *srq = t_srq(st, 16, true);

	t_need(ibv_modify_srq);
	errno = 0;
	t_rc("ret", lib.ibv_modify_srq(srq, &attr, mask));
}

static void s_srq_modify_limit(struct t_st *st)
{
	t_srq_modify_step(st, (struct ibv_srq_attr){ .srq_limit = 4 },
			  IBV_SRQ_LIMIT);
}

static void s_srq_modify_limit_big(struct t_st *st)
{
	t_srq_modify_step(st, (struct ibv_srq_attr){ .srq_limit = 100000 },
			  IBV_SRQ_LIMIT);
}

static void s_srq_resize(struct t_st *st)
{
	t_srq_modify_step(st, (struct ibv_srq_attr){ .max_wr = 64 },
			  IBV_SRQ_MAX_WR);
}

static void s_srq_query(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);
	struct ibv_srq_attr a = { .srq_limit = 4 };

	t_need(ibv_modify_srq);
	t_need(ibv_query_srq);
	if (lib.ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT))
		t_setup_failed("modify_srq");
	memset(&a, 0, sizeof(a));
	errno = 0;
	t_rc("ret", lib.ibv_query_srq(srq, &a));
	t_out("max_wr>=16=%d max_sge=%u srq_limit=%u", a.max_wr >= 16,
	      a.max_sge, a.srq_limit);
}

static void s_srq_destroy(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);

	t_need(ibv_destroy_srq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_srq(srq));
}

static void s_srq_xrcd(struct t_st *st)
{
	struct ibv_xrcd_init_attr ia = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};
	struct ibv_xrcd *xrcd;

	errno = 0;
	xrcd = ibv_open_xrcd(st->ctx, &ia);
	if (!t_ptr("ret", xrcd))
		return;
	errno = 0;
	t_rc("close", ibv_close_xrcd(xrcd));
}

static const struct t_step srq_steps[] = {
	{ "srq.create", T_PD, s_srq_create },
	{ "srq.create.big", T_PD, s_srq_create_big },
	{ "srq.modify.limit", T_PD, s_srq_modify_limit },
	{ "srq.modify.limit_big", T_PD, s_srq_modify_limit_big },
	{ "srq.modify.resize", T_PD, s_srq_resize },
	{ "srq.query", T_PD, s_srq_query },
	{ "srq.destroy", T_PD, s_srq_destroy },
	{ "xrc.open_xrcd", T_CTX, s_srq_xrcd },
};

const struct t_steps t_srq_steps = T_STEPS(srq_steps);
