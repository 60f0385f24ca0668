// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The WQ commands of cmd_wq.c against a fake kernel behind the transport
 * seam (t_flow.h): create, modify and destroy of work queues and the
 * create of an indirection table, byte for byte, the write() fallbacks
 * and their memory, the answers decoded into the objects, errors passed
 * through, and a destroy that waits for its events to be acked. Links
 * the static archive, where the seam hook is reachable.
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

/* struct ib_uverbs_ex_create_wq after both headers, from the uverbs ABI. */
enum {
	EX_CREATE_WQ_CREATE_FLAGS = EX_HDRS_SIZE + 32,
};

struct t_wq_cmd {
	struct ibv_create_wq ibv;
	uint64_t drv;
};

struct t_wq_resp {
	struct ib_uverbs_ex_create_wq_resp ibv;
	uint64_t drv;
};

struct t_wq {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_wq wq;
	struct ibv_wq_init_attr init;
	struct t_wq_cmd cmd;
	struct t_wq_resp resp;
};

static void t_wq_init(struct t_wq *t, struct ibv_context *ctx)
{
	memset(t, 0, sizeof(*t));
	t->pd.handle = 0x11;
	t->cq.handle = 0x22;
	t->init =
		(struct ibv_wq_init_attr){ .wq_type = IBV_WQT_RQ,
					   .max_wr = 100,
					   .max_sge = 4,
					   .pd = &t->pd,
					   .cq = &t->cq,
					   .comp_mask = IBV_WQ_INIT_ATTR_FLAGS,
					   .create_flags = 0x2 };
	t->cmd.drv = 0xd0d0;
	(void)ctx;
}

static int t_create_wq(struct ibv_context *ctx, struct t_wq *t)
{
	return ibv_cmd_create_wq(ctx, &t->init, &t->wq, &t->cmd.ibv,
				 sizeof(t->cmd), &t->resp.ibv, sizeof(t->resp));
}

/* The WQ and its init attr hold the kernel's answer to the create. */
static void t_expect_wq_answer(const struct t_wq *t, struct ibv_context *ctx,
			       uint32_t wq_num, uint32_t max_wr,
			       uint32_t max_sge)
{
	assert_int_equal(t->wq.handle, T_HANDLE);
	assert_int_equal(t->wq.wq_num, wq_num);
	assert_int_equal(t->init.max_wr, max_wr);
	assert_int_equal(t->init.max_sge, max_sge);
	assert_ptr_equal(t->wq.context, ctx);
}

/* WQ/CREATE: every attribute, the provider's data last, outputs read. */
static void test_create_wq_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[IOCTL_ATTR(14)], *p;
	struct t_wq t;

	t_wq_init(&t, ctx);
	ctx->async_fd = 9;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE,
			    14);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_HANDLE, 0, 0);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_USER_HANDLE, 8,
			(uintptr_t)&t.wq);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_PD_HANDLE, 0, 0x11);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE, 0, 0x22);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_TYPE, 8, IBV_WQT_RQ);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_MAX_WR, 4, 100);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_MAX_SGE, 4, 4);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_EVENT_FD, 0, 9);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_FLAGS, 4, 2);
	/* The three outputs point into the library's stack: compare apart. */
	for (int i = 0; i < 3; i++)
		p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR + i, 4, 0);
	p = t_put_mattr(p, UVERBS_ATTR_UHW_IN, 8, 0xd0d0);
	t_put_mattr(p, UVERBS_ATTR_UHW_OUT, 8, (uintptr_t)&t.resp.drv);
	for (int i = 9; i < 12; i++)
		memset(tk.log[0].bytes + IOCTL_ATTR(i) + ATTR_DATA, 0, 8);
	t_expect(0, true, want, sizeof(want));
	t_expect_wq_answer(&t, ctx, 0x456, 32, 2);
	assert_ptr_equal(t.wq.pd, &t.pd);
	assert_ptr_equal(t.wq.cq, &t.cq);
	assert_int_equal(t.wq.wq_type, IBV_WQT_RQ);
}

/* Without an async event file the EVENT_FD attribute is left out. */
static void test_create_wq_no_event_fd(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(t_get16(tk.log[0].bytes + IOCTL_HDR_NUM_ATTRS), 13);
	for (unsigned int i = 0; i < 13; i++)
		assert_int_not_equal(
			t_get16(tk.log[0].bytes + IOCTL_ATTR(i) + ATTR_ID),
			UVERBS_ATTR_CREATE_WQ_EVENT_FD);
}

/* A kernel without WQ/CREATE gets the extended write() command. */
static void test_create_wq_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[24 + 40 + 8], *p;
	struct t_wq t;

	t_wq_init(&t, ctx);
	tk.no_ioctl = true;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_CREATE_WQ, 5, 3,
			 (uintptr_t)&t.resp, 1, 1);
	p = t_put32(p, 0); /* comp_mask */
	p = t_put32(p, IBV_WQT_RQ);
	p = t_put64(p, (uintptr_t)&t.wq);
	p = t_put32(p, 0x11);
	p = t_put32(p, 0x22);
	p = t_put32(p, 100);
	p = t_put32(p, 4);
	p = t_put32(p, 2);
	p = t_put32(p, 0);
	t_put64(p, 0xd0d0);
	/* WQ/CREATE refused, the tunnel probed and refused, then write(). */
	assert_int_equal(tk.ncalls, 2);
	t_expect(1, false, want, sizeof(want));
	t_expect_wq_answer(&t, ctx, 0x123, 64, 3);

	tk.ncalls = 0;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(tk.ncalls, 1);
	assert_false(tk.log[0].is_ioctl);
}

/*
 * create_flags without IBV_WQ_INIT_ATTR_FLAGS are stale bits of a reused
 * struct: 0 goes to the kernel, as an attribute and in the write() form.
 */
static void test_create_wq_stale_flags(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	ctx->async_fd = 9;
	t.init.comp_mask = 0;
	t.init.create_flags = IBV_WQ_FLAGS_CVLAN_STRIPPING;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(t_get16(tk.log[0].bytes + IOCTL_ATTR(8) + ATTR_ID),
			 UVERBS_ATTR_CREATE_WQ_FLAGS);
	assert_int_equal(t_get64(tk.log[0].bytes + IOCTL_ATTR(8) + ATTR_DATA),
			 0);

	t_kernel_reset();
	tk.no_ioctl = true;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	/* create_flags, and the reserved word after them */
	assert_int_equal(t_get64(tk.log[1].bytes + EX_CREATE_WQ_CREATE_FLAGS),
			 0);
}

static void test_create_wq_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	t.init.comp_mask = IBV_WQ_INIT_ATTR_RESERVED;
	errno = 0;
	assert_int_equal(t_create_wq(ctx, &t), EINVAL);
	assert_int_equal(errno, EINVAL);
	/* An unknown comp_mask leaves the WQ untouched, as in rdma-core 44 */
	assert_null(t.wq.context);
	t_wq_init(&t, ctx);
	t.init.create_flags = IBV_WQ_FLAGS_RESERVED;
	assert_int_equal(t_create_wq(ctx, &t), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	/* ... unknown flags come later, when the WQ's fields are set. */
	assert_ptr_equal(t.wq.context, ctx);
	assert_ptr_equal(t.wq.pd, &t.pd);
	assert_ptr_equal(t.wq.cq, &t.cq);
	assert_int_equal(tk.ncalls, 0);
	/* Unasked-for flags are not checked (and are sent as they are). */
	t.init.comp_mask = 0;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	t_wq_init(&t, ctx);
	t_fail_next(ENOMEM);
	assert_int_equal(t_create_wq(ctx, &t), ENOMEM);
	assert_int_equal(t.wq.handle, 0);
}

struct t_modify_wq {
	struct ibv_modify_wq ibv;
	uint64_t drv;
};

static void test_modify_wq(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq wq = { .context = ctx,
			     .handle = 0x71,
			     .state = IBV_WQS_RESET };
	struct ibv_wq_attr attr = { .attr_mask = IBV_WQ_ATTR_STATE |
						 IBV_WQ_ATTR_FLAGS,
				    .wq_state = IBV_WQS_RDY,
				    .flags = 1,
				    .flags_mask = 3 };
	struct t_modify_wq cmd;
	uint8_t want[EX_HDRS_SIZE + 24 + 8], *p; /* core 24, driver 8 */

	memset(&cmd, 0xee, sizeof(cmd));
	cmd.drv = 0x5e;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_MODIFY_WQ, 3, 0, 0, 1, 0);
	p = t_put32(p, IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_FLAGS);
	p = t_put32(p, 0x71);
	p = t_put32(p, IBV_WQS_RDY);
	p = t_put32(p, 0); /* curr_wq_state */
	p = t_put32(p, 1);
	p = t_put32(p, 3);
	t_put64(p, 0x5e);
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(wq.state, IBV_WQS_RDY);

	attr.attr_mask = IBV_WQ_ATTR_RESERVED;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EINVAL);
	attr.attr_mask = IBV_WQ_ATTR_FLAGS;
	attr.flags_mask = IBV_WQ_FLAGS_RESERVED;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EOPNOTSUPP);
	attr.attr_mask = IBV_WQ_ATTR_STATE;
	attr.wq_state = IBV_WQS_ERR;
	t_fail_next(EINVAL);
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EINVAL);
	assert_int_equal(wq.state, IBV_WQS_RDY);
}

static void t_wq_obj(struct ibv_wq *wq, struct ibv_context *ctx)
{
	memset(wq, 0, sizeof(*wq));
	wq->context = ctx;
	wq->handle = 0x81;
	pthread_mutex_init(&wq->mutex, NULL);
	pthread_cond_init(&wq->cond, NULL);
}

/* WQ/DESTROY: the response attribute first, then the handle. */
static void test_destroy_wq_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[24 + 32], *p;
	struct ibv_wq wq;

	t_wq_obj(&wq, ctx);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_DESTROY,
			    2);
	p = t_put_mattr(p, UVERBS_ATTR_DESTROY_WQ_RESP, 4, 0);
	t_put_mattr(p, UVERBS_ATTR_DESTROY_WQ_HANDLE, 0, 0x81);
	memset(tk.log[0].bytes + IOCTL_ATTR(0) + ATTR_DATA, 0, 8);
	t_expect(0, true, want, sizeof(want));
}

static void test_destroy_wq_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[32], *p;
	struct ibv_wq wq;

	t_wq_obj(&wq, ctx);
	tk.no_ioctl = true;
	fk.events = 2;
	wq.events_completed = 2;
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_DESTROY_WQ, 1, 2,
			 t_resp_ptr(1), 0, 0);
	p = t_put32(p, 0);
	t_put32(p, 0x81);
	t_expect(1, false, want, sizeof(want));

	tk.no_ioctl = false;
	tk.refuse_obj = UVERBS_OBJECT_WQ;
	tk.refuse_method = UVERBS_METHOD_WQ_DESTROY;
	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), EBUSY);
}

struct t_acker {
	struct ibv_wq *wq;
	uint32_t n;
	volatile bool acked;
};

/* The application's ibv_ack_async_event(), late. */
static void *t_ack_later(void *arg)
{
	struct t_acker *a = arg;
	struct timespec delay = { 0, 50 * 1000 * 1000 };

	nanosleep(&delay, NULL);
	pthread_mutex_lock(&a->wq->mutex);
	a->wq->events_completed += a->n;
	a->acked = true;
	pthread_cond_signal(&a->wq->cond);
	pthread_mutex_unlock(&a->wq->mutex);
	return NULL;
}

/*
 * The kernel reported 3 events, the application acked 1 so far: the
 * destroy returns only once the other 2 are acked. alarm() bounds the
 * wait should the destroy never return.
 */
static void test_destroy_wq_waits_for_acks(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq wq;
	struct t_acker a = { .wq = &wq, .n = 2 };
	pthread_t th;

	t_wq_obj(&wq, ctx);
	wq.events_completed = 1;
	fk.events = 3;
	alarm(10);
	assert_int_equal(pthread_create(&th, NULL, t_ack_later, &a), 0);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	assert_true(a.acked);
	pthread_join(th, NULL);
	alarm(0);

	/* A destroy that failed does not wait. */
	wq.events_completed = 0;
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
}

static void test_create_rwq_ind_table(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq w0 = { .handle = 0x100 }, w1 = { .handle = 0x101 };
	struct ibv_wq *tbl[2] = { &w0, &w1 };
	struct ibv_rwq_ind_table_init_attr init = { .log_ind_tbl_size = 1,
						    .ind_tbl = tbl };
	struct ibv_rwq_ind_table t = { 0 };
	struct {
		struct ib_uverbs_ex_create_rwq_ind_table_resp ibv;
		uint64_t drv;
	} resp;
	uint8_t want[IOCTL_ATTR(1)], *p;

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL, 2, 2,
			 (uintptr_t)&resp, 0, 1);
	p = t_put32(p, 0);
	p = t_put32(p, 1);
	p = t_put32(p, 0x100);
	t_put32(p, 0x101);
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(t.ind_tbl_handle, T_HANDLE);
	assert_int_equal(t.ind_tbl_num, 0x99);
	assert_ptr_equal(t.context, ctx);

	/* One entry: the request is padded to a multiple of 8. */
	init.log_ind_tbl_size = 0;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 0);
	assert_int_equal(tk.log[2].len, 40);

	fk.resp_len_override = 12; /* a kernel that answered short */
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	tk.ncalls = 0;
	init.log_ind_tbl_size = 14;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	init.log_ind_tbl_size = 0;
	init.comp_mask = IBV_CREATE_IND_TABLE_RESERVED;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_wq_ioctl),
		T_CASE(test_create_wq_no_event_fd),
		T_CASE(test_create_wq_fallback),
		T_CASE(test_create_wq_stale_flags),
		T_CASE(test_create_wq_errors),
		T_CASE(test_modify_wq),
		T_CASE(test_destroy_wq_ioctl),
		T_CASE(test_destroy_wq_fallback),
		T_CASE(test_destroy_wq_waits_for_acks),
		T_CASE(test_create_rwq_ind_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
