// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The command layer's one errno rule (driver.h, above the ibv_cmd_*()
 * declarations): a failed ibv_cmd_*() returns a positive errno value and
 * leaves the same value in errno, whether the library refused the call
 * before sending anything or the kernel failed it.
 *
 * Every check the library makes of its own is called once with input it
 * refuses, errno set beforehand to a value no call gives; then kernel
 * failures over write(), an ioctl method and the INVOKE_WRITE tunnel,
 * and a check made on the kernel's answer. driver_cmd_diff_test shows
 * the same calls beside rdma-core 44, which leaves errno alone for some
 * of its checks.
 *
 * Links the static archive, where the fake kernel's seam is reachable.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

#define T_DRIVER_ID 7

/* No call gives this; seeing it means a call left errno alone. */
#define UNTOUCHED 1234

static int t_setup(void **state)
{
	/* The tunnel refused: write()-format commands go by write(). */
	t_kernel_reset();
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

/* The objects the refused calls name; the kernel never sees them. */
struct objs {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_qp qp;
	struct ibv_srq srq;
	struct ibv_wq wq;
	struct verbs_qp vqp;
	struct verbs_srq vsrq;
	struct verbs_xrcd xrcd;
	struct verbs_mr mr;
	struct verbs_dm dm;
	struct verbs_cq vcq;
	struct verbs_counters counters;
	struct ibv_flow flow;
	struct ibv_rwq_ind_table table;
	struct ibv_comp_cntr comp_cntr;
};

/* Room for any command and response below. */
static uint64_t cmd[64], resp[64];

/*
 * One call the library refuses; @mask and @flags are what the entry of
 * refusals[] below gives (the comp_mask, attr_mask or flags at fault).
 */
typedef int refuse_fn(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		      uint32_t flags);

static int create_counters(struct ibv_context *ctx, struct objs *o,
			   uint32_t mask, uint32_t flags)
{
	struct ibv_counters_init_attr a = { .comp_mask = mask };

	return ibv_cmd_create_counters(ctx, &a, &o->counters, NULL);
}

static int create_cq_ex(struct ibv_context *ctx, struct objs *o, uint32_t mask,
			uint32_t flags)
{
	struct ibv_cq_init_attr_ex a = { .cqe = 4, .comp_mask = mask };

	return ibv_cmd_create_cq_ex(ctx, &a, NULL, &o->vcq, (void *)cmd,
				    sizeof(struct ibv_create_cq_ex),
				    (void *)resp,
				    sizeof(struct ib_uverbs_ex_create_cq_resp),
				    flags);
}

static int modify_cq(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_modify_cq_attr a = { .attr_mask = mask };

	return ibv_cmd_modify_cq(&o->cq, &a, (void *)cmd,
				 sizeof(struct ibv_modify_cq));
}

static int query_device(struct ibv_context *ctx, struct objs *o, uint32_t mask,
			uint32_t flags)
{
	struct ibv_query_device_ex_input in = { .comp_mask = mask };
	struct ibv_device_attr_ex attr;

	return ibv_cmd_query_device_any(ctx, &in, &attr, sizeof(attr), NULL,
					NULL);
}

/* Implicit ODP (the whole address space) with an address. */
static int reg_mr_odp(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		      uint32_t flags)
{
	return ibv_cmd_reg_mr(&o->pd, o, SIZE_MAX, 0, flags, &o->mr,
			      (void *)cmd, sizeof(struct ibv_reg_mr),
			      (void *)resp,
			      sizeof(struct ib_uverbs_reg_mr_resp));
}

static int reg_dm_mr(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	return ibv_cmd_reg_dm_mr(&o->pd, &o->dm, 0, 4096, flags, &o->mr, NULL);
}

/* More provider data than the extended header counts. */
static int create_flow(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		       uint32_t flags)
{
	struct ibv_flow_attr a = { .size = sizeof(a) };

	return ibv_cmd_create_flow(&o->qp, &o->flow, &a, cmd, SIZE_MAX);
}

/* The posts refuse a negative scatter count. */
static int post_send(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_send_wr wr = { .num_sge = -1 }, *bad;

	return ibv_cmd_post_send(&o->qp, &wr, &bad);
}

static int post_recv(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_recv_wr wr = { .num_sge = -1 }, *bad;

	return flags ? ibv_cmd_post_srq_recv(&o->srq, &wr, &bad) :
		       ibv_cmd_post_recv(&o->qp, &wr, &bad);
}

/* @flags is the QP type here. */
static int create_qp(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_qp_init_attr a = { .qp_type = flags };

	return ibv_cmd_create_qp(&o->pd, &o->qp, &a, (void *)cmd,
				 sizeof(struct ibv_create_qp), (void *)resp,
				 sizeof(struct ib_uverbs_create_qp_resp));
}

static int create_qp_ex(struct ibv_context *ctx, struct objs *o, uint32_t mask,
			uint32_t flags)
{
	struct ibv_qp_init_attr_ex a = { .comp_mask = mask, .pd = &o->pd };

	return ibv_cmd_create_qp_ex(ctx, &o->vqp, &a, (void *)cmd,
				    sizeof(struct ibv_create_qp), (void *)resp,
				    sizeof(struct ib_uverbs_create_qp_resp));
}

static int open_qp(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		   uint32_t flags)
{
	struct ibv_qp_open_attr a = { .comp_mask = mask };

	return ibv_cmd_open_qp(ctx, &o->vqp, sizeof(o->vqp), &a, (void *)cmd,
			       sizeof(struct ibv_open_qp), (void *)resp,
			       sizeof(struct ib_uverbs_create_qp_resp));
}

static int query_qp(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		    uint32_t flags)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	return ibv_cmd_query_qp(&o->qp, &attr, mask, &init, (void *)cmd,
				sizeof(struct ibv_query_qp));
}

static int modify_qp(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_qp_attr attr = { 0 };

	return ibv_cmd_modify_qp(&o->qp, &attr, mask, (void *)cmd,
				 sizeof(struct ibv_modify_qp));
}

static int create_srq_ex(struct ibv_context *ctx, struct objs *o, uint32_t mask,
			 uint32_t flags)
{
	struct ibv_srq_init_attr_ex a = { .comp_mask = mask, .pd = &o->pd };

	return ibv_cmd_create_srq_ex(ctx, &o->vsrq, &a, (void *)cmd,
				     sizeof(struct ibv_create_xsrq),
				     (void *)resp,
				     sizeof(struct ib_uverbs_create_srq_resp));
}

/* A request shorter than the kernel's core struct. */
static int modify_srq(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		      uint32_t flags)
{
	struct ibv_srq_attr attr = { 0 };

	return ibv_cmd_modify_srq(&o->srq, &attr, mask, (void *)cmd, 4);
}

static int create_wq(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_wq_init_attr a = {
		.comp_mask = mask,
		.wq_type = IBV_WQT_RQ,
		.pd = &o->pd,
		.cq = &o->cq,
		.create_flags = flags,
	};

	return ibv_cmd_create_wq(ctx, &a, &o->wq, (void *)cmd,
				 sizeof(struct ibv_create_wq), (void *)resp,
				 sizeof(struct ib_uverbs_ex_create_wq_resp));
}

static int modify_wq(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_wq_attr a = { .attr_mask = mask, .flags_mask = flags };

	return ibv_cmd_modify_wq(&o->wq, &a, (void *)cmd,
				 sizeof(struct ibv_modify_wq));
}

static int create_ind_table(struct ibv_context *ctx, struct objs *o,
			    uint32_t mask, uint32_t flags)
{
	struct ibv_rwq_ind_table_init_attr a = { .comp_mask = mask };

	return ibv_cmd_create_rwq_ind_table(
		ctx, &a, &o->table, (void *)resp,
		sizeof(struct ib_uverbs_ex_create_rwq_ind_table_resp));
}

static int open_xrcd(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		     uint32_t flags)
{
	struct ibv_xrcd_init_attr a = { .comp_mask = mask };

	return ibv_cmd_open_xrcd(ctx, &o->xrcd, sizeof(o->xrcd), &a,
				 (void *)cmd, sizeof(struct ibv_open_xrcd),
				 (void *)resp,
				 sizeof(struct ib_uverbs_open_xrcd_resp));
}

/* A request of partial words, which no write() header can count. */
static int alloc_pd(struct ibv_context *ctx, struct objs *o, uint32_t mask,
		    uint32_t flags)
{
	return ibv_cmd_alloc_pd(ctx, &o->pd, (void *)cmd,
				sizeof(struct ibv_alloc_pd) + 3, (void *)resp,
				sizeof(struct ib_uverbs_alloc_pd_resp));
}

/* @flags: the caps size, short of the library's struct. */
static int query_comp_cntr_caps(struct ibv_context *ctx, struct objs *o,
				uint32_t mask, uint32_t flags)
{
	struct ibv_comp_cntr_caps caps;

	return ibv_cmd_query_comp_cntr_caps(ctx, &caps, flags);
}

/* @flags: the op_mask. */
static int qp_attach_comp_cntr(struct ibv_context *ctx, struct objs *o,
			       uint32_t mask, uint32_t flags)
{
	struct ibv_qp_attach_comp_cntr_attr a = { .comp_mask = mask,
						  .op_mask = flags };

	o->qp.context = ctx;
	o->comp_cntr.context = ctx;
	return ibv_cmd_qp_attach_comp_cntr(&o->qp, &o->comp_cntr, &a);
}

struct refusal {
	const char *what;
	refuse_fn *call;
	uint32_t mask, flags;
	int err;
};

#define REFUSAL(fn, mask, flags, err)     \
	{                                 \
#fn, fn, mask, flags, err \
	}

static const struct refusal refusals[] = {
	REFUSAL(create_counters, 1, 0, EOPNOTSUPP),
	REFUSAL(create_cq_ex, 1u << 31, 0, EOPNOTSUPP),
	REFUSAL(modify_cq, IBV_CQ_ATTR_RESERVED, 0, EINVAL),
	REFUSAL(query_device, 1, 0, EINVAL),
	REFUSAL(reg_mr_odp, 0, IBV_ACCESS_ON_DEMAND, EINVAL),
	REFUSAL(reg_dm_mr, 0, 0, EINVAL), /* not ZERO_BASED */
	REFUSAL(create_flow, 0, 0, EINVAL),
	REFUSAL(post_send, 0, 0, EINVAL),
	REFUSAL(post_recv, 0, 0, EINVAL),
	REFUSAL(post_recv, 0, 1, EINVAL), /* to the SRQ */
	REFUSAL(create_qp, 0, 0x77, EINVAL),
	REFUSAL(create_qp_ex, IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_RX_HASH, 0,
		EINVAL),
	REFUSAL(open_qp, IBV_QP_OPEN_ATTR_RESERVED, 0, EOPNOTSUPP),
	REFUSAL(open_qp, IBV_QP_OPEN_ATTR_NUM, 0, EINVAL),
	REFUSAL(query_qp, IBV_QP_RATE_LIMIT, 0, EOPNOTSUPP),
	REFUSAL(modify_qp, IBV_QP_RATE_LIMIT, 0, EOPNOTSUPP),
	REFUSAL(create_srq_ex, IBV_SRQ_INIT_ATTR_RESERVED, 0, EOPNOTSUPP),
	REFUSAL(create_srq_ex, 0, 0, EINVAL), /* no PD */
	REFUSAL(modify_srq, 0, 0, EINVAL),
	REFUSAL(create_wq, IBV_WQ_INIT_ATTR_RESERVED, 0, EINVAL),
	REFUSAL(create_wq, IBV_WQ_INIT_ATTR_FLAGS, IBV_WQ_FLAGS_RESERVED,
		EOPNOTSUPP),
	REFUSAL(modify_wq, IBV_WQ_ATTR_RESERVED, 0, EINVAL),
	REFUSAL(modify_wq, IBV_WQ_ATTR_FLAGS, IBV_WQ_FLAGS_RESERVED,
		EOPNOTSUPP),
	REFUSAL(create_ind_table, IBV_CREATE_IND_TABLE_RESERVED, 0, EINVAL),
	REFUSAL(open_xrcd, IBV_XRCD_INIT_ATTR_RESERVED, 0, EOPNOTSUPP),
	REFUSAL(open_xrcd, IBV_XRCD_INIT_ATTR_FD, 0, EINVAL),
	REFUSAL(alloc_pd, 0, 0, EINVAL),
	REFUSAL(query_comp_cntr_caps, 0, sizeof(struct ibv_comp_cntr_caps) - 1,
		EINVAL),
	REFUSAL(qp_attach_comp_cntr, 1, 0, EOPNOTSUPP),
	REFUSAL(qp_attach_comp_cntr, 0, 1u << 6, EOPNOTSUPP),
};

/* Each refused call: its value returned, and in errno; nothing sent. */
static void test_refused_before_sending(void **state)
{
	struct ibv_context *ctx = *state;
	struct objs o;

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		unsigned int calls = t_syscalls();
		int ret, err;

		memset(&o, 0, sizeof(o));
		o.pd.context = o.cq.context = o.qp.context = ctx;
		o.srq.context = o.wq.context = ctx;
		o.qp.qp_type = IBV_QPT_RC;
		errno = UNTOUCHED;
		ret = r->call(ctx, &o, r->mask, r->flags);
		err = errno;
		if (ret != r->err || err != r->err)
			print_message("%s(%#x, %#x): ret=%d errno=%d\n",
				      r->what, r->mask, r->flags, ret, err);
		assert_int_equal(ret, r->err);
		assert_int_equal(err, r->err);
		assert_int_equal(t_syscalls(), calls);
	}
}

static int kernel_alloc_pd(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	return ibv_cmd_alloc_pd(ctx, &pd, (void *)cmd,
				sizeof(struct ibv_alloc_pd), (void *)resp,
				sizeof(struct ib_uverbs_alloc_pd_resp));
}

/* A write() command the kernel fails. */
static void test_kernel_fails_write(void **state)
{
	struct ibv_context *ctx = *state;

	t_fail_next(EPERM);
	errno = UNTOUCHED;
	assert_int_equal(kernel_alloc_pd(ctx), EPERM);
	assert_int_equal(errno, EPERM);
}

/* The same command through DEVICE/INVOKE_WRITE. */
static void test_kernel_fails_tunnel(void **state)
{
	struct ibv_context *ctx = *state;

	tk.tunnel = true;
	t_fail_next(EACCES);
	errno = UNTOUCHED;
	assert_int_equal(kernel_alloc_pd(ctx), EACCES);
	assert_int_equal(errno, EACCES);
	assert_int_equal(tk.ioctls, 1);
	assert_int_equal(tk.writes, 0);
}

/* An ioctl method the kernel fails. */
static void test_kernel_fails_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr a = { 0 };
	struct verbs_counters counters;

	t_fail_next(ENOSPC);
	errno = UNTOUCHED;
	assert_int_equal(ibv_cmd_create_counters(ctx, &a, &counters, NULL),
			 ENOSPC);
	assert_int_equal(errno, ENOSPC);
}

/* The kernel took the command, but its answer is too short to use. */
static void test_refused_after_kernel(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq wq = { .handle = 3 };
	struct ibv_wq *wqs[1] = { &wq };
	struct ibv_rwq_ind_table_init_attr a = { .ind_tbl = wqs };
	struct ibv_rwq_ind_table table;

	errno = UNTOUCHED;
	assert_int_equal(
		ibv_cmd_create_rwq_ind_table(
			ctx, &a, &table, (void *)resp,
			sizeof(struct ib_uverbs_ex_create_rwq_ind_table_resp)),
		EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.writes, 1);
}

#define T_CASE(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup, t_context_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_refused_before_sending),
		T_CASE(test_kernel_fails_write),
		T_CASE(test_kernel_fails_tunnel),
		T_CASE(test_kernel_fails_ioctl),
		T_CASE(test_refused_after_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
