// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The flow family tests' fixture (t_flow.h): the fake kernel's answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "t_flow.h"

struct t_flow_kernel fk;

static void t_put_u32(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	if (a)
		memcpy((void *)(uintptr_t)a->data, &v, sizeof(v));
}

/* A write-format command's response, for the write() path and tunnel. */
static void t_write_resp(uint32_t cmd, void *resp, size_t len)
{
	uint32_t r[6] = { 0 };

	switch (cmd & ~T_EX) {
	case IB_USER_VERBS_EX_CMD_CREATE_FLOW:
		r[1] = T_HANDLE; /* comp_mask, flow_handle */
		break;
	case IB_USER_VERBS_EX_CMD_CREATE_WQ:
		/* comp_mask, response_length, handle, max_wr, max_sge, wqn */
		r[1] = 24;
		r[2] = T_HANDLE;
		r[3] = 64;
		r[4] = 3;
		r[5] = 0x123;
		break;
	case IB_USER_VERBS_EX_CMD_DESTROY_WQ:
		r[1] = 16;
		r[2] = fk.events;
		break;
	case IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL:
		r[1] = fk.resp_len_override ? fk.resp_len_override : 16;
		r[2] = T_HANDLE;
		r[3] = 0x99;
		break;
	}
	memcpy(resp, r, len < sizeof(r) ? len : sizeof(r));
}

/* The tunnel answers as write() would. */
static void t_invoke_write(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *out = t_attr(h, UVERBS_ATTR_CORE_OUT);

	if (out && out->len)
		t_write_resp(t_attr(h, UVERBS_ATTR_WRITE_CMD)->data,
			     (void *)(uintptr_t)out->data, out->len);
}

/* What a kernel writes back for the methods of this family. */
static void t_outputs(struct ib_uverbs_ioctl_hdr *h)
{
	if (h->object_id == UVERBS_OBJECT_DEVICE) {
		t_invoke_write(h);
		return;
	}
	if (h->object_id == UVERBS_OBJECT_WQ &&
	    h->method_id == UVERBS_METHOD_WQ_DESTROY) {
		t_put_u32(h, UVERBS_ATTR_DESTROY_WQ_RESP, fk.events);
		return;
	}
	if (h->object_id == UVERBS_OBJECT_WQ) {
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, 32);
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, 2);
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, 0x456);
	}
	/* Attribute 0 of every create here is the new object's handle. */
	if (h->method_id == 0 && h->attrs[0].attr_id == 0)
		h->attrs[0].data = T_HANDLE;
}

static int t_write_answer(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t resp;

	(void)len;
	if (err)
		return err;
	memcpy(&resp, (const uint8_t *)buf + EX_HDR_RESPONSE, 8);
	if (resp && (h->command & T_EX))
		t_write_resp(h->command, (void *)(uintptr_t)resp,
			     8 * (size_t)h->out_words);
	return 0;
}

/* The kernel has every method, the tunnel included. */
int t_setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.tunnel = true;
	tk.on_ioctl = t_outputs;
	tk.on_write = t_write_answer;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

uint64_t t_resp_ptr(unsigned int i)
{
	uint64_t v;

	memcpy(&v, tk.log[i].bytes + CMD_RESPONSE, 8);
	return v;
}
