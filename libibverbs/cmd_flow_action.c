// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Flow actions (the kernel's FLOW_ACTION object): IPsec ESP actions are
 * created, modified and destroyed here for providers, whose
 * create_flow_action_esp/modify_flow_action_esp/destroy_flow_action ops
 * the inline verbs of verbs.h reach. A created action is then named in a
 * flow by its handle (IBV_FLOW_SPEC_ACTION_HANDLE, cmd_flow.c).
 *
 * These methods exist only as ioctls; a kernel without them answers
 * ENOTTY or EPROTONOSUPPORT, and that is what the caller gets. The
 * provider may add attributes of its own in a linked command buffer.
 */
#include <errno.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"

/* Attributes an ESP create or modify can carry, handle included. */
#define ESP_MAX_ATTRS 6

/*
 * The kernel reads the encap's pointers as u64s. Where a pointer is
 * narrower than that, the bytes beside it are the caller's garbage:
 * rewrite each slot as the widened pointer. A no-op on 64-bit.
 */
static void scrub_encap(struct ibv_flow_action_esp_encap *encap)
{
	if (sizeof(encap->val_ptr) == sizeof(encap->val_ptr_data_u64))
		return;
	encap->val_ptr_data_u64 = ioctl_ptr_to_u64(encap->val_ptr);
	encap->next_ptr_data_u64 = ioctl_ptr_to_u64(encap->next_ptr);
}

/*
 * The optional parts of an ESP action, each sent only when given: the
 * ESN when comp_mask asks for it, key material and replay protection as
 * enum attributes tagged with their protocol, the encapsulation and the
 * ESP parameters by pointer.
 */
static void fill_esp(struct ibv_command_buffer *cmdb,
		     struct ibv_flow_action_esp_attr *esp)
{
	if (esp->comp_mask & IBV_FLOW_ACTION_ESP_MASK_ESN)
		fill_attr_in(cmdb, UVERBS_ATTR_FLOW_ACTION_ESP_ESN, &esp->esn,
			     sizeof(esp->esn));
	if (esp->keymat_ptr)
		fill_attr_in_enum(cmdb, UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT,
				  esp->keymat_proto, esp->keymat_ptr,
				  esp->keymat_len);
	if (esp->replay_ptr)
		fill_attr_in_enum(cmdb, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY,
				  esp->replay_proto, esp->replay_ptr,
				  esp->replay_len);
	if (esp->esp_encap) {
		scrub_encap(esp->esp_encap);
		fill_attr_in_ptr(cmdb, UVERBS_ATTR_FLOW_ACTION_ESP_ENCAP,
				 esp->esp_encap);
	}
	if (esp->esp_attr)
		fill_attr_in_ptr(cmdb, UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS,
				 esp->esp_attr);
}

/*
 * Creates an ESP flow action from @attr, with the provider's attributes
 * in @driver (may be NULL). Fills @flow_action's context, type and
 * handle. 0 or a positive errno.
 */
IBV_EXPORT int
ibv_cmd_create_flow_action_esp(struct ibv_context *ctx,
			       struct ibv_flow_action_esp_attr *attr,
			       struct verbs_flow_action *flow_action,
			       struct ibv_command_buffer *driver)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_FLOW_ACTION,
				    UVERBS_METHOD_FLOW_ACTION_ESP_CREATE,
				    ESP_MAX_ATTRS, driver);
	struct ib_uverbs_attr *handle = fill_attr_out_obj(
		cmdb, UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
	int ret;

	fill_esp(cmdb, attr);
	ret = execute_ioctl(ctx, cmdb);
	if (ret)
		return ret;
	flow_action->action.context = ctx;
	flow_action->type = IBV_FLOW_ACTION_ESP;
	flow_action->handle = read_attr_obj(
		UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE, handle);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_flow_action_esp);

/*
 * Changes the ESP parameters of @flow_action to those @attr gives; the
 * parts @attr leaves out are not sent. 0 or a positive errno.
 */
IBV_EXPORT int
ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action,
			       struct ibv_flow_action_esp_attr *attr,
			       struct ibv_command_buffer *driver)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_FLOW_ACTION,
				    UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY,
				    ESP_MAX_ATTRS, driver);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE,
			 flow_action->handle);
	fill_esp(cmdb, attr);
	return execute_ioctl(flow_action->action.context, cmdb);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_modify_flow_action_esp);

/* Destroys any flow action by its handle. 0 or a positive errno. */
IBV_EXPORT int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_FLOW_ACTION,
			       UVERBS_METHOD_FLOW_ACTION_DESTROY, 1);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE,
			 action->handle);
	return cmd_destroy_result(execute_ioctl(action->action.context, cmdb));
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_flow_action);
