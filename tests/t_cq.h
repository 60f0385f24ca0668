/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CQ tests' fixture (cmd_cq_test.c, verbs_cq_test.c,
 * verbs_event_test.c): a context of t_kernel.h whose fake kernel answers
 * the CQ family's ioctls and write()s, and fake provider ops that record
 * what the public verbs hand them. Only CQ ioctls are logged and counted,
 * so the tunnel's probe stays out of the cases' counts; the kernel
 * refuses INVOKE_WRITE, so write-format commands reach its write() and
 * can be read back byte for byte.
 */
#ifndef T_CQ_H
#define T_CQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

#define T_DRIVER_ID 42
#define T_HANDLE 0x55
#define T_WRITE_HANDLE 0x77

/* What the fake kernel answers beyond the shared knobs of t_kernel. */
struct t_cq_kernel {
	uint32_t comp_reported, async_reported;
	uint32_t poll_avail, wr_seq;
	int channel_fd;
};
extern struct t_cq_kernel fk;

/* Fake provider ops for the public verbs. */
struct t_cq_prov {
	struct ibv_cq cq;
	struct verbs_cq vcq;
	bool fail;
	int ret;
	unsigned int calls, cq_events, async_events;
	struct ibv_cq *last_cq;
	struct ibv_async_event last_event;
};
extern struct t_cq_prov prov;

/* cmocka setups: the context, and the same with the fake provider ops. */
int t_setup(void **state);
int t_setup_ops(void **state);

/* The last call the fake kernel logged, and words of it at @off. */
struct t_call *t_last(void);
uint32_t u32_at(const struct t_call *c, size_t off);
uint64_t u64_at(const struct t_call *c, size_t off);

/* A CQ of handle 0x31 on @ctx, initialised as the library does. */
void t_init_cq(struct ibv_context *ctx, struct ibv_cq *cq);

#define T_CASE(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup, t_context_teardown)
#define T_VERB(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup_ops, t_context_teardown)

#endif
