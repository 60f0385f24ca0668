// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failing allocations, the families siw lacks: the extended CQ, the
 * extended QP with its work-request builders, and address handles, on
 * our library and rxe plugin over the fake rxe kernel (t_rxe_kernel.h).
 * As in alloc_fail_test: for N = 1, 2, ... the Nth allocation made
 * while the verb runs fails; each time the verb fails cleanly (NULL,
 * errno set) or succeeds whole, leaves no block behind, and the next
 * round runs it again (t_alloc_each()). The fork tracker is on.
 *
 * Events: ibv_get_async_event(), ibv_ack_async_event(),
 * ibv_get_cq_event() and ibv_ack_cq_events() allocate nothing, in the
 * library (a read() of one record into the stack, a mutex) or in rxe
 * (the cq_event and async_event ops are the core's empty ones); their
 * family's one allocating verb, the completion channel, is in
 * alloc_fail_test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_alloc.h"
#include "t_rxe_kernel.h"
#include "t_uverbs.h"
#include "t_util.h"

/* What each verb is made on, and what it made. */
struct base {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_cq_ex *made_cq;
	struct ibv_qp *made_qp;
	struct ibv_ah *made_ah;
};

static bool made(const void *obj, int *err)
{
	*err = obj ? 0 : errno;
	return obj != NULL;
}

/* Every standard field asked for, so that every reader gets set up. */
static bool make_cq_ex(void *arg, int *err)
{
	struct base *b = arg;
	struct ibv_cq_init_attr_ex a = {
		.cqe = 10,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct ibv_cq_ex *cq = ibv_create_cq_ex(b->ctx, &a);

	/* A CQ without its poll ops would be a failure told as a success. */
	if (cq)
		assert_true(cq->start_poll && cq->next_poll && cq->end_poll &&
			    cq->read_byte_len && cq->read_qp_num);
	b->made_cq = cq;
	return made(cq, err);
}

static void undo_cq_ex(void *arg)
{
	struct base *b = arg;

	assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(b->made_cq)), 0);
}

static bool make_qp_ex(void *arg, int *err)
{
	struct base *b = arg;
	struct ibv_qp_init_attr_ex a = {
		.send_cq = b->cq,
		.recv_cq = b->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = b->pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_RDMA_WRITE,
	};
	struct ibv_qp *qp = ibv_create_qp_ex(b->ctx, &a);

	/* ... nor a QP whose builders are missing. */
	if (qp) {
		struct ibv_qp_ex *ex = ibv_qp_to_qp_ex(qp);

		assert_non_null(ex);
		assert_true(ex->wr_start && ex->wr_complete && ex->wr_send &&
			    ex->wr_rdma_write && ex->wr_set_sge);
	}
	b->made_qp = qp;
	return made(qp, err);
}

static void undo_qp_ex(void *arg)
{
	struct base *b = arg;

	assert_int_equal(ibv_destroy_qp(b->made_qp), 0);
}

/* RoCE: every AH has a GRH; the kernel numbers it (t_rxe.ah_num). */
static bool make_ah(void *arg, int *err)
{
	struct base *b = arg;
	struct ibv_ah_attr a = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .hop_limit = 64,
			 .dgid.raw = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 } },
	};

	return made(b->made_ah = ibv_create_ah(b->pd, &a), err);
}

static void undo_ah(void *arg)
{
	struct base *b = arg;

	assert_int_equal(ibv_destroy_ah(b->made_ah), 0);
}

static const struct t_alloc_verb families[] = {
	{ "create_cq_ex", make_cq_ex, undo_cq_ex },
	{ "create_qp_ex", make_qp_ex, undo_qp_ex },
	{ "create_ah", make_ah, undo_ah },
};

static void test_families(void **state)
{
	struct base b = { 0 };

	(void)state;
	b.ctx = t_uv_open_only("rxe0");
	assert_non_null(b.ctx);
	b.pd = ibv_alloc_pd(b.ctx);
	b.cq = ibv_create_cq(b.ctx, 10, NULL, NULL, 0);
	assert_true(b.pd && b.cq);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		unsigned long n = t_alloc_each(&families[i], &b);

		printf("%-16s %lu allocations, each failing in turn\n",
		       families[i].name, n);
		/* Each makes its provider object at least. */
		assert_true(n > 0);
	}
	/* The provider mapped the fake's queues: rxe's own paths ran. */
	assert_true(t_rxe.queues_mapped > 0);
	assert_int_equal(ibv_destroy_cq(b.cq), 0);
	assert_int_equal(ibv_dealloc_pd(b.pd), 0);
	assert_int_equal(ibv_close_device(b.ctx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_families),
	};

	/* The tracker on, as RDMAV_FORK_SAFE would turn it on. */
	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	if (ibv_fork_init())
		return 1;
	return t_rxe_run(tests, sizeof(tests) / sizeof(tests[0]));
}
