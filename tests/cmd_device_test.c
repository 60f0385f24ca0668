// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device family against a fake kernel behind the transport seam:
 * what each ibv_cmd_* of cmd_device.c sends (ioctl attributes, write()
 * headers), the write() fallback when the kernel has no ioctl or not the
 * method, the answer decoded into the caller's structures, errors passed
 * through; then the public verbs of verbs_device.c and verbs_gid.c on a
 * hand-made context: dispatch to the provider's ops, the sysfs GID and
 * P_Key tables of a fake ibdev directory, and ibv_init_ah_from_wc().
 * Links the static archive, where the hidden seam hook is reachable.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_kernel.h"
#include "t_scenario.h"
#include "t_util.h"

/* Hidden in the library (ibverbs.h); reachable in the static archive. */
int cmd_alloc_async_fd(struct ibv_context *ctx);
int verbs_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr, size_t attr_len);

#define T_DRIVER_ID 42

/*
 * The fake kernel beyond the shared knobs of t_kernel. By default it has
 * ioctl() but no INVOKE_WRITE tunnel (a 4.x kernel), so write-format
 * commands show up as write() calls.
 */
static struct {
	int ex_err; /* extended write()s fail with it */
	int fds[4]; /* async event files the fake handed out */
	unsigned int nfds;
} fk;

static struct verbs_sysfs_dev t_sysfs;

static void *t_out(struct ib_uverbs_ioctl_hdr *h, uint16_t id)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	/* The library always sends these outputs; a missing one is a bug. */
	if (!a || !a->data)
		abort();
	return (void *)(uintptr_t)a->data;
}

static int t_new_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	fk.fds[fk.nfds++] = fd;
	return fd;
}

static void t_port_resp(struct ib_uverbs_query_port_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->state = IBV_PORT_ACTIVE;
	r->max_mtu = IBV_MTU_4096;
	r->active_mtu = IBV_MTU_1024;
	r->gid_tbl_len = 16;
	r->port_cap_flags = 0x04010000;
	r->max_msg_sz = 0x40000000;
	r->pkey_tbl_len = 64;
	r->lid = 0x1234;
	r->sm_lid = 0x22;
	r->lmc = 1;
	r->phys_state = 5;
	r->link_layer = IBV_LINK_LAYER_ETHERNET;
	r->flags = 1;
}

/* GID entry: 0xfe80 prefix, index in the last byte. */
static void t_gid_entry(struct ibv_gid_entry *e, uint32_t port, uint32_t idx)
{
	memset(e, 0, sizeof(*e));
	e->gid.raw[0] = 0xfe;
	e->gid.raw[1] = 0x80;
	e->gid.raw[15] = idx;
	e->gid_index = idx;
	e->port_num = port;
	e->gid_type = IBV_GID_TYPE_ROCE_V2;
	e->ndev_ifindex = 3;
}

static void t_device_methods(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_query_port_resp_ex *pr;
	struct ib_uverbs_attr *a;

	switch (h->method_id) {
	case UVERBS_METHOD_QUERY_PORT:
		pr = t_out(h, UVERBS_ATTR_QUERY_PORT_RESP);
		t_port_resp(&pr->legacy_resp);
		pr->port_cap_flags2 = 0x20;
		break;
	case UVERBS_METHOD_GET_CONTEXT:
	case UVERBS_METHOD_QUERY_CONTEXT:
		*(uint32_t *)t_out(h, 0) = 7;
		*(uint64_t *)t_out(h, 1) = 1;
		a = t_attr(h, UVERBS_ATTR_UHW_OUT);
		if (a)
			memset((void *)(uintptr_t)a->data, 0xab, a->len);
		break;
	case UVERBS_METHOD_QUERY_GID_ENTRY:
		t_gid_entry(
			t_out(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY),
			t_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_PORT)->data,
			t_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX)->data);
		break;
	case UVERBS_METHOD_QUERY_GID_TABLE:
		t_gid_entry(t_out(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES),
			    1, 0);
		*(uint64_t *)t_out(
			h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES) = 1;
		break;
	}
}

static void t_ioctl_answer(struct ib_uverbs_ioctl_hdr *h)
{
	if (h->object_id == UVERBS_OBJECT_DEVICE)
		t_device_methods(h);
	else if (h->object_id == UVERBS_OBJECT_ASYNC_EVENT)
		h->attrs[0].data = t_new_fd();
}

static void t_basic_write(const uint8_t *buf)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	struct ib_uverbs_query_device_resp *dr;
	struct ib_uverbs_get_context_resp *cr;
	uint64_t resp;

	memcpy(&resp, buf + 8, 8);
	switch (h->command) {
	case IB_USER_VERBS_CMD_QUERY_PORT:
		t_port_resp((void *)(uintptr_t)resp);
		break;
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		cr = (void *)(uintptr_t)resp;
		cr->async_fd = t_new_fd();
		cr->num_comp_vectors = 5;
		break;
	case IB_USER_VERBS_CMD_QUERY_DEVICE:
		dr = (void *)(uintptr_t)resp;
		dr->fw_ver = 0x0001000200003;
		dr->max_qp = 1000;
		dr->phys_port_cnt = 2;
		dr->node_guid = 0x1122;
		break;
	}
}

static void t_ex_write(const uint8_t *buf)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	struct ib_uverbs_ex_query_device_resp *r;
	uint64_t resp;

	memcpy(&resp, buf + 8, 8);
	r = (void *)(uintptr_t)resp;
	r->base.max_qp = 2000;
	r->base.phys_port_cnt = 1;
	r->hca_core_clock = 156250;
	r->response_length = h->out_words * 8;
}

static int t_write_answer(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	bool ex = h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED;

	(void)len;
	if (!err && ex)
		err = fk.ex_err;
	if (err)
		return err;
	if (ex)
		t_ex_write(buf);
	else
		t_basic_write(buf);
	return 0;
}

/* The ops a provider would give; what they saw is kept for the tests. */
static struct {
	const struct ibv_query_device_ex_input *input;
	size_t attr_size;
	int link_layer;
	int gid_tbl_len;
	int ret;
} ops_seen;

static int t_query_device_ex(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size)
{
	(void)ctx;
	ops_seen.input = input;
	ops_seen.attr_size = attr_size;
	attr->orig_attr.phys_port_cnt = 1;
	attr->orig_attr.max_qp = 77;
	return ops_seen.ret;
}

static int t_query_port(struct ibv_context *ctx, uint8_t port,
			struct ibv_port_attr *attr)
{
	(void)ctx;
	(void)port;
	attr->state = IBV_PORT_ACTIVE;
	attr->gid_tbl_len = ops_seen.gid_tbl_len;
	attr->link_layer = ops_seen.link_layer;
	attr->port_cap_flags2 = 0x99;
	return ops_seen.ret;
}

static const struct verbs_context_ops t_ops = {
	.query_device_ex = t_query_device_ex,
	.query_port = t_query_port,
};

static int t_setup(void **state)
{
	struct ibv_context *ctx;

	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.on_ioctl = t_ioctl_answer;
	tk.on_write = t_write_answer;
	memset(&ops_seen, 0, sizeof(ops_seen));
	ops_seen.gid_tbl_len = 4;
	ops_seen.link_layer = IBV_LINK_LAYER_ETHERNET;
	t_vdev.sysfs = &t_sysfs;
	ctx = t_context_new(T_DRIVER_ID);
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	*state = ctx;
	return 0;
}

static int t_teardown(void **state)
{
	struct ibv_context *ctx = *state;

	/* The fake's files: the context closes the one it holds. */
	for (unsigned int i = 0; i < fk.nfds; i++)
		if (fk.fds[i] != ctx->async_fd)
			close(fk.fds[i]);
	t_context_free(ctx);
	return 0;
}

static uint16_t u16_at(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The ioctl header of call @i: its method and attribute count. */
static void t_expect_method(unsigned int i, uint16_t obj, uint16_t method,
			    uint16_t nattrs)
{
	const uint8_t *b = tk.log[i].bytes;

	assert_true(tk.log[i].is_ioctl);
	assert_int_equal(u16_at(b), 24 + 16 * nattrs);
	assert_int_equal(u16_at(b + 2), obj);
	assert_int_equal(u16_at(b + 4), method);
	assert_int_equal(u16_at(b + 6), nattrs);
	assert_int_equal(u32_at(b + 16), T_DRIVER_ID);
}

/* Attribute @n of ioctl call @i: id, length, flags; its data returned. */
static uint64_t t_expect_attr(unsigned int i, unsigned int n, uint16_t id,
			      uint16_t len, uint16_t flags)
{
	const uint8_t *a = tk.log[i].bytes + 24 + 16 * n;

	assert_int_equal(u16_at(a), id);
	assert_int_equal(u16_at(a + 2), len);
	assert_int_equal(u16_at(a + 4), flags);
	return t_get64(a + 8);
}

/* The basic write() header of call @i. */
static void t_expect_write(unsigned int i, uint32_t cmd, size_t len,
			   size_t out_len)
{
	const uint8_t *b = tk.log[i].bytes;

	assert_false(tk.log[i].is_ioctl);
	assert_int_equal(tk.log[i].len, len);
	assert_int_equal(u32_at(b), cmd);
	assert_int_equal(u16_at(b + 4), len / 4);
	assert_int_equal(u16_at(b + 6), out_len / 4);
}

/*
 * A provider's QUERY_PORT request: the core (24 bytes), then 8 bytes of
 * its own. Kept as words: the core structure ends in a flexible array.
 */
struct t_query_port_req {
	uint64_t w[3];
	uint64_t drv;
};

static struct ibv_query_port *t_qp_core(struct t_query_port_req *r)
{
	return (struct ibv_query_port *)r->w;
}

/* ioctl: PORT_NUM inline, RESP by pointer; port_cap_flags2 decoded. */
static void test_query_port_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_query_port_req req = { .drv = 0x77 };
	struct ibv_port_attr attr = {};

	assert_int_equal(ibv_cmd_query_port(ctx, 3, &attr, t_qp_core(&req),
					    sizeof(req)),
			 0);
	assert_int_equal(tk.ncalls, 1);
	t_expect_method(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, 2);
	assert_int_equal(t_expect_attr(0, 0, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 3);
	t_expect_attr(0, 1, UVERBS_ATTR_QUERY_PORT_RESP,
		      sizeof(struct ib_uverbs_query_port_resp_ex),
		      UVERBS_ATTR_F_MANDATORY);
	assert_int_equal(attr.state, IBV_PORT_ACTIVE);
	assert_int_equal(attr.lid, 0x1234);
	assert_int_equal(attr.gid_tbl_len, 16);
	assert_int_equal(attr.active_mtu, IBV_MTU_1024);
	assert_int_equal(attr.link_layer, IBV_LINK_LAYER_ETHERNET);
	assert_int_equal(attr.flags, 1);
	assert_int_equal(attr.port_cap_flags2, 0x20);
}

/* write() when the kernel has no ioctl: the provider's request is sent. */
static void test_query_port_enotty(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_query_port_req req;
	struct ibv_port_attr attr = {};
	const uint8_t *b;

	memset(&req, 0xee, sizeof(req));
	req.drv = 0x77;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_port(ctx, 2, &attr, t_qp_core(&req),
					    sizeof(req)),
			 0);
	assert_int_equal(tk.ioctls, 1);
	t_expect_write(1, IB_USER_VERBS_CMD_QUERY_PORT, sizeof(req),
		       sizeof(struct ib_uverbs_query_port_resp));
	b = tk.log[1].bytes;
	assert_int_equal(b[16], 2); /* port_num */
	for (int i = 17; i < 24; i++)
		assert_int_equal(b[i], 0); /* reserved */
	assert_int_equal(t_get64(b + 24), 0x77);
	assert_int_equal(attr.lid, 0x1234);
	assert_int_equal(attr.port_cap_flags2, 0);
	/* Learned: the next one goes straight to write(). */
	assert_int_equal(ibv_cmd_query_port(ctx, 2, &attr, t_qp_core(&req),
					    sizeof(req)),
			 0);
	assert_int_equal(tk.ioctls, 1);
	assert_int_equal(tk.writes, 2);
}

/* A kernel without the method: write(), and the refusal is remembered. */
static void test_query_port_no_method(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_query_port req;
	struct ibv_port_attr attr = {};

	tk.refuse_obj = UVERBS_OBJECT_DEVICE;
	tk.refuse_method = UVERBS_METHOD_QUERY_PORT;
	assert_int_equal(ibv_cmd_query_port(ctx, 1, &attr, &req, sizeof(req)),
			 0);
	assert_int_equal(attr.max_msg_sz, 0x40000000);
	/* The method, then the INVOKE_WRITE tunnel, both refused. */
	assert_int_equal(tk.ioctls, 2);
	assert_int_equal(tk.writes, 1);
	assert_int_equal(ibv_cmd_query_port(ctx, 1, &attr, &req, sizeof(req)),
			 0);
	assert_int_equal(tk.ioctls, 2);
	assert_int_equal(tk.writes, 2);
}

/* Any other error is the answer: no fallback, errno unchanged. */
static void test_query_port_error(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_query_port req;
	struct ibv_port_attr attr = {};

	t_fail_next(EINVAL);
	assert_int_equal(ibv_cmd_query_port(ctx, 9, &attr, &req, sizeof(req)),
			 EINVAL);
	assert_int_equal(tk.writes, 0);
	tk.no_ioctl = true;
	tk.write_err = EFAULT;
	assert_int_equal(ibv_cmd_query_port(ctx, 9, &attr, &req, sizeof(req)),
			 EFAULT);
}

/* A provider's GET_CONTEXT request and response, with driver data. */
struct t_get_context_req {
	uint64_t w[2]; /* struct ibv_get_context */
	uint64_t drv;
};

struct t_get_context_resp {
	uint64_t w[1]; /* struct ib_uverbs_get_context_resp */
	uint8_t drv[16];
};

/* ibv_cmd_get_context() with the provider's structures above. */
static int t_get_context(struct ibv_context *ctx, struct t_get_context_req *req,
			 struct t_get_context_resp *resp)
{
	return ibv_cmd_get_context(verbs_get_ctx(ctx),
				   (struct ibv_get_context *)req->w,
				   sizeof(*req),
				   (struct ib_uverbs_get_context_resp *)resp->w,
				   sizeof(*resp));
}

/* ioctl: two outputs, the driver data as UHW_IN (inline) and UHW_OUT. */
static void test_get_context_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_get_context_req req = { .drv = 0x1122334455667788 };
	struct t_get_context_resp resp = {};

	t_vdev.core_support = 0;
	assert_int_equal(t_get_context(ctx, &req, &resp), 0);
	t_expect_method(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, 4);
	t_expect_attr(0, 0, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4,
		      UVERBS_ATTR_F_MANDATORY);
	t_expect_attr(0, 1, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8,
		      UVERBS_ATTR_F_MANDATORY);
	assert_int_equal(t_expect_attr(0, 2, UVERBS_ATTR_UHW_IN, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 0x1122334455667788);
	assert_int_equal(t_expect_attr(0, 3, UVERBS_ATTR_UHW_OUT, 16,
				       UVERBS_ATTR_F_MANDATORY),
			 (uintptr_t)resp.drv);
	assert_int_equal(ctx->num_comp_vectors, 7);
	assert_int_equal(t_vdev.core_support, 1);
	assert_int_equal(resp.drv[15], 0xab);
	assert_int_equal(ctx->async_fd, -1); /* the library allocates it */
}

/* write(): the whole provider request; async_fd from the answer. */
static void test_get_context_write(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_get_context_req req = { .drv = 5 };
	struct t_get_context_resp resp = {};

	tk.no_ioctl = true;
	assert_int_equal(t_get_context(ctx, &req, &resp), 0);
	t_expect_write(1, IB_USER_VERBS_CMD_GET_CONTEXT, sizeof(req),
		       sizeof(resp));
	assert_int_equal(t_get64(tk.log[1].bytes + 8), (uintptr_t)&resp);
	assert_int_equal(t_get64(tk.log[1].bytes + 16), 5);
	assert_int_equal(ctx->num_comp_vectors, 5);
	assert_int_equal(ctx->async_fd, fk.fds[0]);
}

/* ioctl only: a kernel without ioctl gets no write() either. */
static void test_query_context(void **state)
{
	struct ibv_context *ctx = *state;

	t_vdev.core_support = 0;
	assert_int_equal(ibv_cmd_query_context(ctx, NULL), 0);
	t_expect_method(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT,
			2);
	assert_int_equal(
		t_expect_attr(0, 0, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
			      4, UVERBS_ATTR_F_MANDATORY),
		(uintptr_t)&ctx->num_comp_vectors);
	assert_int_equal(ctx->num_comp_vectors, 7);
	assert_int_equal(t_vdev.core_support, 1);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_context(ctx, NULL), ENOTTY);
	assert_int_equal(tk.writes, 0);
}

/* ASYNC_EVENT/ALLOC: one fd output; its value becomes async_fd. */
static void test_alloc_async_fd(void **state)
{
	struct ibv_context *ctx = *state;

	assert_int_equal(cmd_alloc_async_fd(ctx), 0);
	t_expect_method(0, UVERBS_OBJECT_ASYNC_EVENT,
			UVERBS_METHOD_ASYNC_EVENT_ALLOC, 1);
	assert_int_equal(t_expect_attr(0, 0,
				       UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
				       0, UVERBS_ATTR_F_MANDATORY),
			 0);
	assert_int_equal(ctx->async_fd, fk.fds[0]);
	close(ctx->async_fd);
	ctx->async_fd = -1;
	tk.no_ioctl = true;
	assert_int_equal(cmd_alloc_async_fd(ctx), ENOTTY);
	assert_int_equal(ctx->async_fd, -1);
}

/* Extended first: header words, response pointer, decoded fields. */
static void test_query_device_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	const uint8_t *b;

	memset(&attr, 0x5a, sizeof(attr));
	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr), &resp,
						  &resp_size),
			 0);
	/* The tunnel, refused; then write() with the extended header. */
	assert_int_equal(tk.writes, 1);
	b = tk.log[1].bytes;
	assert_int_equal(tk.log[1].len, 32);
	assert_int_equal(u32_at(b), IB_USER_VERBS_CMD_FLAG_EXTENDED |
					    IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	assert_int_equal(u16_at(b + 4), 1);
	assert_int_equal(u16_at(b + 6), sizeof(resp) / 8);
	assert_int_equal(t_get64(b + 8), (uintptr_t)&resp);
	assert_int_equal(t_get64(b + 16), 0); /* no provider words */
	assert_int_equal(t_get64(b + 24), 0); /* comp_mask, reserved */
	assert_int_equal(resp_size, sizeof(resp));
	assert_int_equal(attr.orig_attr.max_qp, 2000);
	assert_int_equal(attr.hca_core_clock, 156250);
	assert_int_equal(attr.phys_port_cnt_ex, 1);
	/* fw_ver is the provider's to format: left empty. */
	assert_string_equal(attr.orig_attr.fw_ver, "");
	assert_int_equal(attr.comp_mask, 0);
}

/*
 * A provider's answer behind the core one (EFA's limits, mlx5's caps):
 * the kernel's driver must be told where it goes, in provider words.
 */
static void test_query_device_ex_driver_part(void **state)
{
	struct ibv_context *ctx = *state;
	struct {
		struct ib_uverbs_ex_query_device_resp core;
		uint64_t drv[3];
	} resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	const uint8_t *b;

	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr), &resp.core,
						  &resp_size),
			 0);
	b = tk.log[1].bytes;
	assert_int_equal(u16_at(b + 6), sizeof(resp.core) / 8);
	assert_int_equal(t_get64(b + 8), (uintptr_t)&resp);
	assert_int_equal(u16_at(b + 16), 0); /* provider_in_words */
	assert_int_equal(u16_at(b + 18), 3); /* provider_out_words */
	assert_int_equal(resp_size, sizeof(resp.core));
}

/* An old kernel without the extended command: the base one, base fields. */
static void test_query_device_ex_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;

	fk.ex_err = EOPNOTSUPP;
	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr), &resp,
						  &resp_size),
			 0);
	assert_int_equal(tk.writes, 2);
	t_expect_write(tk.ncalls - 1, IB_USER_VERBS_CMD_QUERY_DEVICE, 16,
		       sizeof(resp.base));
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes + 8),
			 (uintptr_t)&resp.base);
	assert_int_equal(resp_size, sizeof(resp.base));
	assert_int_equal(attr.orig_attr.max_qp, 1000);
	assert_int_equal(resp.base.fw_ver, 0x0001000200003);
	assert_int_equal(attr.orig_attr.node_guid, 0x1122);
	assert_int_equal(attr.hca_core_clock, 0);
	assert_int_equal(attr.phys_port_cnt_ex, 0); /* size fell back too */
	fk.ex_err = EIO;
	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr), &resp,
						  &resp_size),
			 EIO);
}

/* The base size asks the base command only; bad arguments are EINVAL. */
static void test_query_device_base(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_device_attr_ex attr;

	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr.orig_attr), NULL,
						  NULL),
			 0);
	assert_int_equal(tk.writes, 1);
	assert_int_equal(attr.orig_attr.phys_port_cnt, 2);
	assert_int_equal(ibv_cmd_query_device_any(ctx, &in, &attr, sizeof(attr),
						  NULL, NULL),
			 EINVAL);
	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr, 100, NULL,
						  NULL),
			 EINVAL);
	assert_int_equal(tk.writes, 1);
}

/* The public verbs: dispatch to the provider's ops. */
static void test_query_device_verb(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_device_attr attr = {};

	assert_int_equal(ibv_query_device(ctx, &attr), 0);
	assert_null(ops_seen.input);
	assert_int_equal(ops_seen.attr_size, sizeof(attr));
	assert_int_equal(attr.max_qp, 77);
	ops_seen.ret = EIO;
	assert_int_equal(ibv_query_device(ctx, &attr), EIO);
}

#undef ibv_query_port
/* The exported 48-byte query and the library's any-size slot. */
static void test_query_port_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_port_attr attr;
	uint8_t small[48 + 4];

	memset(small, 0xcc, sizeof(small));
	assert_int_equal(ibv_query_port(ctx, 1, (void *)small), 0);
	assert_int_equal(((struct ibv_port_attr *)small)->state,
			 IBV_PORT_ACTIVE);
	assert_int_equal(small[48], 0xcc); /* nothing past the old size */
	/* The slot's function: a short caller's structure gets its bytes. */
	memset(small, 0xcc, sizeof(small));
	assert_int_equal(verbs_query_port(ctx, 1, (void *)small, 40), 0);
	assert_int_equal(((struct ibv_port_attr *)small)->gid_tbl_len, 4);
	assert_int_equal(small[40], 0xcc);
	memset(&attr, 0xcc, sizeof(attr));
	assert_int_equal(verbs_query_port(ctx, 1, &attr, sizeof(attr)), 0);
	assert_int_equal(attr.port_cap_flags2, 0x99);
	assert_int_equal(attr.lid, 0); /* zeroed first */
	ops_seen.ret = ENODEV;
	assert_int_equal(ibv_query_port(ctx, 1, (void *)small), ENODEV);
}

/* The GID methods over ioctl: bytes, and what the verbs make of them. */
static void test_gid_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e[2];
	union ibv_gid gid;

	assert_int_equal(ibv_query_gid_ex(ctx, 1, 5, &e[0], 0), 0);
	t_expect_method(0, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY,
			4);
	assert_int_equal(t_expect_attr(0, 0, UVERBS_ATTR_QUERY_GID_ENTRY_PORT,
				       8, UVERBS_ATTR_F_MANDATORY),
			 1);
	assert_int_equal(t_expect_attr(0, 1,
				       UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 5);
	assert_int_equal(t_expect_attr(0, 2, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS,
				       4, UVERBS_ATTR_F_MANDATORY),
			 0);
	assert_int_equal(t_expect_attr(0, 3,
				       UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
				       sizeof(e[0]), UVERBS_ATTR_F_MANDATORY),
			 (uintptr_t)&e[0]);
	assert_int_equal(e[0].gid.raw[15], 5);
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), 1);
	t_expect_method(1, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE,
			4);
	assert_int_equal(t_expect_attr(1, 0,
				       UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
				       8, UVERBS_ATTR_F_MANDATORY),
			 sizeof(e[0]));
	t_expect_attr(1, 2, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
		      2 * sizeof(e[0]), UVERBS_ATTR_F_MANDATORY);
	assert_int_equal(ibv_query_gid(ctx, 1, 9, &gid), 0);
	assert_int_equal(gid.raw[15], 9);
	/* Kernel errors: positive, negative for the table, -1 for the old. */
	t_fail_next(ENODATA);
	memset(&gid, 0xff, sizeof(gid));
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), 0);
	assert_int_equal(gid.raw[0] | gid.raw[15], 0);
	t_fail_next(EIO);
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), -1);
	assert_int_equal(errno, EIO);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 2, &e[0], 0), EINVAL);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), -EINVAL);
	assert_int_equal(tk.writes, 0);
}

static char *t_root; /* the fake ibdev directory */

static void t_file(const char *rel, const char *content)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t_root, rel);
	/* Make the directories on the way. */
	for (slash = strchr(path + strlen(t_root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", content);
	fclose(f);
}

#define T_ZERO_GID "0000:0000:0000:0000:0000:0000:0000:0000"
#define T_LINK_GID "fe80:0000:0000:0000:0211:22ff:fe33:4455"
#define T_V4_GID "0000:0000:0000:0000:0000:ffff:c0a8:0101"

/*
 * Port 1: a RoCE port with a link-local v1 GID on lo at 0, an empty slot
 * at 1, the v4-mapped 192.168.1.1 as RoCE v2 at 2 and 3. Port 2 has no
 * gid_attrs directory (an old kernel). P_Keys at port 1.
 */
static int t_group_setup(void **state)
{
	char tmpl[] = "/tmp/cmd_device_test-XXXXXX";

	(void)state;
	t_root = strdup(mkdtemp(tmpl));
	snprintf(t_sysfs.ibdev_path, sizeof(t_sysfs.ibdev_path), "%s", t_root);
	t_file("ports/1/gids/0", T_LINK_GID);
	t_file("ports/1/gids/1", T_ZERO_GID);
	t_file("ports/1/gids/2", T_V4_GID);
	t_file("ports/1/gids/3", T_V4_GID);
	t_file("ports/1/gid_attrs/types/0", "IB/RoCE v1");
	/* Kernels without the GID methods give empty slots a type too. */
	t_file("ports/1/gid_attrs/types/1", "IB/RoCE v1");
	t_file("ports/1/gid_attrs/types/2", "RoCE v2");
	t_file("ports/1/gid_attrs/types/3", "IB/RoCE v1");
	t_file("ports/1/gid_attrs/ndevs/0", "lo");
	t_file("ports/1/gid_attrs/types/9", "RoCE v3");
	t_file("ports/2/gids/0", T_LINK_GID);
	/* Short or odd GID files: what a hostile sysfs may hold. */
	t_file("ports/2/gids/1", "fe80:0000:0000:0000:0000:0000:0000");
	t_file("ports/2/gids/2", "fe80");
	t_file("ports/2/gids/3", "fe80:0000:0000:0000:0211:22ff:fe33:44");
	t_file("ports/2/gids/4", "fe80:0000:0000:0000:0211:22ff:fe33:44zz");
	t_file("ports/2/gids/5", "fe80-0000-0000-0000-0211-22ff-fe33-4455");
	t_file("ports/1/pkeys/0", "0xffff");
	t_file("ports/1/pkeys/1", "0x8001");
	return 0;
}

static int t_group_teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t_root);
	assert_int_equal(system(cmd), 0);
	free(t_root);
	return 0;
}

/*
 * Leaves hex digits where the next calls' stack frames will be, so that
 * a parser reading past the end of what it read would find a GID there.
 */
static void __attribute__((noinline)) t_hex_on_stack(void)
{
	volatile char junk[8192];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = i % 5 == 4 ? ':' : '1';
}

/* A GID file that is not eight groups of four hex digits is EINVAL. */
static void test_gid_sysfs_malformed(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e;
	union ibv_gid gid;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid(ctx, 2, 0, &gid), 0);
	assert_int_equal(gid.raw[15], 0x55);
	for (unsigned int i = 1; i <= 5; i++) {
		t_hex_on_stack();
		assert_int_equal(ibv_query_gid_ex(ctx, 2, i, &e, 0), EINVAL);
		t_hex_on_stack();
		assert_int_equal(ibv_query_gid(ctx, 2, i, &gid), -1);
	}
}

/* Kernels without the GID methods: one entry from sysfs. */
static void test_gid_sysfs_entry(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 0), 0);
	assert_int_equal(e.gid.raw[0], 0xfe);
	assert_int_equal(e.gid.raw[15], 0x55);
	assert_int_equal(e.gid_index, 0);
	assert_int_equal(e.port_num, 1);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_ROCE_V1);
	assert_int_equal(e.ndev_ifindex, if_nametoindex("lo"));
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 1, &e, 0), ENODATA);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 2, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(e.ndev_ifindex, 0);
	/* On an IB port a v1 GID is an IB one. */
	ops_seen.link_layer = IBV_LINK_LAYER_INFINIBAND;
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_IB);
	/* No gid_attrs at all: v1. */
	assert_int_equal(ibv_query_gid_ex(ctx, 2, 0, &e, 0), 0);
	assert_int_equal(e.gid_type, IBV_GID_TYPE_IB);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 0, &e, 1), EOPNOTSUPP);
	assert_int_equal(ibv_query_gid_ex(ctx, 1, 7, &e, 0), EINVAL);
	assert_int_equal(tk.writes, 0);
}

/* ibv_query_gid_type and ibv_query_gid read one part each. */
static void test_gid_sysfs_type(void **state)
{
	struct ibv_context *ctx = *state;
	enum ibv_gid_type_sysfs type;
	union ibv_gid gid;

	tk.no_ioctl = true;
	assert_int_equal(ibv_query_gid_type(ctx, 1, 2, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_ROCE_V2);
	assert_int_equal(ibv_query_gid_type(ctx, 1, 0, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_IB_ROCE_V1);
	assert_int_equal(ibv_query_gid_type(ctx, 2, 0, &type), 0);
	assert_int_equal(type, IBV_GID_TYPE_SYSFS_IB_ROCE_V1);
	/* No such type, or no type file while gid_attrs exists. */
	assert_int_equal(ibv_query_gid_type(ctx, 1, 9, &type), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_query_gid_type(ctx, 1, 4, &type), -1);
	assert_int_equal(errno, EINVAL);
	/* ibv_query_gid reads the GID only: an empty slot is zeroes. */
	memset(&gid, 0xff, sizeof(gid));
	assert_int_equal(ibv_query_gid(ctx, 1, 1, &gid), 0);
	assert_int_equal(gid.raw[0] | gid.raw[15], 0);
	assert_int_equal(ibv_query_gid(ctx, 1, 2, &gid), 0);
	assert_int_equal(gid.raw[10], 0xff);
	assert_int_equal(gid.raw[15], 0x01);
	/* As in rdma-core 44, errno is the missing file's. */
	assert_int_equal(ibv_query_gid(ctx, 1, 9, &gid), -1);
	assert_int_equal(errno, ENOENT);
}

/* The table from sysfs: non-empty entries only, the array's bounds kept. */
static void test_gid_sysfs_table(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_gid_entry e[4];

	tk.no_ioctl = true;
	memset(e, 0, sizeof(e));
	/* One port (phys_port_cnt 1 from the op), four slots, one empty. */
	assert_int_equal(ibv_query_gid_table(ctx, e, 4, 0), 3);
	assert_int_equal(e[0].gid_index, 0);
	assert_int_equal(e[0].gid_type, IBV_GID_TYPE_ROCE_V1);
	assert_int_equal(e[1].gid_index, 2);
	assert_int_equal(e[1].gid_type, IBV_GID_TYPE_ROCE_V2);
	assert_int_equal(e[2].gid_index, 3);
	assert_int_equal(e[3].gid_index, 0); /* untouched */
	assert_int_equal(ibv_query_gid_table(ctx, e, 2, 0), -EINVAL);
	assert_int_equal(ibv_query_gid_table(ctx, e, 4, 1), -EOPNOTSUPP);
	ops_seen.gid_tbl_len = 2;
	assert_int_equal(ibv_query_gid_table(ctx, e, 1, 0), 1);
}

static void test_pkey(void **state)
{
	struct ibv_context *ctx = *state;
	__be16 pkey;

	assert_int_equal(ibv_query_pkey(ctx, 1, 1, &pkey), 0);
	assert_int_equal(pkey, htobe16(0x8001));
	errno = 0;
	assert_int_equal(ibv_query_pkey(ctx, 1, 2, &pkey), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0xffff)), 0);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0x8001)), 1);
	assert_int_equal(ibv_get_pkey_index(ctx, 1, htobe16(0x7fff)), -1);
	assert_int_equal(tk.ncalls, 0);
}

static void test_import_bad_fd(void **state)
{
	char path[600];
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/ports/1/pkeys/0", t_root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_null(ibv_import_device(fd));
	assert_int_equal(errno, EINVAL);
	close(fd);
	assert_null(ibv_import_device(-1));
	assert_int_equal(errno, EINVAL);
}

/* A received packet without a GRH: the LID route back. */
static void test_ah_from_wc_lid(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .slid = 0x44, .sl = 3, .dlid_path_bits = 1 };
	struct ibv_grh grh = { .version_tclass_flow = htobe32(0x60012345) };
	struct ibv_ah_attr ah;

	memset(&ah, 0xee, sizeof(ah));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.dlid, 0x44);
	assert_int_equal(ah.sl, 3);
	assert_int_equal(ah.src_path_bits, 1);
	assert_int_equal(ah.port_num, 1);
	assert_int_equal(ah.is_global, 0);
	assert_int_equal(ah.grh.flow_label, 0x12345);
	assert_int_equal(ah.grh.sgid_index, 0);
}

static void t_gid_parse(const char *text, union ibv_gid *gid)
{
	unsigned int v[8];

	assert_int_equal(sscanf(text, "%x:%x:%x:%x:%x:%x:%x:%x", &v[0], &v[1],
				&v[2], &v[3], &v[4], &v[5], &v[6], &v[7]),
			 8);
	for (int i = 0; i < 8; i++) {
		gid->raw[2 * i] = v[i] >> 8;
		gid->raw[2 * i + 1] = v[i];
	}
}

/* IB or RoCE v1: the GRH's destination is our GID, its source the peer's. */
static void test_ah_from_wc_v1(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH, .slid = 9 };
	struct ibv_grh grh = {
		.version_tclass_flow = htobe32(6u << 28 | 0xa5u << 20 | 7),
		.next_hdr = 0x1b,
		.hop_limit = 64,
	};
	struct ibv_ah_attr ah;

	tk.no_ioctl = true;
	t_gid_parse(T_LINK_GID, &grh.dgid);
	grh.sgid.raw[0] = 0xfe;
	grh.sgid.raw[15] = 0x99;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.is_global, 1);
	assert_int_equal(ah.grh.sgid_index, 0);
	assert_memory_equal(&ah.grh.dgid, &grh.sgid, sizeof(grh.sgid));
	assert_int_equal(ah.grh.hop_limit, 64);
	assert_int_equal(ah.grh.traffic_class, 0xa5);
	assert_int_equal(ah.grh.flow_label, 7);
	assert_int_equal(ah.dlid, 9);
	/* The same GID as RoCE v2 (UDP) is not in the table. */
	grh.next_hdr = IPPROTO_UDP;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	grh.next_hdr = 0x3a;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EPROTONOSUPPORT);
	grh.dgid.raw[0] = 0xff;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EINVAL);
}

static uint16_t t_csum(const struct iphdr *ip)
{
	uint16_t w[10];
	uint32_t sum = 0;

	memcpy(w, ip, sizeof(w));
	for (int i = 0; i < 10; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/* RoCE v2 over IPv4: the header in the GRH's second half, checksummed. */
static void test_ah_from_wc_v2_ipv4(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH };
	struct ibv_grh grh;
	struct iphdr ip = {
		.version = 4,
		.ihl = 5,
		.tos = 0x28,
		.ttl = 17,
		.protocol = IPPROTO_UDP,
		.saddr = htobe32(0xc0a80102),
		.daddr = htobe32(0xc0a80101),
	};
	struct ibv_ah_attr ah;

	tk.no_ioctl = true;
	ip.check = t_csum(&ip);
	/* The first half may look like IPv6: the checksum decides. */
	memset(&grh, 0, sizeof(grh));
	grh.version_tclass_flow = htobe32(6u << 28);
	memcpy((uint8_t *)&grh + 20, &ip, sizeof(ip));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.grh.sgid_index, 2); /* 3 is v1 */
	assert_int_equal(ah.grh.dgid.raw[11], 0xff);
	assert_int_equal(ah.grh.dgid.raw[15], 0x02);
	assert_int_equal(ah.grh.hop_limit, 17);
	assert_int_equal(ah.grh.traffic_class, 0x28);
	/* A multicast destination is never ours. */
	ip.daddr = htobe32(0xe0000001);
	ip.check = 0;
	ip.check = t_csum(&ip);
	memcpy((uint8_t *)&grh + 20, &ip, sizeof(ip));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EINVAL);
	/* Neither IPv6 nor IPv4. */
	memset(&grh, 0, sizeof(grh));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EPROTONOSUPPORT);
}

/*
 * Opening and importing a real (fake-sysfs) device with a provider of
 * this binary that leaves the async event file to the library, as the
 * ioctl GET_CONTEXT path does. Each runs in a child with its own library
 * state (t_scenario()); the node of tdev0 is /dev/null (1:3).
 */
struct td_context {
	struct verbs_context vctx;
};

static void td_free_context(struct ibv_context *ibctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ibctx);

	verbs_uninit_context(vctx);
	free(vctx);
}

static const struct verbs_context_ops td_ops = {
	.free_context = td_free_context,
};

static struct verbs_context *td_alloc_context(struct ibv_device *ibdev,
					      int cmd_fd, void *private_data)
{
	struct td_context *ctx;

	(void)private_data;
	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   T_DRIVER_ID);
	if (ctx)
		verbs_set_ops(&ctx->vctx, &td_ops);
	return ctx ? &ctx->vctx : NULL;
}

static struct verbs_device *td_alloc_device(struct verbs_sysfs_dev *sd)
{
	(void)sd;
	return calloc(1, sizeof(struct verbs_device));
}

static void td_uninit_device(struct verbs_device *vdev)
{
	free(vdev);
}

static struct verbs_context *td_alloc_context_import(struct ibv_device *ibdev,
						     int cmd_fd)
{
	return td_alloc_context(ibdev, cmd_fd, NULL);
}

static const struct verbs_match_ent td_match[] = {
	VERBS_NAME_MATCH("tdev", NULL),
	{},
};

static const struct verbs_device_ops td_dev_ops = {
	.name = "tdev",
	.match_min_abi_version = 1,
	.match_max_abi_version = 6,
	.match_table = td_match,
	.alloc_context = td_alloc_context,
	.import_context = td_alloc_context_import,
	.alloc_device = td_alloc_device,
	.uninit_device = td_uninit_device,
};
PROVIDER_DRIVER(tdev, td_dev_ops);

/* The fake sysfs with tdev0 on /dev/null; NULL (skip) without namespaces. */
static struct ibv_device *td_device(struct ibv_device ***list)
{
	char *root = t_fake_kernel(false);

	if (!root)
		return NULL;
	t_sysfs_add(root, &((struct t_dev){ .ibdev = "tdev0",
					    .uverbs = 0,
					    .maj = 1,
					    .min = 3,
					    .abi = 1,
					    .node_type = 1 }));
	free(root); /* SYSFS_PATH holds its own copy */
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.on_ioctl = t_ioctl_answer;
	tk.on_write = t_write_answer;
	t_kernel_install();
	*list = ibv_get_device_list(NULL);
	return t_find(*list, "tdev0");
}

/* The library allocates the async file; without it the open fails. */
static int sc_open_async_fd(void *arg)
{
	struct ibv_device **list, *dev;
	struct ibv_context *ctx;

	(void)arg;
	dev = td_device(&list);
	if (!dev)
		return T_SKIP;
	ctx = ibv_open_device(dev);
	T_CHECK(ctx);
	T_CHECK(tk.ioctls == 1 && tk.log[0].is_ioctl);
	T_CHECK(u16_at(tk.log[0].bytes + 2) == UVERBS_OBJECT_ASYNC_EVENT);
	T_CHECK(ctx->async_fd == fk.fds[0]);
	/* The compat slots old binaries call. */
	T_CHECK(ctx->ops._compat_query_device == ibv_query_device);
	T_CHECK(verbs_get_ctx(ctx)->query_port != NULL);
	T_CHECK(ibv_close_device(ctx) == 0);
	tk.no_ioctl = true;
	errno = 0;
	T_CHECK(!ibv_open_device(dev));
	T_CHECK(errno == ENOTTY);
	ibv_free_device_list(list);
	return 0;
}

/* Import: the device by its node, a context marked imported, async fd. */
static int sc_import(void *arg)
{
	struct ibv_device **list, *dev;
	struct ibv_context *ctx, *imp;

	(void)arg;
	dev = td_device(&list);
	if (!dev)
		return T_SKIP;
	ctx = ibv_open_device(dev);
	T_CHECK(ctx);
	imp = ibv_import_device(dup(ctx->cmd_fd));
	T_CHECK(imp);
	T_CHECK(imp->device == dev);
	T_CHECK(imp->async_fd == fk.fds[1]);
	T_CHECK(imp->ops._compat_query_device == ibv_query_device);
	T_CHECK(ibv_close_device(imp) == 0);
	/* A character device no RDMA device has. */
	errno = 0;
	T_CHECK(!ibv_import_device(open("/dev/zero", O_RDONLY | O_CLOEXEC)));
	T_CHECK(errno == ENODEV);
	T_CHECK(ibv_close_device(ctx) == 0);
	ibv_free_device_list(list);
	return 0;
}

static void test_open_async_fd(void **state)
{
	(void)state;
	t_scenario(sc_open_async_fd, NULL);
}

static void test_import(void **state)
{
	(void)state;
	t_scenario(sc_import, NULL);
}

#define T_CASE(fn) cmocka_unit_test_setup_teardown(fn, t_setup, t_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_query_port_ioctl),
		T_CASE(test_query_port_enotty),
		T_CASE(test_query_port_no_method),
		T_CASE(test_query_port_error),
		T_CASE(test_get_context_ioctl),
		T_CASE(test_get_context_write),
		T_CASE(test_query_context),
		T_CASE(test_alloc_async_fd),
		T_CASE(test_query_device_ex),
		T_CASE(test_query_device_ex_driver_part),
		T_CASE(test_query_device_ex_fallback),
		T_CASE(test_query_device_base),
		T_CASE(test_query_device_verb),
		T_CASE(test_query_port_verbs),
		T_CASE(test_gid_ioctl),
		T_CASE(test_gid_sysfs_entry),
		T_CASE(test_gid_sysfs_malformed),
		T_CASE(test_gid_sysfs_type),
		T_CASE(test_gid_sysfs_table),
		T_CASE(test_pkey),
		T_CASE(test_import_bad_fd),
		T_CASE(test_ah_from_wc_lid),
		T_CASE(test_ah_from_wc_v1),
		T_CASE(test_ah_from_wc_v2_ipv4),
		cmocka_unit_test(test_open_async_fd),
		cmocka_unit_test(test_import),
	};

	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
