// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion counters (the kernel's COMP_CNTR object, rdma-core 65) for
 * providers: the device's limits (DEVICE/QUERY_COMP_CNTR_CAPS), create
 * and destroy, the four updates (one MODIFY method: which of the two
 * values, set or add), the two reads, and the attachment of a counter to
 * a QP (QP/ATTACH_COMP_CNTR). A provider calls these from its ops; the
 * public verbs of verbs_comp_cntr.c reach the ops.
 *
 * Every one is an ioctl method without a write() form: a kernel without
 * it answers ENOTTY or EPROTONOSUPPORT, passed through as 65.0 does.
 * The kernel's op bits and the verbs' are equal today, but each is
 * translated by name, as the reference does, so that neither side's
 * numbering binds the other's.
 */
#include <errno.h>
#include <stdint.h>

#include "driver.h"

#include <rdma/ib_user_ioctl_cmds.h>

#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "export.h"
#include "util.h"

/* The verbs' attach ops beside the kernel's, one row per op. */
static const struct {
	uint32_t verbs, kernel;
} attach_ops[] = {
	{ IBV_QP_ATTACH_COMP_CNTR_OP_SEND,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_SEND },
	{ IBV_QP_ATTACH_COMP_CNTR_OP_RECV,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RECV },
	{ IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_READ,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_READ },
	{ IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ },
	{ IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE },
	{ IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE,
	  IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE },
};

/* The kernel's bits for @ops; bits of neither side are dropped. */
static uint32_t ops_to_kernel(uint32_t ops)
{
	uint32_t k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(attach_ops); i++)
		if (ops & attach_ops[i].verbs)
			k |= attach_ops[i].kernel;
	return k;
}

static uint32_t ops_from_kernel(uint32_t k)
{
	uint32_t ops = 0;

	for (size_t i = 0; i < ARRAY_SIZE(attach_ops); i++)
		if (k & attach_ops[i].kernel)
			ops |= attach_ops[i].verbs;
	return ops;
}

/* Whether @ops holds only bits the verbs define. */
static bool ops_known(uint32_t ops)
{
	return ops_from_kernel(ops_to_kernel(ops)) == ops;
}

/**
 * ibv_cmd_query_comp_cntr_caps - the device's completion counter limits
 * @context: the context
 * @caps: filled in on success; the caller (_ibv_query_comp_cntr_caps())
 *        zeroed it, so that fields a larger struct adds read 0
 * @caps_size: the caller's struct size; below 65.0's is EINVAL
 *
 * Op bits the kernel reports that the verbs do not define are left out.
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_query_comp_cntr_caps(struct ibv_context *context,
					    struct ibv_comp_cntr_caps *caps,
					    size_t caps_size)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_DEVICE,
			       KABI_UVERBS_METHOD_QUERY_COMP_CNTR_CAPS, 3);
	uint32_t kops = 0;
	int ret;

	if (caps_size < sizeof(*caps))
		return with_errno(EINVAL);
	fill_attr_out_ptr(cmdb,
			  KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_COUNTERS,
			  &caps->max_counters);
	fill_attr_out_ptr(cmdb, KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_VALUE,
			  &caps->max_value);
	fill_attr_out_ptr(
		cmdb,
		KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS,
		&kops);
	ret = execute_ioctl(context, cmdb);
	if (ret)
		return ret;
	caps->supported_qp_attach_ops = ops_from_kernel(kops);
	return 0;
}

/**
 * ibv_cmd_create_comp_cntr - have the kernel create a completion counter
 * @context: the context
 * @comp_cntr: the provider's counter; its context is set before the
 *             call (as 65.0 does), its handle on success
 * @link: the provider's attributes (where the values live, say), or NULL
 *
 * The counter's type and flags are the provider's to check and send:
 * the core method takes none. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_create_comp_cntr(struct ibv_context *context,
					struct ibv_comp_cntr *comp_cntr,
					struct ibv_command_buffer *link)
{
	DECLARE_COMMAND_BUFFER_LINK(cmdb, KABI_UVERBS_OBJECT_COMP_CNTR,
				    KABI_UVERBS_METHOD_COMP_CNTR_CREATE, 1,
				    link);
	struct ib_uverbs_attr *handle;
	int ret;

	comp_cntr->context = context;
	handle = fill_attr_out_obj(cmdb,
				   KABI_UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE);
	ret = execute_ioctl(context, cmdb);
	if (ret)
		return ret;
	comp_cntr->handle =
		read_attr_obj(KABI_UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE, handle);
	return 0;
}

/* Destroys the counter; EBUSY while a QP has it. 0 or a positive errno. */
IBV_EXPORT int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_COMP_CNTR,
			       KABI_UVERBS_METHOD_COMP_CNTR_DESTROY, 1);

	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE,
			 comp_cntr->handle);
	return cmd_destroy_result(execute_ioctl(comp_cntr->context, cmdb));
}

/* One MODIFY: @op (set or add) @value on the counter's @entry. */
static int modify(struct ibv_comp_cntr *comp_cntr, uint8_t entry, uint8_t op,
		  uint64_t value)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_COMP_CNTR,
			       KABI_UVERBS_METHOD_COMP_CNTR_MODIFY, 4);

	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE,
			 comp_cntr->handle);
	fill_attr_const_in(cmdb, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY,
			   entry);
	fill_attr_const_in(cmdb, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_OP, op);
	fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE,
			    value);
	return execute_ioctl(comp_cntr->context, cmdb);
}

/* The four updates: 0 or a positive errno value each. */
IBV_EXPORT int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				     uint64_t value)
{
	return modify(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_COMP,
		      IB_UVERBS_COMP_CNTR_MODIFY_OP_SET, value);
}

IBV_EXPORT int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
					 uint64_t value)
{
	return modify(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_ERR,
		      IB_UVERBS_COMP_CNTR_MODIFY_OP_SET, value);
}

IBV_EXPORT int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				     uint64_t amount)
{
	return modify(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_COMP,
		      IB_UVERBS_COMP_CNTR_MODIFY_OP_INC, amount);
}

IBV_EXPORT int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
					 uint64_t amount)
{
	return modify(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_ERR,
		      IB_UVERBS_COMP_CNTR_MODIFY_OP_INC, amount);
}

/* One READ of the counter's @entry into *@value. */
static int read_entry(struct ibv_comp_cntr *comp_cntr, uint8_t entry,
		      uint64_t *value)
{
	DECLARE_COMMAND_BUFFER(cmdb, KABI_UVERBS_OBJECT_COMP_CNTR,
			       KABI_UVERBS_METHOD_COMP_CNTR_READ, 3);

	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_READ_COMP_CNTR_HANDLE,
			 comp_cntr->handle);
	fill_attr_const_in(cmdb, KABI_UVERBS_ATTR_READ_COMP_CNTR_ENTRY, entry);
	fill_attr_out_ptr(cmdb, KABI_UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE,
			  value);
	return execute_ioctl(comp_cntr->context, cmdb);
}

/* The two reads, through the kernel: 0 or a positive errno value. */
IBV_EXPORT int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				      uint64_t *value)
{
	return read_entry(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_COMP, value);
}

IBV_EXPORT int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
					  uint64_t *value)
{
	return read_entry(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_ERR, value);
}

/**
 * ibv_cmd_qp_attach_comp_cntr - have the counter count some of a QP's
 *                               completions
 * @qp: the QP (the kernel wants it in RESET or INIT)
 * @comp_cntr: the counter
 * @attr: which operations count (op_mask)
 *
 * No comp_mask bit is defined, and an op_mask bit the verbs do not
 * define is refused too (EOPNOTSUPP, unsent), where 65.0 ignores
 * comp_mask and drops the bit: a counter must not silently count less
 * than the caller asked for. Returns 0 or a positive errno value.
 */
IBV_EXPORT int
ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr,
			    struct ibv_qp_attach_comp_cntr_attr *attr)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_QP,
			       KABI_UVERBS_METHOD_QP_ATTACH_COMP_CNTR, 3);

	if (attr->comp_mask || !ops_known(attr->op_mask))
		return with_errno(EOPNOTSUPP);
	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_HANDLE,
			 qp->handle);
	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_CNTR_HANDLE,
			 comp_cntr->handle);
	fill_attr_in_uint32(cmdb, KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK,
			    ops_to_kernel(attr->op_mask));
	return execute_ioctl(qp->context, cmdb);
}
