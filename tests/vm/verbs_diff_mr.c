// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of memory: protection domains, memory regions and
 * memory windows.
 */
#include <errno.h>

#include "verbs_diff.h"

/* The page of t_page() registered with @access, or the step ends. */
static struct ibv_mr *t_page_mr(struct t_st *st, unsigned int access)
{
	struct ibv_mr *mr = t_reg(st, t_page(), 4096, access);

	if (!mr)
		t_setup_failed("reg_mr");
	return mr;
}

/* ------------------------------------------------------------------ */
/* PD */

static void s_pd_alloc(struct t_st *st)
{
	struct ibv_pd *pd;

	t_need(ibv_alloc_pd);
	errno = 0;
	pd = lib.ibv_alloc_pd(st->ctx);
	if (t_ptr("ret", pd))
		t_out("context-matches=%d", pd->context == st->ctx);
}

static void s_pd_dealloc(struct t_st *st)
{
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* A PD that still holds an MR cannot go: EBUSY. */
static void s_pd_dealloc_busy(struct t_st *st)
{
	t_page_mr(st, 0);
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* ------------------------------------------------------------------ */
/* MR */

static void t_mr_step(struct t_st *st, void *addr, size_t len,
		      unsigned int access)
{
	struct ibv_mr *mr = t_reg(st, addr, len, access);

	if (t_ptr("ret", mr))
		t_out("lkey!=0=%d length=%zu addr-matches=%d", mr->lkey != 0,
		      mr->length, mr->addr == addr);
}

static void s_mr_reg_local(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, 0);
}

static void s_mr_reg_rw(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ);
}

static void s_mr_reg_atomic(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
}

/* Remote write without local write is refused by the verbs spec. */
static void s_mr_reg_rw_nolocal(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_REMOTE_WRITE);
}

static void s_mr_reg_bad_bits(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE | 1u << 29);
}

static void s_mr_reg_optional(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
}

static void s_mr_reg_len0(struct t_st *st)
{
	t_mr_step(st, t_page(), 0, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_reg_null(struct t_st *st)
{
	t_mr_step(st, NULL, 4096, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_rereg_access(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret",
	     lib.ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ));
}

static void s_mr_rereg_bad_flags(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_rereg_mr(mr, 1 << 20, NULL, NULL, 0, 0));
}

static void s_mr_dereg(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_dereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_dereg_mr(mr));
}

/* ------------------------------------------------------------------ */
/* MW */

static void t_mw_step(struct t_st *st, enum ibv_mw_type type)
{
	struct ibv_mw *mw;

	errno = 0;
	mw = ibv_alloc_mw(st->pd, type);
	if (!t_ptr("ret", mw))
		return;
	t_out("type=%d", mw->type);
	errno = 0;
	t_rc("dealloc", ibv_dealloc_mw(mw));
}

static void s_mw_type1(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_1);
}

static void s_mw_type2(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_2);
}

static const struct t_step mr_steps[] = {
	{ "pd.alloc", T_CTX, s_pd_alloc },
	{ "pd.dealloc", T_PD, s_pd_dealloc },
	{ "pd.dealloc.busy", T_PD, s_pd_dealloc_busy },
	{ "mr.reg.local", T_PD, s_mr_reg_local },
	{ "mr.reg.rw", T_PD, s_mr_reg_rw },
	{ "mr.reg.atomic", T_PD, s_mr_reg_atomic },
	{ "mr.reg.remote_without_local", T_PD, s_mr_reg_rw_nolocal },
	{ "mr.reg.bad_bits", T_PD, s_mr_reg_bad_bits },
	{ "mr.reg.optional_bits", T_PD, s_mr_reg_optional },
	{ "mr.reg.len0", T_PD, s_mr_reg_len0 },
	{ "mr.reg.null", T_PD, s_mr_reg_null },
	{ "mr.rereg.access", T_PD, s_mr_rereg_access },
	{ "mr.rereg.bad_flags", T_PD, s_mr_rereg_bad_flags },
	{ "mr.dereg", T_PD, s_mr_dereg },
	{ "mw.alloc.type1", T_PD, s_mw_type1 },
	{ "mw.alloc.type2", T_PD, s_mw_type2 },
};

const struct t_steps t_mr_steps = T_STEPS(mr_steps);
