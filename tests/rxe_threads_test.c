// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Our rxe plugin under two threads on one QP, on the fake rdma_rxe of
 * t_rxe_kernel.h: one posts receives while the other takes the QP
 * round ERROR -> RESET -> INIT -> ERROR. On a QP in ERROR the provider
 * moves it to ERROR once more after a post, so that the kernel flushes
 * the new receives; that move must never land on a QP the other thread
 * has just reset, or the next move to INIT fails (the kernel allows
 * INIT only from RESET or INIT, as the fake does). And a send poster
 * against a thread taking the QP to ERROR and back through RESET, INIT,
 * RTR and RTS, with the fake's requester consuming WQEs from a third:
 * each send ends once, refused by its post or taken (sent or flushed)
 * by the kernel, never both, never neither. In ThreadSanitizer's stage
 * too ("threads").
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_rxe_kernel.h"
#include "t_uverbs.h"
#include "t_util.h"

#define CYCLES 500

struct run {
	struct ibv_qp *qp;
	atomic_bool stop;
	atomic_ulong posts;
};

static void *poster(void *arg)
{
	struct run *r = arg;
	static char buf[8];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x100 };
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	while (!atomic_load(&r->stop)) {
		/* A full queue (ENOMEM) or RESET (EINVAL) is no matter. */
		(void)ibv_post_recv(r->qp, &wr, &bad);
		atomic_fetch_add(&r->posts, 1);
	}
	return NULL;
}

static int move(struct ibv_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = { .qp_state = state };

	return ibv_modify_qp(qp, &attr, IBV_QP_STATE);
}

static void reset_loop_against_poster(void **state)
{
	struct ibv_context *ctx = t_uv_open_only("rxe0");
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct run r = { 0 };
	unsigned int failed = 0;
	pthread_t t;

	(void)state;
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 10, NULL, NULL, 0);
	assert_true(pd && cq);
	a.send_cq = a.recv_cq = cq;
	r.qp = ibv_create_qp(pd, &a);
	assert_non_null(r.qp);
	assert_int_equal(move(r.qp, IBV_QPS_ERR), 0);
	assert_int_equal(pthread_create(&t, NULL, poster, &r), 0);
	for (int i = 0; i < CYCLES; i++) {
		unsigned long seen = atomic_load(&r.posts);

		/*
		 * The poster's posts in ERROR (each followed by its move to
		 * ERROR), so that the reset below meets one in flight.
		 */
		while (atomic_load(&r.posts) < seen + 2)
			sched_yield();
		assert_int_equal(move(r.qp, IBV_QPS_RESET), 0);
		if (move(r.qp, IBV_QPS_INIT))
			failed++;
		assert_int_equal(move(r.qp, IBV_QPS_ERR), 0);
	}
	atomic_store(&r.stop, true);
	assert_int_equal(pthread_join(t, NULL), 0);
	printf("%d cycles, %lu posts, %u calls, %u moves to INIT failed\n",
	       CYCLES, atomic_load(&r.posts), t_uv.calls, failed);
	assert_int_equal(failed, 0);
	assert_int_equal(ibv_destroy_qp(r.qp), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* A send's ledger entry: bits, set by whoever learns its fate. */
enum { POSTED = 1, REFUSED = 2, TAKEN = 4, TWICE = 8 };
#define MAX_SENDS (1u << 22)

struct sends {
	struct ibv_qp *qp;
	_Atomic uint8_t *ledger;
	atomic_bool stop, hold, held;
	atomic_ulong next, posted, taken, discarded;
};

/* The model's requester took a WQE (the fake's lock held). */
static void took(const struct t_rxe_wire *w, void *arg)
{
	struct sends *s = arg;

	if (w->fate == T_RXE_DISCARDED) {
		atomic_fetch_add(&s->discarded, 1);
		return;
	}
	if (w->wr_id >= MAX_SENDS)
		return;
	if (atomic_fetch_or(&s->ledger[w->wr_id], TAKEN) & TAKEN)
		atomic_fetch_or(&s->ledger[w->wr_id], TWICE);
	atomic_fetch_add(&s->taken, 1);
}

static void *send_poster(void *arg)
{
	struct sends *s = arg;
	static char buf[8];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x100 };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;

	while (!atomic_load(&s->stop)) {
		unsigned long id;

		if (atomic_load(&s->hold)) {
			atomic_store(&s->held, true);
			while (atomic_load(&s->hold) && !atomic_load(&s->stop))
				sched_yield();
			atomic_store(&s->held, false);
			continue;
		}
		id = atomic_fetch_add(&s->next, 1);
		if (id >= MAX_SENDS)
			break;
		wr.wr_id = id;
		if (ibv_post_send(s->qp, &wr, &bad)) {
			atomic_fetch_or(&s->ledger[id], REFUSED);
			continue;
		}
		atomic_fetch_or(&s->ledger[id], POSTED);
		atomic_fetch_add(&s->posted, 1);
		/* The queue locks spin: leave the mover a way in. */
		sched_yield();
	}
	return NULL;
}

/* The kernel's requester, run by the completion of earlier WQEs. */
static void *requester(void *arg)
{
	struct sends *s = arg;

	while (!atomic_load(&s->stop)) {
		t_rxe_req_run(s->qp);
		sched_yield();
	}
	return NULL;
}

/*
 * What a correct application does before RESET, which discards what
 * the send queue holds without a completion: it stops posting and waits
 * until every send it posted has completed, here flushed by the move to
 * ERROR (the model's ledger stands for the polled completions).
 */
static void quiesce(struct sends *s)
{
	time_t until = time(NULL) + 10;

	atomic_store(&s->hold, true);
	while (!atomic_load(&s->held) && time(NULL) < until)
		sched_yield();
	assert_true(atomic_load(&s->held));
	while (atomic_load(&s->taken) != atomic_load(&s->posted) &&
	       time(NULL) < until)
		sched_yield();
	assert_int_equal(atomic_load(&s->taken), atomic_load(&s->posted));
}

static double seconds(void)
{
	const char *env = getenv("IBV_THREADS_SECONDS");
	double want = env ? atof(env) / 10 : 2;

	return want > 0 && want < 2 ? want : 2;
}

static void flush_loop_against_sender(void **state)
{
	struct ibv_context *ctx = t_uv_open_only("rxe0");
	struct ibv_qp_init_attr a = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct sends s = { 0 };
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	pthread_t post_t, req_t;
	unsigned long cycles = 0, bad = 0, refused = 0;
	struct timespec t0, t1;

	(void)state;
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 10, NULL, NULL, 0);
	assert_true(pd && cq);
	a.send_cq = a.recv_cq = cq;
	s.ledger = calloc(MAX_SENDS, 1);
	assert_non_null(s.ledger);
	t_rxe.sq = NULL;
	s.qp = ibv_create_qp(pd, &a);
	assert_non_null(s.qp);
	t_rxe_req_attach(s.qp, t_rxe.sq);
	t_uv_lock();
	t_rxe.on_take_arg = &s;
	t_rxe.on_take = took;
	t_uv_unlock();
	assert_int_equal(move(s.qp, IBV_QPS_INIT), 0);
	assert_int_equal(move(s.qp, IBV_QPS_RTR), 0);
	assert_int_equal(move(s.qp, IBV_QPS_RTS), 0);
	assert_int_equal(pthread_create(&post_t, NULL, send_poster, &s), 0);
	assert_int_equal(pthread_create(&req_t, NULL, requester, &s), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		unsigned long seen = atomic_load(&s.next);

		/* Some posts in RTS, then ERROR under the poster's feet. */
		while (atomic_load(&s.next) < seen + 8 &&
		       atomic_load(&s.next) < MAX_SENDS)
			sched_yield();
		assert_int_equal(move(s.qp, IBV_QPS_ERR), 0);
		seen = atomic_load(&s.next);
		while (atomic_load(&s.next) < seen + 4 &&
		       atomic_load(&s.next) < MAX_SENDS)
			sched_yield();
		quiesce(&s);
		assert_int_equal(move(s.qp, IBV_QPS_RESET), 0);
		/* Posts below RTS are refused: nothing to wait for. */
		atomic_store(&s.hold, false);
		assert_int_equal(move(s.qp, IBV_QPS_INIT), 0);
		assert_int_equal(move(s.qp, IBV_QPS_RTR), 0);
		assert_int_equal(move(s.qp, IBV_QPS_RTS), 0);
		cycles++;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9 <
			 seconds() &&
		 atomic_load(&s.next) < MAX_SENDS);
	/* Each send to its end: ERROR flushes what the queue holds. */
	assert_int_equal(move(s.qp, IBV_QPS_ERR), 0);
	quiesce(&s);
	atomic_store(&s.stop, true);
	assert_int_equal(pthread_join(post_t, NULL), 0);
	assert_int_equal(pthread_join(req_t, NULL), 0);
	for (unsigned long id = 0; id < atomic_load(&s.next) && id < MAX_SENDS;
	     id++) {
		uint8_t v = atomic_load(&s.ledger[id]);

		refused += v == REFUSED;
		if (v != REFUSED && v != (POSTED | TAKEN) && bad++ < 10)
			printf("send %lu: ledger 0x%x\n", id, v);
	}
	printf("%lu cycles, %lu sends: %lu posted and taken, %lu refused, "
	       "%lu discarded, %lu wrong\n",
	       cycles, atomic_load(&s.next), atomic_load(&s.posted), refused,
	       atomic_load(&s.discarded), bad);
	assert_int_equal(bad, 0);
	assert_int_equal(atomic_load(&s.discarded), 0);
	t_uv_lock();
	t_rxe.on_take = NULL;
	t_uv_unlock();
	t_rxe_req_detach(s.qp);
	free((void *)s.ledger);
	assert_int_equal(ibv_destroy_qp(s.qp), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reset_loop_against_poster),
		cmocka_unit_test(flush_loop_against_sender),
	};

	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	return t_rxe_run(tests, sizeof(tests) / sizeof(tests[0]));
}
