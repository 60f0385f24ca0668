// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: errors the kernel reports through the CQ.
 * RNR with rnr_retry 0, transport retries exhausted towards a peer that
 * is gone or in ERROR, and the flush of every outstanding work request
 * when a QP moves to ERROR.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rxe_conf.h"

static struct buf ba, bb;

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr i;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &i))
		return (enum ibv_qp_state) - 1;
	return a.qp_state;
}

static void send_n(struct ibv_qp *qp, uint64_t first, int n,
		   enum ibv_wr_opcode op)
{
	for (int i = 0; i < n; i++) {
		struct ibv_send_wr wr = {
			.wr_id = first + (uint64_t)i,
			.opcode = op,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { (uintptr_t)bb.p, bb.mr->rkey },
		};

		post_send1(qp, &wr, &ba, 0, 64);
	}
}

/* @n completions from @first on, all with status @want. */
static void expect_all(const char *name, struct ibv_cq *cq, uint64_t first,
		       int n, enum ibv_wc_status want)
{
	struct ibv_wc wc[32];
	int got = poll_n(cq, wc, n, 5000);
	int bad = 0;

	for (int i = 0; i < got; i++)
		if (wc[i].status != want || wc[i].wr_id != first + (uint64_t)i)
			bad++;
	check(name, got == n && !bad && cq_quiet(cq, 100),
	      "%d of %d WRs completed with %s, in order (%d wrong)", got, n,
	      st(want), bad);
}

static void e_rnr(void)
{
	struct path p = { .timeout = 14, .retry_cnt = 7, .rnr_retry = 0 };
	struct qp_opts o = { 0 };
	struct side a, b;
	int ret;

	ret = pair_new(&a, &b, &o, &p);
	if (!check("rnr.setup", !ret, "RC pair, rnr_retry 0, ret=%d", ret))
		return;
	send_n(a.qp, 300, 1, IBV_WR_SEND);
	expect_all("rnr.status", a.cq, 300, 1, IBV_WC_RNR_RETRY_EXC_ERR);
	check("rnr.state", qp_state(a.qp) == IBV_QPS_ERR,
	      "the sender is in ERROR");
	send_n(a.qp, 301, 2, IBV_WR_SEND);
	expect_all("rnr.after", a.cq, 301, 2, IBV_WC_WR_FLUSH_ERR);
	pair_free(&a, &b);
}

/* Retries exhausted: the peer QP destroyed, or moved to ERROR. */
static void e_retry(bool destroy)
{
	struct path p = { .timeout = 8, .retry_cnt = 2, .rnr_retry = 7 };
	const char *n = destroy ? "retry.gone" : "retry.peer_error";
	struct qp_opts o = { 0 };
	struct side a, b;
	char name[64];
	int ret;

	ret = pair_new(&a, &b, &o, &p);
	if (!check(n, !ret, "RC pair, timeout 8 retry_cnt 2, ret=%d", ret))
		return;
	if (destroy) {
		ibv_destroy_qp(b.qp);
		b.qp = NULL;
	} else {
		qp_to_error(b.qp);
	}
	send_n(a.qp, 400, 1, IBV_WR_RDMA_WRITE);
	snprintf(name, sizeof(name), "%s.status", n);
	expect_all(name, a.cq, 400, 1, IBV_WC_RETRY_EXC_ERR);
	snprintf(name, sizeof(name), "%s.state", n);
	check(name, qp_state(a.qp) == IBV_QPS_ERR, "the sender is in ERROR");
	pair_free(&a, &b);
}

static void e_flush(void)
{
	struct path p = { .timeout = 20, .retry_cnt = 7, .rnr_retry = 7 };
	struct qp_opts o = { 0 };
	struct side a, b;
	int ret;

	ret = pair_new(&a, &b, &o, &p);
	if (!check("flush.setup", !ret, "RC pair, ret=%d", ret))
		return;
	for (int i = 0; i < 5; i++)
		post_recv1(b.qp, 500 + (uint64_t)i, &bb, (size_t)i * 64, 64);
	ret = qp_to_error(b.qp);
	check("flush.recv.modify", !ret, "receiver to ERROR, ret=%d", ret);
	expect_all("flush.recv", b.cq, 500, 5, IBV_WC_WR_FLUSH_ERR);
	for (int i = 0; i < 3; i++)
		post_recv1(b.qp, 510 + (uint64_t)i, &bb, (size_t)i * 64, 64);
	/*
	 * Receives posted in ERROR: rdma_rxe flushes them only when its
	 * responder runs; our librxe kicks it with an empty POST_RECV,
	 * Debian's leaves them in the queue until something else does.
	 */
	{
		struct ibv_wc wc[3];
		int got = poll_n(b.cq, wc, 3, C.ours ? 3000 : 300);
		bool flushed = got == 3;

		for (int i = 0; i < got; i++)
			flushed &= wc[i].status == IBV_WC_WR_FLUSH_ERR &&
				   wc[i].wr_id == 510 + (uint64_t)i;
		note("flush.recv.in_error", "%d of 3 flushed", got);
		check("flush.recv.in_error", C.ours ? flushed : got == 0,
		      "the answer pinned for this provider");
	}

	/* Sends that wait for an answer which cannot come (timeout 4 s). */
	ibv_destroy_qp(b.qp);
	b.qp = NULL;
	send_n(a.qp, 600, 4, IBV_WR_RDMA_WRITE);
	usleep(100000);
	check("flush.send.pending", cq_quiet(a.cq, 10),
	      "no completion yet while the peer does not answer");
	ret = qp_to_error(a.qp);
	check("flush.send.modify", !ret, "sender to ERROR, ret=%d", ret);
	expect_all("flush.send", a.cq, 600, 4, IBV_WC_WR_FLUSH_ERR);
	send_n(a.qp, 610, 3, IBV_WR_SEND);
	expect_all("flush.send.in_error", a.cq, 610, 3, IBV_WC_WR_FLUSH_ERR);
	pair_free(&a, &b);
}

void conf_err(void)
{
	if (buf_new(&ba, 4096) || buf_new(&bb, 4096)) {
		check("err.setup", false, "buffers");
		return;
	}
	e_rnr();
	e_retry(true);
	e_retry(false);
	e_flush();
	buf_free(&ba);
	buf_free(&bb);
}
