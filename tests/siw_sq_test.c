// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The send and receive queues of our siw provider on the fake siw
 * kernel of t_siw_kernel.h: the elements a post writes into the rings
 * the kernel shares, byte for byte (SGEs, inline data of every length,
 * the flags of each send flag), when the doorbell rings, a full ring,
 * and the refusals explained in the log. Run on our core and, as
 * siw_sq_test_reference, on Debian's.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_siw_kernel.h"

static void qp_queues(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[256], text[80];
	struct ibv_sge sge[3], big = { (uintptr_t)buf, 81, 0 };
	struct ibv_send_wr swr[2], *bad_s;
	struct ibv_recv_wr rwr, *bad_r;
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 2,
			 .max_recv_sge = 2,
			 .max_inline_data = 64 },
	};
	struct t_siw_post refused = {};
	struct ibv_qp *qp;
	char *log;

	qp = t_siw_qp(b, &init);

	/* A receive: the element, then VALID; no command. */
	sge[0] = (struct ibv_sge){ (uintptr_t)buf, 64, 0x2a01 };
	sge[1] = (struct ibv_sge){ (uintptr_t)buf + 64, 32, 0x2a01 };
	rwr = (struct ibv_recv_wr){ .wr_id = 7, .sg_list = sge, .num_sge = 2 };
	t_siw.doorbells = 0;
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), 0);
	assert_int_equal(t_siw.rq[0].flags, SIW_WQE_VALID);
	assert_int_equal(t_siw.rq[0].id, 7);
	assert_int_equal(t_siw.rq[0].num_sge, 2);
	assert_int_equal(t_siw.rq[0].sge[1].laddr, (uintptr_t)buf + 64);
	assert_int_equal(t_siw.rq[0].sge[1].length, 32);
	assert_int_equal(t_siw.rq[0].sge[1].lkey, 0x2a01);
	assert_int_equal(t_siw.doorbells, 0);

	/* A signalled send of two SGEs and an inline write: one doorbell. */
	memset(text, 'x', sizeof(text));
	swr[0] = (struct ibv_send_wr){ .wr_id = 1,
				       .next = &swr[1],
				       .sg_list = sge,
				       .num_sge = 2,
				       .opcode = IBV_WR_SEND,
				       .send_flags = IBV_SEND_SIGNALED };
	sge[1].addr = (uintptr_t)text;
	swr[1] = (struct ibv_send_wr){
		.wr_id = 2,
		.sg_list = &sge[1],
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_INLINE,
		.wr.rdma = { .remote_addr = 0x1000, .rkey = 0x3300 },
	};
	t_siw.doorbell_wrs = 0;
	assert_int_equal(ibv_post_send(qp, swr, &bad_s), 0);
	assert_int_equal(t_siw.doorbells, 1);
	assert_int_equal(t_siw.doorbell_wrs, 0);
	assert_int_equal(t_siw.sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	assert_int_equal(t_siw.sq[0].opcode, SIW_OP_SEND);
	assert_int_equal(t_siw.sq[0].num_sge, 2);
	assert_int_equal(t_siw.sq[0].sge[0].length, 64);
	assert_int_equal(t_siw.sq[1].flags, SIW_WQE_VALID | SIW_WQE_INLINE);
	assert_int_equal(t_siw.sq[1].opcode, SIW_OP_WRITE);
	assert_int_equal(t_siw.sq[1].raddr, 0x1000);
	assert_int_equal(t_siw.sq[1].rkey, 0x3300);
	assert_int_equal(t_siw.sq[1].num_sge, 1);
	assert_int_equal(t_siw.sq[1].sge[0].length, 32);
	assert_memory_equal(&t_siw.sq[1].sge[1], text, 32);

	/*
	 * Over siw's inline room, and an opcode siw lacks: refused, and
	 * explained at VERBS_LOG_LEVEL=3.
	 */
	swr[1].sg_list = &big;
	swr[1].next = NULL;
	refused.qp = qp;
	refused.wr = &swr[1];
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &swr[1]);
	assert_non_null(strstr(log, "81 bytes of inline data"));
	free(log);
	swr[1].opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	swr[1].send_flags = 0;
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "siw has no ATOMIC_FETCH_AND_ADD"));
	free(log);
	swr[1].sg_list = sge;
	/* The kernel reads a READ into sge[0] only and cannot fence one. */
	swr[1].opcode = IBV_WR_RDMA_READ;
	swr[1].send_flags = 0;
	swr[1].num_sge = 2;
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "RDMA_READ with num_sge 2"));
	free(log);
	swr[1].num_sge = 1;
	swr[1].send_flags = IBV_SEND_FENCE;
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "cannot fence an RDMA_READ"));
	free(log);
	assert_int_equal(t_siw.doorbells, 1);

	/*
	 * The kernel granted the 2 SGEs asked for (under siw's 6): a send
	 * or a receive of 3 is refused by the provider, said at level 3.
	 */
	assert_int_equal(init.cap.max_send_sge, 2); /* as answered */
	assert_int_equal(init.cap.max_recv_sge, 2);
	sge[2] = sge[1];
	swr[1] = (struct ibv_send_wr){
		.wr_id = 3, .sg_list = sge, .num_sge = 3, .opcode = IBV_WR_SEND
	};
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &swr[1]);
	assert_non_null(strstr(log, "num_sge 3, the QP takes at most 2"));
	free(log);
	rwr.num_sge = 3;
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), EINVAL);
	assert_ptr_equal(bad_r, &rwr);
	assert_int_equal(t_siw.rq[1].flags, 0);
	rwr.num_sge = 2;
	assert_int_equal(t_siw.doorbells, 1);

	/*
	 * The doorbell refused (ENOTCONN: not in RTS): the call's elements
	 * stay valid, posted, and the call returns 0, saying so at level 3.
	 * The element before them taken, the engine may be idle: the call
	 * rings.
	 */
	t_siw_take(&t_siw.sq[1].flags);
	swr[1] = (struct ibv_send_wr){
		.wr_id = 4, .sg_list = sge, .num_sge = 1, .opcode = IBV_WR_SEND
	};
	swr[0].next = &swr[1];
	t_siw.state = T_SIW_IDLE;
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	t_siw.state = T_SIW_RTS;
	assert_int_equal(t_siw.doorbells, 2);
	assert_int_equal(t_siw.sq[2].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	assert_int_equal(t_siw.sq[2].id, 1);
	assert_int_equal(t_siw.sq[3].flags, SIW_WQE_VALID);
	assert_int_equal(t_siw.sq[3].id, 4);
	assert_true(t_siw_log_has("the doorbell failed"));
	refused.wr = &swr[1];

	/* Round the ring: full until the kernel takes an element. */
	swr[0].next = NULL;
	for (unsigned int i = 4; i < T_NUM_WQE; i++)
		assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	refused.wr = &swr[0];
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, ENOMEM);
	assert_ptr_equal(refused.bad, &swr[0]);
	assert_non_null(strstr(log, "the send queue is full"));
	free(log);
	t_siw_take(&t_siw.sq[0].flags);
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	assert_int_equal(t_siw.sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	/*
	 * The first post round the ring rang the doorbell owed since the
	 * refusal; every post since found the element before its own still
	 * untaken: the kernel's engine comes to it unasked, no doorbell.
	 * Once the kernel took them all, a post rings again.
	 */
	assert_int_equal(t_siw.doorbells, 3);
	for (unsigned int i = 0; i < T_NUM_WQE; i++)
		t_siw_take(&t_siw.sq[i].flags);
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	assert_int_equal(t_siw.doorbells, 4);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * Inline data of every length siw takes, 0 to 80 bytes, in one SGE and
 * split over three: the element holds exactly those bytes, in order,
 * with their length in sge[0], and not a byte is written past them (the
 * provider copies in overlapping blocks).
 */
static void inline_sizes(void **state)
{
	struct t_siw_base *b = *state;
	static uint8_t src[SIW_MAX_INLINE];
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 1,
			 .max_send_sge = 3,
			 .max_recv_sge = 1,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_sge sge[3];
	struct ibv_send_wr wr = { .sg_list = sge,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE },
			   *bad;
	unsigned int slot = 0;
	struct ibv_qp *qp;

	for (unsigned int i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	qp = t_siw_qp(b, &init);
	for (uint32_t len = 0; len <= SIW_MAX_INLINE; len++) {
		for (int pieces = 1; pieces <= 3; pieces += 2) {
			struct siw_sqe *sqe = &t_siw.sq[slot++ % T_NUM_WQE];
			uint32_t a = len / pieces, c = len - 2 * a;
			uint8_t *data = (uint8_t *)&sqe->sge[1];

			memset(sqe, 0xee, sizeof(*sqe));
			sqe->flags = 0; /* the kernel's: free */
			sge[0] = (struct ibv_sge){ (uintptr_t)src, len, 0 };
			if (pieces == 3) {
				sge[0].length = a;
				sge[1] = (struct ibv_sge){ (uintptr_t)src + a,
							   a, 0 };
				sge[2] = (struct ibv_sge){
					(uintptr_t)src + 2 * a, c, 0
				};
			}
			wr.wr_id = len;
			wr.num_sge = pieces;
			assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
			assert_int_equal(sqe->flags,
					 SIW_WQE_VALID | SIW_WQE_INLINE);
			assert_int_equal(sqe->num_sge, 1);
			assert_int_equal(sqe->sge[0].length, len);
			assert_memory_equal(data, src, len);
			if (len < SIW_MAX_INLINE)
				assert_int_equal(data[len], 0xee);
			t_siw_take(&sqe->flags);
		}
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * The element flags of each combination of FENCE, SIGNALED and SOLICITED,
 * on a QP that signals only what asks and on one that signals all.
 */
static void send_flags(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[8];
	/* VALID 1, SIGNALLED 4, SOLICITED 8, READ_FENCE 0x10 (siw-abi.h) */
	static const uint16_t want[8] = { 0x01, 0x11, 0x05, 0x15,
					  0x09, 0x19, 0x0d, 0x1d };
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5, .max_send_sge = 1 },
	};
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x2a03 };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND },
			   *bad;

	for (int all = 0; all <= 1; all++) {
		unsigned int slot = 0;
		struct ibv_qp *qp;

		init.sq_sig_all = all;
		qp = t_siw_qp(b, &init);
		for (unsigned int f = 0; f < 8; f++) {
			struct siw_sqe *sqe = &t_siw.sq[slot++ % T_NUM_WQE];

			wr.send_flags = f;
			assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
			assert_int_equal(sqe->flags,
					 want[f] |
						 (all ? SIW_WQE_SIGNALLED : 0));
			t_siw_take(&sqe->flags);
		}
		assert_int_equal(ibv_destroy_qp(qp), 0);
	}
}

/*
 * Posts @wr alone on a QP whose kernel runs its transmit engine at each
 * doorbell; what the kernel made of it.
 */
static const struct t_siw_taken *post_taken(struct ibv_qp *qp,
					    struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	t_siw.ntaken = 0;
	assert_int_equal(ibv_post_send(qp, wr, &bad), 0);
	assert_int_equal(t_siw.ntaken, 1);
	assert_int_equal(t_siw.taken[0].err, 0);
	return &t_siw.taken[0];
}

/* Whether the kernel's copy @t carries @wr's gather list, entry by entry. */
static void assert_sges(const struct t_siw_taken *t,
			const struct ibv_send_wr *wr)
{
	uint32_t sum = 0;

	assert_int_equal(t->sqe.num_sge, wr->num_sge);
	for (int i = 0; i < wr->num_sge; i++) {
		assert_int_equal(t->sqe.sge[i].laddr, wr->sg_list[i].addr);
		assert_int_equal(t->sqe.sge[i].length, wr->sg_list[i].length);
		assert_int_equal(t->sqe.sge[i].lkey, wr->sg_list[i].lkey);
		sum += wr->sg_list[i].length;
	}
	assert_int_equal(t->bytes, sum);
}

/*
 * What siw's kernel takes from the ring is what the caller asked, for
 * each opcode siw has, over a ring wrapped three times: the kernel
 * model reads each element as siw does (the fields of its opcode, READ
 * with one SGE, inline data from sge[1]).
 */
static void consumed_as_asked(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[4096];
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_send_sge = 3,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_sge sge[3] = {
		{ (uintptr_t)buf, 100, 0x2a01 },
		{ (uintptr_t)buf + 512, 7, 0x2a02 },
		{ (uintptr_t)buf + 1024, 3000, 0x2a03 },
	};
	struct ibv_send_wr wr = { .sg_list = sge };
	const struct t_siw_taken *t;
	struct ibv_qp *qp;

	for (unsigned int i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 13);
	qp = t_siw_qp(b, &init);
	t_siw.engine = true;
	for (unsigned int i = 0; i < 3 * T_NUM_WQE; i++) {
		wr.wr_id = 0x100 + i;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = 0x7000 + i;
		wr.wr.rdma.rkey = 0x3300 + i;
		switch (i % 6) {
		case 0: /* SEND of three SGEs */
			wr.opcode = IBV_WR_SEND;
			wr.num_sge = 3;
			break;
		case 1: /* WRITE of one */
			wr.opcode = IBV_WR_RDMA_WRITE;
			wr.num_sge = 1;
			break;
		case 2: /* READ into one */
			wr.opcode = IBV_WR_RDMA_READ;
			wr.num_sge = 1;
			break;
		case 3: /* SEND_WITH_INV: the rkey to invalidate */
			wr.opcode = IBV_WR_SEND_WITH_INV;
			wr.invalidate_rkey = 0x4400 + i;
			wr.num_sge = 2;
			break;
		case 4: /* inline SEND, 80 bytes from two SGEs */
			wr.opcode = IBV_WR_SEND;
			wr.send_flags |= IBV_SEND_INLINE;
			sge[0].length = SIW_MAX_INLINE - sge[1].length;
			wr.num_sge = 2;
			break;
		default: /* a zero-length WRITE */
			wr.opcode = IBV_WR_RDMA_WRITE;
			wr.num_sge = 0;
			break;
		}
		t = post_taken(qp, &wr);
		assert_int_equal(t->index, i);
		assert_int_equal(t->sqe.id, wr.wr_id);
		assert_true(t->sqe.flags & SIW_WQE_SIGNALLED);
		if (wr.send_flags & IBV_SEND_INLINE) {
			assert_int_equal(t->sqe.opcode, SIW_OP_SEND);
			assert_int_equal(t->bytes, SIW_MAX_INLINE);
			assert_memory_equal(&t->sqe.sge[1], buf, sge[0].length);
			assert_memory_equal((char *)&t->sqe.sge[1] +
						    sge[0].length,
					    buf + 512, sge[1].length);
			sge[0].length = 100;
			continue;
		}
		if (wr.opcode == IBV_WR_SEND_WITH_INV) {
			assert_int_equal(t->sqe.opcode, SIW_OP_SEND_REMOTE_INV);
			assert_int_equal(t->sqe.rkey, wr.invalidate_rkey);
		} else if (wr.opcode != IBV_WR_SEND) {
			assert_int_equal(t->sqe.opcode,
					 wr.opcode == IBV_WR_RDMA_READ ?
						 SIW_OP_READ :
						 SIW_OP_WRITE);
			assert_int_equal(t->sqe.raddr, wr.wr.rdma.remote_addr);
			assert_int_equal(t->sqe.rkey, wr.wr.rdma.rkey);
		}
		assert_sges(t, &wr);
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * An RDMA READ with no SGE after the ring has wrapped: siw reads every
 * READ into sge[0] (it forces num_sge 1), so the element must carry a
 * zero-length sge[0] of its own, never the one an earlier request left
 * in that slot, or the peer's data land in that request's buffer.
 */
static void read_zero_sge(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[4096];
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5, .max_send_sge = 1 },
	};
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x2a01 };
	struct ibv_send_wr send = { .sg_list = &sge,
				    .num_sge = 1,
				    .opcode = IBV_WR_SEND },
			   read = {
				   .wr_id = 0xead,
				   .opcode = IBV_WR_RDMA_READ,
				   .send_flags = IBV_SEND_SIGNALED,
				   .wr.rdma = { .remote_addr = 0x9000,
						.rkey = 0x3301 },
			   };
	const struct t_siw_taken *t;
	struct ibv_qp *qp;

	qp = t_siw_qp(b, &init);
	t_siw.engine = true;
	for (unsigned int i = 0; i < T_NUM_WQE; i++)
		assert_int_equal(post_taken(qp, &send)->bytes, sizeof(buf));
	t = post_taken(qp, &read);
	assert_int_equal(t->sqe.opcode, SIW_OP_READ);
	assert_int_equal(t->sqe.id, 0xead);
	assert_int_equal(t->sqe.raddr, 0x9000);
	assert_int_equal(t->sqe.rkey, 0x3301);
	assert_int_equal(t->bytes, 0); /* the read size asked of the peer */
	assert_int_equal(t->sqe.sge[0].length, 0);
	assert_int_equal(t->sqe.sge[0].lkey, 0);
	assert_int_equal(t->sqe.sge[0].laddr, 0);
	/* The same slot, next time round, with one SGE: that one. */
	for (unsigned int i = 1; i < T_NUM_WQE; i++)
		post_taken(qp, &send);
	read.sg_list = &sge;
	read.num_sge = 1;
	sge.length = 16;
	t = post_taken(qp, &read);
	assert_int_equal(t->bytes, 16);
	assert_int_equal(t->sqe.sge[0].laddr, (uintptr_t)buf);
	assert_int_equal(t->sqe.sge[0].lkey, 0x2a01);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * siw takes inline data with SEND and RDMA WRITE only (siw_activate_tx()
 * refuses an inline element of any other opcode). A SEND_WITH_INV or a
 * READ with IBV_SEND_INLINE is refused before anything of it reaches
 * the ring, with bad_wr on it and the request before it posted, never
 * turned into a gather from a buffer the caller thinks it may reuse.
 */
static void inline_refused(void **state)
{
	struct t_siw_base *b = *state;
	static const enum ibv_wr_opcode ops[] = { IBV_WR_SEND_WITH_INV,
						  IBV_WR_RDMA_READ };
	static char buf[16];
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_send_sge = 1,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0 };
	struct ibv_send_wr wr[2] = {
		{ .wr_id = 1,
		  .next = &wr[1],
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_SEND,
		  .send_flags = IBV_SEND_INLINE },
		{ .wr_id = 2,
		  .sg_list = &sge,
		  .num_sge = 1,
		  .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED,
		  .invalidate_rkey = 0x3302,
		  .wr.rdma = { .remote_addr = 0x9000, .rkey = 0x3301 } },
	};
	struct t_siw_post refused = { .wr = wr };
	struct ibv_qp *qp;
	char *log;

	qp = t_siw_qp(b, &init);
	refused.qp = qp;
	t_siw.engine = true;
	for (unsigned int i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		wr[1].opcode = ops[i];
		t_siw.ntaken = 0;
		log = t_siw_post_refused(&refused);
		assert_int_equal(refused.ret, EINVAL);
		assert_ptr_equal(refused.bad, &wr[1]);
		assert_non_null(strstr(
			log, "inline data with SEND and RDMA_WRITE only"));
		free(log);
		/* The inline SEND before it went, and nothing after it. */
		assert_int_equal(t_siw.ntaken, 1);
		assert_int_equal(t_siw.taken[0].sqe.id, 1);
		assert_int_equal(t_siw.sq[t_siw.sq_get % T_NUM_WQE].flags, 0);
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * The QP's max_send_sge bounds an inline request's gather list as any
 * other (ibv_post_send(3)): three SGEs of inline data on a QP of two, and
 * a count of -1, are refused before anything reaches the ring, although
 * their bytes would fit in siw's inline room.
 */
static void inline_sge_count(void **state)
{
	struct t_siw_base *b = *state;
	static char buf[30];
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_send_sge = 2,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_sge sge[3] = {
		{ (uintptr_t)buf, 10, 0 },
		{ (uintptr_t)buf + 10, 10, 0 },
		{ (uintptr_t)buf + 20, 10, 0 },
	};
	struct ibv_send_wr wr = { .wr_id = 1,
				  .sg_list = sge,
				  .num_sge = 3,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE };
	struct t_siw_post refused = { .wr = &wr };
	char *log;

	refused.qp = t_siw_qp(b, &init);
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &wr);
	assert_non_null(strstr(log, "num_sge 3, the QP takes at most 2"));
	free(log);
	wr.num_sge = -1;
	log = t_siw_post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &wr);
	assert_non_null(strstr(log, "num_sge -1, the QP takes at most 2"));
	free(log);
	assert_int_equal(t_siw.sq[0].flags, 0);
	assert_int_equal(ibv_destroy_qp(refused.qp), 0);
}

/*
 * The kernel's engine, running, takes the elements as the doorbell
 * comes in, while another thread holds the QP's state lock: the
 * doorbell's trylock fails, ENOTCONN, in RTS.
 */
static void engine_then_locked(void)
{
	assert_int_equal(t_siw_sq_run(), 0);
	t_siw.state_locked = true;
}

/*
 * Another thread moves the QP to ERROR as the doorbell comes in: siw
 * flushes the valid elements under the state lock, and the doorbell's
 * trylock fails before the state reads ERROR: ENOTCONN.
 */
static void flush_while_locked(void)
{
	t_siw_sq_flush();
	t_siw.state = T_SIW_RTS; /* ERROR is stored after the flush */
	t_siw.state_locked = true;
}

/* @n SENDs of 16 bytes chained in @wr, ids from @id; a QP of 5 and 1 SGE. */
static struct ibv_qp *sends(struct t_siw_base *b, struct ibv_send_wr *wr, int n,
			    uint64_t id)
{
	static char buf[16];
	static struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x2a01 };
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5, .max_send_sge = 1 },
	};

	for (int i = 0; i < n; i++)
		wr[i] = (struct ibv_send_wr){ .wr_id = id + i,
					      .next = i + 1 < n ? &wr[i + 1] :
								  NULL,
					      .sg_list = &sge,
					      .num_sge = 1,
					      .opcode = IBV_WR_SEND };
	return t_siw_qp(b, &init);
}

/*
 * A refused doorbell after the kernel took the elements: they were
 * posted, and the call says so; the provider's next element goes where
 * the kernel looks next (its put index never falls behind the kernel's
 * get index).
 */
static void doorbell_refused_taken(void **state)
{
	struct ibv_send_wr wr[2], *bad = NULL;
	struct ibv_qp *qp = sends(*state, wr, 2, 1);

	t_siw.engine = true;
	t_siw.meanwhile = engine_then_locked;
	assert_int_equal(ibv_post_send(qp, wr, &bad), 0);
	assert_null(bad);
	assert_int_equal(t_siw.ntaken, 2);
	assert_int_equal(t_siw.sq_get, 2);
	/* The lock given back: the next request is the kernel's third. */
	t_siw.meanwhile = NULL;
	t_siw.state_locked = false;
	wr[1].wr_id = 3;
	assert_int_equal(ibv_post_send(qp, &wr[1], &bad), 0);
	assert_int_equal(t_siw.ntaken, 3);
	assert_int_equal(t_siw.taken[2].index, 2);
	assert_int_equal(t_siw.taken[2].sqe.id, 3);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * A refused doorbell while the QP moves to ERROR: siw flushes the
 * call's requests, so each completes once, with a flush error, and the
 * call reports none of them as failed.
 */
static void doorbell_refused_flushed(void **state)
{
	struct t_siw_base *b = *state;
	struct ibv_send_wr wr[3], *bad = NULL;
	struct ibv_qp *qp = sends(b, wr, 3, 10);
	struct ibv_wc wc[4];

	t_siw.meanwhile = flush_while_locked;
	assert_int_equal(ibv_post_send(qp, wr, &bad), 0);
	assert_null(bad);
	t_siw.meanwhile = NULL;
	t_siw.state_locked = false;
	t_siw.state = T_SIW_ERROR;
	assert_int_equal(ibv_poll_cq(b->cq, 4, wc), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(wc[i].wr_id, 10 + i);
		assert_int_equal(wc[i].status, IBV_WC_WR_FLUSH_ERR);
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * A doorbell refused before RTS: the kernel keeps the element valid, so
 * it is posted; the next post rings although the element before its own
 * is still valid (nothing has started the engine), and the kernel then
 * takes both, in order.
 */
static void doorbell_owed(void **state)
{
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_qp *qp = sends(*state, &wr, 1, 1);
	unsigned int rung = t_siw.doorbells;

	t_siw.engine = true;
	t_siw.state = T_SIW_IDLE;
	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_null(bad);
	assert_int_equal(t_siw.doorbells, rung + 1);
	assert_int_equal(t_siw.sq[0].flags, SIW_WQE_VALID);
	assert_int_equal(t_siw.ntaken, 0);
	assert_true(t_siw_log_has("the doorbell failed (Transport endpoint"));
	t_siw.state = T_SIW_RTS;
	wr.wr_id = 2;
	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(t_siw.doorbells, rung + 2);
	assert_int_equal(t_siw.ntaken, 2);
	assert_int_equal(t_siw.taken[0].sqe.id, 1);
	assert_int_equal(t_siw.taken[1].sqe.id, 2);
	/* Rung and answered: the engine's shortcut is back. */
	t_siw.engine = false;
	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(t_siw.doorbells, rung + 3);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * A ring filled while the kernel refused every doorbell (the QP not yet
 * in RTS): once in RTS, the next post finds the ring full and is refused
 * (ENOMEM), but it rings the doorbell still owed, so that the kernel
 * starts on the ring and the post after it finds room. Without that
 * ring the queue would stay full for good.
 */
static void doorbell_owed_full(void **state)
{
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_qp *qp = sends(*state, &wr, 1, 1);
	unsigned int rung;

	t_siw.engine = true;
	t_siw.state = T_SIW_IDLE;
	for (unsigned int i = 0; i < T_NUM_WQE; i++)
		assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(t_siw.ntaken, 0);
	t_siw.state = T_SIW_RTS;
	rung = t_siw.doorbells;
	assert_int_equal(ibv_post_send(qp, &wr, &bad), ENOMEM);
	assert_ptr_equal(bad, &wr);
	assert_int_equal(t_siw.doorbells, rung + 1);
	assert_int_equal(t_siw.ntaken, T_NUM_WQE);
	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(t_siw.ntaken, T_NUM_WQE + 1);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(qp_queues, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(inline_sizes, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(send_flags, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(consumed_as_asked,
						t_siw_base_up, t_siw_base_down),
		cmocka_unit_test_setup_teardown(read_zero_sge, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(inline_refused, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(inline_sge_count, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(doorbell_refused_taken,
						t_siw_base_up, t_siw_base_down),
		cmocka_unit_test_setup_teardown(doorbell_refused_flushed,
						t_siw_base_up, t_siw_base_down),
		cmocka_unit_test_setup_teardown(doorbell_owed, t_siw_base_up,
						t_siw_base_down),
		cmocka_unit_test_setup_teardown(doorbell_owed_full,
						t_siw_base_up, t_siw_base_down),
	};

	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
