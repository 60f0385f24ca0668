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

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_verbs_qp_state),
		T_CASE(test_verbs_unsupported),
		T_CASE(test_verbs_ece_qp_ex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
