// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A context's operation tables (ops.c). struct verbs_context_ops is a
 * row of function pointers and nothing else, so the test walks it as an
 * array: every slot of the dummy table a context starts with is set, and
 * verbs_set_ops() copies every slot a provider sets into the context's
 * private table and into the public slot, if any, that inline functions
 * of <infiniband/verbs.h> call through. A slot whose copy was forgotten
 * fails here by name, where before it only ever reached the dummy.
 * Links the static archive, where the dummy table is reachable.
 */
#include <assert.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "libibverbs/context_priv.h"
#include "libibverbs/ops.h"

typedef void (*slot_t)(void);

static_assert(sizeof(struct verbs_context_ops) % sizeof(slot_t) == 0,
	      "verbs_context_ops holds function pointers only");

enum { SLOTS = sizeof(struct verbs_context_ops) / sizeof(slot_t) };

static slot_t slot_at(const void *base, size_t offset)
{
	slot_t f;

	memcpy(&f, (const char *)base + offset, sizeof(f));
	return f;
}

/* A distinct, non-NULL value per slot, never called. */
static slot_t marker(size_t i)
{
	return (slot_t)(uintptr_t)(0x10000 + i * 16);
}

static void test_no_dummy_slot_is_null(void **state)
{
	size_t i, unset = 0;

	(void)state;
	assert_true(SLOTS > 60);
	for (i = 0; i < SLOTS; i++)
		if (!slot_at(&verbs_dummy_ops, i * sizeof(slot_t))) {
			printf("dummy slot %zu (offset %zu) is NULL\n", i,
			       i * sizeof(slot_t));
			unset++;
		}
	assert_int_equal(unset, 0);
}

/*
 * The public slots verbs_set_ops() must fill, each with the op whose
 * value it mirrors: struct ibv_context_ops for the data path and memory
 * windows, the slots in front of struct ibv_context for the extended
 * verbs, and the _compat_ slots rdma-core 44 still fills for old
 * binaries.
 */
struct mirror {
	const char *name;
	size_t op; /* in struct verbs_context_ops */
	size_t slot; /* in struct verbs_context */
};

#define OP(name) offsetof(struct verbs_context_ops, name)
#define CTX(name)                                                        \
	{                                                                \
#name, OP(name),                                         \
			offsetof(struct verbs_context, context.ops.name) \
	}
#define VCTX(name)                                                    \
	{                                                             \
#name, OP(name), offsetof(struct verbs_context, name) \
	}
#define FLOW(name)                                                          \
	{                                                                   \
#name, OP(name), offsetof(struct verbs_context, ibv_##name) \
	}
#define COMPAT(name)                                         \
	{                                                    \
#name, OP(name),                             \
			offsetof(struct verbs_context,       \
				 context.ops._compat_##name) \
	}

static const struct mirror mirrors[] = {
	CTX(alloc_mw),
	CTX(bind_mw),
	CTX(dealloc_mw),
	CTX(poll_cq),
	CTX(post_recv),
	CTX(post_send),
	CTX(post_srq_recv),
	CTX(req_notify_cq),
	VCTX(advise_mr),
	VCTX(alloc_dm),
	VCTX(alloc_null_mr),
	VCTX(alloc_parent_domain),
	VCTX(alloc_td),
	VCTX(attach_counters_point_flow),
	VCTX(close_xrcd),
	VCTX(create_counters),
	VCTX(create_cq_ex),
	VCTX(create_flow_action_esp),
	VCTX(create_qp_ex),
	VCTX(create_rwq_ind_table),
	VCTX(create_srq_ex),
	VCTX(create_wq),
	VCTX(dealloc_td),
	VCTX(destroy_counters),
	VCTX(destroy_flow_action),
	VCTX(destroy_rwq_ind_table),
	VCTX(destroy_wq),
	VCTX(free_dm),
	VCTX(get_srq_num),
	VCTX(modify_cq),
	VCTX(modify_flow_action_esp),
	VCTX(modify_qp_rate_limit),
	VCTX(modify_wq),
	VCTX(open_qp),
	VCTX(open_xrcd),
	VCTX(post_srq_ops),
	VCTX(query_device_ex),
	VCTX(query_rt_values),
	VCTX(read_counters),
	VCTX(reg_dm_mr),
	FLOW(create_flow),
	FLOW(destroy_flow),
	COMPAT(alloc_pd),
	COMPAT(async_event),
	COMPAT(attach_mcast),
	COMPAT(cq_event),
	COMPAT(create_ah),
	COMPAT(create_cq),
	COMPAT(create_qp),
	COMPAT(create_srq),
	COMPAT(dealloc_pd),
	COMPAT(dereg_mr),
	COMPAT(destroy_ah),
	COMPAT(destroy_cq),
	COMPAT(destroy_qp),
	COMPAT(destroy_srq),
	COMPAT(detach_mcast),
	COMPAT(modify_qp),
	COMPAT(modify_srq),
	COMPAT(query_qp),
	COMPAT(query_srq),
	COMPAT(reg_mr),
	COMPAT(rereg_mr),
	COMPAT(resize_cq),
};

/* How many slots of @vctx's private table and mirrors lack their marker. */
static size_t missing(struct verbs_context *vctx)
{
	size_t i, bad = 0;

	for (i = 0; i < SLOTS; i++)
		if (slot_at(&vctx->priv->ops, i * sizeof(slot_t)) !=
		    marker(i)) {
			printf("private slot %zu (offset %zu) not copied\n", i,
			       i * sizeof(slot_t));
			bad++;
		}
	for (i = 0; i < sizeof(mirrors) / sizeof(mirrors[0]); i++)
		if (slot_at(vctx, mirrors[i].slot) !=
		    marker(mirrors[i].op / sizeof(slot_t))) {
			printf("public slot of %s not set\n", mirrors[i].name);
			bad++;
		}
	return bad;
}

static void test_set_ops_copies_every_slot(void **state)
{
	struct verbs_context_ops ops, none;
	struct verbs_context *vctx = calloc(1, sizeof(*vctx));
	size_t i;

	(void)state;
	assert_non_null(vctx);
	vctx->priv = calloc(1, sizeof(*vctx->priv));
	assert_non_null(vctx->priv);
	for (i = 0; i < SLOTS; i++) {
		slot_t f = marker(i);

		memcpy((char *)&ops + i * sizeof(slot_t), &f, sizeof(f));
	}
	verbs_set_ops(vctx, &ops);
	assert_int_equal(missing(vctx), 0);
	/* NULL members leave what is there: providers layer tables. */
	memset(&none, 0, sizeof(none));
	verbs_set_ops(vctx, &none);
	assert_int_equal(missing(vctx), 0);
	free(vctx->priv);
	free(vctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_dummy_slot_is_null),
		cmocka_unit_test(test_set_ops_copies_every_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
