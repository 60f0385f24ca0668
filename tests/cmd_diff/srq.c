// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: shared receive queues, basic and extended.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

static void case_srq(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_srq srq;

	if (t_diff_pd(ctx, &pd) || t_diff_srq(&pd, &srq))
		return;
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
}

static void case_srq_fails(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_srq srq;

	if (t_diff_pd(ctx, &pd))
		return;
	t_uv.next_err = ENOMEM;
	if (!t_diff_srq(&pd, &srq))
		T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
	t_uv_note("errno=%d", errno);
}

TDRV_CMD(create_xsrq, ibv_create_xsrq);
TDRV_RESP(create_srq, ib_uverbs_create_srq_resp);

struct srq_objs {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct verbs_xrcd xrcd;
};

/*
 * ibv_cmd_create_srq_ex() from a stale attr: @mask picks what counts, the
 * pointers it leaves out are decoys.
 */
static void create_srq_ex(struct ibv_context *ctx, struct srq_objs *o,
			  uint32_t mask, enum ibv_srq_type type,
			  uint32_t max_num_tags)
{
	struct tdrv_create_xsrq cmd;
	struct tdrv_create_srq_resp resp;
	struct ibv_srq_init_attr_ex a;
	struct verbs_srq srq;
	int ret;

	T_DIFF_CMD(cmd);
	memset(&srq, 0, sizeof(srq));
	t_diff_stale(&a, sizeof(a));
	a.srq_context = NULL;
	a.attr = (struct ibv_srq_attr){ 64, 3, 8 };
	a.comp_mask = mask;
	a.srq_type = type;
	a.pd = mask & IBV_SRQ_INIT_ATTR_PD ? &o->pd : &t_decoy.pd;
	a.xrcd = &(mask & IBV_SRQ_INIT_ATTR_XRCD ? &o->xrcd : &t_decoy.xrcd)
			  ->xrcd;
	a.cq = mask & IBV_SRQ_INIT_ATTR_CQ ? &o->cq : &t_decoy.cq;
	if (mask & IBV_SRQ_INIT_ATTR_TM) {
		a.tm_cap.max_num_tags = max_num_tags;
		a.tm_cap.max_ops = 16;
	}
	t_uv_name("srq", &srq, sizeof(srq));
	t_diff_resp("create_srq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_srq_ex(ctx, &srq, &a, &cmd.ibv_cmd, sizeof(cmd),
				    &resp.ibv_resp, sizeof(resp));
	t_uv_note("create_srq_ex(%x, %d) ret=%d errno=%d", mask, type, ret,
		  ret ? errno : 0);
	t_diff_resp_done("create_srq_resp", &resp, sizeof(resp));
	t_uv_dump("srq_attr", &a.attr, sizeof(a.attr));
	t_diff_note_srq(&srq.srq);
	t_uv_dump("vsrq", &srq.srq_type,
		  sizeof(srq) - offsetof(struct verbs_srq, srq_type));
	if (!ret)
		T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
	t_uv_unname(&srq);
}

static int srq_objs(struct ibv_context *ctx, struct srq_objs *o)
{
	t_diff_decoys(ctx);
	return t_diff_pd(ctx, &o->pd) || t_diff_cq(ctx, &o->cq) ||
	       t_diff_xrcd(ctx, &o->xrcd);
}

#define PD IBV_SRQ_INIT_ATTR_PD
#define TYPE IBV_SRQ_INIT_ATTR_TYPE
#define XRCD IBV_SRQ_INIT_ATTR_XRCD
#define CQ IBV_SRQ_INIT_ATTR_CQ
#define TM IBV_SRQ_INIT_ATTR_TM

static void case_srq_ex(struct ibv_context *ctx)
{
	struct srq_objs o;

	if (srq_objs(ctx, &o))
		return;
	create_srq_ex(ctx, &o, PD | TYPE, IBV_SRQT_BASIC, 0);
	create_srq_ex(ctx, &o, PD | CQ, IBV_SRQT_BASIC, 0);
	create_srq_ex(ctx, &o, PD | TYPE | XRCD | CQ, IBV_SRQT_XRC, 0);
	create_srq_ex(ctx, &o, PD | TYPE | CQ | TM, IBV_SRQT_TM, 32);
	/* Missing parts, refused before anything is sent. */
	create_srq_ex(ctx, &o, PD | TYPE | CQ, IBV_SRQT_XRC, 0);
	create_srq_ex(ctx, &o, PD | TYPE | XRCD, IBV_SRQT_XRC, 0);
	create_srq_ex(ctx, &o, PD | TYPE | CQ, IBV_SRQT_TM, 0);
	create_srq_ex(ctx, &o, PD | TYPE | CQ | TM, IBV_SRQT_TM, 0);
	create_srq_ex(ctx, &o, TYPE, IBV_SRQT_BASIC, 0);
	create_srq_ex(ctx, &o, PD | IBV_SRQ_INIT_ATTR_RESERVED, IBV_SRQT_BASIC,
		      0);
	t_uv.next_err = EINVAL;
	create_srq_ex(ctx, &o, PD | TYPE | XRCD | CQ, IBV_SRQT_XRC, 0);
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&o.xrcd));
}

/*
 * A stale srq_type without IBV_SRQ_INIT_ATTR_TYPE: a basic SRQ. (Not
 * XRC: on the write() path rdma-core 44 then reads the XRC domain that
 * comp_mask does not give, and crashes.)
 */
static void case_srq_ex_stale_type(struct ibv_context *ctx)
{
	struct srq_objs o;

	if (srq_objs(ctx, &o))
		return;
	create_srq_ex(ctx, &o, PD, IBV_SRQT_TM, 0);
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&o.xrcd));
}

TDRV_CMD(modify_srq, ibv_modify_srq);

static void modify_srq(struct ibv_srq *srq, int mask)
{
	struct tdrv_modify_srq cmd;
	struct ibv_srq_attr attr;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	if (mask & IBV_SRQ_MAX_WR)
		attr.max_wr = 128;
	if (mask & IBV_SRQ_LIMIT)
		attr.srq_limit = 10;
	t_uv_note("modify_srq(%x) ret=%d", mask,
		  ibv_cmd_modify_srq(srq, &attr, mask, &cmd.ibv_cmd,
				     sizeof(cmd)));
	t_uv_dump("srq_attr", &attr, sizeof(attr));
}

TDRV_CMD(query_srq, ibv_query_srq);

static void query_srq(struct ibv_srq *srq)
{
	struct tdrv_query_srq cmd;
	struct ibv_srq_attr attr;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	t_uv_note("query_srq ret=%d",
		  ibv_cmd_query_srq(srq, &attr, &cmd.ibv_cmd, sizeof(cmd)));
	t_uv_dump("srq_attr", &attr, sizeof(attr));
}

static void case_srq_attr(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_srq srq;

	if (t_diff_pd(ctx, &pd) || t_diff_srq(&pd, &srq))
		return;
	modify_srq(&srq.srq, IBV_SRQ_MAX_WR);
	modify_srq(&srq.srq, IBV_SRQ_LIMIT);
	modify_srq(&srq.srq, IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT);
	modify_srq(&srq.srq, 0);
	t_uv.next_err = EINVAL;
	modify_srq(&srq.srq, IBV_SRQ_LIMIT);
	query_srq(&srq.srq);
	t_uv.next_err = EINVAL;
	query_srq(&srq.srq);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
}

static void case_destroy_srq_fails(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_srq srq;

	if (t_diff_pd(ctx, &pd) || t_diff_srq(&pd, &srq))
		return;
	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_srq EIO", ibv_cmd_destroy_srq(&srq.srq));
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
}

T_CASE_SET(t_cases_srq, T_CASE(srq), T_CASE(srq_fails), T_CASE(srq_ex),
	   T_CASE(srq_ex_stale_type), T_CASE(srq_attr),
	   T_CASE(destroy_srq_fails));
