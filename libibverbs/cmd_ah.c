// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles in the command layer. Create is a write() command only
 * (CREATE_AH, no provider request data, the provider's response data
 * behind the kernel's); destroy is the AH/DESTROY method with DESTROY_AH
 * by write() behind it, as in rdma-core 44.
 */
#include <errno.h>
#include <string.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "kern_copy.h"

/**
 * ibv_cmd_create_ah - create an address handle on @pd (provider helper)
 * @ah: the provider's AH; handle and context are set
 * @resp, @resp_size: the kernel's response and the provider's after it
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
				 struct ibv_ah_attr *attr,
				 struct ib_uverbs_create_ah_resp *resp,
				 size_t resp_size)
{
	struct ibv_create_ah req = {
		.response = ioctl_ptr_to_u64(resp),
		.user_handle = ioctl_ptr_to_u64(ah),
		.pd_handle = pd->handle,
	};
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_CREATE_AH,
		KCMD_REQ(&req, sizeof(req)),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	AV_TO_KERN(&req.attr, &req.attr.grh, attr);
	ret = kcmd_write(pd->context, &w);
	if (ret)
		return ret;
	ah->handle = resp->ah_handle;
	ah->context = pd->context;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_ah);

/* AH/DESTROY, with DESTROY_AH for kernels without that method. */
static const struct cmd_destroy ah_destroy = {
	CMD_DESTROY_IDS(AH),
	.command = IB_USER_VERBS_CMD_DESTROY_AH,
};

/**
 * ibv_cmd_destroy_ah - destroy an address handle (provider helper)
 *
 * Returns 0 or a positive errno value; EIO of a vanished device counts
 * as success when RDMAV_ALLOW_DISASSOC_DESTROY says so.
 */
IBV_EXPORT int ibv_cmd_destroy_ah(struct ibv_ah *ah)
{
	return cmd_destroy_handle(ah->context, &ah_destroy, ah->handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_ah);
