// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel's DMABUF object (rdma-core 65) for providers: a dma-buf
 * file for a range the context's command file maps, so that another
 * device can reach it (device memory, for ibv_dm_export_dmabuf_fd(); a
 * provider's own pages). The range is named by the mmap() offset the
 * provider uses for it.
 *
 * An ioctl method only; a kernel without it answers ENOTTY or
 * EPROTONOSUPPORT, passed through in errno.
 */
#include <sys/types.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "driver.h"
#include "export.h"

/**
 * ibv_cmd_export_dmabuf_fd - have the kernel open a dma-buf for a mapping
 * @ctx: the context whose command file maps the range
 * @pg_off: the range's mmap() offset, as the provider maps it
 *
 * Returns the new file descriptor, or -1 with errno set (unlike the
 * other ibv_cmd_*(): rdma-core 65 answers so, and providers return it
 * as it is).
 */
IBV_EXPORT int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t pg_off)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_DMABUF,
			       KABI_UVERBS_METHOD_DMABUF_ALLOC, 2);
	struct ib_uverbs_attr *fd;

	fd = fill_attr_out_fd(cmdb, KABI_UVERBS_ATTR_ALLOC_DMABUF_HANDLE, 0);
	fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_ALLOC_DMABUF_PGOFF,
			    (uint64_t)pg_off);
	/* execute_ioctl() leaves its error in errno as well. */
	if (execute_ioctl(ctx, cmdb))
		return -1;
	return read_attr_fd(KABI_UVERBS_ATTR_ALLOC_DMABUF_HANDLE, fd);
}
