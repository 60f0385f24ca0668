// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel transport (libibverbs/kcmd.c) against a fake kernel behind
 * its seam: the bytes each command puts on the wire, the write() path
 * and the INVOKE_WRITE tunnel, the fallback from one to the other, the
 * per-context memory of what the kernel refused, errors passed through,
 * and several threads on one context. Links the static archive, where
 * the hidden seam hook is reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "libibverbs/kcmd.h"
#include "t_kernel.h"

#define T_DRIVER_ID 42

/*
 * The basic request of these cases after its header (struct t_basic): the
 * response pointer, a token the fake echoes back, the provider's data.
 */
enum {
	CORE_RESPONSE = 0,
	CORE_TOKEN = 8,
	CORE_DRV = 16,
};

/*
 * What a kernel does on success: INVOKE_WRITE echoes the token (the
 * core request's second u64) into the core response; an attribute
 * 0x1001 of any other method is an output set to 99.
 */
static void t_kernel_outputs(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *in = t_attr(h, UVERBS_ATTR_CORE_IN);
	struct ib_uverbs_attr *out = t_attr(h, UVERBS_ATTR_CORE_OUT);

	if (h->object_id == UVERBS_OBJECT_DEVICE &&
	    h->method_id == UVERBS_METHOD_INVOKE_WRITE) {
		if (in && out && in->len >= 16 && out->len >= 8)
			memcpy((void *)(uintptr_t)out->data,
			       (uint8_t *)(uintptr_t)in->data + CORE_TOKEN, 8);
		return;
	}
	out = t_attr(h, 0x1001);
	if (out) {
		out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
		out->data = 99;
	}
}

/* A basic command's core request: response pointer, then a token. */
static int t_write_echo(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t resp;

	if (err || tk.short_write)
		return err;
	if (!(h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) && len >= 24 &&
	    h->out_words >= 2) {
		memcpy(&resp, (const uint8_t *)buf + CMD_RESPONSE, 8);
		memcpy((void *)(uintptr_t)resp,
		       (const uint8_t *)buf + CMD_HDR_SIZE + CORE_TOKEN, 8);
	}
	return 0;
}

/* The kernel has every method, the tunnel included. */
static int t_setup(void **state)
{
	t_kernel_reset();
	tk.tunnel = true;
	tk.on_ioctl = t_kernel_outputs;
	tk.on_write = t_write_echo;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

static void t_expect_ioctl(unsigned int i, struct ibv_context *ctx,
			   const uint8_t *want, size_t len)
{
	assert_true(tk.log[i].is_ioctl);
	assert_int_equal(tk.log[i].fd, ctx->cmd_fd);
	assert_int_equal(tk.log[i].request, 0xc0181b01);
	assert_int_equal(tk.log[i].len, len);
	assert_memory_equal(tk.log[i].bytes, want, len);
}

/* Header and attributes byte for byte: inline vs pointer, reserved zero. */
static void test_ioctl_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t big[16] = { 1, 2, 3 }, small[3] = { 0xa, 0xb, 0xc };
	uint8_t out[32], want[IOCTL_ATTR(5)], *p;
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			       5);

	fill_attr_in_uint32(cmdb, 1, 0x11223344);
	fill_attr_in(cmdb, 2, big, sizeof(big));
	fill_attr_in(cmdb, 3, small, sizeof(small));
	fill_attr_out(cmdb, 4, out, sizeof(out));
	attr_optional(fill_attr_in_obj(cmdb, 5, 7));
	cmdb->hdr.reserved1 = ~0ull;
	cmdb->hdr.reserved2 = ~0u;
	assert_int_equal(execute_ioctl(ctx, cmdb), 0);

	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 5);
	p = t_put_attr(p, 1, 4, 1, 0x11223344);
	p = t_put_attr(p, 2, 16, 1, (uintptr_t)big);
	p = t_put_attr(p, 3, 3, 1, 0x0c0b0a);
	p = t_put_attr(p, 4, 32, 1, (uintptr_t)out);
	t_put_attr(p, 5, 0, 0, 7);
	assert_int_equal(t_syscalls(), 1);
	t_expect_ioctl(0, ctx, want, sizeof(want));
}

/*
 * A provider's buffer linked behind the core's: one array on the wire,
 * the head's attributes first, and outputs copied back to the link.
 */
static void test_ioctl_linked(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[IOCTL_ATTR(4)], *p;
	struct ib_uverbs_attr *drv_out;
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE,
			       2);

	fill_attr_in_uint64(drv, 0x1000, 0xdead);
	drv_out = fill_attr_out_obj(drv, 0x1001);
	assert_int_equal(__ioctl_final_num_attrs(2, drv), 4);
	{
		DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_QP,
					    UVERBS_METHOD_QP_CREATE, 2, drv);

		assert_int_equal(cmdb->last_attr - cmdb->hdr.attrs, 4);
		fill_attr_in_obj(cmdb, 1, 5);
		fill_attr_const_in(cmdb, 2, 6);
		assert_int_equal(execute_ioctl(ctx, cmdb), 0);
		assert_int_equal(cmdb->hdr.num_attrs, 4);
	}
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, 4);
	p = t_put_attr(p, 1, 0, 1, 5);
	p = t_put_attr(p, 2, 8, 1, 6);
	p = t_put_attr(p, 0x1000, 8, 1, 0xdead);
	t_put_attr(p, 0x1001, 0, 1, 0);
	t_expect_ioctl(0, ctx, want, sizeof(want));
	assert_int_equal(drv_out->data, 99);
	assert_true(attr_output_valid(drv_out));
}

/*
 * A linked buffer filled after the executing one was sized for it: its
 * attributes no longer fit, and the call is EINVAL, unsent. (rdma-core
 * 44 copies them past the end of the executing buffer.)
 */
static void test_ioctl_link_outgrown(void **state)
{
	struct ibv_context *ctx = *state;
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE,
			       2);
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_QP,
				    UVERBS_METHOD_QP_CREATE, 1, drv);

	fill_attr_in_obj(cmdb, 1, 5);
	fill_attr_in_uint64(drv, 0x1000, 0xdead);
	fill_attr_in_uint64(drv, 0x1001, 0xbeef);
	errno = 0;
	assert_int_equal(execute_ioctl(ctx, cmdb), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(t_syscalls(), 0);
}

/* Short provider input (UHW_IN) goes inline; the pointer comes back. */
static void test_ioctl_uhw_in(void **state)
{
	struct ibv_context *ctx = *state;
	uint32_t udata = 0x55667788;
	struct ib_uverbs_attr *uhw;
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       1);

	uhw = fill_attr_out(cmdb, UVERBS_ATTR_UHW_IN, &udata, sizeof(udata));
	uhw->flags = UVERBS_ATTR_F_MANDATORY;
	cmdb->uhw_in_idx = 0;
	assert_int_equal(execute_ioctl(ctx, cmdb), 0);
	assert_int_equal(t_get64(tk.log[0].bytes + IOCTL_ATTR(0) + ATTR_DATA),
			 0x55667788);
	assert_int_equal(uhw->data, (uintptr_t)&udata);
}

/* A buffer that could not be marshalled fails unsent. */
static void test_ioctl_buffer_error(void **state)
{
	struct ibv_context *ctx = *state;
	static uint8_t huge[70000];
	DECLARE_COMMAND_BUFFER(a, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       1);
	DECLARE_COMMAND_BUFFER(b, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       1);

	fill_attr_in(a, 1, huge, sizeof(huge));
	errno = 0;
	assert_int_equal(execute_ioctl(ctx, a), EINVAL);
	assert_int_equal(errno, EINVAL);
	fill_attr_in_obj(b, 1, 1);
	fill_attr_in_obj(b, 2, 2); /* one more than declared */
	assert_true(b->buffer_error);
	assert_int_equal(b->next_attr - b->hdr.attrs, 1);
	assert_int_equal(execute_ioctl(ctx, b), EINVAL);
	assert_int_equal(t_syscalls(), 0);
}

/*
 * The header's 16-bit length counts the attributes as well: a buffer
 * with more than it can count is EINVAL, unsent, rather than a length
 * cut short.
 */
static void test_ioctl_too_many_attrs(void **state)
{
	struct ibv_context *ctx = *state;
	const unsigned int max =
		(UINT16_MAX - sizeof(struct ib_uverbs_ioctl_hdr)) /
		sizeof(struct ib_uverbs_attr);
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       max + 1);

	for (unsigned int i = 0; i <= max; i++)
		fill_attr_in_obj(cmdb, i, i);
	assert_false(cmdb->buffer_error);
	errno = 0;
	assert_int_equal(execute_ioctl(ctx, cmdb), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(t_syscalls(), 0);
}

/* A basic command: header room, response pointer, token, driver data. */
struct t_basic {
	struct ib_uverbs_cmd_hdr hdr;
	uint64_t response;
	uint64_t token;
	uint64_t drv;
};

static int t_send_basic(struct ibv_context *ctx, struct t_basic *req,
			uint64_t resp[2])
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_PD,
		.req = req,
		.req_core = 24,
		.req_len = sizeof(*req),
		.resp = resp,
		.resp_core = 8,
		.resp_len = 16,
	};

	req->response = (uintptr_t)resp;
	return kcmd_write(ctx, &w);
}

/* An extended command: 24 bytes of headers, 16 of core, 8 of driver. */
static int t_send_ex(struct ibv_context *ctx, uint64_t req[6], uint64_t resp[2])
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_FLOW,
		.extended = true,
		.req = req,
		.req_core = 40,
		.req_len = 48,
		.resp = resp,
		.resp_core = 8,
		.resp_len = 16,
	};

	return kcmd_write(ctx, &w);
}

/* Call @i was a write() of exactly @want on @ctx's command file. */
static void expect_written(unsigned int i, struct ibv_context *ctx,
			   const uint8_t *want, size_t len)
{
	assert_int_equal(tk.log[i].fd, ctx->cmd_fd);
	t_expect(i, false, want, len);
}

/* write() with the basic header, after the tunnel was refused. */
static void test_write_basic(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 0x1234, .drv = 0x77 };
	uint64_t resp[2] = { ~0ull, ~0ull };
	uint8_t want[32];

	tk.no_ioctl = true;
	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	t_put32(want, IB_USER_VERBS_CMD_ALLOC_PD);
	t_put16(want + CMD_HDR_IN_WORDS, 8); /* 32 bytes with the header */
	t_put16(want + CMD_HDR_OUT_WORDS, 4); /* 16 bytes */
	t_put64(want + CMD_RESPONSE, (uintptr_t)resp);
	t_put64(want + CMD_HDR_SIZE + CORE_TOKEN, 0x1234);
	t_put64(want + CMD_HDR_SIZE + CORE_DRV, 0x77);
	assert_int_equal(atomic_load(&tk.writes), 1);
	expect_written(1, ctx, want, sizeof(want));
	assert_int_equal(resp[0], 0x1234);
	assert_int_equal(resp[1], 0); /* zeroed before the kernel wrote */
}

/* write() with the extended header: parts counted apart, in u64s. */
static void test_write_ex(void **state)
{
	struct ibv_context *ctx = *state;
	uint64_t req[6] = { ~0ull, ~0ull, ~0ull, 0xc1, 0xc2, 0xd1 };
	uint64_t resp[2] = { ~0ull, ~0ull };
	uint8_t want[48];

	tk.no_ioctl = true;
	assert_int_equal(t_send_ex(ctx, req, resp), 0);
	t_put32(want, 0x80000000u | IB_USER_VERBS_EX_CMD_CREATE_FLOW);
	t_put16(want + CMD_HDR_IN_WORDS,
		2); /* core request, headers excluded */
	t_put16(want + CMD_HDR_OUT_WORDS, 1); /* core response */
	t_put64(want + EX_HDR_RESPONSE, (uintptr_t)resp);
	t_put16(want + EX_HDR_PROVIDER_IN_WORDS, 1);
	t_put16(want + EX_HDR_PROVIDER_OUT_WORDS, 1);
	t_put32(want + EX_HDR_RESERVED, 0);
	/* The core request, 16 bytes, then the provider's 8. */
	t_put64(want + EX_HDRS_SIZE, 0xc1);
	t_put64(want + EX_HDRS_SIZE + 8, 0xc2);
	t_put64(want + EX_HDRS_SIZE + 16, 0xd1);
	expect_written(1, ctx, want, sizeof(want));
	assert_int_equal(resp[0], 0);
	assert_int_equal(resp[1], 0);
}

/* With INVOKE_WRITE, one ioctl carries the parts as attributes. */
static void test_tunnel(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 0x4321, .drv = 0x66 };
	uint64_t resp[2] = { 0, 0 }, xreq[6] = { 0, 0, 0, 0xc1, 0xc2, 0xd1 };
	uint8_t want[IOCTL_ATTR(5)], *p;

	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INVOKE_WRITE, 5);
	p = t_put_attr(p, UVERBS_ATTR_WRITE_CMD, 8, 1,
		       IB_USER_VERBS_CMD_ALLOC_PD);
	p = t_put_attr(p, UVERBS_ATTR_CORE_IN, 16, 1, (uintptr_t)&req.response);
	p = t_put_attr(p, UVERBS_ATTR_CORE_OUT, 8, 1, (uintptr_t)resp);
	p = t_put_attr(p, UVERBS_ATTR_UHW_IN, 8, 1, 0x66);
	t_put_attr(p, UVERBS_ATTR_UHW_OUT, 8, 1, (uintptr_t)&resp[1]);
	t_expect_ioctl(0, ctx, want, sizeof(want));
	assert_int_equal(resp[0], 0x4321);

	assert_int_equal(t_send_ex(ctx, xreq, resp), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INVOKE_WRITE, 5);
	p = t_put_attr(p, UVERBS_ATTR_WRITE_CMD, 8, 1,
		       0x80000000u | IB_USER_VERBS_EX_CMD_CREATE_FLOW);
	p = t_put_attr(p, UVERBS_ATTR_CORE_IN, 16, 1, (uintptr_t)&xreq[3]);
	p = t_put_attr(p, UVERBS_ATTR_CORE_OUT, 8, 1, (uintptr_t)resp);
	p = t_put_attr(p, UVERBS_ATTR_UHW_IN, 8, 1, 0xd1);
	t_put_attr(p, UVERBS_ATTR_UHW_OUT, 8, 1, (uintptr_t)&resp[1]);
	t_expect_ioctl(1, ctx, want, sizeof(want));
	assert_int_equal(atomic_load(&tk.writes), 0);
}

/* No ioctl at all: one retry by write(), then write() straight away. */
static void test_enotty_learned_once(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 1 };
	uint64_t resp[2];

	tk.no_ioctl = true;
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_CQ, 0));
	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	assert_int_equal(atomic_load(&tk.ioctls), 1);
	assert_int_equal(atomic_load(&tk.writes), 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	assert_int_equal(atomic_load(&tk.ioctls), 1);
	assert_int_equal(atomic_load(&tk.writes), 4);
	assert_true(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_CQ, 0));
	assert_true(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_DEVICE, 0));
	assert_true(kcmd_ioctl_refused(ctx, 0x1000, 0x1000));
}

/* EPROTONOSUPPORT marks that one method, nothing else. */
static void test_method_refused(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 1 };
	uint64_t resp[2];
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			       1);

	tk.refuse_obj = UVERBS_OBJECT_CQ;
	tk.refuse_method = UVERBS_METHOD_CQ_CREATE;
	tk.refuse_err = EPROTONOSUPPORT;
	fill_attr_in_obj(cmdb, 1, 1);
	assert_int_equal(execute_ioctl(ctx, cmdb), EPROTONOSUPPORT);
	assert_true(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_CQ,
				       UVERBS_METHOD_CQ_CREATE));
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_CQ,
					UVERBS_METHOD_CQ_DESTROY));
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_QP,
					UVERBS_METHOD_QP_CREATE));
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_DEVICE,
					UVERBS_METHOD_INVOKE_WRITE));
	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	assert_int_equal(atomic_load(&tk.ioctls), 2);
	assert_int_equal(atomic_load(&tk.writes), 0);
}

/* A kernel with ioctl but without INVOKE_WRITE (4.17 to 4.20). */
static void test_tunnel_refused(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 9 };
	uint64_t resp[2];

	tk.refuse_obj = UVERBS_OBJECT_DEVICE;
	tk.refuse_method = UVERBS_METHOD_INVOKE_WRITE;
	tk.refuse_err = EPROTONOSUPPORT;
	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	assert_int_equal(t_send_basic(ctx, &req, resp), 0);
	assert_int_equal(atomic_load(&tk.ioctls), 1);
	assert_int_equal(atomic_load(&tk.writes), 2);
	assert_int_equal(resp[0], 9);
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_CQ,
					UVERBS_METHOD_CQ_CREATE));
}

/* Other errors reach the caller unchanged, unremembered, unretried. */
static void test_errors_pass_through(void **state)
{
	static const int errs[] = { EINVAL, ENOMEM, EFAULT, EOPNOTSUPP };
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 1 };
	uint64_t resp[2];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_MR,
				       UVERBS_METHOD_ADVISE_MR, 1);

		fill_attr_in_obj(cmdb, 1, 1);
		t_fail_next(errs[i]);
		assert_int_equal(execute_ioctl(ctx, cmdb), errs[i]);
		assert_int_equal(errno, errs[i]);
	}
	assert_false(kcmd_ioctl_refused(ctx, UVERBS_OBJECT_MR,
					UVERBS_METHOD_ADVISE_MR));
	t_fail_next(EFAULT);
	assert_int_equal(t_send_basic(ctx, &req, resp), EFAULT);
	assert_int_equal(t_syscalls(), 5);

	tk.no_ioctl = true;
	tk.write_err = ENOMEM;
	assert_int_equal(t_send_basic(ctx, &req, resp), ENOMEM);
	tk.write_err = EFAULT;
	assert_int_equal(t_send_basic(ctx, &req, resp), EFAULT);
	tk.write_err = 0;
	tk.short_write = true;
	assert_int_equal(t_send_basic(ctx, &req, resp), EIO);
}

/*
 * A provider's response part that ends in a partial word: the tunnel
 * takes its exact length, write() its whole words, as rdma-core 44 does.
 */
static void test_write_partial_response_word(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_basic req = { .token = 0x1234, .drv = 0x77 };
	uint64_t resp[3], xreq[6] = { 0, 0, 0, 0xc1, 0xc2, 0xd1 };
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_PD,
		.req = &req,
		.req_core = 24,
		.req_len = sizeof(req),
		.resp = resp,
		.resp_core = 8,
		.resp_len = 14,
	};
	const struct ib_uverbs_attr *uhw_out;

	req.response = (uintptr_t)resp;
	assert_int_equal(kcmd_write(ctx, &w), 0);
	uhw_out = (const void *)(tk.log[0].bytes + IOCTL_ATTR(4));
	assert_int_equal(uhw_out->attr_id, UVERBS_ATTR_UHW_OUT);
	assert_int_equal(uhw_out->len, 6);

	t_kernel_reset();
	tk.no_ioctl = true;
	assert_int_equal(kcmd_write(ctx, &w), 0);
	assert_int_equal(t_get64(tk.log[1].bytes) >> 48,
			 3); /* CMD_HDR_OUT_WORDS */

	w = (struct kcmd_write_args){
		.command = IB_USER_VERBS_EX_CMD_CREATE_FLOW,
		.extended = true,
		.req = xreq,
		.req_core = 40,
		.req_len = 48,
		.resp = resp,
		.resp_core = 8,
		.resp_len = 20,
	};
	assert_int_equal(kcmd_write(ctx, &w), 0);
	assert_int_equal(tk.log[2].bytes[EX_HDR_PROVIDER_OUT_WORDS], 1);
}

/* Sizes the headers cannot express: EINVAL, nothing sent. */
static void test_write_bad_sizes(void **state)
{
	struct ibv_context *ctx = *state;
	uint64_t req[8] = { 0 }, resp[2];
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_PD,
		.req = req,
		.req_core = 16,
		.req_len = 18,
	};

	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	w.req_core = w.req_len = 4; /* no room for the header */
	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	w.req_core = w.req_len = 16;
	w.resp_len = 8; /* a response needs a buffer */
	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	w = (struct kcmd_write_args){
		.extended = true, .req = req, .req_core = 28, .req_len = 28
	};
	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	w.req_core = 32;
	w.req_len = 36;
	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	w.req_len = 32;
	w.resp = resp;
	w.resp_core = 4;
	w.resp_len = 4;
	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	assert_int_equal(t_syscalls(), 0);
}

/*
 * Through INVOKE_WRITE each part is an attribute, whose length has 16
 * bits: a provider part the basic header could still count (up to
 * 65535 words) is EINVAL, unsent, rather than cut short; on a kernel
 * without the tunnel, write() carries it.
 */
static void test_tunnel_part_too_long(void **state)
{
	struct ibv_context *ctx = *state;
	static uint64_t req[(16 + 65536) / 8];
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_PD,
		.req = req,
		.req_core = 16,
		.req_len = sizeof(req),
	};

	assert_int_equal(kcmd_write(ctx, &w), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(t_syscalls(), 0);
	w.req_len = 16 + 65528;
	assert_int_equal(kcmd_write(ctx, &w), 0);
	assert_int_equal(t_syscalls(), 1);
	/* Once the context knows the kernel has no tunnel, write() does. */
	tk.no_ioctl = true;
	w.req_len = 16;
	assert_int_equal(kcmd_write(ctx, &w), 0);
	assert_int_equal(t_syscalls(), 3);
	w.req_len = sizeof(req);
	assert_int_equal(kcmd_write(ctx, &w), 0);
	assert_int_equal(t_syscalls(), 4);
	assert_false(tk.log[tk.ncalls - 1].is_ioctl);
}

#define T_THREADS 8
#define T_PER_THREAD 200

struct t_worker {
	struct ibv_context *ctx;
	uint64_t id;
	int bad;
};

/* Each thread checks that it gets its own answers back. */
static void *t_worker(void *arg)
{
	struct t_worker *w = arg;

	for (uint64_t i = 0; i < T_PER_THREAD; i++) {
		struct t_basic req = { .token = w->id << 32 | i };
		uint64_t resp[2] = { 0, 0 };

		if (t_send_basic(w->ctx, &req, resp) || resp[0] != req.token)
			w->bad++;
	}
	return NULL;
}

static void t_run_threads(struct ibv_context *ctx)
{
	struct t_worker w[T_THREADS];
	pthread_t th[T_THREADS];
	int i;

	for (i = 0; i < T_THREADS; i++) {
		w[i] = (struct t_worker){ .ctx = ctx, .id = i + 1 };
		assert_int_equal(pthread_create(&th[i], NULL, t_worker, &w[i]),
				 0);
	}
	for (i = 0; i < T_THREADS; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].bad, 0);
	}
}

/* Several threads on one context, with the tunnel and without it. */
static void test_threads(void **state)
{
	struct ibv_context *ctx = *state;

	t_run_threads(ctx);
	assert_int_equal(atomic_load(&tk.ioctls), T_THREADS * T_PER_THREAD);
	assert_int_equal(atomic_load(&tk.writes), 0);
}

static void test_threads_no_ioctl(void **state)
{
	struct ibv_context *ctx = *state;

	tk.no_ioctl = true;
	t_run_threads(ctx);
	assert_int_equal(atomic_load(&tk.writes), T_THREADS * T_PER_THREAD);
	/* At most each thread's first command tried the tunnel. */
	assert_in_range(atomic_load(&tk.ioctls), 1, T_THREADS);
}

#define T_CASE(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup, t_context_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_ioctl_bytes),
		T_CASE(test_ioctl_linked),
		T_CASE(test_ioctl_link_outgrown),
		T_CASE(test_ioctl_uhw_in),
		T_CASE(test_ioctl_buffer_error),
		T_CASE(test_ioctl_too_many_attrs),
		T_CASE(test_write_basic),
		T_CASE(test_write_ex),
		T_CASE(test_tunnel),
		T_CASE(test_enotty_learned_once),
		T_CASE(test_method_refused),
		T_CASE(test_tunnel_refused),
		T_CASE(test_errors_pass_through),
		T_CASE(test_write_partial_response_word),
		T_CASE(test_write_bad_sizes),
		T_CASE(test_tunnel_part_too_long),
		T_CASE(test_threads),
		T_CASE(test_threads_no_ioctl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
