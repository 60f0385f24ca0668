// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel transport: the one place that issues ioctl() and write() on
 * a context's command file, through a seam (two function pointers) a
 * unit test can point at a fake kernel. Three protocols: RDMA_VERBS_IOCTL
 * with linked buffers gathered into one attribute array; write() with
 * the basic or extended header; and write-format commands carried by
 * the DEVICE/INVOKE_WRITE method (kernels since 5.0).
 *
 * ENOTTY (no ioctl at all) and EPROTONOSUPPORT (method or mandatory
 * attribute unknown) come from the kernel's dispatcher before any handler
 * ran, so resending another way is safe; each context remembers them
 * with relaxed atomics, since the bits only ever get set.
 */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "cmd_ioctl.h"
#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "kcmd.h"
#include "kern-abi.h"
#include "log.h"
#include "util.h"

#ifdef HAVE_VALGRIND_MEMCHECK_H
#include <valgrind/memcheck.h>

/*
 * Whether memcheck watches this process: only it needs telling what the
 * kernel wrote (mark_outputs()), and only it answers GET_VBITS (1, for
 * a byte it can see). Any other run, valgrind's other tools included,
 * pays one predictable branch per command.
 */
static bool memcheck;

static void __attribute__((constructor)) detect_memcheck(void)
{
	char probe = 0, vbits;

	memcheck = VALGRIND_GET_VBITS(&probe, &vbits, 1) == 1;
}
#else
#define VALGRIND_MAKE_MEM_DEFINED(addr, len) ((void)(addr), (void)(len))
#define memcheck false
#endif

/* ioctl() is variadic; the seam wants a plain prototype. */
static int kernel_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static kcmd_ioctl_fn sys_ioctl = kernel_ioctl;
static kcmd_write_fn sys_write = write;

void kcmd_set_transport(kcmd_ioctl_fn ioctl_fn, kcmd_write_fn write_fn)
{
	sys_ioctl = ioctl_fn ? ioctl_fn : kernel_ioctl;
	sys_write = write_fn ? write_fn : write;
}

/* Method ids at or above this are not remembered (driver namespaces). */
#define KCMD_MAX_METHODS 32

/*
 * EOPNOTSUPP is not remembered: handlers also give it for one call's
 * arguments (an advise_mr advice the device lacks), not for the method.
 */
static void note_refusal(struct verbs_ex_private *priv,
			 const struct ib_uverbs_ioctl_hdr *hdr, int err)
{
	if (err == ENOTTY) {
		if (!atomic_exchange_explicit(&priv->no_ioctl, true,
					      memory_order_relaxed))
			ibv_log_debug("kernel has no uverbs ioctl interface");
		return;
	}
	if (err != EPROTONOSUPPORT || hdr->object_id >= KCMD_MAX_OBJECTS ||
	    hdr->method_id >= KCMD_MAX_METHODS)
		return;
	atomic_fetch_or_explicit(&priv->refused[hdr->object_id],
				 1u << hdr->method_id, memory_order_relaxed);
}

/* The refusal remembered for the method, or 0 if none. */
static inline int refusal(struct verbs_ex_private *priv, uint16_t object_id,
			  uint16_t method_id)
{
	if (atomic_load_explicit(&priv->no_ioctl, memory_order_relaxed))
		return ENOTTY;
	if (object_id >= KCMD_MAX_OBJECTS || method_id >= KCMD_MAX_METHODS)
		return 0;
	if (atomic_load_explicit(&priv->refused[object_id],
				 memory_order_relaxed) &
	    (1u << method_id))
		return EPROTONOSUPPORT;
	return 0;
}

bool kcmd_ioctl_refused(struct ibv_context *ctx, uint16_t object_id,
			uint16_t method_id)
{
	return refusal(get_priv(ctx), object_id, method_id);
}

/**
 * __ioctl_final_num_attrs - attributes a buffer executing a chain needs
 * @num_attrs: its own
 * @link: the first linked buffer
 */
IBV_EXPORT unsigned int __ioctl_final_num_attrs(unsigned int num_attrs,
						struct ibv_command_buffer *link)
{
	for (; link; link = link->next)
		num_attrs += link->next_attr - link->hdr.attrs;
	return num_attrs;
}
VERBS_PRIVATE_EXPORT(__ioctl_final_num_attrs);

/* The header's 16-bit length counts itself and every attribute. */
#define KCMD_MAX_ATTRS                                       \
	((UINT16_MAX - sizeof(struct ib_uverbs_ioctl_hdr)) / \
	 sizeof(struct ib_uverbs_attr))

/*
 * Gathers the linked buffers' attributes behind @cmd's own and finds
 * where UHW_IN landed; EINVAL if @cmd was not sized for the chain, or
 * the chain has more attributes than the header can count.
 */
static int gather(struct ibv_command_buffer *cmd, unsigned int *uhw_in)
{
	struct ib_uverbs_attr *end = cmd->next_attr;
	struct ibv_command_buffer *link;
	size_t n;

	*uhw_in = cmd->uhw_in_idx;
	for (link = cmd->next; link; link = link->next) {
		n = link->next_attr - link->hdr.attrs;
		if (n > (size_t)(cmd->last_attr - end))
			return EINVAL;
		if (*uhw_in == _UHW_NO_INDEX &&
		    link->uhw_in_idx != _UHW_NO_INDEX)
			*uhw_in = link->uhw_in_idx + (end - cmd->hdr.attrs);
		memcpy(end, link->hdr.attrs, n * sizeof(*end));
		end += n;
	}
	if (end - cmd->hdr.attrs > (ptrdiff_t)KCMD_MAX_ATTRS)
		return EINVAL;
	cmd->hdr.num_attrs = end - cmd->hdr.attrs;
	return 0;
}

/* After a successful call: outputs back where each provider looks. */
static void scatter(struct ibv_command_buffer *cmd)
{
	struct ib_uverbs_attr *src = cmd->next_attr;
	struct ibv_command_buffer *link;
	size_t n;

	for (link = cmd->next; link; link = link->next) {
		n = link->next_attr - link->hdr.attrs;
		memcpy(link->hdr.attrs, src, n * sizeof(*src));
		src += n;
	}
}

/*
 * The kernel wants a short UHW_IN inline, the write() fallback wants the
 * pointer: inlined for the call only; returns the pointer to put back.
 */
static uint64_t inline_uhw_in(struct ibv_command_buffer *cmd, unsigned int idx)
{
	struct ib_uverbs_attr *attr = &cmd->hdr.attrs[idx];
	uint64_t ptr = attr->data;

	if (attr->attr_id == UVERBS_ATTR_UHW_IN && attr->len <= sizeof(ptr)) {
		attr->data = 0;
		if (attr->len)
			memcpy(&attr->data, (void *)(uintptr_t)ptr, attr->len);
	}
	return ptr;
}

/*
 * What the kernel wrote into the attributes and the output buffers it
 * marked valid: memcheck cannot know what RDMA_VERBS_IOCTL fills, and
 * would call every new handle and every answer uninitialised.
 */
static void __attribute__((noinline))
mark_outputs(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_attr *a = hdr->attrs;

	VALGRIND_MAKE_MEM_DEFINED(a, hdr->num_attrs * sizeof(*a));
	for (unsigned int i = 0; i < hdr->num_attrs; i++)
		/* An output's data is a pointer, whatever its length. */
		if ((a[i].flags & UVERBS_ATTR_F_VALID_OUTPUT) && a[i].len)
			VALGRIND_MAKE_MEM_DEFINED((void *)(uintptr_t)a[i].data,
						  a[i].len);
}

/*
 * One RDMA_VERBS_IOCTL of @hdr, whose length, reserved fields and
 * driver id are set here; 0 or a positive errno value.
 */
static inline __attribute__((always_inline)) int
send_ioctl(struct ibv_context *ctx, struct verbs_ex_private *priv,
	   struct ib_uverbs_ioctl_hdr *hdr)
{
	int ret;

	hdr->length = sizeof(*hdr) + sizeof(hdr->attrs[0]) * hdr->num_attrs;
	hdr->reserved1 = 0;
	hdr->reserved2 = 0;
	hdr->driver_id = priv->driver_id;
	if (__builtin_expect(!sys_ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, hdr),
			     1)) {
		if (memcheck)
			mark_outputs(hdr);
		return 0;
	}
	ret = errno ? errno : EIO;
	note_refusal(priv, hdr, ret);
	return ret;
}

int kcmd_call(struct ibv_context *ctx, union kcmd_call *c,
	      unsigned int num_attrs, uint16_t object_id, uint16_t method_id)
{
	struct verbs_ex_private *priv = get_priv(ctx);
	int ret = refusal(priv, object_id, method_id);

	if (__builtin_expect(!ret, 1)) {
		c->hdr.object_id = object_id;
		c->hdr.method_id = method_id;
		c->hdr.num_attrs = num_attrs;
		ret = send_ioctl(ctx, priv, &c->hdr);
		if (!ret)
			return 0;
	}
	return with_errno(ret);
}

/* Sends the chain @cmd heads; 0 or a positive errno value. */
static int send_chain(struct ibv_context *context,
		      struct verbs_ex_private *priv,
		      struct ibv_command_buffer *cmd)
{
	unsigned int uhw_in;
	uint64_t uhw_ptr = 0;
	int ret;

	/* A filler met data it cannot marshal. */
	ret = cmd->buffer_error ? EINVAL : gather(cmd, &uhw_in);
	if (ret)
		return ret;
	if (uhw_in < cmd->hdr.num_attrs)
		uhw_ptr = inline_uhw_in(cmd, uhw_in);
	ret = send_ioctl(context, priv, &cmd->hdr);
	if (uhw_in < cmd->hdr.num_attrs)
		cmd->hdr.attrs[uhw_in].data = uhw_ptr;
	if (!ret && cmd->next)
		scatter(cmd);
	return ret;
}

int kcmd_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)
{
	struct verbs_ex_private *priv = get_priv(context);
	int ret;

	/* Refused before: the kernel would refuse it again. */
	ret = refusal(priv, cmd->hdr.object_id, cmd->hdr.method_id);
	if (!ret)
		ret = send_chain(context, priv, cmd);
	return with_errno(ret);
}

/**
 * execute_ioctl - send a command buffer and its linked buffers
 * @context: the context whose command file carries it
 * @cmd: the executing buffer, declared with room for the whole chain
 *
 * Returns 0 or a positive errno value, which errno also holds. Its
 * callers have no other way to send the command, so a kernel without
 * the method is worth a line in the log (explain_ioctl.c).
 */
IBV_EXPORT int execute_ioctl(struct ibv_context *context,
			     struct ibv_command_buffer *cmd)
{
	int ret = send_chain(context, get_priv(context), cmd);

	if (!ret)
		return 0;
	errno = ret;
	if (ret == ENOTTY || ret == EPROTONOSUPPORT)
		explain_no_method(context, cmd->hdr.object_id,
				  cmd->hdr.method_id);
	return ret;
}
VERBS_PRIVATE_EXPORT(execute_ioctl);

/* A write() that failed: its errno, or EIO for a short count. */
static int __attribute__((cold, noinline)) write_failed(ssize_t n)
{
	if (n >= 0 || !errno)
		errno = EIO;
	return errno;
}

/* The kernel takes all or fails: a short count is no success either. */
static inline int send_write(struct ibv_context *ctx, const void *req,
			     size_t len)
{
	ssize_t n = sys_write(ctx->cmd_fd, req, len);

	if (__builtin_expect(n == (ssize_t)len, 1))
		return 0;
	return write_failed(n);
}

/*
 * Basic header: whole request and response, in 4-byte words. A response
 * whose provider part ends in a partial word gets the whole words only,
 * as rdma-core 44 sends it (its ioctl form takes the exact length).
 */
static int write_basic(struct ibv_context *ctx, const struct kcmd_write_args *w)
{
	struct ib_uverbs_cmd_hdr *hdr = w->req;

	hdr->command = w->command;
	hdr->in_words = w->req_len / 4;
	hdr->out_words = w->resp_len / 4;
	if (w->resp_len)
		memset(w->resp, 0, w->resp_len);
	return send_write(ctx, w->req, w->req_len);
}

/* Extended header: core and provider parts apart, in 8-byte words. */
static int write_ex(struct ibv_context *ctx, const struct kcmd_write_args *w)
{
	struct ex_hdr *hdr = w->req;

	hdr->hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | w->command;
	hdr->hdr.in_words = (w->req_core - sizeof(*hdr)) / 8;
	hdr->hdr.out_words = w->resp_core / 8;
	hdr->ex_hdr.provider_in_words = (w->req_len - w->req_core) / 8;
	hdr->ex_hdr.provider_out_words = (w->resp_len - w->resp_core) / 8;
	hdr->ex_hdr.response = ioctl_ptr_to_u64(w->resp);
	hdr->ex_hdr.cmd_hdr_reserved = 0;
	if (w->resp_len)
		memset(w->resp, 0, w->resp_len);
	return send_write(ctx, w->req, w->req_len);
}

static size_t hdr_room(const struct kcmd_write_args *w)
{
	return w->extended ? sizeof(struct ex_hdr) :
			     sizeof(struct ib_uverbs_cmd_hdr);
}

/*
 * A part too long for an attribute: write() carries it where the kernel
 * has no tunnel (the refusal sends kcmd_write() there), else EINVAL.
 */
static int __attribute__((cold, noinline)) too_long(struct ibv_context *ctx)
{
	if (kcmd_ioctl_refused(ctx, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_INVOKE_WRITE))
		return with_errno(EPROTONOSUPPORT);
	return with_errno(EINVAL);
}

/*
 * The same command through DEVICE/INVOKE_WRITE, each part an attribute,
 * the headers unsent; the kernel zeroes what it does not fill. An
 * attribute counts 16 bits of bytes: a longer part is too_long().
 */
static int write_tunnel(struct ibv_context *ctx,
			const struct kcmd_write_args *w)
{
	uint8_t *req = w->req, *resp = w->resp;
	size_t room = hdr_room(w);
	uint32_t command = w->command;
	union kcmd_call c;
	unsigned int n = 0;

	/* Any part over 16 bits sets a bit of the OR above them. */
	if (((w->req_core - room) | (w->req_len - w->req_core) | w->resp_core |
	     (w->resp_len - w->resp_core)) > UINT16_MAX)
		return too_long(ctx);
	if (w->extended)
		command |= IB_USER_VERBS_CMD_FLAG_EXTENDED;
	kcmd_attr(&c, n++, UVERBS_ATTR_WRITE_CMD, sizeof(uint64_t), command);
	if (w->req_core > room)
		kcmd_attr_in(&c, n++, UVERBS_ATTR_CORE_IN, req + room,
			     w->req_core - room);
	if (w->resp_core)
		kcmd_attr_out(&c, n++, UVERBS_ATTR_CORE_OUT, resp,
			      w->resp_core);
	if (w->req_len > w->req_core)
		kcmd_attr_in(&c, n++, UVERBS_ATTR_UHW_IN, req + w->req_core,
			     w->req_len - w->req_core);
	if (w->resp_len > w->resp_core)
		kcmd_attr_out(&c, n++, UVERBS_ATTR_UHW_OUT, resp + w->resp_core,
			      w->resp_len - w->resp_core);
	return kcmd_call(ctx, &c, n, UVERBS_OBJECT_DEVICE,
			 UVERBS_METHOD_INVOKE_WRITE);
}

/*
 * What the write() headers can express, checked whichever way the
 * command goes so that the answer does not depend on the kernel: the
 * parts in order; the request and the core response a whole number of
 * the header's words (4 bytes for a basic command; 8 for each part of an
 * extended one), so that the kernel finds the provider's data where the
 * provider put it. Only the provider's part of the response may end in a
 * partial word, which the write() form then leaves out (see
 * write_basic()): rdma-core 44 allows it, and a provider's response
 * struct may be so sized. rdma-core 44 also sends a request of partial
 * words, which the kernel refuses (EINVAL); it is refused here unsent.
 */
static bool sizes_ok(const struct kcmd_write_args *w)
{
	size_t room = hdr_room(w), in_core, in_prov, out_prov;

	if (!w->req || w->req_core < room || w->req_len < w->req_core ||
	    w->resp_len < w->resp_core || (w->resp_len && !w->resp))
		return false;
	/* Whole words: no low bit set in any of the lengths OR-ed. */
	if (!w->extended)
		return !((w->req_len | w->resp_core) & 3) &&
		       w->req_len <= KCMD_BASIC_MAX &&
		       w->resp_len / 4 <= UINT16_MAX;
	in_core = w->req_core - room;
	in_prov = w->req_len - w->req_core;
	out_prov = w->resp_len - w->resp_core;
	return !((in_core | in_prov | w->resp_core) & 7) &&
	       in_core <= KCMD_EX_PART_MAX && in_prov <= KCMD_EX_PART_MAX &&
	       w->resp_core <= KCMD_EX_PART_MAX && out_prov / 8 <= UINT16_MAX;
}

int kcmd_doorbell(struct ibv_context *ctx, uint32_t command, uint32_t handle,
		  uint32_t wqe_size, void **bad)
{
	/* The kernel writes bad_wr here: 0, as no work request came. */
	struct ib_uverbs_post_send_resp resp;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_send post;
	} req = {
		.hdr = { .command = command,
			 .in_words = sizeof(req) / 4,
			 .out_words = sizeof(resp) / 4 },
		.post = { .response = ioctl_ptr_to_u64(&resp),
			  .qp_handle = handle,
			  .wqe_size = wqe_size },
	};
	ssize_t n = sys_write(ctx->cmd_fd, &req, sizeof(req));

	if (__builtin_expect(n == (ssize_t)sizeof(req), 1))
		return 0;
	*bad = NULL;
	return write_failed(n);
}

int kcmd_write(struct ibv_context *ctx, const struct kcmd_write_args *w)
{
	int ret;

	if (!sizes_ok(w))
		return with_errno(EINVAL);
	ret = write_tunnel(ctx, w);
	/* Refused by the dispatcher, now or before: nothing ran, write() it. */
	if (ret != ENOTTY && ret != EPROTONOSUPPORT)
		return ret;
	return w->extended ? write_ex(ctx, w) : write_basic(ctx, w);
}
