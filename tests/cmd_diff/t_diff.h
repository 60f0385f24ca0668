/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The cases of driver_cmd_diff_test (see that file): each calls some of
 * the provider ABI on a fresh context of the test provider "tdrv", with
 * driver data attached where a hardware provider attaches it, and notes
 * in the trace what the caller got back (t_uv_note(), t_uv_dump()). The
 * kernel's side is traced by the fake (t_uverbs.h) on its own.
 *
 * A case must do the same on both libraries: the same calls with the
 * same arguments. It names the buffers whose addresses the kernel sees
 * (t_uv_name()), so that the trace says "resp+24" rather than "ptr".
 * Attribute structs are filled with t_diff_stale() before the fields a
 * case means are set, as a reused struct would be, so that a library
 * reading a field its comp_mask does not cover shows it.
 */
#ifndef T_DIFF_H
#define T_DIFF_H

#include <stdint.h>
#include <string.h>

#include <infiniband/driver.h>

#include "t_uverbs.h"

/*
 * A provider's request and response structs put its own words behind the
 * kernel's core struct, whose last member is a flexible array (the
 * driver_data[] of <rdma/ib_user_verbs.h>), as every lib*-abi.h does.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

/* The provider's own request and response words, as lib*-abi.h adds. */
struct tdrv_drv_in {
	uint64_t a, b;
};
struct tdrv_drv_out {
	uint64_t x, y, z;
};

#define DRV_IN_INIT                                          \
	{                                                    \
		0x1111111111111111ull, 0x2222222222222222ull \
	}

struct t_case {
	const char *name;
	void (*fn)(struct ibv_context *ctx);
};

struct t_case_set {
	const struct t_case *cases;
	size_t n;
};

#define T_CASE(name)               \
	{                          \
#name, case_##name \
	}
#define T_CASE_SET(set, ...)                                              \
	static const struct t_case set##_cases[] = { __VA_ARGS__ };       \
	const struct t_case_set set = {                                   \
		set##_cases, sizeof(set##_cases) / sizeof(set##_cases[0]) \
	}

/* Every family's cases, in the order the test runs them. */
extern const struct t_case_set t_cases_device, t_cases_mem, t_cases_cq,
	t_cases_qp, t_cases_srq, t_cases_flow, t_cases_helpers;

/* Fill @p with the bytes a reused struct would hold. */
static inline void t_diff_stale(void *p, size_t len)
{
	memset(p, 0xa5, len);
}

/* The return value of a call, in the trace. */
#define T_NOTE_RET(what, ret) t_uv_note("%s ret=%d", what, ret)

/*
 * Objects other cases need, each made through its ibv_cmd_*() with
 * driver data (so that their traffic is compared too) and named in the
 * trace; 0 or the call's error.
 */
int t_diff_pd(struct ibv_context *ctx, struct ibv_pd *pd);
int t_diff_cq(struct ibv_context *ctx, struct ibv_cq *cq);

#endif
