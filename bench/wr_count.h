/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of wr_count share: the two QPs whose work requests it
 * counts, and how they get connected (wr_count_qps.c on rxe: to each
 * other through the port's GID; wr_count_cm.c on siw: through rdma_cm).
 */
#ifndef WR_COUNT_H
#define WR_COUNT_H

#include <stdbool.h>

#include <infiniband/verbs.h>

/* Work requests in flight per round, and the queues' depth. */
#define WRC_DEPTH 64
/* Bytes of every message. */
#define WRC_MSG 64

/*
 * A sends to b. Every object is on one context: the device's, or, on
 * siw, the one rdma_cm opened.
 */
struct wrc {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *buf; /* a's source half, then b's target half */
	size_t buf_len;
	struct ibv_cq *cq_a, *cq_b;
	struct ibv_qp *a, *b;
	struct ibv_qp_init_attr attr; /* the caps both QPs ask for */
	bool events; /* cq_a on a completion channel: wrc_resources() makes it */
	struct ibv_comp_channel *channel;
};

/*
 * PD, buffer, MR and the two CQs on @w->ctx (wr_count_qps.c), and with
 * @w->events cq_a's completion channel.
 */
void wrc_resources(struct wrc *w);

/* On rxe: QPs a and b, each connected to the other through @gid. */
void wrc_connect_gid(struct wrc *w, const union ibv_gid *gid, int gid_index);

/* On @dev (siw0): both QPs, connected through rdma_cm, at @addr. */
void wrc_connect_cm(struct wrc *w, const char *dev, const char *addr);

#endif
