/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The queue family tests' fixture (cmd_qp_test.c, cmd_qp_attr_test.c,
 * cmd_post_test.c, cmd_srq_test.c, cmd_ah_test.c, verbs_qp_test.c,
 * verbs_srq_test.c): a context of t_kernel.h whose fake kernel has every
 * method, the tunnel included, and copies a scripted response to each
 * write(); and fake provider ops for the public verbs.
 */
#ifndef T_QP_H
#define T_QP_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

/*
 * Providers put their driver data behind struct ibv_<cmd>, whose flexible
 * driver_data[] then sits mid-struct; the tests build requests that way.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

#define T_DRIVER_ID 42

/*
 * What a write() gets back beyond the shared fake kernel: @resp copied
 * to its response pointer (the u64 after the header), even when it then
 * fails: the kernel reports a refused work request that way.
 */
struct t_qp_kernel {
	uint8_t resp[256];
	size_t resp_len;
};
extern struct t_qp_kernel fk;

/*
 * The kernel's uverbs ABI version, set by device discovery (netlink means
 * 6). Hidden in the library, reachable from this statically linked test.
 */
extern int abi_ver;

/* Fake provider ops for the public verbs. */
struct t_qp_prov {
	struct ibv_qp *qp;
	struct ibv_srq srq;
	struct ibv_ah ah;
	int ret;
	unsigned int calls;
};
extern struct t_qp_prov fp;
extern const struct verbs_context_ops t_ops;

/* cmocka setup: the context, with a made-up async fd. */
int t_setup(void **state);

#define T_CASE(fn)                                   \
	cmocka_unit_test_setup_teardown(fn, t_setup, \
					t_context_teardown_keep_async)

#endif
