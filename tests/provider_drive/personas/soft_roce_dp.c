// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test, rxe persona: the data path. What a Soft-RoCE
 * provider writes into the queues the fake kernel (personas/rxe.c)
 * shares with it, slot by slot, and what it reads back from a CQ the
 * kernel filled: WQEs of every kind, inline data, the extended QP's
 * builders, UD with and without the kernel's AH number, memory window
 * binds, full queues and their wrap-around, SRQs, CQ polling classic
 * and extended.
 */
#include <dlfcn.h>
#include <endian.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <rdma/rdma_user_rxe.h>

#include "soft_roce_dp.h"
#include "t_drive.h"

/*
 * An AH whose kernel answers ah_num 0 makes a Soft-RoCE provider build
 * the address vector itself: the source GID (ibv_query_gid()) and the
 * destination's MAC (ibv_resolve_eth_l2_from_gid(), the host's
 * neighbour table). The fake device has no GIDs and no network, so
 * while @sr_fake_l2 is set (that one ibv_create_ah()) the test answers
 * both for the provider: source ::ffff:192.0.2.1, every destination at
 * 02:00:5e:00:02:09. Otherwise, and for every other persona, the
 * library's own verbs answer.
 */
static bool sr_fake_l2;

int ibv_query_gid(struct ibv_context *ctx, uint8_t port, int index,
		  union ibv_gid *gid);
int ibv_query_gid(struct ibv_context *ctx, uint8_t port, int index,
		  union ibv_gid *gid)
{
	static const union ibv_gid src = {
		.raw = { [10] = 0xff, [11] = 0xff, [12] = 192, [14] = 2, [15] = 1 }
	};
	int (*real)(struct ibv_context *, uint8_t, int, union ibv_gid *);

	if (sr_fake_l2) {
		*gid = src;
		return 0;
	}
	real = dlvsym(RTLD_NEXT, "ibv_query_gid", "IBVERBS_1.1");
	return real ? real(ctx, port, index, gid) : -1;
}

int ibv_resolve_eth_l2_from_gid(struct ibv_context *ctx,
				struct ibv_ah_attr *attr, uint8_t mac[6],
				uint16_t *vid);
int ibv_resolve_eth_l2_from_gid(struct ibv_context *ctx,
				struct ibv_ah_attr *attr, uint8_t mac[6],
				uint16_t *vid)
{
	static const uint8_t peer[6] = { 0x02, 0x00, 0x5e, 0x00, 0x02, 0x09 };
	int (*real)(struct ibv_context *, struct ibv_ah_attr *, uint8_t *,
		    uint16_t *);

	if (sr_fake_l2) {
		memcpy(mac, peer, sizeof(peer));
		if (vid)
			*vid = 0xffff;
		return 0;
	}
	real = dlvsym(RTLD_NEXT, "ibv_resolve_eth_l2_from_gid", "IBVERBS_1.1");
	return real ? real(ctx, attr, mac, vid) : -1;
}

/*
 * The kernel's side of the first CQ: four completions written into its
 * ring as rdma_rxe writes them (struct ib_uverbs_wc in each slot, then
 * the producer index moved past them), the last after the index wraps;
 * the provider must hand back each field of each, in order, and no more.
 */
static void cqes_fill(struct rxe_queue_buf *buf)
{
	uint32_t prod = buf->producer_index;

	for (uint32_t i = 0; i < 4; i++) {
		struct ib_uverbs_wc k = {
			.wr_id = 0x1000 + i,
			.status = i == 3 ? IBV_WC_REM_ACCESS_ERR :
					   IBV_WC_SUCCESS,
			.opcode = i & 1 ? IBV_WC_RECV : IBV_WC_RDMA_READ,
			.vendor_err = i == 3 ? 0x33 : 0,
			.byte_len = 64 * (i + 1),
			.ex.imm_data = htobe32(0xabc0 + i),
			.qp_num = 0x11 + i,
			.src_qp = 0x21 + i,
			.wc_flags = i & 1 ? IBV_WC_WITH_IMM : 0,
			.pkey_index = (uint16_t)i,
			.slid = (uint16_t)(0x100 + i),
			.sl = (uint8_t)i,
			.dlid_path_bits = (uint8_t)(i << 1),
			.port_num = 1,
		};

		memcpy(buf->data + ((size_t)prod << buf->log2_elem_size), &k,
		       sizeof(k));
		prod = (prod + 1) & buf->index_mask;
	}
	__atomic_store_n(&buf->producer_index, prod, __ATOMIC_RELEASE);
}

/* The first CQ's completions through ibv_poll_cq(), three at a time. */
void sr_cq_fill_and_poll(struct ibv_cq *cq)
{
	struct rxe_queue_buf *buf = sr_queue_of('c');
	struct ibv_wc wc[3];
	int n;

	if (!cq || !buf)
		return;
	cqes_fill(buf);
	do {
		n = ibv_poll_cq(cq, 3, wc);
		t_uv_note("poll_cq ret=%d consumer=%u", n,
			  __atomic_load_n(&buf->consumer_index,
					  __ATOMIC_ACQUIRE));
		for (int i = 0; i < n; i++)
			t_uv_note("  wc %" PRIx64 " st=%d op=%d ve=%x len=%u"
				  " imm=%x qp=%x src=%x fl=%x pk=%u slid=%x"
				  " sl=%u bits=%u",
				  wc[i].wr_id, wc[i].status, wc[i].opcode,
				  wc[i].vendor_err, wc[i].byte_len,
				  be32toh(wc[i].imm_data), wc[i].qp_num,
				  wc[i].src_qp, wc[i].wc_flags,
				  wc[i].pkey_index, wc[i].slid, wc[i].sl,
				  wc[i].dlid_path_bits);
	} while (n > 0);
}

/* The length of a slot of one SGE, as the kernel reads it. */
#define SEND_SLOT (sizeof(struct rxe_send_wqe) + sizeof(struct rxe_sge))
#define RECV_SLOT (sizeof(struct rxe_recv_wqe) + sizeof(struct rxe_sge))

/* The @n slots before a queue's producer index, as the kernel reads them. */
static void slots_dump(const char *what, struct rxe_queue_buf *q, uint32_t n,
		       size_t len)
{
	uint32_t prod = __atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE);

	for (uint32_t i = n; i > 0; i--) {
		uint32_t at = (prod - i) & q->index_mask;

		t_uv_dump(what, q->data + ((size_t)at << q->log2_elem_size),
			  len);
	}
}

/* The last send queue's @n slots, if the post (@ret) went through. */
static void last_sq_dump(int ret, const char *what, uint32_t n, size_t len)
{
	if (!ret && sr_last_queue_of('s'))
		slots_dump(what, sr_last_queue_of('s'), n, len);
}

/*
 * A QP of @type on @base's PD and CQs, one SGE a WR: @cap's WR counts
 * and inline room in, the granted capacities out.
 */
static struct ibv_qp *qp_beside(struct ibv_qp *base, enum ibv_qp_type type,
				struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr init = { .send_cq = base->send_cq,
					 .recv_cq = base->recv_cq,
					 .qp_type = type,
					 .cap = *cap };
	struct ibv_qp *qp;

	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(base->pd, &init);
	*cap = init.cap;
	return qp;
}

/*
 * @qp (which may be NULL) to RTS by its state alone, for the cases that
 * post sends: rdma_rxe refuses the send doorbell below RTS, and our
 * librxe refuses such a post before it writes anything.
 */
static struct ibv_qp *to_rts(struct ibv_qp *qp)
{
	static const enum ibv_qp_state path[] = { IBV_QPS_INIT, IBV_QPS_RTR,
						  IBV_QPS_RTS };

	for (size_t i = 0; qp && i < sizeof(path) / sizeof(path[0]); i++) {
		struct ibv_qp_attr a = { .qp_state = path[i] };
		int ret = ibv_modify_qp(qp, &a, IBV_QP_STATE);

		if (ret)
			t_uv_note("modify_qp %d ret=%d", path[i], ret);
	}
	return qp;
}

/* The same through ibv_create_qp_ex(), with the builders of @ops. */
static struct ibv_qp *qp_ex_beside(struct ibv_qp *base, enum ibv_qp_type type,
				   struct ibv_qp_cap cap, uint64_t ops)
{
	struct ibv_qp_init_attr_ex init = {
		.send_cq = base->send_cq,
		.recv_cq = base->recv_cq,
		.qp_type = type,
		.cap = cap,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = base->pd,
		.send_ops_flags = ops,
	};

	init.cap.max_send_sge = init.cap.max_recv_sge = 1;
	return ibv_create_qp_ex(base->context, &init);
}

/*
 * The same completions through an extended CQ of its own: start_poll,
 * next_poll until the ring is empty, end_poll, every field read.
 */
void sr_cq_ex_poll(struct ibv_context *ctx)
{
	struct ibv_cq_init_attr_ex attr = { .cqe = 8,
					    .wc_flags = IBV_WC_STANDARD_FLAGS };
	struct ibv_poll_cq_attr pa = { 0 };
	struct ibv_cq_ex *cq = ibv_create_cq_ex(ctx, &attr);
	struct rxe_queue_buf *buf;
	int ret;

	if (!t_note_made("cq_ex(poll)", cq))
		return;
	buf = sr_last_queue_of('c');
	if (buf) {
		cqes_fill(buf);
		ret = ibv_start_poll(cq, &pa);
		t_uv_note("start_poll ret=%d", ret);
		for (int more = !ret; more; more = !ibv_next_poll(cq))
			t_uv_note("  wc_ex %" PRIx64 " st=%d op=%d ve=%x len=%u"
				  " imm=%x qp=%x src=%x fl=%x slid=%x sl=%u"
				  " bits=%u",
				  cq->wr_id, cq->status, ibv_wc_read_opcode(cq),
				  ibv_wc_read_vendor_err(cq),
				  ibv_wc_read_byte_len(cq),
				  be32toh(ibv_wc_read_imm_data(cq)),
				  ibv_wc_read_qp_num(cq),
				  ibv_wc_read_src_qp(cq),
				  ibv_wc_read_wc_flags(cq),
				  ibv_wc_read_slid(cq), ibv_wc_read_sl(cq),
				  ibv_wc_read_dlid_path_bits(cq));
		if (!ret)
			ibv_end_poll(cq);
		t_uv_note("end_poll consumer=%u start_poll again ret=%d",
			  __atomic_load_n(&buf->consumer_index,
					  __ATOMIC_ACQUIRE),
			  ibv_start_poll(cq, &pa));
	}
	t_uv_note("destroy cq_ex(poll) ret=%d",
		  ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
}

/*
 * An inline SEND on a QP of its own that asks for inline room: the
 * payload goes into the slot, no SGE.
 */
static void inline_dump(struct ibv_qp *base)
{
	static const char payload[12] = "inline bytes";
	struct ibv_qp_cap cap = { .max_send_wr = 4,
				  .max_recv_wr = 4,
				  .max_inline_data = 32 };
	struct ibv_sge sge = { .addr = (uintptr_t)payload,
			       .length = sizeof(payload) };
	struct ibv_send_wr wr = { .wr_id = 11,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE },
			   *bad;
	struct ibv_qp *qp = to_rts(qp_beside(base, IBV_QPT_RC, &cap));
	int ret;

	if (!t_note_made("inline qp", qp))
		return;
	t_uv_note("inline qp max_inline=%u", cap.max_inline_data);
	ret = ibv_post_send(qp, &wr, &bad);
	t_uv_note("post_send(inline) ret=%d", ret);
	last_sq_dump(ret, "inline_wqe", 1,
		     sizeof(struct rxe_send_wqe) + sizeof(payload));
	t_uv_note("destroy inline qp ret=%d", ibv_destroy_qp(qp));
}

/*
 * The same kinds of WR through the extended QP's builders, in one batch
 * on a QP of their own, each slot dumped.
 */
static void wr_ex_dump(struct ibv_qp *base)
{
	static char buf[64];
	static const char payload[12] = "inline bytes";
	struct ibv_qp_cap cap = { .max_send_wr = 8,
				  .max_recv_wr = 4,
				  .max_inline_data = 32 };
	struct ibv_qp *qp = to_rts(qp_ex_beside(
		base, IBV_QPT_RC, cap,
		IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_WRITE |
			IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
			IBV_QP_EX_WITH_SEND));
	struct ibv_qp_ex *qx;
	int ret;

	if (!t_note_made("wr_ex qp", qp))
		return;
	qx = ibv_qp_to_qp_ex(qp);
	if (!qx) {
		t_uv_note("wr_ex qp has no ibv_qp_ex");
		ibv_destroy_qp(qp);
		return;
	}
	t_uv_name("wr_ex_buf", buf, sizeof(buf));
	ibv_wr_start(qx);
	qx->wr_id = 20;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(qx, htobe32(0x55667788));
	ibv_wr_set_sge(qx, 0x1234, (uintptr_t)buf, 16);
	qx->wr_id = 21;
	qx->wr_flags = 0;
	ibv_wr_rdma_write(qx, 0x77, 0x30000);
	ibv_wr_set_sge(qx, 0x1234, (uintptr_t)buf, 8);
	qx->wr_id = 22;
	ibv_wr_atomic_fetch_add(qx, 0x88, 0x40000, 5);
	ibv_wr_set_sge(qx, 0x1234, (uintptr_t)buf, 8);
	/*
	 * The flag a careful user sets: without it Debian's librxe leaves
	 * send_flags without IBV_SEND_INLINE and ours adds it, which
	 * rdma_rxe needs (README.md of providers/rxe).
	 */
	qx->wr_id = 23;
	qx->wr_flags = IBV_SEND_INLINE;
	ibv_wr_send(qx);
	ibv_wr_set_inline_data(qx, (void *)payload, sizeof(payload));
	ret = ibv_wr_complete(qx);
	t_uv_note("wr_complete ret=%d", ret);
	last_sq_dump(ret, "wr_ex_wqe", 4, SEND_SLOT);
	t_uv_unname(buf);
	t_uv_note("destroy wr_ex qp ret=%d", ibv_destroy_qp(qp));
}

/* The same UD SEND through the builders of an extended UD QP. */
static void ud_ex_dump(struct ibv_qp *base, struct ibv_ah *ah, const char *what)
{
	static char buf[64];
	struct ibv_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 4 };
	struct ibv_qp *qp = to_rts(
		qp_ex_beside(base, IBV_QPT_UD, cap, IBV_QP_EX_WITH_SEND));
	struct ibv_qp_ex *qx = qp ? ibv_qp_to_qp_ex(qp) : NULL;
	int ret;

	if (!t_note_made("ud qp_ex", qx)) {
		if (qp)
			ibv_destroy_qp(qp);
		return;
	}
	t_uv_name("ud_ex_buf", buf, sizeof(buf));
	ibv_wr_start(qx);
	qx->wr_id = 31;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qx);
	ibv_wr_set_ud_addr(qx, ah, 0x98, 0x22222222);
	ibv_wr_set_sge(qx, 0x1234, (uintptr_t)buf, 32);
	ret = ibv_wr_complete(qx);
	t_uv_note("wr_complete(ud) ret=%d", ret);
	last_sq_dump(ret, what, 1, SEND_SLOT);
	t_uv_unname(buf);
	t_uv_note("destroy ud qp_ex ret=%d", ibv_destroy_qp(qp));
}

/*
 * A UD SEND to an AH (a RoCE peer, 192.0.2.9) on a UD QP of its own:
 * the slot carries the remote QPN, the Q_Key and the AH's number; or,
 * when the kernel answered CREATE_AH with number 0 (@ah_num, as an
 * rdma_rxe before AH numbers does), the whole address vector.
 */
static void ud_case(struct ibv_qp *base, uint32_t ah_num, const char *what,
		    const char *what_ex)
{
	static char buf[64];
	struct ibv_ah_attr aa = { .is_global = 1,
				  .port_num = 1,
				  .grh = { .hop_limit = 64,
					   .dgid.raw = { [10] = 0xff,
							 [11] = 0xff,
							 [12] = 192,
							 [14] = 2,
							 [15] = 9 } } };
	struct ibv_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 4 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = 32,
			       .lkey = 0x1234 };
	struct ibv_send_wr wr = { .wr_id = 30,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	struct ibv_ah *ah;
	struct ibv_qp *qp;
	int ret;

	if (!ah_num) { /* every field of the GRH seen in the AV */
		aa.grh.flow_label = 0x12345;
		aa.grh.sgid_index = 1;
		aa.grh.traffic_class = 0x20;
	}
	sr_ah_num = ah_num;
	sr_fake_l2 = !ah_num;
	ah = ibv_create_ah(base->pd, &aa);
	sr_fake_l2 = false;
	sr_ah_num = 1;

	if (!t_note_made("ud ah", ah))
		return;
	qp = to_rts(qp_beside(base, IBV_QPT_UD, &cap));
	if (t_note_made("ud qp", qp)) {
		wr.wr.ud.ah = ah;
		wr.wr.ud.remote_qpn = 0x99;
		wr.wr.ud.remote_qkey = 0x11111111;
		t_uv_name("ud_buf", buf, sizeof(buf));
		ret = ibv_post_send(qp, &wr, &bad);
		t_uv_note("post_send(ud) ret=%d", ret);
		last_sq_dump(ret, what, 1, SEND_SLOT);
		t_uv_unname(buf);
		t_uv_note("destroy ud qp ret=%d", ibv_destroy_qp(qp));
	}
	ud_ex_dump(base, ah, what_ex);
	t_uv_note("destroy ud ah ret=%d", ibv_destroy_ah(ah));
}

static void ud_dump(struct ibv_qp *base)
{
	ud_case(base, 1, "ud_wqe", "ud_ex_wqe");
	ud_case(base, 0, "av_wqe", "av_ex_wqe");
}

/* The same bind through ibv_wr_bind_mw() on an extended QP of its own. */
static void bind_ex_dump(struct ibv_qp *base, struct ibv_mw *mw,
			 const struct ibv_mw_bind_info *info)
{
	struct ibv_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 4 };
	struct ibv_qp *qp = to_rts(
		qp_ex_beside(base, IBV_QPT_RC, cap, IBV_QP_EX_WITH_BIND_MW));
	struct ibv_qp_ex *qx = qp ? ibv_qp_to_qp_ex(qp) : NULL;
	int ret;

	if (!t_note_made("bind qp_ex", qx)) {
		if (qp)
			ibv_destroy_qp(qp);
		return;
	}
	ibv_wr_start(qx);
	qx->wr_id = 41;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(qx, mw, ibv_inc_rkey(ibv_inc_rkey(mw->rkey)), info);
	ret = ibv_wr_complete(qx);
	t_uv_note("wr_complete(bind) ret=%d", ret);
	last_sq_dump(ret, "bind_ex_wqe", 1, sizeof(struct rxe_send_wqe));
	t_uv_note("destroy bind qp_ex ret=%d", ibv_destroy_qp(qp));
}

/*
 * A type 2 MW bound by an IBV_WR_BIND_MW send WR over an MR of the
 * persona's: the slot carries the MW's rkey, its next one, the MR's
 * lkey, the range and the access.
 */
static void bind_dump(struct ibv_qp *qp)
{
	static char buf[4096];
	struct ibv_mr *mr =
		ibv_reg_mr(qp->pd, buf, sizeof(buf),
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_MW_BIND);
	struct ibv_mw *mw = mr ? ibv_alloc_mw(qp->pd, IBV_MW_TYPE_2) : NULL;
	struct ibv_send_wr wr = { .wr_id = 40,
				  .opcode = IBV_WR_BIND_MW,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	if (t_note_made("bind mr", mr) && t_note_made("bind mw", mw)) {
		t_uv_name("bind_buf", buf, sizeof(buf));
		wr.bind_mw.mw = mw;
		wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
		wr.bind_mw.bind_info.mr = mr;
		wr.bind_mw.bind_info.addr = (uintptr_t)buf + 64;
		wr.bind_mw.bind_info.length = 256;
		wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
		ret = ibv_post_send(qp, &wr, &bad);
		t_uv_note("post_send(bind) ret=%d rkey=%x lkey=%x", ret,
			  wr.bind_mw.rkey, mr->lkey);
		if (!ret && sr_queue_of('s'))
			slots_dump("bind_wqe", sr_queue_of('s'), 1,
				   sizeof(struct rxe_send_wqe));
		bind_ex_dump(qp, mw, &wr.bind_mw.bind_info);
		t_uv_unname(buf);
	}
	if (mw)
		t_uv_note("dealloc bind mw ret=%d", ibv_dealloc_mw(mw));
	if (mr)
		t_uv_note("dereg bind mr ret=%d", ibv_dereg_mr(mr));
}

/*
 * A queue filled until the provider refuses (the fake kernel consumes
 * nothing), then emptied as the kernel would and filled past its end:
 * how many fit, what the refusal says, where the index wraps. One of
 * these a kind of queue; @post posts the WR of the kind, numbered by
 * wr_id.
 */
struct fill {
	const char *what; /* the note's prefix: "sq", "rq", "srq" */
	int (*post)(struct fill *f);
	struct ibv_qp *qp;
	struct ibv_srq *srq;
	struct rxe_queue_buf *q;
	struct ibv_send_wr swr, *bad_s;
	struct ibv_recv_wr rwr, *bad_r;
	int ret; /* the last post's, or what stopped the filling */
};

static int post_sq(struct fill *f)
{
	return ibv_post_send(f->qp, &f->swr, &f->bad_s);
}

static int post_rq(struct fill *f)
{
	return ibv_post_recv(f->qp, &f->rwr, &f->bad_r);
}

static int post_srq(struct fill *f)
{
	return ibv_post_srq_recv(f->srq, &f->rwr, &f->bad_r);
}

/* Posts WRs numbered from @first until one is refused or @most went. */
static int fill_up(struct fill *f, int most, uint64_t first)
{
	int n;

	for (n = 0; n < most && !f->ret; n++) {
		f->swr.wr_id = f->rwr.wr_id = first + n;
		f->ret = f->post(f);
	}
	return n;
}

/*
 * @f filled with WRs from @first on, then all but @left of them taken
 * by the kernel and 20 more (from @first + 100) posted over the wrap;
 * the last slot written, @len bytes of it, dumped as @slot.
 */
static void fill_and_wrap(struct fill *f, int most, uint64_t first,
			  uint32_t left, const char *slot, size_t len)
{
	int n = fill_up(f, most, first);
	bool bad_wr = f->bad_s == &f->swr || f->bad_r == &f->rwr;
	uint32_t prod;

	t_uv_note("%s full after %d ret=%d bad=%s", f->what, n - 1, f->ret,
		  bad_wr ? "wr" : "other");
	if (!f->q)
		return;
	prod = __atomic_load_n(&f->q->producer_index, __ATOMIC_ACQUIRE);
	__atomic_store_n(&f->q->consumer_index,
			 (prod - left) & f->q->index_mask, __ATOMIC_RELEASE);
	f->ret = 0;
	n = fill_up(f, 20, first + 100);
	t_uv_note("%s again %d ret=%d producer=%u", f->what, n, f->ret,
		  __atomic_load_n(&f->q->producer_index, __ATOMIC_ACQUIRE));
	slots_dump(slot, f->q, 1, len);
}

/* The send queue of a QP of its own, all of it taken before the wrap. */
static void sq_full_dump(struct ibv_qp *base)
{
	static char buf[64];
	struct ibv_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = 4 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 8 };
	struct fill f = {
		.what = "sq",
		.post = post_sq,
		.qp = to_rts(qp_beside(base, IBV_QPT_RC, &cap)),
		.swr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND },
	};

	if (!t_note_made("full qp", f.qp))
		return;
	f.q = sr_last_queue_of('s');
	t_uv_name("full_buf", buf, sizeof(buf));
	fill_and_wrap(&f, 64, 100, 0, "wrapped_wqe", SEND_SLOT);
	t_uv_unname(buf);
	t_uv_note("destroy full qp ret=%d", ibv_destroy_qp(f.qp));
}

/*
 * The receive side of the same: a QP's receive queue, which takes no
 * WR in RESET and does in INIT.
 */
static void rq_full_dump(struct ibv_qp *base)
{
	static char buf[64];
	struct ibv_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 16 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 8 };
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct fill f = {
		.what = "rq",
		.post = post_rq,
		.qp = qp_beside(base, IBV_QPT_RC, &cap),
		.rwr = { .wr_id = 299, .sg_list = &sge, .num_sge = 1 },
	};

	if (!t_note_made("rq full qp", f.qp))
		return;
	f.q = sr_last_queue_of('r');
	t_uv_name("rq_buf", buf, sizeof(buf));
	f.ret = post_rq(&f);
	t_uv_note("post_recv(reset) ret=%d bad=%s", f.ret,
		  f.bad_r == &f.rwr ? "wr" : "other");
	f.ret = ibv_modify_qp(f.qp, &attr,
			      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				      IBV_QP_ACCESS_FLAGS);
	t_uv_note("modify_qp INIT ret=%d", f.ret);
	f.bad_r = NULL;
	fill_and_wrap(&f, 64, 300, 0, "wrapped_rwqe", RECV_SLOT);
	t_uv_unname(buf);
	t_uv_note("destroy rq full qp ret=%d", ibv_destroy_qp(f.qp));
}

/*
 * An SRQ filled and wrapped with three entries left pending, then
 * grown: the kernel moves those into the new queue, where the provider
 * must go on posting behind them.
 */
static void srq_dump(struct ibv_pd *pd)
{
	static char buf[64];
	struct ibv_srq_init_attr init = { .attr = { .max_wr = 16,
						    .max_sge = 1 } };
	struct ibv_srq_attr attr = { .max_wr = 48 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = 8,
			       .lkey = 0x1234 };
	struct fill f = {
		.what = "srq",
		.post = post_srq,
		.srq = ibv_create_srq(pd, &init),
		.rwr = { .sg_list = &sge, .num_sge = 1 },
	};
	struct rxe_queue_buf *q;
	int ret;

	if (!t_note_made("full srq", f.srq))
		return;
	f.q = sr_last_queue_of('q');
	t_uv_name("srq_buf", buf, sizeof(buf));
	fill_and_wrap(&f, 80, 500, 3, "srq_wrapped", RECV_SLOT);
	ret = ibv_modify_srq(f.srq, &attr, IBV_SRQ_MAX_WR);
	q = sr_last_queue_of('q');
	t_uv_note("modify_srq(pending) ret=%d producer=%u", ret,
		  q ? __atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE) :
		      0);
	f.rwr.wr_id = 700;
	ret = post_srq(&f);
	t_uv_note("post_srq_recv(moved) ret=%d", ret);
	if (q && !ret)
		slots_dump("srq_moved", q, 3, RECV_SLOT);
	t_uv_unname(buf);
	t_uv_note("destroy full srq ret=%d", ibv_destroy_srq(f.srq));
}

/*
 * The work requests the provider writes into the first QP's queues: a
 * receive, and sends of three kinds in one post, each slot dumped.
 */
void sr_wqe_dump(struct ibv_qp *qp)
{
	static char buf[64];
	struct rxe_queue_buf *sq = sr_queue_of('s'), *rq = sr_queue_of('r');
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = 16,
			       .lkey = 0x1234 };
	struct ibv_recv_wr rwr = { .wr_id = 7, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr swr[3] = {
		{ .wr_id = 8,
		  .next = &swr[1],
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_SEND_WITH_IMM,
		  .send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED,
		  .imm_data = htobe32(0x11223344) },
		{ .wr_id = 9,
		  .next = &swr[2],
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_RDMA_WRITE,
		  .wr.rdma = { .remote_addr = 0x10000, .rkey = 0x55 } },
		{ .wr_id = 10,
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		  .wr.atomic = { .remote_addr = 0x20000,
				 .compare_add = 3,
				 .rkey = 0x66 } },
	};
	struct ibv_send_wr *bad_s;
	struct ibv_recv_wr *bad_r;
	int ret;

	if (!sq || !rq)
		return;
	t_uv_name("wqe_buf", buf, sizeof(buf));
	ret = ibv_post_recv(qp, &rwr, &bad_r);
	t_uv_note("post_recv(wqe) ret=%d", ret);
	if (!ret)
		slots_dump("recv_wqe", rq, 1, RECV_SLOT);
	ret = ibv_post_send(qp, swr, &bad_s);
	t_uv_note("post_send(wqe) ret=%d", ret);
	if (!ret)
		slots_dump("send_wqe", sq, 3, SEND_SLOT);
	t_uv_unname(buf);
	inline_dump(qp);
	wr_ex_dump(qp);
	ud_dump(qp);
	bind_dump(qp);
	sq_full_dump(qp);
	rq_full_dump(qp);
	srq_dump(qp->pd);
}
