// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The objects many cases of driver_cmd_diff_test need, made the way a
 * provider makes them (driver data both ways), traced like any case.
 */
#include <fcntl.h>
#include <stddef.h>

#include "t_diff.h"

TDRV_CMD(alloc_pd, ibv_alloc_pd);
TDRV_RESP(alloc_pd, ib_uverbs_alloc_pd_resp);

int t_diff_pd(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct tdrv_alloc_pd cmd = { .drv = DRV_IN_INIT };
	struct tdrv_alloc_pd_resp resp;
	int ret;

	memset(pd, 0, sizeof(*pd));
	t_uv_name("pd", pd, sizeof(*pd));
	t_diff_resp("alloc_pd_resp", &resp, sizeof(resp));
	ret = ibv_cmd_alloc_pd(ctx, pd, &cmd.ibv_cmd, sizeof(cmd),
			       &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("alloc_pd", ret);
	t_diff_resp_done("alloc_pd_resp", &resp, sizeof(resp));
	t_uv_dump("pd", pd, sizeof(*pd));
	return ret;
}

TDRV_CMD(create_cq, ibv_create_cq);
TDRV_RESP(create_cq, ib_uverbs_create_cq_resp);

int t_diff_cq(struct ibv_context *ctx, struct ibv_cq *cq)
{
	struct tdrv_create_cq cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_cq_resp resp;
	int ret;

	memset(cq, 0, sizeof(*cq));
	t_uv_name("cq", cq, sizeof(*cq));
	t_diff_resp("create_cq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_cq(ctx, 64, NULL, 0, cq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_cq", ret);
	t_diff_resp_done("create_cq_resp", &resp, sizeof(resp));
	t_uv_note("cq handle=%x cqe=%d", cq->handle, cq->cqe);
	return ret;
}

/* The fields in front of an object's lock, and its event counts. */
void t_diff_note_qp(const struct ibv_qp *qp)
{
	t_uv_dump("qp", qp, offsetof(struct ibv_qp, mutex));
	t_uv_note("qp events_completed=%u", qp->events_completed);
}

void t_diff_note_srq(const struct ibv_srq *srq)
{
	t_uv_dump("srq", srq, offsetof(struct ibv_srq, mutex));
	t_uv_note("srq events_completed=%u", srq->events_completed);
}

void t_diff_note_wq(const struct ibv_wq *wq)
{
	t_uv_dump("wq", wq, offsetof(struct ibv_wq, mutex));
	t_uv_note("wq events_completed=%u comp_mask=%x", wq->events_completed,
		  wq->comp_mask);
}

TDRV_CMD(open_xrcd, ibv_open_xrcd);
TDRV_RESP(open_xrcd, ib_uverbs_open_xrcd_resp);

int t_diff_xrcd(struct ibv_context *ctx, struct verbs_xrcd *xrcd)
{
	struct tdrv_open_xrcd cmd = { .drv = DRV_IN_INIT };
	struct tdrv_open_xrcd_resp resp;
	struct ibv_xrcd_init_attr attr;
	int ret;

	memset(xrcd, 0, sizeof(*xrcd));
	t_diff_stale(&attr, sizeof(attr));
	attr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
	attr.fd = -1;
	attr.oflags = O_CREAT;
	t_uv_name("xrcd", xrcd, sizeof(*xrcd));
	t_diff_resp("open_xrcd_resp", &resp, sizeof(resp));
	ret = ibv_cmd_open_xrcd(ctx, xrcd, sizeof(*xrcd), &attr, &cmd.ibv_cmd,
				sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("open_xrcd", ret);
	t_diff_resp_done("open_xrcd_resp", &resp, sizeof(resp));
	t_uv_dump("xrcd", xrcd, sizeof(*xrcd));
	return ret;
}

TDRV_CMD(create_qp, ibv_create_qp);
TDRV_RESP(create_qp, ib_uverbs_create_qp_resp);

int t_diff_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type,
	      struct verbs_qp *qp)
{
	struct tdrv_create_qp cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_qp_resp resp;
	struct ibv_qp_init_attr attr;
	int ret;

	memset(qp, 0, sizeof(*qp));
	t_diff_stale(&attr, sizeof(attr));
	attr.qp_context = NULL;
	attr.send_cq = cq;
	attr.recv_cq = cq;
	attr.srq = NULL;
	attr.cap = (struct ibv_qp_cap){ 16, 16, 2, 2, 64 };
	attr.qp_type = type;
	attr.sq_sig_all = 0;
	t_uv_name("qp", qp, sizeof(*qp));
	t_diff_resp("create_qp_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_qp(pd, &qp->qp, &attr, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_qp", ret);
	t_diff_resp_done("create_qp_resp", &resp, sizeof(resp));
	t_uv_dump("cap", &attr.cap, sizeof(attr.cap));
	t_diff_note_qp(&qp->qp);
	return ret;
}

int t_diff_new_qp(struct ibv_context *ctx, enum ibv_qp_type type,
		  struct t_diff_qp_objs *o)
{
	return t_diff_pd(ctx, &o->pd) || t_diff_cq(ctx, &o->cq) ||
	       t_diff_qp(&o->pd, &o->cq, type, &o->qp);
}

TDRV_CMD(create_srq, ibv_create_srq);
TDRV_RESP(create_srq, ib_uverbs_create_srq_resp);

int t_diff_srq(struct ibv_pd *pd, struct verbs_srq *srq)
{
	struct tdrv_create_srq cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_srq_resp resp;
	struct ibv_srq_init_attr attr;
	int ret;

	memset(srq, 0, sizeof(*srq));
	t_diff_stale(&attr, sizeof(attr));
	attr.srq_context = NULL;
	attr.attr = (struct ibv_srq_attr){ 32, 2, 4 };
	t_uv_name("srq", srq, sizeof(*srq));
	t_diff_resp("create_srq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_srq(pd, &srq->srq, &attr, &cmd.ibv_cmd,
				 sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_srq", ret);
	t_diff_resp_done("create_srq_resp", &resp, sizeof(resp));
	t_uv_dump("srq_attr", &attr.attr, sizeof(attr.attr));
	t_diff_note_srq(&srq->srq);
	return ret;
}

TDRV_CMD(create_wq, ibv_create_wq);
TDRV_RESP(create_wq, ib_uverbs_ex_create_wq_resp);

int t_diff_wq(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq,
	      struct ibv_wq *wq)
{
	struct tdrv_create_wq cmd = { .drv = DRV_IN_INIT };
	struct tdrv_create_wq_resp resp;
	struct ibv_wq_init_attr init;
	int ret;

	memset(wq, 0, sizeof(*wq));
	t_diff_stale(&init, sizeof(init));
	init.comp_mask = 0;
	init.wq_type = IBV_WQT_RQ;
	init.max_wr = 16;
	init.max_sge = 2;
	init.pd = pd;
	init.cq = cq;
	/* Stale flags are wq_stale_flags' subject, not every WQ's. */
	init.create_flags = 0;
	t_uv_name("wq", wq, sizeof(*wq));
	t_diff_resp("create_wq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_wq(ctx, &init, wq, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_wq", ret);
	t_diff_resp_done("create_wq_resp", &resp, sizeof(resp));
	t_uv_note("init max_wr=%u max_sge=%u", init.max_wr, init.max_sge);
	t_diff_note_wq(wq);
	return ret;
}

TDRV_CMD(reg_mr, ibv_reg_mr);
TDRV_RESP(reg_mr, ib_uverbs_reg_mr_resp);

/* The memory every MR of the cases covers. */
static uint8_t mr_memory[8192] __attribute__((aligned(4096)));

int t_diff_mr(struct ibv_pd *pd, struct verbs_mr *mr)
{
	struct tdrv_reg_mr cmd = { .drv = DRV_IN_INIT };
	struct tdrv_reg_mr_resp resp;
	int ret;

	memset(mr, 0, sizeof(*mr));
	t_uv_name("mr", mr, sizeof(*mr));
	t_uv_name("mr_memory", mr_memory, sizeof(mr_memory));
	t_diff_resp("reg_mr_resp", &resp, sizeof(resp));
	ret = ibv_cmd_reg_mr(pd, mr_memory, 4096, 0x7000,
			     IBV_ACCESS_LOCAL_WRITE, mr, &cmd.ibv_cmd,
			     sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("reg_mr", ret);
	t_diff_resp_done("reg_mr_resp", &resp, sizeof(resp));
	t_uv_dump("mr", mr, sizeof(*mr));
	return ret;
}

TDRV_RESP(create_ah, ib_uverbs_create_ah_resp);

int t_diff_ah(struct ibv_pd *pd, struct ibv_ah *ah)
{
	struct tdrv_create_ah_resp resp;
	struct ibv_ah_attr attr;
	int ret;

	memset(ah, 0, sizeof(*ah));
	t_diff_stale(&attr, sizeof(attr));
	memset(attr.grh.dgid.raw, 0xfe, sizeof(attr.grh.dgid.raw));
	attr.grh.flow_label = 0x12345;
	attr.grh.sgid_index = 1;
	attr.grh.hop_limit = 64;
	attr.grh.traffic_class = 3;
	attr.dlid = 0x22;
	attr.sl = 1;
	attr.src_path_bits = 0;
	attr.static_rate = 0;
	attr.is_global = 1;
	attr.port_num = 1;
	t_uv_name("ah", ah, sizeof(*ah));
	t_diff_resp("create_ah_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_ah(pd, ah, &attr, &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("create_ah", ret);
	t_diff_resp_done("create_ah_resp", &resp, sizeof(resp));
	t_uv_dump("ah", ah, sizeof(*ah));
	return ret;
}

struct t_diff_decoys t_decoy;

/*
 * Objects a case leaves in a pointer its mask does not cover: a library
 * that reads one shows the decoy's handle (0xdd..) in the trace instead
 * of crashing on a stale pointer.
 */
void t_diff_decoys(struct ibv_context *ctx)
{
	memset(&t_decoy, 0, sizeof(t_decoy));
	t_decoy.pd = (struct ibv_pd){ .context = ctx, .handle = 0xdd01 };
	t_decoy.cq.context = ctx;
	t_decoy.cq.handle = 0xdd02;
	t_decoy.srq.context = ctx;
	t_decoy.srq.handle = 0xdd03;
	t_decoy.xrcd.xrcd.context = ctx;
	t_decoy.xrcd.handle = 0xdd04;
	t_decoy.tbl.context = ctx;
	t_decoy.tbl.ind_tbl_handle = 0xdd05;
	t_decoy.ah.context = ctx;
	t_decoy.ah.handle = 0xdd06;
	t_uv_name("decoy", &t_decoy, sizeof(t_decoy));
}
