// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DMA handles (the kernel's DMAH object, rdma-core 65) for providers:
 * what the alloc_dmah and dealloc_dmah ops call. A DMA handle carries
 * the PCIe TLP processing hints a device may attach to the DMA of an MR
 * registered with it (ibv_reg_mr_ex() with IBV_REG_MR_MASK_DMAH): the
 * CPU whose steering tag to use, the memory type, the processing hint.
 *
 * Both methods are ioctls only, since no kernel had a write() form: a
 * kernel without them answers ENOTTY or EPROTONOSUPPORT, which is passed
 * through (execute_ioctl() says so in the log). Which hints are needed
 * is the provider's business, as rdma-core 65 leaves it: only the
 * members that comp_mask names are sent, and a bit this layer does not
 * know is not sent either.
 */
#include <rdma/ib_user_ioctl_cmds.h>

#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "driver.h"
#include "export.h"

/**
 * ibv_cmd_alloc_dmah - have the kernel allocate a DMA handle
 * @ctx: the context
 * @dmah: the provider's DMA handle; handle and context are filled in
 * @attr: the hints, those that @attr->comp_mask names
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_alloc_dmah(struct ibv_context *ctx,
				  struct verbs_dmah *dmah,
				  struct ibv_dmah_init_attr *attr)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_DMAH,
			       KABI_UVERBS_METHOD_DMAH_ALLOC, 4);
	struct ib_uverbs_attr *handle;
	int ret;

	handle = fill_attr_out_obj(cmdb, KABI_UVERBS_ATTR_ALLOC_DMAH_HANDLE);
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_CPU_ID)
		fill_attr_in_uint32(cmdb, KABI_UVERBS_ATTR_ALLOC_DMAH_CPU_ID,
				    attr->cpu_id);
	/* An enum attribute: the memory type travels as the element id. */
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE)
		fill_attr_in_enum(cmdb,
				  KABI_UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE,
				  attr->tph_mem_type, NULL, 0);
	if (attr->comp_mask & IBV_DMAH_INIT_ATTR_MASK_PH)
		fill_attr_in(cmdb, KABI_UVERBS_ATTR_ALLOC_DMAH_PH, &attr->ph,
			     sizeof(attr->ph));
	ret = execute_ioctl(ctx, cmdb);
	if (ret)
		return ret;
	dmah->handle =
		read_attr_obj(KABI_UVERBS_ATTR_ALLOC_DMAH_HANDLE, handle);
	dmah->dmah.context = ctx;
	return 0;
}

/**
 * ibv_cmd_free_dmah - have the kernel release a DMA handle
 * @dmah: the handle; its memory stays the provider's to free
 *
 * A device that went away counts as done when
 * RDMAV_ALLOW_DISASSOC_DESTROY asks for it. Returns 0 or a positive
 * errno value.
 */
IBV_EXPORT int ibv_cmd_free_dmah(struct verbs_dmah *dmah)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_DMAH,
			       KABI_UVERBS_METHOD_DMAH_FREE, 1);

	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_FREE_DMA_HANDLE, dmah->handle);
	return cmd_destroy_result(execute_ioctl(dmah->dmah.context, cmdb));
}
