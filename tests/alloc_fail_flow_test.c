// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failing allocations in steering flows: ibv_create_flow() with each of
 * its allocations failing in turn, then ibv_destroy_flow(), as in
 * alloc_fail_test (t_alloc_each()).
 *
 * Neither of our providers has flows (rdma_rxe and siw have none), so
 * the flows come from the test provider, a plugin of its own like a
 * NIC's provider: its create_flow op allocates the struct ibv_flow and
 * asks the library's ibv_cmd_create_flow(), whose command reaches the
 * fake uverbs kernel of t_uverbs.h, on each of its kernels (ioctl,
 * write() only, the tunnel). A provider built into this program would
 * not do: t_alloc.c spares the program's own allocations. The provider
 * has no QPs; the flow's QP is one the test names by a handle, which
 * is all the command carries of it. The library builds the command on
 * the stack: the provider's object is the one allocation expected.
 */
#include <errno.h>
#include <setjmp.h>
#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_alloc.h"
#include "t_diffrun.h"
#include "t_util.h"
#include "t_uverbs.h"

struct base {
	struct ibv_qp qp;
	struct ibv_flow *made;
};

/* One Ethernet spec, right behind the attributes: frames to one MAC. */
struct flow_rule {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
};
static_assert(offsetof(struct flow_rule, eth) == sizeof(struct ibv_flow_attr),
	      "the spec follows the attributes");

static bool make_flow(void *arg, int *err)
{
	struct base *b = arg;
	struct flow_rule r = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(r),
			  .num_of_specs = 1,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(r.eth),
			 .val.dst_mac = { 2, 0, 0, 0, 0, 1 },
			 .mask.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff } },
	};

	b->made = ibv_create_flow(&b->qp, &r.attr);
	*err = b->made ? 0 : errno;
	/* The handle is the kernel's answer: the command went out. */
	if (b->made)
		assert_int_not_equal(b->made->handle, 0);
	return b->made != NULL;
}

static void undo_flow(void *arg)
{
	struct base *b = arg;

	assert_int_equal(ibv_destroy_flow(b->made), 0);
}

static const struct t_alloc_verb flow = { "create_flow", make_flow, undo_flow };

static void test_flow(void **state)
{
	struct base b = { 0 };
	struct ibv_device **list;
	unsigned long n;
	int count;

	(void)state;
	list = ibv_get_device_list(&count);
	assert_non_null(list);
	assert_int_equal(count, 1);
	b.qp.context = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	assert_non_null(b.qp.context);
	b.qp.handle = 7;
	b.qp.qp_type = IBV_QPT_RAW_PACKET;
	n = t_alloc_each(&flow, &b);
	printf("%-16s %lu allocations, each failing in turn\n", flow.name, n);
	assert_int_equal(n, 1);
	assert_int_equal(ibv_close_device(b.qp.context), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow),
	};
	struct t_dev dev = T_DEV(0, .maj = T_UV_MAJOR, .min = T_UV_MINOR);
	char *root = t_fake_kernel(true);
	int ret = 0;

	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	free(root);
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++) {
		t_uv_reset(t_diffrun_kernels[k]);
		ret |= _cmocka_run_group_tests(
			t_uv_kernel_name(t_diffrun_kernels[k]), tests, 1, NULL,
			NULL);
	}
	return ret;
}
