// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_bench's lines: what one iteration of each line does in a worker,
 * on the objects the worker keeps between batches (struct wk), and the
 * table that names them. The control path (open, query, PD, MR, CQ, QP,
 * modify) first, then the traffic on QPs looped back on rxe0.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rc_connect.h"
#include "verbs_bench.h"

#define MSG_SIZE 64
#define SQ_DEPTH 32
#define RQ_DEPTH 64
#define CQ_DEPTH 256

/* Record the first failure; returns @err (positive errno) for chaining. */
static int fail(struct wk *w, int err, const char *what)
{
	if (!w->why[0])
		snprintf(w->why, sizeof(w->why), "%s: %s", what,
			 strerror(err ? err : EIO));
	return err ? err : EIO;
}

static int run_open_close(struct wk *w, unsigned int n)
{
	struct ibv_context *c;

	while (n--) {
		c = v.ibv_open_device(w->dev);
		if (!c)
			return fail(w, errno, "ibv_open_device");
		if (v.ibv_close_device(c))
			return fail(w, errno, "ibv_close_device");
	}
	return 0;
}

static int run_query_device(struct wk *w, unsigned int n)
{
	struct ibv_device_attr a;
	int ret;

	while (n--) {
		ret = v.ibv_query_device(w->ctx, &a);
		if (ret)
			return fail(w, ret, "ibv_query_device");
	}
	return 0;
}

/* What the header's inline ibv_query_port() compiles to in applications. */
static int run_query_port(struct wk *w, unsigned int n)
{
	struct verbs_context *vc = verbs_get_ctx_op(w->ctx, query_port);
	struct ibv_port_attr a;
	int ret;

	if (!vc)
		return fail(w, ENOSYS, "verbs_context query_port");
	while (n--) {
		ret = vc->query_port(w->ctx, 1, &a, sizeof(a));
		if (ret)
			return fail(w, ret, "query_port");
	}
	return 0;
}

static int run_query_gid(struct wk *w, unsigned int n)
{
	union ibv_gid g;

	while (n--)
		if (v.ibv_query_gid(w->ctx, 1, w->gid_index, &g))
			return fail(w, errno, "ibv_query_gid");
	return 0;
}

static int run_pd(struct wk *w, unsigned int n)
{
	struct ibv_pd *pd;
	int ret;

	while (n--) {
		pd = v.ibv_alloc_pd(w->ctx);
		if (!pd)
			return fail(w, errno, "ibv_alloc_pd");
		ret = v.ibv_dealloc_pd(pd);
		if (ret)
			return fail(w, ret, "ibv_dealloc_pd");
	}
	return 0;
}

static int reg_loop(struct wk *w, size_t len, unsigned int n)
{
	struct ibv_mr *mr;
	int ret;

	/* Fault the pages in once, so no batch pays for it. */
	if (w->touched < len) {
		memset(w->big + w->touched, 1, len - w->touched);
		w->touched = len;
	}
	while (n--) {
		mr = v.ibv_reg_mr(w->pd, w->big, len,
				  IBV_ACCESS_LOCAL_WRITE |
					  IBV_ACCESS_REMOTE_WRITE);
		if (!mr)
			return fail(w, errno, "ibv_reg_mr");
		ret = v.ibv_dereg_mr(mr);
		if (ret)
			return fail(w, ret, "ibv_dereg_mr");
	}
	return 0;
}

static int run_mr_4k(struct wk *w, unsigned int n)
{
	return reg_loop(w, 4096, n);
}

static int run_mr_1m(struct wk *w, unsigned int n)
{
	return reg_loop(w, 1UL << 20, n);
}

static int run_mr_64m(struct wk *w, unsigned int n)
{
	return reg_loop(w, BIG_BUF, n);
}

static int run_cq(struct wk *w, unsigned int n)
{
	struct ibv_cq *cq;
	int ret;

	while (n--) {
		cq = v.ibv_create_cq(w->ctx, 64, NULL, NULL, 0);
		if (!cq)
			return fail(w, errno, "ibv_create_cq");
		ret = v.ibv_destroy_cq(cq);
		if (ret)
			return fail(w, ret, "ibv_destroy_cq");
	}
	return 0;
}

static struct ibv_qp *new_qp(struct wk *w, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SQ_DEPTH,
			 .max_recv_wr = RQ_DEPTH,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return v.ibv_create_qp(w->pd, &ia);
}

static int run_qp(struct wk *w, unsigned int n)
{
	struct ibv_qp *qp;
	int ret;

	while (n--) {
		qp = new_qp(w, w->cq);
		if (!qp)
			return fail(w, errno, "ibv_create_qp");
		ret = v.ibv_destroy_qp(qp);
		if (ret)
			return fail(w, ret, "ibv_destroy_qp");
	}
	return 0;
}

/* RESET -> INIT -> RTR -> RTS, the remote end being @dest_qpn on our GID. */
static int connect_qp(struct wk *w, struct ibv_qp *qp, uint32_t dest_qpn)
{
	const char *failed;
	int ret = rc_connect(v.ibv_modify_qp, qp, &w->gid, w->gid_index,
			     dest_qpn, &failed);

	return ret ? fail(w, ret, failed) : 0;
}

/* One iteration: RESET -> INIT -> RTR -> RTS, then back to RESET. */
static int run_modify(struct wk *w, unsigned int n)
{
	struct ibv_qp_attr reset = { .qp_state = IBV_QPS_RESET };
	int ret;

	if (!w->mqp) {
		w->mqp = new_qp(w, w->cq);
		if (!w->mqp)
			return fail(w, errno, "ibv_create_qp");
	}
	while (n--) {
		ret = connect_qp(w, w->mqp, w->mqp->qp_num);
		if (ret)
			return ret;
		ret = v.ibv_modify_qp(w->mqp, &reset, IBV_QP_STATE);
		if (ret)
			return fail(w, ret, "modify_qp RESET");
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Worker: traffic on rxe0, looped back                               */

static int post_recv(struct wk *w, struct ibv_qp *qp, unsigned int k)
{
	struct ibv_sge sge = { (uintptr_t)w->small + TRAFFIC_BUF / 2, MSG_SIZE,
			       w->t.mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int ret = 0;

	while (k-- && !ret)
		ret = ibv_post_recv(qp, &wr, &bad);
	return ret ? fail(w, ret, "ibv_post_recv") : 0;
}

static int post_one(struct wk *w, struct ibv_qp *qp, enum ibv_wr_opcode op)
{
	struct ibv_sge sge = { (uintptr_t)w->small, MSG_SIZE, w->t.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	wr.wr.rdma.remote_addr = (uintptr_t)w->small + TRAFFIC_BUF / 4;
	wr.wr.rdma.rkey = w->t.mr->rkey;
	ret = ibv_post_send(qp, &wr, &bad);
	return ret ? fail(w, ret, "ibv_post_send") : 0;
}

static int build_traffic(struct wk *w)
{
	struct traffic *t = &w->t;
	int i;

	t->mr = v.ibv_reg_mr(w->pd, w->small, TRAFFIC_BUF,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!t->mr)
		return fail(w, errno, "ibv_reg_mr (traffic)");
	for (i = 0; i < 3; i++) {
		t->cq[i] = v.ibv_create_cq(w->ctx, CQ_DEPTH, NULL, NULL, 0);
		if (!t->cq[i])
			return fail(w, errno, "ibv_create_cq (traffic)");
		t->qp[i] = new_qp(w, t->cq[i]);
		if (!t->qp[i])
			return fail(w, errno, "ibv_create_qp (traffic)");
	}
	return connect_qp(w, t->qp[0], t->qp[0]->qp_num)	 ?:
		       connect_qp(w, t->qp[1], t->qp[2]->qp_num) ?:
		       connect_qp(w, t->qp[2], t->qp[1]->qp_num) ?:
		       post_recv(w, t->qp[0], RQ_DEPTH)		 ?:
		       post_recv(w, t->qp[1], RQ_DEPTH)		 ?:
		       post_recv(w, t->qp[2], RQ_DEPTH);
}

static int ensure_traffic(struct wk *w)
{
	int ret;

	if (w->t.ready)
		return 0;
	ret = build_traffic(w);
	w->t.ready = !ret;
	return ret;
}

/* Counts of what a batch on one QP has seen complete. */
struct flow {
	unsigned int sent, send_done, recv_done;
};

/* Poll @cq once; receives are posted again at once. */
static int reap(struct wk *w, int q, struct flow *f)
{
	struct ibv_wc wc[16];
	int i, n = ibv_poll_cq(w->t.cq[q], 16, wc);

	if (n < 0)
		return fail(w, EIO, "ibv_poll_cq");
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			snprintf(w->why, sizeof(w->why), "completion: %s",
				 v.ibv_wc_status_str(wc[i].status));
			return EIO;
		}
		if (wc[i].opcode & IBV_WC_RECV) {
			f->recv_done++;
			if (post_recv(w, w->t.qp[q], 1))
				return EIO;
		} else {
			f->send_done++;
		}
	}
	return 0;
}

/*
 * @n messages on the QP looped to itself, up to SQ_DEPTH in flight. A
 * SEND needs a receive: never more sends outstanding than the receive
 * queue holds (it is refilled as receives complete).
 */
static int run_rate(struct wk *w, unsigned int n, enum ibv_wr_opcode op)
{
	bool send = op == IBV_WR_SEND;
	struct flow f = { 0 };
	int ret = ensure_traffic(w);

	while (!ret && (f.send_done < n || (send && f.recv_done < n))) {
		while (!ret && f.sent < n && f.sent - f.send_done < SQ_DEPTH &&
		       (!send || f.sent - f.recv_done < RQ_DEPTH)) {
			ret = post_one(w, w->t.qp[0], op);
			f.sent++;
		}
		ret = ret ?: reap(w, 0, &f);
	}
	return ret;
}

static int run_write_rate(struct wk *w, unsigned int n)
{
	return run_rate(w, n, IBV_WR_RDMA_WRITE);
}

static int run_send_rate(struct wk *w, unsigned int n)
{
	return run_rate(w, n, IBV_WR_SEND);
}

/* Send from QP @from and poll until its peer has received it. */
static int hop(struct wk *w, int from, struct flow *f)
{
	int to = 3 - from, ret;
	unsigned int want = f[to].recv_done + 1;

	ret = post_one(w, w->t.qp[from], IBV_WR_SEND);
	f[from].sent++;
	while (!ret && f[to].recv_done < want)
		ret = reap(w, to, &f[to]);
	return ret;
}

/* @n round trips 1 -> 2 -> 1, then the send completions are collected. */
static int run_pingpong(struct wk *w, unsigned int n)
{
	struct flow f[3] = { { 0 } };
	int ret = ensure_traffic(w);

	while (!ret && n--)
		ret = hop(w, 1, f) ?: hop(w, 2, f);
	while (!ret &&
	       (f[1].send_done < f[1].sent || f[2].send_done < f[2].sent))
		ret = reap(w, 1, &f[1]) ?: reap(w, 2, &f[2]);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The lines                                                          */

const struct line lines[] = {
	{ "open+close device", run_open_close, U_OP, false },
	{ "query device", run_query_device, U_OP, false },
	{ "query port", run_query_port, U_OP, false },
	{ "query GID", run_query_gid, U_OP, false },
	{ "alloc+dealloc PD", run_pd, U_OP, false },
	{ "reg+dereg MR 4 KiB", run_mr_4k, U_OP, false },
	{ "reg+dereg MR 1 MiB", run_mr_1m, U_OP, false },
	{ "reg+dereg MR 64 MiB", run_mr_64m, U_OP, false },
	{ "create+destroy CQ", run_cq, U_OP, false },
	{ "create+destroy QP", run_qp, U_OP, false },
	{ "modify QP to RTS (+RESET)", run_modify, U_OP, false },
	{ "RDMA WRITE 64 B rate", run_write_rate, U_MSG, false },
	{ "SEND 64 B rate", run_send_rate, U_MSG, false },
	{ "SEND ping-pong 64 B", run_pingpong, U_RTT, false },
	{ "reg+dereg MR 4 KiB fork-safe", run_mr_4k, U_OP, true },
	{ "reg+dereg MR 1 MiB fork-safe", run_mr_1m, U_OP, true },
	{ "reg+dereg MR 64 MiB fork-safe", run_mr_64m, U_OP, true },
};

const unsigned int num_lines = sizeof(lines) / sizeof(lines[0]);
