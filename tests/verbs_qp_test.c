// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public QP verbs of verbs_qp.c on fake provider ops (t_qp.h): the
 * state the library keeps, ECE and the extended QP, and the dummy ops'
 * answer where the provider has none. Links the static archive, where
 * the seam is reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_qp.h"

/* ibv_modify_qp/ibv_query_qp keep qp->state, only on success. */
static void test_verbs_qp_state(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .state = IBV_QPS_INIT };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	struct ibv_qp_init_attr ia;

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_PORT), 0);
	assert_int_equal(qp.state, IBV_QPS_INIT);
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_STATE), 0);
	assert_int_equal(qp.state, IBV_QPS_RTR);
	fp.ret = EINVAL;
	a.qp_state = IBV_QPS_RTS;
	assert_int_equal(ibv_modify_qp(&qp, &a, IBV_QP_STATE), EINVAL);
	assert_int_equal(qp.state, IBV_QPS_RTR);
	fp.ret = 0;
	assert_int_equal(ibv_query_qp(&qp, &a, IBV_QP_STATE, &ia), 0);
	assert_int_equal(qp.state, IBV_QPS_SQD);
	assert_int_equal(fp.calls, 4);
}

/* Verbs without a provider op answer EOPNOTSUPP (the dummy ops). */
static void test_verbs_unsupported(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx };
	struct ibv_ece ece = { .vendor_id = 0x15b3 };
	union ibv_gid gid = { 0 };

	assert_int_equal(ibv_destroy_qp(&qp), EOPNOTSUPP);
	assert_int_equal(ibv_query_ece(&qp, &ece), EOPNOTSUPP);
	assert_int_equal(ibv_attach_mcast(&qp, &gid, 1), EOPNOTSUPP);
	/* Capability bits, not an error: none promised (rdma-core 44). */
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 0), 0);
}

/* ibv_set_ece: no vendor, no call; ibv_qp_to_qp_ex by comp_mask. */
static void test_verbs_ece_qp_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_qp vqp = { .qp = { .context = ctx } };
	struct ibv_ece ece = { 0 };

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	errno = 0;
	assert_int_equal(ibv_set_ece(&vqp.qp, &ece), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(fp.calls, 0);
	ece.vendor_id = 0x15b3;
	assert_int_equal(ibv_set_ece(&vqp.qp, &ece), 0);
	assert_int_equal(fp.calls, 1);
	assert_null(ibv_qp_to_qp_ex(&vqp.qp));
	vqp.comp_mask = VERBS_QP_EX;
	assert_ptr_equal(ibv_qp_to_qp_ex(&vqp.qp), &vqp.qp_ex);
}

/* What the provider answers and was asked, for the in-order query. */
static struct {
	int caps;
	uint32_t flags;
	int calls;
} in_order;

static int t_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)
{
	in_order.flags = flags;
	in_order.calls++;
	return in_order.caps;
}

/*
 * rdma-core 56.1's rules, read off its library: flags beyond RETURN_CAPS
 * answer 0 unasked; WHOLE_MSG implies ALIGNED_128_BYTES; without
 * RETURN_CAPS the answer is the WHOLE_MSG bit, 0 or 1.
 */
static void test_verbs_data_in_order(void **state)
{
	static const struct verbs_context_ops ops = {
		.query_qp_data_in_order = t_in_order,
	};
	const uint32_t caps = IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS;
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx };

	verbs_set_ops(verbs_get_ctx(ctx), &ops);
	memset(&in_order, 0, sizeof(in_order));
	in_order.caps = IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG;
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 0), 1);
	assert_int_equal(in_order.flags, 0);
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, caps),
			 IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG |
				 IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES);
	assert_int_equal(in_order.flags, caps);
	in_order.caps = IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES;
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 0), 0);
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, caps),
			 IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES);
	assert_int_equal(in_order.calls, 4);
	in_order.caps = IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG;
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, 2), 0);
	assert_int_equal(ibv_query_qp_data_in_order(&qp, IBV_WR_SEND, caps | 4),
			 0);
	assert_int_equal(in_order.calls, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_verbs_qp_state),
		T_CASE(test_verbs_unsupported),
		T_CASE(test_verbs_ece_qp_ex),
		T_CASE(test_verbs_data_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
