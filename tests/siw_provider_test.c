// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Our siw provider (providers/siw) on the fake siw kernel of
 * t_siw_kernel.h: the driver data of GET_CONTEXT, REG_MR and CREATE_CQ,
 * the CQ ring shared through mmap(), and the SRQ's ring. The test writes
 * completions into the ring as the kernel does (the fields, then
 * SIW_WQE_VALID) and checks what ibv_poll_cq() makes of them, that
 * polled entries are handed back (flags zero), that the ring wraps, and
 * that arming writes the control word after the ring without a command,
 * and the port's speed as each fake kernel answers it.
 * The send and receive queues are siw_sq_test's. Run on our core and, as
 * siw_provider_test_reference, on Debian's.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_port_speed.h"
#include "t_siw_kernel.h"
#include "t_uverbs.h"

static void context_pd_mr(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[8192];
	struct ibv_mr *mr1, *mr2;
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port;

	assert_true(t_siw_mapped_ours());
	assert_int_equal(ibv_query_device_ex(b->ctx, NULL, &attr), 0);
	assert_int_equal(ibv_query_port(b->ctx, 1, &port), 0);
	mr1 = ibv_reg_mr(b->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr1);
	/* siw reads its request and writes its answer, 8 bytes each. */
	assert_int_equal(t_siw.reg_mr_in_len, sizeof(struct siw_ureq_reg_mr));
	assert_int_equal(t_siw.reg_mr_out_len, sizeof(struct siw_uresp_reg_mr));
	uint8_t key1 = t_siw.reg_mr_in.stag_key;
	mr2 = ibv_reg_mr(b->pd, buf + 4096, 4096, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr2);
	/* A new key for each registration. */
	assert_int_not_equal(t_siw.reg_mr_in.stag_key, key1);
	assert_int_equal(ibv_dereg_mr(mr2), 0);
	assert_int_equal(ibv_dereg_mr(mr1), 0);
}

static void cq_ring(void **state)
{
	struct t_siw_base *b = *state;
	struct ibv_cq *cq = b->cq;
	struct siw_cq_ctrl *ctrl;
	struct ibv_wc wc[4];
	unsigned int calls;

	/* What t_siw_base_up()'s CQ answered and mapped. */
	assert_int_equal(t_siw.create_cq_out_len,
			 sizeof(struct siw_uresp_create_cq));
	/* The ring, then the control word, in one mapping at the key. */
	assert_non_null(t_siw.ring);
	assert_int_equal(t_siw.ring_len, T_NUM_CQE * sizeof(struct siw_cqe) +
						 sizeof(struct siw_cq_ctrl));
	ctrl = (struct siw_cq_ctrl *)&t_siw.ring[T_NUM_CQE];

	/* Polling and arming are no commands. */
	calls = t_uv.calls;
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 0);

	t_siw_complete(0, 100, SIW_OP_SEND, SIW_WC_SUCCESS, 64);
	t_siw_complete(1, 101, SIW_OP_RECEIVE, SIW_WC_SUCCESS, 32);
	t_siw_complete(2, 102, SIW_OP_WRITE, SIW_WC_WR_FLUSH_ERR, 0);
	assert_int_equal(ibv_poll_cq(cq, 2, wc), 2);
	assert_int_equal(wc[0].wr_id, 100);
	assert_int_equal(wc[0].opcode, IBV_WC_SEND);
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
	assert_int_equal(wc[0].byte_len, 64);
	assert_int_equal(wc[0].qp_num, 0x42);
	assert_int_equal(wc[1].wr_id, 101);
	assert_int_equal(wc[1].opcode, IBV_WC_RECV);
	assert_int_equal(wc[1].byte_len, 32);
	/* Taken entries go back to the kernel. */
	assert_int_equal(t_siw.ring[0].flags, 0);
	assert_int_equal(t_siw.ring[1].flags, 0);
	assert_int_equal(t_siw.ring[2].flags, SIW_WQE_VALID);
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 1);
	assert_int_equal(wc[0].wr_id, 102);
	assert_int_equal(wc[0].status, IBV_WC_WR_FLUSH_ERR);

	/* Many times round the ring, one completion at a time. */
	for (uint32_t i = 3; i < 3 + 5 * T_NUM_CQE; i++) {
		t_siw_complete(i, 1000 + i, SIW_OP_READ, SIW_WC_SUCCESS, i);
		assert_int_equal(ibv_poll_cq(cq, 4, wc), 1);
		assert_int_equal(wc[0].wr_id, 1000 + i);
		assert_int_equal(wc[0].opcode, IBV_WC_RDMA_READ);
	}
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 0);

	assert_int_equal(ibv_req_notify_cq(cq, 0), 0);
	assert_int_equal(ctrl->flags,
			 SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION);
	assert_int_equal(ibv_req_notify_cq(cq, 1), 0);
	assert_int_equal(ctrl->flags, SIW_NOTIFY_SOLICITED);
	assert_int_equal(t_uv.calls, calls);
}

/* An SRQ's ring, and a QP on it that maps no RQ of its own. */
static void srq_ring(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[64];
	struct ibv_sge sge = { (uintptr_t)buf, 64, 0x2a02 };
	struct ibv_recv_wr rwr = { .wr_id = 33, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad_r;
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 5, .max_sge = 1 } };
	struct ibv_srq_attr sa = { .srq_limit = 2 };
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5, .max_send_sge = 1 },
	};
	struct ibv_srq *srq;
	struct ibv_qp *qp;

	t_siw.srq = NULL;
	srq = ibv_create_srq(b->pd, &si);
	assert_non_null(srq);
	assert_non_null(t_siw.srq);
	assert_int_equal(t_siw.srq_len, T_NUM_WQE * sizeof(struct siw_rqe));
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	/* Full once the ring holds T_NUM_WQE the kernel has not taken. */
	for (unsigned int i = 1; i < T_NUM_WQE; i++)
		assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), ENOMEM);
	assert_ptr_equal(bad_r, &rwr);
	assert_true(t_siw_log_has("post_srq_recv: the receive queue is full"));
	t_siw_take(&t_siw.srq[0].flags);
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	assert_int_equal(t_siw.srq[0].flags, SIW_WQE_VALID);
	assert_int_equal(t_siw.srq[0].id, 33);
	assert_int_equal(t_siw.srq[0].sge[0].lkey, 0x2a02);
	assert_int_equal(ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT), 0);

	init.srq = srq;
	qp = t_siw_qp(b, &init);
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), EINVAL);
	assert_int_equal(ibv_destroy_qp(qp), 0);

	assert_int_equal(ibv_destroy_srq(srq), 0);
}

/* The port's speed: ours asks the kernel, which siw on 7.2 refuses. */
static void port_speed(void **state)
{
	struct t_siw_base *b = *state;

	t_port_speed_cases(b->ctx, t_siw_log_has);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(context_pd_mr, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(cq_ring, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(srq_ring, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(port_speed, t_siw_base_up,
						t_siw_base_down),
	};

	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
