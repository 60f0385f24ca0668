// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A generated sweep of siw's send path on the fake siw kernel of
 * t_siw_kernel.h, whose send queue consumer reads each element as
 * Linux 6.1's siw does. The product of: every opcode verbs.h defines and
 * one it does not; the sixteen combinations of INLINE, SIGNALED, FENCE
 * and SOLICITED; num_sge 0, 1, the QP's max_send_sge, one past it and
 * -1; inline totals 0, SIW_MAX_INLINE and one past; the kernel in RTS
 * (engine running or not), IDLE, CLOSING, ERROR, or in RTS with its
 * state lock held by another thread; the request alone or in the middle
 * of three. Then a ring that is full, or full but for one slot. One QP
 * takes every case in turn, so its ring wraps thousands of times; a
 * second has max_send_sge at siw's own limit and signals every request.
 *
 * The oracle is the verbs' and siw's rules, not the provider's code:
 * siw has SEND, SEND_WITH_INV, RDMA_WRITE and RDMA_READ; a READ reads
 * into one SGE and is never fenced nor inline; inline data go with SEND
 * and WRITE only, SIW_MAX_INLINE bytes at most; num_sge is within
 * 0..max_send_sge. A post either refuses a request before the kernel can
 * see anything of it (EINVAL, or ENOMEM on a full ring, *bad_wr on it,
 * the requests before it posted, those after it invisible), or the
 * kernel takes what the caller asked: id, opcode, flags, keys,
 * addresses, lengths, and the inline bytes as they were when the call
 * copied them (the caller's buffers are scribbled on from the doorbell
 * on). Each case is driven until the kernel has ended every request it
 * holds (taken by the engine or flushed on the move to ERROR), and the
 * ledger wants each request ended exactly once: refused, or consumed.
 *
 * With T_SIW_SWEEP_REPORT set (the run with Debian's libsiw), a
 * difference is counted and one example of each kind printed, and the
 * run passes.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_user_ioctl_cmds.h>

#include "t_rdma_nl.h"
#include "t_siw_kernel.h"
#include "t_uverbs.h"

#define NSGE_MAX (SIW_MAX_SGE + 2) /* one past siw's limit, and room */
#define PIECE 96 /* bytes of each SGE's own buffer */
#define LIST_MAX 3
#define LEDGER_MAX 16

/* One request as the caller builds it. */
struct req {
	struct ibv_send_wr wr;
	struct ibv_sge sge[NSGE_MAX];
	uint8_t buf[NSGE_MAX][PIECE];
};

/* What a case asks of one request. */
struct spec {
	enum ibv_wr_opcode op;
	unsigned int flags;
	int num_sge;
	uint32_t total; /* inline: the bytes over all SGEs */
};

/* What the caller asked, kept apart from what it passed, and how it ended. */
struct asked {
	struct spec s;
	uint64_t id;
	struct ibv_sge sge[NSGE_MAX];
	uint8_t data[NSGE_MAX * PIECE];
	uint64_t raddr;
	uint32_t rkey, inv;
	enum { PENDING, REFUSED, CONSUMED } end;
};

static struct {
	bool report;
	bool sig_all;
	uint32_t max_sge;
	uint64_t next_id;
	struct asked ledger[LEDGER_MAX];
	unsigned int nledger;
	struct req *scribble[LIST_MAX]; /* what the doorbell scribbles on */
	unsigned long cases, requests, differences;
} sw;

/* In report mode: kinds of difference, each counted, one example shown. */
#define KINDS_MAX 64
static struct {
	char kind[96];
	unsigned long n;
} kinds[KINDS_MAX];

static void differ(const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void differ(const char *kind, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	int k;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sw.differences++;
	if (!sw.report)
		fail_msg("%s: %s", kind, text);
	for (k = 0; k < KINDS_MAX && kinds[k].n; k++)
		if (!strcmp(kinds[k].kind, kind))
			break;
	if (k == KINDS_MAX)
		return;
	if (!kinds[k].n++) {
		snprintf(kinds[k].kind, sizeof(kinds[k].kind), "%s", kind);
		print_message("difference: %s: %s\n", kind, text);
	}
}

#define expect(cond, kind, ...)                    \
	do {                                       \
		if (!(cond))                       \
			differ(kind, __VA_ARGS__); \
	} while (0)

static const char *op_name(enum ibv_wr_opcode op)
{
	static const char *const names[] = {
		"RDMA_WRITE",
		"RDMA_WRITE_WITH_IMM",
		"SEND",
		"SEND_WITH_IMM",
		"RDMA_READ",
		"ATOMIC_CMP_AND_SWP",
		"ATOMIC_FETCH_AND_ADD",
		"LOCAL_INV",
		"BIND_MW",
		"SEND_WITH_INV",
		"TSO",
		"DRIVER1",
	};

	if ((unsigned int)op < sizeof(names) / sizeof(names[0]))
		return names[op];
	return op == IBV_WR_ATOMIC_WRITE ? "ATOMIC_WRITE" : "unknown";
}

/* siw's operation for a verbs opcode, from siw-abi.h; -1: none. */
static int siw_op(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return SIW_OP_SEND;
	case IBV_WR_SEND_WITH_INV:
		return SIW_OP_SEND_REMOTE_INV;
	case IBV_WR_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IBV_WR_RDMA_READ:
		return SIW_OP_READ;
	default:
		return -1;
	}
}

/* Why the oracle refuses @s, for the report's kinds; NULL: it does not. */
static const char *why(const struct spec *s)
{
	int op = siw_op(s->op);

	if (op < 0)
		return "an opcode siw lacks";
	if (s->num_sge < 0)
		return "num_sge -1";
	if ((uint32_t)s->num_sge > sw.max_sge)
		return "num_sge over max_send_sge";
	if (op == SIW_OP_READ && s->num_sge > 1)
		return "READ of several SGEs";
	if (op == SIW_OP_READ && s->flags & IBV_SEND_FENCE)
		return "fenced READ";
	if (s->flags & IBV_SEND_INLINE && op != SIW_OP_SEND &&
	    op != SIW_OP_WRITE)
		return op == SIW_OP_READ ? "inline READ" :
					   "inline SEND_WITH_INV";
	if (s->flags & IBV_SEND_INLINE && s->total > SIW_MAX_INLINE)
		return "inline over SIW_MAX_INLINE";
	return NULL;
}

/* Whether the verbs and siw take @s on a QP of max_send_sge sw.max_sge. */
static bool valid(const struct spec *s)
{
	return !why(s);
}

/* The length of SGE @i of @s: inline totals spread, the last takes the rest. */
static uint32_t piece_len(const struct spec *s, int i, uint64_t id)
{
	uint32_t each;

	if (!(s->flags & IBV_SEND_INLINE))
		return 0x100u * (uint32_t)(i + 1) + (uint32_t)(id & 0xff);
	each = s->total / (uint32_t)s->num_sge;
	return i + 1 < s->num_sge ?
		       each :
		       s->total - each * (uint32_t)(s->num_sge - 1);
}

/* Builds @r from @s with a fresh id, and its entry in the ledger. */
static struct asked *build(struct req *r, const struct spec *s)
{
	struct asked *a = &sw.ledger[sw.nledger++];
	uint64_t id = ++sw.next_id;
	uint32_t at = 0;

	assert_true(sw.nledger <= LEDGER_MAX);
	memset(r, 0, sizeof(*r));
	memset(a, 0, sizeof(*a));
	a->s = *s;
	a->id = id;
	a->raddr = 0x7f0000000000ull + id * 64;
	a->rkey = 0x33000000u | (uint32_t)(id & 0xffffff);
	a->inv = 0x44000000u | (uint32_t)(id & 0xffffff);
	for (int i = 0; i < s->num_sge; i++) {
		uint32_t len = piece_len(s, i, id);

		if (s->flags & IBV_SEND_INLINE)
			for (uint32_t b = 0; b < len; b++)
				r->buf[i][b] = (uint8_t)(id * 31 +
							 (uint64_t)i * 7 + b);
		r->sge[i].addr = (uintptr_t)r->buf[i];
		r->sge[i].length = len;
		r->sge[i].lkey = 0x2a000000u | (uint32_t)((id << 3) + i);
		if (s->flags & IBV_SEND_INLINE) {
			memcpy(a->data + at, r->buf[i], len);
			at += len;
		}
		a->sge[i] = r->sge[i];
	}
	r->wr.wr_id = id;
	r->wr.opcode = s->op;
	r->wr.send_flags = s->flags;
	r->wr.num_sge = s->num_sge;
	r->wr.sg_list = r->sge;
	r->wr.wr.rdma.remote_addr = a->raddr;
	r->wr.wr.rdma.rkey = a->rkey;
	r->wr.invalidate_rkey = a->inv;
	return a;
}

/* The caller reuses everything it passed, once the call copied it. */
static void scribble(struct req *r)
{
	memset(r->buf, 0xa5, sizeof(r->buf));
}

static void scribble_at_doorbell(void)
{
	for (int i = 0; i < LIST_MAX; i++)
		if (sw.scribble[i])
			scribble(sw.scribble[i]);
}

static struct asked *find(uint64_t id)
{
	for (unsigned int i = 0; i < sw.nledger; i++)
		if (sw.ledger[i].id == id)
			return &sw.ledger[i];
	return NULL;
}

/* A request ends: it must have been posted and not have ended before. */
static struct asked *consume(uint64_t id, const char *how)
{
	struct asked *a = find(id);

	expect(a, "unknown request consumed", "%s of id %#llx", how,
	       (unsigned long long)id);
	if (!a)
		return NULL;
	if (a->end == REFUSED) {
		char kind[96];

		snprintf(kind, sizeof(kind), "refused request consumed (%s)",
			 why(&a->s) ? why(&a->s) : "after a refused one");
		differ(kind, "%s of %s flags %#x num_sge %d total %u", how,
		       op_name(a->s.op), a->s.flags, a->s.num_sge, a->s.total);
	}
	expect(a->end != CONSUMED, "request consumed twice", "%s of %s", how,
	       op_name(a->s.op));
	a->end = CONSUMED;
	return a;
}

/* What the kernel took is what @a asked (the fields siw reads). */
static void check_taken(const struct t_siw_taken *t, const struct asked *a)
{
	const struct siw_sqe *q = &t->sqe;
	const struct spec *s = &a->s;
	int op = siw_op(s->op);
	bool sig = s->flags & IBV_SEND_SIGNALED || sw.sig_all;
	char what[96];

	snprintf(what, sizeof(what), "%s flags %#x num_sge %d total %u",
		 op_name(s->op), s->flags, s->num_sge, s->total);
	expect(!t->err, "siw refuses an element the post accepted", "%s", what);
	expect(q->opcode == op, "opcode", "%s: siw opcode %u", what, q->opcode);
	expect(!(q->flags & SIW_WQE_SIGNALLED) == !sig, "SIGNALLED", "%s: %#x",
	       what, q->flags);
	expect(!(q->flags & SIW_WQE_SOLICITED) ==
		       !(s->flags & IBV_SEND_SOLICITED),
	       "SOLICITED", "%s: %#x", what, q->flags);
	expect(!(q->flags & SIW_WQE_READ_FENCE) == !(s->flags & IBV_SEND_FENCE),
	       "FENCE", "%s: %#x", what, q->flags);
	expect(!(q->flags & SIW_WQE_INLINE) == !(s->flags & IBV_SEND_INLINE),
	       "INLINE", "%s: %#x", what, q->flags);
	if (op == SIW_OP_WRITE || op == SIW_OP_READ) {
		expect(q->raddr == a->raddr && q->rkey == a->rkey,
		       "remote address and key", "%s: %#llx %#x", what,
		       (unsigned long long)q->raddr, q->rkey);
	} else if (op == SIW_OP_SEND_REMOTE_INV) {
		expect(q->rkey == a->inv, "SEND_WITH_INV's rkey",
		       "%s: %#x, invalidate_rkey %#x", what, q->rkey, a->inv);
	}
	if (op == SIW_OP_READ) {
		/* siw reads into sge[0], whatever num_sge says. */
		uint32_t want = s->num_sge ? a->sge[0].length : 0;

		expect(t->bytes == want && q->sge[0].length == want,
		       s->num_sge ? "READ's sge[0]" : "READ with no SGE",
		       "%s: the peer is asked for %u bytes into lkey %#x addr %#llx",
		       what, t->bytes, q->sge[0].lkey,
		       (unsigned long long)q->sge[0].laddr);
		if (s->num_sge)
			expect(q->sge[0].laddr == a->sge[0].addr &&
				       q->sge[0].lkey == a->sge[0].lkey,
			       "READ's sge[0]", "%s: lkey %#x", what,
			       q->sge[0].lkey);
		return;
	}
	if (s->flags & IBV_SEND_INLINE) {
		expect(t->bytes == s->total, "inline length", "%s: %u bytes",
		       what, t->bytes);
		expect(!memcmp(&q->sge[1], a->data,
			       s->total < t->bytes ? s->total : t->bytes),
		       "inline bytes", "%s: not the bytes at post time", what);
		return;
	}
	expect(q->num_sge == s->num_sge, "num_sge", "%s: %u", what, q->num_sge);
	for (int i = 0; i < s->num_sge && i < q->num_sge; i++)
		expect(q->sge[i].laddr == a->sge[i].addr &&
			       q->sge[i].length == a->sge[i].length &&
			       q->sge[i].lkey == a->sge[i].lkey,
		       "gather list", "%s: sge[%d]", what, i);
}

static unsigned int ring_valid(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < T_NUM_WQE; i++)
		n += !!(atomic_load_explicit(
				(_Atomic uint16_t *)&t_siw.sq[i].flags,
				memory_order_acquire) &
			SIW_WQE_VALID);
	return n;
}

/*
 * The engine runs over what is valid. An element siw refuses to
 * activate stays valid and stops it (the connection would drop): noted,
 * then taken out of the way so that the sweep goes on.
 */
static void engine(void)
{
	while (t_siw_sq_run() == EINVAL) {
		struct t_siw_taken *t = &t_siw.taken[t_siw.ntaken - 1];

		if (t->index == t_siw.sq_get) {
			t_siw_take(&t_siw.sq[t_siw.sq_get % T_NUM_WQE].flags);
			t_siw.sq_get++;
		}
	}
}

/* The move to ERROR, and what the CQ then holds: flush completions. */
static void flush(struct ibv_cq *cq)
{
	struct ibv_wc wc[T_NUM_CQE];
	int n;

	t_siw_sq_flush();
	while ((n = ibv_poll_cq(cq, T_NUM_CQE, wc)) > 0)
		for (int i = 0; i < n; i++) {
			expect(wc[i].status == IBV_WC_WR_FLUSH_ERR,
			       "flush status", "%d", wc[i].status);
			consume(wc[i].wr_id, "flush");
		}
	assert_int_equal(n, 0);
}

/* The kernel's conditions a case posts under. */
enum cond { C_RTS, C_IDLE, C_CLOSING, C_ERROR, C_LOCKED, NCOND };
static const char *const cond_name[NCOND] = { "RTS", "IDLE", "CLOSING", "ERROR",
					      "locked" };

static void set_cond(enum cond c)
{
	static const enum t_siw_state st[NCOND] = { T_SIW_RTS, T_SIW_IDLE,
						    T_SIW_CLOSING, T_SIW_ERROR,
						    T_SIW_RTS };

	t_siw.state = st[c];
	t_siw.state_locked = c == C_LOCKED;
}

static const struct spec good_send = { IBV_WR_SEND, 0, 1, 0 };

/*
 * Posts one good request (a fill, the kicker): accepted, or refused with
 * ENOMEM when the ring is full.
 */
static void post_good(struct ibv_qp *qp)
{
	bool full = ring_valid() == T_NUM_WQE;
	struct ibv_send_wr *bad = NULL;
	struct req r;
	int ret;

	build(&r, &good_send);
	sw.requests++;
	ret = ibv_post_send(qp, &r.wr, &bad);
	if (full) {
		expect(ret == ENOMEM && bad == &r.wr, "full ring",
		       "a post on a full ring: %d", ret);
		sw.ledger[sw.nledger - 1].end = REFUSED;
		return;
	}
	expect(!ret, "good request refused", "%d", ret);
	if (ret)
		sw.ledger[sw.nledger - 1].end = REFUSED;
}

/*
 * Drives the kernel until it has ended every request it holds, as the
 * condition allows: a QP below RTS or whose state lock was held goes to
 * RTS and the next post rings the doorbell owed (with the engine on, it
 * alone must have the kernel take everything when every element in the
 * ring was posted under a refused doorbell, @owed); CLOSING and ERROR
 * flush.
 */
static void drive_to_end(struct ibv_qp *qp, struct ibv_cq *cq, enum cond c,
			 bool on, bool owed)
{
	if (c == C_IDLE || c == C_LOCKED) {
		set_cond(C_RTS);
		post_good(qp);
		if (on && owed)
			expect(!ring_valid(), "no doorbell after a refused one",
			       "the next post in RTS left %u elements valid",
			       ring_valid());
	} else if (c == C_CLOSING || c == C_ERROR) {
		flush(cq);
		set_cond(C_RTS);
	}
	engine();
}

/* The ledger: what the kernel took, each request ended exactly once. */
static void settle(void)
{
	for (unsigned int i = 0; i < t_siw.ntaken; i++) {
		const struct t_siw_taken *t = &t_siw.taken[i];
		struct asked *a = find(t->sqe.id);
		bool pending = a && a->end == PENDING;

		/* Refused and left valid: the next record is its retry. */
		if (i + 1 < t_siw.ntaken &&
		    t_siw.taken[i + 1].index == t->index)
			continue;
		consume(t->sqe.id, "taken");
		if (pending)
			check_taken(t, a);
	}
	t_siw.ntaken = 0;
	expect(!ring_valid(), "elements left", "%u valid", ring_valid());
	for (unsigned int i = 0; i < sw.nledger; i++)
		expect(sw.ledger[i].end != PENDING, "request never ended",
		       "%s flags %#x num_sge %d total %u: posted, never consumed",
		       op_name(sw.ledger[i].s.op), sw.ledger[i].s.flags,
		       sw.ledger[i].s.num_sge, sw.ledger[i].s.total);
	sw.nledger = 0;
}

/*
 * One case: @fill good requests waiting in the ring (the engine off), the
 * kernel in @c (its engine @on), then a list of @n requests, the ones
 * given in @specs; what the post must answer, then the ledger.
 */
static void run_case(struct ibv_qp *qp, struct ibv_cq *cq,
		     const struct spec *specs, int n, unsigned int fill,
		     enum cond c, bool on)
{
	static struct req reqs[LIST_MAX];
	struct ibv_send_wr sentinel, *bad = &sentinel;
	struct asked *a[LIST_MAX];
	unsigned int room;
	int ret, want = 0, refused = n;

	sw.cases++;
	set_cond(C_RTS);
	t_siw.engine = false;
	for (unsigned int i = 0; i < fill; i++)
		post_good(qp);
	room = T_NUM_WQE - ring_valid();
	set_cond(c);
	t_siw.engine = on;
	for (int i = 0; i < n; i++) {
		a[i] = build(&reqs[i], &specs[i]);
		reqs[i].wr.next = i + 1 < n ? &reqs[i + 1].wr : NULL;
		sw.scribble[i] = &reqs[i];
		if (refused == n && (!room || !valid(&specs[i]))) {
			refused = i;
			want = room ? EINVAL : ENOMEM;
		}
		room -= refused == n;
	}
	sw.requests += (unsigned long)n;
	t_siw.meanwhile = scribble_at_doorbell;
	ret = ibv_post_send(qp, &reqs[0].wr, &bad);
	t_siw.meanwhile = NULL;
	for (int i = 0; i < n; i++) {
		scribble(&reqs[i]);
		memset(reqs[i].sge, 0x5a, sizeof(reqs[i].sge));
		sw.scribble[i] = NULL;
		if (i >= refused)
			a[i]->end = REFUSED;
	}
	if (ret != want) {
		const struct spec *s = &specs[refused < n ? refused : 0];
		char kind[96];

		if (ret == -want)
			snprintf(kind, sizeof(kind), "negative errno");
		else
			snprintf(kind, sizeof(kind), "post's answer (%s)",
				 refused == n ? "all good" :
				 !room	      ? "full ring" :
						why(s));
		differ(kind,
		       "%s flags %#x num_sge %d total %u in a list of %d, %s: %d, want %d",
		       op_name(s->op), s->flags, s->num_sge, s->total, n,
		       cond_name[c], ret, want);
	}
	if (refused < n)
		expect(bad == &reqs[refused].wr, "bad_wr",
		       "%s flags %#x num_sge %d: bad_wr %s",
		       op_name(specs[refused].op), specs[refused].flags,
		       specs[refused].num_sge,
		       bad == &sentinel ? "not written" : "elsewhere");
	drive_to_end(qp, cq, c, on, !fill);
	settle();
}

/* Every request a case may ask, @x's variants of num_sge and inline total. */
static unsigned int variants(struct spec *out, enum ibv_wr_opcode op,
			     unsigned int flags)
{
	const int nsge[] = { 0, 1, (int)sw.max_sge, (int)sw.max_sge + 1, -1 };
	const uint32_t totals[] = { 0, SIW_MAX_INLINE, SIW_MAX_INLINE + 1 };
	unsigned int k = 0;

	for (unsigned int i = 0; i < sizeof(nsge) / sizeof(nsge[0]); i++) {
		bool spread = flags & IBV_SEND_INLINE && nsge[i] > 0;

		for (unsigned int t = 0; t < (spread ? 3u : 1u); t++)
			out[k++] = (struct spec){ op, flags, nsge[i],
						  spread ? totals[t] : 0 };
	}
	return k;
}

static void sweep_qp(struct t_siw_base *b, uint32_t max_sge, bool sig_all)
{
	static const enum ibv_wr_opcode ops[] = {
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
		(enum ibv_wr_opcode)42,
	};
	const struct spec write = { IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED, 1,
				    0 };
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = sig_all,
		.cap = { .max_send_wr = 5,
			 .max_send_sge = max_sge,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_qp *qp = t_siw_qp(b, &init);
	struct spec v[16], list[LIST_MAX];
	/*
	 * Every condition on the first of the fake's kernels; on the
	 * others, whose doorbell differs only in the route its answer
	 * takes, RTS with the engine running and IDLE.
	 */
	int step = t_uv.kernel == T_UV_IOCTL ? 1 : 2;
	int nc = t_uv.kernel == T_UV_IOCTL ? NCOND * 2 : 4;

	sw.max_sge = init.cap.max_send_sge;
	sw.sig_all = sig_all;
	for (unsigned int o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
		for (unsigned int f = 0; f < 16; f++) {
			unsigned int nv = variants(v, ops[o], f);

			for (unsigned int i = 0; i < nv; i++)
				for (int c = step - 1; c < nc; c += step) {
					run_case(qp, b->cq, &v[i], 1, 0, c / 2,
						 c & 1);
					list[0] = good_send;
					list[1] = v[i];
					list[2] = write;
					run_case(qp, b->cq, list, 3, 0, c / 2,
						 c & 1);
				}
		}
	/* A full ring, and one with a slot left for the first of three. */
	list[0] = good_send;
	list[1] = write;
	list[2] = good_send;
	for (int c = 0; c < NCOND * 2; c++) {
		run_case(qp, b->cq, list, 1, T_NUM_WQE, c / 2, c & 1);
		run_case(qp, b->cq, list, 3, T_NUM_WQE, c / 2, c & 1);
		run_case(qp, b->cq, list, 3, T_NUM_WQE - 1, c / 2, c & 1);
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

static void sweep(void **state)
{
	struct t_siw_base *b = *state;

	sw.report = getenv("T_SIW_SWEEP_REPORT") != NULL;
	sw.cases = sw.requests = sw.differences = 0;
	sw.nledger = 0; /* a failure on the kernel before may leave some */
	memset(sw.scribble, 0, sizeof(sw.scribble));
	memset(kinds, 0, sizeof(kinds));
	sweep_qp(b, 3, false);
	sweep_qp(b, SIW_MAX_SGE, true);
	print_message("sweep: %lu cases, %lu requests, %lu differences\n",
		      sw.cases, sw.requests, sw.differences);
	for (int k = 0; k < KINDS_MAX && kinds[k].n; k++)
		print_message("  %6lu x %s\n", kinds[k].n, kinds[k].kind);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sweep, t_siw_base_up,
						t_siw_base_down),
	};
	/* Debian's libsiw claims by the driver id RDMA netlink gives. */
	const struct t_nl_dev nl = {
		.index = 1,
		.name = "siw0",
		.node_type = 4, /* RNIC */
		.node_guid = 0x0100fefff0a0a0bull,
		.ports = 1,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.chardev = "uverbs0",
		.abi = SIW_ABI_VERSION,
		.driver_id = RDMA_DRIVER_SIW,
	};

	if (getenv("T_SIW_PLUGIN")) {
		t_nl_enable();
		t_nl_add(&nl);
	}
	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
