// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a shared receive queue was not created (explain.h): its work
 * requests and scatter entries against the device's SRQ limits.
 */
#include <errno.h>
#include <stdint.h>

#include "driver.h"
#include "explain.h"
#include "explain_line.h"

void explain_create_srq(struct ibv_context *ctx,
			const struct ibv_srq_attr *attr)
{
	int saved;
	struct ibv_device_attr_ex ex;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	if (!explain_device_attr(ctx, &ex))
		goto out;
	line_start(&l);
	line_over(&l, "max_wr", attr->max_wr, "max_srq_wr",
		  ex.orig_attr.max_srq_wr);
	line_over(&l, "max_sge", attr->max_sge, "max_srq_sge",
		  ex.orig_attr.max_srq_sge);
	line_emit(ctx, "create_srq", &l);
out:
	errno = saved;
}
