// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of completion queues and completion channels.
 */
#include <errno.h>
#include <fcntl.h>

#include "verbs_diff.h"

static struct ibv_cq *t_cq_step(struct t_st *st, int cqe,
				struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq;

	t_need(ibv_create_cq);
	errno = 0;
	cq = lib.ibv_create_cq(st->ctx, cqe, NULL, ch, 0);
	if (t_ptr("ret", cq))
		t_out("cqe=%d channel-matches=%d", cq->cqe, cq->channel == ch);
	return cq;
}

static void s_cq_create1(struct t_st *st)
{
	t_cq_step(st, 1, NULL);
}

static void s_cq_create_max(struct t_st *st)
{
	t_cq_step(st, st->attr.max_cqe, NULL);
}

static void s_cq_create_too_big(struct t_st *st)
{
	t_cq_step(st, st->attr.max_cqe + 1, NULL);
}

static void s_cq_create_zero(struct t_st *st)
{
	t_cq_step(st, 0, NULL);
}

static void s_cq_create_channel(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	t_cq_step(st, 4, ch);
}

static void s_cq_resize(struct t_st *st)
{
	t_need(ibv_resize_cq);
	errno = 0;
	t_rc("ret", lib.ibv_resize_cq(st->cq, 64));
	t_out("cqe>=64=%d", st->cq->cqe >= 64);
}

static void s_cq_resize_too_big(struct t_st *st)
{
	t_need(ibv_resize_cq);
	errno = 0;
	t_rc("ret", lib.ibv_resize_cq(st->cq, st->attr.max_cqe + 1));
}

static void s_cq_req_notify(struct t_st *st)
{
	errno = 0;
	t_rc("ret", ibv_req_notify_cq(st->cq, 0));
	errno = 0;
	t_rc("solicited", ibv_req_notify_cq(st->cq, 1));
}

static void s_cq_poll_empty(struct t_st *st)
{
	struct ibv_wc wc[4];

	errno = 0;
	t_num("ret", ibv_poll_cq(st->cq, 4, wc));
}

static void s_cq_destroy(struct t_st *st)
{
	t_need(ibv_destroy_cq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_cq(st->cq));
}

/* A CQ in use by a QP cannot go: EBUSY. */
static void s_cq_destroy_busy(struct t_st *st)
{
	t_qp(st, IBV_QPT_RC, 4, true);
	t_need(ibv_destroy_cq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_cq(st->cq));
}

static void t_cq_ex_step(struct t_st *st, uint64_t wc_flags, uint32_t comp_mask)
{
	struct ibv_cq_init_attr_ex ia = {
		.cqe = 8,
		.wc_flags = wc_flags,
		.comp_mask = comp_mask,
	};
	struct ibv_cq_ex *cq;

	errno = 0;
	cq = ibv_create_cq_ex(st->ctx, &ia);
	if (t_ptr("ret", cq))
		t_out("cqe>=8=%d", ibv_cq_ex_to_cq(cq)->cqe >= 8);
}

static void s_cq_ex_standard(struct t_st *st)
{
	t_cq_ex_step(st, IBV_WC_STANDARD_FLAGS, 0);
}

static void s_cq_ex_timestamp(struct t_st *st)
{
	t_cq_ex_step(st, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0);
}

static void s_cq_ex_bad_flags(struct t_st *st)
{
	t_cq_ex_step(st, 1ull << 40, 0);
}

static void s_cq_ex_bad_mask(struct t_st *st)
{
	t_cq_ex_step(st, 0, 1u << 31);
}

static void s_chan_create_destroy(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	t_need(ibv_destroy_comp_channel);
	errno = 0;
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!t_ptr("ret", ch))
		return;
	t_out("fd>=0=%d refcnt=%d", ch->fd >= 0, ch->refcnt);
	errno = 0;
	t_rc("destroy", lib.ibv_destroy_comp_channel(ch));
}

/* A channel with a CQ on it cannot go: EBUSY. */
static void s_chan_destroy_busy(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	t_need(ibv_destroy_comp_channel);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	if (!lib.ibv_create_cq(st->ctx, 4, NULL, ch, 0))
		t_setup_failed("create_cq");
	errno = 0;
	t_rc("ret", lib.ibv_destroy_comp_channel(ch));
}

static void s_chan_nonblock(struct t_st *st)
{
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	void *cq_ctx;
	int fl;

	t_need(ibv_create_comp_channel);
	t_need(ibv_get_cq_event);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	fl = fcntl(ch->fd, F_GETFL);
	if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK) < 0)
		t_setup_failed("fcntl");
	errno = 0;
	t_num("ret", lib.ibv_get_cq_event(ch, &cq, &cq_ctx));
}

static const struct t_step cq_steps[] = {
	{ "cq.create.1", T_CTX, s_cq_create1 },
	{ "cq.create.max", T_CTX, s_cq_create_max },
	{ "cq.create.too_big", T_CTX, s_cq_create_too_big },
	{ "cq.create.0", T_CTX, s_cq_create_zero },
	{ "cq.create.channel", T_CTX, s_cq_create_channel },
	{ "cq.resize", T_CQ, s_cq_resize },
	{ "cq.resize.too_big", T_CQ, s_cq_resize_too_big },
	{ "cq.req_notify", T_CQ, s_cq_req_notify },
	{ "cq.poll.empty", T_CQ, s_cq_poll_empty },
	{ "cq.destroy", T_CQ, s_cq_destroy },
	{ "cq.destroy.busy", T_CQ, s_cq_destroy_busy },
	{ "cq.create_ex.standard", T_CTX, s_cq_ex_standard },
	{ "cq.create_ex.timestamp", T_CTX, s_cq_ex_timestamp },
	{ "cq.create_ex.bad_flags", T_CTX, s_cq_ex_bad_flags },
	{ "cq.create_ex.bad_mask", T_CTX, s_cq_ex_bad_mask },
	{ "chan.create_destroy", T_CTX, s_chan_create_destroy },
	{ "chan.destroy.busy", T_CTX, s_chan_destroy_busy },
	{ "chan.get_event.nonblock", T_CTX, s_chan_nonblock },
};

const struct t_steps t_cq_steps = T_STEPS(cq_steps);
