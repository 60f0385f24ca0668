// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Provider ABI 34, the one of rdma-core 44 to 56.1, beside the newest.
 *
 * Their providers (Debian 12's and 13's lib*-rdmav34.so, and ours built
 * for that ABI) reach these entry points through IBVERBS_PRIVATE_34.
 * Most functions of that node mean the same in both ABIs and are the
 * newest's own, exported twice (VERBS_PRIVATE_EXPORT in export.h). What
 * differs is here, each turned into the newest's call:
 *   - struct verbs_context_ops lacks the 17 ops rdma-core 65 added, in
 *     the middle of a struct sorted by name: verbs_set_ops() lays the
 *     old table out from driver.h's list and copies it member by member;
 *   - struct verbs_context lacks the 6 slots on top of it, so a pointer
 *     to one is vctx_growth() bytes above the newest layout's for the
 *     same ibv_context (the context's sz tells inline verbs the same);
 *   - four functions gained an argument: ibv_cmd_get_context() the file
 *     descriptors, ibv_cmd_create_cq_ex() and _ex2() the queue's buffer,
 *     ibv_cmd_create_qp_ex2() the provider's attributes. The old calls
 *     pass none.
 * The registration symbol carries the ABI in its name; the device
 * operations have one layout in both.
 */
#include <stddef.h>

#include "compat_pabi34.h"
#include "context_priv.h"
#include "driver.h"
#include "drivers.h"
#include "export.h"
#include "ops.h"

#define OLD_ABI 34
#define OLD_NODE VERBS_PRIVATE_NODE(OLD_ABI)

void compat_pabi34_ops(struct verbs_context_ops *out,
		       const struct verbs_context_ops_34 *in)
{
	/* ABI 34's members; the later ABIs' are left for the caller. */
#define OP_COPY34_ALL(name) out->name = in->name;
#define OP_COPY34_65(name)
#define OP_COPY34(abi, ret, name, params) OP_COPY34_##abi(name)
	VERBS_CONTEXT_OPS(OP_COPY34)
#undef OP_COPY34
#undef OP_COPY34_65
#undef OP_COPY34_ALL
}

static struct verbs_context *newest(struct verbs_context *vctx)
{
	return vctx_from_provider(vctx, OLD_ABI);
}

IBV_EXPORT void __verbs_register_name(34)(const struct verbs_device_ops *ops);
void __verbs_register_name(34)(const struct verbs_device_ops *ops)
{
	drivers_register(ops, OLD_ABI);
}

IBV_EXPORT void verbs_set_ops_34(struct verbs_context *vctx,
				 const struct verbs_context_ops_34 *ops);
VERBS_COMPAT_VERSION(verbs_set_ops_34, verbs_set_ops, OLD_NODE);
void verbs_set_ops_34(struct verbs_context *vctx,
		      const struct verbs_context_ops_34 *ops)
{
	struct verbs_context_ops all;

	/* ops_set_older() reads none of the members ABI 34 lacks. */
	compat_pabi34_ops(&all, ops);
	ops_set_older(newest(vctx), &all);
}

IBV_EXPORT void verbs_uninit_context_34(struct verbs_context *vctx);
VERBS_COMPAT_VERSION(verbs_uninit_context_34, verbs_uninit_context, OLD_NODE);
void verbs_uninit_context_34(struct verbs_context *vctx)
{
	verbs_uninit_context(newest(vctx));
}

IBV_EXPORT int ibv_cmd_get_context_34(struct verbs_context *vctx,
				      struct ibv_get_context *cmd,
				      size_t cmd_size,
				      struct ib_uverbs_get_context_resp *resp,
				      size_t resp_size);
VERBS_COMPAT_VERSION(ibv_cmd_get_context_34, ibv_cmd_get_context, OLD_NODE);
int ibv_cmd_get_context_34(struct verbs_context *vctx,
			   struct ibv_get_context *cmd, size_t cmd_size,
			   struct ib_uverbs_get_context_resp *resp,
			   size_t resp_size)
{
	return ibv_cmd_get_context(newest(vctx), cmd, cmd_size, NULL, resp,
				   resp_size);
}

IBV_EXPORT int ibv_cmd_create_cq_ex_34(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags);
VERBS_COMPAT_VERSION(ibv_cmd_create_cq_ex_34, ibv_cmd_create_cq_ex, OLD_NODE);
int ibv_cmd_create_cq_ex_34(struct ibv_context *context,
			    const struct ibv_cq_init_attr_ex *cq_attr,
			    struct verbs_cq *cq, struct ibv_create_cq_ex *cmd,
			    size_t cmd_size,
			    struct ib_uverbs_ex_create_cq_resp *resp,
			    size_t resp_size, uint32_t cmd_flags)
{
	return ibv_cmd_create_cq_ex(context, cq_attr, NULL, cq, cmd, cmd_size,
				    resp, resp_size, cmd_flags);
}

IBV_EXPORT int ibv_cmd_create_cq_ex2_34(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags, struct ibv_command_buffer *driver);
VERBS_COMPAT_VERSION(ibv_cmd_create_cq_ex2_34, ibv_cmd_create_cq_ex2, OLD_NODE);
int ibv_cmd_create_cq_ex2_34(struct ibv_context *context,
			     const struct ibv_cq_init_attr_ex *cq_attr,
			     struct verbs_cq *cq, struct ibv_create_cq_ex *cmd,
			     size_t cmd_size,
			     struct ib_uverbs_ex_create_cq_resp *resp,
			     size_t resp_size, uint32_t cmd_flags,
			     struct ibv_command_buffer *driver)
{
	return ibv_cmd_create_cq_ex2(context, cq_attr, NULL, cq, cmd, cmd_size,
				     resp, resp_size, cmd_flags, driver);
}

IBV_EXPORT int
ibv_cmd_create_qp_ex2_34(struct ibv_context *context, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *qp_attr,
			 struct ibv_create_qp_ex *cmd, size_t cmd_size,
			 struct ib_uverbs_ex_create_qp_resp *resp,
			 size_t resp_size);
VERBS_COMPAT_VERSION(ibv_cmd_create_qp_ex2_34, ibv_cmd_create_qp_ex2, OLD_NODE);
int ibv_cmd_create_qp_ex2_34(struct ibv_context *context, struct verbs_qp *qp,
			     struct ibv_qp_init_attr_ex *qp_attr,
			     struct ibv_create_qp_ex *cmd, size_t cmd_size,
			     struct ib_uverbs_ex_create_qp_resp *resp,
			     size_t resp_size)
{
	return ibv_cmd_create_qp_ex2(context, qp, qp_attr, cmd, cmd_size, resp,
				     resp_size, NULL);
}
