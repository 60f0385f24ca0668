// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device commands of cmd_device.c against a fake kernel behind the
 * transport seam (t_device.h): what each ibv_cmd_* sends (ioctl
 * attributes, write() headers), the write() fallback when the kernel has
 * no ioctl or not the method, the answer decoded into the caller's
 * structures, errors passed through. Links the static archive, where the
 * hidden seam hook is reachable.
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

#include "t_device.h"
#include "t_scenario.h"
#include "t_util.h"

/*
 * The write() requests as offsets: the header (or both headers), then the
 * kernel's struct ib_uverbs_<command>, its members where the uverbs ABI
 * puts them.
 */
enum {
	QUERY_PORT_PORT_NUM = CMD_HDR_SIZE + 8,
	QUERY_PORT_RESERVED = CMD_HDR_SIZE + 9,
	QUERY_PORT_DRIVER_DATA = CMD_HDR_SIZE + 16,
	GET_CONTEXT_DRIVER_DATA = CMD_HDR_SIZE + 8,
	EX_QUERY_DEVICE_COMP_MASK = EX_HDRS_SIZE + 0,
};

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
	assert_int_equal(attr.active_speed_ex, 0x800);
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
	assert_int_equal(b[QUERY_PORT_PORT_NUM], 2);
	for (int i = QUERY_PORT_RESERVED; i < QUERY_PORT_DRIVER_DATA; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(t_get64(b + QUERY_PORT_DRIVER_DATA), 0x77);
	assert_int_equal(attr.lid, 0x1234);
	assert_int_equal(attr.port_cap_flags2, 0);
	assert_int_equal(attr.active_speed_ex, 0);
	/* Learned: the next one goes straight to write(). */
	assert_int_equal(ibv_cmd_query_port(ctx, 2, &attr, t_qp_core(&req),
					    sizeof(req)),
			 0);
	assert_int_equal(tk.ioctls, 1);
	assert_int_equal(tk.writes, 2);
}

/* DEVICE/QUERY_PORT_SPEED's numbers (Linux 6.18), as facts of the ABI. */
enum {
	METHOD_QUERY_PORT_SPEED = 7,
	QUERY_PORT_SPEED_PORT_NUM = 0,
	QUERY_PORT_SPEED_RESP = 1,
};

/* The kernel writes the speed as a u64 into the caller's RESP. */
static void t_port_speed_handler(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *a = t_attr(h, QUERY_PORT_SPEED_RESP);
	uint64_t speed = 4000; /* 400 Gb/s */

	if (h->method_id == METHOD_QUERY_PORT_SPEED && a && a->len == 8)
		memcpy((void *)(uintptr_t)a->data, &speed, sizeof(speed));
}

/* ioctl only: PORT_NUM inline as a u64, RESP by pointer, 8 bytes. */
static void test_query_port_speed(void **state)
{
	struct ibv_context *ctx = *state;
	t_ioctl_handler saved = tk.on_ioctl;
	uint64_t speed = 0;

	tk.on_ioctl = t_port_speed_handler;
	assert_int_equal(ibv_cmd_query_port_speed(ctx, 2, &speed), 0);
	tk.on_ioctl = saved;
	t_expect_method(0, UVERBS_OBJECT_DEVICE, METHOD_QUERY_PORT_SPEED, 2);
	assert_int_equal(t_expect_attr(0, 0, QUERY_PORT_SPEED_PORT_NUM, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 2);
	assert_int_equal(t_expect_attr(0, 1, QUERY_PORT_SPEED_RESP, 8,
				       UVERBS_ATTR_F_MANDATORY),
			 (uintptr_t)&speed);
	assert_int_equal(speed, 4000);
	t_fail_next(EINVAL);
	errno = 0;
	assert_int_equal(ibv_cmd_query_port_speed(ctx, 9, &speed), EINVAL);
	assert_int_equal(errno, EINVAL);
}

/* A kernel before the method: its refusal as it came, nothing written. */
static void test_query_port_speed_no_method(void **state)
{
	struct ibv_context *ctx = *state;
	uint64_t speed = 0x5a;

	tk.refuse_obj = UVERBS_OBJECT_DEVICE;
	tk.refuse_method = METHOD_QUERY_PORT_SPEED;
	assert_int_equal(ibv_cmd_query_port_speed(ctx, 1, &speed),
			 EPROTONOSUPPORT);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_port_speed(ctx, 1, &speed), ENOTTY);
	assert_int_equal(speed, 0x5a);
	assert_int_equal(tk.writes, 0);
}

/* The public verb: NULL arguments refused, a provider without the op. */
static void test_query_port_speed_verb(void **state)
{
	struct ibv_context *ctx = *state;
	uint64_t speed = 0x5a;

	assert_int_equal(ibv_query_port_speed(NULL, 1, &speed), EINVAL);
	assert_int_equal(ibv_query_port_speed(ctx, 1, NULL), EINVAL);
	assert_int_equal(ibv_query_port_speed(ctx, 1, &speed), EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
	assert_int_equal(speed, 0x5a);
}

/*
 * A provider whose op is the command (ours): the kernel's speed, its
 * EINVAL as it came, and a kernel without the method (EPROTONOSUPPORT,
 * ENOTTY) reported as EOPNOTSUPP, the errno of "no speed here".
 */
static void test_query_port_speed_verb_kernel(void **state)
{
	static const struct verbs_context_ops asks_kernel = {
		.query_port_speed = ibv_cmd_query_port_speed,
	};
	struct ibv_context *ctx = *state;
	t_ioctl_handler saved = tk.on_ioctl;
	uint64_t speed = 0;

	verbs_set_ops(verbs_get_ctx(ctx), &asks_kernel);
	tk.on_ioctl = t_port_speed_handler;
	assert_int_equal(ibv_query_port_speed(ctx, 2, &speed), 0);
	tk.on_ioctl = saved;
	assert_int_equal(speed, 4000);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_query_port_speed(ctx, 9, &speed), EINVAL);
	tk.refuse_obj = UVERBS_OBJECT_DEVICE;
	tk.refuse_method = METHOD_QUERY_PORT_SPEED;
	assert_int_equal(ibv_query_port_speed(ctx, 1, &speed), EOPNOTSUPP);
	tk.no_ioctl = true;
	assert_int_equal(ibv_query_port_speed(ctx, 1, &speed), EOPNOTSUPP);
	assert_int_equal(speed, 4000);
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
				   sizeof(*req), NULL,
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
	assert_int_equal(t_get64(tk.log[1].bytes + CMD_RESPONSE),
			 (uintptr_t)&resp);
	assert_int_equal(t_get64(tk.log[1].bytes + GET_CONTEXT_DRIVER_DATA), 5);
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
	assert_int_equal(t_get32(b + CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_FLAG_EXTENDED |
				 IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	assert_int_equal(t_get16(b + CMD_HDR_IN_WORDS), 1);
	assert_int_equal(t_get16(b + CMD_HDR_OUT_WORDS), sizeof(resp) / 8);
	assert_int_equal(t_get64(b + EX_HDR_RESPONSE), (uintptr_t)&resp);
	/* No provider words; the header's reserved word zero. */
	assert_int_equal(t_get64(b + EX_HDR_PROVIDER_IN_WORDS), 0);
	/* comp_mask and reserved, both zero */
	assert_int_equal(t_get64(b + EX_QUERY_DEVICE_COMP_MASK), 0);
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
	assert_int_equal(t_get16(b + CMD_HDR_OUT_WORDS), sizeof(resp.core) / 8);
	assert_int_equal(t_get64(b + EX_HDR_RESPONSE), (uintptr_t)&resp);
	assert_int_equal(t_get16(b + EX_HDR_PROVIDER_IN_WORDS), 0);
	assert_int_equal(t_get16(b + EX_HDR_PROVIDER_OUT_WORDS), 3);
	assert_int_equal(resp_size, sizeof(resp.core));
}

/* A kernel that claims to have written more than there was room for. */
static int t_boastful_write(const void *buf, size_t len, int err)
{
	struct ib_uverbs_ex_query_device_resp *r;
	uint64_t resp;

	(void)len;
	if (err)
		return err;
	memcpy(&resp, (const uint8_t *)buf + EX_HDR_RESPONSE, 8);
	r = (void *)(uintptr_t)resp;
	r->base.max_qp = 2000;
	r->response_length = 0xfff0;
	return 0;
}

/* The answer's size the provider gets stays within its own buffer. */
static void test_query_device_ex_size_capped(void **state)
{
	struct ibv_context *ctx = *state;
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;

	tk.on_write = t_boastful_write;
	assert_int_equal(ibv_cmd_query_device_any(ctx, NULL, &attr,
						  sizeof(attr), &resp,
						  &resp_size),
			 0);
	assert_int_equal(resp_size, sizeof(resp));
	assert_int_equal(attr.orig_attr.max_qp, 2000);
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
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes + CMD_RESPONSE),
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_query_port_ioctl),
		T_CASE(test_query_port_enotty),
		T_CASE(test_query_port_no_method),
		T_CASE(test_query_port_error),
		T_CASE(test_query_port_speed),
		T_CASE(test_query_port_speed_no_method),
		T_CASE(test_query_port_speed_verb),
		T_CASE(test_query_port_speed_verb_kernel),
		T_CASE(test_get_context_ioctl),
		T_CASE(test_get_context_write),
		T_CASE(test_query_context),
		T_CASE(test_alloc_async_fd),
		T_CASE(test_query_device_ex),
		T_CASE(test_query_device_ex_driver_part),
		T_CASE(test_query_device_ex_size_capped),
		T_CASE(test_query_device_ex_fallback),
		T_CASE(test_query_device_base),
	};

	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
