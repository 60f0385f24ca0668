// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: a QP's attributes (query, modify, the extended
 * modify) and posting work requests through the kernel.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

TDRV_CMD(query_qp, ibv_query_qp);

static void query_qp(struct ibv_qp *qp, int mask)
{
	struct tdrv_query_qp cmd;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&init, sizeof(init));
	t_diff_stale(&attr, sizeof(attr));
	ret = ibv_cmd_query_qp(qp, &attr, mask, &init, &cmd.ibv_cmd,
			       sizeof(cmd));
	t_uv_note("query_qp(%x) ret=%d", mask, ret);
	t_uv_dump("attr", &attr, sizeof(attr));
	t_uv_dump("init", &init, sizeof(init));
	t_diff_note_qp(qp);
}

static void case_query_qp(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	query_qp(&o.qp.qp, IBV_QP_STATE);
	query_qp(&o.qp.qp, 0x1fffff);
	query_qp(&o.qp.qp, 0);
	query_qp(&o.qp.qp, IBV_QP_RATE_LIMIT | IBV_QP_STATE);
	t_uv.next_err = EINVAL;
	query_qp(&o.qp.qp, IBV_QP_CAP);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

/* A stale attr with the fields of @mask set to recognisable values. */
static void modify_attr(struct ibv_qp_attr *a, int mask)
{
	t_diff_stale(a, sizeof(*a));
	if (mask & IBV_QP_STATE)
		a->qp_state = IBV_QPS_RTR;
	if (mask & IBV_QP_CUR_STATE)
		a->cur_qp_state = IBV_QPS_INIT;
	if (mask & IBV_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = 1;
	if (mask & IBV_QP_ACCESS_FLAGS)
		a->qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	if (mask & IBV_QP_PKEY_INDEX)
		a->pkey_index = 3;
	if (mask & IBV_QP_PORT)
		a->port_num = 1;
	if (mask & IBV_QP_QKEY)
		a->qkey = 0x11111111;
	if (mask & IBV_QP_AV) {
		memset(&a->ah_attr, 0, sizeof(a->ah_attr));
		a->ah_attr.dlid = 0x31;
		a->ah_attr.sl = 3;
		a->ah_attr.port_num = 1;
		a->ah_attr.is_global = 1;
		a->ah_attr.grh.hop_limit = 9;
		a->ah_attr.grh.flow_label = 0xabcde;
		memset(a->ah_attr.grh.dgid.raw, 0x3c, 16);
	}
	if (mask & IBV_QP_PATH_MTU)
		a->path_mtu = IBV_MTU_4096;
	if (mask & IBV_QP_TIMEOUT)
		a->timeout = 14;
	if (mask & IBV_QP_RETRY_CNT)
		a->retry_cnt = 7;
	if (mask & IBV_QP_RNR_RETRY)
		a->rnr_retry = 6;
	if (mask & IBV_QP_RQ_PSN)
		a->rq_psn = 0x123;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = 4;
	if (mask & IBV_QP_ALT_PATH) {
		a->alt_ah_attr = a->ah_attr;
		a->alt_ah_attr.dlid = 0x32;
		a->alt_pkey_index = 4;
		a->alt_port_num = 1;
		a->alt_timeout = 15;
	}
	if (mask & IBV_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = 12;
	if (mask & IBV_QP_SQ_PSN)
		a->sq_psn = 0x456;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = 5;
	if (mask & IBV_QP_PATH_MIG_STATE)
		a->path_mig_state = IBV_MIG_REARM;
	if (mask & IBV_QP_CAP)
		a->cap = (struct ibv_qp_cap){ 1, 2, 3, 4, 5 };
	if (mask & IBV_QP_DEST_QPN)
		a->dest_qp_num = 0x789;
	if (mask & IBV_QP_RATE_LIMIT)
		a->rate_limit = 1000;
}

TDRV_CMD(modify_qp, ibv_modify_qp);

/*
 * Providers declare their modify request zeroed (= {}); a stale one is
 * the stale_cmd case's.
 */
static void modify_qp_cmd(struct ibv_qp *qp, int mask, bool stale)
{
	struct tdrv_modify_qp cmd;
	struct ibv_qp_attr attr;
	int ret;

	T_DIFF_CMD_INIT(cmd, stale);
	modify_attr(&attr, mask);
	ret = ibv_cmd_modify_qp(qp, &attr, mask, &cmd.ibv_cmd, sizeof(cmd));
	t_uv_note("modify_qp(%x) ret=%d state=%d", mask, ret, qp->state);
}

static void modify_qp(struct ibv_qp *qp, int mask)
{
	modify_qp_cmd(qp, mask, false);
}

#define INIT_MASK \
	(IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)
#define RTR_MASK                                                        \
	(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | \
	 IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
#define RTS_MASK                                                               \
	(IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
	 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)

static void case_modify_qp(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	modify_qp(&o.qp.qp, INIT_MASK);
	modify_qp(&o.qp.qp, RTR_MASK);
	modify_qp(&o.qp.qp, RTS_MASK);
	modify_qp(&o.qp.qp, IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE);
	modify_qp(&o.qp.qp, IBV_QP_STATE | IBV_QP_CUR_STATE |
				    IBV_QP_EN_SQD_ASYNC_NOTIFY | IBV_QP_QKEY |
				    IBV_QP_CAP);
	modify_qp(&o.qp.qp, 0);
	modify_qp(&o.qp.qp, IBV_QP_STATE | IBV_QP_RATE_LIMIT);
	t_uv.next_err = EINVAL;
	modify_qp(&o.qp.qp, IBV_QP_STATE);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

TDRV_CMD(modify_qp_ex, ibv_modify_qp_ex);
TDRV_RESP(modify_qp_ex, ib_uverbs_ex_modify_qp_resp);

static void modify_qp_ex_cmd(struct ibv_qp *qp, int mask, bool stale)
{
	struct tdrv_modify_qp_ex cmd;
	struct tdrv_modify_qp_ex_resp resp;
	struct ibv_qp_attr attr;
	int ret;

	T_DIFF_CMD_INIT(cmd, stale);
	modify_attr(&attr, mask);
	t_diff_resp("modify_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_modify_qp_ex(qp, &attr, mask, &cmd.ibv_cmd, sizeof(cmd),
				   &resp.ibv_resp, sizeof(resp));
	t_uv_note("modify_qp_ex(%x) ret=%d state=%d", mask, ret, qp->state);
	t_diff_resp_done("modify_qp_resp", &resp, sizeof(resp));
}

static void modify_qp_ex(struct ibv_qp *qp, int mask)
{
	modify_qp_ex_cmd(qp, mask, false);
}

static void case_modify_qp_ex(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RAW_PACKET, &o))
		return;
	modify_qp_ex(&o.qp.qp, INIT_MASK);
	modify_qp_ex(&o.qp.qp, IBV_QP_RATE_LIMIT);
	modify_qp_ex(&o.qp.qp, IBV_QP_STATE | IBV_QP_RATE_LIMIT);
	modify_qp_ex(&o.qp.qp, RTR_MASK | IBV_QP_ALT_PATH);
	modify_qp_ex(&o.qp.qp, 0);
	t_uv.next_err = EINVAL;
	modify_qp_ex(&o.qp.qp, IBV_QP_STATE);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

/*
 * A provider that reuses its request struct without zeroing it: only
 * the fields of the mask are the caller's, the rest of the core request
 * is whatever the struct held.
 */
static void case_modify_qp_stale_cmd(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	modify_qp_cmd(&o.qp.qp, INIT_MASK, true);
	modify_qp_ex_cmd(&o.qp.qp, IBV_QP_STATE | IBV_QP_RATE_LIMIT, true);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

/* Memory the work requests point into. */
static uint8_t buf[4096];

/* bad_wr starts out as this, so that an untouched one shows. */
#define BAD_UNTOUCHED ((void *)&t_decoy)

static void note_bad(const char *what, int ret, const void *bad,
		     const void *first, size_t size)
{
	if (!bad)
		t_uv_note("%s ret=%d bad=NULL", what, ret);
	else if (bad == BAD_UNTOUCHED)
		t_uv_note("%s ret=%d bad untouched", what, ret);
	else
		t_uv_note("%s ret=%d bad=wr[%zu]", what, ret,
			  ((const char *)bad - (const char *)first) / size);
}

/* Each posts the chain @wr and notes where it says it stopped. */
static void post_send(const char *what, struct ibv_qp *qp,
		      struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad = BAD_UNTOUCHED;
	int ret = ibv_cmd_post_send(qp, wr, &bad);

	note_bad(what, ret, bad, wr, sizeof(*wr));
}

static void post_recv(const char *what, struct ibv_qp *qp,
		      struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad = BAD_UNTOUCHED;
	int ret = ibv_cmd_post_recv(qp, wr, &bad);

	note_bad(what, ret, bad, wr, sizeof(*wr));
}

static void post_srq_recv(const char *what, struct ibv_srq *srq,
			  struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad = BAD_UNTOUCHED;
	int ret = ibv_cmd_post_srq_recv(srq, wr, &bad);

	note_bad(what, ret, bad, wr, sizeof(*wr));
}

/* The memory, scatter entries and work requests the kernel sees. */
static void name_wrs(const void *sge, size_t sge_len, const void *wr,
		     size_t wr_len)
{
	t_uv_name("buf", buf, sizeof(buf));
	t_uv_name("sge", sge, sge_len);
	t_uv_name("wr", wr, wr_len);
}

static void case_post_send_rc(struct ibv_context *ctx)
{
	struct ibv_sge sge[3] = {
		{ (uintptr_t)buf, 64, 0x10 },
		{ (uintptr_t)buf + 64, 128, 0x10 },
		{ (uintptr_t)buf + 512, 8, 0x11 },
	};
	struct ibv_send_wr wr[3];
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	name_wrs(sge, sizeof(sge), wr, sizeof(wr));
	t_diff_stale(wr, sizeof(wr));
	wr[0].wr_id = 1;
	wr[0].next = &wr[1];
	wr[0].sg_list = sge;
	wr[0].num_sge = 2;
	wr[0].opcode = IBV_WR_SEND_WITH_IMM;
	wr[0].send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED;
	wr[0].imm_data = htobe32(0x1234);
	wr[1].wr_id = 2;
	wr[1].next = &wr[2];
	wr[1].sg_list = &sge[2];
	wr[1].num_sge = 1;
	wr[1].opcode = IBV_WR_RDMA_WRITE;
	wr[1].send_flags = 0;
	wr[1].wr.rdma.remote_addr = 0xabc000;
	wr[1].wr.rdma.rkey = 0x55;
	wr[2].wr_id = 3;
	wr[2].next = NULL;
	wr[2].sg_list = &sge[2];
	wr[2].num_sge = 1;
	wr[2].opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr[2].send_flags = IBV_SEND_FENCE;
	wr[2].wr.atomic.remote_addr = 0xdef000;
	wr[2].wr.atomic.compare_add = 1;
	wr[2].wr.atomic.swap = 2;
	wr[2].wr.atomic.rkey = 0x66;
	post_send("post_send", &o.qp.qp, wr);
	wr[0].next = NULL;
	wr[0].num_sge = 0;
	wr[0].opcode = IBV_WR_SEND;
	t_uv.next_err = EINVAL;
	post_send("post_send fails", &o.qp.qp, wr);
	t_uv_unname(sge);
	t_uv_unname(wr);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

static void case_post_send_ud(struct ibv_context *ctx)
{
	struct ibv_sge sge = { (uintptr_t)buf, 256, 0x10 };
	struct ibv_send_wr wr[2];
	struct t_diff_qp_objs o;
	struct ibv_ah ah;

	if (t_diff_new_qp(ctx, IBV_QPT_UD, &o) || t_diff_ah(&o.pd, &ah))
		return;
	name_wrs(&sge, sizeof(sge), wr, sizeof(wr));
	t_diff_stale(wr, sizeof(wr));
	for (int i = 0; i < 2; i++) {
		wr[i].wr_id = 10 + i;
		wr[i].next = i ? NULL : &wr[1];
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].opcode = i ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].imm_data = htobe32(0x99);
		wr[i].wr.ud.ah = &ah;
		wr[i].wr.ud.remote_qpn = 0x100 + i;
		wr[i].wr.ud.remote_qkey = 0x11111111;
	}
	post_send("post_send", &o.qp.qp, wr);
	t_uv_unname(&sge);
	t_uv_unname(wr);
	T_NOTE_RET("destroy_ah", ibv_cmd_destroy_ah(&ah));
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

static void recv_chain(struct ibv_recv_wr *wr, struct ibv_sge *sge, int n)
{
	t_diff_stale(wr, n * sizeof(*wr));
	for (int i = 0; i < n; i++) {
		wr[i].wr_id = 20 + i;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		wr[i].sg_list = sge;
		wr[i].num_sge = 2 - i % 2;
	}
}

static void case_post_recv(struct ibv_context *ctx)
{
	struct ibv_sge sge[2] = {
		{ (uintptr_t)buf, 1024, 0x10 },
		{ (uintptr_t)buf + 1024, 1024, 0x10 },
	};
	struct ibv_recv_wr wr[3];
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	name_wrs(sge, sizeof(sge), wr, sizeof(wr));
	recv_chain(wr, sge, 3);
	post_recv("post_recv", &o.qp.qp, wr);
	recv_chain(wr, sge, 1);
	t_uv.next_err = ENOMEM;
	post_recv("post_recv fails", &o.qp.qp, wr);
	t_uv_unname(sge);
	t_uv_unname(wr);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

static void case_post_srq_recv(struct ibv_context *ctx)
{
	struct ibv_sge sge[2] = {
		{ (uintptr_t)buf, 512, 0x10 },
		{ (uintptr_t)buf + 512, 512, 0x10 },
	};
	struct ibv_recv_wr wr[2];
	struct verbs_srq srq;
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd) || t_diff_srq(&pd, &srq))
		return;
	name_wrs(sge, sizeof(sge), wr, sizeof(wr));
	recv_chain(wr, sge, 2);
	post_srq_recv("post_srq_recv", &srq.srq, wr);
	t_uv.next_err = EINVAL;
	post_srq_recv("post_srq_recv fails", &srq.srq, wr);
	t_uv_unname(sge);
	t_uv_unname(wr);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
}

T_CASE_SET(t_cases_qp_attr, T_CASE(query_qp), T_CASE(modify_qp),
	   T_CASE(modify_qp_ex), T_CASE(modify_qp_stale_cmd),
	   T_CASE(post_send_rc), T_CASE(post_send_ud), T_CASE(post_recv),
	   T_CASE(post_srq_recv));
