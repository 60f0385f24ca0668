// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of device memory that are not inline in verbs.h: the
 * import of a device memory object another process's context shares with
 * ours, and its export as a dma-buf (rdma-core 65). Allocation, copies
 * and registration dispatch inline through verbs_context.
 */
#include <errno.h>

#include "context_priv.h"
#include "driver.h"
#include "export.h"

/**
 * ibv_import_dm - use device memory of an imported context
 * @context: a context from ibv_import_device()
 * @dm_handle: the memory's handle in the exporting context
 *
 * Returns the DM, or NULL with errno set.
 */
IBV_EXPORT struct ibv_dm *ibv_import_dm(struct ibv_context *context,
					uint32_t dm_handle)
{
	return get_ops(context)->import_dm(context, dm_handle);
}

/* Forget imported device memory here; it stays with its owner. */
IBV_EXPORT void ibv_unimport_dm(struct ibv_dm *dm)
{
	get_ops(dm->context)->unimport_dm(dm);
}

/**
 * ibv_dm_export_dmabuf_fd - a dma-buf file descriptor for device memory
 * @dm: device memory from ibv_alloc_dm()
 *
 * Returns a new file descriptor that the caller closes, or -1 with errno
 * set (EOPNOTSUPP where the provider or the kernel cannot export it;
 * EINVAL for NULL, where rdma-core 65 would crash).
 */
IBV_EXPORT int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm)
{
	if (!dm) {
		errno = EINVAL;
		return -1;
	}
	return get_ops(dm->context)->dm_export_dmabuf_fd(dm);
}
