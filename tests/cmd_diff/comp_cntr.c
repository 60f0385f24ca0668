// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: completion counters (provider ABI 65): the
 * device's limits, a counter's life with each kind of driver attribute
 * linked into its creation, its four updates and two reads (which the
 * fake kernel keeps, so the values read back show what was sent), the
 * attachment to a QP, and the same commands on the counter once
 * destroyed (ENOENT from the kernel). Built into the program of provider
 * ABI 65 only, whose releases all have these functions; each is still
 * looked up at run time, as a provider of another ABI would not link.
 *
 * Attach calls that 65.0 would send and we refuse unsent (a comp_mask
 * bit, an op_mask bit no release defines) are not here: the whole
 * command would be missing from one trace. cmd_comp_cntr_test has them.
 */
#include <errno.h>

#include "t_diff.h"

#if VERBS_PROVIDER_ABI >= 65

/* No command gives this; it shows that a call left errno alone. */
#define UNTOUCHED 1234

#define FN(name) __typeof__(ibv_cmd_##name) *name
static struct {
	FN(query_comp_cntr_caps);
	FN(create_comp_cntr);
	FN(destroy_comp_cntr);
	FN(set_comp_cntr);
	FN(set_err_comp_cntr);
	FN(inc_comp_cntr);
	FN(inc_err_comp_cntr);
	FN(read_comp_cntr);
	FN(read_err_comp_cntr);
	FN(qp_attach_comp_cntr);
} f;
#undef FN

#define LOOK(name) (f.name = t_diff_pabi_sym("ibv_cmd_" #name))

/* Every function found, or a note that the library lacks one. */
static bool look_up(void)
{
	if (LOOK(query_comp_cntr_caps) && LOOK(create_comp_cntr) &&
	    LOOK(destroy_comp_cntr) && LOOK(set_comp_cntr) &&
	    LOOK(set_err_comp_cntr) && LOOK(inc_comp_cntr) &&
	    LOOK(inc_err_comp_cntr) && LOOK(read_comp_cntr) &&
	    LOOK(read_err_comp_cntr) && LOOK(qp_attach_comp_cntr))
		return true;
	t_uv_note("no completion counters here");
	return false;
}

static void query_caps(struct ibv_context *ctx, size_t size)
{
	struct {
		struct ibv_comp_cntr_caps caps;
		uint64_t later;
	} big;
	int ret;

	t_diff_stale(&big, sizeof(big));
	t_uv_name("caps", &big, sizeof(big));
	errno = UNTOUCHED;
	ret = f.query_comp_cntr_caps(ctx, &big.caps, size);
	t_uv_note("query_comp_cntr_caps(%zu) ret=%d errno=%d", size, ret,
		  ret ? errno : 0);
	t_uv_dump("caps", &big, sizeof(big));
	t_uv_unname(&big);
}

/* The library's own size, a larger one, and one too small. */
static void case_comp_cntr_caps(struct ibv_context *ctx)
{
	if (!look_up())
		return;
	query_caps(ctx, sizeof(struct ibv_comp_cntr_caps));
	query_caps(ctx, sizeof(struct ibv_comp_cntr_caps) + 8);
	query_caps(ctx, sizeof(struct ibv_comp_cntr_caps) - 1);
	t_uv.next_err = EPERM;
	query_caps(ctx, sizeof(struct ibv_comp_cntr_caps));
}

/* A counter made as a provider makes it, @kind linked; 0 or the error. */
static int create(struct ibv_context *ctx, enum t_diff_drv kind,
		  struct ibv_comp_cntr *cc)
{
	DECLARE_COMMAND_BUFFER(drv, 19 /* COMP_CNTR */, 0 /* CREATE */, 1);
	int ret;

	t_diff_stale(cc, sizeof(*cc));
	ret = f.create_comp_cntr(ctx, cc, t_diff_driver(drv, kind));
	t_uv_note("create_comp_cntr(%s) ret=%d", t_diff_drv_name(kind), ret);
	t_uv_note("cc context=%s handle=%x",
		  cc->context == ctx ? "ctx" : "other", ret ? 0 : cc->handle);
	return ret;
}

/* Each update, then both reads; the fake keeps the values. */
static void use(struct ibv_comp_cntr *cc)
{
	uint64_t v;

	T_NOTE_RET("set_comp_cntr", f.set_comp_cntr(cc, 5));
	T_NOTE_RET("inc_comp_cntr", f.inc_comp_cntr(cc, 3));
	T_NOTE_RET("set_err_comp_cntr", f.set_err_comp_cntr(cc, 1ull << 40));
	T_NOTE_RET("inc_err_comp_cntr", f.inc_err_comp_cntr(cc, 1));
	t_uv_name("value", &v, sizeof(v));
	v = 0;
	T_NOTE_RET("read_comp_cntr", f.read_comp_cntr(cc, &v));
	t_uv_note("value=%llx", (unsigned long long)v);
	v = 0;
	T_NOTE_RET("read_err_comp_cntr", f.read_err_comp_cntr(cc, &v));
	t_uv_note("value=%llx", (unsigned long long)v);
	t_uv_unname(&v);
}

static void case_comp_cntr_life(struct ibv_context *ctx)
{
	struct ibv_comp_cntr cc;

	if (!look_up())
		return;
	for (enum t_diff_drv k = T_DRV_NONE; k <= T_DRV_MANDATORY; k++) {
		if (create(ctx, k, &cc))
			continue;
		use(&cc);
		T_NOTE_RET("destroy_comp_cntr", f.destroy_comp_cntr(&cc));
		/* The handle is gone: the kernel finds no such counter. */
		use(&cc);
		T_NOTE_RET("destroy_comp_cntr", f.destroy_comp_cntr(&cc));
	}
	t_uv.next_err = ENOMEM;
	create(ctx, T_DRV_NONE, &cc);
}

static void attach(struct ibv_qp *qp, struct ibv_comp_cntr *cc,
		   uint32_t op_mask)
{
	struct ibv_qp_attach_comp_cntr_attr attr = { .op_mask = op_mask };
	int ret;

	ret = f.qp_attach_comp_cntr(qp, cc, &attr);
	t_uv_note("qp_attach_comp_cntr(%x) ret=%d", op_mask, ret);
}

static void case_comp_cntr_attach(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;
	struct ibv_comp_cntr cc;

	if (!look_up() || t_diff_new_qp(ctx, IBV_QPT_RC, &o) ||
	    create(ctx, T_DRV_NONE, &cc))
		return;
	attach(&o.qp.qp, &cc,
	       IBV_QP_ATTACH_COMP_CNTR_OP_SEND |
		       IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE);
	attach(&o.qp.qp, &cc, 0x3f);
	attach(&o.qp.qp, &cc, 0);
	t_uv.next_err = EBUSY;
	attach(&o.qp.qp, &cc, IBV_QP_ATTACH_COMP_CNTR_OP_RECV);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
	T_NOTE_RET("destroy_comp_cntr", f.destroy_comp_cntr(&cc));
	attach(&o.qp.qp, &cc, IBV_QP_ATTACH_COMP_CNTR_OP_SEND);
}

T_CASE_SET(t_cases_comp_cntr, T_CASE(comp_cntr_caps), T_CASE(comp_cntr_life),
	   T_CASE(comp_cntr_attach));

#else

/* Provider ABI 34 has no completion counters. */
const struct t_case_set t_cases_comp_cntr = { NULL, 0 };

#endif
