// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Our rxe plugin under two threads on one QP, on the fake rdma_rxe of
 * t_rxe_kernel.h: one posts receives while the other takes the QP
 * round ERROR -> RESET -> INIT -> ERROR. On a QP in ERROR the provider
 * moves it to ERROR once more after a post, so that the kernel flushes
 * the new receives; that move must never land on a QP the other thread
 * has just reset, or the next move to INIT fails (the kernel allows
 * INIT only from RESET or INIT, as the fake does). In ThreadSanitizer's
 * stage too ("threads").
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reset_loop_against_poster),
	};

	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	return t_rxe_run(tests, sizeof(tests) / sizeof(tests[0]));
}
