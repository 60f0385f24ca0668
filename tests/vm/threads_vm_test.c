// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs from many threads at once, on rxe0 in the test VM.
 *
 * libibverbs promises that its verbs may be called from any thread. The
 * unit tests cannot show it: their fake kernel answers at once. Here every
 * thread talks to the real kernel through one shared context, for a few
 * seconds (IBV_VM_THREADS_SECONDS, default 3), all at the same time:
 *
 *  - two churn threads create and destroy PD, MR, CQ and QP in a loop;
 *  - two traffic threads each run a ping-pong (RDMA WRITE, then SEND and
 *    a SEND back) on their own pair of RC QPs, each QP with its own send
 *    and receive CQ;
 *  - a CQ event thread blocks in ibv_get_cq_event() while the arming
 *    thread arms the CQ, makes a completion and acks the event;
 *  - an async thread reads async events while the main thread drives an
 *    SRQ below its limit, one IBV_EVENT_SRQ_LIMIT_REACHED per round.
 *
 * Every call's result is checked; a thread stops at its first failure and
 * reports it. Each thread must have done at least one round, so a thread
 * that starved counts as a failure too. The same program runs on Debian's
 * library (vm_threads_reference), which proves the expectations.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include <infiniband/verbs.h>

#include "rc_connect.h"

#define T_SKIP 77
/* Longest wait for one completion or one event before failing. */
#define T_WAIT_MS 5000
#define T_BUF 4096

/* What the whole test shares: the device, its GID, the deadline. */
static struct {
	struct ibv_context *ctx;
	union ibv_gid gid;
	int gid_index;
	struct timespec deadline;
} t;

/* One thread's outcome: rounds done, and the first failure. */
struct t_result {
	const char *name;
	long rounds;
	char error[160];
};

static bool t_failed(struct t_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record the first failure of thread @r; always returns true. */
static bool t_failed(struct t_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->error[0])
		return true;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return true;
}

static bool t_time_left(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec < t.deadline.tv_sec ||
	       (now.tv_sec == t.deadline.tv_sec &&
		now.tv_nsec < t.deadline.tv_nsec);
}

static long t_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* sem_timedwait on CLOCK_REALTIME, T_WAIT_MS from now; 0 or an errno. */
static int t_sem_wait(sem_t *s)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += T_WAIT_MS / 1000;
	while (sem_timedwait(s, &ts))
		if (errno != EINTR)
			return errno;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Queue pairs */

static struct ibv_qp *t_create_rc(struct ibv_pd *pd, struct ibv_cq *scq,
				  struct ibv_cq *rcq, struct ibv_srq *srq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = scq,
		.recv_cq = rcq,
		.srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8,
			 .max_recv_wr = srq ? 0 : 8,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return ibv_create_qp(pd, &ia);
}

static int t_to_init(struct ibv_qp *qp)
{
	return rc_to_init(ibv_modify_qp, qp);
}

/* INIT -> RTR -> RTS towards @dest_qpn on our own GID. */
static int t_to_rts(struct ibv_qp *qp, uint32_t dest_qpn)
{
	return rc_to_rts(ibv_modify_qp, qp, &t.gid, t.gid_index, dest_qpn,
			 NULL);
}

/* Connect @a and @b to each other; 0 or an errno value. */
static int t_connect(struct ibv_qp *a, struct ibv_qp *b)
{
	int rc;

	rc = t_to_init(a) ?: t_to_init(b);
	if (rc)
		return rc;
	return t_to_rts(a, b->qp_num) ?: t_to_rts(b, a->qp_num);
}

/*
 * Poll @cq until one completion arrives (T_WAIT_MS at most); it must be
 * @wr_id with success. Returns false after recording the failure in @r.
 */
static bool t_poll_one(struct t_result *r, struct ibv_cq *cq, uint64_t wr_id,
		       const char *what)
{
	struct timespec start;
	struct ibv_wc wc;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!(n = ibv_poll_cq(cq, 1, &wc)))
		if (t_ms_since(&start) > T_WAIT_MS)
			return !t_failed(r, "%s: no completion", what);
	if (n < 0)
		return !t_failed(r, "%s: ibv_poll_cq returned %d", what, n);
	if (wc.status != IBV_WC_SUCCESS || wc.wr_id != wr_id)
		return !t_failed(r, "%s: status %s, wr_id %llu (want %llu)",
				 what, ibv_wc_status_str(wc.status),
				 (unsigned long long)wc.wr_id,
				 (unsigned long long)wr_id);
	return true;
}

static int t_post_recv(struct ibv_qp *qp, struct ibv_srq *srq,
		       struct ibv_mr *mr, size_t off, uint64_t wr_id)
{
	struct ibv_sge sge = { (uintptr_t)mr->addr + off, 64, mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1 },
			   *bad;

	return srq ? ibv_post_srq_recv(srq, &wr, &bad) :
		     ibv_post_recv(qp, &wr, &bad);
}

/* Post one signaled work request of @len bytes from @off of @mr. */
static int t_post_send(struct ibv_qp *qp, struct ibv_mr *mr, size_t off,
		       uint32_t len, enum ibv_wr_opcode op, uint64_t remote,
		       uint64_t wr_id)
{
	struct ibv_sge sge = { (uintptr_t)mr->addr + off, len, mr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	wr.wr.rdma.remote_addr = remote;
	wr.wr.rdma.rkey = mr->rkey;
	return ibv_post_send(qp, &wr, &bad);
}

/* ------------------------------------------------------------------ */
/* Churn: objects created and destroyed while the others work */

/* One round: PD, MR, CQ, QP (to INIT), then all destroyed again. */
static bool t_churn_round(struct t_result *r, char *buf)
{
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	int rc;

	pd = ibv_alloc_pd(t.ctx);
	if (!pd)
		return !t_failed(r, "alloc_pd: %s", strerror(errno));
	mr = ibv_reg_mr(pd, buf, T_BUF, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		return !t_failed(r, "reg_mr: %s", strerror(errno));
	cq = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
	if (!cq)
		return !t_failed(r, "create_cq: %s", strerror(errno));
	qp = t_create_rc(pd, cq, cq, NULL);
	if (!qp)
		return !t_failed(r, "create_qp: %s", strerror(errno));
	if ((rc = t_to_init(qp)))
		return !t_failed(r, "modify_qp INIT: %s", strerror(rc));
	if ((rc = ibv_destroy_qp(qp)) || (rc = ibv_destroy_cq(cq)) ||
	    (rc = ibv_dereg_mr(mr)) || (rc = ibv_dealloc_pd(pd)))
		return !t_failed(r, "destroy: %s", strerror(rc));
	return true;
}

static void *t_churn(void *arg)
{
	struct t_result *r = arg;
	static __thread char buf[T_BUF] __attribute__((aligned(4096)));

	while (t_time_left() && t_churn_round(r, buf))
		r->rounds++;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Traffic: a ping-pong on a private pair of QPs */

struct t_pair {
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *scq[2], *rcq[2];
	struct ibv_qp *qp[2];
	char *buf;
};

static int t_pair_create(struct t_pair *p)
{
	int i;

	p->buf = aligned_alloc(4096, T_BUF);
	p->pd = p->buf ? ibv_alloc_pd(t.ctx) : NULL;
	if (!p->pd)
		return errno ?: ENOMEM;
	p->mr = ibv_reg_mr(p->pd, p->buf, T_BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!p->mr)
		return errno;
	for (i = 0; i < 2; i++) {
		p->scq[i] = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
		p->rcq[i] = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
		if (!p->scq[i] || !p->rcq[i])
			return errno;
		p->qp[i] = t_create_rc(p->pd, p->scq[i], p->rcq[i], NULL);
		if (!p->qp[i])
			return errno;
	}
	return t_connect(p->qp[0], p->qp[1]);
}

static int t_pair_destroy(struct t_pair *p)
{
	int i, rc = 0;

	for (i = 0; i < 2; i++)
		rc = rc				       ?:
			     ibv_destroy_qp(p->qp[i])  ?:
			     ibv_destroy_cq(p->scq[i]) ?:
			     ibv_destroy_cq(p->rcq[i]);
	rc = rc ?: ibv_dereg_mr(p->mr) ?: ibv_dealloc_pd(p->pd);
	free(p->buf);
	return rc;
}

/*
 * The buffer: [0, 64) what side 0 sends, [1024, 1088) where the RDMA
 * WRITE lands, [2048, 2112) side 1's receive, [3072, 3136) side 0's.
 */
static bool t_ping(struct t_result *r, struct t_pair *p, uint32_t seq)
{
	char *b = p->buf;
	int rc;

	snprintf(b, 64, "%s ping %u", r->name, seq);
	if ((rc = t_post_recv(p->qp[1], NULL, p->mr, 2048, seq)) ||
	    (rc = t_post_recv(p->qp[0], NULL, p->mr, 3072, seq)) ||
	    (rc = t_post_send(p->qp[0], p->mr, 0, 64, IBV_WR_RDMA_WRITE,
			      (uintptr_t)b + 1024, seq)) ||
	    (rc = t_post_send(p->qp[0], p->mr, 0, 64, IBV_WR_SEND, 0, seq)))
		return !t_failed(r, "post: %s", strerror(rc));
	if (!t_poll_one(r, p->scq[0], seq, "write") ||
	    !t_poll_one(r, p->scq[0], seq, "send") ||
	    !t_poll_one(r, p->rcq[1], seq, "recv"))
		return false;
	if (strcmp(b + 1024, b) || strcmp(b + 2048, b))
		return !t_failed(r, "ping %u: data differs", seq);
	/* Side 1 answers from what it received. */
	if ((rc = t_post_send(p->qp[1], p->mr, 2048, 64, IBV_WR_SEND, 0, seq)))
		return !t_failed(r, "post pong: %s", strerror(rc));
	if (!t_poll_one(r, p->scq[1], seq, "pong send") ||
	    !t_poll_one(r, p->rcq[0], seq, "pong recv"))
		return false;
	if (strcmp(b + 3072, b))
		return !t_failed(r, "pong %u: data differs", seq);
	return true;
}

static void *t_traffic(void *arg)
{
	struct t_result *r = arg;
	struct t_pair p = {};
	int rc;

	if ((rc = t_pair_create(&p))) {
		t_failed(r, "setting up the QP pair: %s", strerror(rc));
		return NULL;
	}
	while (t_time_left() && t_ping(r, &p, r->rounds))
		r->rounds++;
	if ((rc = t_pair_destroy(&p)))
		t_failed(r, "tearing down the QP pair: %s", strerror(rc));
	return NULL;
}

/* ------------------------------------------------------------------ */
/* A loopback QP: RDMA WRITEs to itself, completions on one CQ */

struct t_loop {
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq, *rcq;
	struct ibv_qp *qp;
	char *buf;
};

static int t_loop_create(struct t_loop *l, struct ibv_comp_channel *ch,
			 void *cq_context)
{
	l->buf = aligned_alloc(4096, T_BUF);
	l->pd = l->buf ? ibv_alloc_pd(t.ctx) : NULL;
	if (!l->pd)
		return errno ?: ENOMEM;
	l->mr = ibv_reg_mr(l->pd, l->buf, T_BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	l->cq = ibv_create_cq(t.ctx, 8, cq_context, ch, 0);
	l->rcq = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
	if (!l->mr || !l->cq || !l->rcq)
		return errno;
	l->qp = t_create_rc(l->pd, l->cq, l->rcq, NULL);
	if (!l->qp)
		return errno;
	return t_to_init(l->qp) ?: t_to_rts(l->qp, l->qp->qp_num);
}

static int t_loop_destroy(struct t_loop *l)
{
	int rc = ibv_destroy_qp(l->qp)		?:
			 ibv_destroy_cq(l->cq)	?:
			 ibv_destroy_cq(l->rcq) ?:
			 ibv_dereg_mr(l->mr)	?:
						  ibv_dealloc_pd(l->pd);

	free(l->buf);
	return rc;
}

/* ------------------------------------------------------------------ */
/* CQ events: one thread blocks for them, another arms and acks */

static struct {
	struct ibv_comp_channel *ch;
	struct t_loop loop;
	sem_t got;
	int stop;
	struct t_result waiter, armer;
} ev;

static void *t_cq_waiter(void *arg)
{
	struct t_result *r = arg;
	struct ibv_cq *cq;
	void *cq_context;
	int stop;

	do {
		if (ibv_get_cq_event(ev.ch, &cq, &cq_context))
			t_failed(r, "get_cq_event: %s", strerror(errno));
		else if (cq != ev.loop.cq || cq_context != &ev)
			t_failed(r, "get_cq_event: an event for another CQ");
		else
			r->rounds++;
		stop = __atomic_load_n(&ev.stop, __ATOMIC_ACQUIRE);
		sem_post(&ev.got);
	} while (!stop && !r->error[0]);
	return NULL;
}

/* Arm the CQ and make one completion, which must raise the next event. */
static bool t_arm_and_write(struct t_result *r, uint64_t seq)
{
	int rc;

	if ((rc = ibv_req_notify_cq(ev.loop.cq, 0)))
		return !t_failed(r, "req_notify_cq: %s", strerror(rc));
	rc = t_post_send(ev.loop.qp, ev.loop.mr, 0, 64, IBV_WR_RDMA_WRITE,
			 (uintptr_t)ev.loop.buf + 2048, seq);
	if (rc)
		return !t_failed(r, "post_send: %s", strerror(rc));
	return true;
}

/* Wait for the waiter's event, ack it, reap the completion. */
static bool t_take_event(struct t_result *r, uint64_t seq)
{
	int rc;

	if ((rc = t_sem_wait(&ev.got)))
		return !t_failed(r, "no CQ event within %d ms", T_WAIT_MS);
	ibv_ack_cq_events(ev.loop.cq, 1);
	return t_poll_one(r, ev.loop.cq, seq, "write");
}

static void *t_cq_armer(void *arg)
{
	struct t_result *r = arg;
	uint64_t seq = 0;

	if (!t_arm_and_write(r, seq))
		return NULL;
	for (;;) {
		if (!t_take_event(r, seq))
			return NULL;
		r->rounds++;
		if (!t_time_left())
			break;
		if (!t_arm_and_write(r, ++seq))
			return NULL;
	}
	/* One last event wakes the waiter, which then sees "stop". */
	__atomic_store_n(&ev.stop, 1, __ATOMIC_RELEASE);
	if (t_arm_and_write(r, ++seq))
		t_take_event(r, seq);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Async events: SRQ_LIMIT_REACHED, read by their own thread */

static struct {
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *scq, *rcq;
	struct ibv_srq *srq;
	struct ibv_qp *sender, *receiver;
	char *buf;
	sem_t got;
	int stop;
	struct t_result reader, driver;
} as;

static int t_srq_create(void)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };

	as.buf = aligned_alloc(4096, T_BUF);
	as.pd = as.buf ? ibv_alloc_pd(t.ctx) : NULL;
	if (!as.pd)
		return errno ?: ENOMEM;
	as.mr = ibv_reg_mr(as.pd, as.buf, T_BUF,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	as.scq = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
	as.rcq = ibv_create_cq(t.ctx, 8, NULL, NULL, 0);
	as.srq = ibv_create_srq(as.pd, &sa);
	if (!as.mr || !as.scq || !as.rcq || !as.srq)
		return errno;
	as.sender = t_create_rc(as.pd, as.scq, as.scq, NULL);
	as.receiver = t_create_rc(as.pd, as.rcq, as.rcq, as.srq);
	if (!as.sender || !as.receiver)
		return errno;
	return t_connect(as.sender, as.receiver);
}

static int t_srq_destroy(void)
{
	int rc = ibv_destroy_qp(as.sender)	     ?:
			 ibv_destroy_qp(as.receiver) ?:
			 ibv_destroy_srq(as.srq)     ?:
			 ibv_destroy_cq(as.scq)	     ?:
			 ibv_destroy_cq(as.rcq)	     ?:
			 ibv_dereg_mr(as.mr)	     ?:
						       ibv_dealloc_pd(as.pd);

	free(as.buf);
	return rc;
}

/* Read one async event if one comes within 100 ms; false after a failure. */
static bool t_read_async(struct t_result *r)
{
	struct pollfd pfd = { .fd = t.ctx->async_fd, .events = POLLIN };
	struct ibv_async_event e;
	int n = poll(&pfd, 1, 100);

	if (n <= 0)
		return n == 0 || errno == EINTR ||
		       !t_failed(r, "poll: %s", strerror(errno));
	if (ibv_get_async_event(t.ctx, &e))
		return !t_failed(r, "get_async_event: %s", strerror(errno));
	if (e.event_type != IBV_EVENT_SRQ_LIMIT_REACHED ||
	    e.element.srq != as.srq)
		t_failed(r, "unexpected async event %s",
			 ibv_event_type_str(e.event_type));
	ibv_ack_async_event(&e);
	if (r->error[0])
		return false;
	r->rounds++;
	sem_post(&as.got);
	return true;
}

static void *t_async_reader(void *arg)
{
	struct t_result *r = arg;

	while (!__atomic_load_n(&as.stop, __ATOMIC_ACQUIRE) && t_read_async(r))
		;
	return NULL;
}

/*
 * One round: two receives on the SRQ, limit 2, one SEND consumes one
 * receive and the SRQ falls below its limit. The other receive stays for
 * the next round, which tops it up to two again.
 */
static bool t_srq_round(struct t_result *r, uint64_t seq)
{
	struct ibv_srq_attr a = { .srq_limit = 2 };
	int rc, want = seq ? 1 : 2;

	while (want--)
		if ((rc = t_post_recv(NULL, as.srq, as.mr, 1024 + 64 * want,
				      seq)))
			return !t_failed(r, "post_srq_recv: %s", strerror(rc));
	if ((rc = ibv_modify_srq(as.srq, &a, IBV_SRQ_LIMIT)))
		return !t_failed(r, "modify_srq: %s", strerror(rc));
	if ((rc = t_post_send(as.sender, as.mr, 0, 16, IBV_WR_SEND, 0, seq)))
		return !t_failed(r, "post_send: %s", strerror(rc));
	/* Receives are consumed in order: the one left from before. */
	if (!t_poll_one(r, as.scq, seq, "send") ||
	    !t_poll_one(r, as.rcq, seq ? seq - 1 : 0, "srq recv"))
		return false;
	if (t_sem_wait(&as.got))
		return !t_failed(r, "no SRQ_LIMIT_REACHED within %d ms",
				 T_WAIT_MS);
	return true;
}

/* ------------------------------------------------------------------ */
/* All at once */

enum { T_CHURN = 2, T_TRAFFIC = 2 };

static struct t_result churn[T_CHURN] = { { .name = "churn 1" },
					  { .name = "churn 2" } };
static struct t_result traffic[T_TRAFFIC] = { { .name = "traffic 1" },
					      { .name = "traffic 2" } };

static void t_start(pthread_t *th, void *(*fn)(void *), struct t_result *r)
{
	int rc = pthread_create(th, NULL, fn, r);

	if (rc)
		fail_msg("pthread_create (%s): %s", r->name, strerror(rc));
}

/* Print what thread @r did; true when it failed or never got a round. */
static bool t_report(const struct t_result *r)
{
	printf("  %-12s %6ld rounds%s%s\n", r->name, r->rounds,
	       r->error[0] ? ", FAILED: " : "", r->error);
	return r->error[0] || !r->rounds;
}

static void t_run_srq_driver(void)
{
	while (t_time_left() && t_srq_round(&as.driver, as.driver.rounds))
		as.driver.rounds++;
	__atomic_store_n(&as.stop, 1, __ATOMIC_RELEASE);
}

/* The threads run for IBV_VM_THREADS_SECONDS (3) from now. */
static void t_set_deadline(void)
{
	const char *secs = getenv("IBV_VM_THREADS_SECONDS");

	clock_gettime(CLOCK_MONOTONIC, &t.deadline);
	t.deadline.tv_sec += secs ? atoi(secs) : 3;
}

/* The threads of one run; the CQ waiter is joined apart (see below). */
struct t_threads {
	pthread_t churn[T_CHURN], traffic[T_TRAFFIC], wait, arm, async;
};

/* The objects the event threads share, made before the clock starts. */
static void t_setup_events(void)
{
	ev.waiter.name = "cq waiter";
	ev.armer.name = "cq armer";
	as.reader.name = "async reader";
	as.driver.name = "srq driver";
	assert_int_equal(sem_init(&ev.got, 0, 0), 0);
	assert_int_equal(sem_init(&as.got, 0, 0), 0);
	ev.ch = ibv_create_comp_channel(t.ctx);
	assert_non_null(ev.ch);
	assert_int_equal(t_loop_create(&ev.loop, ev.ch, &ev), 0);
	assert_int_equal(t_srq_create(), 0);
}

static void t_start_all(struct t_threads *th)
{
	int i;

	for (i = 0; i < T_CHURN; i++)
		t_start(&th->churn[i], t_churn, &churn[i]);
	for (i = 0; i < T_TRAFFIC; i++)
		t_start(&th->traffic[i], t_traffic, &traffic[i]);
	t_start(&th->wait, t_cq_waiter, &ev.waiter);
	t_start(&th->arm, t_cq_armer, &ev.armer);
	t_start(&th->async, t_async_reader, &as.reader);
}

/* Join and report all but the CQ waiter; the number that failed. */
static int t_join_others(struct t_threads *th)
{
	int i, bad = 0;

	for (i = 0; i < T_CHURN; i++)
		pthread_join(th->churn[i], NULL);
	for (i = 0; i < T_TRAFFIC; i++)
		pthread_join(th->traffic[i], NULL);
	pthread_join(th->arm, NULL);
	pthread_join(th->async, NULL);
	printf("threads on one context of %s:\n",
	       ibv_get_device_name(t.ctx->device));
	for (i = 0; i < T_CHURN; i++)
		bad += t_report(&churn[i]);
	for (i = 0; i < T_TRAFFIC; i++)
		bad += t_report(&traffic[i]);
	bad += t_report(&ev.armer);
	bad += t_report(&as.reader);
	bad += t_report(&as.driver);
	return bad;
}

static void test_all_at_once(void **state)
{
	struct t_threads th;
	int bad;

	(void)state;
	t_setup_events();
	t_set_deadline();
	t_start_all(&th);
	t_run_srq_driver();
	bad = t_join_others(&th);
	/* A waiter the armer gave up on is still blocked: leave it. */
	if (ev.armer.error[0])
		fail_msg("%d of the threads failed",
			 bad + t_report(&ev.waiter));
	pthread_join(th.wait, NULL);
	bad += t_report(&ev.waiter);
	if (bad)
		fail_msg("%d of the threads failed", bad);
	/* Every event was acked: the destroys must not wait. */
	assert_int_equal(t_loop_destroy(&ev.loop), 0);
	assert_int_equal(ibv_destroy_comp_channel(ev.ch), 0);
	assert_int_equal(t_srq_destroy(), 0);
	/* The waiter also saw the last, "stop" event. */
	assert_int_equal(ev.waiter.rounds, ev.armer.rounds + 1);
	assert_int_equal(as.reader.rounds, as.driver.rounds);
}

/* ------------------------------------------------------------------ */

static int t_rxe_index(void)
{
	const char *s = getenv("IBV_VM_RXE_GID_INDEX");

	return s ? atoi(s) : -1;
}

static int t_group_setup(void **state)
{
	const char *name = getenv("IBV_VM_RXE");
	struct ibv_device **list;
	int i, n;

	(void)state;
	t.gid_index = t_rxe_index();
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !t.ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			t.ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!t.ctx || t.gid_index < 0 ||
	    ibv_query_gid(t.ctx, 1, t.gid_index, &t.gid)) {
		fprintf(stderr, "cannot open %s or read GID %d\n", name,
			t.gid_index);
		return -1;
	}
	return 0;
}

static int t_group_teardown(void **state)
{
	(void)state;
	return ibv_close_device(t.ctx) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_at_once),
	};

	if (!getenv("IBV_VM") || !getenv("IBV_VM_RXE")) {
		printf("skip: needs the test VM with rxe0; run it through tests/vm/run\n");
		return T_SKIP;
	}
	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
