// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: work queues and RSS indirection tables.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

TDRV_CMD(create_wq, ibv_create_wq);
TDRV_RESP(create_wq, ib_uverbs_ex_create_wq_resp);

/* One create from a stale attr: @mask and @flags as the caller set them. */
static void create_wq(struct ibv_context *ctx, struct ibv_pd *pd,
		      struct ibv_cq *cq, uint32_t mask, uint32_t flags)
{
	struct tdrv_create_wq cmd;
	struct tdrv_create_wq_resp resp;
	struct ibv_wq_init_attr init;
	struct ibv_wq wq;
	int ret;

	T_DIFF_CMD(cmd);
	memset(&wq, 0, sizeof(wq));
	t_diff_stale(&init, sizeof(init));
	init.wq_context = NULL;
	init.comp_mask = mask;
	init.wq_type = IBV_WQT_RQ;
	init.max_wr = 16;
	init.max_sge = 2;
	init.pd = pd;
	init.cq = cq;
	init.create_flags = flags;
	t_uv_name("wq", &wq, sizeof(wq));
	t_diff_resp("create_wq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_wq(ctx, &init, &wq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	t_uv_note("create_wq(%x, %x) ret=%d errno=%d", mask, flags, ret,
		  ret ? errno : 0);
	t_diff_resp_done("create_wq_resp", &resp, sizeof(resp));
	t_uv_note("init max_wr=%u max_sge=%u", init.max_wr, init.max_sge);
	t_diff_note_wq(&wq);
	if (!ret)
		T_NOTE_RET("destroy_wq", ibv_cmd_destroy_wq(&wq));
	t_uv_unname(&wq);
}

/* A reused attribute struct: create_flags set, but not in comp_mask. */
static void case_wq_stale_flags(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct ibv_cq cq;

	if (t_diff_pd(ctx, &pd) || t_diff_cq(ctx, &cq))
		return;
	create_wq(ctx, &pd, &cq, 0, IBV_WQ_FLAGS_CVLAN_STRIPPING);
}

static void case_wq_flags(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct ibv_cq cq;

	if (t_diff_pd(ctx, &pd) || t_diff_cq(ctx, &cq))
		return;
	create_wq(ctx, &pd, &cq, IBV_WQ_INIT_ATTR_FLAGS,
		  IBV_WQ_FLAGS_CVLAN_STRIPPING | IBV_WQ_FLAGS_SCATTER_FCS);
	create_wq(ctx, &pd, &cq, IBV_WQ_INIT_ATTR_FLAGS,
		  IBV_WQ_FLAGS_DELAY_DROP | IBV_WQ_FLAGS_PCI_WRITE_END_PADDING);
	create_wq(ctx, &pd, &cq, IBV_WQ_INIT_ATTR_FLAGS, 0);
	create_wq(ctx, &pd, &cq, IBV_WQ_INIT_ATTR_FLAGS, IBV_WQ_FLAGS_RESERVED);
	create_wq(ctx, &pd, &cq, IBV_WQ_INIT_ATTR_RESERVED, 0);
	t_uv.next_err = ENOMEM;
	create_wq(ctx, &pd, &cq, 0, 0);
}

/* A WQ on a fresh PD and CQ. */
struct wq_objs {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_wq wq;
};

static int new_wq(struct ibv_context *ctx, struct wq_objs *o)
{
	return t_diff_pd(ctx, &o->pd) || t_diff_cq(ctx, &o->cq) ||
	       t_diff_wq(ctx, &o->pd, &o->cq, &o->wq);
}

TDRV_CMD(modify_wq, ibv_modify_wq);

static void modify_wq(struct ibv_wq *wq, uint32_t mask, uint32_t flags_mask)
{
	struct tdrv_modify_wq cmd;
	struct ibv_wq_attr attr;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	attr.attr_mask = mask;
	if (mask & IBV_WQ_ATTR_STATE)
		attr.wq_state = IBV_WQS_RDY;
	if (mask & IBV_WQ_ATTR_CURR_STATE)
		attr.curr_wq_state = IBV_WQS_RESET;
	if (mask & IBV_WQ_ATTR_FLAGS) {
		attr.flags = IBV_WQ_FLAGS_CVLAN_STRIPPING;
		attr.flags_mask = flags_mask;
	}
	ret = ibv_cmd_modify_wq(wq, &attr, &cmd.ibv_cmd, sizeof(cmd));
	t_uv_note("modify_wq(%x, %x) ret=%d state=%d", mask, flags_mask, ret,
		  wq->state);
}

static void case_modify_wq(struct ibv_context *ctx)
{
	struct wq_objs o;

	if (new_wq(ctx, &o))
		return;
	modify_wq(&o.wq, IBV_WQ_ATTR_STATE, 0);
	modify_wq(&o.wq, IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_CURR_STATE, 0);
	modify_wq(&o.wq, IBV_WQ_ATTR_FLAGS, IBV_WQ_FLAGS_CVLAN_STRIPPING);
	modify_wq(&o.wq, IBV_WQ_ATTR_FLAGS | IBV_WQ_ATTR_STATE,
		  IBV_WQ_FLAGS_RESERVED);
	modify_wq(&o.wq, 0, 0);
	modify_wq(&o.wq, IBV_WQ_ATTR_RESERVED, 0);
	t_uv.next_err = EINVAL;
	modify_wq(&o.wq, IBV_WQ_ATTR_STATE, 0);
	T_NOTE_RET("destroy_wq", ibv_cmd_destroy_wq(&o.wq));
}

static void case_destroy_wq_fails(struct ibv_context *ctx)
{
	struct wq_objs o;

	if (new_wq(ctx, &o))
		return;
	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_wq", ibv_cmd_destroy_wq(&o.wq));
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_wq EIO", ibv_cmd_destroy_wq(&o.wq));
	T_NOTE_RET("destroy_wq", ibv_cmd_destroy_wq(&o.wq));
}

TDRV_RESP(create_ind_tbl, ib_uverbs_ex_create_rwq_ind_table_resp);

static void create_ind_tbl(struct ibv_context *ctx, struct ibv_wq **wqs,
			   uint32_t log, uint32_t mask)
{
	struct tdrv_create_ind_tbl_resp resp;
	struct ibv_rwq_ind_table_init_attr attr;
	struct ibv_rwq_ind_table tbl;
	int ret;

	t_diff_stale(&tbl, sizeof(tbl));
	t_diff_stale(&attr, sizeof(attr));
	attr.log_ind_tbl_size = log;
	attr.ind_tbl = wqs;
	attr.comp_mask = mask;
	t_diff_resp("create_ind_tbl_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_rwq_ind_table(ctx, &attr, &tbl, &resp.ibv_resp,
					   sizeof(resp));
	t_uv_note("create_rwq_ind_table(%u, %x) ret=%d", log, mask, ret);
	t_diff_resp_done("create_ind_tbl_resp", &resp, sizeof(resp));
	t_uv_dump("tbl", &tbl, sizeof(tbl));
	if (!ret)
		T_NOTE_RET("destroy_rwq_ind_table",
			   ibv_cmd_destroy_rwq_ind_table(&tbl));
}

static void case_rwq_ind_table(struct ibv_context *ctx)
{
	struct ibv_wq wq[4], *wqs[4];
	struct ibv_pd pd;
	struct ibv_cq cq;

	if (t_diff_pd(ctx, &pd) || t_diff_cq(ctx, &cq))
		return;
	/* The table only reads their handles. */
	for (int i = 0; i < 4; i++) {
		memset(&wq[i], 0, sizeof(wq[i]));
		wq[i].handle = 0x60 + i;
		wqs[i] = &wq[i];
	}
	create_ind_tbl(ctx, wqs, 0, 0);
	create_ind_tbl(ctx, wqs, 1, 0);
	create_ind_tbl(ctx, wqs, 2, 0);
	create_ind_tbl(ctx, wqs, 1, IBV_CREATE_IND_TABLE_RESERVED);
	t_uv.next_err = EINVAL;
	create_ind_tbl(ctx, wqs, 2, 0);
}

static void case_destroy_ind_tbl_fails(struct ibv_context *ctx)
{
	struct ibv_rwq_ind_table tbl = { .context = ctx, .ind_tbl_handle = 9 };

	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_rwq_ind_table",
		   ibv_cmd_destroy_rwq_ind_table(&tbl));
	verbs_allow_disassociate_destroy = true;
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_rwq_ind_table EIO allowed",
		   ibv_cmd_destroy_rwq_ind_table(&tbl));
	verbs_allow_disassociate_destroy = false;
}

T_CASE_SET(t_cases_wq, T_CASE(wq_stale_flags), T_CASE(wq_flags),
	   T_CASE(modify_wq), T_CASE(destroy_wq_fails), T_CASE(rwq_ind_table),
	   T_CASE(destroy_ind_tbl_fails));
