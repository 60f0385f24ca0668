// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device memory in the command layer: what a provider's alloc_dm, free_dm
 * and reg_dm_mr ops call. Memory on the adapter has no write() command
 * in any kernel, so all three are ioctl methods only (rdma-core 44 does
 * the same); a kernel without them answers ENOTTY or EPROTONOSUPPORT,
 * which is passed through. Providers add their own attributes (how to
 * map the memory, for instance) in a command buffer linked to ours.
 */
#include <rdma/ib_user_ioctl_cmds.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "util.h"

/**
 * ibv_cmd_alloc_dm - have the kernel allocate device memory
 * @ctx: the context
 * @dm_attr: length and alignment (log2) wanted
 * @dm: the provider's DM; handle, comp_mask and context are filled in
 * @link: the provider's attributes, or NULL
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_alloc_dm(struct ibv_context *ctx,
				const struct ibv_alloc_dm_attr *dm_attr,
				struct verbs_dm *dm,
				struct ibv_command_buffer *link)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_DM,
				    UVERBS_METHOD_DM_ALLOC, 3, link);
	struct ib_uverbs_attr *handle;
	int ret;

	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_ALLOC_DM_HANDLE);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_ALLOC_DM_LENGTH, dm_attr->length);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_ALLOC_DM_ALIGNMENT,
			    dm_attr->log_align_req);
	ret = execute_ioctl(ctx, cmdb);
	if (ret)
		return ret;
	dm->handle = read_attr_obj(UVERBS_ATTR_ALLOC_DM_HANDLE, handle);
	/* The public copy lets ibv_import_dm() users see the handle too. */
	dm->dm.handle = dm->handle;
	dm->dm.comp_mask = IBV_DM_MASK_HANDLE;
	dm->dm.context = ctx;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_alloc_dm);

/**
 * ibv_cmd_free_dm - have the kernel release device memory
 * @dm: the DM; its memory stays the provider's to free
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_free_dm(struct verbs_dm *dm)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE,
			       1);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_FREE_DM_HANDLE, dm->handle);
	return cmd_destroy_result(execute_ioctl(dm->dm.context, cmdb));
}
VERBS_PRIVATE_EXPORT(ibv_cmd_free_dm);

/**
 * ibv_cmd_reg_dm_mr - register a range of device memory as an MR
 * @pd: the protection domain
 * @dm: the device memory
 * @offset, @length: the range within @dm
 * @access: IBV_ACCESS_* flags; IBV_ACCESS_ZERO_BASED is required, as the
 *          memory has no address in the process to base the MR on
 * @vmr: the provider's MR; filled in on success (addr NULL)
 * @link: the provider's attributes, or NULL
 *
 * Returns 0 or a positive errno value (EINVAL without ZERO_BASED).
 */
IBV_EXPORT int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm,
				 uint64_t offset, size_t length,
				 unsigned int access, struct verbs_mr *vmr,
				 struct ibv_command_buffer *link)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_MR,
				    UVERBS_METHOD_DM_MR_REG, 8, link);
	struct ib_uverbs_attr *handle;
	uint32_t lkey, rkey;
	int ret;

	if (!(access & IBV_ACCESS_ZERO_BASED))
		return with_errno(EINVAL);
	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_REG_DM_MR_HANDLE);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey);
	fill_attr_in_obj(cmdb, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, pd->handle);
	fill_attr_in_obj(cmdb, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, dm->handle);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_REG_DM_MR_OFFSET, offset);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_REG_DM_MR_LENGTH, length);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, access);
	ret = execute_ioctl(pd->context, cmdb);
	if (ret)
		return ret;
	cmd_mr_registered(vmr, pd,
			  read_attr_obj(UVERBS_ATTR_REG_DM_MR_HANDLE, handle),
			  lkey, rkey, NULL, length, IBV_MR_TYPE_MR);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_reg_dm_mr);
