// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: a SEND posted on a QP that rdma_cm has
 * created but not yet connected, the race every rdma_cm user can hit.
 * rdma_rxe refuses the POST_SEND doorbell below RTS (EINVAL). The right
 * answers: the post fails with bad_wr on the request and the request
 * never goes on the wire, or the post succeeds and the request is
 * delivered exactly once. A SEND with other bytes, posted after the
 * connection is established, tells which of the two the provider did.
 *
 * Both ends live in this process on rxe0's address (IBV_VM_RXE_ADDR),
 * connected by siw_cm.c, which knows nothing of siw but its name. Its
 * context and PD are librdmacm's, not C.ctx's: the same librxe serves
 * both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rxe_conf.h"
#include "siw_cm.h"

enum { MSG = 64, RECVS = 4 };

struct cm_rig {
	struct cm_base b;
	struct cm_pair p;
	struct ibv_cq *ccq, *scq;
	struct ibv_mr *mr;
	uint8_t *buf; /* 2 messages to send, then RECVS to receive */
	struct ibv_qp_init_attr ca, sa;
};

/* The passive side's receives, posted before it accepts. */
static void cm_recvs(struct ibv_qp *qp, void *arg)
{
	struct cm_rig *r = arg;

	for (int i = 0; i < RECVS; i++) {
		struct ibv_sge sge = { (uintptr_t)r->buf + (2 + i) * MSG, MSG,
				       r->mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = 0xb0 + (uint64_t)i,
					  .sg_list = &sge,
					  .num_sge = 1 };
		struct ibv_recv_wr *bad;

		ibv_post_recv(qp, &wr, &bad);
	}
}

static int cm_rig_make(struct cm_rig *r, const char *addr)
{
	if (cm_base_init(&r->b, addr, 7472))
		return -1;
	r->ccq = ibv_create_cq(r->b.ctx, 16, NULL, NULL, 0);
	r->scq = ibv_create_cq(r->b.ctx, 16, NULL, NULL, 0);
	r->buf = calloc(2 + RECVS, MSG);
	if (!r->ccq || !r->scq || !r->buf)
		return -1;
	memset(r->buf, 'A', MSG);
	memset(r->buf + MSG, 'B', MSG);
	r->mr = ibv_reg_mr(r->b.pd, r->buf, (2 + RECVS) * MSG,
			   IBV_ACCESS_LOCAL_WRITE);
	r->ca = (struct ibv_qp_init_attr){
		.send_cq = r->ccq,
		.recv_cq = r->ccq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16,
			 .max_recv_wr = 16,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	r->sa = r->ca;
	r->sa.send_cq = r->sa.recv_cq = r->scq;
	r->p.before_accept = cm_recvs;
	r->p.arg = r;
	return r->mr ? 0 : -1;
}

static void cm_rig_free(struct cm_rig *r)
{
	cm_pair_destroy(&r->p);
	if (r->mr)
		ibv_dereg_mr(r->mr);
	free(r->buf);
	if (r->ccq)
		ibv_destroy_cq(r->ccq);
	if (r->scq)
		ibv_destroy_cq(r->scq);
	cm_base_fini(&r->b);
}

/* Where a post left bad_wr: set by the caller to a sentinel first. */
enum bad_at { BAD_WR, BAD_NULL, BAD_UNTOUCHED, BAD_ELSEWHERE };

static const char *const bad_names[] = {
	[BAD_WR] = "the WR",
	[BAD_NULL] = "NULL",
	[BAD_UNTOUCHED] = "untouched",
	[BAD_ELSEWHERE] = "elsewhere",
};

/* A signalled SEND of message @i ('A' or 'B'), wr_id 0xa0 + @i. */
static int cm_send(struct cm_rig *r, int i, enum bad_at *at)
{
	struct ibv_sge sge = { (uintptr_t)r->buf + i * MSG, MSG, r->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 0xa0 + (uint64_t)i,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr sentinel, *bad = &sentinel;
	int ret = ibv_post_send(r->p.c, &wr, &bad);

	*at = bad == &wr       ? BAD_WR :
	      !bad	       ? BAD_NULL :
	      bad == &sentinel ? BAD_UNTOUCHED :
				 BAD_ELSEWHERE;
	return ret;
}

/*
 * What came out within 1 s: the sender's wr_ids in order, as letters
 * ("AB": 0xa0 then 0xa1, each successful), and the messages the
 * receiver took, their first byte each ("AB").
 */
static void cm_collect(struct cm_rig *r, char *sent, char *got)
{
	struct ibv_wc wc[RECVS + 2];
	int n = poll_n(r->ccq, wc, 2, 1000);

	n += poll_n(r->ccq, wc + n, RECVS, 100);
	for (int i = 0; i < n; i++)
		*sent++ = wc[i].status ? '!' : (char)('A' + wc[i].wr_id - 0xa0);
	*sent = 0;
	n = poll_n(r->scq, wc, 2, 1000);
	n += poll_n(r->scq, wc + n, RECVS, 100);
	for (int i = 0; i < n; i++) {
		const uint8_t *p = r->buf + (2 + wc[i].wr_id - 0xb0) * MSG;

		*got++ = wc[i].status || wc[i].byte_len != MSG ? '!' :
								 (char)p[0];
	}
	*got = 0;
}

void conf_cm(void)
{
	const char *addr = getenv("IBV_VM_RXE_ADDR");
	struct cm_rig r = {};
	enum bad_at at;
	char sent[8], got[8];
	const char *want;
	int ret, pre;

	if (!check("cm.setup", addr && !cm_rig_make(&r, addr),
		   "rdma_cm listener, CQs and buffer on rxe0's address"))
		goto out;
	if (!check("cm.prepare", !cm_pair_prepare(&r.b, &r.p, &r.ca),
		   "active QP created, not yet connected"))
		goto out;
	pre = cm_send(&r, 0, &at);
	note("cm.pre_rts.post", "ret %s, bad_wr %s", pre ? strerror(pre) : "0",
	     bad_names[at]);
	if (C.ours) {
		check("cm.pre_rts.post", !pre || at == BAD_WR,
		      "refused with bad_wr on the WR, or accepted "
		      "(Debian's defect pinned)");
	} else {
		/*
		 * Debian's librxe's defect: it has advanced the producer
		 * index before the doorbell fails, and leaves bad_wr NULL;
		 * the element stays in the ring and goes out later.
		 */
		note("cm.pre_rts.post", "Debian's librxe defect: EINVAL "
					"with bad_wr NULL, the WR left in "
					"the ring");
		check("cm.pre_rts.post", pre == EINVAL && at == BAD_NULL,
		      "refused with bad_wr on the WR, or accepted "
		      "(Debian's defect pinned)");
	}
	if (!check("cm.connect", !cm_pair_connect(&r.b, &r.p, &r.sa),
		   "both ends ESTABLISHED"))
		goto out;
	ret = cm_send(&r, 1, &at);
	check("cm.rts.post", !ret, "the SEND after RTS posted");
	cm_collect(&r, sent, got);
	note("cm.rts.sent", "sender completions \"%s\", receiver \"%s\"", sent,
	     got);
	/*
	 * A refused request never goes on the wire: only B. An accepted
	 * one goes exactly once, before B. Debian's librxe sends the
	 * request it reported as failed.
	 */
	want = C.ours && pre ? "B" : "AB";
	if (!C.ours)
		note("cm.rts.sent",
		     "Debian's librxe defect: the WR refused "
		     "before RTS goes out with the next doorbell");
	check("cm.rts.sent", !strcmp(sent, want),
	      "the sender completes what it posted, each once "
	      "(Debian's defect pinned)");
	check("cm.rts.received", !strcmp(got, want),
	      "the receiver takes what was posted, each once, in "
	      "order (Debian's defect pinned)");
out:
	cm_rig_free(&r);
}
