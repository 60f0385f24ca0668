// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw_conformance_vm_test: the opcodes siw carries and the ones it
 * refuses, inline data and SGE counts at their limits and one past, the
 * queues lapped many times over, a READ of no SGE on a lapped ring and
 * an inline SEND_WITH_INV.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdma/siw-abi.h>

#include "siw_conformance.h"

#define WAIT_MS 3000

static void fill(struct ibv_mr *mr, size_t off, size_t len, unsigned seed)
{
	unsigned char *p = (unsigned char *)mr->addr + off;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static bool same(struct ibv_mr *a, size_t aoff, struct ibv_mr *b, size_t boff,
		 size_t len)
{
	return !memcmp((char *)a->addr + aoff, (char *)b->addr + boff, len);
}

/* @what's check @check: "@what_@check", in @buf (96 bytes). */
static const char *named(char *buf, const char *what, const char *check)
{
	snprintf(buf, 96, "%s_%s", what, check);
	return buf;
}

/*
 * One successful completion on @cq: its opcode @op, wr_id @id and
 * qp_num @qp's, and (unless @len is -1) byte_len @len.
 */
static void check_wc(const char *what, struct ibv_cq *cq, uint64_t id,
		     enum ibv_wc_opcode op, int64_t len, struct ibv_qp *qp)
{
	struct ibv_wc wc = {};
	char name[96];

	CHECK_EQ(named(name, what, "completes"), poll_wc(cq, 1, &wc, WAIT_MS),
		 1);
	CHECK_EQ(named(name, what, "wc_status"), wc.status, IBV_WC_SUCCESS);
	CHECK_EQ(named(name, what, "wc_opcode"), wc.opcode, op);
	CHECK_EQ(named(name, what, "wc_wr_id"), wc.wr_id, id);
	if (len >= 0)
		CHECK_EQ(named(name, what, "wc_byte_len"), wc.byte_len, len);
	CHECK_EQ(named(name, what, "wc_qp_num"), wc.qp_num, qp->qp_num);
}

/* One send completion, checks "@what_completes", "@what_wc_...". */
static void check_swc(const char *what, struct ibv_cq *cq, uint64_t id,
		      enum ibv_wc_opcode op, struct ibv_qp *qp)
{
	check_wc(what, cq, id, op, -1, qp);
}

/* One receive completion of @len bytes, checks "@what_recv_...". */
static void check_rwc(const char *what, struct ibv_cq *cq, uint64_t id,
		      uint32_t len, struct ibv_qp *qp)
{
	char recv[80];

	snprintf(recv, sizeof(recv), "%s_recv", what);
	check_wc(recv, cq, id, IBV_WC_RECV, len, qp);
}

void t_opcodes(void)
{
	struct ibv_mr *sm = buf_mr(4096, 0), *inv = buf_mr(64, 0), *cm;
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sg[3], rs;
	struct ibv_wc wc;
	struct rig r = {};

	if (!sm || !inv || rig_up(&r, 16, 16, 16, SIW_MAX_SGE, 0))
		return check(false, "opcodes_setup", "no pair");
	cm = r.m; /* the client's buffer, @sm the server's */

	/* SEND of three SGEs into one receive SGE. */
	fill(cm, 0, 4096, 1);
	sg[0] = sge_of(cm, 0, 100);
	sg[1] = sge_of(cm, 100, 1);
	sg[2] = sge_of(cm, 200, 300);
	rs = sge_of(sm, 0, 4096);
	CHECK_EQ("send_recv_posted", post_recv(r.p.s, 0x51, &rs, 1), 0);
	wr = send_wr(0x5e, sg, 3, IBV_WR_SEND, IBV_SEND_SIGNALED);
	CHECK_EQ("send_posted", post_send(r.p.c, &wr, &bad), 0);
	check_swc("send", r.scq, 0x5e, IBV_WC_SEND, r.p.c);
	check_rwc("send", r.rcq, 0x51, 401, r.p.s);
	check(same(cm, 0, sm, 0, 100) && same(cm, 100, sm, 100, 1) &&
		      same(cm, 200, sm, 101, 300),
	      "send_data", "the received bytes differ");

	/* RDMA WRITE of two SGEs. */
	fill(cm, 1024, 512, 3);
	sg[0] = sge_of(cm, 1024, 256);
	sg[1] = sge_of(cm, 1280, 256);
	wr = send_wr(0x3e, sg, 2, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED);
	set_remote(&wr, sm, 1024);
	CHECK_EQ("write_posted", post_send(r.p.c, &wr, &bad), 0);
	check_swc("write", r.scq, 0x3e, IBV_WC_RDMA_WRITE, r.p.c);
	check(same(cm, 1024, sm, 1024, 512), "write_data",
	      "the written bytes differ");

	/* RDMA READ into one SGE. */
	fill(sm, 2048, 1000, 5);
	sg[0] = sge_of(cm, 2048, 1000);
	wr = send_wr(0x4e, sg, 1, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED);
	set_remote(&wr, sm, 2048);
	CHECK_EQ("read_posted", post_send(r.p.c, &wr, &bad), 0);
	check_swc("read", r.scq, 0x4e, IBV_WC_RDMA_READ, r.p.c);
	check(same(cm, 2048, sm, 2048, 1000), "read_data",
	      "the read bytes differ");

	/*
	 * READ into two SGEs: the kernel takes a READ's sge[0] only
	 * (siw_activate_tx() sets num_sge 1), so the second part is never
	 * written. Debian's libsiw posts it anyway; ours refuses it at post
	 * time (EINVAL, explained) rather than lose data silently.
	 */
	fill(sm, 3072, 64, 9);
	memset((char *)cm->addr + 3072, 0, 64);
	sg[0] = sge_of(cm, 3072, 32);
	sg[1] = sge_of(cm, 3072 + 32, 32);
	wr = send_wr(0x4f, sg, 2, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED);
	set_remote(&wr, sm, 3072);
	if (t.ours) {
		CHECK_EQ("read_2sge_refused", post_send(r.p.c, &wr, &bad),
			 EINVAL);
		check(bad == &wr, "read_2sge_bad_wr", "bad_wr %p", bad);
	} else {
		CHECK_EQ("read_2sge_posted", post_send(r.p.c, &wr, &bad), 0);
		wc = (struct ibv_wc){};
		CHECK_EQ("read_2sge_completes", poll_wc(r.scq, 1, &wc, WAIT_MS),
			 1);
		CHECK_EQ("read_2sge_debian_status", wc.status, 0);
		CHECK_EQ("read_2sge_debian_byte_len", wc.byte_len, 32);
		CHECK_EQ("read_2sge_debian_first", same(cm, 3072, sm, 3072, 32),
			 1);
		CHECK_EQ("read_2sge_debian_second_lost",
			 same(cm, 3072 + 32, sm, 3072 + 32, 32), 0);
	}
	/*
	 * SEND with invalidate of the receiver's MR @inv: ours carries
	 * invalidate_rkey in the element's rkey, where the kernel reads the
	 * STag to invalidate. Debian's libsiw 44 copies wr.rdma.rkey there
	 * whatever the opcode (0 here), so the receiver cannot invalidate
	 * and completes with REM_INV_REQ_ERR, which ends the connection:
	 * this comes last.
	 */
	CHECK_EQ("send_inv_recv_posted", post_recv(r.p.s, 0x52, &rs, 1), 0);
	wr = send_wr(0x5f, sg, 1, IBV_WR_SEND_WITH_INV, IBV_SEND_SIGNALED);
	wr.invalidate_rkey = inv->rkey;
	sg[0] = sge_of(cm, 0, 100);
	CHECK_EQ("send_inv_posted", post_send(r.p.c, &wr, &bad), 0);
	check_swc("send_inv", r.scq, 0x5f, IBV_WC_SEND, r.p.c);
	wc = (struct ibv_wc){};
	CHECK_EQ("send_inv_recv_completes", poll_wc(r.rcq, 1, &wc, WAIT_MS), 1);
	CHECK_EQ("send_inv_recv_wc_status", wc.status,
		 t.ours ? IBV_WC_SUCCESS : IBV_WC_REM_INV_REQ_ERR);
	CHECK_EQ("send_inv_recv_wc_wr_id", wc.wr_id, 0x52);

	rig_down(&r);
	buf_free(sm);
	buf_free(inv);
}

void t_unsupported(void)
{
	static const struct {
		enum ibv_wr_opcode op;
		const char *name;
	} ops[] = {
		{ IBV_WR_SEND_WITH_IMM, "send_imm" },
		{ IBV_WR_RDMA_WRITE_WITH_IMM, "write_imm" },
		{ IBV_WR_ATOMIC_CMP_AND_SWP, "cmp_swp" },
		{ IBV_WR_ATOMIC_FETCH_AND_ADD, "fetch_add" },
		{ IBV_WR_LOCAL_INV, "local_inv" },
		{ IBV_WR_BIND_MW, "bind_mw" },
		{ IBV_WR_TSO, "tso" },
	};
	struct ibv_send_wr wr[2], *bad;
	struct ibv_sge sg, rs;
	struct ibv_wc wc[4];
	struct rig r = {};
	char name[64];
	int n;

	if (rig_up(&r, 16, 0, 16, 2, 1))
		return check(false, "unsupported_setup", "no pair");
	sg = sge_of(r.m, 0, 8);
	rs = sge_of(r.m, 2048, 2048);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		wr[0] = send_wr(i, &sg, 1, ops[i].op, IBV_SEND_SIGNALED);
		set_remote(&wr[0], r.m, 0);
		snprintf(name, sizeof(name), "%s_refused", ops[i].name);
		CHECK_EQ(name, post_send(r.p.c, wr, &bad), ERR(EINVAL));
		snprintf(name, sizeof(name), "%s_bad_wr", ops[i].name);
		check(bad == wr, name, "bad_wr %p, wr %p", bad, wr);
	}
	/* A list: the good SEND goes, the refused one is bad_wr. */
	CHECK_EQ("list_recv_posted", post_recv(r.p.s, 0x77, &rs, 1), 0);
	wr[0] = send_wr(0x70, &sg, 1, IBV_WR_SEND, IBV_SEND_SIGNALED);
	wr[0].next = &wr[1];
	wr[1] = wr[0];
	wr[1].wr_id = 0x71;
	wr[1].opcode = IBV_WR_SEND_WITH_IMM;
	wr[1].next = NULL;
	/* Debian's libsiw 44 loses the refusal once the doorbell rang. */
	CHECK_EQ("list_refused", post_send(r.p.c, wr, &bad),
		 t.ours ? EINVAL : 0);
	check(bad == &wr[1], "list_bad_wr", "bad_wr %p, second %p", bad,
	      &wr[1]);
	n = poll_wc(r.scq, 4, wc, 500);
	for (int i = 0; i < n; i++)
		printf("  list wc %d: id %#llx status %d opcode %d\n", i,
		       (unsigned long long)wc[i].wr_id, wc[i].status,
		       wc[i].opcode);
	CHECK_EQ("list_completions", n, 2);
	CHECK_EQ("list_first_sent", wc[0].wr_id == 0x70 || wc[1].wr_id == 0x70,
		 1);
	rig_down(&r);
}

/* Sends @len inline bytes (from two pieces) and checks what arrived. */
static void inline_send(struct rig *r, uint32_t len)
{
	char data[128], name[64];
	struct ibv_sge sg[2] = {
		{ .addr = (uintptr_t)data, .length = len / 2 },
		{ .addr = (uintptr_t)data + len / 2, .length = len - len / 2 },
	};
	struct ibv_send_wr wr = { .wr_id = len,
				  .sg_list = sg,
				  .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED |
						IBV_SEND_INLINE };
	struct ibv_send_wr *bad;
	struct ibv_sge rs = sge_of(r->m, 0, 128);
	int ret;

	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (char)(len + i);
	if (len <= SIW_MAX_INLINE)
		post_recv(r->p.s, len, &rs, 1);
	ret = post_send(r->p.c, &wr, &bad);
	/* The data were copied: the buffer may change at once. */
	memset(data, 0, sizeof(data));
	if (len > SIW_MAX_INLINE) {
		snprintf(name, sizeof(name), "inline_%u_refused", len);
		CHECK_EQ(name, ret, ERR(EINVAL));
		snprintf(name, sizeof(name), "inline_%u_bad_wr", len);
		check(bad == &wr, name, "bad_wr %p", bad);
		return;
	}
	snprintf(name, sizeof(name), "inline_%u", len);
	CHECK_EQ(name, ret, 0);
	check_swc(name, r->scq, len, IBV_WC_SEND, r->p.c);
	check_rwc(name, r->rcq, len, len, r->p.s);
	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (char)(len + i);
	snprintf(name, sizeof(name), "inline_%u_data", len);
	check(!memcmp(r->m->addr, data, len), name, "the bytes differ");
}

/* A SEND of @n SGEs, one byte each, into a receive of @n SGEs. */
static void sge_send(struct rig *r, int n, int allowed)
{
	struct ibv_sge sg[SIW_MAX_SGE + 1], rs[SIW_MAX_SGE + 1];
	struct ibv_send_wr wr = { .wr_id = 0x600 + n,
				  .sg_list = sg,
				  .num_sge = n,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_recv_wr rwr = { .wr_id = 0x700 + n,
				   .sg_list = rs,
				   .num_sge = n };
	struct ibv_recv_wr *rbad = NULL;
	struct ibv_send_wr *bad;
	char name[64];
	int ret;

	fill(r->m, 0, 2048, (unsigned)n);
	memset((char *)r->m->addr + 2048, 0, 2048);
	for (int i = 0; i < n; i++) {
		sg[i] = sge_of(r->m, (size_t)i * 16, 1);
		rs[i] = sge_of(r->m, 2048 + (size_t)i * 16, 1);
	}
	ret = ibv_post_recv(r->p.s, &rwr, &rbad);
	snprintf(name, sizeof(name), "recv_sge_%d", n);
	if (n > allowed) {
		CHECK_EQ(name, ret, ERR(EINVAL));
		snprintf(name, sizeof(name), "recv_sge_%d_bad_wr", n);
		check(rbad == &rwr, name, "bad_wr %p", rbad);
		ret = post_send(r->p.c, &wr, &bad);
		snprintf(name, sizeof(name), "send_sge_%d", n);
		CHECK_EQ(name, ret, ERR(EINVAL));
		snprintf(name, sizeof(name), "send_sge_%d_bad_wr", n);
		check(bad == &wr, name, "bad_wr %p", bad);
		return;
	}
	CHECK_EQ(name, ret, 0);
	snprintf(name, sizeof(name), "send_sge_%d", n);
	CHECK_EQ(name, post_send(r->p.c, &wr, &bad), 0);
	check_swc(name, r->scq, wr.wr_id, IBV_WC_SEND, r->p.c);
	check_rwc(name, r->rcq, rwr.wr_id, (uint32_t)n, r->p.s);
	ret = 1;
	for (int i = 0; i < n; i++)
		ret &= same(r->m, (size_t)i * 16, r->m, 2048 + (size_t)i * 16,
			    1);
	snprintf(name, sizeof(name), "send_sge_%d_data", n);
	check(ret, name, "the bytes differ");
}

/* A QP asked beyond a limit of siw's: refused, with errno EINVAL. */
static void create_beyond(const char *name, struct ibv_qp_init_attr a)
{
	struct ibv_qp *qp = ibv_create_qp(t.b.pd, &a);
	int err = qp ? 0 : errno;

	if (qp)
		ibv_destroy_qp(qp);
	CHECK_EQ(name, err, EINVAL);
}

void t_limits(void)
{
	struct ibv_qp_init_attr got;
	struct ibv_qp_attr qa;
	struct rig r = {};

	if (rig_up(&r, 32, 32, 16, SIW_MAX_SGE, 0))
		return check(false, "limits_setup", "no pair");
	CHECK_EQ("query_qp", ibv_query_qp(r.p.c, &qa, IBV_QP_CAP, &got), 0);
	CHECK_EQ("qp_cap_max_send_sge", qa.cap.max_send_sge, SIW_MAX_SGE);
	CHECK_EQ("qp_cap_max_recv_sge", qa.cap.max_recv_sge, SIW_MAX_SGE);
	CHECK_EQ("qp_cap_max_inline", qa.cap.max_inline_data, SIW_MAX_INLINE);
	inline_send(&r, SIW_MAX_INLINE);
	inline_send(&r, SIW_MAX_INLINE + 1);
	sge_send(&r, SIW_MAX_SGE, SIW_MAX_SGE);
	sge_send(&r, SIW_MAX_SGE + 1, SIW_MAX_SGE);
	cm_pair_destroy(&r.p);

	/* The QP's own SGE limits, below siw's. */
	r.a = qp_attr(r.scq, r.rcq, 16, 2);
	if (pair_up(&r.p, &r.a, &r.a))
		return;
	CHECK_EQ("query_qp_2sge", ibv_query_qp(r.p.c, &qa, IBV_QP_CAP, &got),
		 0);
	CHECK_EQ("qp_2sge_cap_max_send_sge", qa.cap.max_send_sge, 2);
	CHECK_EQ("qp_2sge_cap_max_recv_sge", qa.cap.max_recv_sge, 2);
	sge_send(&r, 2, 2);
	sge_send(&r, 3, t.ours ? 2 : SIW_MAX_SGE);
	cm_pair_destroy(&r.p);

	r.a = qp_attr(r.scq, r.rcq, 16, SIW_MAX_SGE + 1);
	create_beyond("create_qp_max_sge_7", r.a);
	r.a = qp_attr(r.scq, r.rcq, 16, 1);
	r.a.cap.max_inline_data = SIW_MAX_INLINE + 1;
	create_beyond("create_qp_max_inline_41", r.a);
	r.a = qp_attr(r.scq, r.rcq, 1u << 20, 1);
	create_beyond("create_qp_max_wr_1M", r.a);
	rig_down(&r);
}

/*
 * SQ, RQ and both CQs of depth 8 lapped 15 times, six WRs a round so
 * that the rounds straddle the end of each ring.
 */
void t_wrap(void)
{
	struct ibv_send_wr wr[6], *bad;
	struct ibv_sge sg[6], rs[6];
	struct ibv_wc wc[6];
	struct rig r = {};
	int bad_order = 0, bad_data = 0, missing = 0;

	if (rig_up(&r, 8, 8, 8, 1, 0))
		return check(false, "wrap_setup", "no pair");
	CHECK_EQ("wrap_cq_depth", r.scq->cqe, 8);
	for (uint32_t round = 0; round < 20; round++) {
		for (int i = 0; i < 6; i++) {
			uint32_t n = round * 6 + (uint32_t)i;

			memcpy((char *)r.m->addr + i * 8, &n, 4);
			sg[i] = sge_of(r.m, (size_t)i * 8, 4);
			rs[i] = sge_of(r.m, 2048 + (size_t)i * 8, 4);
			post_recv(r.p.s, n, &rs[i], 1);
			wr[i] = send_wr(n, &sg[i], 1, IBV_WR_SEND,
					IBV_SEND_SIGNALED);
			wr[i].next = i < 5 ? &wr[i + 1] : NULL;
		}
		if (post_send(r.p.c, wr, &bad)) {
			missing++;
			break;
		}
		missing += 6 - poll_wc(r.scq, 6, wc, WAIT_MS);
		for (int i = 0; i < 6; i++)
			bad_order += wc[i].wr_id != round * 6 + (uint64_t)i ||
				     wc[i].status;
		missing += 6 - poll_wc(r.rcq, 6, wc, WAIT_MS);
		for (int i = 0; i < 6; i++) {
			uint32_t n = round * 6 + (uint32_t)i, v;

			bad_order += wc[i].wr_id != n || wc[i].status;
			memcpy(&v, (char *)r.m->addr + 2048 + i * 8, 4);
			bad_data += v != n;
		}
	}
	CHECK_EQ("wrap_120_completions", missing, 0);
	CHECK_EQ("wrap_in_order", bad_order, 0);
	CHECK_EQ("wrap_data", bad_data, 0);
	rig_down(&r);
}

/*
 * Laps the send ring of @r (depth 8, receive depth 8) twice with
 * signalled SENDs of all of @v, 4 at a time, into @rs: afterwards every
 * slot's sge[0] names @v. 0, or -1 if a SEND did not complete.
 */
static int lap_sends(struct rig *r, struct ibv_mr *v, struct ibv_sge *rs)
{
	struct ibv_send_wr wr[4], *bad;
	struct ibv_sge sg = sge_of(v, 0, 4096);
	struct ibv_wc wc[4];

	for (uint64_t n = 0; n < 16; n += 4) {
		for (int i = 0; i < 4; i++) {
			post_recv(r->p.s, n + (uint64_t)i, rs, 1);
			wr[i] = send_wr(n + (uint64_t)i, &sg, 1, IBV_WR_SEND,
					IBV_SEND_SIGNALED);
			wr[i].next = i < 3 ? &wr[i + 1] : NULL;
		}
		if (post_send(r->p.c, wr, &bad) ||
		    poll_wc(r->scq, 4, wc, WAIT_MS) != 4 ||
		    poll_wc(r->rcq, 4, wc, WAIT_MS) != 4)
			return -1;
	}
	return 0;
}

/* Every byte of @mr is @c. */
static bool all_of(struct ibv_mr *mr, char c)
{
	const char *p = mr->addr;

	for (size_t i = 0; i < mr->length; i++)
		if (p[i] != c)
			return false;
	return true;
}

/*
 * An RDMA READ with num_sge 0 (a fence or flush idiom) once the send
 * ring has wrapped. The kernel forces num_sge 1 on every READ and takes
 * its length, sink STag and address from sge[0] (siw_activate_tx()), so
 * a provider that leaves sge[0] as the slot's last use had it reads the
 * peer's bytes into that earlier request's buffer. Right answers: a
 * refusal (EINVAL, bad_wr on the READ) or a true zero-length READ
 * (byte_len 0); never a byte of @v changed. Debian's libsiw 44 has the
 * defect: pinned below under names of their own.
 */
void t_read_0sge(void)
{
	struct ibv_mr *v = buf_mr(4096, 0x11), *src = buf_mr(4096, 0x77);
	struct ibv_send_wr wr, *bad;
	struct ibv_sge rs, sg;
	struct ibv_wc wc = {};
	struct rig r = {};
	int ret, n;

	if (!v || !src || rig_up(&r, 16, 16, 8, 1, 0))
		return check(false, "read_0sge_setup", "no pair");
	rs = sge_of(r.m, 0, 4096);
	CHECK_EQ("read_0sge_ring_lapped", lap_sends(&r, v, &rs), 0);
	wr = send_wr(0x4d, NULL, 0, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED);
	set_remote(&wr, src, 0);
	ret = post_send(r.p.c, &wr, &bad);
	n = ret ? 0 : poll_wc(r.scq, 1, &wc, WAIT_MS);
	printf("  read_0sge: ret %d, %d wc, status %d, byte_len %u\n", ret, n,
	       wc.status, wc.byte_len);
	if (t.ours) {
		check(ret == 0 || (ret == EINVAL && bad == &wr),
		      "read_0sge_refused_or_posted", "ret %d, bad_wr %p, wr %p",
		      ret, (void *)bad, (void *)&wr);
		if (ret == 0) {
			CHECK_EQ("read_0sge_completes", n, 1);
			CHECK_EQ("read_0sge_wc_status", wc.status, 0);
			CHECK_EQ("read_0sge_wc_opcode", wc.opcode,
				 IBV_WC_RDMA_READ);
			CHECK_EQ("read_0sge_wc_byte_len", wc.byte_len, 0);
		}
		check(all_of(v, 0x11), "read_0sge_no_stale_write",
		      "the peer's data landed in the earlier SENDs' buffer");
	} else {
		CHECK_EQ("read_0sge_debian_defect_posted", ret, 0);
		CHECK_EQ("read_0sge_debian_defect_completes", n, 1);
		CHECK_EQ("read_0sge_debian_defect_status", wc.status, 0);
		CHECK_EQ("read_0sge_debian_defect_byte_len", wc.byte_len, 4096);
		check(all_of(v, 0x77), "read_0sge_debian_defect_stale_write",
		      "the earlier SENDs' buffer was not overwritten");
	}
	check(all_of(r.m, 0x11) && all_of(src, 0x77),
	      "read_0sge_other_buffers_untouched",
	      "the receive buffer or the READ's source changed");
	CHECK_EQ("read_0sge_no_more_wc", poll_wc(r.scq, 1, &wc, 300), 0);
	/* The connection still carries data. */
	sg = sge_of(v, 0, 64);
	CHECK_EQ("read_0sge_after_recv_posted", post_recv(r.p.s, 0x4e, &rs, 1),
		 0);
	wr = send_wr(0x4f, &sg, 1, IBV_WR_SEND, IBV_SEND_SIGNALED);
	CHECK_EQ("read_0sge_after_posted", post_send(r.p.c, &wr, &bad), 0);
	check_swc("read_0sge_after", r.scq, 0x4f, IBV_WC_SEND, r.p.c);
	check_rwc("read_0sge_after", r.rcq, 0x4e, 64, r.p.s);
	rig_down(&r);
	buf_free(v);
	buf_free(src);
}

/*
 * IBV_WR_SEND_WITH_INV with IBV_SEND_INLINE, from a buffer that is not
 * registered (lkey 0) and is cleared as soon as the post returns. The
 * kernel carries inline data for SEND and WRITE only (siw_activate_tx()
 * refuses the flag on any other opcode), so the right answer is EINVAL
 * with bad_wr on the request; a provider that can carry it after all
 * must deliver the bytes as they were at post time. Either way the
 * connection survives. Ours today takes the gather path: the kernel
 * reads the unregistered buffer and fails the SEND and the connection.
 * Debian's libsiw 44 has the defect too, another way: it rings the
 * doorbell, which the kernel fails, answers -1 with bad_wr NULL, and
 * its QP sends nothing more (pinned below under names of their own).
 */
void t_send_inv_inline(void)
{
	struct ibv_mr *inv = buf_mr(64, 0);
	char data[32];
	struct ibv_sge sg = { .addr = (uintptr_t)data, .length = sizeof(data) };
	struct ibv_send_wr wr, *bad;
	struct ibv_sge rs;
	struct ibv_wc wc = {};
	struct rig r = {};
	int ret, n;

	if (!inv || rig_up(&r, 16, 16, 16, 1, 0))
		return check(false, "send_inv_inline_setup", "no pair");
	rs = sge_of(r.m, 0, 4096);
	CHECK_EQ("send_inv_inline_recv_posted", post_recv(r.p.s, 0x81, &rs, 1),
		 0);
	memset(data, 0x5a, sizeof(data));
	wr = send_wr(0x80, &sg, 1, IBV_WR_SEND_WITH_INV,
		     IBV_SEND_SIGNALED | IBV_SEND_INLINE);
	wr.invalidate_rkey = inv->rkey;
	ret = post_send(r.p.c, &wr, &bad);
	memset(data, 0, sizeof(data));
	n = poll_wc(r.scq, 1, &wc, ret ? 500 : WAIT_MS);
	printf("  send_inv_inline: ret %d, bad_wr %s, %d wc, status %d\n", ret,
	       bad == &wr ? "wr" :
	       bad	  ? "other" :
			    "NULL",
	       n, wc.status);
	if (t.ours && ret) {
		CHECK_EQ("send_inv_inline_refused", ret, EINVAL);
		check(bad == &wr, "send_inv_inline_bad_wr", "bad_wr %p, wr %p",
		      (void *)bad, (void *)&wr);
		CHECK_EQ("send_inv_inline_no_wc", n, 0);
	} else if (t.ours) {
		CHECK_EQ("send_inv_inline_completes", n, 1);
		CHECK_EQ("send_inv_inline_wc_status", wc.status, 0);
		wc = (struct ibv_wc){};
		CHECK_EQ("send_inv_inline_recv_completes",
			 poll_wc(r.rcq, 1, &wc, WAIT_MS), 1);
		CHECK_EQ("send_inv_inline_recv_wc_status", wc.status, 0);
		CHECK_EQ("send_inv_inline_recv_wc_byte_len", wc.byte_len,
			 sizeof(data));
		memset(data, 0x5a, sizeof(data));
		check(!memcmp(r.m->addr, data, sizeof(data)),
		      "send_inv_inline_data", "the received bytes differ");
		rs = sge_of(r.m, 0, 4096);
		post_recv(r.p.s, 0x81, &rs, 1);
	} else {
		CHECK_EQ("send_inv_inline_debian_defect_failed", ret, -1);
		check(!bad, "send_inv_inline_debian_defect_no_bad_wr",
		      "bad_wr %p", (void *)bad);
		CHECK_EQ("send_inv_inline_debian_defect_no_wc", n, 0);
	}
	/* The connection survives: a plain SEND takes the receive. */
	sg = sge_of(r.m, 2048, 16);
	wr = send_wr(0x82, &sg, 1, IBV_WR_SEND, IBV_SEND_SIGNALED);
	CHECK_EQ("send_inv_inline_after_posted", post_send(r.p.c, &wr, &bad),
		 0);
	if (!t.ours) {
		/*
		 * The refused element stays valid in Debian's ring, and its
		 * libsiw rings no doorbell behind a valid element: the QP
		 * never sends again.
		 */
		CHECK_EQ("send_inv_inline_debian_defect_qp_stuck",
			 poll_wc(r.scq, 1, &wc, 500) +
				 poll_wc(r.rcq, 1, &wc, 1),
			 0);
		goto out;
	}
	check_swc("send_inv_inline_after", r.scq, 0x82, IBV_WC_SEND, r.p.c);
	check_rwc("send_inv_inline_after", r.rcq, 0x81, 16, r.p.s);
	CHECK_EQ("send_inv_inline_no_more_recv", poll_wc(r.rcq, 1, &wc, 300),
		 0);
out:
	rig_down(&r);
	buf_free(inv);
}
