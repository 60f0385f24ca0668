// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel's answers to commands, as the transport (kcmd.c) and the
 * device commands (cmd_device.c) take them apart: QUERY_PORT as an ioctl
 * method and as a write() command, QUERY_DEVICE in its extended and its
 * basic write() forms, through the INVOKE_WRITE tunnel or write() itself.
 * The input plays the kernel behind the transport seam
 * (kcmd_set_transport()): for each system call, whether it fails and
 * with what, which outputs it marks valid, and the bytes it writes into
 * them. A context is made for each input, so that what one input's
 * kernel refused is not remembered by the next.
 *
 * Input: a byte choosing the command and the kernel's interfaces, then
 * per system call a byte of errno, a byte of output flags and a 16-bit
 * count of response bytes that follow.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "libibverbs/kcmd.h"

static struct verbs_device vdev = { .refcount = 1 };

/* What is left of the input, for the fake kernel's answers. */
static struct {
	const uint8_t *p;
	size_t left;
	bool no_ioctl, no_tunnel;
} in;

static const int errs[] = { 0,	    EINVAL,	ENOTTY, EPROTONOSUPPORT,
			    ENOSYS, EOPNOTSUPP, EFAULT, ENOMEM };

static uint8_t take_byte(void)
{
	if (!in.left)
		return 0;
	in.left--;
	return *in.p++;
}

/* Up to @room bytes of the input into @dst, as many as it says. */
static void answer(void *dst, size_t room)
{
	size_t n = take_byte() | (size_t)take_byte() << 8;

	if (n > in.left)
		n = in.left;
	if (n > room)
		n = room;
	if (dst && n)
		memcpy(dst, in.p, n);
	in.p += n;
	in.left -= n;
}

/* The errno of this call, 0 for success. */
static int call_errno(void)
{
	return errs[take_byte() % (sizeof(errs) / sizeof(errs[0]))];
}

/* Whether @attr of this method is one the kernel writes. */
static bool is_output(const struct ib_uverbs_ioctl_hdr *h,
		      const struct ib_uverbs_attr *attr)
{
	if (h->object_id != UVERBS_OBJECT_DEVICE)
		return false;
	if (h->method_id == UVERBS_METHOD_INVOKE_WRITE)
		return attr->attr_id == UVERBS_ATTR_CORE_OUT ||
		       attr->attr_id == UVERBS_ATTR_UHW_OUT;
	if (h->method_id == UVERBS_METHOD_QUERY_PORT)
		return attr->attr_id == UVERBS_ATTR_QUERY_PORT_RESP;
	return false;
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	uint8_t valid;
	int err;

	if (in.no_ioctl) {
		errno = ENOTTY;
		return -1;
	}
	if (in.no_tunnel && h->object_id == UVERBS_OBJECT_DEVICE &&
	    h->method_id == UVERBS_METHOD_INVOKE_WRITE) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	err = call_errno();
	valid = take_byte();
	for (unsigned int i = 0; i < h->num_attrs; i++) {
		struct ib_uverbs_attr *a = &h->attrs[i];

		if (!is_output(h, a))
			continue;
		answer((void *)(uintptr_t)a->data, a->len);
		if (valid & 1u << (i % 8))
			a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	}
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* The response a write() command points at, and its room in bytes. */
static void *write_resp(const void *buf, size_t len, size_t *room)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t resp;

	if (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		const struct ib_uverbs_ex_cmd_hdr *ex = (const void *)(h + 1);

		if (len < sizeof(*h) + sizeof(*ex))
			return NULL;
		*room = ((size_t)h->out_words + ex->provider_out_words) * 8;
		return (void *)(uintptr_t)ex->response;
	}
	if (len < sizeof(*h) + sizeof(resp))
		return NULL;
	memcpy(&resp, h + 1, sizeof(resp));
	*room = (size_t)h->out_words * 4;
	return (void *)(uintptr_t)resp;
}

static ssize_t fake_write(int fd, const void *buf, size_t len)
{
	size_t room = 0;
	void *resp;
	int err;

	if (len < sizeof(struct ib_uverbs_cmd_hdr)) {
		errno = EINVAL;
		return -1;
	}
	err = call_errno();
	(void)take_byte();
	resp = write_resp(buf, len, &room);
	answer(resp, resp ? room : 0);
	if (err) {
		errno = err;
		return -1;
	}
	return (ssize_t)len;
}

/* QUERY_DEVICE as a provider asks it: its answer, with room for its own. */
static void query_device(struct ibv_context *ctx, bool ex)
{
	size_t attr_size = ex ? sizeof(struct ibv_device_attr_ex) :
				sizeof(struct ibv_device_attr);
	size_t resp_size = sizeof(struct ib_uverbs_ex_query_device_resp) + 16;
	struct ib_uverbs_ex_query_device_resp *resp = malloc(resp_size);
	struct ibv_device_attr_ex *attr = malloc(attr_size);

	if (resp && attr)
		(void)ibv_cmd_query_device_any(ctx, NULL, attr, attr_size, resp,
					       &resp_size);
	free(attr);
	free(resp);
}

static void query_port(struct ibv_context *ctx)
{
	struct ibv_port_attr attr;
	struct ibv_query_port cmd;

	(void)ibv_cmd_query_port(ctx, 1, &attr, &cmd, sizeof(cmd));
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	kcmd_set_transport(fake_ioctl, fake_write);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verbs_context *vctx;
	uint8_t what;

	if (!size)
		return 0;
	what = data[0];
	in.p = data + 1;
	in.left = size - 1;
	in.no_ioctl = what & 4;
	in.no_tunnel = what & 8;
	vctx = _verbs_init_and_alloc_context(&vdev.device, -1, sizeof(*vctx),
					     NULL, RDMA_DRIVER_UNKNOWN);
	if (!vctx)
		return 0;
	switch (what % 4) {
	case 0:
		query_port(&vctx->context);
		break;
	case 1:
		query_device(&vctx->context, true);
		break;
	default:
		query_device(&vctx->context, false);
		break;
	}
	verbs_uninit_context(vctx);
	free(vctx);
	return 0;
}
