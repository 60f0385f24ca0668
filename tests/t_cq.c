// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CQ tests' fixture (t_cq.h): the fake kernel's answers to the CQ
 * family and the fake provider ops.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>

#include "t_cq.h"

struct t_cq_kernel fk;
struct t_cq_prov prov;

/* A successful CQ method: a handle and a size, or the event counts. */
static void t_cq_outputs(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *a;
	uint32_t cqe = 128;

	if (h->method_id == UVERBS_METHOD_CQ_CREATE) {
		t_attr(h, UVERBS_ATTR_CREATE_CQ_HANDLE)->data = T_HANDLE;
		a = t_attr(h, UVERBS_ATTR_CREATE_CQ_RESP_CQE);
		memcpy((void *)(uintptr_t)a->data, &cqe, sizeof(cqe));
		return;
	}
	a = t_attr(h, UVERBS_ATTR_DESTROY_CQ_RESP);
	((struct ib_uverbs_destroy_cq_resp *)(uintptr_t)a->data)[0] =
		(struct ib_uverbs_destroy_cq_resp){
			.comp_events_reported = fk.comp_reported,
			.async_events_reported = fk.async_reported,
		};
}

static void *t_resp_ptr(const void *buf, size_t off)
{
	uint64_t p;

	memcpy(&p, (const uint8_t *)buf + off, sizeof(p));
	return (void *)(uintptr_t)p;
}

/* POLL_CQ: up to ne completions, each field a distinct value. */
static void t_poll(const struct ibv_poll_cq *req)
{
	struct ib_uverbs_poll_cq_resp *resp = t_resp_ptr(req, CMD_RESPONSE);
	uint32_t n = req->ne < fk.poll_avail ? req->ne : fk.poll_avail;

	fk.poll_avail -= n;
	resp->count = n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = fk.wr_seq++;

		resp->wc[i] = (struct ib_uverbs_wc){
			.wr_id = 1000 + s,
			.status = 1,
			.opcode = 2,
			.vendor_err = 3,
			.byte_len = 4 + s,
			.ex.imm_data = 0x01020304,
			.qp_num = 5,
			.src_qp = 6,
			.wc_flags = 7,
			.pkey_index = 8,
			.slid = 9,
			.sl = 10,
			.dlid_path_bits = 11,
			.port_num = 12,
		};
	}
}

/* What the kernel writes back for each write-format command. */
static void t_write_outputs(const void *buf)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	struct ib_uverbs_ex_create_cq_resp *ex;

	switch (h->command) {
	case IB_USER_VERBS_CMD_CREATE_CQ:
		*(struct ib_uverbs_create_cq_resp *)t_resp_ptr(
			buf, CMD_RESPONSE) = (struct ib_uverbs_create_cq_resp){
			.cq_handle = T_WRITE_HANDLE, .cqe = 64
		};
		break;
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ:
		ex = t_resp_ptr(buf, CMD_RESPONSE);
		ex->base.cq_handle = T_WRITE_HANDLE + 1;
		ex->base.cqe = 256;
		break;
	case IB_USER_VERBS_CMD_DESTROY_CQ:
		*(struct ib_uverbs_destroy_cq_resp *)t_resp_ptr(buf,
								CMD_RESPONSE) =
			(struct ib_uverbs_destroy_cq_resp){ fk.comp_reported,
							    fk.async_reported };
		break;
	case IB_USER_VERBS_CMD_RESIZE_CQ:
		((struct ib_uverbs_resize_cq_resp *)t_resp_ptr(buf,
							       CMD_RESPONSE))
			->cqe = 500;
		break;
	case IB_USER_VERBS_CMD_POLL_CQ:
		t_poll(buf);
		break;
	case IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL:
		((struct ib_uverbs_create_comp_channel_resp *)t_resp_ptr(
			 buf, CMD_RESPONSE))
			->fd = fk.channel_fd;
		break;
	}
}

static int t_write_answer(const void *buf, size_t len, int err)
{
	(void)len;
	if (!err)
		t_write_outputs(buf);
	return err;
}

/*
 * The kernel refuses INVOKE_WRITE; only CQ ioctls are logged and
 * counted, so the tunnel's probe stays out of the cases' counts.
 */
int t_setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	fk.channel_fd = -1;
	t_kernel_reset();
	tk.refuse_method = T_ANY_METHOD;
	tk.log_object = UVERBS_OBJECT_CQ;
	tk.on_ioctl = t_cq_outputs;
	tk.on_write = t_write_answer;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

/* The last call the fake kernel logged. */
struct t_call *t_last(void)
{
	assert_true(tk.ncalls > 0);
	return &tk.log[tk.ncalls - 1];
}

uint32_t u32_at(const struct t_call *c, size_t off)
{
	uint32_t v;

	memcpy(&v, c->bytes + off, sizeof(v));
	return v;
}

uint64_t u64_at(const struct t_call *c, size_t off)
{
	uint64_t v;

	memcpy(&v, c->bytes + off, sizeof(v));
	return v;
}

void t_init_cq(struct ibv_context *ctx, struct ibv_cq *cq)
{
	*cq = (struct ibv_cq){ .handle = 0x31 };
	verbs_init_cq(cq, ctx, NULL, NULL);
}

static struct ibv_cq *p_create_cq(struct ibv_context *ctx, int cqe,
				  struct ibv_comp_channel *ch, int vec)
{
	(void)ctx;
	(void)ch;
	prov.calls++;
	assert_int_equal(cqe, 10);
	assert_int_equal(vec, 3);
	if (prov.fail) {
		errno = ENOMEM;
		return NULL;
	}
	memset(&prov.cq, 0xee, sizeof(prov.cq));
	return &prov.cq;
}

static struct ibv_cq_ex *p_create_cq_ex(struct ibv_context *ctx,
					struct ibv_cq_init_attr_ex *attr)
{
	(void)ctx;
	(void)attr;
	prov.calls++;
	memset(&prov.vcq, 0xee, sizeof(prov.vcq));
	return &prov.vcq.cq_ex;
}

static int p_destroy_cq(struct ibv_cq *cq)
{
	prov.calls++;
	prov.last_cq = cq;
	return prov.ret;
}

static int p_resize_cq(struct ibv_cq *cq, int cqe)
{
	prov.calls++;
	prov.last_cq = cq;
	return cqe == 77 ? prov.ret : -1;
}

static void p_cq_event(struct ibv_cq *cq)
{
	prov.cq_events++;
	prov.last_cq = cq;
}

static void p_async_event(struct ibv_context *ctx, struct ibv_async_event *ev)
{
	(void)ctx;
	prov.async_events++;
	prov.last_event = *ev;
}

static const struct verbs_context_ops p_ops = {
	.create_cq = p_create_cq,
	.create_cq_ex = p_create_cq_ex,
	.destroy_cq = p_destroy_cq,
	.resize_cq = p_resize_cq,
	.cq_event = p_cq_event,
	.async_event = p_async_event,
};

int t_setup_ops(void **state)
{
	t_setup(state);
	memset(&prov, 0, sizeof(prov));
	verbs_set_ops(verbs_get_ctx(*state), &p_ops);
	return 0;
}
