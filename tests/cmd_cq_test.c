// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CQ commands of cmd_cq.c against a fake kernel behind the transport
 * seam (t_cq.h): the bytes each ibv_cmd_*_cq() sends, the write()
 * fallback and its memory, the kernel's answers decoded into the CQ,
 * errors passed through, and a destroy that waits for its events to be
 * acknowledged. Links the static archive, where the hidden hooks are
 * reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_cq.h"

/*
 * The fake providers below embed struct ibv_<cmd> first in a larger
 * struct, the way real providers add their driver data; clang calls a
 * flexible array member there an extension.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

/*
 * The write() requests as offsets: the header (or both headers), then the
 * kernel's struct ib_uverbs_<command>, its members where the uverbs ABI
 * puts them.
 */
enum {
	CREATE_CQ_USER_HANDLE = CMD_HDR_SIZE + 8,
	CREATE_CQ_CQE = CMD_HDR_SIZE + 16,
	CREATE_CQ_COMP_VECTOR = CMD_HDR_SIZE + 20,
	CREATE_CQ_COMP_CHANNEL = CMD_HDR_SIZE + 24,
	CREATE_CQ_RESERVED = CMD_HDR_SIZE + 28,
	CREATE_CQ_DRIVER_DATA = CMD_HDR_SIZE + 32,
	EX_CREATE_CQ_USER_HANDLE = EX_HDRS_SIZE + 0,
	EX_CREATE_CQ_CQE = EX_HDRS_SIZE + 8,
	EX_CREATE_CQ_COMP_CHANNEL = EX_HDRS_SIZE + 16,
	EX_CREATE_CQ_FLAGS = EX_HDRS_SIZE + 24,
	EX_CREATE_CQ_DRIVER_DATA = EX_HDRS_SIZE + 32,
	DESTROY_CQ_CQ_HANDLE = CMD_HDR_SIZE + 8,
	DESTROY_CQ_RESERVED = CMD_HDR_SIZE + 12,
	POLL_CQ_CQ_HANDLE = CMD_HDR_SIZE + 8,
	POLL_CQ_NE = CMD_HDR_SIZE + 12,
	REQ_NOTIFY_CQ_CQ_HANDLE = CMD_HDR_SIZE + 0,
	REQ_NOTIFY_CQ_SOLICITED_ONLY = CMD_HDR_SIZE + 4,
	RESIZE_CQ_CQ_HANDLE = CMD_HDR_SIZE + 8,
	RESIZE_CQ_CQE = CMD_HDR_SIZE + 12,
	RESIZE_CQ_DRIVER_DATA = CMD_HDR_SIZE + 16,
	EX_MODIFY_CQ_CQ_HANDLE = EX_HDRS_SIZE + 0,
	EX_MODIFY_CQ_ATTR_MASK = EX_HDRS_SIZE + 4,
	/* struct ib_uverbs_cq_moderation: cq_count, then cq_period */
	EX_MODIFY_CQ_ATTR = EX_HDRS_SIZE + 8,
	EX_MODIFY_CQ_RESERVED = EX_HDRS_SIZE + 12,
};

/* A provider's create request and response, with driver data. */
struct t_create_cq {
	struct ibv_create_cq ibv_cmd;
	uint64_t drv;
};
struct t_create_cq_resp {
	struct ib_uverbs_create_cq_resp ibv_resp;
	uint64_t drv;
};
struct t_create_cq_ex {
	struct ibv_create_cq_ex ibv_cmd;
	uint64_t drv;
};
struct t_create_cq_ex_resp {
	struct ib_uverbs_ex_create_cq_resp ibv_resp;
	uint64_t drv;
};

#define M UVERBS_ATTR_F_MANDATORY

static int t_create(struct ibv_context *ctx, struct ibv_cq *cq,
		    struct ibv_comp_channel *ch, struct t_create_cq *cmd,
		    struct t_create_cq_resp *resp)
{
	*cmd = (struct t_create_cq){ .drv = 0x1122334455667788 };
	*resp = (struct t_create_cq_resp){ 0 };
	return ibv_cmd_create_cq(ctx, 100, ch, 2, cq, &cmd->ibv_cmd,
				 sizeof(*cmd), &resp->ibv_resp, sizeof(*resp));
}

/* Every attribute, in rdma-core 44's order; the event file optional. */
static void test_create_ioctl_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx, .fd = 7 };
	struct t_create_cq cmd;
	struct t_create_cq_resp resp;
	struct ibv_cq cq = { 0 };
	struct t_call *c;

	ctx->async_fd = 9;
	assert_int_equal(t_create(ctx, &cq, &ch, &cmd, &resp), 0);
	ctx->async_fd = -1;
	c = t_last();
	t_expect_method(t_last_call(), UVERBS_OBJECT_CQ,
			UVERBS_METHOD_CQ_CREATE, 9);
	assert_int_equal(t_expect_attr(t_last_call(), 0,
				       UVERBS_ATTR_CREATE_CQ_HANDLE, 0, M),
			 0);
	/* RESP_CQE points into the library's stack: id, length, flags. */
	assert_int_equal(t_get16(c->bytes + IOCTL_ATTR(1) + ATTR_ID),
			 UVERBS_ATTR_CREATE_CQ_RESP_CQE);
	assert_int_equal(t_get16(c->bytes + IOCTL_ATTR(1) + ATTR_LEN), 4);
	assert_int_equal(u32_at(c, IOCTL_ATTR(1) + ATTR_FLAGS), M);
	assert_int_equal(t_expect_attr(t_last_call(), 2,
				       UVERBS_ATTR_CREATE_CQ_CQE, 4, M),
			 100);
	assert_int_equal(t_expect_attr(t_last_call(), 3,
				       UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, M),
			 (uintptr_t)&cq);
	assert_int_equal(t_expect_attr(t_last_call(), 4,
				       UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 0,
				       M),
			 7);
	assert_int_equal(t_expect_attr(t_last_call(), 5,
				       UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, M),
			 2);
	assert_int_equal(t_expect_attr(t_last_call(), 6,
				       UVERBS_ATTR_CREATE_CQ_EVENT_FD, 0, 0),
			 9);
	assert_int_equal(t_expect_attr(t_last_call(), 7, UVERBS_ATTR_UHW_IN, 8,
				       M),
			 0x1122334455667788);
	assert_int_equal(t_expect_attr(t_last_call(), 8, UVERBS_ATTR_UHW_OUT, 8,
				       M),
			 (uintptr_t)&resp.drv);
	assert_int_equal(cq.handle, T_HANDLE);
	assert_int_equal(cq.cqe, 128);
	assert_ptr_equal(cq.context, ctx);
	assert_int_equal(tk.writes, 0);
}

/* No channel, no event file, no driver data: those attributes vanish. */
static void test_create_ioctl_minimal(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_create_cq cmd = { 0 };
	struct ib_uverbs_create_cq_resp resp = { 0 };
	struct ibv_cq cq = { 0 };

	assert_int_equal(ibv_cmd_create_cq(ctx, 1, NULL, 0, &cq, &cmd,
					   sizeof(cmd), &resp, sizeof(resp)),
			 0);
	t_expect_method(t_last_call(), UVERBS_OBJECT_CQ,
			UVERBS_METHOD_CQ_CREATE, 5);
	assert_int_equal(t_expect_attr(t_last_call(), 4,
				       UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, M),
			 0);
}

/*
 * The last call was the basic write() of a create of 100 entries, @len
 * bytes of request, @resp_len of response at @resp; @cq got the answer.
 */
static void t_expect_create_write_core(struct ibv_cq *cq, size_t len,
				       const void *resp, size_t resp_len,
				       int32_t ch)
{
	struct t_call *c = t_last();

	assert_false(c->is_ioctl);
	assert_int_equal(c->len, len);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_CREATE_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS),
			 T_WORDS(len / 4, resp_len / 4));
	assert_int_equal(u64_at(c, CMD_RESPONSE), (uintptr_t)resp);
	assert_int_equal(u64_at(c, CREATE_CQ_USER_HANDLE), (uintptr_t)cq);
	assert_int_equal(u32_at(c, CREATE_CQ_CQE), 100);
	assert_int_equal((int32_t)u32_at(c, CREATE_CQ_COMP_CHANNEL), ch);
	assert_int_equal(cq->handle, T_WRITE_HANDLE);
	assert_int_equal(cq->cqe, 64);
}

/* The basic write(), with the provider's data behind the core request. */
static void t_expect_create_write(struct ibv_cq *cq, struct t_create_cq *cmd,
				  struct t_create_cq_resp *resp, int32_t ch)
{
	struct t_call *c = t_last();

	t_expect_create_write_core(cq, sizeof(*cmd), &resp->ibv_resp,
				   sizeof(*resp), ch);
	assert_int_equal(u32_at(c, CREATE_CQ_COMP_VECTOR), 2);
	assert_int_equal(u32_at(c, CREATE_CQ_RESERVED), 0);
	assert_int_equal(u64_at(c, CREATE_CQ_DRIVER_DATA), 0x1122334455667788);
}

/* Refused once, the method goes straight to write() from then on. */
static void test_create_fallback(void **state, bool enotty)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx, .fd = 7 };
	struct t_create_cq cmd;
	struct t_create_cq_resp resp;
	struct ibv_cq cq = { 0 };

	tk.no_ioctl = enotty;
	tk.refuse_obj = enotty ? T_NO_OBJECT : UVERBS_OBJECT_CQ;
	assert_int_equal(t_create(ctx, &cq, &ch, &cmd, &resp), 0);
	assert_int_equal(tk.ioctls, 1);
	t_expect_create_write(&cq, &cmd, &resp, 7);
	assert_int_equal(t_create(ctx, &cq, NULL, &cmd, &resp), 0);
	assert_int_equal(tk.ioctls, 1);
	assert_int_equal(tk.writes, 2);
	t_expect_create_write(&cq, &cmd, &resp, -1);
}

static void test_create_fallback_eprotonosupport(void **state)
{
	test_create_fallback(state, false);
}

static void test_create_fallback_enotty(void **state)
{
	test_create_fallback(state, true);
}

/*
 * rxe passes no request (NULL, 0), as rdma-core 44 allows: the write()
 * request is then the library's own, core only, and must still go out.
 */
static void test_create_fallback_no_cmd(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_create_cq_resp resp = { 0 };
	struct ibv_cq cq = { 0 };

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_cq(ctx, 100, NULL, 2, &cq, NULL, 0,
					   &resp.ibv_resp, sizeof(resp)),
			 0);
	t_expect_create_write_core(&cq, sizeof(struct ibv_create_cq),
				   &resp.ibv_resp, sizeof(resp), -1);
}

/* Errors other than "no such method" are the answer, not a reason to retry. */
static void test_create_errors_pass_through(void **state)
{
	static const int errs[] = { EINVAL, ENOMEM, EFAULT, EOPNOTSUPP };
	struct ibv_context *ctx = *state;
	struct t_create_cq cmd;
	struct t_create_cq_resp resp;
	struct ibv_cq cq = { 0 };

	for (unsigned int i = 0; i < 4; i++) {
		tk.ioctl_err = errs[i];
		assert_int_equal(t_create(ctx, &cq, NULL, &cmd, &resp),
				 errs[i]);
	}
	assert_int_equal(tk.writes, 0);
	tk.ioctl_err = 0;
	tk.refuse_obj = UVERBS_OBJECT_CQ;
	tk.write_err = ENOSPC;
	assert_int_equal(t_create(ctx, &cq, NULL, &cmd, &resp), ENOSPC);
}

static int t_create_ex(struct ibv_context *ctx, struct verbs_cq *vcq,
		       struct ibv_cq_init_attr_ex *attr,
		       struct t_create_cq_ex *cmd,
		       struct t_create_cq_ex_resp *resp, uint32_t cmd_flags)
{
	*cmd = (struct t_create_cq_ex){ .drv = 0xa1a2a3a4a5a6a7a8 };
	*resp = (struct t_create_cq_ex_resp){ 0 };
	return ibv_cmd_create_cq_ex(ctx, attr, NULL, vcq, &cmd->ibv_cmd,
				    sizeof(*cmd), &resp->ibv_resp,
				    sizeof(*resp), cmd_flags);
}

/* Timestamps and overrun become the FLAGS attribute. */
static void test_create_ex_flags(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 100,
		.comp_vector = 2,
		.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
		.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN,
	};
	struct t_create_cq_ex cmd;
	struct t_create_cq_ex_resp resp;
	struct verbs_cq vcq = { 0 };

	assert_int_equal(t_create_ex(ctx, &vcq, &attr, &cmd, &resp, 0), 0);
	t_expect_method(t_last_call(), UVERBS_OBJECT_CQ,
			UVERBS_METHOD_CQ_CREATE, 8);
	assert_int_equal(t_expect_attr(t_last_call(), 5,
				       UVERBS_ATTR_CREATE_CQ_FLAGS, 4, M),
			 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
				 IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	assert_int_equal(t_expect_attr(t_last_call(), 6, UVERBS_ATTR_UHW_IN, 8,
				       M),
			 0xa1a2a3a4a5a6a7a8);
	assert_int_equal(vcq.cq.handle, T_HANDLE);
	/* A comp_mask bit rdma-core 44 does not know: nothing is sent. */
	attr.comp_mask |= 1 << 2;
	assert_int_equal(t_create_ex(ctx, &vcq, &attr, &cmd, &resp, 0),
			 EOPNOTSUPP);
	assert_int_equal(tk.ioctls, 1);
}

/* A create asking for completion timestamps, with CQ/CREATE refused. */
static int t_create_ts_by_write(struct ibv_context *ctx, struct verbs_cq *vcq,
				struct t_create_cq_ex *cmd,
				struct t_create_cq_ex_resp *resp,
				uint32_t cmd_flags)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 100,
		.comp_vector = 2,
		.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
	};

	tk.refuse_obj = UVERBS_OBJECT_CQ;
	return t_create_ex(ctx, vcq, &attr, cmd, resp, cmd_flags);
}

/* With flags the fallback is the extended write(), flags and all. */
static void test_create_ex_write_ex(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_create_cq_ex cmd;
	struct t_create_cq_ex_resp resp;
	struct verbs_cq vcq = { 0 };
	struct t_call *c;

	assert_int_equal(t_create_ts_by_write(ctx, &vcq, &cmd, &resp, 0), 0);
	c = t_last();
	assert_false(c->is_ioctl);
	assert_int_equal(c->len, sizeof(cmd));
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_FLAG_EXTENDED |
				 IB_USER_VERBS_EX_CMD_CREATE_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS),
			 T_WORDS(4, 2)); /* in 8-byte words */
	assert_int_equal(u64_at(c, EX_HDR_RESPONSE), (uintptr_t)&resp);
	assert_int_equal(u32_at(c, EX_HDR_PROVIDER_IN_WORDS), T_WORDS(1, 1));
	assert_int_equal(u64_at(c, EX_CREATE_CQ_USER_HANDLE),
			 (uintptr_t)&vcq.cq);
	assert_int_equal(u32_at(c, EX_CREATE_CQ_CQE), 100);
	assert_int_equal((int32_t)u32_at(c, EX_CREATE_CQ_COMP_CHANNEL), -1);
	assert_int_equal(u32_at(c, EX_CREATE_CQ_FLAGS),
			 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION);
	assert_int_equal(u64_at(c, EX_CREATE_CQ_DRIVER_DATA),
			 0xa1a2a3a4a5a6a7a8);
	assert_int_equal(vcq.cq.handle, T_WRITE_HANDLE + 1);
	assert_int_equal(vcq.cq.cqe, 256);
}

/*
 * TS_IGNORED_EX lets a timestamp-only create fall back to the basic
 * write(), built inside the provider's extended buffers so that its
 * data stays in place.
 */
static void test_create_ex_ts_ignored(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_create_cq_ex cmd;
	struct t_create_cq_ex_resp resp;
	struct verbs_cq vcq = { 0 };
	struct t_call *c;

	assert_int_equal(
		t_create_ts_by_write(ctx, &vcq, &cmd, &resp,
				     CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX),
		0);
	c = t_last();
	assert_int_equal(c->len, sizeof(struct ibv_create_cq) + 8);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_CREATE_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS), T_WORDS(12, 4));
	assert_int_equal(u64_at(c, CMD_RESPONSE), (uintptr_t)&resp + 8);
	assert_int_equal(u64_at(c, CREATE_CQ_USER_HANDLE), (uintptr_t)&vcq.cq);
	assert_int_equal(u64_at(c, CREATE_CQ_DRIVER_DATA), 0xa1a2a3a4a5a6a7a8);
	assert_int_equal(vcq.cq.handle, T_WRITE_HANDLE);
	assert_int_equal(vcq.cq.cqe, 64);
}

/* An attribute id in the driver's namespace (1 of UVERBS_ID_NS_MASK). */
#define T_DRIVER_ATTR (0x1000 + 3)

/*
 * ibv_cmd_create_cq_ex2(): a plain create (nothing but the comp vector
 * asked for) with a provider buffer holding one 32-bit attribute,
 * mandatory or not.
 */
static int t_create_ex2(struct ibv_context *ctx, struct verbs_cq *vcq,
			struct t_create_cq_ex *cmd,
			struct t_create_cq_ex_resp *resp, bool mandatory)
{
	struct ibv_cq_init_attr_ex attr = { .cqe = 100, .comp_vector = 2 };
	DECLARE_COMMAND_BUFFER(driver, UVERBS_OBJECT_CQ,
			       UVERBS_METHOD_CQ_CREATE, 1);
	struct ib_uverbs_attr *a;

	a = fill_attr_in_uint32(driver, T_DRIVER_ATTR, 0x5a5a);
	if (!mandatory)
		attr_optional(a);
	*cmd = (struct t_create_cq_ex){ .drv = 0xa1a2a3a4a5a6a7a8 };
	*resp = (struct t_create_cq_ex_resp){ 0 };
	return ibv_cmd_create_cq_ex2(ctx, &attr, NULL, vcq, &cmd->ibv_cmd,
				     sizeof(*cmd), &resp->ibv_resp,
				     sizeof(*resp), 0, driver);
}

/* The provider's attribute goes last, after the core's and its data. */
static void test_create_ex2_ioctl_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_create_cq_ex cmd;
	struct t_create_cq_ex_resp resp;
	struct verbs_cq vcq = { 0 };

	assert_int_equal(t_create_ex2(ctx, &vcq, &cmd, &resp, true), 0);
	t_expect_method(t_last_call(), UVERBS_OBJECT_CQ,
			UVERBS_METHOD_CQ_CREATE, 8);
	assert_int_equal(t_expect_attr(t_last_call(), 2,
				       UVERBS_ATTR_CREATE_CQ_CQE, 4, M),
			 100);
	assert_int_equal(t_expect_attr(t_last_call(), 5, UVERBS_ATTR_UHW_IN, 8,
				       M),
			 0xa1a2a3a4a5a6a7a8);
	assert_int_equal(t_expect_attr(t_last_call(), 6, UVERBS_ATTR_UHW_OUT, 8,
				       M),
			 (uintptr_t)&resp.drv);
	assert_int_equal(t_expect_attr(t_last_call(), 7, T_DRIVER_ATTR, 4, M),
			 0x5a5a);
	assert_int_equal(vcq.cq.handle, T_HANDLE);
	assert_int_equal(tk.writes, 0);
}

/*
 * Without the ioctl method a mandatory provider attribute cannot be
 * sent: EOPNOTSUPP, and no write(). An optional one is dropped, and the
 * basic write() carries the core request and the driver data.
 */
static void test_create_ex2_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_create_cq_ex cmd;
	struct t_create_cq_ex_resp resp;
	struct verbs_cq vcq = { 0 };
	struct t_call *c;

	tk.refuse_obj = UVERBS_OBJECT_CQ;
	assert_int_equal(t_create_ex2(ctx, &vcq, &cmd, &resp, true),
			 EOPNOTSUPP);
	assert_int_equal(tk.writes, 0);
	assert_int_equal(t_create_ex2(ctx, &vcq, &cmd, &resp, false), 0);
	assert_int_equal(tk.writes, 1);
	c = t_last();
	assert_false(c->is_ioctl);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_CREATE_CQ);
	assert_int_equal(u64_at(c, CREATE_CQ_USER_HANDLE), (uintptr_t)&vcq.cq);
	assert_int_equal(u32_at(c, CREATE_CQ_CQE), 100);
	assert_int_equal(u64_at(c, CREATE_CQ_DRIVER_DATA), 0xa1a2a3a4a5a6a7a8);
	assert_int_equal(vcq.cq.handle, T_WRITE_HANDLE);
}

/* A thread that acknowledges one completion event after a while. */
static void *t_late_ack(void *arg)
{
	struct ibv_cq *cq = arg;
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	ibv_ack_cq_events(cq, 1);
	return NULL;
}

static void test_destroy_ioctl_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	struct t_call *c;

	t_init_cq(ctx, &cq);
	cq.comp_events_completed = 2;
	cq.async_events_completed = 1;
	fk.comp_reported = 2;
	fk.async_reported = 1;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	c = t_last();
	t_expect_method(t_last_call(), UVERBS_OBJECT_CQ,
			UVERBS_METHOD_CQ_DESTROY, 2);
	assert_int_equal(t_get16(c->bytes + IOCTL_ATTR(0) + ATTR_ID),
			 UVERBS_ATTR_DESTROY_CQ_RESP);
	assert_int_equal(t_get16(c->bytes + IOCTL_ATTR(0) + ATTR_LEN), 8);
	assert_int_equal(t_expect_attr(t_last_call(), 1,
				       UVERBS_ATTR_DESTROY_CQ_HANDLE, 0, M),
			 0x31);
}

/* destroy returns only after the late acknowledgement arrived. */
static void test_destroy_waits_for_acks(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	pthread_t thr;

	t_init_cq(ctx, &cq);
	fk.comp_reported = 1;
	assert_int_equal(pthread_create(&thr, NULL, t_late_ack, &cq), 0);
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	assert_int_equal(cq.comp_events_completed, 1);
	pthread_join(thr, NULL);
}

static void test_destroy_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	struct t_call *c;

	t_init_cq(ctx, &cq);
	tk.refuse_obj = UVERBS_OBJECT_CQ;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	assert_int_equal(tk.ioctls, 1);
	assert_int_equal(tk.writes, 2);
	c = t_last();
	assert_int_equal(c->len, 24);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_DESTROY_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS), T_WORDS(6, 2));
	assert_int_equal(u32_at(c, DESTROY_CQ_CQ_HANDLE), 0x31);
	assert_int_equal(u32_at(c, DESTROY_CQ_RESERVED), 0);
}

/* EIO from a dead device counts as done only when the user allows it. */
static void test_destroy_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;

	t_init_cq(ctx, &cq);
	tk.ioctl_err = EINVAL;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), EINVAL);
	tk.ioctl_err = EIO;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), EIO);
	verbs_allow_disassociate_destroy = true;
	assert_int_equal(ibv_cmd_destroy_cq(&cq), 0);
	assert_int_equal(tk.writes, 0);
}

static void t_expect_wc(const struct ibv_wc *wc, uint32_t s)
{
	assert_int_equal(wc->wr_id, 1000 + s);
	assert_int_equal(wc->status, 1);
	assert_int_equal(wc->opcode, 2);
	assert_int_equal(wc->vendor_err, 3);
	assert_int_equal(wc->byte_len, 4 + s);
	assert_int_equal(wc->imm_data, 0x01020304);
	assert_int_equal(wc->qp_num, 5);
	assert_int_equal(wc->src_qp, 6);
	assert_int_equal(wc->wc_flags, 7);
	assert_int_equal(wc->pkey_index, 8);
	assert_int_equal(wc->slid, 9);
	assert_int_equal(wc->sl, 10);
	assert_int_equal(wc->dlid_path_bits, 11);
}

static void test_poll_bytes_and_decode(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31 };
	struct ibv_wc wc[4];
	struct t_call *c;

	fk.poll_avail = 3;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 4, wc), 3);
	c = t_last();
	assert_int_equal(c->len, 24);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND), IB_USER_VERBS_CMD_POLL_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS),
			 T_WORDS(6, (8 + 4 * 48) / 4));
	assert_int_equal(u32_at(c, POLL_CQ_CQ_HANDLE), 0x31);
	assert_int_equal(u32_at(c, POLL_CQ_NE), 4);
	for (uint32_t i = 0; i < 3; i++)
		t_expect_wc(&wc[i], i);
	assert_int_equal(ibv_cmd_poll_cq(&cq, 4, wc), 0);
}

/* More than one chunk: asked again while the kernel filled it all. */
static void test_poll_many(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31 };
	struct ibv_wc wc[80];

	fk.poll_avail = 40;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 80, wc), 40);
	for (uint32_t i = 0; i < 40; i++)
		t_expect_wc(&wc[i], i);
	assert_int_equal(tk.writes, 2);
}

static void test_poll_error(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31 };
	struct ibv_wc wc[1];

	tk.write_err = EINVAL;
	errno = 0;
	assert_int_equal(ibv_cmd_poll_cq(&cq, 1, wc), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_req_notify(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31 };
	struct t_call *c;

	assert_int_equal(ibv_cmd_req_notify_cq(&cq, 5), 0);
	c = t_last();
	assert_int_equal(c->len, 16);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS), 4);
	assert_int_equal(u32_at(c, REQ_NOTIFY_CQ_CQ_HANDLE), 0x31);
	assert_int_equal(u32_at(c, REQ_NOTIFY_CQ_SOLICITED_ONLY), 1);
	tk.write_err = EBADF;
	assert_int_equal(ibv_cmd_req_notify_cq(&cq, 0), EBADF);
}

static void test_resize(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31, .cqe = 10 };
	struct {
		struct ibv_resize_cq ibv_cmd;
		uint64_t drv;
	} cmd = { .drv = 0xfeed };
	struct ib_uverbs_resize_cq_resp resp;
	struct t_call *c;

	assert_int_equal(ibv_cmd_resize_cq(&cq, 300, &cmd.ibv_cmd, sizeof(cmd),
					   &resp, sizeof(resp)),
			 0);
	c = t_last();
	assert_int_equal(c->len, 32);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_RESIZE_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS), T_WORDS(8, 2));
	assert_int_equal(u64_at(c, CMD_RESPONSE), (uintptr_t)&resp);
	assert_int_equal(u32_at(c, RESIZE_CQ_CQ_HANDLE), 0x31);
	assert_int_equal(u32_at(c, RESIZE_CQ_CQE), 300);
	assert_int_equal(u64_at(c, RESIZE_CQ_DRIVER_DATA), 0xfeed);
	assert_int_equal(cq.cqe, 500);
	tk.write_err = ENOMEM;
	cq.cqe = 10;
	assert_int_equal(ibv_cmd_resize_cq(&cq, 300, &cmd.ibv_cmd, sizeof(cmd),
					   &resp, sizeof(resp)),
			 ENOMEM);
	assert_int_equal(cq.cqe, 10);
}

static void test_modify(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq = { .context = ctx, .handle = 0x31 };
	struct ibv_modify_cq_attr attr = {
		.attr_mask = IBV_CQ_ATTR_MODERATE,
		.moderate = { .cq_count = 16, .cq_period = 20 },
	};
	struct ibv_modify_cq cmd;
	struct t_call *c;

	memset(&cmd, 0xff, sizeof(cmd));
	assert_int_equal(ibv_cmd_modify_cq(&cq, &attr, &cmd, sizeof(cmd)), 0);
	c = t_last();
	assert_int_equal(c->len, 40);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_FLAG_EXTENDED |
				 IB_USER_VERBS_EX_CMD_MODIFY_CQ);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS),
			 2); /* 16 bytes in, nothing out */
	assert_int_equal(u64_at(c, EX_HDR_RESPONSE), 0);
	assert_int_equal(u32_at(c, EX_HDR_PROVIDER_IN_WORDS), 0);
	assert_int_equal(u32_at(c, EX_MODIFY_CQ_CQ_HANDLE), 0x31);
	assert_int_equal(u32_at(c, EX_MODIFY_CQ_ATTR_MASK),
			 IBV_CQ_ATTR_MODERATE);
	assert_int_equal(u32_at(c, EX_MODIFY_CQ_ATTR),
			 16 | 20 << 16); /* count, period */
	assert_int_equal(u32_at(c, EX_MODIFY_CQ_RESERVED), 0);
	attr.attr_mask = IBV_CQ_ATTR_RESERVED;
	assert_int_equal(ibv_cmd_modify_cq(&cq, &attr, &cmd, sizeof(cmd)),
			 EINVAL);
	assert_int_equal(tk.writes, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_ioctl_bytes),
		T_CASE(test_create_ioctl_minimal),
		T_CASE(test_create_fallback_eprotonosupport),
		T_CASE(test_create_fallback_enotty),
		T_CASE(test_create_fallback_no_cmd),
		T_CASE(test_create_errors_pass_through),
		T_CASE(test_create_ex_flags),
		T_CASE(test_create_ex_write_ex),
		T_CASE(test_create_ex_ts_ignored),
		T_CASE(test_create_ex2_ioctl_bytes),
		T_CASE(test_create_ex2_fallback),
		T_CASE(test_destroy_ioctl_bytes),
		T_CASE(test_destroy_waits_for_acks),
		T_CASE(test_destroy_fallback),
		T_CASE(test_destroy_errors),
		T_CASE(test_poll_bytes_and_decode),
		T_CASE(test_poll_many),
		T_CASE(test_poll_error),
		T_CASE(test_req_notify),
		T_CASE(test_resize),
		T_CASE(test_modify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
