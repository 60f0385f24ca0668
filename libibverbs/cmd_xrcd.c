// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * XRC domains in the command layer: what a provider's open_xrcd and
 * close_xrcd ops call. An XRCD is shared between processes through a
 * file (attr->fd); the kernel keys the domain on that file's inode.
 *
 * Routing follows rdma-core 44: OPEN_XRCD is a write()-format command
 * only; the close is the XRCD/DESTROY ioctl method, falling back to the
 * CLOSE_XRCD write() command on kernels that lack the method.
 */
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/* The request must name the file and its open flags, and nothing more. */
static int check_xrcd_attr(const struct ibv_xrcd_init_attr *attr)
{
	const uint32_t need = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;

	if (attr->comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED)
		return with_errno(EOPNOTSUPP);
	if ((attr->comp_mask & need) != need)
		return with_errno(EINVAL);
	return 0;
}

/**
 * ibv_cmd_open_xrcd - have the kernel open (or create) an XRC domain
 * @context: the context it belongs to
 * @xrcd: the provider's XRCD, @vxrcd_size bytes of it; an older provider's
 *        struct verbs_xrcd may end before the handle, which is then not
 *        stored and comp_mask stays 0
 * @attr: the file and open flags (comp_mask FD and OFLAGS both required)
 * @cmd, @cmd_size, @resp, @resp_size: the write() request and response
 *
 * Returns 0 or a positive errno value (EOPNOTSUPP for unknown comp_mask
 * bits, EINVAL when FD or OFLAGS is missing).
 */
IBV_EXPORT int ibv_cmd_open_xrcd(struct ibv_context *context,
				 struct verbs_xrcd *xrcd, int vxrcd_size,
				 struct ibv_xrcd_init_attr *attr,
				 struct ibv_open_xrcd *cmd, size_t cmd_size,
				 struct ib_uverbs_open_xrcd_resp *resp,
				 size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_OPEN_XRCD,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret = check_xrcd_attr(attr);

	if (ret)
		return ret;
	cmd->response = ioctl_ptr_to_u64(resp);
	cmd->fd = attr->fd;
	cmd->oflags = attr->oflags;
	ret = kcmd_write(context, &w);
	if (ret)
		return ret;
	xrcd->xrcd.context = context;
	xrcd->comp_mask = 0;
	/* rdma-core 44 counts the handle as there once the size reaches it. */
	if ((unsigned int)vxrcd_size > offsetof(struct verbs_xrcd, handle)) {
		xrcd->comp_mask = VERBS_XRCD_HANDLE;
		xrcd->handle = resp->xrcd_handle;
	}
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_open_xrcd);

/* XRCD/DESTROY, with CLOSE_XRCD for kernels without that method. */
static const struct cmd_destroy xrcd_destroy = {
	CMD_DESTROY_IDS(XRCD),
	.command = IB_USER_VERBS_CMD_CLOSE_XRCD,
};

/**
 * ibv_cmd_close_xrcd - drop this context's use of an XRC domain
 * @xrcd: the XRCD; its memory stays the provider's to free
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd)
{
	return cmd_destroy_handle(xrcd->xrcd.context, &xrcd_destroy,
				  xrcd->handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_close_xrcd);
