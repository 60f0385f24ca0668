// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public CQ verbs of verbs_cq.c on fake provider ops (t_cq.h): the
 * core fields they set whatever the provider left there, the completion
 * channel's reference taken and released, and the extended create's
 * checks. Links the static archive, where the hidden hooks are reachable.
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "libibverbs/verbs_cq.h"
#include "t_cq.h"

/* The core fields, whatever the provider left in them. */
static void test_create_cq_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx, .fd = -1 };
	struct ibv_cq *cq;
	int cookie;

	cq = ibv_create_cq(ctx, 10, &cookie, &ch, 3);
	assert_ptr_equal(cq, &prov.cq);
	assert_ptr_equal(cq->context, ctx);
	assert_ptr_equal(cq->channel, &ch);
	assert_ptr_equal(cq->cq_context, &cookie);
	assert_int_equal(cq->comp_events_completed, 0);
	assert_int_equal(cq->async_events_completed, 0);
	assert_int_equal(pthread_mutex_trylock(&cq->mutex), 0);
	pthread_mutex_unlock(&cq->mutex);
	assert_int_equal(ch.refcnt, 1);
	prov.fail = true;
	assert_null(ibv_create_cq(ctx, 10, NULL, &ch, 3));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(ch.refcnt, 1);
	assert_int_equal(prov.calls, 2);
}

/* The channel is released only when the provider destroyed the CQ. */
static void test_destroy_cq_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx, .fd = -1, .refcnt = 1 };
	struct ibv_cq cq = { .context = ctx, .channel = &ch };

	prov.ret = EBUSY;
	assert_int_equal(ibv_destroy_cq(&cq), EBUSY);
	assert_int_equal(ch.refcnt, 1);
	prov.ret = 0;
	assert_int_equal(ibv_destroy_cq(&cq), 0);
	assert_int_equal(ch.refcnt, 0);
	assert_ptr_equal(prov.last_cq, &cq);
	cq.channel = NULL;
	assert_int_equal(ibv_destroy_cq(&cq), 0);
	assert_int_equal(prov.calls, 3);
}

static void test_resize_cq_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx };

	prov.ret = EINVAL;
	assert_int_equal(ibv_resize_cq(&cq, 77), EINVAL);
	prov.ret = 0;
	assert_int_equal(ibv_resize_cq(&cq, 77), 0);
	assert_ptr_equal(prov.last_cq, &cq);
}

static void test_lib_create_cq_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx, .fd = -1 };
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 10,
		.cq_context = &ch,
		.channel = &ch,
		.wc_flags = IBV_CREATE_CQ_SUP_WC_FLAGS,
	};
	struct ibv_cq_ex *cq;

	cq = verbs_create_cq_ex(ctx, &attr);
	assert_ptr_equal(cq, &prov.vcq.cq_ex);
	assert_ptr_equal(cq->context, ctx);
	assert_ptr_equal(cq->channel, &ch);
	assert_ptr_equal(cq->cq_context, &ch);
	assert_int_equal(cq->comp_events_completed, 0);
	assert_int_equal(ch.refcnt, 1);
	attr.wc_flags |= 1 << 12;
	errno = 0;
	assert_null(verbs_create_cq_ex(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(prov.calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_VERB(test_create_cq_verb),
		T_VERB(test_destroy_cq_verb),
		T_VERB(test_resize_cq_verb),
		T_VERB(test_lib_create_cq_ex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
