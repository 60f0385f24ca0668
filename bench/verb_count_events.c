// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verb_count's completion events: QP a's CQ sits on a completion
 * channel; each round arms it, posts one signalled RDMA WRITE from a to
 * b (uncounted), waits for the channel to become readable, and then
 * counts ibv_get_cq_event() and ibv_ack_cq_events(). The two QPs are
 * those of wr_count: on rxe connected to each other through the port's
 * GID (wr_count_qps.c), on siw the two ends of an rdma_cm connection
 * (wr_count_cm.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "verb_count.h"

#define WAIT_MS 10000 /* for an event or a completion, under valgrind */

void vc_setup(struct vc *v)
{
	v->w.attr = (struct ibv_qp_init_attr){
		.cap = { .max_send_wr = WRC_DEPTH,
			 .max_recv_wr = WRC_DEPTH,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	v->w.events = true;
	if (v->iwarp) {
		wrc_connect_cm(&v->w, v->dev_name,
			       getenv("IBV_VM_SIW_ADDR") ?: "");
		return;
	}
	v->w.ctx = v->ctx;
	wrc_resources(&v->w);
	wrc_connect_gid(&v->w, &v->gid, v->gid_index);
}

static void wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, WAIT_MS) != 1)
		die("no completion event in %d ms", WAIT_MS);
}

/* The one completion of the round, polled with plain calls. */
static void reap(struct ibv_cq *cq)
{
	struct timespec pause = { 0, 100 * 1000 };
	struct ibv_wc wc;
	int ret, tries = WAIT_MS * 10;

	while (!(ret = ibv_poll_cq(cq, 1, &wc)) && --tries)
		nanosleep(&pause, NULL);
	if (ret != 1)
		die("ibv_poll_cq: %d", ret);
	if (wc.status != IBV_WC_SUCCESS)
		die("completion %s", ibv_wc_status_str(wc.status));
}

static void write_a_to_b(struct wrc *w)
{
	struct ibv_sge src = { (uintptr_t)w->buf, WRC_MSG, w->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &src,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	int ret;

	wr.wr.rdma.remote_addr = (uintptr_t)w->buf + WRC_MSG;
	wr.wr.rdma.rkey = w->mr->rkey;
	ret = vc_op_post_send(w->a, &wr);
	vc_note(VC_POST_SEND, ret);
	if (ret)
		die("ibv_post_send: %s", strerror(ret));
}

/*
 * The completion the event announced: the provider wrote it before the
 * kernel signalled the channel, so one poll finds it, on every round.
 */
static void poll_one(struct ibv_cq *cq)
{
	struct ibv_wc wc;
	int ret = vc_op_poll_cq(cq, &wc);

	vc_note(VC_POLL_CQ, ret == 1 ? 0 : EAGAIN);
	if (ret != 1)
		reap(cq);
	else if (wc.status != IBV_WC_SUCCESS)
		die("completion %s", ibv_wc_status_str(wc.status));
}

void vc_run_events(struct vc *v, int n)
{
	struct wrc *w = &v->w;
	struct ibv_cq *cq;
	void *cq_context;
	int ret;

	for (int i = 0; i < n; i++) {
		if (ibv_req_notify_cq(w->cq_a, 0))
			die("ibv_req_notify_cq failed");
		write_a_to_b(w);
		wait_readable(w->channel->fd);
		ret = vc_op_get_cq_event(w->channel, &cq, &cq_context);
		vc_note(VC_GET_CQ_EVENT, ret);
		if (ret) {
			vc_skip(VC_ACK_CQ_EVENTS, "get_cq_event failed");
			reap(w->cq_a);
			continue;
		}
		if (cq != w->cq_a)
			die("an event for another CQ");
		vc_op_ack_cq_events(cq);
		vc_note(VC_ACK_CQ_EVENTS, 0);
		poll_one(w->cq_a);
	}
}
