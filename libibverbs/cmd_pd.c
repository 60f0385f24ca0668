// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Protection domains in the command layer: what a provider's alloc_pd and
 * dealloc_pd ops call to have the kernel create or destroy a PD.
 *
 * Routing follows rdma-core 44: the kernel's ALLOC_PD exists only as a
 * write()-format command (kcmd_write() tunnels it through INVOKE_WRITE
 * where it can), while the destroy is the PD/DESTROY ioctl method with
 * DEALLOC_PD as the write() fallback for kernels that lack it.
 */
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"

/**
 * ibv_cmd_alloc_pd - have the kernel allocate a protection domain
 * @context: the context it belongs to
 * @pd: the provider's PD; handle and context are filled in on success
 * @cmd: the request, with the provider's data behind it (@cmd_size bytes)
 * @resp: the response buffer, likewise (@resp_size bytes)
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd,
				struct ibv_alloc_pd *cmd, size_t cmd_size,
				struct ib_uverbs_alloc_pd_resp *resp,
				size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_PD,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	/* A basic command names its response buffer in the request. */
	cmd->response = ioctl_ptr_to_u64(resp);
	ret = kcmd_write(context, &w);
	if (ret)
		return ret;
	pd->handle = resp->pd_handle;
	pd->context = context;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_alloc_pd);

/* PD/DESTROY, with DEALLOC_PD for kernels without that method. */
static const struct cmd_destroy pd_destroy = {
	CMD_DESTROY_IDS(PD),
	.command = IB_USER_VERBS_CMD_DEALLOC_PD,
};

/**
 * ibv_cmd_dealloc_pd - have the kernel destroy a protection domain
 * @pd: the PD; its memory stays the provider's to free
 *
 * Returns 0 or a positive errno value (EIO from a removed device counts
 * as success when RDMAV_ALLOW_DISASSOC_DESTROY asks for it).
 */
IBV_EXPORT int ibv_cmd_dealloc_pd(struct ibv_pd *pd)
{
	return cmd_destroy_handle(pd->context, &pd_destroy, pd->handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_dealloc_pd);
