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

#include "rxe_sweep.h"

static const enum ibv_qp_type types[] = { IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD };
static const enum ibv_qp_state states[] = {
	IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	IBV_QPS_SQD,   IBV_QPS_SQE,  IBV_QPS_ERR,
};

struct sweep sw;

void diff(const char *fmt, ...)
{
	va_list ap;

	if (++sw.diffs > (sw.report ? 200u : 40u))
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

static struct tqp *tqp_of(uint32_t handle)
{
	for (unsigned int i = 0; i < 3; i++)
		if (sw.qps[i].qp && sw.qps[i].qp->handle == handle)
			return &sw.qps[i];
	return NULL;
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
