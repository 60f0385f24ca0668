// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The command layer's shared pieces (cmd.h): one routing rule for
 * commands with an ioctl and a write() form, so that every cmd_<object>.c
 * falls back the same way. It sits just above the transport (kcmd.c).
 */
#include <errno.h>

#include "cmd.h"
#include "explain.h"
#include "ibverbs.h"
#include "kcmd.h"

/*
 * What the chain allows once the kernel has no ioctl for it. An
 * ioctl-only command ends here (EOPNOTSUPP), which is worth a line in
 * the log.
 */
static enum cmd_route legacy_route(struct ibv_context *ctx,
				   struct ibv_command_buffer *cmdb, int *ret)
{
	bool require_ex = false, ioctl_only = false;
	struct ibv_command_buffer *link;

	for (link = cmdb; link; link = link->next) {
		require_ex |= link->fallback_require_ex;
		ioctl_only |= link->fallback_ioctl_only;
	}
	if (ioctl_only) {
		explain_no_method(ctx, cmdb->hdr.object_id,
				  cmdb->hdr.method_id);
		*ret = EOPNOTSUPP;
		return CMD_DONE;
	}
	return require_ex ? CMD_WRITE_EX : CMD_WRITE;
}

enum cmd_route cmd_route(struct ibv_context *ctx,
			 struct ibv_command_buffer *cmdb, int *ret)
{
	if (kcmd_ioctl_refused(ctx, cmdb->hdr.object_id, cmdb->hdr.method_id))
		return legacy_route(ctx, cmdb, ret);
	*ret = kcmd_ioctl(ctx, cmdb);
	/* kcmd_ioctl() has remembered the refusal for next time. */
	if (*ret == ENOTTY || *ret == EPROTONOSUPPORT)
		return legacy_route(ctx, cmdb, ret);
	return CMD_DONE;
}

void cmd_add_uhw(struct ibv_command_buffer *cmdb, void *cmd, size_t cmd_size,
		 size_t core_in, void *resp, size_t resp_size, size_t core_out)
{
	if (cmd_size > core_in)
		fill_attr_in(cmdb, UVERBS_ATTR_UHW_IN, (char *)cmd + core_in,
			     cmd_size - core_in);
	if (resp_size > core_out)
		fill_attr_out(cmdb, UVERBS_ATTR_UHW_OUT,
			      (char *)resp + core_out, resp_size - core_out);
}

/*
 * Exported (IBVERBS_PRIVATE_34) for providers' own destroys; set by
 * library initialisation from RDMAV_ALLOW_DISASSOC_DESTROY.
 */
bool verbs_allow_disassociate_destroy;

int cmd_destroy_result(int ret)
{
	if (ret == EIO && verbs_allow_disassociate_destroy)
		return 0;
	return ret;
}
