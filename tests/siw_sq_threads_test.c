// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's send queue under threads, on the fake siw kernel of
 * t_siw_kernel.h: one thread posts lists of one to three sends without
 * a pause (some with a request siw refuses in the middle), a kernel
 * engine thread takes each valid element in RTS, and a third thread
 * does what another thread's ibv_modify_qp() does in siw: under the
 * QP's state lock held for writing, the move to ERROR flushes every
 * valid element into the CQ; then RESET and back to RTS, over and over.
 * The doorbell answers as siw_post_send() does: ENOTCONN when it cannot
 * take the state lock for reading (unless the QP is in ERROR) and
 * outside RTS and ERROR. siw never rewinds its get index (it keeps the
 * ring across RESET), so neither does the model.
 *
 * Every request must end exactly once: reported failed by its post
 * (*bad_wr and after), or consumed by the kernel (taken, or flushed and
 * polled from the CQ), never both, never neither. A last flush ends what
 * the ring holds when the threads stop (a flush that finds the CQ full
 * stops, as siw's does, and the engine takes the rest once in RTS).
 * IBV_THREADS_SECONDS long (3 s by
 * default, 10 at most), a third on each of the fake's kernels.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "t_siw_kernel.h"

#define MAX_IDS (1u << 20)

enum { UNSEEN, POSTED, REFUSED };

static struct {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	pthread_rwlock_t state_lock; /* siw's QP state lock */
	pthread_mutex_t sq_lock; /* the engine's and the flush's ring */
	_Atomic int state; /* enum t_siw_state */
	atomic_bool stop_post, stop_engine;
	_Atomic uint8_t end[MAX_IDS]; /* what the post said of each id */
	_Atomic uint8_t done[MAX_IDS]; /* how often the kernel ended it */
	atomic_ulong taken, flushed, cycles, bad_ids;
	uint64_t next_id; /* the poster's */
	unsigned long posted, refused;
	double seconds;
} k;

/* The doorbell, as siw_post_send() answers it (the engine runs anyway). */
static int doorbell(void)
{
	int st;

	if (pthread_rwlock_tryrdlock(&k.state_lock))
		return atomic_load(&k.state) == T_SIW_ERROR ? 0 : ENOTCONN;
	st = atomic_load(&k.state);
	pthread_rwlock_unlock(&k.state_lock);
	return st == T_SIW_RTS || st == T_SIW_ERROR ? 0 : ENOTCONN;
}

static void ended(uint64_t id, atomic_ulong *how)
{
	if (!id || id >= MAX_IDS) {
		atomic_fetch_add(&k.bad_ids, 1);
		return;
	}
	atomic_fetch_add(&k.done[id], 1);
	atomic_fetch_add(how, 1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The transmit engine: takes each valid element while the QP is in RTS. */
static void *engine(void *arg)
{
	(void)arg;
	while (!atomic_load(&k.stop_engine)) {
		struct t_siw_taken t;
		int ret = ENOENT;

		pthread_mutex_lock(&k.sq_lock);
		if (atomic_load(&k.state) == T_SIW_RTS)
			ret = t_siw_sq_take(&t);
		pthread_mutex_unlock(&k.sq_lock);
		if (!ret)
			ended(t.sqe.id, &k.taken);
		else if (ret == ENOENT)
			sched_yield();
		else
			atomic_fetch_add(&k.bad_ids, 1); /* siw refused one */
	}
	return NULL;
}

/* What the flushes put into the CQ: each a request ended. */
static void poll_all(void)
{
	struct ibv_wc wc[T_NUM_CQE];
	int n;

	while ((n = ibv_poll_cq(k.cq, T_NUM_CQE, wc)) > 0)
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
				atomic_fetch_add(&k.bad_ids, 1);
			ended(wc[i].wr_id, &k.flushed);
		}
}

/* The move to ERROR under the state lock: siw_sq_flush(). */
static void to_error(void)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };

	pthread_rwlock_wrlock(&k.state_lock);
	ibv_modify_qp(k.qp, &attr, IBV_QP_STATE);
	pthread_mutex_lock(&k.sq_lock);
	t_siw_sq_flush();
	atomic_store(&k.state, T_SIW_ERROR);
	pthread_mutex_unlock(&k.sq_lock);
	pthread_rwlock_unlock(&k.state_lock);
	poll_all();
}

static void to_state(enum ibv_qp_state qs, enum t_siw_state st)
{
	struct ibv_qp_attr attr = { .qp_state = qs };

	pthread_rwlock_wrlock(&k.state_lock);
	ibv_modify_qp(k.qp, &attr, IBV_QP_STATE);
	atomic_store(&k.state, st);
	pthread_rwlock_unlock(&k.state_lock);
}

static void nap(unsigned int *seed)
{
	struct timespec ts = { 0, 20000 + rand_r(seed) % 200000 };

	nanosleep(&ts, NULL);
}

/* ERROR (flushed), RESET, RTS, with posts landing in each, until told. */
static void *modifier(void *arg)
{
	unsigned int seed = 27;

	(void)arg;
	while (!atomic_load(&k.stop_post)) {
		nap(&seed);
		to_error();
		nap(&seed);
		to_state(IBV_QPS_RESET, T_SIW_IDLE);
		nap(&seed);
		to_state(IBV_QPS_RTS, T_SIW_RTS);
		atomic_fetch_add(&k.cycles, 1);
	}
	return NULL;
}

/* Lists of one to three sends, every fifth with a LOCAL_INV second. */
static void *poster(void *arg)
{
	static char buf[64];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x2a01 };
	double until = now() + k.seconds;
	unsigned long round = 0;

	(void)arg;
	while (now() < until && k.next_id + 4 < MAX_IDS) {
		struct ibv_send_wr wr[3], *bad = NULL;
		int n = 1 + (int)(round % 3), ret, i;

		for (i = 0; i < n; i++)
			wr[i] = (struct ibv_send_wr){
				.wr_id = ++k.next_id,
				.next = i + 1 < n ? &wr[i + 1] : NULL,
				.sg_list = &sge,
				.num_sge = 1,
				.opcode = IBV_WR_SEND,
				.send_flags = i == 2 ? IBV_SEND_INLINE : 0,
			};
		if (n > 1 && round % 5 == 0)
			wr[1].opcode = IBV_WR_LOCAL_INV;
		round++;
		ret = ibv_post_send(k.qp, wr, &bad);
		for (i = 0; i < n && (!ret || &wr[i] != bad); i++)
			atomic_store(&k.end[wr[i].wr_id], POSTED);
		k.posted += (unsigned long)i;
		if (ret && i == n)
			atomic_fetch_add(&k.bad_ids, 1); /* bad_wr elsewhere */
		for (; i < n; i++, k.refused++)
			atomic_store(&k.end[wr[i].wr_id], REFUSED);
		if (ret == ENOMEM)
			sched_yield();
	}
	atomic_store(&k.stop_post, true);
	return NULL;
}

static void flush_against_posts(void **state)
{
	struct t_siw_base *b = *state;
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_send_sge = 1,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	unsigned long wrong = 0;
	pthread_t th[3];

	memset(&k, 0, sizeof(k));
	k.seconds = getenv("IBV_THREADS_SECONDS") ?
			    atof(getenv("IBV_THREADS_SECONDS")) :
			    3;
	k.seconds = (k.seconds > 10 ? 10 : k.seconds) / 3;
	k.cq = b->cq;
	k.qp = t_siw_qp(b, &init);
	pthread_rwlock_init(&k.state_lock, NULL);
	pthread_mutex_init(&k.sq_lock, NULL);
	t_siw.doorbell = doorbell;
	assert_int_equal(pthread_create(&th[0], NULL, engine, NULL), 0);
	assert_int_equal(pthread_create(&th[1], NULL, modifier, NULL), 0);
	assert_int_equal(pthread_create(&th[2], NULL, poster, NULL), 0);
	pthread_join(th[2], NULL);
	pthread_join(th[1], NULL);
	/* What the ring still holds ends in a last flush. */
	to_error();
	atomic_store(&k.stop_engine, true);
	pthread_join(th[0], NULL);
	poll_all();
	t_siw.doorbell = NULL;
	for (uint64_t id = 1; id <= k.next_id; id++) {
		uint8_t want = atomic_load(&k.end[id]) == POSTED ? 1 : 0;

		if (atomic_load(&k.done[id]) != want ||
		    !atomic_load(&k.end[id]))
			if (wrong++ < 5)
				print_error(
					"request %llu: %s, ended %u times\n",
					(unsigned long long)id,
					want ? "posted" : "refused",
					atomic_load(&k.done[id]));
	}
	print_message(
		"%llu requests: %lu posted (%lu taken, %lu flushed), %lu refused; %lu ERROR/RESET/RTS cycles\n",
		(unsigned long long)k.next_id, k.posted, atomic_load(&k.taken),
		atomic_load(&k.flushed), k.refused, atomic_load(&k.cycles));
	assert_int_equal(wrong, 0);
	assert_int_equal(atomic_load(&k.bad_ids), 0);
	assert_true(atomic_load(&k.cycles) > 0);
	assert_true(atomic_load(&k.taken) > 0);
	assert_int_equal(ibv_destroy_qp(k.qp), 0);
	pthread_rwlock_destroy(&k.state_lock);
	pthread_mutex_destroy(&k.sq_lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(flush_against_posts,
						t_siw_base_up, t_siw_base_down),
	};

	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
