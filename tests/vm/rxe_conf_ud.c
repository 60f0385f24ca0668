// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: UD datagrams through an AH with a GRH
 * (classic, inline and ibv_wr_*), an opcode UD does not carry, and the
 * extended CQ read with ibv_start_poll()/next/end and the read_*
 * getters next to ibv_poll_cq().
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rxe_conf.h"

enum { QKEY = 0x11111111, LEN = 200, GRH = 40 };

static struct buf ba, bb;

static int ud_ready(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .port_num = 1,
				 .qkey = QKEY };
	int ret = ibv_modify_qp(qp, &a,
				IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					IBV_QP_QKEY);

	if (ret)
		return ret;
	a.qp_state = IBV_QPS_RTR;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE);
	if (ret)
		return ret;
	a.qp_state = IBV_QPS_RTS;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

/* The datagram's completion at @b: GRH flag, the sender, the bytes. */
static void ud_recv_expect(const char *name, struct side *a, struct side *b,
			   uint64_t wr_id, unsigned int flags, uint32_t imm)
{
	struct ibv_wc wc = {};
	char n[64];
	int got = poll_one(b->cq, &wc, 3000);

	snprintf(n, sizeof(n), "%s.recv", name);
	check(n,
	      got == 1 && wc.status == IBV_WC_SUCCESS && wc.wr_id == wr_id &&
		      wc.opcode == IBV_WC_RECV && wc.byte_len == LEN + GRH &&
		      wc.wc_flags == flags && wc.src_qp == a->qp->qp_num,
	      "status=%s opcode=%d byte_len=%u flags=0x%x src_qp %s",
	      st(wc.status), wc.opcode, wc.byte_len, wc.wc_flags,
	      wc.src_qp == a->qp->qp_num ? "the sender" : "wrong");
	if (flags & IBV_WC_WITH_IMM) {
		snprintf(n, sizeof(n), "%s.imm", name);
		check(n, wc.imm_data == htobe32(imm), "imm_data as sent");
	}
	snprintf(n, sizeof(n), "%s.data", name);
	check(n, !memcmp(bb.p + GRH, ba.p, LEN),
	      "%d bytes after the %d-byte GRH", LEN, GRH);
	memset(bb.p, 0, GRH + LEN);
}

static void sender_expect(const char *name, struct side *a, uint64_t wr_id)
{
	struct ibv_wc wc = {};
	int got = poll_one(a->cq, &wc, 3000);

	check(name,
	      got == 1 && wc.status == IBV_WC_SUCCESS && wc.wr_id == wr_id &&
		      wc.opcode == IBV_WC_SEND,
	      "status=%s opcode=%d", st(wc.status), wc.opcode);
}

static void ud_traffic(struct side *a, struct side *b, struct ibv_ah *ah)
{
	struct ibv_sge sge = { (uintptr_t)ba.p, LEN, ba.mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.ud = { ah, b->qp->qp_num, QKEY } };
	struct ibv_send_wr *bad = NULL;
	struct ibv_qp_ex *x = a->qpx;
	int ret;

	for (int i = 0; i < LEN; i++)
		ba.p[i] = (uint8_t)(i * 3 + 7);
	post_recv1(b->qp, 11, &bb, 0, GRH + LEN);
	ret = ibv_post_send(a->qp, &wr, &bad);
	check("ud.send", !ret, "ret=%d", ret);
	sender_expect("ud.send.sender", a, 1);
	ud_recv_expect("ud.send", a, b, 11, IBV_WC_GRH, 0);

	post_recv1(b->qp, 12, &bb, 0, GRH + LEN);
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0x5150);
	wr.send_flags |= IBV_SEND_INLINE;
	ret = ibv_post_send(a->qp, &wr, &bad);
	check("ud.send_imm_inline", !ret, "ret=%d", ret);
	sender_expect("ud.send_imm_inline.sender", a, 2);
	ud_recv_expect("ud.send_imm_inline", a, b, 12,
		       IBV_WC_GRH | IBV_WC_WITH_IMM, 0x5150);

	post_recv1(b->qp, 13, &bb, 0, GRH + LEN);
	ibv_wr_start(x);
	x->wr_id = 3;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(x, htobe32(0x5151));
	ibv_wr_set_ud_addr(x, ah, b->qp->qp_num, QKEY);
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)ba.p, LEN);
	ret = ibv_wr_complete(x);
	check("ud.wr_send_imm", !ret, "ret=%d", ret);
	sender_expect("ud.wr_send_imm.sender", a, 3);
	ud_recv_expect("ud.wr_send_imm", a, b, 13, IBV_WC_GRH | IBV_WC_WITH_IMM,
		       0x5151);

	/* UD carries sends only; an RDMA WRITE has no place on it. */
	wr.wr_id = 4;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	bad = NULL;
	ret = ibv_post_send(a->qp, &wr, &bad);
	{
		struct ibv_wc wc = {};

		if (!ret)
			poll_one(a->cq, &wc, 3000);
		note("ud.write", "ret=%s status=%s", strerror(ret),
		     ret ? "-" : st(wc.status));
		/* Ours refuses at post; Debian's leaves it to the kernel. */
		check("ud.write",
		      C.ours ? ret == EINVAL && bad == &wr :
			       !ret && kernel_failed(wc.status),
		      "the answer pinned for this provider");
	}
}

static void ud(void)
{
	struct qp_opts o = { .type = IBV_QPT_UD,
			     .ex = true,
			     .inline_data = LEN };
	struct ibv_ah_attr aa = { .is_global = 1,
				  .grh = { .dgid = C.gid,
					   .hop_limit = 64,
					   .sgid_index = (uint8_t)C.gid_index },
				  .port_num = 1 };
	struct side a = { 0 }, b = { 0 };
	struct ibv_ah *ah = NULL;
	int ret;

	ret = side_new(&a, &o, false);
	if (!ret)
		ret = side_new(&b, &o, true);
	if (!ret)
		ret = ud_ready(a.qp);
	if (!ret)
		ret = ud_ready(b.qp);
	if (!ret) {
		ah = ibv_create_ah(C.pd, &aa);
		ret = ah ? 0 : errno;
	}
	if (check("ud.setup", !ret, "two UD QPs and an AH with GRH, ret=%d",
		  ret))
		ud_traffic(&a, &b, ah);
	if (ah)
		ibv_destroy_ah(ah);
	side_free(&a);
	side_free(&b);
}

/* Reads the completion at hand through every getter. */
static void cqx_one(const char *name, struct ibv_cq_ex *cq, uint64_t wr_id,
		    enum ibv_wc_opcode op, uint32_t len, unsigned int flags,
		    uint32_t qpn, uint32_t imm)
{
	unsigned int f = ibv_wc_read_wc_flags(cq);

	check(name,
	      cq->wr_id == wr_id && cq->status == IBV_WC_SUCCESS &&
		      ibv_wc_read_opcode(cq) == op &&
		      ibv_wc_read_byte_len(cq) == len && f == flags &&
		      ibv_wc_read_qp_num(cq) == qpn &&
		      ibv_wc_read_vendor_err(cq) == 0 &&
		      (!(f & IBV_WC_WITH_IMM) ||
		       ibv_wc_read_imm_data(cq) == htobe32(imm)),
	      "status=%s opcode=%d byte_len=%u flags=0x%x", st(cq->status),
	      ibv_wc_read_opcode(cq), ibv_wc_read_byte_len(cq), f);
}

static void cq_ex(void)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 16,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct ibv_poll_cq_attr pa = { 0 };
	struct qp_opts o = { 0 };
	struct ibv_cq_ex *cq = ibv_create_cq_ex(C.ctx, &ca);
	struct side a, b;
	struct ibv_send_wr wr = { .wr_id = 70,
				  .opcode = IBV_WR_SEND_WITH_IMM,
				  .send_flags = IBV_SEND_SIGNALED,
				  .imm_data = htobe32(0x7070) };
	int ret;

	if (!check("cq_ex.create", cq != NULL, "standard flags"))
		return;
	memset(&b, 0, sizeof(b));
	ret = side_new(&a, &o, false);
	if (!check("cq_ex.setup", !ret, "RC QP with a classic CQ, ret=%d", ret))
		goto out;
	{
		/* B's receives and sends go to the extended CQ. */
		struct ibv_qp_init_attr qa = {
			.send_cq = ibv_cq_ex_to_cq(cq),
			.recv_cq = ibv_cq_ex_to_cq(cq),
			.cap = { 16, 16, 1, 1, 0 },
			.qp_type = IBV_QPT_RC,
		};
		struct path p = { 14, 7, 7, 0 };

		b.qp = ibv_create_qp(C.pd, &qa);
		ret = b.qp ? qp_connect(b.qp, a.qp->qp_num, &p) : errno;
		if (!ret)
			ret = qp_connect(a.qp, b.qp->qp_num, &p);
	}
	if (!check("cq_ex.qp", !ret, "QP on the extended CQ, ret=%d", ret))
		goto out_pair;
	check("cq_ex.empty", ibv_start_poll(cq, &pa) == ENOENT,
	      "start_poll on the empty CQ: ENOENT");
	post_recv1(b.qp, 71, &bb, 0, 64);
	post_recv1(b.qp, 72, &bb, 64, 64);
	post_send1(a.qp, &wr, &ba, 0, 24);
	wr.wr_id = 73;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.wr.rdma.remote_addr = (uintptr_t)bb.p + 256;
	wr.wr.rdma.rkey = bb.mr->rkey;
	wr.imm_data = htobe32(0x7373);
	post_send1(a.qp, &wr, &ba, 0, 40);
	/* B sends one back: its own send completion lands there too. */
	wr = (struct ibv_send_wr){ .wr_id = 74,
				   .opcode = IBV_WR_RDMA_WRITE,
				   .send_flags = IBV_SEND_SIGNALED,
				   .wr.rdma = { (uintptr_t)ba.p + 512,
						ba.mr->rkey } };
	{
		struct ibv_wc w[2];

		poll_n(a.cq, w, 2, 3000);
	}
	post_send1(b.qp, &wr, &bb, 512, 16);
	for (int tries = 0; tries < 3000; tries++) {
		ret = ibv_start_poll(cq, &pa);
		if (ret != ENOENT)
			break;
		poll_one(a.cq, &(struct ibv_wc){ 0 }, 1);
	}
	check("cq_ex.start", !ret, "start_poll found a completion");
	if (ret)
		goto out_pair;
	cqx_one("cq_ex.send_imm", cq, 71, IBV_WC_RECV, 24,
		IBV_WC_GRH | IBV_WC_WITH_IMM, b.qp->qp_num, 0x7070);
	ret = ibv_next_poll(cq);
	if (!ret)
		cqx_one("cq_ex.write_imm", cq, 72, IBV_WC_RECV_RDMA_WITH_IMM,
			40, IBV_WC_GRH | IBV_WC_WITH_IMM, b.qp->qp_num, 0x7373);
	for (int tries = 0; !ret && tries < 3000; tries++) {
		ret = ibv_next_poll(cq);
		if (ret != ENOENT)
			break;
		poll_one(a.cq, &(struct ibv_wc){ 0 }, 1);
	}
	if (!ret)
		cqx_one("cq_ex.write", cq, 74, IBV_WC_RDMA_WRITE, 16, 0,
			b.qp->qp_num, 0);
	check("cq_ex.next", !ret, "next_poll found the other two");
	check("cq_ex.end", ibv_next_poll(cq) == ENOENT,
	      "next_poll past the last: ENOENT");
	ibv_end_poll(cq);
	/*
	 * Debian's librxe 44: an end_poll after next_poll found nothing
	 * moves the consumer index one past the producer, and the next
	 * start_poll hands out a stale slot. Ours finds the CQ empty.
	 */
	ret = ibv_start_poll(cq, &pa);
	note("cq_ex.drained", "start_poll after end_poll: %s", strerror(ret));
	if (!ret)
		ibv_end_poll(cq);
	check("cq_ex.drained",
	      C.ours ?
		      ret == ENOENT && ibv_poll_cq(ibv_cq_ex_to_cq(cq), 1,
						   &(struct ibv_wc){ 0 }) == 0 :
		      ret == 0,
	      "the answer pinned for this provider");
out_pair:
	pair_free(&a, &b);
out:
	ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
}

void conf_ud(void)
{
	if (buf_new(&ba, 4096) || buf_new(&bb, 4096)) {
		check("ud.buffers", false, "buffers");
		return;
	}
	ud();
	cq_ex();
	buf_free(&ba);
	buf_free(&bb);
}
