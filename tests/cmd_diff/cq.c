// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the CQ family's commands.
 */
#include <errno.h>
#include <stddef.h>

#include "kernel-headers/uverbs_ids.h"
#include "t_diff.h"

static void note_cq(const struct ibv_cq *cq)
{
	t_uv_dump("cq", cq, offsetof(struct ibv_cq, mutex));
	t_uv_note("cq comp_events=%u async_events=%u",
		  cq->comp_events_completed, cq->async_events_completed);
}

static void case_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

TDRV_CMD(create_cq, ibv_create_cq);
TDRV_RESP(create_cq, ib_uverbs_create_cq_resp);

/* A stale request, a channel and a vector; or no request at all. */
static void create_cq(struct ibv_context *ctx, struct ibv_comp_channel *ch,
		      bool with_cmd)
{
	struct tdrv_create_cq cmd;
	struct tdrv_create_cq_resp resp;
	struct ibv_cq cq;
	int ret;

	T_DIFF_CMD(cmd);
	memset(&cq, 0, sizeof(cq));
	t_uv_name("cq", &cq, sizeof(cq));
	t_diff_resp("create_cq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_cq(ctx, 100, ch, 2, &cq,
				with_cmd ? &cmd.ibv_cmd : NULL,
				with_cmd ? sizeof(cmd) : 0, &resp.ibv_resp,
				sizeof(resp));
	t_uv_note("create_cq ret=%d errno=%d", ret, ret ? errno : 0);
	t_diff_resp_done("create_cq_resp", &resp, sizeof(resp));
	note_cq(&cq);
	if (!ret)
		T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
	t_uv_unname(&cq);
}

static void case_cq_channel(struct ibv_context *ctx)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);

	if (!ch) {
		t_uv_note("create_comp_channel errno=%d", errno);
		return;
	}
	t_uv_note("channel fd=%d refcnt=%d", ch->fd, ch->refcnt);
	create_cq(ctx, ch, true);
	create_cq(ctx, NULL, true);
	create_cq(ctx, NULL, false);
	t_uv.next_err = EINVAL;
	create_cq(ctx, ch, true);
	t_uv_note("channel refcnt=%d", ch->refcnt);
	T_NOTE_RET("destroy_comp_channel", ibv_destroy_comp_channel(ch));
}

TDRV_CMD(create_cq_ex, ibv_create_cq_ex);
TDRV_RESP(create_cq_ex, ib_uverbs_ex_create_cq_resp);

/*
 * One extended create from a stale attr: @mask in comp_mask, @flags in
 * flags (counted only with IBV_CQ_INIT_ATTR_MASK_FLAGS), @wc in wc_flags.
 */
static void create_cq_ex(struct ibv_context *ctx, uint32_t mask, uint32_t flags,
			 uint64_t wc, uint32_t cmd_flags)
{
	struct tdrv_create_cq_ex cmd;
	struct tdrv_create_cq_ex_resp resp;
	struct ibv_cq_init_attr_ex attr;
	struct verbs_cq cq;
	int ret;

	T_DIFF_CMD(cmd);
	memset(&cq, 0, sizeof(cq));
	t_diff_stale(&attr, sizeof(attr));
	attr.cqe = 50;
	attr.cq_context = NULL;
	attr.channel = NULL;
	attr.comp_vector = 1;
	attr.wc_flags = wc;
	attr.comp_mask = mask;
	attr.flags = flags;
	t_uv_name("cq", &cq, sizeof(cq));
	t_diff_resp("create_cq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_create_cq_ex(ctx, &attr, NULL, &cq, &cmd.ibv_cmd,
				   sizeof(cmd), &resp.ibv_resp, sizeof(resp),
				   cmd_flags);
	t_uv_note("create_cq_ex ret=%d", ret);
	t_diff_resp_done("create_cq_resp", &resp, sizeof(resp));
	note_cq(&cq.cq);
	if (!ret)
		T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq.cq));
	t_uv_unname(&cq);
}

static void case_cq_ex_masks(struct ibv_context *ctx)
{
	create_cq_ex(ctx, 0, 0, 0, 0);
	/* Stale flags without their comp_mask bit. */
	create_cq_ex(ctx, 0, IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN, 0, 0);
	create_cq_ex(ctx, IBV_CQ_INIT_ATTR_MASK_FLAGS,
		     IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN, 0, 0);
	create_cq_ex(ctx, IBV_CQ_INIT_ATTR_MASK_FLAGS,
		     IBV_CREATE_CQ_ATTR_SINGLE_THREADED, 0, 0);
	create_cq_ex(ctx, IBV_CQ_INIT_ATTR_MASK_FLAGS, 0xa5a5a5a5, 0, 0);
	create_cq_ex(ctx, IBV_CQ_INIT_ATTR_MASK_PD, 0, 0, 0);
	create_cq_ex(ctx, 1 << 2, 0, 0, 0);
	create_cq_ex(ctx, 0xa5a5a5a5, 0, 0, 0);
}

static void case_cq_ex_timestamp(struct ibv_context *ctx)
{
	create_cq_ex(ctx, 0, 0, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0);
	create_cq_ex(ctx, 0, 0, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
		     CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX);
	create_cq_ex(ctx, 0, 0, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
		     0);
	create_cq_ex(ctx, IBV_CQ_INIT_ATTR_MASK_FLAGS,
		     IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN,
		     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
		     CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX);
	create_cq_ex(ctx, 0, 0,
		     IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
			     IBV_WC_EX_WITH_QP_NUM,
		     0);
	t_uv.next_err = ENOMEM;
	create_cq_ex(ctx, 0, 0, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0);
}

/*
 * ibv_cmd_create_cq_ex2() with the provider's attributes of @kind linked
 * into CQ_CREATE, from a stale attr as create_cq_ex() above. The program
 * finds the function at run time: the reference may lack it.
 */
#if VERBS_PROVIDER_ABI < 65
/* The signature of provider ABI 34, without the queue's buffer. */
typedef __typeof__(verbs_abi34_cmd_create_cq_ex2) cq_ex2_fn;
#define CALL_CQ_EX2(fn, ctx, attr, ...) fn(ctx, attr, __VA_ARGS__)
#else
typedef __typeof__(ibv_cmd_create_cq_ex2) cq_ex2_fn;
#define CALL_CQ_EX2(fn, ctx, attr, ...) fn(ctx, attr, NULL, __VA_ARGS__)
#endif

static void create_cq_ex2_drv(struct ibv_context *ctx, const char *what,
			      struct ibv_command_buffer *drv, uint32_t mask,
			      uint32_t flags)
{
	cq_ex2_fn *fn = t_diff_pabi_sym("ibv_cmd_create_cq_ex2");
	struct tdrv_create_cq_ex cmd;
	struct tdrv_create_cq_ex_resp resp;
	struct ibv_cq_init_attr_ex attr;
	struct verbs_cq cq;
	int ret;

	if (!fn) {
		t_uv_note("no ibv_cmd_create_cq_ex2 here");
		return;
	}
	T_DIFF_CMD(cmd);
	memset(&cq, 0, sizeof(cq));
	t_diff_stale(&attr, sizeof(attr));
	attr.cqe = 50;
	attr.cq_context = NULL;
	attr.channel = NULL;
	attr.comp_vector = 1;
	attr.wc_flags = 0;
	attr.comp_mask = mask;
	attr.flags = flags;
	t_uv_name("cq", &cq, sizeof(cq));
	t_diff_resp("create_cq_resp", &resp, sizeof(resp));
	errno = 0;
	ret = CALL_CQ_EX2(fn, ctx, &attr, &cq, &cmd.ibv_cmd, sizeof(cmd),
			  &resp.ibv_resp, sizeof(resp), 0, drv);
	t_uv_note("create_cq_ex2(%s) ret=%d errno=%d", what, ret,
		  ret ? errno : 0);
	t_diff_resp_done("create_cq_resp", &resp, sizeof(resp));
	note_cq(&cq.cq);
	if (!ret)
		T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq.cq));
	t_uv_unname(&cq);
}

static void create_cq_ex2(struct ibv_context *ctx, enum t_diff_drv kind,
			  uint32_t mask, uint32_t flags)
{
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			       1);

	create_cq_ex2_drv(ctx, t_diff_drv_name(kind), t_diff_driver(drv, kind),
			  mask, flags);
}

/*
 * Each kind of driver attribute: alone; with a flag only the extended
 * write() carries (what a kernel without the ioctl method gets); with a
 * comp_mask bit no kernel knows (refused unsent); failed by the kernel.
 */
static void case_cq_ex2_driver(struct ibv_context *ctx)
{
	for (enum t_diff_drv k = T_DRV_NONE; k <= T_DRV_MANDATORY; k++) {
		create_cq_ex2(ctx, k, 0, 0);
		create_cq_ex2(ctx, k, IBV_CQ_INIT_ATTR_MASK_FLAGS,
			      IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN);
		create_cq_ex2(ctx, k, 1 << 2, 0);
		t_uv.next_err = ENOMEM;
		create_cq_ex2(ctx, k, 0, 0);
		/* Left over where the create was refused unsent. */
		t_uv.next_err = 0;
	}
}

/*
 * The queue in a buffer of ibv_alloc_buf(), described by the provider
 * with fill_attr_in_buf_umem(): @dmabuf_fd -1 (plain memory) adds no
 * attribute and keeps the write() fallback; a dma-buf adds its range as
 * the CQ's BUF_UMEM and makes the command ioctl only.
 */
static void create_cq_in_buf(struct ibv_context *ctx, int dmabuf_fd, size_t off,
			     size_t len)
{
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			       1);
	static char mem[8192];
	struct ib_uverbs_buffer_desc desc;
	struct ibv_buf buf;

	ibv_buf_init_dmabuf(&buf, NULL, mem, sizeof(mem), dmabuf_fd);
	t_diff_stale(&desc, sizeof(desc));
	t_uv_name("umem_desc", &desc, sizeof(desc));
	fill_attr_in_buf_umem(drv, KABI_UVERBS_ATTR_CREATE_CQ_BUF_UMEM, &desc,
			      &buf, off ? mem + off : NULL, len);
	t_uv_note("buf fd=%d off=%zu len=%zu: attrs=%u ioctl_only=%u",
		  dmabuf_fd, off, len,
		  (unsigned int)(drv->next_attr - drv->hdr.attrs),
		  drv->fallback_ioctl_only);
	create_cq_ex2_drv(ctx, "buf_umem", drv, 0, 0);
	t_uv_unname(&desc);
}

static void case_cq_ex2_buf_umem(struct ibv_context *ctx)
{
	create_cq_in_buf(ctx, -1, 0, 0);
	create_cq_in_buf(ctx, 77, 0, 0);
	create_cq_in_buf(ctx, 77, 4096, 64);
	t_uv.next_err = ENOMEM;
	create_cq_in_buf(ctx, 77, 0, 0);
	t_uv.next_err = 0;
}

static void poll(struct ibv_cq *cq, int ne)
{
	struct ibv_wc wc[40];
	int n;

	t_diff_stale(wc, sizeof(wc));
	n = ibv_cmd_poll_cq(cq, ne, wc);
	t_uv_note("poll_cq(%d) = %d errno=%d", ne, n, n < 0 ? errno : 0);
	for (int i = 0; i < 3 && i < ne; i++)
		t_uv_dump("wc", &wc[i], sizeof(wc[i]));
}

static void case_poll_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	poll(&cq, 1);
	poll(&cq, 3);
	poll(&cq, 0);
	poll(&cq, 32);
	t_uv.next_err = EINVAL;
	poll(&cq, 2);
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

/* More than the 32 completions we ask the kernel for at a time. */
static void case_poll_cq_chunks(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	poll(&cq, 33);
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

static void case_req_notify_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	T_NOTE_RET("req_notify_cq 0", ibv_cmd_req_notify_cq(&cq, 0));
	T_NOTE_RET("req_notify_cq 1", ibv_cmd_req_notify_cq(&cq, 1));
	T_NOTE_RET("req_notify_cq 5", ibv_cmd_req_notify_cq(&cq, 5));
	t_uv.next_err = EINVAL;
	T_NOTE_RET("req_notify_cq fails", ibv_cmd_req_notify_cq(&cq, 0));
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

TDRV_CMD(resize_cq, ibv_resize_cq);
TDRV_RESP(resize_cq, ib_uverbs_resize_cq_resp);

static void resize(struct ibv_cq *cq, int cqe)
{
	struct tdrv_resize_cq cmd;
	struct tdrv_resize_cq_resp resp;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_resp("resize_cq_resp", &resp, sizeof(resp));
	ret = ibv_cmd_resize_cq(cq, cqe, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("resize_cq", ret);
	t_diff_resp_done("resize_cq_resp", &resp, sizeof(resp));
	t_uv_note("cq cqe=%d", cq->cqe);
}

static void case_resize_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	resize(&cq, 256);
	t_uv.next_err = EINVAL;
	resize(&cq, 1 << 20);
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

TDRV_CMD(modify_cq, ibv_modify_cq);

static void modify(struct ibv_cq *cq, uint32_t mask)
{
	struct tdrv_modify_cq cmd;
	struct ibv_modify_cq_attr attr;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	attr.attr_mask = mask;
	if (mask & IBV_CQ_ATTR_MODERATE) {
		attr.moderate.cq_count = 16;
		attr.moderate.cq_period = 100;
	}
	t_uv_note("modify_cq(%x) ret=%d", mask,
		  ibv_cmd_modify_cq(cq, &attr, &cmd.ibv_cmd, sizeof(cmd)));
}

static void case_modify_cq(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	modify(&cq, IBV_CQ_ATTR_MODERATE);
	modify(&cq, 0);
	modify(&cq, IBV_CQ_ATTR_RESERVED);
	modify(&cq, IBV_CQ_ATTR_MODERATE | IBV_CQ_ATTR_RESERVED);
	t_uv.next_err = EOPNOTSUPP;
	modify(&cq, IBV_CQ_ATTR_MODERATE);
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
}

static void case_destroy_cq_fails(struct ibv_context *ctx)
{
	struct ibv_cq cq;

	if (t_diff_cq(ctx, &cq))
		return;
	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_cq", ibv_cmd_destroy_cq(&cq));
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_cq EIO", ibv_cmd_destroy_cq(&cq));
	verbs_allow_disassociate_destroy = true;
	t_uv.next_err = EIO;
	T_NOTE_RET("destroy_cq EIO allowed", ibv_cmd_destroy_cq(&cq));
	verbs_allow_disassociate_destroy = false;
	note_cq(&cq);
}

T_CASE_SET(t_cases_cq, T_CASE(cq), T_CASE(cq_channel), T_CASE(cq_ex_masks),
	   T_CASE(cq_ex_timestamp),
	   T_CASE_IF(cq_ex2_driver, t_diff_need_cq_ex2),
	   T_CASE_IF(cq_ex2_buf_umem, t_diff_need_cq_ex2), T_CASE(poll_cq),
	   T_CASE(poll_cq_chunks), T_CASE(req_notify_cq), T_CASE(resize_cq),
	   T_CASE(modify_cq), T_CASE(destroy_cq_fails));
