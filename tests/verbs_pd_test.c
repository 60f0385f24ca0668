// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public PD verbs of verbs_pd.c on fake provider ops (t_mem.h): the
 * dispatch to the provider and the core fields the library sets, the
 * compat slots rdma-core 44 fills for old binaries, the dummy ops'
 * answer where the provider has none, and the import verbs of PDs, MRs
 * and device memory.
 * Links the static archive, where the hidden seam and hooks are reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_mem.h"

/*
 * The old ibv_context_ops slots of moved ops hold the provider's op, as
 * rdma-core 44 leaves them for binaries that still read them.
 */
static void test_compat_slots(void **state)
{
	struct ibv_context *ctx = *state;

	assert_ptr_equal((void *)ctx->ops._compat_alloc_pd,
			 (void *)fake_ops.alloc_pd);
	assert_ptr_equal((void *)ctx->ops._compat_reg_mr,
			 (void *)fake_ops.reg_mr);
	assert_ptr_equal((void *)ctx->ops._compat_dealloc_pd,
			 (void *)fake_ops.dealloc_pd);
}

static void test_alloc_pd_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd *pd;

	pd = ibv_alloc_pd(ctx);
	assert_ptr_equal(pd, &fp.pd);
	assert_ptr_equal(fp.arg, ctx);
	fp.pd.context = NULL;
	assert_ptr_equal(ibv_alloc_pd(ctx), &fp.pd);
	assert_ptr_equal(fp.pd.context, ctx); /* set by the library */
	fp.fail = ENOMEM;
	errno = 0;
	assert_null(ibv_alloc_pd(ctx));
	assert_int_equal(errno, ENOMEM);
	fp.fail = EBUSY;
	assert_int_equal(ibv_dealloc_pd(&fp.pd), EBUSY);
	assert_ptr_equal(fp.arg, &fp.pd);
	fp.fail = 0;
	assert_int_equal(ibv_dealloc_pd(&fp.pd), 0);
	assert_int_equal(fp.calls, 5);
}

/* Without a provider op the library's dummy answers EOPNOTSUPP. */
static void test_verbs_without_op(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };

	errno = 0;
	assert_null(ibv_alloc_pd(ctx));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_reg_dmabuf_mr(&pd, 0, 4096, 0, 3, 0));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_dealloc_pd(&pd), EOPNOTSUPP);
}

static void test_import_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_mr mr = { .context = ctx };
	struct ibv_dm dm = { .context = ctx };

	assert_ptr_equal(ibv_import_pd(ctx, 21), &fp.pd);
	assert_int_equal(fp.flags, 21);
	ibv_unimport_pd(&fp.pd);
	assert_ptr_equal(fp.arg, &fp.pd);
	assert_null(ibv_import_mr(&fp.pd, 22));
	assert_int_equal(fp.flags, 22);
	assert_ptr_equal(fp.arg, &fp.pd);
	ibv_unimport_mr(&mr);
	assert_ptr_equal(fp.arg, &mr);
	assert_null(ibv_import_dm(ctx, 23));
	assert_int_equal(fp.flags, 23);
	ibv_unimport_dm(&dm);
	assert_ptr_equal(fp.arg, &dm);
	assert_int_equal(fp.calls, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_VERB(test_compat_slots),
		T_VERB(test_alloc_pd_verb),
		T_CMD(test_verbs_without_op),
		T_VERB(test_import_verbs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
