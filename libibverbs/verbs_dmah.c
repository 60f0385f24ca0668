// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of DMA handles (rdma-core 65): allocation and release.
 * A DMA handle names the PCIe processing hints for the DMA of the MRs
 * registered with it (ibv_reg_mr_ex()); what a device needs of them is
 * its provider's to judge, through the alloc_dmah op.
 *
 * rdma-core 65 hands everything to the provider unchecked. Here the
 * verb refuses first what no provider of that release could take: a
 * NULL attribute struct or handle (which would crash it), and comp_mask
 * bits that no IBV_DMAH_INIT_ATTR_MASK_ flag defines (EOPNOTSUPP, the
 * provider's own answer to them).
 */
#include <errno.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"

/* Every bit an IBV_DMAH_INIT_ATTR_MASK_* flag of rdma-core 65 sets. */
#define KNOWN_DMAH_MASK                                                \
	(IBV_DMAH_INIT_ATTR_MASK_CPU_ID | IBV_DMAH_INIT_ATTR_MASK_PH | \
	 IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)

/**
 * ibv_alloc_dmah - allocate a DMA handle
 * @context: an open device
 * @attr: the hints; comp_mask says which members count
 *
 * Returns the handle, or NULL with errno set: EINVAL for a NULL @attr,
 * EOPNOTSUPP for an unknown comp_mask bit or a provider (or kernel)
 * without DMA handles, else the provider's errno.
 */
IBV_EXPORT struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context,
					   struct ibv_dmah_init_attr *attr)
{
	if (!attr) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & ~(uint32_t)KNOWN_DMAH_MASK) {
		explain_alloc_dmah(context, attr->comp_mask, KNOWN_DMAH_MASK);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return get_ops(context)->alloc_dmah(context, attr);
}

/**
 * ibv_dealloc_dmah - release a DMA handle
 * @dmah: a handle from ibv_alloc_dmah(), no longer used by any MR
 *
 * Returns 0 or a positive errno value (EINVAL for NULL).
 */
IBV_EXPORT int ibv_dealloc_dmah(struct ibv_dmah *dmah)
{
	if (!dmah)
		return EINVAL;
	return get_ops(dmah->context)->dealloc_dmah(dmah);
}
