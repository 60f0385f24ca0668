// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public completion counter verbs of verbs_comp_cntr.c on fake
 * provider ops: each reaches its op with what it was given, the caps
 * struct is zeroed over the caller's size (smaller or larger than the
 * library's), a provider without counters answers EOPNOTSUPP, and
 * hostile input (NULL, a comp_mask bit, a counter of another context)
 * is refused before the provider sees it. Links the static archive.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "t_mem.h"

/* What the fake ops were last handed. */
static struct {
	unsigned int calls;
	const char *op;
	void *obj;
	uint64_t value;
	size_t caps_size;
	uint8_t caps_in[32]; /* the caller's struct as the op found it */
	struct ibv_comp_cntr cc;
} fo;

static int fake_caps(struct ibv_context *ctx, struct ibv_comp_cntr_caps *caps,
		     size_t caps_size)
{
	fo.calls++;
	fo.op = "caps";
	fo.caps_size = caps_size;
	memcpy(fo.caps_in, caps, caps_size < 32 ? caps_size : 32);
	if (caps_size < sizeof(*caps))
		return EINVAL;
	caps->max_counters = 9;
	return 0;
}

static struct ibv_comp_cntr *fake_create(struct ibv_context *ctx,
					 struct ibv_comp_cntr_init_attr *attr)
{
	fo.calls++;
	fo.op = "create";
	fo.obj = attr;
	fo.cc.context = ctx;
	return &fo.cc;
}

#define FAKE_VALUE_OP(name)                                              \
	static int fake_##name(struct ibv_comp_cntr *cc, uint64_t value) \
	{                                                                \
		fo.calls++;                                              \
		fo.op = #name;                                           \
		fo.obj = cc;                                             \
		fo.value = value;                                        \
		return 0;                                                \
	}
FAKE_VALUE_OP(set)
FAKE_VALUE_OP(set_err)
FAKE_VALUE_OP(inc)
FAKE_VALUE_OP(inc_err)

static int fake_read(struct ibv_comp_cntr *cc, uint64_t *value)
{
	fo.calls++;
	fo.op = "read";
	*value = 0x1234;
	return 0;
}

static int fake_read_err(struct ibv_comp_cntr *cc, uint64_t *value)
{
	fo.calls++;
	fo.op = "read_err";
	*value = 0x5678;
	return 0;
}

static int fake_destroy(struct ibv_comp_cntr *cc)
{
	fo.calls++;
	fo.op = "destroy";
	fo.obj = cc;
	return 0;
}

static int fake_attach(struct ibv_qp *qp, struct ibv_comp_cntr *cc,
		       struct ibv_qp_attach_comp_cntr_attr *attr)
{
	fo.calls++;
	fo.op = "attach";
	fo.obj = attr;
	return 0;
}

static const struct verbs_context_ops cntr_ops = {
	.create_comp_cntr = fake_create,
	.destroy_comp_cntr = fake_destroy,
	.inc_comp_cntr = fake_inc,
	.inc_err_comp_cntr = fake_inc_err,
	.qp_attach_comp_cntr = fake_attach,
	.query_comp_cntr_caps = fake_caps,
	.read_comp_cntr = fake_read,
	.read_err_comp_cntr = fake_read_err,
	.set_comp_cntr = fake_set,
	.set_err_comp_cntr = fake_set_err,
};

static int t_cntr_setup(void **state)
{
	t_setup(state);
	verbs_set_ops(verbs_get_ctx(*state), &cntr_ops);
	memset(&fo, 0, sizeof(fo));
	return 0;
}

#define T_CNTR(fn) \
	cmocka_unit_test_setup_teardown(fn, t_cntr_setup, t_context_teardown)

/* A struct as a program built with a later header might pass it. */
struct bigger_caps {
	struct ibv_comp_cntr_caps caps;
	uint64_t later;
};

static void test_caps_sizes(void **state)
{
	struct ibv_context *ctx = *state;
	struct bigger_caps big;
	uint8_t zero[32] = { 0 };

	memset(&big, 0xa5, sizeof(big));
	assert_int_equal(ibv_query_comp_cntr_caps(ctx, &big.caps), 0);
	assert_int_equal(fo.caps_size, sizeof(big.caps));
	assert_memory_equal(fo.caps_in, zero, sizeof(big.caps));
	assert_int_equal(big.caps.max_counters, 9);
	/* The larger struct is zeroed whole, its tail read as 0. */
	memset(&big, 0xa5, sizeof(big));
	assert_int_equal(_ibv_query_comp_cntr_caps(ctx, &big.caps, sizeof(big)),
			 0);
	assert_int_equal(fo.caps_size, sizeof(big));
	assert_memory_equal(fo.caps_in, zero, sizeof(big));
	assert_int_equal(big.later, 0);
	/* A smaller one: only its bytes are touched, and the op refuses. */
	memset(&big, 0xa5, sizeof(big));
	assert_int_equal(_ibv_query_comp_cntr_caps(ctx, &big.caps, 8), EINVAL);
	assert_int_equal(fo.caps_size, 8);
	assert_int_equal(big.caps.max_value, 0);
	assert_int_equal(big.caps.max_counters, 0xa5a5a5a5);
}

static void test_dispatch(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr_init_attr attr = {
		.type = IBV_COMP_CNTR_TYPE_BYTES
	};
	struct ibv_qp qp = { .context = ctx };
	struct ibv_qp_attach_comp_cntr_attr aa = { .op_mask = 3 };
	struct ibv_comp_cntr *cc;
	uint64_t v;

	cc = ibv_create_comp_cntr(ctx, &attr);
	assert_ptr_equal(cc, &fo.cc);
	assert_ptr_equal(fo.obj, &attr);
	assert_int_equal(ibv_set_comp_cntr(cc, 5), 0);
	assert_string_equal(fo.op, "set");
	assert_int_equal(fo.value, 5);
	assert_int_equal(ibv_set_err_comp_cntr(cc, 6), 0);
	assert_string_equal(fo.op, "set_err");
	assert_int_equal(fo.value, 6);
	assert_int_equal(ibv_inc_comp_cntr(cc, 7), 0);
	assert_string_equal(fo.op, "inc");
	assert_int_equal(fo.value, 7);
	assert_int_equal(ibv_inc_err_comp_cntr(cc, 8), 0);
	assert_string_equal(fo.op, "inc_err");
	assert_int_equal(fo.value, 8);
	assert_ptr_equal(fo.obj, cc);
	assert_int_equal(ibv_read_comp_cntr(cc, &v), 0);
	assert_int_equal(v, 0x1234);
	assert_int_equal(ibv_read_err_comp_cntr(cc, &v), 0);
	assert_int_equal(v, 0x5678);
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, cc, &aa), 0);
	assert_ptr_equal(fo.obj, &aa);
	assert_int_equal(ibv_destroy_comp_cntr(cc), 0);
	assert_string_equal(fo.op, "destroy");
	assert_int_equal(fo.calls, 9);
}

/* Refused before the provider: NULL, comp_mask, another context. */
static void test_hostile(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr_init_attr attr = { .comp_mask = 1u << 31 };
	struct ibv_comp_cntr cc = { .context = ctx }, alien = { 0 };
	struct ibv_qp qp = { .context = ctx };
	struct ibv_qp_attach_comp_cntr_attr aa = { 0 };
	uint64_t v;

	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_create_comp_cntr(NULL, &attr));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(_ibv_query_comp_cntr_caps(NULL, NULL, 16), EINVAL);
	assert_int_equal(_ibv_query_comp_cntr_caps(ctx, NULL, 16), EINVAL);
	assert_int_equal(ibv_destroy_comp_cntr(NULL), EINVAL);
	assert_int_equal(ibv_set_comp_cntr(NULL, 1), EINVAL);
	assert_int_equal(ibv_set_err_comp_cntr(NULL, 1), EINVAL);
	assert_int_equal(ibv_inc_comp_cntr(NULL, 1), EINVAL);
	assert_int_equal(ibv_inc_err_comp_cntr(NULL, 1), EINVAL);
	assert_int_equal(ibv_read_comp_cntr(NULL, &v), EINVAL);
	assert_int_equal(ibv_read_comp_cntr(&cc, NULL), EINVAL);
	assert_int_equal(ibv_read_err_comp_cntr(NULL, &v), EINVAL);
	assert_int_equal(ibv_read_err_comp_cntr(&cc, NULL), EINVAL);
	assert_int_equal(ibv_qp_attach_comp_cntr(NULL, &cc, &aa), EINVAL);
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, NULL, &aa), EINVAL);
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, &cc, NULL), EINVAL);
	/* Its handle would name another counter, or none, in ctx. */
	alien.context = (struct ibv_context *)&alien;
	errno = 0;
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, &alien, &aa), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fo.calls, 0);
}

/* A provider without counters: the dummy ops, EOPNOTSUPP throughout. */
static void test_no_provider_ops(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr_init_attr attr = { 0 };
	struct ibv_comp_cntr_caps caps;
	struct ibv_comp_cntr cc = { .context = ctx };
	struct ibv_qp qp = { .context = ctx };
	struct ibv_qp_attach_comp_cntr_attr aa = { 0 };
	uint64_t v;

	errno = 0;
	assert_null(ibv_create_comp_cntr(ctx, &attr));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(ibv_query_comp_cntr_caps(ctx, &caps), EOPNOTSUPP);
	assert_int_equal(ibv_set_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_inc_err_comp_cntr(&cc, 1), EOPNOTSUPP);
	assert_int_equal(ibv_read_comp_cntr(&cc, &v), EOPNOTSUPP);
	assert_int_equal(ibv_read_err_comp_cntr(&cc, &v), EOPNOTSUPP);
	assert_int_equal(ibv_qp_attach_comp_cntr(&qp, &cc, &aa), EOPNOTSUPP);
	assert_int_equal(ibv_destroy_comp_cntr(&cc), EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CNTR(test_caps_sizes),
		T_CNTR(test_dispatch),
		T_CNTR(test_hostile),
		T_CMD(test_no_provider_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
