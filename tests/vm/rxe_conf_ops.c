// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: every opcode rdma_rxe accepts, posted through
 * ibv_post_send() and through the ibv_wr_* builders of an extended QP,
 * with the data checked where it lands and the completion fields on
 * both sides; inline sizes and SGE counts at the limit and one past;
 * memory windows of type 1 and 2 bound, then used with the new rkey.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rxe_conf.h"

static struct side A, B;
static struct buf ba, bb;
/* The check expects a provider's own answer: its values go to a note. */
static bool pin;

enum { LEN = 100, RBUF = 8192 };

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + 1);
}

/* One completion on @cq with the fields expected; prints the line. */
static bool wc_expect(const char *name, struct ibv_cq *cq, uint64_t wr_id,
		      enum ibv_wc_opcode op, uint32_t byte_len,
		      unsigned int flags, struct ibv_wc *out)
{
	struct ibv_wc wc = {};
	int got = poll_one(cq, &wc, 3000);
	bool ok;

	if (out)
		*out = wc;
	if (!got)
		return check(name, false, "no completion");
	ok = wc.status == IBV_WC_SUCCESS && wc.wr_id == wr_id &&
	     wc.opcode == op && wc.byte_len == byte_len && wc.wc_flags == flags;
	if (pin) {
		note(name, "status=%s opcode=%d byte_len=%u flags=0x%x",
		     st(wc.status), wc.opcode, wc.byte_len, wc.wc_flags);
		return check(name, ok, "the fields pinned for this provider");
	}
	return check(name, ok, "status=%s opcode=%d byte_len=%u flags=0x%x",
		     st(wc.status), wc.opcode, wc.byte_len, wc.wc_flags);
}

/*
 * The receiver's completion of a WR carrying an immediate (@imm) or an
 * invalidated key (@inv).
 */
static void recv_expect(const char *name, uint64_t wr_id, enum ibv_wc_opcode op,
			uint32_t len, unsigned int flags, uint32_t imm,
			uint32_t inv)
{
	struct ibv_wc wc;
	char n[64];

	snprintf(n, sizeof(n), "%s.recv", name);
	/* RoCE: every packet has a GRH, and rdma_rxe says so on RC too. */
	flags |= IBV_WC_GRH;
	if (!wc_expect(n, B.cq, wr_id, op, len, flags, &wc))
		return;
	snprintf(n, sizeof(n), "%s.recv_ex", name);
	if (flags & IBV_WC_WITH_IMM)
		check(n, wc.imm_data == htobe32(imm), "imm_data as sent");
	if (inv)
		check(n, wc.invalidated_rkey == inv, "invalidated rkey");
	snprintf(n, sizeof(n), "%s.qp_num", name);
	check(n, wc.qp_num == B.qp->qp_num, "the receiving QP's number");
}

static void data_expect(const char *name, const uint8_t *got,
			const uint8_t *want, size_t len)
{
	char n[64];

	snprintf(n, sizeof(n), "%s.data", name);
	check(n, !memcmp(got, want, len), "%zu bytes arrived intact", len);
}

static void op_sends(void)
{
	struct ibv_send_wr wr = { .wr_id = 1, .send_flags = IBV_SEND_SIGNALED };

	fill(ba.p, LEN, 1);
	post_recv1(B.qp, 101, &bb, 0, RBUF);
	wr.opcode = IBV_WR_SEND;
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("send.sender", A.cq, 1, IBV_WC_SEND, LEN, 0, NULL);
	recv_expect("send", 101, IBV_WC_RECV, LEN, 0, 0, 0);
	data_expect("send", bb.p, ba.p, LEN);

	fill(ba.p, LEN, 2);
	post_recv1(B.qp, 102, &bb, 0, RBUF);
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND_WITH_IMM;
	wr.imm_data = htobe32(0x12345678);
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("send_imm.sender", A.cq, 2, IBV_WC_SEND, LEN, IBV_WC_WITH_IMM,
		  NULL);
	recv_expect("send_imm", 102, IBV_WC_RECV, LEN, IBV_WC_WITH_IMM,
		    0x12345678, 0);
	data_expect("send_imm", bb.p, ba.p, LEN);
}

static void op_rdma(void)
{
	struct ibv_send_wr wr = { .send_flags = IBV_SEND_SIGNALED };
	uint64_t *rv = (uint64_t *)(bb.p + 4096),
		 *lv = (uint64_t *)(ba.p + 4096);

	fill(ba.p, LEN, 3);
	memset(bb.p, 0, RBUF);
	wr.wr_id = 3;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = (uintptr_t)bb.p + 8;
	wr.wr.rdma.rkey = bb.mr->rkey;
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("write.sender", A.cq, 3, IBV_WC_RDMA_WRITE, LEN, 0, NULL);
	data_expect("write", bb.p + 8, ba.p, LEN);

	fill(ba.p, LEN, 4);
	post_recv1(B.qp, 104, &bb, RBUF, 16);
	wr.wr_id = 4;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = htobe32(0xcafe0004);
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("write_imm.sender", A.cq, 4, IBV_WC_RDMA_WRITE, LEN,
		  IBV_WC_WITH_IMM, NULL);
	recv_expect("write_imm", 104, IBV_WC_RECV_RDMA_WITH_IMM, LEN,
		    IBV_WC_WITH_IMM, 0xcafe0004, 0);
	data_expect("write_imm", bb.p + 8, ba.p, LEN);

	fill(bb.p + 512, LEN, 5);
	memset(ba.p, 0, LEN);
	wr.wr_id = 5;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr.rdma.remote_addr = (uintptr_t)bb.p + 512;
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("read.sender", A.cq, 5, IBV_WC_RDMA_READ, LEN, 0, NULL);
	data_expect("read", ba.p, bb.p + 512, LEN);

	*rv = 5;
	*lv = 0;
	wr.wr_id = 6;
	wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr.atomic.remote_addr = (uintptr_t)rv;
	wr.wr.atomic.rkey = bb.mr->rkey;
	wr.wr.atomic.compare_add = 5;
	wr.wr.atomic.swap = 9;
	post_send1(A.qp, &wr, &ba, 4096, 8);
	wc_expect("cmp_swp.sender", A.cq, 6, IBV_WC_COMP_SWAP, 8, 0, NULL);
	check("cmp_swp.data", *lv == 5 && *rv == 9,
	      "old value returned, new value stored");

	wr.wr_id = 7;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.compare_add = 3;
	post_send1(A.qp, &wr, &ba, 4096, 8);
	wc_expect("fetch_add.sender", A.cq, 7, IBV_WC_FETCH_ADD, 8, 0, NULL);
	check("fetch_add.data", *lv == 9 && *rv == 12,
	      "old value returned, sum stored");
}

/* B writes LEN bytes into A's window through @rkey; true if it landed. */
static bool write_through(const char *name, uint32_t rkey, uint64_t addr,
			  uint8_t *dst, unsigned int seed)
{
	struct ibv_send_wr wr = { .wr_id = 50,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { addr, rkey } };

	fill(bb.p + 2048, LEN, seed);
	post_send1(B.qp, &wr, &bb, 2048, LEN);
	if (!wc_expect(name, B.cq, 50, IBV_WC_RDMA_WRITE, LEN, 0, NULL))
		return false;
	return !memcmp(dst, bb.p + 2048, LEN);
}

static void op_mw(void)
{
	struct ibv_mw *mw1 = ibv_alloc_mw(C.pd, IBV_MW_TYPE_1);
	struct ibv_mw *mw2 = ibv_alloc_mw(C.pd, IBV_MW_TYPE_2);
	struct ibv_mw_bind_info info = { .mr = ba.mr,
					 .addr = (uintptr_t)ba.p + 1024,
					 .length = 1024,
					 .mw_access_flags =
						 IBV_ACCESS_REMOTE_WRITE };
	struct ibv_mw_bind bind = { .wr_id = 8,
				    .send_flags = IBV_SEND_SIGNALED,
				    .bind_info = info };
	struct ibv_send_wr wr = { .wr_id = 9,
				  .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED };
	uint32_t old;
	int ret;

	if (!check("mw.alloc", mw1 && mw2, "type 1 and type 2 allocated"))
		goto out;
	old = mw1->rkey;
	ret = ibv_bind_mw(A.qp, mw1, &bind);
	check("mw1.bind", !ret && mw1->rkey != old,
	      "ibv_bind_mw ret=%d, the MW took a new rkey", ret);
	wc_expect("mw1.bind.wc", A.cq, 8, IBV_WC_BIND_MW, 0, 0, NULL);
	check("mw1.write",
	      write_through("mw1.write.wc", mw1->rkey, info.addr, ba.p + 1024,
			    10),
	      "remote write through the new rkey landed in the window");

	wr.bind_mw.mw = mw2;
	wr.bind_mw.rkey = ibv_inc_rkey(mw2->rkey);
	wr.bind_mw.bind_info = info;
	wr.bind_mw.bind_info.addr += 512;
	ret = ibv_post_send(A.qp, &wr, &(struct ibv_send_wr *){ NULL });
	check("mw2.bind", !ret, "IBV_WR_BIND_MW posted, ret=%d", ret);
	wc_expect("mw2.bind.wc", A.cq, 9, IBV_WC_BIND_MW, 0, 0, NULL);
	check("mw2.write",
	      write_through("mw2.write.wc", wr.bind_mw.rkey, info.addr + 512,
			    ba.p + 1536, 11),
	      "remote write through the new rkey landed in the window");

	/* LOCAL_INV of the type 2 MW by its key, on the QP it is bound to. */
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 10;
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.invalidate_rkey = ibv_inc_rkey(mw2->rkey);
	ret = ibv_post_send(A.qp, &wr, &(struct ibv_send_wr *){ NULL });
	check("local_inv", !ret, "posted, ret=%d", ret);
	wc_expect("local_inv.wc", A.cq, 10, IBV_WC_LOCAL_INV, 0, 0, NULL);
out:
	if (mw1)
		ibv_dealloc_mw(mw1);
	if (mw2)
		ibv_dealloc_mw(mw2);
}

/* SEND_WITH_INV: the receiver's type 2 MW, bound on B, is invalidated. */
static void op_send_inv(void)
{
	struct ibv_mw *mw = ibv_alloc_mw(C.pd, IBV_MW_TYPE_2);
	struct ibv_send_wr wr = { .wr_id = 11,
				  .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED };
	uint32_t rkey;

	if (!check("send_inv.mw", mw != NULL, "type 2 MW on the receiver"))
		return;
	rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info =
		(struct ibv_mw_bind_info){ .mr = bb.mr,
					   .addr = (uintptr_t)bb.p,
					   .length = 4096,
					   .mw_access_flags =
						   IBV_ACCESS_REMOTE_WRITE };
	ibv_post_send(B.qp, &wr, &(struct ibv_send_wr *){ NULL });
	wc_expect("send_inv.bind", B.cq, 11, IBV_WC_BIND_MW, 0, 0, NULL);

	memset(&wr, 0, sizeof(wr));
	fill(ba.p, LEN, 12);
	post_recv1(B.qp, 112, &bb, 0, RBUF);
	wr.wr_id = 12;
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.invalidate_rkey = rkey;
	post_send1(A.qp, &wr, &ba, 0, LEN);
	wc_expect("send_inv.sender", A.cq, 12, IBV_WC_SEND, LEN, 0, NULL);
	/*
	 * rdma_rxe writes the kernel's IB_WC_WITH_INVALIDATE (bit 2), which
	 * in the verbs API is IBV_WC_IP_CSUM_OK; Debian's librxe hands the
	 * bit on unchanged, ours reports IBV_WC_WITH_INV.
	 */
	pin = true;
	recv_expect("send_inv", 112, IBV_WC_RECV, LEN,
		    C.ours ? IBV_WC_WITH_INV : IBV_WC_IP_CSUM_OK, 0, rkey);
	pin = false;
	data_expect("send_inv", bb.p, ba.p, LEN);
	ibv_dealloc_mw(mw);
}

/* @n SGEs of @each bytes (or inline when @inl) from A to B. */
static int send_sges(int n, uint32_t each, bool inl, struct ibv_send_wr **bad)
{
	struct ibv_sge sge[64];
	struct ibv_send_wr wr = { .wr_id = 20,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED |
						(inl ? IBV_SEND_INLINE : 0),
				  .sg_list = sge,
				  .num_sge = n };
	int ret;

	for (int i = 0; i < n && i < 64; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)ba.p + i * 64, each,
					   ba.mr->lkey };
	*bad = NULL;
	ret = ibv_post_send(A.qp, &wr, bad);

	if (*bad)
		*bad = *bad == &wr ? (struct ibv_send_wr *)1 : NULL;
	return ret;
}

static void op_limits(void)
{
	uint32_t sge = A.cap.max_send_sge, inl = A.cap.max_inline_data;
	struct ibv_send_wr *bad;
	struct ibv_recv_wr rwr, *rbad = NULL;
	struct ibv_sge rsge[64];
	uint8_t want[4096];
	int ret;

	printf("info limits: max_send_sge %u max_recv_sge %u inline %u\n", sge,
	       A.cap.max_recv_sge, inl);
	fill(ba.p, 64 * 64, 13);
	post_recv1(B.qp, 120, &bb, 0, RBUF);
	ret = send_sges((int)sge, 16, false, &bad);
	check("sge.at_limit", !ret, "%u SGEs posted, ret=%d", sge, ret);
	wc_expect("sge.at_limit.wc", B.cq, 120, IBV_WC_RECV, sge * 16,
		  IBV_WC_GRH, NULL);
	for (uint32_t i = 0; i < sge; i++)
		memcpy(want + i * 16, ba.p + i * 64, 16);
	data_expect("sge.at_limit", bb.p, want, sge * 16);
	wc_expect("sge.at_limit.sender", A.cq, 20, IBV_WC_SEND, sge * 16, 0,
		  NULL);
	ret = send_sges((int)sge + 1, 16, false, &bad);
	check("sge.past_limit", ret == EINVAL && bad,
	      "%u SGEs refused, ret=%s bad_wr=%s", sge + 1, strerror(ret),
	      bad ? "the WR" : "unset");

	post_recv1(B.qp, 121, &bb, 0, RBUF);
	ret = send_sges(1, inl, true, &bad);
	check("inline.at_limit", !ret, "%u bytes inline posted, ret=%d", inl,
	      ret);
	wc_expect("inline.at_limit.wc", B.cq, 121, IBV_WC_RECV, inl, IBV_WC_GRH,
		  NULL);
	data_expect("inline.at_limit", bb.p, ba.p, inl);
	wc_expect("inline.at_limit.sender", A.cq, 20, IBV_WC_SEND, inl, 0,
		  NULL);
	ret = send_sges(1, inl + 1, true, &bad);
	check("inline.past_limit", ret == EINVAL && bad,
	      "%u bytes inline refused, ret=%s bad_wr=%s", inl + 1,
	      strerror(ret), bad ? "the WR" : "unset");
	/* The inline bytes may come from several buffers. */
	post_recv1(B.qp, 122, &bb, 0, RBUF);
	ret = send_sges(4, inl / 4, true, &bad);
	check("inline.gather", !ret, "4 buffers inline, ret=%d", ret);
	wc_expect("inline.gather.wc", B.cq, 122, IBV_WC_RECV, inl / 4 * 4,
		  IBV_WC_GRH, NULL);
	for (int i = 0; i < 4; i++)
		memcpy(want + i * (inl / 4), ba.p + i * 64, inl / 4);
	data_expect("inline.gather", bb.p, want, inl / 4 * 4);
	wc_expect("inline.gather.sender", A.cq, 20, IBV_WC_SEND, inl / 4 * 4, 0,
		  NULL);

	for (uint32_t i = 0; i <= B.cap.max_recv_sge && i < 64; i++)
		rsge[i] = (struct ibv_sge){ (uintptr_t)bb.p + i * 64, 64,
					    bb.mr->lkey };
	rwr = (struct ibv_recv_wr){ .wr_id = 123,
				    .sg_list = rsge,
				    .num_sge = (int)B.cap.max_recv_sge + 1 };
	ret = ibv_post_recv(B.qp, &rwr, &rbad);
	check("recv_sge.past_limit", ret == EINVAL && rbad == &rwr,
	      "%u receive SGEs refused, ret=%s bad_wr=%s",
	      B.cap.max_recv_sge + 1, strerror(ret),
	      rbad == &rwr ? "the WR" : "other");
}

/* The same opcodes built with ibv_wr_*() on an extended QP. */
static void op_wr_api(void)
{
	struct ibv_qp_ex *x = A.qpx;
	uint64_t *rv = (uint64_t *)(bb.p + 4096),
		 *lv = (uint64_t *)(ba.p + 4096);
	int ret;

	fill(ba.p, LEN, 30);
	post_recv1(B.qp, 130, &bb, 0, RBUF);
	post_recv1(B.qp, 131, &bb, RBUF, RBUF);
	*rv = 40;
	ibv_wr_start(x);
	x->wr_id = 30;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(x, htobe32(0xabc));
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)ba.p, LEN);
	x->wr_id = 31;
	ibv_wr_rdma_write_imm(x, bb.mr->rkey, (uintptr_t)bb.p + 300,
			      htobe32(0xdef));
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)ba.p, LEN);
	x->wr_id = 32;
	ibv_wr_rdma_read(x, bb.mr->rkey, (uintptr_t)bb.p + 300);
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)ba.p + 2048, LEN);
	x->wr_id = 33;
	ibv_wr_atomic_fetch_add(x, bb.mr->rkey, (uintptr_t)rv, 2);
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)lv, 8);
	x->wr_id = 34;
	ibv_wr_atomic_cmp_swp(x, bb.mr->rkey, (uintptr_t)rv, 42, 7);
	ibv_wr_set_sge(x, ba.mr->lkey, (uintptr_t)lv + 8, 8);
	ret = ibv_wr_complete(x);
	check("wr.batch", !ret, "five WRs in one batch, ret=%d", ret);
	wc_expect("wr.send_imm.sender", A.cq, 30, IBV_WC_SEND, LEN,
		  IBV_WC_WITH_IMM, NULL);
	wc_expect("wr.write_imm.sender", A.cq, 31, IBV_WC_RDMA_WRITE, LEN,
		  IBV_WC_WITH_IMM, NULL);
	wc_expect("wr.read.sender", A.cq, 32, IBV_WC_RDMA_READ, LEN, 0, NULL);
	wc_expect("wr.fetch_add.sender", A.cq, 33, IBV_WC_FETCH_ADD, 8, 0,
		  NULL);
	wc_expect("wr.cmp_swp.sender", A.cq, 34, IBV_WC_COMP_SWAP, 8, 0, NULL);
	recv_expect("wr.send_imm", 130, IBV_WC_RECV, LEN, IBV_WC_WITH_IMM,
		    0xabc, 0);
	recv_expect("wr.write_imm", 131, IBV_WC_RECV_RDMA_WITH_IMM, LEN,
		    IBV_WC_WITH_IMM, 0xdef, 0);
	data_expect("wr.send_imm", bb.p, ba.p, LEN);
	data_expect("wr.write_imm", bb.p + 300, ba.p, LEN);
	data_expect("wr.read", ba.p + 2048, ba.p, LEN);
	check("wr.atomics", lv[0] == 40 && lv[1] == 42 && *rv == 7,
	      "fetch-add then compare-swap, old values returned");

	/* Inline through the builder, with and without IBV_SEND_INLINE. */
	for (int flag = 1; flag >= 0; flag--) {
		const char *n = flag ? "wr.inline.flag" : "wr.inline.noflag";
		struct ibv_wc wc = {};
		char name[64];

		fill(ba.p, LEN, 40 + flag);
		memset(bb.p, 0, LEN);
		post_recv1(B.qp, 140 + flag, &bb, 0, RBUF);
		ibv_wr_start(x);
		x->wr_id = 40 + flag;
		x->wr_flags = IBV_SEND_SIGNALED | (flag ? IBV_SEND_INLINE : 0);
		ibv_wr_send(x);
		ibv_wr_set_inline_data(x, ba.p, LEN);
		ret = ibv_wr_complete(x);
		poll_one(A.cq, &wc, 3000);
		snprintf(name, sizeof(name), "%s.sender", n);
		if (!flag) {
			/*
			 * The kernel takes the payload from the slot only when
			 * the WQE says IBV_SEND_INLINE; Debian's librxe does
			 * not add it, so rdma_rxe walks an empty gather list
			 * and fails the WQE (kernel_failed()).
			 */
			struct ibv_wc r = {};
			bool ok;
			int got;

			got = poll_one(B.cq, &r, C.ours ? 3000 : 100);
			note(n, "sender status=%s receiver status=%s",
			     st(wc.status), got ? st(r.status) : "none");
			ok = C.ours ? !ret && wc.status == IBV_WC_SUCCESS &&
					      r.status == IBV_WC_SUCCESS &&
					      r.byte_len == LEN &&
					      !memcmp(bb.p, ba.p, LEN) :
				      kernel_failed(wc.status);
			check(n, ok, "the answer pinned for this provider");
			return;
		}
		check(name, !ret && wc.status == IBV_WC_SUCCESS,
		      "ret=%d status=%s", ret, st(wc.status));
		recv_expect(n, 140 + flag, IBV_WC_RECV, LEN, 0, 0, 0);
		data_expect(n, bb.p, ba.p, LEN);
	}
}

void conf_ops(void)
{
	struct qp_opts o = {
		.send_sge = 4, .recv_sge = 4, .inline_data = 128, .ex = true
	};
	int ret;

	ret = buf_new(&ba, 4 * RBUF);
	if (!ret)
		ret = buf_new(&bb, 4 * RBUF);
	if (!ret)
		ret = pair_new(&A, &B, &o, NULL);
	if (!check("ops.setup", !ret, "RC pair of extended QPs, ret=%d", ret))
		return;
	op_sends();
	op_rdma();
	op_mw();
	op_send_inv();
	op_limits();
	op_wr_api();
	pair_free(&A, &B);
	buf_free(&ba);
	buf_free(&bb);
}
