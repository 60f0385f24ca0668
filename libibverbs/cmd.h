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

#include <stddef.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/verbs.h>

#include "driver.h"

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
enum cmd_route cmd_route(struct ibv_context *ctx,
			 struct ibv_command_buffer *cmdb, int *ret);

/*
 * Attaches the provider's data behind the core request and response of
 * a write()-style pair (@core_in and @core_out bytes into @cmd and
 * @resp) as the UHW_IN and UHW_OUT attributes of @cmdb, when there is
 * any.
 */
void cmd_add_uhw(struct ibv_command_buffer *cmdb, void *cmd, size_t cmd_size,
		 size_t core_in, void *resp, size_t resp_size, size_t core_out);

/*
 * A destroy the kernel failed with EIO because the device is gone counts
 * as done when RDMAV_ALLOW_DISASSOC_DESTROY asks for it.
 */
int cmd_destroy_result(int ret);
/* RDMAV_ALLOW_DISASSOC_DESTROY: for the core and providers of every ABI. */
void cmd_allow_disassociate_destroy(void);

/*
 * What a destroy sends, fixed per object: the ioctl method with the
 * handle (and, for objects that count events, an output for the
 * kernel's counts), and the write() command kernels without the method
 * take instead. A static const entry per object, built with the macros
 * below.
 */
struct cmd_destroy {
	uint16_t object_id;
	uint16_t method_id;
	uint16_t handle_attr; /* UVERBS_ATTR_DESTROY_<OBJ>_HANDLE */
	uint16_t resp_attr; /* UVERBS_ATTR_DESTROY_<OBJ>_RESP */
	uint16_t resp_len; /* the write() form's answer; 0: none */
	/* The bytes of that answer the ioctl form returns. */
	uint16_t ioctl_resp_off;
	uint16_t ioctl_resp_len;
	uint32_t command; /* IB_USER_VERBS_[EX_]CMD_* */
	bool extended;
};

/* The ioctl names of <OBJ>/DESTROY follow one pattern. */
#define CMD_DESTROY_IDS(obj)                        \
	.object_id = UVERBS_OBJECT_##obj,           \
	.method_id = UVERBS_METHOD_##obj##_DESTROY, \
	.handle_attr = UVERBS_ATTR_DESTROY_##obj##_HANDLE
#define CMD_DESTROY_IDS_RESP(obj) \
	CMD_DESTROY_IDS(obj), .resp_attr = UVERBS_ATTR_DESTROY_##obj##_RESP

/* A write() answer of @type of which the ioctl returns only @field. */
#define CMD_DESTROY_ANSWER(type, field)                                    \
	.resp_len = sizeof(type), .ioctl_resp_off = offsetof(type, field), \
	.ioctl_resp_len = sizeof(((type *)0)->field)

/*
 * Sends the destroy @d of @handle, by ioctl or by write(); the answer
 * lands in @resp (@d->resp_len bytes, NULL for none). Returns the
 * kernel's answer as is: a caller that waits for events must not wait
 * after a failure cmd_destroy_result() would forgive.
 */
int cmd_destroy(struct ibv_context *ctx, const struct cmd_destroy *d,
		uint32_t handle, void *resp);

/* A destroy without an answer, through cmd_destroy_result(). */
static inline int cmd_destroy_handle(struct ibv_context *ctx,
				     const struct cmd_destroy *d,
				     uint32_t handle)
{
	return cmd_destroy_result(cmd_destroy(ctx, d, handle, NULL));
}

/*
 * The destroy of a QP, SRQ or WQ (one async event counter): sends @d,
 * then blocks until the application has acknowledged (*@acked, guarded
 * by @mutex, signalled on @cond) every event the kernel says it
 * delivered, so the object is not freed under a thread still handling
 * one. Returns 0 or a positive errno, through cmd_destroy_result().
 */
int cmd_destroy_acked(struct ibv_context *ctx, const struct cmd_destroy *d,
		      uint32_t handle, pthread_mutex_t *mutex,
		      pthread_cond_t *cond, const uint32_t *acked);

/*
 * The core's fields of an MR registered by an ioctl method (cmd_mr.c's
 * REG_DMABUF_MR, cmd_dm.c's DM_MR_REG): the kernel answers the handle
 * and keys, the rest is what the caller asked for.
 */
static inline void cmd_mr_registered(struct verbs_mr *vmr, struct ibv_pd *pd,
				     uint32_t handle, uint32_t lkey,
				     uint32_t rkey, void *addr, size_t length,
				     enum ibv_mr_type type)
{
	vmr->ibv_mr.handle = handle;
	vmr->ibv_mr.context = pd->context;
	vmr->ibv_mr.lkey = lkey;
	vmr->ibv_mr.rkey = rkey;
	vmr->ibv_mr.pd = pd;
	vmr->ibv_mr.addr = addr;
	vmr->ibv_mr.length = length;
	vmr->mr_type = type;
}

#endif
