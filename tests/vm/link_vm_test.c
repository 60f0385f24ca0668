// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The link under rxe0 goes away while an RC QP has work in flight, and
 * comes back (the test VM, our library, the rxe provider the guest's
 * /etc names):
 *  - the port events arrive, IBV_EVENT_PORT_ERR then IBV_EVENT_PORT_ACTIVE;
 *  - a send posted while the link is down completes with an error status
 *    within seconds (rxe fails it at once with the netdev down; a lost
 *    packet would not end it, since rxe takes rc_connect()'s retry_cnt
 *    of 7 as "retry forever": wire_vm_test cuts a wire under QPs with a
 *    budget): nothing hangs;
 *  - once the link and its GID are back, a new QP pair moves data.
 * Exits 77 outside the VM.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "rc_connect.h"
#include "t_util.h"
#include "t_vm.h"

struct pair {
	struct ibv_cq *cq;
	struct ibv_qp *a, *b;
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static char buf[2][64];
static int gid_index;
static union ibv_gid gid;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void make_pair(struct pair *p)
{
	struct ibv_qp_init_attr a = { .qp_type = IBV_QPT_RC,
				      .cap = { .max_send_wr = 4,
					       .max_recv_wr = 4,
					       .max_send_sge = 1,
					       .max_recv_sge = 1 } };
	const char *failed = NULL;

	p->cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	T_CHECK(p->cq);
	a.send_cq = a.recv_cq = p->cq;
	p->a = ibv_create_qp(pd, &a);
	p->b = ibv_create_qp(pd, &a);
	T_CHECK(p->a && p->b);
	T_CHECK(!rc_connect(ibv_modify_qp, p->a, &gid, gid_index, p->b->qp_num,
			    &failed));
	T_CHECK(!rc_connect(ibv_modify_qp, p->b, &gid, gid_index, p->a->qp_num,
			    &failed));
}

static void free_pair(struct pair *p)
{
	T_CHECK(!ibv_destroy_qp(p->a) && !ibv_destroy_qp(p->b));
	T_CHECK(!ibv_destroy_cq(p->cq));
}

/* A receive on b, a send a -> b, both signalled. */
static void post(struct pair *p)
{
	struct ibv_sge rs = { (uintptr_t)buf[1], sizeof(buf[1]), mr->lkey };
	struct ibv_sge ss = { (uintptr_t)buf[0], sizeof(buf[0]), mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rs, .num_sge = 1 };
	struct ibv_send_wr swr = { .wr_id = 1,
				   .sg_list = &ss,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED };
	struct ibv_recv_wr *rbad;
	struct ibv_send_wr *sbad;

	T_CHECK(!ibv_post_recv(p->b, &rwr, &rbad));
	T_CHECK(!ibv_post_send(p->a, &swr, &sbad));
}

/*
 * Completions of the send (wr_id 1) and the receive (2), until @want of
 * them came or @secs passed; their statuses in @st. Returns how many.
 */
static int reap(struct pair *p, int want, double secs, enum ibv_wc_status st[3])
{
	double end = now() + secs;
	int got = 0;

	while (got < want && now() < end) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(p->cq, 1, &wc);

		T_CHECK(n >= 0);
		if (!n) {
			usleep(1000);
			continue;
		}
		T_CHECK(wc.wr_id == 1 || wc.wr_id == 2);
		st[wc.wr_id] = wc.status;
		got++;
	}
	return got;
}

static void set_link(const char *dev, const char *state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "ip link set %s %s", dev, state);
	T_CHECK(system(cmd) == 0);
}

/* The next async event within @secs, or -1. */
static int next_event(double secs)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int type;

	if (poll(&pfd, 1, (int)(secs * 1000)) != 1)
		return -1;
	T_CHECK(!ibv_get_async_event(ctx, &ev));
	type = ev.event_type;
	ibv_ack_async_event(&ev);
	return type;
}

/* Waits up to @secs for the port's GID at gid_index to be @gid again. */
static bool gid_back(double secs)
{
	double end = now() + secs;
	union ibv_gid g;

	while (now() < end) {
		if (!ibv_query_gid(ctx, 1, gid_index, &g) &&
		    !memcmp(&g, &gid, sizeof(g)))
			return true;
		usleep(20000);
	}
	return false;
}

int main(void)
{
	const char *dev = getenv("IBV_VM_RXE"), *netdev;
	enum ibv_wc_status st[3];
	struct pair p, q;
	double t0;
	int ev, got;

	netdev = getenv("IBV_VM_RXE_NETDEV");
	if (!getenv("IBV_VM") || !dev || !netdev ||
	    !getenv("IBV_VM_RXE_GID_INDEX")) {
		printf("runs in the test VM (tests/vm/run)\n");
		return 77;
	}
	gid_index = atoi(getenv("IBV_VM_RXE_GID_INDEX"));
	ctx = t_vm_open(dev);
	T_CHECK(ctx);
	T_CHECK(!ibv_query_gid(ctx, 1, gid_index, &gid));
	pd = ibv_alloc_pd(ctx);
	T_CHECK(pd);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(mr);

	/* The pair works while the link is up. */
	make_pair(&p);
	post(&p);
	memset(st, 0xff, sizeof(st));
	T_CHECK(reap(&p, 2, 10, st) == 2);
	T_CHECK(st[1] == IBV_WC_SUCCESS && st[2] == IBV_WC_SUCCESS);
	printf("link up: send and receive completed\n");

	/* Down: the port says so, and work in flight does not hang. */
	set_link(netdev, "down");
	ev = next_event(10);
	printf("link down: event %s\n",
	       ev < 0 ? "none" : ibv_event_type_str(ev));
	T_CHECK(ev == IBV_EVENT_PORT_ERR);
	/*
	 * The sender's QP fails the send and goes to ERROR; the receiver's
	 * stays sound, its receive posted until the QP is destroyed.
	 */
	t0 = now();
	post(&p);
	memset(st, 0xff, sizeof(st));
	got = reap(&p, 1, 10, st);
	printf("link down: send completed in %.1f s: %s\n", now() - t0,
	       got && st[1] <= IBV_WC_TM_RNDV_INCOMPLETE ?
		       ibv_wc_status_str(st[1]) :
		       "no completion");
	T_CHECK(got == 1 && st[1] != IBV_WC_SUCCESS &&
		st[1] <= IBV_WC_TM_RNDV_INCOMPLETE);

	/* Back up: the port and its GID return, a new pair moves data. */
	set_link(netdev, "up");
	ev = next_event(10);
	printf("link up again: event %s\n",
	       ev < 0 ? "none" : ibv_event_type_str(ev));
	T_CHECK(ev == IBV_EVENT_PORT_ACTIVE);
	T_CHECK(gid_back(10));
	make_pair(&q);
	post(&q);
	memset(st, 0xff, sizeof(st));
	T_CHECK(reap(&q, 2, 10, st) == 2);
	T_CHECK(st[1] == IBV_WC_SUCCESS && st[2] == IBV_WC_SUCCESS);
	printf("link up again: a new pair's send and receive completed\n");

	free_pair(&q);
	free_pair(&p);
	T_CHECK(!ibv_dereg_mr(mr) && !ibv_dealloc_pd(pd));
	T_CHECK(!ibv_close_device(ctx));
	printf("link: ok\n");
	return 0;
}
