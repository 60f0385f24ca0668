// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why ibv_alloc_dmah() refused a request itself (explain.h): comp_mask
 * bits that no IBV_DMAH_INIT_ATTR_MASK_ flag defines. What a provider or
 * the kernel refuses after that (a hint the device does not take, a CPU
 * the process may not use) only they can tell.
 */
#include <errno.h>

#include "explain.h"
#include "explain_line.h"

void explain_alloc_dmah(struct ibv_context *ctx, uint32_t comp_mask,
			uint32_t known)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	line_unknown_bits(&l, "comp_mask", comp_mask, known,
			  "IBV_DMAH_INIT_ATTR_MASK_");
	line_emit(ctx, "alloc_dmah", &l);
	errno = saved;
}
