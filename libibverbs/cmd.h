/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every cmd_<object>.c shares (cmd.c): the route of a command that
 * exists both as an ioctl method and as a write() command, the driver's
 * request and response attached to an ioctl, and the rule for destroys
 * on a dead device. Library-internal.
 *
 * A command with both forms is marshalled as an ioctl first. The kernel
 * transport (kcmd.c) remembers a refusal, so on a kernel without the
 * method cmd_route() answers CMD_WRITE at once, without a system call.
 */
#ifndef IBV_CMD_H
#define IBV_CMD_H

#include <rdma/ib_user_ioctl_cmds.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/verbs.h>

#define CMD_LOCAL __attribute__((visibility("hidden")))

enum cmd_route {
	CMD_DONE, /* the ioctl ran; @ret holds its result */
	CMD_WRITE, /* send the write() form */
	CMD_WRITE_EX, /* send the extended write() form */
};

/*
 * Sends @cmdb unless the kernel refused its method before. Falls back
 * only where the kernel has no such method (ENOTTY, EPROTONOSUPPORT) and
 * the chain allows it: a buffer marked fallback_ioctl_only ends in
 * CMD_DONE with EOPNOTSUPP, fallback_require_ex asks for CMD_WRITE_EX.
 */
CMD_LOCAL enum cmd_route cmd_route(struct ibv_context *ctx,
				   struct ibv_command_buffer *cmdb, int *ret);

/*
 * Attaches the provider's data behind the core request and response of
 * a write()-style pair (@core_in and @core_out bytes into @cmd and
 * @resp) as the UHW_IN and UHW_OUT attributes of @cmdb, when there is
 * any.
 */
CMD_LOCAL void cmd_add_uhw(struct ibv_command_buffer *cmdb, void *cmd,
			   size_t cmd_size, size_t core_in, void *resp,
			   size_t resp_size, size_t core_out);

/*
 * A destroy the kernel failed with EIO because the device is gone counts
 * as done when RDMAV_ALLOW_DISASSOC_DESTROY asks for it.
 */
CMD_LOCAL int cmd_destroy_result(int ret);

#endif
