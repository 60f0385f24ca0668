// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failing allocations: for each verb family, the Nth allocation made
 * while the verb runs fails, for N = 1, 2, ... until the verb makes no
 * more of them. Every time the verb must fail cleanly (NULL or an error,
 * errno set) or succeed, leave no block behind (the count of live blocks
 * of t_alloc.h is what it was before), and the library must go on
 * working: the next round runs the same verb again.
 *
 * On our library and siw plugin over the fake siw kernel
 * (t_siw_kernel.h), with the fork tracker on (RDMA netlink hidden, so
 * that the kernel cannot say it is not needed); device listing also
 * cold, each N in a fresh process. siw has no extended CQ or QP, no AH
 * and no flows: alloc_fail_rxe_test and alloc_fail_flow_test take those.
 *
 * What fails is the library's allocations and its provider's, not the
 * dynamic loader's nor the fake kernel's (t_alloc.c). T_ALLOC_TRACE=1
 * prints where the failing allocation came from.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_alloc.h"
#include "t_siw_kernel.h"
#include "t_util.h"

/* What a family's verb made, for its undo. */
struct fam {
	struct ibv_device **list;
	struct ibv_device *dev;
	struct ibv_context *ctx, *made_ctx;
	struct ibv_pd *pd, *made_pd;
	struct ibv_cq *cq, *made_cq;
	struct ibv_comp_channel *channel;
	struct ibv_qp *made_qp;
	struct ibv_srq *made_srq;
	struct ibv_mr *made_mr;
	int n;
};

static char page[4096] __attribute__((aligned(4096)));

static bool made(const void *obj, int *err)
{
	*err = obj ? 0 : errno;
	return obj != NULL;
}

static bool make_list(void *arg, int *err)
{
	struct fam *f = arg;
	struct ibv_device **l = ibv_get_device_list(&f->n);

	/* A list that lost siw0 would be a failure told as a success. */
	if (l)
		assert_int_equal(f->n, 1);
	f->list = l;
	return made(l, err);
}

static void undo_list(void *arg)
{
	struct fam *f = arg;

	ibv_free_device_list(f->list);
}

static bool make_ctx(void *arg, int *err)
{
	struct fam *f = arg;

	return made(f->made_ctx = ibv_open_device(f->dev), err);
}

static void undo_ctx(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_close_device(f->made_ctx), 0);
}

static bool make_pd(void *arg, int *err)
{
	struct fam *f = arg;

	return made(f->made_pd = ibv_alloc_pd(f->ctx), err);
}

static void undo_pd(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_dealloc_pd(f->made_pd), 0);
}

static bool make_mr(void *arg, int *err)
{
	struct fam *f = arg;

	f->made_mr =
		ibv_reg_mr(f->pd, page, sizeof(page), IBV_ACCESS_LOCAL_WRITE);
	return made(f->made_mr, err);
}

static void undo_mr(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_dereg_mr(f->made_mr), 0);
}

static bool make_cq(void *arg, int *err)
{
	struct fam *f = arg;

	return made(f->made_cq = ibv_create_cq(f->ctx, 10, NULL, NULL, 0), err);
}

static void undo_cq(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_destroy_cq(f->made_cq), 0);
}

/* A completion channel and a CQ reporting to it, armed. */
static bool make_events(void *arg, int *err)
{
	struct fam *f = arg;

	f->channel = ibv_create_comp_channel(f->ctx);
	if (!made(f->channel, err))
		return false;
	f->made_cq = ibv_create_cq(f->ctx, 10, NULL, f->channel, 0);
	if (!made(f->made_cq, err)) {
		assert_int_equal(ibv_destroy_comp_channel(f->channel), 0);
		return false;
	}
	assert_int_equal(ibv_req_notify_cq(f->made_cq, 0), 0);
	return true;
}

static void undo_events(void *arg)
{
	struct fam *f = arg;

	undo_cq(f);
	assert_int_equal(ibv_destroy_comp_channel(f->channel), 0);
}

static bool make_qp(void *arg, int *err)
{
	struct fam *f = arg;
	struct ibv_qp_init_attr a = {
		.send_cq = f->cq,
		.recv_cq = f->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return made(f->made_qp = ibv_create_qp(f->pd, &a), err);
}

static void undo_qp(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_destroy_qp(f->made_qp), 0);
}

static bool make_srq(void *arg, int *err)
{
	struct fam *f = arg;
	struct ibv_srq_init_attr a = { .attr = { .max_wr = 5, .max_sge = 1 } };

	return made(f->made_srq = ibv_create_srq(f->pd, &a), err);
}

static void undo_srq(void *arg)
{
	struct fam *f = arg;

	assert_int_equal(ibv_destroy_srq(f->made_srq), 0);
}

static const struct t_alloc_verb families[] = {
	{ "get_device_list", make_list, undo_list },
	{ "open_device", make_ctx, undo_ctx },
	{ "alloc_pd", make_pd, undo_pd },
	{ "reg_mr", make_mr, undo_mr },
	{ "create_cq", make_cq, undo_cq },
	{ "comp_channel", make_events, undo_events },
	{ "create_qp", make_qp, undo_qp },
	{ "create_srq", make_srq, undo_srq },
};

static void test_families(void **state)
{
	struct fam f = { 0 };

	(void)state;
	f.list = ibv_get_device_list(&f.n);
	assert_non_null(f.list);
	assert_int_equal(f.n, 1);
	f.dev = f.list[0];
	f.ctx = ibv_open_device(f.dev);
	assert_non_null(f.ctx);
	f.pd = ibv_alloc_pd(f.ctx);
	f.cq = ibv_create_cq(f.ctx, 10, NULL, NULL, 0);
	assert_true(f.pd && f.cq);
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		struct ibv_device **list = f.list;
		unsigned long n = t_alloc_each(&families[i], &f);

		f.list = list;
		printf("%-16s %lu allocations, each failing in turn\n",
		       families[i].name, n);
		assert_true(n > 0 || !strcmp(families[i].name, "alloc_pd") ||
			    !strcmp(families[i].name, "reg_mr"));
	}
	assert_int_equal(ibv_destroy_cq(f.cq), 0);
	assert_int_equal(ibv_dealloc_pd(f.pd), 0);
	assert_int_equal(ibv_close_device(f.ctx), 0);
	ibv_free_device_list(f.list);
}

/* Blocks alive after a cold listing (failing at @n, 0: none) and a clean one. */
static long *cold_live;

static int cold_list(void *arg)
{
	unsigned long n = (uintptr_t)arg;
	struct ibv_device **l;
	int count;

	t_alloc_fail_at(n);
	l = ibv_get_device_list(&count);
	cold_live[1] = t_alloc_failed();
	t_alloc_fail_at(0);
	if (l) {
		if (count != 1)
			return 2;
		ibv_free_device_list(l);
	} else if (!errno) {
		return 3;
	}
	/* Usable afterwards; what stays is what a clean listing keeps. */
	l = ibv_get_device_list(&count);
	if (!l || count != 1)
		return 4;
	ibv_free_device_list(l);
	cold_live[0] = t_alloc_live();
	return 0;
}

static void test_cold_listing(void **state)
{
	long keep;
	unsigned long n;

	(void)state;
	cold_live = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(cold_live != MAP_FAILED);
	assert_int_equal(t_run(cold_list, (void *)0), 0);
	keep = cold_live[0];
	for (n = 1;; n++) {
		int ret = t_run(cold_list, (void *)(uintptr_t)n);

		if (ret)
			fail_msg(
				"cold listing, allocation %lu failing: status %d",
				n, ret);
		/* Fewer is fine: a one-time cache went without (the log file). */
		if (cold_live[0] > keep)
			fail_msg(
				"cold listing, allocation %lu failing: %ld blocks leaked",
				n, cold_live[0] - keep);
		if (!cold_live[1])
			break;
	}
	printf("%-16s %lu allocations, each failing in turn\n", "cold listing",
	       n - 1);
	munmap(cold_live, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cold_listing),
		cmocka_unit_test(test_families),
	};

	/* The tracker on, as RDMAV_FORK_SAFE would turn it on. */
	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	if (ibv_fork_init())
		return 1;
	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
