// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every send request we can think of, on the fake rdma_rxe whose
 * requester takes WQEs as Linux 6.1's does (t_rxe_kernel.h): each
 * opcode of verbs.h and one it lacks, on RC, UC and UD, under every
 * combination of INLINE, SIGNALED, FENCE and SOLICITED (and IP_CSUM on
 * UD), with no SGE, one, the QP's limit, one past it and -1, inline
 * totals of 0, the limit and one past, in each QP state, alone and in
 * the middle of a list of three; through ibv_post_send() and through
 * the ibv_wr_*() builders alike, on QPs kept from case to case so that
 * their rings of eight slots wrap thousands of times.
 *
 * The oracle is the verbs' and IBTA's, not the provider's code: a post
 * either refuses a request before the kernel can see it (EINVAL for a
 * malformed one or below RTS, ENOMEM for a full queue; *bad_wr on it,
 * the requests before it posted, those after it not; a builder batch
 * all or nothing), or the kernel takes exactly what the caller asked:
 * the bytes as they were at the post (inline sources are scribbled
 * right after it), lengths, keys, addresses, flags, immediate data,
 * ids. Where the verbs leave a choice (INLINE on a READ, an atomic
 * whose buffer is not 8 bytes, SGEs on a LOCAL_INV), refusing and
 * taking as asked are both right. And a ledger: each request ends once,
 * refused or taken (sent or flushed), never both, never neither.
 *
 * T_RXE_SWEEP_REPORT=1 prints the differences and passes: for running
 * another provider (T_RXE_PLUGIN) through the same sweep.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_rxe_kernel.h"
#include "t_uverbs.h"
#include "t_util.h"

#define MAX_SGE 4u
#define MAX_INLINE 64u
#define MAX_WR 7u /* the fake's rings have eight slots */
#define LIST 3
#define AH_NUM 1u /* what the fake answers CREATE_AH */
#define MW_RKEY 0x4d57u
#define MR_LKEY 0x1234u
#define NOPS (IBV_WR_DRIVER1 + 2) /* every opcode, and one past */

enum api { CLASSIC, BUILDER };
enum { ALLOW_POST = 1, ALLOW_EINVAL = 2, ALLOW_ENOMEM = 4 };

/* A request, as the caller asks it. */
struct req {
	uint64_t wr_id;
	uint32_t op, flags;
	int nsge; /* -1: hostile */
	uint32_t total; /* inline: the bytes asked; else 8 an SGE */
	struct ibv_sge sge[MAX_SGE + 1];
	struct ibv_data_buf buf[MAX_SGE + 1];
	/* What the sources held at the post: the oracle's bytes. */
	uint8_t bytes[MAX_INLINE + 8 * (MAX_SGE + 1)];
	uint64_t raddr, cmp, swap;
	uint32_t rkey, imm, inv, qpn, qkey, new_rkey;
};

struct tqp {
	struct ibv_qp *qp;
	struct ibv_qp_ex *ex;
	enum ibv_qp_state state; /* as the test last moved it */
	uint64_t ops; /* the builders it was created with */
	struct req fifo[MAX_WR + 1]; /* posted, not yet taken */
	unsigned int head, len;
};

static struct sweep {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_ah *ah;
	struct ibv_mw mw;
	struct ibv_mr mr;
	struct tqp qps[3];
	uint8_t gather[4096]; /* never written after set-up */
	uint8_t scratch[MAX_INLINE * 2 + 64]; /* inline sources */
	uint64_t next_id;
	uint8_t *ledger; /* by wr_id: 1 refused, 2 taken, 4 twice */
	size_t ledger_len;
	unsigned long cases, requests, posted, refused, taken, flushed;
	unsigned long diffs;
	bool report;
	char where[160];
} sw;

static const enum ibv_qp_type types[] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD };
static const enum ibv_qp_state states[] = {
	IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	IBV_QPS_SQD,   IBV_QPS_SQE,  IBV_QPS_ERR,
};

static void __attribute__((format(printf, 1, 2))) diff(const char *fmt, ...)
{
	va_list ap;

	if (++sw.diffs > (sw.report ? 100000u : 40u))
		return;
	printf("DIFF %s: ", sw.where);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void ledger_mark(uint64_t id, uint8_t how)
{
	if (id >= sw.ledger_len) {
		diff("wr_id %llu was never asked for", (unsigned long long)id);
		return;
	}
	if (sw.ledger[id] & how)
		how = 4;
	sw.ledger[id] |= how;
}

/*
 * Whether IBTA gives the opcode a meaning on the QP's type (as rdma_rxe
 * implements it: no TSO, no RDMA_READ_WITH_INV, no invalidate on UC).
 */
static bool op_valid(enum ibv_qp_type type, uint32_t op)
{
	switch (op) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		return true;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_BIND_MW:
		return type != IBV_QPT_UD;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_RDMA_READ:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
	case IBV_WR_LOCAL_INV:
		return type == IBV_QPT_RC;
	default:
		return false;
	}
}

static bool op_payload(uint32_t op)
{
	return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ||
	       op == IBV_WR_SEND_WITH_INV || op == IBV_WR_RDMA_WRITE ||
	       op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

static bool op_atomic(uint32_t op)
{
	return op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	       op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

static bool op_local(uint32_t op)
{
	return op == IBV_WR_LOCAL_INV || op == IBV_WR_BIND_MW;
}

/* The answers the verbs allow for @r alone, on a QP of @type. */
static unsigned int allowed(enum ibv_qp_type type, const struct req *r,
			    enum api api)
{
	bool inl = r->flags & IBV_SEND_INLINE;
	bool sges_ok = r->nsge >= 0 && (uint32_t)r->nsge <= MAX_SGE;

	if (!op_valid(type, r->op))
		return ALLOW_EINVAL;
	if (op_local(r->op)) /* no data: SGEs and INLINE mean nothing */
		return sges_ok && !inl ? ALLOW_POST : ALLOW_POST | ALLOW_EINVAL;
	if (op_payload(r->op) && inl) {
		if (r->nsge < 0 || r->total > MAX_INLINE)
			return ALLOW_EINVAL;
		return sges_ok ? ALLOW_POST : ALLOW_POST | ALLOW_EINVAL;
	}
	if (!sges_ok)
		return ALLOW_EINVAL;
	/* A reply's sink given as inline data: nowhere to land. */
	if (inl && api == BUILDER)
		return ALLOW_EINVAL;
	if (inl || (op_atomic(r->op) && r->nsge * 8 != 8))
		return ALLOW_POST | ALLOW_EINVAL;
	return ALLOW_POST;
}

/* ... and in the QP's state, with @queued requests in its queue. */
static unsigned int allowed_now(const struct tqp *q, const struct req *r,
				enum api api, unsigned int queued)
{
	unsigned int a;

	if (q->state == IBV_QPS_RESET || q->state == IBV_QPS_INIT ||
	    q->state == IBV_QPS_RTR)
		a = ALLOW_EINVAL;
	else
		a = allowed(q->qp->qp_type, r, api);
	if (queued >= MAX_WR && a & ALLOW_POST)
		a = (a & ~ALLOW_POST) | ALLOW_ENOMEM;
	else if (queued >= MAX_WR)
		a |= ALLOW_ENOMEM;
	return a;
}

/* Fills @r's sources: SGEs of 8 gathered bytes, or inline scratch. */
static void make_req(struct req *r, uint32_t op, uint32_t flags, int nsge,
		     uint32_t total)
{
	unsigned int n = nsge < 0 ? 1 : (unsigned int)nsge;
	uint32_t at = 0;

	memset(r, 0, sizeof(*r));
	r->wr_id = sw.next_id++;
	r->op = op;
	r->flags = flags;
	r->nsge = nsge;
	r->total = flags & IBV_SEND_INLINE ? total : 8 * n;
	for (unsigned int i = 0; i < n && i <= MAX_SGE; i++) {
		uint32_t len = 8;
		uint8_t *src;

		if (flags & IBV_SEND_INLINE) {
			/* The total spread over the SGEs, the rest in the last. */
			len = i + 1 < n ? total / n : total - at;
			src = sw.scratch + at;
			for (uint32_t b = 0; b < len; b++)
				src[b] = (uint8_t)(r->wr_id * 7 + at + b);
		} else {
			src = sw.gather + (r->wr_id * 8 + at) % 3800;
		}
		if (at + len <= sizeof(r->bytes))
			memcpy(r->bytes + at, src, len);
		r->sge[i] = (struct ibv_sge){ (uintptr_t)src, len, MR_LKEY };
		r->buf[i] = (struct ibv_data_buf){ src, len };
		at += len;
	}
	r->raddr = 0x10000 + r->wr_id * 8;
	r->rkey = 0x5000 + (uint32_t)r->wr_id;
	r->cmp = r->wr_id * 3;
	r->swap = op == IBV_WR_ATOMIC_CMP_AND_SWP ? r->wr_id * 5 : 0;
	r->imm = htobe32((uint32_t)r->wr_id);
	r->inv = 0x600 + (uint32_t)r->wr_id;
	r->qpn = 0x100 + (uint32_t)(r->wr_id & 0xfff);
	r->qkey = 0x11111111;
	r->new_rkey = MW_RKEY + 1;
}

static void to_wr(const struct tqp *q, struct req *r, struct ibv_send_wr *wr)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = r->wr_id;
	wr->opcode = (enum ibv_wr_opcode)r->op;
	wr->send_flags = r->flags;
	wr->sg_list = r->sge;
	wr->num_sge = r->nsge;
	wr->imm_data = r->imm;
	if (r->op == IBV_WR_SEND_WITH_INV || r->op == IBV_WR_LOCAL_INV)
		wr->invalidate_rkey = r->inv;
	if (q->qp->qp_type == IBV_QPT_UD) {
		wr->wr.ud.ah = sw.ah;
		wr->wr.ud.remote_qpn = r->qpn;
		wr->wr.ud.remote_qkey = r->qkey;
	} else if (op_atomic(r->op)) {
		wr->wr.atomic.remote_addr = r->raddr;
		wr->wr.atomic.compare_add = r->cmp;
		wr->wr.atomic.swap = r->swap;
		wr->wr.atomic.rkey = r->rkey;
	} else if (r->op == IBV_WR_BIND_MW) {
		wr->bind_mw.mw = &sw.mw;
		wr->bind_mw.rkey = r->new_rkey;
		wr->bind_mw.bind_info = (struct ibv_mw_bind_info){
			.mr = &sw.mr,
			.addr = r->raddr,
			.length = 64,
			.mw_access_flags = IBV_ACCESS_REMOTE_WRITE,
		};
	} else {
		wr->wr.rdma.remote_addr = r->raddr;
		wr->wr.rdma.rkey = r->rkey;
	}
}

static bool build_exists(uint32_t op)
{
	return op <= IBV_WR_SEND_WITH_INV;
}

/* @r through the builders; false where no builder exists for its op. */
static bool build(const struct tqp *q, const struct req *r)
{
	struct ibv_qp_ex *ex = q->ex;
	struct ibv_mw_bind_info bi = { .mr = &sw.mr,
				       .addr = r->raddr,
				       .length = 64,
				       .mw_access_flags =
					       IBV_ACCESS_REMOTE_WRITE };

	ex->wr_id = r->wr_id;
	ex->wr_flags = r->flags;
	switch (r->op) {
	case IBV_WR_SEND:
		ibv_wr_send(ex);
		break;
	case IBV_WR_SEND_WITH_IMM:
		ibv_wr_send_imm(ex, r->imm);
		break;
	case IBV_WR_SEND_WITH_INV:
		ibv_wr_send_inv(ex, r->inv);
		break;
	case IBV_WR_RDMA_WRITE:
		ibv_wr_rdma_write(ex, r->rkey, r->raddr);
		break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		ibv_wr_rdma_write_imm(ex, r->rkey, r->raddr, r->imm);
		break;
	case IBV_WR_RDMA_READ:
		ibv_wr_rdma_read(ex, r->rkey, r->raddr);
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		ibv_wr_atomic_cmp_swp(ex, r->rkey, r->raddr, r->cmp, r->swap);
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		ibv_wr_atomic_fetch_add(ex, r->rkey, r->raddr, r->cmp);
		break;
	case IBV_WR_LOCAL_INV:
		ibv_wr_local_inv(ex, r->inv);
		return true;
	case IBV_WR_BIND_MW:
		ibv_wr_bind_mw(ex, &sw.mw, r->new_rkey, &bi);
		return true;
	default:
		return false;
	}
	if (q->qp->qp_type == IBV_QPT_UD)
		ibv_wr_set_ud_addr(ex, sw.ah, r->qpn, r->qkey);
	if (r->flags & IBV_SEND_INLINE)
		ibv_wr_set_inline_data_list(ex, (size_t)r->nsge, r->buf);
	else
		ibv_wr_set_sge_list(ex, (size_t)(ssize_t)r->nsge, r->sge);
	return true;
}

static struct tqp *tqp_of(uint32_t handle)
{
	for (unsigned int i = 0; i < 3; i++)
		if (sw.qps[i].qp && sw.qps[i].qp->handle == handle)
			return &sw.qps[i];
	return NULL;
}

#define CHECK(cond, ...)                   \
	do {                               \
		if (!(cond)) {             \
			diff(__VA_ARGS__); \
			return;            \
		}                          \
	} while (0)

/* What the kernel took for @r is what @r asked. */
static void same(const struct tqp *q, const struct req *r,
		 const struct t_rxe_wire *w)
{
	const uint32_t acted = IBV_SEND_SIGNALED | IBV_SEND_FENCE |
			       IBV_SEND_SOLICITED | IBV_SEND_IP_CSUM;

	CHECK(w->fate == T_RXE_SENT && !w->overrun,
	      "wr_id %llu op %u: fate %d status %d overrun %d",
	      (unsigned long long)r->wr_id, r->op, w->fate, w->status,
	      w->overrun);
	CHECK(w->opcode == r->op, "opcode %u, asked %u", w->opcode, r->op);
	CHECK((w->send_flags & acted) == (r->flags & acted),
	      "op %u flags 0x%x, asked 0x%x", r->op, w->send_flags, r->flags);
	if (q->qp->qp_type == IBV_QPT_UD)
		CHECK(w->remote_qpn == r->qpn && w->remote_qkey == r->qkey &&
			      w->ah_num == AH_NUM,
		      "UD qpn 0x%x qkey 0x%x ah %u", w->remote_qpn,
		      w->remote_qkey, w->ah_num);
	if (r->op == IBV_WR_SEND_WITH_IMM ||
	    r->op == IBV_WR_RDMA_WRITE_WITH_IMM)
		CHECK(w->imm_data == r->imm, "imm 0x%x", w->imm_data);
	if (r->op == IBV_WR_SEND_WITH_INV || r->op == IBV_WR_LOCAL_INV)
		CHECK(w->invalidate_rkey == r->inv, "invalidate 0x%x",
		      w->invalidate_rkey);
	if (r->op == IBV_WR_BIND_MW) {
		CHECK(w->mw.wr.mw.mw_rkey == MW_RKEY &&
			      w->mw.wr.mw.rkey == r->new_rkey &&
			      w->mw.wr.mw.mr_lkey == MR_LKEY &&
			      w->mw.wr.mw.addr == r->raddr &&
			      w->mw.wr.mw.length == 64 &&
			      w->mw.wr.mw.access == IBV_ACCESS_REMOTE_WRITE,
		      "BIND_MW fields");
		return;
	}
	if (op_local(r->op))
		return;
	if (!op_payload(r->op) || q->qp->qp_type != IBV_QPT_UD) {
		if (r->op != IBV_WR_SEND && r->op != IBV_WR_SEND_WITH_IMM &&
		    r->op != IBV_WR_SEND_WITH_INV)
			CHECK(w->remote_addr == r->raddr && w->rkey == r->rkey,
			      "remote 0x%llx/0x%x, asked 0x%llx/0x%x",
			      (unsigned long long)w->remote_addr, w->rkey,
			      (unsigned long long)r->raddr, r->rkey);
	}
	if (op_atomic(r->op))
		CHECK(w->compare_add == r->cmp && w->swap == r->swap,
		      "atomic operands");
	CHECK(w->length == r->total, "op %u length %u, asked %u", r->op,
	      w->length, r->total);
	if (op_payload(r->op)) {
		uint32_t n = r->total < T_RXE_WIRE_BYTES ? r->total :
							   T_RXE_WIRE_BYTES;

		CHECK(w->inline_data == !!(r->flags & IBV_SEND_INLINE),
		      "inline %d", w->inline_data);
		CHECK(!memcmp(w->bytes, r->bytes, n),
		      "op %u: the bytes on the wire are not the caller's",
		      r->op);
		return;
	}
	/* A READ's or an atomic's reply lands where the caller said. */
	CHECK(w->num_sge == (uint32_t)r->nsge, "sink of %u SGEs, asked %d",
	      w->num_sge, r->nsge);
	for (int i = 0; i < r->nsge; i++)
		CHECK(w->sge[i].addr == r->sge[i].addr &&
			      w->sge[i].length == r->sge[i].length &&
			      w->sge[i].lkey == r->sge[i].lkey,
		      "op %u: sink SGE %d is not the caller's", r->op, i);
}

/* The kernel took a WQE: the head of what its QP has queued. */
static void on_take(const struct t_rxe_wire *w, void *arg)
{
	struct tqp *q = tqp_of(w->qp_handle);
	const struct req *r;

	(void)arg;
	ledger_mark(w->wr_id, 2);
	if (!q || !q->len) {
		diff("took wr_id %llu, which no post left queued",
		     (unsigned long long)w->wr_id);
		return;
	}
	r = &q->fifo[q->head];
	q->head = (q->head + 1) % (MAX_WR + 1);
	q->len--;
	if (w->wr_id != r->wr_id) {
		diff("took wr_id %llu, expected %llu",
		     (unsigned long long)w->wr_id,
		     (unsigned long long)r->wr_id);
		return;
	}
	if (w->fate == T_RXE_FLUSHED) {
		sw.flushed++;
		return;
	}
	sw.taken++;
	same(q, r, w);
}

static void queue_req(struct tqp *q, const struct req *r)
{
	q->fifo[(q->head + q->len) % (MAX_WR + 1)] = *r;
	q->len++;
	sw.posted++;
}

static unsigned int allow_of(int ret)
{
	return ret == 0	     ? ALLOW_POST :
	       ret == EINVAL ? ALLOW_EINVAL :
	       ret == ENOMEM ? ALLOW_ENOMEM :
			       0;
}

/* A list of @n requests through ibv_post_send(). */
static void post_classic(struct tqp *q, struct req *r, int n)
{
	struct ibv_send_wr wr[LIST], *bad = (struct ibv_send_wr *)&sw;
	unsigned int queued = q->len;
	int ret, at;

	for (int i = 0; i < n; i++) {
		to_wr(q, &r[i], &wr[i]);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	ret = ibv_post_send(q->qp, wr, &bad);
	for (at = 0; at < n && (!ret || bad != &wr[at]); at++)
		;
	if (ret && at == n) {
		diff("returned %d, *bad_wr not on a request of the list", ret);
		at = 0;
	}
	for (int i = 0; i < n; i++) {
		unsigned int a = allowed_now(q, &r[i], CLASSIC, queued);

		if (i < at) {
			if (!(a & ALLOW_POST))
				diff("op %u flags 0x%x nsge %d total %u: posted",
				     r[i].op, r[i].flags, r[i].nsge,
				     r[i].total);
			queue_req(q, &r[i]);
			queued++;
		} else {
			if (i == at && !(a & allow_of(ret)))
				diff("op %u flags 0x%x nsge %d total %u: %s",
				     r[i].op, r[i].flags, r[i].nsge, r[i].total,
				     strerror(ret));
			ledger_mark(r[i].wr_id, 1);
			sw.refused++;
		}
	}
}

/* The same requests as one batch of the builders. */
static void post_builder(struct tqp *q, struct req *r, int n)
{
	unsigned int queued = q->len, a = ALLOW_POST, any = 0;
	int ret;

	ibv_wr_start(q->ex);
	for (int i = 0; i < n; i++) {
		unsigned int ai = allowed_now(q, &r[i], BUILDER, queued + i);

		build(q, &r[i]);
		any |= ai & ~ALLOW_POST;
		if (!(ai & ALLOW_POST))
			a = 0;
	}
	ret = ibv_wr_complete(q->ex);
	if (ret ? !(any & allow_of(ret)) : !a)
		diff("batch of %d, op %u flags 0x%x nsge %d total %u: %s", n,
		     r[n / 2].op, r[n / 2].flags, r[n / 2].nsge, r[n / 2].total,
		     strerror(ret));
	for (int i = 0; i < n; i++) {
		if (!ret) {
			queue_req(q, &r[i]);
			continue;
		}
		ledger_mark(r[i].wr_id, 1);
		sw.refused++;
	}
}

/* Changes the inline sources once posted: the kernel must not see it. */
static void scribble(void)
{
	memset(sw.scratch, 0xa5, sizeof(sw.scratch));
}

static const char *state_name(enum ibv_qp_state state)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS",
					     "SQD",   "SQE",  "ERR" };

	return (unsigned int)state < 7 ? names[state] : "?";
}

/* One case: alone, or between two good SENDs; then the kernel runs. */
static void one_case(struct tqp *q, enum api api, bool list, uint32_t op,
		     uint32_t flags, int nsge, uint32_t total)
{
	struct req r[LIST];
	int n = list ? LIST : 1;

	if (api == BUILDER && (!build_exists(op) || !(q->ops & 1ull << op)))
		return;
	for (int i = 0; i < n; i++) {
		if (list && i != 1)
			make_req(&r[i], IBV_WR_SEND, IBV_SEND_SIGNALED, 1, 0);
		else
			make_req(&r[i], op, flags, nsge, total);
	}
	snprintf(sw.where, sizeof(sw.where), "%s %s %s %s",
		 q->qp->qp_type == IBV_QPT_RC ? "RC" :
		 q->qp->qp_type == IBV_QPT_UC ? "UC" :
						"UD",
		 state_name(q->state),
		 api == CLASSIC ? "ibv_post_send" : "ibv_wr_*",
		 list ? "list" : "single");
	sw.cases++;
	sw.requests += (unsigned long)n;
	if (api == CLASSIC)
		post_classic(q, r, n);
	else
		post_builder(q, r, n);
	scribble();
	t_rxe_req_run(q->qp);
}

static int move(struct tqp *q, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = { .qp_state = state };
	int ret = ibv_modify_qp(q->qp, &attr, IBV_QP_STATE);

	if (!ret)
		q->state = state;
	return ret;
}

/*
 * Each request queued ends: the move to ERROR flushes them (and the
 * RESET after it finds nothing to discard). Then up to @state; SQE
 * only the kernel enters, behind the provider's back.
 */
static void go(struct tqp *q, enum ibv_qp_state state)
{
	static const enum ibv_qp_state path[] = { IBV_QPS_INIT, IBV_QPS_RTR,
						  IBV_QPS_RTS };

	assert_int_equal(move(q, IBV_QPS_ERR), 0);
	t_rxe_req_run(q->qp);
	if (q->len)
		diff("%u requests not flushed by the move to ERROR", q->len);
	q->len = 0;
	assert_int_equal(move(q, IBV_QPS_RESET), 0);
	for (unsigned int i = 0; i < 3 && state != IBV_QPS_RESET; i++) {
		assert_int_equal(move(q, path[i]), 0);
		if (path[i] == state)
			return;
	}
	if (state == IBV_QPS_SQD || state == IBV_QPS_ERR)
		assert_int_equal(move(q, state), 0);
	if (state == IBV_QPS_SQE) {
		t_rxe_set_qp_state(q->qp->handle, IBV_QPS_SQE);
		q->state = IBV_QPS_SQE;
	}
}

/* In SQD nothing is taken: a full queue goes out through RTS. */
static void drain_sqd(struct tqp *q)
{
	if (q->state != IBV_QPS_SQD || q->len < MAX_WR)
		return;
	if (move(q, IBV_QPS_RTS)) {
		diff("SQD -> RTS refused: the kernel moved the QP");
		go(q, IBV_QPS_SQD);
		return;
	}
	t_rxe_req_run(q->qp);
	if (move(q, IBV_QPS_SQD)) {
		diff("RTS -> SQD refused: the kernel moved the QP");
		go(q, IBV_QPS_SQD);
	}
}

static const uint32_t ops[] = {
	IBV_WR_RDMA_WRITE,
	IBV_WR_RDMA_WRITE_WITH_IMM,
	IBV_WR_SEND,
	IBV_WR_SEND_WITH_IMM,
	IBV_WR_RDMA_READ,
	IBV_WR_ATOMIC_CMP_AND_SWP,
	IBV_WR_ATOMIC_FETCH_AND_ADD,
	IBV_WR_LOCAL_INV,
	IBV_WR_BIND_MW,
	IBV_WR_SEND_WITH_INV,
	IBV_WR_TSO,
	IBV_WR_DRIVER1,
	IBV_WR_ATOMIC_WRITE,
	IBV_WR_ATOMIC_WRITE + 1, /* unknown */
};
static const int nsges[] = { 0, 1, MAX_SGE, MAX_SGE + 1, -1 };
static const uint32_t totals[] = { 0, MAX_INLINE, MAX_INLINE + 1 };

/* Every opcode, flag set, SGE count and inline total on @q. */
static void sweep_qp(struct tqp *q, enum api api, bool list)
{
	uint32_t nflags = q->qp->qp_type == IBV_QPT_UD ? 32 : 16;

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
		for (uint32_t f = 0; f < nflags; f++)
			for (size_t s = 0; s < 5; s++)
				for (size_t t = 0; t < 3; t++) {
					bool inl = f & IBV_SEND_INLINE;

					if ((!inl || nsges[s] <= 0) && t)
						continue;
					if (api == BUILDER &&
					    ((inl && nsges[s] < 0) ||
					     (op_local(ops[o]) &&
					      (s != 1 || t))))
						continue;
					drain_sqd(q);
					one_case(q, api, list, ops[o], f,
						 nsges[s], totals[t]);
				}
}

static void ledger_check(uint64_t from)
{
	unsigned long bad = 0;

	for (uint64_t id = from; id < sw.next_id; id++)
		if (sw.ledger[id] != 1 && sw.ledger[id] != 2 && bad++ < 10)
			printf("LEDGER wr_id %llu: %s\n",
			       (unsigned long long)id,
			       sw.ledger[id] == 0 ? "never ended" :
			       sw.ledger[id] == 3 ? "refused and taken" :
						    "taken twice");
	if (bad)
		diff("%lu requests did not end exactly once", bad);
}

static struct tqp make_qp(enum ibv_qp_type type)
{
	const uint64_t ud_ops = IBV_QP_EX_WITH_SEND |
				IBV_QP_EX_WITH_SEND_WITH_IMM;
	const uint64_t uc_ops = ud_ops | IBV_QP_EX_WITH_RDMA_WRITE |
				IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	struct ibv_qp_init_attr_ex a = {
		.send_cq = sw.cq,
		.recv_cq = sw.cq,
		.qp_type = type,
		.cap = { .max_send_wr = MAX_WR,
			 .max_recv_wr = 4,
			 .max_send_sge = MAX_SGE,
			 .max_recv_sge = 1,
			 .max_inline_data = MAX_INLINE },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = sw.pd,
		.send_ops_flags =
			IBV_QP_EX_WITH_RDMA_WRITE |
			IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
			IBV_QP_EX_WITH_RDMA_READ |
			IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
			IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |
			IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW |
			IBV_QP_EX_WITH_SEND_WITH_INV,
	};
	struct tqp q = { 0 };

	t_rxe.sq = NULL;
	q.qp = ibv_create_qp_ex(sw.ctx, &a);
	if (!q.qp) {
		/*
		 * Debian's librxe takes only the builders of the opcodes the
		 * QP's type carries; the sweep then calls only those.
		 */
		a.send_ops_flags &= type == IBV_QPT_UD ? ud_ops :
				    type == IBV_QPT_UC ? uc_ops :
							 a.send_ops_flags;
		q.qp = ibv_create_qp_ex(sw.ctx, &a);
	}
	if (!q.qp)
		fprintf(stderr, "cannot create a QP of type %d: %s\n", type,
			strerror(errno));
	assert_non_null(q.qp);
	q.ops = a.send_ops_flags;
	assert_non_null(t_rxe.sq);
	q.ex = ibv_qp_to_qp_ex(q.qp);
	assert_non_null(q.ex);
	t_rxe_req_attach(q.qp, t_rxe.sq);
	return q;
}

static void set_up(void)
{
	struct ibv_ah_attr aa = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .hop_limit = 64,
			 .dgid.raw = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 } },
	};

	sw.ctx = t_uv_open_only("rxe0");
	assert_non_null(sw.ctx);
	sw.pd = ibv_alloc_pd(sw.ctx);
	assert_non_null(sw.pd);
	sw.cq = ibv_create_cq(sw.ctx, 10, NULL, NULL, 0);
	assert_non_null(sw.cq);
	t_rxe.ah_num = AH_NUM;
	sw.ah = ibv_create_ah(sw.pd, &aa);
	assert_non_null(sw.ah);
	sw.mw = (struct ibv_mw){ .context = sw.ctx,
				 .pd = sw.pd,
				 .rkey = MW_RKEY,
				 .type = IBV_MW_TYPE_1 };
	sw.mr = (struct ibv_mr){
		.context = sw.ctx, .pd = sw.pd, .lkey = MR_LKEY, .rkey = MR_LKEY
	};
	for (size_t i = 0; i < sizeof(sw.gather); i++)
		sw.gather[i] = (uint8_t)(i * 13 + 1);
	for (unsigned int i = 0; i < 3; i++)
		sw.qps[i] = make_qp(types[i]);
	t_rxe.defer_requester = true;
	t_rxe.on_take = on_take;
}

static void tear_down(void)
{
	t_rxe.on_take = NULL;
	t_rxe.defer_requester = false;
	for (unsigned int i = 0; i < 3; i++) {
		t_rxe_req_detach(sw.qps[i].qp);
		assert_int_equal(ibv_destroy_qp(sw.qps[i].qp), 0);
		sw.qps[i].qp = NULL;
	}
	assert_int_equal(ibv_destroy_ah(sw.ah), 0);
	assert_int_equal(ibv_destroy_cq(sw.cq), 0);
	assert_int_equal(ibv_dealloc_pd(sw.pd), 0);
	assert_int_equal(ibv_close_device(sw.ctx), 0);
}

static void sweep(void **state)
{
	uint64_t from = sw.next_id;
	unsigned long cases = sw.cases, requests = sw.requests;

	(void)state;
	sw.ledger_len = sw.next_id + 4000000;
	sw.ledger = realloc(sw.ledger, sw.ledger_len);
	assert_non_null(sw.ledger);
	memset(sw.ledger + from, 0, sw.ledger_len - from);
	sw.diffs = 0;
	set_up();
	for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
		for (unsigned int i = 0; i < 3; i++)
			go(&sw.qps[i], states[s]);
		for (int api = CLASSIC; api <= BUILDER; api++)
			for (int list = 0; list < 2; list++)
				for (unsigned int i = 0; i < 3; i++)
					sweep_qp(&sw.qps[i], (enum api)api,
						 list);
	}
	snprintf(sw.where, sizeof(sw.where), "the end");
	for (unsigned int i = 0; i < 3; i++)
		go(&sw.qps[i], IBV_QPS_RESET);
	assert_true(sw.next_id <= sw.ledger_len);
	ledger_check(from);
	printf("rxe sweep: %lu cases, %lu requests (%lu posted: %lu taken, "
	       "%lu flushed; %lu refused), %lu differences\n",
	       sw.cases - cases, sw.requests - requests, sw.posted, sw.taken,
	       sw.flushed, sw.refused, sw.diffs);
	sw.posted = sw.taken = sw.flushed = sw.refused = 0;
	tear_down();
	if (!sw.report)
		assert_int_equal(sw.diffs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sweep),
	};

	sw.report = getenv("T_RXE_SWEEP_REPORT") != NULL;
	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	return t_rxe_run(tests, sizeof(tests) / sizeof(tests[0]));
}
