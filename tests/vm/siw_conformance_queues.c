// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw_conformance_vm_test: SRQ (limit event, wrap-around), CQ overflow,
 * flush on the error state and on disconnect, the doorbell of a QP not
 * in RTS, the fenced READ and solicited-only notification.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/siw-abi.h>

#include "siw_conformance.h"

#define WAIT_MS 3000

/* @n SENDs of 8 bytes from @sg, wr_id @id0.., one call. */
static int sends(struct ibv_qp *qp, struct ibv_sge *sg, uint64_t id0, int n,
		 unsigned flags)
{
	struct ibv_send_wr wr[16], *bad;

	for (int i = 0; i < n; i++) {
		wr[i] = send_wr(id0 + (uint64_t)i, sg, 1, IBV_WR_SEND, flags);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	return post_send(qp, wr, &bad);
}

/*
 * post_recv on a QP that receives through an SRQ, in a child process:
 * ours refuses it (EINVAL); Debian's libsiw 44 writes through the QP's
 * receive ring, which such a QP does not have, and dies of SIGSEGV.
 */
static void srq_qp_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		_exit(ibv_post_recv(qp, wr, &bad) == EINVAL ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return check(false, "srq_qp_post_recv", "no child");
	if (t.ours)
		check(WIFEXITED(status) && !WEXITSTATUS(status),
		      "srq_qp_post_recv_refused", "status %#x", status);
	else
		check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		      "srq_qp_post_recv_debian_segv", "status %#x", status);
}

void t_srq(void)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16,
						  .max_sge = 1 } };
	struct ibv_srq *srq = ibv_create_srq(t.b.pd, &sa);
	struct ibv_srq_attr lim = { .srq_limit = 4 };
	struct ibv_qp_init_attr s;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_sge sg, rs;
	struct ibv_wc wc[16];
	struct rig r = {};
	int missing = 0, bad_status = 0;
	uint64_t id = 0;

	if (!srq || rig_make(&r, 32, 0, 16, 1, 2))
		return check(false, "srq_setup", "no pair");
	s = r.a;
	s.srq = srq;
	if (pair_up(&r.p, &r.a, &s))
		return check(false, "srq_setup", "no pair");
	sg = sge_of(r.m, 0, 8);
	rs = sge_of(r.m, 1024, 8);
	rwr = (struct ibv_recv_wr){ .wr_id = 1, .sg_list = &rs, .num_sge = 1 };
	srq_qp_recv(r.p.s, &rwr);
	CHECK_EQ("srq_modify_limit", ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT),
		 0);
	for (int i = 0; i < 8; i++)
		CHECK_EQ("srq_posted", ibv_post_srq_recv(srq, &rwr, &rbad), 0);
	/* 8 posted, 5 taken: 3 left, under the limit of 4. */
	CHECK_EQ("srq_sends", sends(r.p.c, &sg, 0, 5, IBV_SEND_SIGNALED), 0);
	CHECK_EQ("srq_completions", poll_wc(r.scq, 10, wc, WAIT_MS), 10);
	CHECK_EQ("srq_limit_event",
		 async_event(IBV_EVENT_SRQ_LIMIT_REACHED, WAIT_MS), 1);
	/* Drain the three left, then lap the ring: 12 a round, 10 rounds. */
	CHECK_EQ("srq_drain", sends(r.p.c, &sg, 0, 3, IBV_SEND_SIGNALED), 0);
	CHECK_EQ("srq_drain_completions", poll_wc(r.scq, 6, wc, WAIT_MS), 6);
	for (int round = 0; round < 10; round++) {
		for (int i = 0; i < 12; i++) {
			rwr.wr_id = id + (uint64_t)i;
			ibv_post_srq_recv(srq, &rwr, &rbad);
		}
		if (sends(r.p.c, &sg, id, 12, 0)) {
			missing = -1;
			break;
		}
		missing += 12 - poll_wc(r.scq, 12, wc, WAIT_MS);
		for (int i = 0; i < 12; i++)
			bad_status += wc[i].status ||
				      wc[i].wr_id != id + (uint64_t)i ||
				      wc[i].opcode != IBV_WC_RECV;
		id += 12;
	}
	CHECK_EQ("srq_wrap_120_receives", missing, 0);
	CHECK_EQ("srq_wrap_in_order", bad_status, 0);
	rig_down(&r);
	ibv_destroy_srq(srq);
}

/*
 * A send CQ of 4 entries and 8 signalled WRITEs: the kernel places 4,
 * drops the others (siw_sqe_complete() finds the slot taken) and raises
 * IBV_EVENT_CQ_ERR.
 */
void t_overflow(void)
{
	struct ibv_send_wr wr[8], *bad;
	struct ibv_sge sg;
	struct ibv_wc wc[16];
	struct rig r = {};
	int n;

	if (rig_up(&r, 4, 16, 16, 1, 3))
		return check(false, "overflow_setup", "no pair");
	CHECK_EQ("overflow_cq_depth", r.scq->cqe, 4);
	sg = sge_of(r.m, 0, 16);
	for (int i = 0; i < 8; i++) {
		wr[i] = send_wr((uint64_t)i, &sg, 1, IBV_WR_RDMA_WRITE,
				IBV_SEND_SIGNALED);
		set_remote(&wr[i], r.m, 2048);
		wr[i].next = i < 7 ? &wr[i + 1] : NULL;
	}
	CHECK_EQ("overflow_posted", post_send(r.p.c, wr, &bad), 0);
	CHECK_EQ("overflow_cq_err_event",
		 async_event(IBV_EVENT_CQ_ERR, WAIT_MS), 1);
	n = poll_wc(r.scq, 16, wc, 500);
	CHECK_EQ("overflow_kept", n, 4);
	for (int i = 0; i < n; i++)
		CHECK_EQ("overflow_kept_in_order", wc[i].wr_id, i);
	/* The CQ works again once drained. */
	wr[0].next = NULL;
	wr[0].wr_id = 99;
	CHECK_EQ("overflow_after_posted", post_send(r.p.c, wr, &bad), 0);
	n = poll_wc(r.scq, 1, wc, WAIT_MS);
	CHECK_EQ("overflow_after_completes", n, 1);
	if (n == 1) {
		CHECK_EQ("overflow_after_wr_id", wc[0].wr_id, 99);
		CHECK_EQ("overflow_after_status", wc[0].status, 0);
	}
	rig_down(&r);
}

/* @n flushed receives with wr_id @id0.. in order on @cq. */
static void check_flushed(const char *what, struct ibv_cq *cq, uint64_t id0,
			  int n, enum ibv_wc_opcode op)
{
	struct ibv_wc wc[16];
	char name[64];
	int got = poll_wc(cq, 16, wc, 500), wrong = 0;

	snprintf(name, sizeof(name), "%s_flushed", what);
	CHECK_EQ(name, got, n);
	for (int i = 0; i < got; i++)
		wrong += wc[i].status != IBV_WC_WR_FLUSH_ERR ||
			 wc[i].wr_id != id0 + (uint64_t)i || wc[i].opcode != op;
	snprintf(name, sizeof(name), "%s_flush_status_order_opcode", what);
	CHECK_EQ(name, wrong, 0);
}

void t_flush(void)
{
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sg, rs;
	struct ibv_wc wc[4];
	struct rig r = {};

	if (rig_up(&r, 16, 16, 16, 1, 4))
		return check(false, "flush_setup", "no pair");
	sg = sge_of(r.m, 0, 8);
	rs = sge_of(r.m, 1024, 64);
	for (int i = 0; i < 5; i++)
		post_recv(r.p.s, 0x100 + (uint64_t)i, &rs, 1);
	CHECK_EQ("flush_modify_err", ibv_modify_qp(r.p.s, &err, IBV_QP_STATE),
		 0);
	check_flushed("flush_rq", r.rcq, 0x100, 5, IBV_WC_RECV);
	/*
	 * Posted after the error state: the kernel accepts the doorbell
	 * (siw_post_send() flushes only a kernel QP's list, empty here) and
	 * never completes the elements; with either provider.
	 */
	wr = send_wr(0x200, &sg, 1, IBV_WR_SEND, IBV_SEND_SIGNALED);
	CHECK_EQ("err_post_send", post_send(r.p.s, &wr, &bad), 0);
	CHECK_EQ("err_post_recv", post_recv(r.p.s, 0x300, &rs, 1), 0);
	CHECK_EQ("err_send_no_completion", poll_wc(r.scq, 4, wc, 300), 0);
	CHECK_EQ("err_recv_no_completion", poll_wc(r.rcq, 4, wc, 300), 0);
	cm_pair_destroy(&r.p);

	/* Receives outstanding when the peer disconnects are flushed. */
	if (pair_up(&r.p, &r.a, &r.a))
		return;
	for (int i = 0; i < 3; i++)
		post_recv(r.p.c, 0x400 + (uint64_t)i, &rs, 1);
	CHECK_EQ("disconnect", cm_pair_disconnect(&t.b, &r.p, r.p.sid), 0);
	check_flushed("disconnect_rq", r.rcq, 0x400, 3, IBV_WC_RECV);
	rig_down(&r);
}

/* Posts two receives on the passive QP before it accepts. */
static void two_recvs(struct ibv_qp *s, void *arg)
{
	struct ibv_sge *rs = arg;

	post_recv(s, 0xe0, rs, 1);
	post_recv(s, 0xe1, rs, 1);
}

/*
 * post_send on a QP that is not in RTS yet (created by rdma_cm, INIT):
 * the kernel refuses the doorbell (ENOTCONN, siw_post_send()) and the
 * element stays valid in the ring. Ours reports it posted
 * (providers/README.md, "Doorbell failures": the kernel's CM, not the
 * provider, moves the QP to RTS, so the element cannot be proven
 * untaken) and owes the kernel a doorbell: the first post after the
 * connection rings it, and both WRs go out, in order, each once.
 * Debian's libsiw 44 returns -1 with no bad_wr and leaves the element;
 * it then rings no doorbell while the element before is still valid,
 * so its QP sends nothing at all.
 */
void t_doorbell(void)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sg, rs;
	struct ibv_wc wc[4];
	struct rig r = { .p = { .before_accept = two_recvs, .arg = &rs } };
	int ret, n;

	if (rig_make(&r, 16, 16, 16, 1, 5) || cm_pair_prepare(&t.b, &r.p, &r.a))
		return check(false, "doorbell_setup", "no QP");
	sg = sge_of(r.m, 0, 8);
	/* two_recvs() posts this when the pair connects. */
	rs = sge_of(r.m, 1024, 64);
	wr = send_wr(0xd0, &sg, 1, IBV_WR_SEND, IBV_SEND_SIGNALED);
	bad = NULL;
	ret = post_send(r.p.c, &wr, &bad);
	CHECK_EQ("doorbell_init_posted", ret, t.ours ? 0 : -1);
	check(!bad, "doorbell_init_bad_wr", "bad_wr %p", (void *)bad);
	if (cm_pair_connect(&t.b, &r.p, &r.a))
		return check(false, "doorbell_connect", "no pair");
	wr.wr_id = 0xd1;
	CHECK_EQ("doorbell_rts_posted", post_send(r.p.c, &wr, &bad), 0);
	n = poll_wc(r.scq, 4, wc, 500);
	CHECK_EQ("doorbell_rts_sent", n, t.ours ? 2 : 0);
	if (n == 2) {
		CHECK_EQ("doorbell_rts_sent_first", wc[0].wr_id, 0xd0);
		CHECK_EQ("doorbell_rts_sent_status", wc[0].status, 0);
		CHECK_EQ("doorbell_rts_sent_second", wc[1].wr_id, 0xd1);
	}
	CHECK_EQ("doorbell_rts_received", poll_wc(r.rcq, 4, wc, 500),
		 t.ours ? 2 : 0);
	rig_down(&r);
}

/*
 * A READ with IBV_SEND_FENCE: the kernel refuses SIW_WQE_READ_FENCE on
 * a READ when it takes the element (siw_activate_tx(): "cannot fence
 * read"), inside the doorbell, which fails with EINVAL. Ours refuses the
 * WR before it enters the ring; Debian's libsiw 44 returns the failed
 * doorbell's -1 with no bad_wr. Neither completes.
 */
void t_fenced_read(void)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sg;
	struct ibv_wc wc[4];
	struct rig r = {};
	int ret;

	if (rig_up(&r, 16, 16, 16, 1, 6))
		return check(false, "fence_setup", "no pair");
	sg = sge_of(r.m, 0, 8);
	wr = send_wr(0xf0, &sg, 1, IBV_WR_RDMA_READ,
		     IBV_SEND_SIGNALED | IBV_SEND_FENCE);
	set_remote(&wr, r.m, 2048);
	ret = post_send(r.p.c, &wr, &bad);
	CHECK_EQ("fenced_read_refused", ret, t.ours ? EINVAL : -1);
	check(bad == (t.ours ? &wr : NULL), "fenced_read_bad_wr", "bad_wr %p",
	      bad);
	CHECK_EQ("fenced_read_no_completion", poll_wc(r.scq, 4, wc, 500), 0);
	rig_down(&r);
}

/* 1 if a CQ event arrives on @ch within @ms (and is acked). */
static int cq_event(struct ibv_comp_channel *ch, int ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	if (ibv_get_cq_event(ch, &cq, &ctx))
		return 0;
	ibv_ack_cq_events(cq, 1);
	return 1;
}

void t_solicited(void)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(t.b.ctx);
	struct rig r = { .ch = ch };
	struct ibv_sge sg, rs;
	struct ibv_wc wc[4];

	if (!ch || rig_up(&r, 16, 16, 16, 1, 7))
		return check(false, "solicited_setup", "no pair");
	sg = sge_of(r.m, 0, 8);
	rs = sge_of(r.m, 1024, 64);
	for (int i = 0; i < 4; i++)
		post_recv(r.p.s, (uint64_t)i, &rs, 1);
	CHECK_EQ("arm_solicited", ibv_req_notify_cq(r.rcq, 1), 0);
	CHECK_EQ("unsolicited_send", sends(r.p.c, &sg, 0, 1, IBV_SEND_SIGNALED),
		 0);
	CHECK_EQ("unsolicited_received", poll_wc(r.rcq, 1, wc, WAIT_MS), 1);
	CHECK_EQ("unsolicited_no_event", cq_event(ch, 300), 0);
	CHECK_EQ("solicited_send",
		 sends(r.p.c, &sg, 1, 1,
		       IBV_SEND_SIGNALED | IBV_SEND_SOLICITED),
		 0);
	/*
	 * This kernel notifies a receive completion as signalled, never as
	 * solicited (siw_rqe_complete() asks siw_cq_notify_now() with
	 * SIW_WQE_SIGNALLED): a CQ armed for solicited completions only
	 * gets no event, with either provider.
	 */
	CHECK_EQ("solicited_no_event_kernel", cq_event(ch, 500), 0);
	CHECK_EQ("solicited_received", poll_wc(r.rcq, 1, wc, WAIT_MS), 1);
	/* Armed for any completion, an unsolicited SEND wakes it. */
	CHECK_EQ("arm_next", ibv_req_notify_cq(r.rcq, 0), 0);
	CHECK_EQ("next_send", sends(r.p.c, &sg, 2, 1, IBV_SEND_SIGNALED), 0);
	CHECK_EQ("next_event", cq_event(ch, WAIT_MS), 1);
	CHECK_EQ("next_received", poll_wc(r.rcq, 1, wc, WAIT_MS), 1);
	poll_wc(r.scq, 4, wc, 100);
	rig_down(&r);
	ibv_destroy_comp_channel(ch);
}
