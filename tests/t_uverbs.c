// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake uverbs kernel at the system-call boundary (see t_uverbs.h):
 * the interposed ioctl() and write(), the kernel's decoding of the three
 * command formats into core and driver parts, and the canonical trace.
 *
 * The checks are the kernel's (drivers/infiniband/core/uverbs_main.c and
 * uverbs_ioctl.c): an ioctl header's length must match its attribute
 * count and its reserved fields be zero; a basic write() must be exactly
 * in_words * 4 bytes with a core request and answer room at least as
 * large as the command's; an extended write() must be exactly its
 * headers plus (in_words + provider_in_words) * 8 bytes and name a
 * response exactly when it asks for answer words.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_user_ioctl.h>

#include "t_uverbs.h"
#include "t_uverbs_cmds.h"
#include "t_uverbs_trace.h"

struct t_uv t_uv;

const char *t_uv_kernel_name(enum t_uv_kernel kernel)
{
	switch (kernel) {
	case T_UV_IOCTL:
		return "ioctl";
	case T_UV_NO_IOCTL:
		return "no-ioctl";
	case T_UV_TUNNEL:
		return "tunnel";
	}
	return "?";
}

void t_uv_reset(enum t_uv_kernel kernel)
{
	t_uv.kernel = kernel;
	t_uv.next_err = 0;
	t_uv.mmap_err = 0;
	t_uv.device_cap_flags_ex = 0;
	t_uv.calls = 0;
	t_uv_reset_handles();
	t_uv_reset_files();
}

bool t_uv_is_fake(int fd)
{
	char link[64], path[64];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) ||
	    major(st.st_rdev) != T_UV_MAJOR || minor(st.st_rdev) != T_UV_MINOR)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return !strncmp(path, "/dev/infiniband/uverbs", 22);
}

struct ibv_context *t_uv_open_only(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	if (n == 1 && (!name || !strcmp(ibv_get_device_name(list[0]), name)))
		ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	return ctx;
}

/* The pattern: distinct bytes that never read as a user address. */
void t_uv_pattern(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(0x81 + ((seed * 31 + i * 7) % 0x7d));
}

struct ib_uverbs_attr *t_uv_attr(const struct t_uv_cmd *cmd, uint16_t id)
{
	if (!cmd->hdr)
		return NULL;
	for (unsigned int i = 0; i < cmd->hdr->num_attrs; i++)
		if (cmd->hdr->attrs[i].attr_id == id)
			return &cmd->hdr->attrs[i];
	return NULL;
}

/* Answering. */

static uint32_t seed_of(const struct t_uv_cmd *cmd, uint32_t part)
{
	uint32_t id = cmd->is_ioctl ? (uint32_t)cmd->object << 8 | cmd->method :
				      cmd->command;

	return id * 13 + part;
}

/* The driver part: the driver's answer, or the pattern. */
static int answer_driver(struct t_uv_cmd *cmd)
{
	if (!cmd->drv_out_len)
		return t_uv.driver && t_uv.driver->answer ?
			       t_uv.driver->answer(cmd) :
			       0;
	memset(cmd->drv_out, 0, cmd->drv_out_len);
	if (t_uv.driver && t_uv.driver->answer)
		return t_uv.driver->answer(cmd);
	t_uv_pattern(cmd->drv_out, cmd->drv_out_len, seed_of(cmd, 0xd));
	return 0;
}

/*
 * The kernel writes its core answer and zeroes the rest of the room the
 * command gave for it (an extended command may give more).
 */
static int answer_write(struct t_uv_cmd *cmd, const struct t_uv_write *w)
{
	size_t n = w->var_req || cmd->core_out_len < w->resp ?
			   cmd->core_out_len :
			   w->resp;

	if (cmd->core_out_len) {
		t_uv_pattern(cmd->core_out, n, seed_of(cmd, 1));
		memset((uint8_t *)cmd->core_out + n, 0, cmd->core_out_len - n);
		if (w->answer)
			w->answer(cmd);
	}
	return answer_driver(cmd);
}

typedef void mask_fn(const struct t_uv_cmd *cmd, uint8_t *buf, size_t len);

/* @len bytes of a request, less those @mask says are undefined. */
static void trace_masked(const struct t_uv_cmd *cmd, const void *buf,
			 size_t len, mask_fn *mask)
{
	uint8_t *copy;

	if (!mask || !len) {
		t_uv_trace_words(buf, len);
		return;
	}
	copy = malloc(len);
	if (!copy)
		abort();
	memcpy(copy, buf, len);
	mask(cmd, copy, len);
	t_uv_trace("(masked)");
	t_uv_trace_words(copy, len);
	free(copy);
}

/* The driver's request, less the bytes its driver says are undefined. */
static void trace_drv_in(const struct t_uv_cmd *cmd)
{
	trace_masked(cmd, cmd->drv_in, cmd->drv_in_len,
		     t_uv.driver ? t_uv.driver->mask_in : NULL);
}

/* A write-format command's core request, the same way. */
static void trace_core_in(const struct t_uv_cmd *cmd, const void *buf,
			  size_t len)
{
	trace_masked(cmd, buf, len,
		     t_uv.driver ? t_uv.driver->mask_core_in : NULL);
}

static void trace_write(const struct t_uv_cmd *cmd, const struct t_uv_write *w)
{
	char where[64];

	t_uv_trace("  cmd %s core", w ? w->name : "?");
	trace_core_in(cmd, cmd->core_in, cmd->core_in_len);
	t_uv_trace("\n  drv");
	trace_drv_in(cmd);
	t_uv_fmt_value(where, sizeof(where), (uintptr_t)cmd->core_out);
	t_uv_trace("\n  answer core=%zu@%s", cmd->core_out_len,
		   cmd->core_out_len ? where : "-");
	t_uv_fmt_value(where, sizeof(where), (uintptr_t)cmd->drv_out);
	t_uv_trace(" drv=%zu@%s\n", cmd->drv_out_len,
		   cmd->drv_out_len ? where : "-");
}

/* A scripted failure, taken by the first command that gets that far. */
static int scripted(void)
{
	int err = t_uv.next_err;

	t_uv.next_err = 0;
	return err;
}

static int run_write(struct t_uv_cmd *cmd, const struct t_uv_write *w)
{
	int err;

	trace_write(cmd, w);
	if (!w)
		return EOPNOTSUPP;
	if (cmd->core_in_len < w->req || cmd->core_out_len < w->resp)
		return ENOSPC;
	err = scripted();
	if (err)
		return err;
	return answer_write(cmd, w);
}

/* write() as the kernel splits it; returns 0 or an errno value. */
static int split_basic(struct t_uv_cmd *cmd, const uint8_t *buf, size_t len,
		       const struct t_uv_write *w)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	size_t in = len - sizeof(*h), out = (size_t)h->out_words * 4;
	uint64_t response = 0;

	if (!w)
		return EOPNOTSUPP;
	if ((size_t)h->in_words * 4 != len)
		return EINVAL;
	if (in < w->req || out < w->resp)
		return ENOSPC;
	cmd->core_in = buf + sizeof(*h);
	cmd->core_in_len = w->var_req ? in : w->req;
	cmd->drv_in = buf + sizeof(*h) + cmd->core_in_len;
	cmd->drv_in_len = in - cmd->core_in_len;
	if (!w->resp)
		return 0;
	memcpy(&response, cmd->core_in, sizeof(response));
	cmd->core_out = (void *)(uintptr_t)response;
	cmd->core_out_len = w->var_req ? out : w->resp;
	cmd->drv_out = (uint8_t *)cmd->core_out + cmd->core_out_len;
	cmd->drv_out_len = out - cmd->core_out_len;
	return 0;
}

static int split_ex(struct t_uv_cmd *cmd, const uint8_t *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);
	size_t hdrs = sizeof(*h) + sizeof(*x);

	if (len < hdrs)
		return EINVAL;
	if (len - hdrs != ((size_t)h->in_words + x->provider_in_words) * 8)
		return EINVAL;
	if (x->cmd_hdr_reserved)
		return EINVAL;
	if (!x->response != !(h->out_words || x->provider_out_words))
		return EINVAL;
	cmd->core_in = buf + hdrs;
	cmd->core_in_len = (size_t)h->in_words * 8;
	cmd->drv_in = buf + hdrs + cmd->core_in_len;
	cmd->drv_in_len = (size_t)x->provider_in_words * 8;
	cmd->core_out = (void *)(uintptr_t)x->response;
	cmd->core_out_len = (size_t)h->out_words * 8;
	cmd->drv_out = (uint8_t *)cmd->core_out + cmd->core_out_len;
	cmd->drv_out_len = (size_t)x->provider_out_words * 8;
	return 0;
}

static void trace_write_hdr(const uint8_t *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);
	char resp[64];

	t_uv_trace("write len=%zu command=%x in_words=%u out_words=%u", len,
		   h->command, h->in_words, h->out_words);
	if ((h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) &&
	    len >= sizeof(*h) + sizeof(*x)) {
		t_uv_fmt_value(resp, sizeof(resp), x->response);
		t_uv_trace(
			" response=%s provider_in_words=%u provider_out_words=%u reserved=%x",
			resp, x->provider_in_words, x->provider_out_words,
			x->cmd_hdr_reserved);
	}
	t_uv_trace("\n");
}

static ssize_t fake_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	const struct t_uv_write *w;
	struct t_uv_cmd cmd = { 0 };
	int err;

	t_uv.calls++;
	if (len < sizeof(*h)) {
		t_uv_trace("write len=%zu -> EINVAL\n", len);
		errno = EINVAL;
		return -1;
	}
	trace_write_hdr(buf, len);
	cmd.command = h->command;
	w = t_uv_find_write(h->command);
	err = h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED ?
		      split_ex(&cmd, buf, len) :
		      split_basic(&cmd, buf, len, w);
	if (!err)
		err = run_write(&cmd, w);
	t_uv_trace("  -> %d\n", err);
	if (err) {
		errno = err;
		return -1;
	}
	return len;
}

/* The ioctl side. */

/* UHW_IN of a method, with the driver's mask (see trace_drv_in()). */
static void trace_uhw_in(const struct t_uv_cmd *cmd,
			 const struct ib_uverbs_attr *a)
{
	struct t_uv_cmd in = *cmd;
	char v[64];

	t_uv_fmt_value(v, sizeof(v), a->data);
	in.drv_in = a->len > sizeof(a->data) ?
			    (const void *)(uintptr_t)a->data :
			    (const void *)&a->data;
	in.drv_in_len = a->len;
	if (a->len > sizeof(a->data))
		t_uv_trace(" in@%s", v);
	trace_drv_in(&in);
}

static void trace_attr(const struct t_uv_cmd *cmd, const struct t_uv_method *m,
		       const struct ib_uverbs_attr *a)
{
	enum t_uv_kind kind = t_uv_attr_kind(m, a->attr_id);
	char v[64];

	t_uv_trace("  attr %x flags=%x len=%u", a->attr_id, a->flags, a->len);
	if (a->attr_data.reserved)
		t_uv_trace(" attr_data=%x", a->attr_data.reserved);
	/* In a driver's own method, an empty 0x1000 is an object's handle. */
	if (a->attr_id == UVERBS_ATTR_UHW_IN && (m || a->len)) {
		trace_uhw_in(cmd, a);
		t_uv_trace("\n");
		return;
	}
	switch (kind) {
	case T_OUT:
		t_uv_fmt_value(v, sizeof(v), a->data);
		t_uv_trace(" out@%s", v);
		break;
	case T_NEW_OBJ:
	case T_NEW_FD:
		t_uv_trace(" new");
		break;
	default:
		if (a->len > sizeof(a->data)) {
			t_uv_fmt_value(v, sizeof(v), a->data);
			/* A driver's method: input or output, the fake knows not. */
			t_uv_trace(" %s@%s", m ? "in" : "ptr", v);
			/* A tunnelled command shows as itself (fake_ioctl()). */
			if (m && !cmd->is_ioctl &&
			    a->attr_id == UVERBS_ATTR_CORE_IN)
				trace_core_in(cmd,
					      (const void *)(uintptr_t)a->data,
					      a->len);
			else if (m)
				t_uv_trace_words(
					(const void *)(uintptr_t)a->data,
					a->len);
		} else {
			t_uv_fmt_value(v, sizeof(v), a->data);
			t_uv_trace(" %s", v);
		}
	}
	t_uv_trace("\n");
}

static void trace_ioctl(const struct t_uv_cmd *cmd, const struct t_uv_method *m)
{
	const struct ib_uverbs_ioctl_hdr *h = cmd->hdr;

	t_uv_trace(
		"ioctl %s object=%u method=%u length=%u num_attrs=%u driver_id=%u reserved=%llx/%x\n",
		m ? m->name : "-", h->object_id, h->method_id, h->length,
		h->num_attrs, h->driver_id, (unsigned long long)h->reserved1,
		h->reserved2);
	for (unsigned int i = 0; i < h->num_attrs; i++)
		trace_attr(cmd, m, &h->attrs[i]);
}

/* The driver's data of a method, inline when short. */
static void method_uhw(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *in = t_uv_attr(cmd, UVERBS_ATTR_UHW_IN);
	struct ib_uverbs_attr *out = t_uv_attr(cmd, UVERBS_ATTR_UHW_OUT);

	if (in) {
		cmd->drv_in = in->len > sizeof(in->data) ?
				      (const void *)(uintptr_t)in->data :
				      (const void *)&in->data;
		cmd->drv_in_len = in->len;
	}
	if (out) {
		cmd->drv_out = (void *)(uintptr_t)out->data;
		cmd->drv_out_len = out->len;
		out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	}
}

/* The file a method opens: events, or (DMABUF, 18) a dma-buf's number. */
static enum t_uv_file_kind new_file_kind(uint16_t object)
{
	if (object == UVERBS_OBJECT_ASYNC_EVENT)
		return T_UV_ASYNC_FILE;
	return object == 18 ? T_UV_OTHER_FILE : T_UV_COMP_FILE;
}

static int answer_outputs(struct t_uv_cmd *cmd, const struct t_uv_method *m)
{
	for (unsigned int i = 0; i < cmd->hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &cmd->hdr->attrs[i];

		switch (t_uv_attr_kind(m, a->attr_id)) {
		case T_OUT:
			if (a->attr_id == UVERBS_ATTR_UHW_OUT)
				break;
			t_uv_pattern((void *)(uintptr_t)a->data, a->len,
				     seed_of(cmd, a->attr_id));
			a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
			break;
		case T_NEW_OBJ:
			a->data = t_uv_new_handle();
			break;
		case T_NEW_FD:
			a->data = t_uv_new_fd(new_file_kind(cmd->object));
			break;
		default:
			break;
		}
	}
	if (m->answer)
		m->answer(cmd);
	method_uhw(cmd);
	return answer_driver(cmd);
}

/*
 * The kernel copies a method's inputs in before its handler writes any
 * output, and rdma-core gives some methods one buffer for both (QP_CREATE's
 * CAP and RESP_CAP). Answers read the copies; the caller's header gets its
 * own pointers back.
 */
#define MAX_INPUTS 16 /* more than any method has */

struct inputs {
	unsigned int n;
	struct {
		struct ib_uverbs_attr *attr;
		uint64_t data;
	} saved[MAX_INPUTS];
};

static void copy_inputs(struct t_uv_cmd *cmd, const struct t_uv_method *m,
			struct inputs *in)
{
	in->n = 0;
	for (unsigned int i = 0; i < cmd->hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &cmd->hdr->attrs[i];
		void *copy;

		if (t_uv_attr_kind(m, a->attr_id) != T_IN ||
		    a->len <= sizeof(a->data) || in->n == MAX_INPUTS)
			continue;
		copy = malloc(a->len);
		if (!copy)
			abort();
		memcpy(copy, (void *)(uintptr_t)a->data, a->len);
		in->saved[in->n].attr = a;
		in->saved[in->n++].data = a->data;
		a->data = (uintptr_t)copy;
	}
}

static void restore_inputs(struct inputs *in)
{
	for (unsigned int i = 0; i < in->n; i++) {
		free((void *)(uintptr_t)in->saved[i].attr->data);
		in->saved[i].attr->data = in->saved[i].data;
	}
}

static int answer_method(struct t_uv_cmd *cmd, const struct t_uv_method *m)
{
	struct inputs in;
	int err;

	copy_inputs(cmd, m, &in);
	err = answer_outputs(cmd, m);
	restore_inputs(&in);
	return err;
}

/* DEVICE/INVOKE_WRITE: a write-format command in attributes. */
static int run_tunnel(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *c = t_uv_attr(cmd, UVERBS_ATTR_WRITE_CMD);
	struct ib_uverbs_attr *in = t_uv_attr(cmd, UVERBS_ATTR_CORE_IN);
	struct ib_uverbs_attr *out = t_uv_attr(cmd, UVERBS_ATTR_CORE_OUT);

	if (!c)
		return EINVAL;
	cmd->is_ioctl = false;
	cmd->command = c->data;
	if (in) {
		cmd->core_in = in->len > sizeof(in->data) ?
				       (const void *)(uintptr_t)in->data :
				       (const void *)&in->data;
		cmd->core_in_len = in->len;
	}
	if (out) {
		cmd->core_out = (void *)(uintptr_t)out->data;
		cmd->core_out_len = out->len;
		out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	}
	method_uhw(cmd);
	return run_write(cmd, t_uv_find_write(cmd->command));
}

static int run_method(struct t_uv_cmd *cmd, const struct t_uv_method *m)
{
	int err;

	if (cmd->object == UVERBS_OBJECT_DEVICE &&
	    cmd->method == UVERBS_METHOD_INVOKE_WRITE)
		return run_tunnel(cmd);
	if (t_uv.kernel == T_UV_TUNNEL)
		return EPROTONOSUPPORT;
	if (!m) {
		if (!t_uv.driver || !t_uv.driver->method)
			return EPROTONOSUPPORT;
		err = scripted();
		if (!err)
			err = t_uv.driver->method(cmd);
		return err < 0 ? EPROTONOSUPPORT : err;
	}
	err = scripted();
	if (!err && m->check)
		err = m->check(cmd);
	if (err)
		return err;
	return answer_method(cmd, m);
}

static int fake_ioctl(struct ib_uverbs_ioctl_hdr *h)
{
	struct t_uv_cmd cmd = {
		.is_ioctl = true,
		.object = h->object_id,
		.method = h->method_id,
		.hdr = h,
	};
	const struct t_uv_method *m =
		t_uv_find_method(h->object_id, h->method_id);
	struct ib_uverbs_attr *wcmd = t_uv_attr(&cmd, UVERBS_ATTR_WRITE_CMD);
	struct t_uv_cmd shown = cmd;
	int err;

	t_uv.calls++;
	/* A tunnelled command is shown to the driver's mask as itself. */
	if (h->object_id == UVERBS_OBJECT_DEVICE &&
	    h->method_id == UVERBS_METHOD_INVOKE_WRITE && wcmd) {
		shown.is_ioctl = false;
		shown.command = wcmd->data;
	}
	trace_ioctl(&shown, m);
	if (t_uv.kernel == T_UV_NO_IOCTL)
		err = ENOTTY;
	else if (h->length != sizeof(*h) + h->num_attrs * sizeof(h->attrs[0]) ||
		 h->reserved1 || h->reserved2)
		err = EINVAL;
	else
		err = run_method(&cmd, m);
	t_uv_trace("  -> %d\n", err);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* The interposed system calls. */

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (t_uv_is_fake(fd)) {
		int ret = -1;

		t_uv_lock();
		if (t_uv_gone())
			errno = EIO;
		else if (request == RDMA_VERBS_IOCTL)
			ret = fake_ioctl(arg);
		else
			errno = ENOTTY;
		t_uv_unlock();
		return ret;
	}
	return syscall(SYS_ioctl, fd, request, arg);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (t_uv_is_fake(fd)) {
		ssize_t ret = -1;

		t_uv_lock();
		if (t_uv_gone())
			errno = EIO;
		else
			ret = fake_write(buf, len);
		t_uv_unlock();
		return ret;
	}
	return syscall(SYS_write, fd, buf, len);
}

/*
 * A fake command file maps as fresh shared zeroed pages at any offset:
 * /dev/zero's own shared mapping is a file only as long as the mapping,
 * so a page at an offset past that length would fault (SIGBUS). The
 * trace shows where a provider mapped what, and the driver lays out
 * its shared memory there.
 */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	bool fake = fd >= 0 && !(flags & MAP_ANONYMOUS) && t_uv_is_fake(fd);
	bool fill = fake && t_uv.driver && t_uv.driver->mmap;
	void *p;
	int err;

	if (!fake)
		return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd,
				       off);
	t_uv_lock();
	if (t_uv_gone() || t_uv.mmap_err) {
		err = t_uv_gone() ? EIO : t_uv.mmap_err;
		t_uv.mmap_err = 0;
		t_uv_unlock();
		errno = err;
		return MAP_FAILED;
	}
	/* Writable while the driver lays it out, then as the provider asked. */
	p = (void *)syscall(SYS_mmap, addr, len,
			    fill ? prot | PROT_READ | PROT_WRITE : prot,
			    flags | MAP_ANONYMOUS, -1, 0);
	err = errno;
	t_uv_trace("mmap len=%zu prot=%x flags=%x offset=%llx", len, prot,
		   flags, (unsigned long long)off);
	if (p == MAP_FAILED)
		t_uv_trace(" -> %d", err);
	t_uv_trace("\n");
	if (p != MAP_FAILED && fill) {
		t_uv.driver->mmap((uint64_t)off, p, len);
		if (mprotect(p, len, prot))
			abort();
	}
	if (p != MAP_FAILED) {
		t_uv_name_page(p, len, off);
		t_uv_add_map(p, len, prot);
	}
	t_uv_unlock();
	errno = err;
	return p;
}

/* A page's name goes with it. */
int munmap(void *addr, size_t len)
{
	t_uv_lock();
	t_uv_unname(addr);
	t_uv_drop_map(addr);
	t_uv_unlock();
	return syscall(SYS_munmap, addr, len);
}
