// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The core fields the public create verbs set on fake provider ops
 * (t_qp.h): ibv_create_srq() of verbs_srq.c, and in the same case
 * ibv_create_ah() and ibv_destroy_ah() of verbs_ah.c. Links the static
 * archive, where the seam is reachable.
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

/* ibv_create_srq and ibv_create_ah set the core's fields. */
static void test_verbs_srq_ah_fields(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct ibv_srq_init_attr sa = { .srq_context = &pd };
	struct ibv_ah_attr aa = { 0 };
	struct ibv_srq *srq;
	struct ibv_ah *ah;

	memset(&fp, 0, sizeof(fp));
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	srq = ibv_create_srq(&pd, &sa);
	assert_ptr_equal(srq, &fp.srq);
	assert_ptr_equal(srq->context, ctx);
	assert_ptr_equal(srq->srq_context, &pd);
	assert_ptr_equal(srq->pd, &pd);
	assert_int_equal(srq->events_completed, 0);
	assert_int_equal(pthread_mutex_trylock(&srq->mutex), 0);
	pthread_mutex_unlock(&srq->mutex);
	ah = ibv_create_ah(&pd, &aa);
	assert_ptr_equal(ah, &fp.ah);
	assert_ptr_equal(ah->context, ctx);
	assert_ptr_equal(ah->pd, &pd);
	fp.ret = EBUSY;
	assert_int_equal(ibv_destroy_ah(ah), EBUSY);
	assert_int_equal(fp.calls, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_verbs_srq_ah_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
