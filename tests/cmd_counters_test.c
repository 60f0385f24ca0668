// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The counters commands of cmd_counters.c against a fake kernel behind
 * the transport seam (t_flow.h): create, attach to a flow and destroy,
 * ioctl only, byte for byte, and errors passed through. Links the static
 * archive, where the seam hook is reachable.
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

#include "t_flow.h"

static void test_counters(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { 0 };
	struct verbs_counters vc = { 0 };
	uint64_t vals[3];
	uint8_t want[24 + 48], *p;

	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_CREATE, 1);
	t_put_mattr(p, UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0, 0);
	t_expect(0, true, want, 24 + 16);
	assert_int_equal(vc.handle, T_HANDLE);
	assert_ptr_equal(vc.counters.context, ctx);

	assert_int_equal(ibv_cmd_read_counters(&vc, vals, 3, 1, NULL), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_READ, 3);
	p = t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_HANDLE, 0, T_HANDLE);
	p = t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_BUFF, 24, (uintptr_t)vals);
	t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_FLAGS, 4, 1);
	t_expect(1, true, want, sizeof(want));

	assert_int_equal(ibv_cmd_destroy_counters(&vc), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_DESTROY, 1);
	t_put_mattr(p, UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, 0, T_HANDLE);
	t_expect(2, true, want, 24 + 16);
}

/* The provider's linked attributes travel behind the core's. */
static void test_counters_link(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { 0 };
	struct verbs_counters vc = { 0 };
	uint8_t want[24 + 32], *p;
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_COUNTERS,
			       UVERBS_METHOD_COUNTERS_CREATE, 1);

	fill_attr_in_uint64(drv, 0x1000, 0xfeed);
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, drv), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_CREATE, 2);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0, 0);
	t_put_mattr(p, 0x1000, 8, 0xfeed);
	t_expect(0, true, want, sizeof(want));
}

/* ioctl-only: no write() on an old kernel, and errors pass through. */
static void test_counters_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { .comp_mask = 1 };
	struct verbs_counters vc = { .handle = 5 };
	uint64_t v;

	vc.counters.context = ctx;
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
	tk.refuse_obj = UVERBS_OBJECT_COUNTERS;
	tk.refuse_method = UVERBS_METHOD_COUNTERS_READ;
	assert_int_equal(ibv_cmd_read_counters(&vc, &v, 1, 0, NULL),
			 EPROTONOSUPPORT);
	tk.no_ioctl = true;
	init.comp_mask = 0;
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL),
			 ENOTTY);
	assert_int_equal(vc.handle, 5);
	tk.no_ioctl = false;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_counters(&vc), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_counters(&vc), 0);
	for (unsigned int i = 0; i < tk.ncalls; i++)
		assert_true(tk.log[i].is_ioctl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_counters),
		T_CASE(test_counters_link),
		T_CASE(test_counters_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
