// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Counter sets (the kernel's COUNTERS object) for providers: create,
 * destroy and read, behind the create_counters/destroy_counters/
 * read_counters ops that the inline verbs of verbs.h reach. What a set
 * counts is bound by the provider (attach_counters_point_flow has no
 * core command); a flow names the set by handle (cmd_flow.c).
 *
 * These methods exist only as ioctls. Create and read take the
 * provider's own attributes in a linked command buffer.
 */
#include <errno.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "util.h"

/*
 * Creates a counter set; no comp_mask bit is defined, so any is
 * EOPNOTSUPP. Fills @vcounters' context and handle. 0 or a positive
 * errno.
 */
IBV_EXPORT int ibv_cmd_create_counters(struct ibv_context *context,
				       struct ibv_counters_init_attr *init_attr,
				       struct verbs_counters *vcounters,
				       struct ibv_command_buffer *link)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_COUNTERS,
				    UVERBS_METHOD_COUNTERS_CREATE, 1, link);
	struct ib_uverbs_attr *handle =
		fill_attr_out_obj(cmdb, UVERBS_ATTR_CREATE_COUNTERS_HANDLE);
	int ret;

	if (init_attr->comp_mask)
		return with_errno(EOPNOTSUPP);
	ret = execute_ioctl(context, cmdb);
	if (ret)
		return ret;
	vcounters->counters.context = context;
	vcounters->handle =
		read_attr_obj(UVERBS_ATTR_CREATE_COUNTERS_HANDLE, handle);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_counters);

/* Destroys the counter set. 0 or a positive errno. */
IBV_EXPORT int ibv_cmd_destroy_counters(struct verbs_counters *vcounters)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_COUNTERS,
			       UVERBS_METHOD_COUNTERS_DESTROY, 1);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_DESTROY_COUNTERS_HANDLE,
			 vcounters->handle);
	return cmd_destroy_result(
		execute_ioctl(vcounters->counters.context, cmdb));
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_counters);

/*
 * Reads @ncounters values into @counters_value; @flags are the kernel's
 * IB_UVERBS_READ_COUNTERS_* (e.g. prefer the driver's cached values).
 * 0 or a positive errno.
 */
IBV_EXPORT int ibv_cmd_read_counters(struct verbs_counters *vcounters,
				     uint64_t *counters_value,
				     uint32_t ncounters, uint32_t flags,
				     struct ibv_command_buffer *link)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_COUNTERS,
				    UVERBS_METHOD_COUNTERS_READ, 3, link);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_READ_COUNTERS_HANDLE,
			 vcounters->handle);
	fill_attr_out_ptr_array(cmdb, UVERBS_ATTR_READ_COUNTERS_BUFF,
				counters_value, ncounters);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_READ_COUNTERS_FLAGS, flags);
	return execute_ioctl(vcounters->counters.context, cmdb);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_read_counters);
