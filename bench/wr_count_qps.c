// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The two QPs of wr_count, and of verb_count's completion events, with
 * what they need: PD, buffer, MR, CQs (wrc_resources(), which
 * wr_count_cm.c calls on siw), and on rxe their connection to each other
 * through a GID of the port. See wr_count.h.
 */
#include <stdlib.h>

#include "bench_util.h"
#include "rc_connect.h"
#include "wr_count.h"

void wrc_resources(struct wrc *w)
{
	w->pd = ibv_alloc_pd(w->ctx);
	if (!w->pd)
		die("ibv_alloc_pd failed");
	w->buf_len = 2 * WRC_MSG;
	w->buf = calloc(1, w->buf_len);
	if (!w->buf)
		die("out of memory");
	w->mr = ibv_reg_mr(w->pd, w->buf, w->buf_len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!w->mr)
		die("ibv_reg_mr failed");
	if (w->events) {
		w->channel = ibv_create_comp_channel(w->ctx);
		if (!w->channel)
			die("ibv_create_comp_channel failed");
	}
	w->cq_a = ibv_create_cq(w->ctx, 2 * WRC_DEPTH, NULL, w->channel, 0);
	w->cq_b = ibv_create_cq(w->ctx, 2 * WRC_DEPTH, NULL, NULL, 0);
	if (!w->cq_a || !w->cq_b)
		die("ibv_create_cq failed");
}

static struct ibv_qp *rc_qp(struct wrc *w, struct ibv_cq *cq)
{
	struct ibv_qp *qp;

	w->attr.send_cq = w->attr.recv_cq = cq;
	qp = ibv_create_qp(w->pd, &w->attr);
	if (!qp)
		die("ibv_create_qp failed");
	return qp;
}

void wrc_connect_gid(struct wrc *w, const union ibv_gid *gid, int gid_index)
{
	const char *failed = "";

	w->a = rc_qp(w, w->cq_a);
	w->b = rc_qp(w, w->cq_b);
	if (rc_connect(ibv_modify_qp, w->a, gid, gid_index, w->b->qp_num,
		       &failed) ||
	    rc_connect(ibv_modify_qp, w->b, gid, gid_index, w->a->qp_num,
		       &failed))
		die("%s failed", failed);
}
