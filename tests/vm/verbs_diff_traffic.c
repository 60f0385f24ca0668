// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps that move data: RDMA WRITE and SEND/RECV on an RC QP
 * connected to itself, on rxe (it needs a GID to reach itself).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "verbs_diff.h"

/* Poll until one completion arrives, for at most 2 s. */
static int t_poll1(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n = 0;

	for (i = 0; i < 2000 && !n; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (!n)
			usleep(1000);
	}
	return n;
}

static void t_wc(const char *key, int n, const struct ibv_wc *wc, bool len)
{
	if (n != 1) {
		t_out("%s=none(%d)", key, n);
		return;
	}
	t_out("%s.status=%s %s.opcode=%d", key,
	      lib.ibv_wc_status_str ? lib.ibv_wc_status_str(wc->status) : "?",
	      key, wc->opcode);
	if (len)
		t_out("%s.byte_len=%u", key, wc->byte_len);
}

/* An RC QP connected to itself, and one registered page to move. */
struct t_bufs {
	struct ibv_mr *mr;
	struct ibv_qp *qp;
};

static void t_traffic_setup(struct t_st *st, struct t_bufs *b)
{
	static char mem[4096] __attribute__((aligned(4096)));

	memset(mem, 0, sizeof(mem));
	memcpy(mem, "verbs_diff payload", 19);
	b->mr = t_reg(st, mem, sizeof(mem),
		      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ);
	if (!b->mr)
		t_setup_failed("reg_mr");
	b->qp = t_qp(st, IBV_QPT_RC, 4, true);
	t_loopback(st, b->qp, true);
}

/*
 * Post a signaled @op (wr_id 1) of the page's first @len bytes; an RDMA
 * WRITE lands @off bytes into the page.
 */
static int t_post_send(struct t_bufs *b, enum ibv_wr_opcode op, uint32_t len,
		       uint32_t off)
{
	char *mem = b->mr->addr;
	struct ibv_sge sge = { (uintptr_t)mem, len, b->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad = NULL;

	if (op == IBV_WR_RDMA_WRITE) {
		wr.wr.rdma.remote_addr = (uintptr_t)mem + off;
		wr.wr.rdma.rkey = b->mr->rkey;
	}
	return ibv_post_send(b->qp, &wr, &bad);
}

/* Post a receive (wr_id 2) of @len bytes, @off bytes into the page. */
static int t_post_recv(struct t_bufs *b, uint32_t len, uint32_t off)
{
	char *mem = b->mr->addr;
	struct ibv_sge sge = { (uintptr_t)mem + off, len, b->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 },
			   *bad = NULL;

	return ibv_post_recv(b->qp, &wr, &bad);
}

static void s_traffic_write(struct t_st *st)
{
	struct ibv_wc wc;
	struct t_bufs b;
	char *mem;

	t_traffic_setup(st, &b);
	mem = b.mr->addr;
	errno = 0;
	t_rc("ret", t_post_send(&b, IBV_WR_RDMA_WRITE, 64, 2048));
	t_wc("send", t_poll1(st->cq, &wc), &wc, false);
	t_out("data-ok=%d", !memcmp(mem, mem + 2048, 64));
}

static void s_traffic_send_recv(struct t_st *st)
{
	struct ibv_wc wc[2];
	struct t_bufs b;
	char *mem;
	int n;

	t_traffic_setup(st, &b);
	mem = b.mr->addr;
	errno = 0;
	t_rc("recv", t_post_recv(&b, 256, 1024));
	errno = 0;
	t_rc("ret", t_post_send(&b, IBV_WR_SEND, 32, 0));
	/* The order of the two completions is not fixed: sort by wr_id. */
	n = t_poll1(st->cq, &wc[0]);
	n += n ? t_poll1(st->cq, &wc[1]) : 0;
	if (n == 2 && wc[0].wr_id == 2) {
		struct ibv_wc t = wc[0];

		wc[0] = wc[1];
		wc[1] = t;
	}
	t_wc("send", n == 2 ? 1 : n, &wc[0], false);
	t_wc("recv", n == 2 ? 1 : n, &wc[1], true);
	t_out("data-ok=%d", !memcmp(mem, mem + 1024, 32));
}

/* Post a send larger than the receive buffer: a local length error. */
static void s_traffic_recv_short(struct t_st *st)
{
	int n, recv_status = -1;
	struct ibv_wc wc;
	struct t_bufs b;

	t_traffic_setup(st, &b);
	if (t_post_recv(&b, 16, 1024))
		t_setup_failed("post_recv");
	errno = 0;
	t_rc("ret", t_post_send(&b, IBV_WR_SEND, 128, 0));
	/* Both sides complete in error; report the receive side's status. */
	while ((n = t_poll1(st->cq, &wc)) == 1)
		if (wc.wr_id == 2)
			recv_status = wc.status;
	t_out("recv.status=%s",
	      recv_status < 0	    ? "none" :
	      lib.ibv_wc_status_str ? lib.ibv_wc_status_str(recv_status) :
				      "?");
}

static const struct t_step traffic_steps[] = {
	{ "traffic.rdma_write", T_CQ | T_RXE, s_traffic_write },
	{ "traffic.send_recv", T_CQ | T_RXE, s_traffic_send_recv },
	{ "traffic.recv_too_short", T_CQ | T_RXE, s_traffic_recv_short },
};

const struct t_steps t_traffic_steps = T_STEPS(traffic_steps);
