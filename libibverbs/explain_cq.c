// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a completion queue was not created (explain.h): its size against
 * the device's max_cqe, its completion vector against the context's.
 */
#include <errno.h>
#include <stdint.h>

#include "driver.h"
#include "explain.h"
#include "explain_line.h"

void explain_create_cq(struct ibv_context *ctx, uint32_t cqe,
		       uint32_t comp_vector)
{
	int saved;
	struct ibv_device_attr_ex ex;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	if (explain_device_attr(ctx, &ex))
		line_over(&l, "cqe", cqe, "max_cqe", ex.orig_attr.max_cqe);
	/* Vectors count from 0: the last one is num_comp_vectors - 1. */
	if (comp_vector >= (uint32_t)ctx->num_comp_vectors) {
		line_clause(&l);
		line_add(&l, "comp_vector %u >= num_comp_vectors %d",
			 comp_vector, ctx->num_comp_vectors);
	}
	line_emit(ctx, "create_cq", &l);
	errno = saved;
}
