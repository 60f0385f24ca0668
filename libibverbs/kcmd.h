/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel transport (kcmd.c): the only code that issues ioctl() or
 * write() on a context's command file. Library-private; the command
 * layer (the ibv_cmd_*() functions) marshals a verb and hands it here,
 * and the white-box test tests/kcmd_test.c drives it directly, which is
 * why this header uses no internal type.
 *
 * Two kinds of command reach the kernel:
 *  - ioctl methods, a struct ibv_command_buffer sent by execute_ioctl()
 *    (declared in cmd_ioctl.h, exported because providers call it too);
 *  - write-format commands (IB_USER_VERBS_CMD_*), sent by kcmd_write()
 *    through the kernel's DEVICE/INVOKE_WRITE method when it has one, by
 *    write() otherwise.
 * What the kernel refused is remembered per context: a verb costs one
 * system call once the answer is known.
 */
#ifndef IBV_KCMD_H
#define IBV_KCMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <rdma/rdma_user_ioctl_cmds.h>

struct ibv_command_buffer;
struct ibv_context;

/*
 * One write-format command. The request starts with room for the
 * header (struct ib_uverbs_cmd_hdr, 8 bytes, or with @extended the
 * 24 bytes of kern-abi.h's struct ex_hdr), which kcmd_write() fills in;
 * the core request follows, then the provider's data. The response is
 * the core response followed by the provider's. A basic command's core
 * request carries its own response pointer (the caller sets it).
 */
struct kcmd_write_args {
	uint32_t command; /* IB_USER_VERBS_CMD_*, without the EXTENDED flag */
	bool extended;
	void *req;
	size_t req_core; /* header room plus core request, in bytes */
	size_t req_len; /* ... plus the provider's request */
	void *resp;
	size_t resp_core; /* core response */
	size_t resp_len; /* ... plus the provider's response */
};

/*
 * The most bytes a write() header can count: a basic command's whole
 * request or response (16 bits of 4-byte words), and each part of an
 * extended one (16 bits of 8-byte words). Longer requests are refused
 * before they are built.
 */
#define KCMD_BASIC_MAX ((size_t)UINT16_MAX * 4)
#define KCMD_EX_PART_MAX ((size_t)UINT16_MAX * 8)

/*
 * The request or response fields of struct kcmd_write_args, for the
 * usual case where the core part is what the pointer's type spans and
 * the rest of @ptr, up to @len bytes, is the provider's.
 */
#define KCMD_REQ(ptr, len) \
	.req = (ptr), .req_core = sizeof(*(ptr)), .req_len = (len)
#define KCMD_RESP(ptr, len) \
	.resp = (ptr), .resp_core = sizeof(*(ptr)), .resp_len = (len)

/*
 * Sends @args; 0 or a positive errno value (also left in errno). Sizes
 * the headers cannot express (see kcmd.c) give EINVAL, unsent. The
 * response buffer reads as zero wherever the kernel wrote nothing.
 */
int kcmd_write(struct ibv_context *ctx, const struct kcmd_write_args *args);

/*
 * A post of no work request, @command (IB_USER_VERBS_CMD_POST_SEND,
 * _POST_RECV or _POST_SRQ_RECV) on the QP or SRQ @handle: a provider's
 * doorbell, once per post call on the data path. It goes by write(), the
 * command's native form, and nothing else: a fixed 32-byte request built
 * on the stack, one system call, no ioctl attributes to marshal on either
 * side. Every kernel with uverbs takes it so. 0 or a positive errno value
 * (also left in errno); on failure *@bad, the post's bad work request, is
 * set to NULL (the post carried none), and on success left as it was, as
 * rdma-core 44 leaves it. Setting it here lets the post verbs tail-call.
 */
int kcmd_doorbell(struct ibv_context *ctx, uint32_t command, uint32_t handle,
		  uint32_t wqe_size, void **bad);

/*
 * An ioctl method the core fills whole, with no provider buffer linked
 * to it: the kernel's header and room for KCMD_CALL_ATTRS attributes,
 * filled by the kcmd_attr*() helpers below and sent by kcmd_call(). A
 * destroy or a tunnelled write() command costs a few stores this way,
 * where a struct ibv_command_buffer pays for the chain it might carry.
 * A union, because the header ends in a flexible array.
 */
#define KCMD_CALL_ATTRS 5
union kcmd_call {
	struct ib_uverbs_ioctl_hdr hdr;
	uint8_t room[sizeof(struct ib_uverbs_ioctl_hdr) +
		     KCMD_CALL_ATTRS * sizeof(struct ib_uverbs_attr)];
};

/* Attribute @i: @id with @len bytes of @data, mandatory. */
static inline void kcmd_attr(union kcmd_call *c, unsigned int i, uint16_t id,
			     uint16_t len, uint64_t data)
{
	c->hdr.attrs[i] = (struct ib_uverbs_attr){
		.attr_id = id,
		.len = len,
		.flags = UVERBS_ATTR_F_MANDATORY,
		.data = data,
	};
}

/* Input bytes: up to 8 travel inline, more by pointer (as fill_attr_in). */
static inline void kcmd_attr_in(union kcmd_call *c, unsigned int i, uint16_t id,
				const void *ptr, uint16_t len)
{
	uint64_t data = 0;

	if (len > sizeof(data))
		data = (uintptr_t)ptr;
	else
		memcpy(&data, ptr, len);
	kcmd_attr(c, i, id, len, data);
}

/* Output bytes, always by pointer. */
static inline void kcmd_attr_out(union kcmd_call *c, unsigned int i,
				 uint16_t id, void *ptr, uint16_t len)
{
	kcmd_attr(c, i, id, len, (uintptr_t)ptr);
}

/*
 * Sends method @method_id of @object_id with the first @num_attrs
 * attributes of @c; 0 or a positive errno value (also left in errno).
 * A method the kernel refused before (see kcmd_ioctl_refused()) is not
 * sent again: the answer is its refusal, ENOTTY or EPROTONOSUPPORT, at
 * no system call, and the caller falls back to its write() form.
 */
int kcmd_call(struct ibv_context *ctx, union kcmd_call *c,
	      unsigned int num_attrs, uint16_t object_id, uint16_t method_id);

/*
 * execute_ioctl() for a caller that has another way to send the command
 * when the kernel lacks the method: the same, without explaining the
 * refusal (explain_ioctl.c), since nothing has failed yet. A method refused
 * before is answered as kcmd_call() answers it, unsent.
 */
int kcmd_ioctl(struct ibv_context *ctx, struct ibv_command_buffer *cmd);

/*
 * Whether the kernel behind @ctx has refused this ioctl method before
 * (or has no ioctl interface at all): a caller with a write() fallback
 * then goes straight to it.
 */
bool kcmd_ioctl_refused(struct ibv_context *ctx, uint16_t object_id,
			uint16_t method_id);

/*
 * The transport seam for the white-box unit tests: the two system calls
 * on a command file, with the libc calling convention (-1 and errno on
 * failure); NULL puts the real one back. Not thread-safe: set before any
 * command runs.
 */
typedef int (*kcmd_ioctl_fn)(int fd, unsigned long request, void *arg);
typedef ssize_t (*kcmd_write_fn)(int fd, const void *buf, size_t len);
void kcmd_set_transport(kcmd_ioctl_fn ioctl_fn, kcmd_write_fn write_fn);

#endif
