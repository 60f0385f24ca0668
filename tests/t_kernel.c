// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The command-layer tests' fake kernel and context (see t_kernel.h): one
 * implementation of the seam's ioctl() and write(), so that each test
 * file keeps only what its family's methods answer.
 *
 * Several threads may share a context (kcmd_test does), so the counters
 * are atomic and the errno script is taken under a lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "libibverbs/kcmd.h"
#include "t_kernel.h"

struct t_kernel tk;
struct verbs_device t_vdev = { .refcount = 1 };

/* One-shot errno values, taken in order by the calls that get that far. */
static struct {
	pthread_mutex_t lock;
	int errs[8];
	unsigned int n, next;
} script = { .lock = PTHREAD_MUTEX_INITIALIZER };

void t_kernel_reset(void)
{
	pthread_mutex_lock(&script.lock);
	script.n = script.next = 0;
	pthread_mutex_unlock(&script.lock);
	tk.no_ioctl = tk.tunnel = tk.short_write = false;
	tk.refuse_obj = T_NO_OBJECT;
	tk.refuse_method = 0;
	tk.refuse_err = EPROTONOSUPPORT;
	tk.ioctl_err = tk.write_err = 0;
	tk.log_object = T_ALL_OBJECTS;
	tk.on_ioctl = NULL;
	tk.on_write = NULL;
	memset(tk.log, 0, sizeof(tk.log));
	atomic_store(&tk.ncalls, 0);
	atomic_store(&tk.ioctls, 0);
	atomic_store(&tk.writes, 0);
}

void t_fail_next(int err)
{
	pthread_mutex_lock(&script.lock);
	assert_true(script.n < sizeof(script.errs) / sizeof(script.errs[0]));
	script.errs[script.n++] = err;
	pthread_mutex_unlock(&script.lock);
}

static int t_take_scripted(void)
{
	int err = 0;

	pthread_mutex_lock(&script.lock);
	if (script.next < script.n)
		err = script.errs[script.next++];
	pthread_mutex_unlock(&script.lock);
	return err;
}

unsigned int t_syscalls(void)
{
	return atomic_load(&tk.ioctls) + atomic_load(&tk.writes);
}

struct ib_uverbs_attr *t_attr(struct ib_uverbs_ioctl_hdr *h, uint16_t id)
{
	for (unsigned int i = 0; i < h->num_attrs; i++)
		if (h->attrs[i].attr_id == id)
			return &h->attrs[i];
	return NULL;
}

/* Calls past the log's end are counted but not kept. */
static struct t_call *t_record(bool is_ioctl, int fd, unsigned long req,
			       const void *buf, size_t len)
{
	unsigned int i = atomic_fetch_add(&tk.ncalls, 1);
	struct t_call *c;

	if (i >= T_MAX_CALLS)
		return NULL;
	c = &tk.log[i];
	memset(c, 0, sizeof(*c));
	c->is_ioctl = is_ioctl;
	c->fd = fd;
	c->request = req;
	c->len = len;
	memcpy(c->bytes, buf, len < T_MAX_BYTES ? len : T_MAX_BYTES);
	return c;
}

static bool t_is_tunnel(const struct ib_uverbs_ioctl_hdr *h)
{
	return h->object_id == UVERBS_OBJECT_DEVICE &&
	       h->method_id == UVERBS_METHOD_INVOKE_WRITE;
}

/* The tunnel's command and core request, which may be inline. */
static void t_record_tunnel(struct ib_uverbs_ioctl_hdr *h, struct t_call *c)
{
	struct ib_uverbs_attr *cmd = t_attr(h, UVERBS_ATTR_WRITE_CMD);
	struct ib_uverbs_attr *in = t_attr(h, UVERBS_ATTR_CORE_IN);

	if (cmd)
		c->write_cmd = cmd->data;
	if (!in || in->len > T_MAX_BYTES)
		return;
	c->core_len = in->len;
	memcpy(c->core, in->len > 8 ? (void *)(uintptr_t)in->data : &in->data,
	       in->len);
}

static int t_ioctl_err(const struct ib_uverbs_ioctl_hdr *h)
{
	int err;

	if (tk.no_ioctl)
		return ENOTTY;
	if (h->object_id == tk.refuse_obj &&
	    (tk.refuse_method == T_ANY_METHOD ||
	     h->method_id == tk.refuse_method))
		return tk.refuse_err;
	if (t_is_tunnel(h) && !tk.tunnel)
		return EPROTONOSUPPORT;
	err = t_take_scripted();
	return err ? err : tk.ioctl_err;
}

static int t_ioctl(int fd, unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	struct t_call *c = NULL, unlogged;
	int err;

	if (tk.log_object == T_ALL_OBJECTS || h->object_id == tk.log_object) {
		atomic_fetch_add(&tk.ioctls, 1);
		c = t_record(true, fd, request, arg, h->length);
	}
	if (!c) {
		memset(&unlogged, 0, sizeof(unlogged));
		c = &unlogged;
	}
	c->object = h->object_id;
	c->method = h->method_id;
	if (t_is_tunnel(h))
		t_record_tunnel(h, c);
	err = t_ioctl_err(h);
	if (err) {
		errno = err;
		return -1;
	}
	if (tk.on_ioctl)
		tk.on_ioctl(h);
	return 0;
}

static ssize_t t_write(int fd, const void *buf, size_t len)
{
	int err;

	atomic_fetch_add(&tk.writes, 1);
	t_record(false, fd, 0, buf, len);
	err = t_take_scripted();
	if (!err)
		err = tk.write_err;
	if (tk.on_write)
		err = tk.on_write(buf, len, err);
	if (err) {
		errno = err;
		return -1;
	}
	return tk.short_write ? (ssize_t)len - 4 : (ssize_t)len;
}

void t_kernel_install(void)
{
	kcmd_set_transport(t_ioctl, t_write);
}

/*
 * The cmd_fd is /dev/null: the fake never reads it, and the context
 * closes it. Destroys do not pretend the device is gone.
 */
struct ibv_context *t_context_new(uint32_t driver_id)
{
	struct verbs_context *vctx;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	tk.driver_id = driver_id;
	verbs_allow_disassociate_destroy = false;
	t_kernel_install();
	vctx = _verbs_init_and_alloc_context(&t_vdev.device, fd, sizeof(*vctx),
					     NULL, driver_id);
	assert_non_null(vctx);
	return &vctx->context;
}

void t_context_free(struct ibv_context *ctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);

	verbs_uninit_context(vctx);
	free(vctx);
	kcmd_set_transport(NULL, NULL);
	verbs_allow_disassociate_destroy = false;
}

int t_context_teardown(void **state)
{
	t_context_free(*state);
	return 0;
}

/* The async_fd is not the context's to close. */
int t_context_teardown_keep_async(void **state)
{
	struct ibv_context *ctx = *state;

	ctx->async_fd = -1;
	return t_context_teardown(state);
}

uint8_t *t_put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	return p + 2;
}

uint8_t *t_put32(uint8_t *p, uint32_t v)
{
	t_put16(p, v);
	return t_put16(p + 2, v >> 16);
}

uint8_t *t_put64(uint8_t *p, uint64_t v)
{
	t_put32(p, v);
	return t_put32(p + 4, v >> 32);
}

uint16_t t_get16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint32_t t_get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint64_t t_get64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* An attribute: id, length, flags, reserved zero, then its data. */
uint8_t *t_put_attr(uint8_t *p, uint16_t id, uint16_t len, uint16_t flags,
		    uint64_t data)
{
	memset(p, 0, ATTR_SIZE);
	t_put16(p + ATTR_ID, id);
	t_put16(p + ATTR_LEN, len);
	t_put16(p + ATTR_FLAGS, flags);
	t_put64(p + ATTR_DATA, data);
	return p + ATTR_SIZE;
}

uint8_t *t_put_mattr(uint8_t *p, uint16_t id, uint16_t len, uint64_t data)
{
	return t_put_attr(p, id, len, UVERBS_ATTR_F_MANDATORY, data);
}

/* The header of @n attributes, the driver id the context was made with. */
uint8_t *t_put_ioctl_hdr(uint8_t *p, uint16_t obj, uint16_t method, uint16_t n)
{
	memset(p, 0, IOCTL_HDR_SIZE);
	t_put16(p + IOCTL_HDR_LENGTH, IOCTL_ATTR(n));
	t_put16(p + IOCTL_HDR_OBJECT_ID, obj);
	t_put16(p + IOCTL_HDR_METHOD_ID, method);
	t_put16(p + IOCTL_HDR_NUM_ATTRS, n);
	t_put32(p + IOCTL_HDR_DRIVER_ID, tk.driver_id);
	return p + IOCTL_HDR_SIZE;
}

/* A basic write() header counts 4-byte words, provider data included. */
uint8_t *t_put_write_hdr(uint8_t *p, uint32_t cmd, uint16_t in_bytes,
			 uint16_t out_bytes)
{
	t_put32(p + CMD_HDR_COMMAND, cmd);
	t_put16(p + CMD_HDR_IN_WORDS, in_bytes / 4);
	t_put16(p + CMD_HDR_OUT_WORDS, out_bytes / 4);
	return p + CMD_HDR_SIZE;
}

uint8_t *t_put_write_req(uint8_t *p, uint16_t len, uint32_t cmd,
			 uint16_t out_bytes)
{
	memset(p, 0, len);
	return t_put_write_hdr(p, cmd, len, out_bytes);
}

/* The extended headers: 8-byte words, the response pointer, driver sizes. */
uint8_t *t_put_ex_hdr(uint8_t *p, uint32_t cmd, uint16_t in_words,
		      uint16_t out_words, uint64_t resp, uint16_t drv_in,
		      uint16_t drv_out)
{
	memset(p, 0, EX_HDRS_SIZE);
	t_put32(p + CMD_HDR_COMMAND, IB_USER_VERBS_CMD_FLAG_EXTENDED | cmd);
	t_put16(p + CMD_HDR_IN_WORDS, in_words);
	t_put16(p + CMD_HDR_OUT_WORDS, out_words);
	t_put64(p + EX_HDR_RESPONSE, resp);
	t_put16(p + EX_HDR_PROVIDER_IN_WORDS, drv_in);
	t_put16(p + EX_HDR_PROVIDER_OUT_WORDS, drv_out);
	return p + EX_HDRS_SIZE;
}

void t_expect(unsigned int i, bool is_ioctl, const uint8_t *want, size_t len)
{
	assert_true(i < tk.ncalls);
	assert_int_equal(tk.log[i].is_ioctl, is_ioctl);
	assert_int_equal(tk.log[i].len, len);
	assert_memory_equal(tk.log[i].bytes, want, len);
}

unsigned int t_last_call(void)
{
	assert_true(tk.ncalls > 0);
	return tk.ncalls - 1;
}

void t_expect_method(unsigned int i, uint16_t obj, uint16_t method,
		     uint16_t nattrs)
{
	const uint8_t *b = tk.log[i].bytes;

	assert_true(i < tk.ncalls);
	assert_true(tk.log[i].is_ioctl);
	assert_int_equal(t_get16(b + IOCTL_HDR_LENGTH), IOCTL_ATTR(nattrs));
	assert_int_equal(t_get16(b + IOCTL_HDR_OBJECT_ID), obj);
	assert_int_equal(t_get16(b + IOCTL_HDR_METHOD_ID), method);
	assert_int_equal(t_get16(b + IOCTL_HDR_NUM_ATTRS), nattrs);
	assert_int_equal(t_get32(b + IOCTL_HDR_DRIVER_ID), tk.driver_id);
}

uint64_t t_expect_attr(unsigned int i, unsigned int n, uint16_t id,
		       uint16_t len, uint16_t flags)
{
	const uint8_t *a = tk.log[i].bytes + IOCTL_ATTR(n);

	assert_true(i < tk.ncalls);
	assert_int_equal(t_get16(a + ATTR_ID), id);
	assert_int_equal(t_get16(a + ATTR_LEN), len);
	assert_int_equal(t_get16(a + ATTR_FLAGS), flags);
	assert_int_equal(t_get16(a + ATTR_DATA_RESERVED), 0);
	return t_get64(a + ATTR_DATA);
}

void t_expect_mattr(unsigned int i, unsigned int n, uint16_t id, uint16_t len,
		    uint64_t data)
{
	assert_int_equal(t_expect_attr(i, n, id, len, UVERBS_ATTR_F_MANDATORY),
			 data);
}

void t_expect_write(unsigned int i, uint32_t cmd, size_t len, size_t out_len)
{
	const uint8_t *b = tk.log[i].bytes;

	assert_true(i < tk.ncalls);
	assert_false(tk.log[i].is_ioctl);
	assert_int_equal(tk.log[i].len, len);
	assert_int_equal(t_get32(b + CMD_HDR_COMMAND), cmd);
	assert_int_equal(t_get16(b + CMD_HDR_IN_WORDS), len / 4);
	assert_int_equal(t_get16(b + CMD_HDR_OUT_WORDS), out_len / 4);
}
