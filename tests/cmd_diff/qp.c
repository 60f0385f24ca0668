// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the QP family's commands: create (three ways),
 * open, destroy, multicast and address handles. Query, modify and the
 * kernel's post of work requests are qp_attr.c's.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

static void case_qp_rc(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_RC, &o))
		return;
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

TDRV_CMD(create_qp, ibv_create_qp);
TDRV_RESP(create_qp, ib_uverbs_create_qp_resp);

/* A new QP's struct and the answer's buffer, zeroed and named. */
static void new_qp(struct verbs_qp *qp, const char *resp_name, void *resp,
		   size_t len)
{
	memset(qp, 0, sizeof(*qp));
	t_uv_name("qp", qp, sizeof(*qp));
	t_diff_resp(resp_name, resp, len);
}

/* The QP destroyed if it was made, and its name forgotten. */
static void done_qp(int ret, struct verbs_qp *qp)
{
	if (!ret)
		T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&qp->qp));
	t_uv_unname(qp);
}

/* ibv_cmd_create_qp() from a stale request and init attr. */
static void create_qp(struct ibv_pd *pd, struct ibv_cq *scq, struct ibv_cq *rcq,
		      struct ibv_srq *srq, enum ibv_qp_type type,
		      int sq_sig_all)
{
	struct tdrv_create_qp cmd;
	struct tdrv_create_qp_resp resp;
	struct ibv_qp_init_attr attr;
	struct verbs_qp qp;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	attr.qp_context = &t_decoy;
	attr.send_cq = scq;
	attr.recv_cq = rcq;
	attr.srq = srq;
	attr.cap = (struct ibv_qp_cap){ 8, srq ? 0 : 8, 1, srq ? 0 : 1, 0 };
	attr.qp_type = type;
	attr.sq_sig_all = sq_sig_all;
	new_qp(&qp, "create_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_qp(pd, &qp.qp, &attr, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	t_uv_note("create_qp ret=%d errno=%d", ret, ret ? errno : 0);
	t_diff_resp_done("create_qp_resp", &resp, sizeof(resp));
	t_uv_dump("attr", &attr, sizeof(attr));
	t_diff_note_qp(&qp.qp);
	done_qp(ret, &qp);
}

static void case_qp_basic(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct ibv_cq scq, rcq;
	struct verbs_srq srq;

	t_diff_decoys(ctx);
	if (t_diff_pd(ctx, &pd) || t_diff_cq(ctx, &scq) ||
	    t_diff_cq(ctx, &rcq) || t_diff_srq(&pd, &srq))
		return;
	create_qp(&pd, &scq, &rcq, NULL, IBV_QPT_RC, 0);
	create_qp(&pd, &scq, &scq, &srq.srq, IBV_QPT_UD, 1);
	create_qp(&pd, &scq, &rcq, NULL, IBV_QPT_UC, 7);
	create_qp(&pd, &scq, &rcq, NULL, IBV_QPT_RAW_PACKET, 0);
	t_uv.next_err = ENOMEM;
	create_qp(&pd, &scq, &rcq, NULL, IBV_QPT_RC, 0);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&srq.srq));
}

/* The objects a case hands to the extended creates. */
struct qp_objs {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct verbs_srq srq;
	struct verbs_xrcd xrcd;
};

static int qp_objs(struct ibv_context *ctx, struct qp_objs *o)
{
	t_diff_decoys(ctx);
	return t_diff_pd(ctx, &o->pd) || t_diff_cq(ctx, &o->cq) ||
	       t_diff_srq(&o->pd, &o->srq) || t_diff_xrcd(ctx, &o->xrcd);
}

/*
 * An extended init attr as a reused struct: every pointer the mask does
 * not cover is a decoy, every other field stale.
 */
static void init_attr_ex(struct ibv_qp_init_attr_ex *a, struct qp_objs *o,
			 enum ibv_qp_type type, uint32_t mask)
{
	t_diff_stale(a, sizeof(*a));
	a->qp_context = NULL;
	a->send_cq = &o->cq;
	a->recv_cq = &o->cq;
	a->srq = NULL;
	a->cap = (struct ibv_qp_cap){ 32, 32, 2, 2, 128 };
	a->qp_type = type;
	a->sq_sig_all = 0;
	a->comp_mask = mask;
	a->pd = mask & IBV_QP_INIT_ATTR_PD ? &o->pd : &t_decoy.pd;
	a->xrcd =
		&(mask & IBV_QP_INIT_ATTR_XRCD ? &o->xrcd : &t_decoy.xrcd)->xrcd;
	a->rwq_ind_tbl = &t_decoy.tbl;
	if (type == IBV_QPT_XRC_RECV) {
		a->send_cq = a->recv_cq = NULL;
		a->cap = (struct ibv_qp_cap){ 0 };
	}
}

/*
 * The comp_mask and xrcd the core wrote, read where that core keeps
 * them: a release's layout of struct verbs_qp, asked of the core as a
 * provider asks (driver.h).
 */
static void note_vqp_tail(struct ibv_context *ctx, struct verbs_qp *qp)
{
	char *at = verbs_qp_comp_mask_at(qp, verbs_core_before_wr_flush(ctx));
	uint32_t mask;

	memcpy(&mask, at, sizeof(mask));
	t_uv_note("vqp comp_mask=%x", mask);
	t_uv_dump("vqp xrcd", at + 8, sizeof(qp->xrcd));
}

/* What an extended create gave, the QP then destroyed. */
static void created_ex(struct ibv_context *ctx, int ret,
		       const struct ibv_qp_init_attr_ex *a, struct verbs_qp *qp,
		       void *resp, size_t len)
{
	t_uv_note("create ret=%d errno=%d", ret, ret ? errno : 0);
	t_uv_dump("cap", &a->cap, sizeof(a->cap));
	t_diff_note_qp(&qp->qp);
	note_vqp_tail(ctx, qp);
	t_diff_resp_done("create_qp_resp", resp, len);
	done_qp(ret, qp);
}

static void create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a)
{
	struct tdrv_create_qp cmd;
	struct tdrv_create_qp_resp resp;
	struct verbs_qp qp;
	int ret;

	T_DIFF_CMD(cmd);
	new_qp(&qp, "create_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_qp_ex(ctx, &qp, a, &cmd.ibv_cmd, sizeof(cmd),
				   &resp.ibv_resp, sizeof(resp));
	created_ex(ctx, ret, a, &qp, &resp, sizeof(resp));
}

static void case_qp_ex(struct ibv_context *ctx)
{
	struct ibv_qp_init_attr_ex a;
	struct qp_objs o;

	if (qp_objs(ctx, &o))
		return;
	init_attr_ex(&a, &o, IBV_QPT_RC, IBV_QP_INIT_ATTR_PD);
	create_qp_ex(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_UD,
		     IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
	a.srq = &o.srq.srq;
	a.sq_sig_all = 1;
	a.send_ops_flags = IBV_QP_EX_WITH_SEND;
	create_qp_ex(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_XRC_SEND, IBV_QP_INIT_ATTR_PD);
	create_qp_ex(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_XRC_RECV, IBV_QP_INIT_ATTR_XRCD);
	create_qp_ex(ctx, &a);
	/* Refused before anything is sent. */
	init_attr_ex(&a, &o, IBV_QPT_XRC_RECV, 0);
	create_qp_ex(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RC, 0);
	create_qp_ex(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RC,
		     IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS);
	a.create_flags = IBV_QP_CREATE_SCATTER_FCS;
	create_qp_ex(ctx, &a);
	t_uv.next_err = EINVAL;
	init_attr_ex(&a, &o, IBV_QPT_RC, IBV_QP_INIT_ATTR_PD);
	create_qp_ex(ctx, &a);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&o.srq.srq));
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&o.xrcd));
}

TDRV_CMD(create_qp_ex, ibv_create_qp_ex);
TDRV_RESP(create_qp_ex, ib_uverbs_ex_create_qp_resp);

static void create_qp_ex2(struct ibv_context *ctx,
			  struct ibv_qp_init_attr_ex *a)
{
	struct tdrv_create_qp_ex cmd;
	struct tdrv_create_qp_ex_resp resp;
	struct verbs_qp qp;
	int ret;

	T_DIFF_CMD(cmd);
	new_qp(&qp, "create_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_qp_ex2(ctx, &qp, a, &cmd.ibv_cmd, sizeof(cmd),
				    &resp.ibv_resp, sizeof(resp), NULL);
	created_ex(ctx, ret, a, &qp, &resp, sizeof(resp));
}

static void case_qp_ex2(struct ibv_context *ctx)
{
	const uint32_t pd_flags = IBV_QP_INIT_ATTR_PD |
				  IBV_QP_INIT_ATTR_CREATE_FLAGS;
	struct ibv_qp_init_attr_ex a;
	struct qp_objs o;

	if (qp_objs(ctx, &o))
		return;
	init_attr_ex(&a, &o, IBV_QPT_RC, IBV_QP_INIT_ATTR_PD);
	create_qp_ex2(ctx, &a);
	/* Stale create_flags and source_qpn, not in comp_mask. */
	init_attr_ex(&a, &o, IBV_QPT_UD, IBV_QP_INIT_ATTR_PD);
	a.create_flags = IBV_QP_CREATE_SOURCE_QPN;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RAW_PACKET, pd_flags);
	a.create_flags = IBV_QP_CREATE_SCATTER_FCS |
			 IBV_QP_CREATE_CVLAN_STRIPPING;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_UD, pd_flags);
	a.create_flags = IBV_QP_CREATE_SOURCE_QPN;
	a.source_qpn = 0x1234;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RC, pd_flags);
	a.create_flags = 0;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RC, pd_flags);
	a.create_flags = IBV_QP_CREATE_BLOCK_SELF_MCAST_LB |
			 IBV_QP_CREATE_PCI_WRITE_END_PADDING;
	a.sq_sig_all = 1;
	create_qp_ex2(ctx, &a);
	/* A create flag the kernel does not know. */
	init_attr_ex(&a, &o, IBV_QPT_RC, pd_flags);
	a.create_flags = 1 << 20;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RAW_PACKET,
		     IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_MAX_TSO_HEADER);
	a.max_tso_header = 64;
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RC, 1 << 7 | IBV_QP_INIT_ATTR_PD);
	create_qp_ex2(ctx, &a);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&o.srq.srq));
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&o.xrcd));
}

/* An RSS QP: receives from an indirection table, maybe no send queue. */
static void case_qp_ex2_rss(struct ibv_context *ctx)
{
	const uint32_t rss = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE |
			     IBV_QP_INIT_ATTR_RX_HASH;
	uint8_t key[40];
	struct ibv_qp_init_attr_ex a;
	struct qp_objs o;

	if (qp_objs(ctx, &o))
		return;
	memset(key, 0x6b, sizeof(key));
	t_uv_name("key", key, sizeof(key));
	init_attr_ex(&a, &o, IBV_QPT_RAW_PACKET, rss);
	a.recv_cq = NULL;
	a.send_cq = NULL;
	a.cap = (struct ibv_qp_cap){ 0 };
	a.rx_hash_conf = (struct ibv_rx_hash_conf){
		IBV_RX_HASH_FUNC_TOEPLITZ, sizeof(key), key,
		IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4
	};
	create_qp_ex2(ctx, &a);
	init_attr_ex(&a, &o, IBV_QPT_RAW_PACKET, rss);
	a.recv_cq = NULL;
	a.cap = (struct ibv_qp_cap){ .max_send_wr = 8, .max_send_sge = 1 };
	create_qp_ex2(ctx, &a);
	/* A receive queue beside the table is refused. */
	init_attr_ex(&a, &o, IBV_QPT_RAW_PACKET, rss);
	a.send_cq = NULL;
	a.cap = (struct ibv_qp_cap){ .max_recv_wr = 8 };
	create_qp_ex2(ctx, &a);
	t_uv_unname(key);
	T_NOTE_RET("destroy_srq", ibv_cmd_destroy_srq(&o.srq.srq));
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&o.xrcd));
}

TDRV_CMD(open_qp, ibv_open_qp);

static void open_qp(struct ibv_context *ctx, struct verbs_xrcd *xrcd,
		    uint32_t mask, int vqp_sz)
{
	struct tdrv_open_qp cmd;
	struct tdrv_create_qp_resp resp;
	struct ibv_qp_open_attr attr;
	struct verbs_qp qp;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	attr.comp_mask = mask;
	attr.qp_num = 0x4321;
	attr.xrcd =
		&(mask & IBV_QP_OPEN_ATTR_XRCD ? xrcd : &t_decoy.xrcd)->xrcd;
	attr.qp_context = &t_decoy;
	attr.qp_type = IBV_QPT_XRC_RECV;
	new_qp(&qp, "open_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_open_qp(ctx, &qp, vqp_sz, &attr, &cmd.ibv_cmd,
			      sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	t_uv_note("open_qp ret=%d", ret);
	t_diff_resp_done("open_qp_resp", &resp, sizeof(resp));
	t_diff_note_qp(&qp.qp);
	note_vqp_tail(ctx, &qp);
	done_qp(ret, &qp);
}

/* Where the core keeps verbs_qp's xrcd, as note_vqp_tail() reads it. */
static int xrcd_at(struct ibv_context *ctx)
{
	struct verbs_qp qp;
	char *at = verbs_qp_comp_mask_at(&qp, verbs_core_before_wr_flush(ctx));

	return (int)(at + 8 - (char *)&qp);
}

static void case_open_qp(struct ibv_context *ctx)
{
	const uint32_t need = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			      IBV_QP_OPEN_ATTR_TYPE;
	struct verbs_xrcd xrcd;

	t_diff_decoys(ctx);
	if (t_diff_xrcd(ctx, &xrcd))
		return;
	open_qp(ctx, &xrcd, need, sizeof(struct verbs_qp));
	open_qp(ctx, &xrcd, need | IBV_QP_OPEN_ATTR_CONTEXT,
		sizeof(struct verbs_qp));
	/* A provider built before verbs_qp had xrcd: short of it. */
	open_qp(ctx, &xrcd, need, xrcd_at(ctx));
	open_qp(ctx, &xrcd, IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD,
		sizeof(struct verbs_qp));
	open_qp(ctx, &xrcd, need | IBV_QP_OPEN_ATTR_RESERVED,
		sizeof(struct verbs_qp));
	t_uv.next_err = ENOENT;
	open_qp(ctx, &xrcd, need, sizeof(struct verbs_qp));
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&xrcd));
}

static void case_destroy_qp_fails(struct ibv_context *ctx)
{
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_UD, &o))
		return;
	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
	verbs_allow_disassociate_destroy = true;
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_qp EIO allowed", ibv_cmd_destroy_qp(&o.qp.qp));
	verbs_allow_disassociate_destroy = false;
	t_diff_note_qp(&o.qp.qp);
}

static void case_mcast(struct ibv_context *ctx)
{
	union ibv_gid gid;
	struct t_diff_qp_objs o;

	if (t_diff_new_qp(ctx, IBV_QPT_UD, &o))
		return;
	for (unsigned int i = 0; i < sizeof(gid.raw); i++)
		gid.raw[i] = 0xf0 + i;
	T_NOTE_RET("attach_mcast",
		   ibv_cmd_attach_mcast(&o.qp.qp, &gid, 0xc001));
	T_NOTE_RET("detach_mcast",
		   ibv_cmd_detach_mcast(&o.qp.qp, &gid, 0xc001));
	t_uv.next_err = EINVAL;
	T_NOTE_RET("attach_mcast fails",
		   ibv_cmd_attach_mcast(&o.qp.qp, &gid, 0xffff));
	t_uv.next_err = EINVAL;
	T_NOTE_RET("detach_mcast fails",
		   ibv_cmd_detach_mcast(&o.qp.qp, &gid, 0));
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

static void case_ah(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct ibv_ah ah;

	if (t_diff_pd(ctx, &pd) || t_diff_ah(&pd, &ah))
		return;
	T_NOTE_RET("destroy_ah", ibv_cmd_destroy_ah(&ah));
	t_uv.next_err = ENOMEM;
	if (!t_diff_ah(&pd, &ah))
		T_NOTE_RET("destroy_ah", ibv_cmd_destroy_ah(&ah));
}

TDRV_RESP(create_ah, ib_uverbs_create_ah_resp);

/* An AH without a GRH: the stale global fields must not matter. */
static void case_ah_local(struct ibv_context *ctx)
{
	struct tdrv_create_ah_resp resp;
	struct ibv_ah_attr attr;
	struct ibv_pd pd;
	struct ibv_ah ah;
	int ret;

	if (t_diff_pd(ctx, &pd))
		return;
	t_diff_stale(&ah, sizeof(ah));
	t_diff_stale(&attr, sizeof(attr));
	attr.dlid = 7;
	attr.sl = 2;
	attr.src_path_bits = 1;
	attr.static_rate = IBV_RATE_10_GBPS;
	attr.is_global = 0;
	attr.port_num = 1;
	t_uv_name("ah", &ah, sizeof(ah));
	t_diff_resp("create_ah_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_ah(&pd, &ah, &attr, &resp.ibv_resp,
				sizeof(resp.ibv_resp));
	T_NOTE_RET("create_ah", ret);
	t_diff_resp_done("create_ah_resp", &resp, sizeof(resp));
	t_uv_dump("ah", &ah, sizeof(ah));
	if (!ret)
		T_NOTE_RET("destroy_ah", ibv_cmd_destroy_ah(&ah));
}

T_CASE_SET(t_cases_qp, T_CASE(qp_rc), T_CASE(qp_basic), T_CASE(qp_ex),
	   T_CASE(qp_ex2), T_CASE(qp_ex2_rss), T_CASE(open_qp),
	   T_CASE(destroy_qp_fails), T_CASE(mcast), T_CASE(ah),
	   T_CASE(ah_local));
