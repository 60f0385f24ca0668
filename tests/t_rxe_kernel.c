// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The fake rxe kernel driver of t_rxe_kernel.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_rxe_kernel.h"

#include "t_diffrun.h"
#include "t_util.h"
#include "t_uverbs.h"

struct t_rxe_kern t_rxe;

/*
 * The queues handed out, so that each gets its header when the provider
 * maps it. A test creates and destroys objects by the hundred: the
 * oldest entries are reused, long after their queues were unmapped.
 */
#define NQUEUES 64
static struct queue {
	uint64_t offset;
	uint32_t slots, log2_elem;
	struct rxe_queue_buf *addr; /* where the provider mapped it */
	struct queue *from; /* a queue it replaces, whose entries move in */
	struct rxe_queue_buf **as; /* the t_rxe pointer it sets when mapped */
} queues[NQUEUES];
static unsigned int nqueues;

/* The queue of the last CQ and of the last SRQ, for RESIZE and MODIFY. */
static struct queue *cq_queue, *srq_queue;

/* QP states by handle; a handle not listed is a QP in RESET. */
#define NQPS 64
static struct qp_state {
	uint32_t handle;
	enum ibv_qp_state state;
	bool used;
} qps[NQPS];

/* The requesters the tests attached, by QP handle. */
static struct requester {
	uint32_t handle;
	enum ibv_qp_type type;
	struct rxe_queue_buf *sq;
	bool used;
} reqs[NQPS];

/* rdma_rxe hands out mmap offsets upwards, page-aligned. */
static uint64_t next_offset;

/*
 * Slots for work requests of up to four scatter entries (the provider
 * refuses a queue whose slots are shorter than the QP's caps need, and
 * the caps are the request's, see t_uv_echo_qp_caps()).
 */
#define MAX_SGE 4
#define RECV_ELEM \
	(sizeof(struct rxe_recv_wqe) + MAX_SGE * sizeof(struct rxe_sge))
#define SEND_ELEM \
	(sizeof(struct rxe_send_wqe) + MAX_SGE * sizeof(struct rxe_sge))

/* A queue of @slots slots of at least @elem bytes, at a fresh offset. */
static struct mminfo queue_at(uint32_t slots, size_t elem)
{
	struct queue *q = &queues[nqueues++ % NQUEUES];
	struct mminfo mi = { 0 };

	memset(q, 0, sizeof(*q));
	q->slots = slots;
	for (q->log2_elem = 0; (1ul << q->log2_elem) < elem; q->log2_elem++)
		;
	mi.size = sizeof(struct rxe_queue_buf) + (slots << q->log2_elem);
	mi.offset = q->offset = next_offset;
	next_offset += (mi.size + 4095) & ~(uint64_t)4095;
	return mi;
}

/* The last queue queue_at() handed out. */
static struct queue *last_queue(void)
{
	return &queues[(nqueues - 1) % NQUEUES];
}

/*
 * A queue that replaces @old (RESIZE_CQ, MODIFY_SRQ with a new max_wr):
 * rdma_rxe copies the entries into a new buffer and answers where to
 * map it; from then on it reads and writes only the new one.
 */
static struct mminfo queue_moved(struct queue **cur, uint32_t want, size_t elem,
				 struct rxe_queue_buf **as)
{
	struct queue *old = *cur;
	uint32_t slots = 2;
	struct mminfo mi;

	while (slots < want + 1)
		slots <<= 1;
	mi = queue_at(slots, elem);
	*cur = last_queue();
	(*cur)->from = old;
	(*cur)->as = as;
	*as = NULL; /* until the provider maps the new one */
	return mi;
}

static struct qp_state *qp_of(uint32_t handle, bool add)
{
	for (unsigned int i = 0; i < NQPS; i++)
		if (qps[i].used && qps[i].handle == handle)
			return &qps[i];
	if (!add)
		return NULL;
	for (unsigned int i = 0; i < NQPS; i++)
		if (!qps[i].used) {
			qps[i] = (struct qp_state){ handle, IBV_QPS_RESET,
						    true };
			return &qps[i];
		}
	return NULL;
}

enum ibv_qp_state t_rxe_qp_state(uint32_t qp_handle)
{
	struct qp_state *qp = qp_of(qp_handle, false);

	return qp ? qp->state : IBV_QPS_RESET;
}

void t_rxe_set_qp_state(uint32_t qp_handle, enum ibv_qp_state state)
{
	t_uv_lock();
	qp_of(qp_handle, true)->state = state;
	t_uv_unlock();
}

/* The moves IBTA allows from a modify (ib_modify_qp_is_ok()). */
static bool move_ok(enum ibv_qp_state from, enum ibv_qp_state to)
{
	switch (to) {
	case IBV_QPS_RESET:
	case IBV_QPS_ERR:
		return true;
	case IBV_QPS_INIT:
		return from == IBV_QPS_RESET || from == IBV_QPS_INIT;
	case IBV_QPS_RTR:
		return from == IBV_QPS_INIT;
	case IBV_QPS_RTS:
		return from == IBV_QPS_RTR || from == IBV_QPS_RTS ||
		       from == IBV_QPS_SQD;
	case IBV_QPS_SQD:
		return from == IBV_QPS_RTS || from == IBV_QPS_SQD;
	default:
		return false;
	}
}

static struct requester *req_of(uint32_t handle)
{
	for (unsigned int i = 0; i < NQPS; i++)
		if (reqs[i].used && reqs[i].handle == handle)
			return &reqs[i];
	return NULL;
}

static const struct rxe_send_wqe *wqe_at(const struct rxe_queue_buf *q,
					 uint32_t i)
{
	return (const void *)(q->data + ((size_t)i << q->log2_elem_size));
}

/* The bytes a slot holds past its struct rxe_send_wqe. */
static size_t slot_room(const struct rxe_queue_buf *q)
{
	return ((size_t)1 << q->log2_elem_size) - sizeof(struct rxe_send_wqe);
}

/*
 * Whether rdma_rxe 6.1 has a way to carry @op on a QP of @type: a packet
 * opcode its requester picks for it (RC: SENDs, with immediate or
 * invalidate, WRITEs, READ, the two atomics; UC: SENDs and WRITEs, no
 * invalidate, as IBTA gives UC no such packet; UD: SEND, with or without
 * immediate), or a local operation (LOCAL_INV on RC, BIND_MW on RC and
 * UC). Anything else fails with IBV_WC_LOC_QP_OP_ERR.
 */
static bool carried(enum ibv_qp_type type, uint32_t op)
{
	switch (op) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		return type == IBV_QPT_RC || type == IBV_QPT_UC ||
		       type == IBV_QPT_UD;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_BIND_MW:
		return type == IBV_QPT_RC || type == IBV_QPT_UC;
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

/*
 * The gather list (or a reply's sink) as the kernel walks it: dma.num_sge
 * entries from the slot; with @payload, the first dma.length bytes they
 * name. Too few bytes in the list fails the WQE, as the kernel's copy
 * does (IBV_WC_LOC_PROT_ERR).
 */
static void gather(const struct rxe_queue_buf *q,
		   const struct rxe_send_wqe *wqe, struct t_rxe_wire *w,
		   bool payload)
{
	uint32_t n = wqe->dma.num_sge, left = wqe->dma.length, at = 0;

	if ((size_t)n * sizeof(struct rxe_sge) > slot_room(q)) {
		w->overrun = true;
		n = (uint32_t)(slot_room(q) / sizeof(struct rxe_sge));
	}
	w->num_sge = n;
	for (uint32_t i = 0; i < n; i++) {
		const struct rxe_sge *sge = &wqe->dma.sge[i];
		uint32_t take = sge->length < left ? sge->length : left;

		if (i < T_RXE_WIRE_SGES)
			w->sge[i] = *sge;
		if (!payload || !take)
			continue;
		if (at < T_RXE_WIRE_BYTES)
			memcpy(w->bytes + at,
			       (const void *)(uintptr_t)sge->addr,
			       take < T_RXE_WIRE_BYTES - at ?
				       take :
				       T_RXE_WIRE_BYTES - at);
		at += take;
		left -= take;
	}
	if (payload && left) {
		w->fate = T_RXE_FAILED;
		w->status = IBV_WC_LOC_PROT_ERR;
		w->completion = true;
	}
}

/* The payload of a SEND or WRITE: from the slot when INLINE. */
static void payload(const struct rxe_queue_buf *q,
		    const struct rxe_send_wqe *wqe, struct t_rxe_wire *w)
{
	if (!(wqe->wr.send_flags & IBV_SEND_INLINE)) {
		gather(q, wqe, w, true);
		return;
	}
	w->inline_data = true;
	if (w->length > slot_room(q)) {
		w->overrun = true;
		return;
	}
	memcpy(w->bytes, wqe->dma.inline_data,
	       w->length < T_RXE_WIRE_BYTES ? w->length : T_RXE_WIRE_BYTES);
}

/*
 * Takes one WQE in RTS as rdma_rxe 6.1 would, into @w: what goes on the
 * wire (or what a local operation reads). Its fields per opcode: the
 * payload's length is dma.length; RDMA and atomics address the peer by
 * the WQE's iova, with wr.rdma.rkey or wr.atomic.rkey; a CMP_AND_SWP
 * carries compare_add and swap, a FETCH_AND_ADD compare_add alone;
 * READ and atomics land their reply in the gather list; imm_data with
 * an immediate, invalidate_rkey for SEND_WITH_INV and LOCAL_INV; UD its
 * ah_num (0: the AV in the WQE), remote_qpn and remote_qkey; BIND_MW
 * its wr.mw. The flags it acts on are SIGNALED, FENCE, SOLICITED and,
 * for a payload, INLINE.
 */
static void take(const struct requester *r, const struct rxe_send_wqe *wqe,
		 struct t_rxe_wire *w)
{
	const struct rxe_send_wr *k = &wqe->wr;
	uint32_t op = k->opcode;

	w->fate = T_RXE_SENT;
	w->status = IBV_WC_SUCCESS;
	w->completion = k->send_flags & IBV_SEND_SIGNALED;
	if (!carried(r->type, op)) {
		w->fate = T_RXE_FAILED;
		w->status = IBV_WC_LOC_QP_OP_ERR;
		w->completion = true;
		return;
	}
	w->length = wqe->dma.length;
	switch (op) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		w->imm_data = k->ex.imm_data;
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		w->invalidate_rkey = k->ex.invalidate_rkey;
		break;
	default:
		break;
	}
	switch (op) {
	case IBV_WR_LOCAL_INV:
		w->length = 0;
		return;
	case IBV_WR_BIND_MW:
		w->length = 0;
		w->mw = *k;
		return;
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		w->remote_addr = wqe->iova;
		w->rkey = k->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		w->swap = k->wr.atomic.swap;
		/* fall through */
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		w->remote_addr = wqe->iova;
		w->rkey = k->wr.atomic.rkey;
		w->compare_add = k->wr.atomic.compare_add;
		break;
	default:
		break;
	}
	if (r->type == IBV_QPT_UD) {
		w->remote_qpn = k->wr.ud.remote_qpn;
		w->remote_qkey = k->wr.ud.remote_qkey;
		w->ah_num = k->wr.ud.ah_num;
	}
	if (op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	    op == IBV_WR_ATOMIC_FETCH_AND_ADD)
		gather(r->sq, wqe, w, false);
	else
		payload(r->sq, wqe, w);
}

/*
 * The requester of @r runs (the fake's lock held): every WQE from the
 * consumer index to the producer index, as the QP's state has it. The
 * kernel's requester index is the consumer index here, as the model
 * completes each WQE as it takes it.
 */
static unsigned int req_run(struct requester *r)
{
	struct rxe_queue_buf *q = r->sq;
	unsigned int n = 0;
	uint32_t cons, prod;

	cons = __atomic_load_n(&q->consumer_index, __ATOMIC_RELAXED);
	/* Acquire: pairs with the provider's release; the slots are whole. */
	prod = __atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE);
	for (; cons != prod; cons = (cons + 1) & q->index_mask, n++) {
		struct t_rxe_wire w = { .qp_handle = r->handle };
		const struct rxe_send_wqe *wqe = wqe_at(q, cons);
		struct qp_state *qs = qp_of(r->handle, true);

		w.wr_id = wqe->wr.wr_id;
		w.opcode = wqe->wr.opcode;
		w.send_flags = wqe->wr.send_flags;
		if (qs->state == IBV_QPS_RTS || qs->state == IBV_QPS_SQE) {
			take(r, wqe, &w);
			if (w.fate == T_RXE_FAILED)
				qs->state = IBV_QPS_ERR;
		} else if (qs->state == IBV_QPS_ERR) {
			w.fate = T_RXE_FLUSHED;
			w.status = IBV_WC_WR_FLUSH_ERR;
			w.completion = true;
		} else {
			break; /* SQD: nothing new; below RTS: not running */
		}
		if (t_rxe.on_take)
			t_rxe.on_take(&w, t_rxe.on_take_arg);
		/* Release: the slot is read; the provider may reuse it. */
		__atomic_store_n(&q->consumer_index, (cons + 1) & q->index_mask,
				 __ATOMIC_RELEASE);
	}
	return n;
}

/* The move to RESET: what the queue holds goes, without a completion. */
static void discard(struct requester *r)
{
	struct rxe_queue_buf *q = r->sq;
	uint32_t cons = __atomic_load_n(&q->consumer_index, __ATOMIC_RELAXED);
	uint32_t prod = __atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE);

	for (; cons != prod; cons = (cons + 1) & q->index_mask) {
		struct t_rxe_wire w = { .qp_handle = r->handle,
					.fate = T_RXE_DISCARDED };

		w.wr_id = wqe_at(q, cons)->wr.wr_id;
		w.opcode = wqe_at(q, cons)->wr.opcode;
		if (t_rxe.on_take)
			t_rxe.on_take(&w, t_rxe.on_take_arg);
	}
	memset(q->data, 0, (size_t)(q->index_mask + 1) << q->log2_elem_size);
	__atomic_store_n(&q->consumer_index, prod, __ATOMIC_RELEASE);
}

/* What a modify's move does to the send queue: flush or discard. */
static void moved(uint32_t handle, enum ibv_qp_state state)
{
	struct requester *r = req_of(handle);

	if (!r)
		return;
	if (state == IBV_QPS_ERR)
		req_run(r);
	else if (state == IBV_QPS_RESET)
		discard(r);
}

void t_rxe_req_attach(const struct ibv_qp *qp, struct rxe_queue_buf *sq)
{
	t_uv_lock();
	for (unsigned int i = 0; i < NQPS; i++)
		if (!reqs[i].used) {
			reqs[i] = (struct requester){ qp->handle, qp->qp_type,
						      sq, true };
			break;
		}
	t_uv_unlock();
}

void t_rxe_req_detach(const struct ibv_qp *qp)
{
	t_uv_lock();
	for (unsigned int i = 0; i < NQPS; i++)
		if (reqs[i].used && reqs[i].handle == qp->handle)
			reqs[i].used = false;
	t_uv_unlock();
}

unsigned int t_rxe_req_run(const struct ibv_qp *qp)
{
	struct requester *r;
	unsigned int n = 0;

	t_uv_lock();
	r = req_of(qp->handle);
	if (r)
		n = req_run(r);
	t_uv_unlock();
	return n;
}

static int modify_qp(const struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_modify_qp *m = cmd->core_in;
	struct qp_state *qp;

	if (cmd->core_in_len < sizeof(*m) || !(m->attr_mask & IBV_QP_STATE))
		return 0;
	qp = qp_of(m->qp_handle, true);
	if (!move_ok(qp->state, (enum ibv_qp_state)m->qp_state))
		return EINVAL;
	qp->state = (enum ibv_qp_state)m->qp_state;
	moved(m->qp_handle, qp->state);
	return 0;
}

/*
 * rdma_rxe 6.1's post_send for a user QP: EINVAL while the requester is
 * below ready (RESET, INIT, RTR), else the requester runs.
 */
static int post_send(const struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_post_send *ps = cmd->core_in;
	enum ibv_qp_state state;

	if (cmd->core_in_len < sizeof(*ps))
		return EINVAL;
	state = t_rxe_qp_state(ps->qp_handle);
	if (state == IBV_QPS_RESET || state == IBV_QPS_INIT ||
	    state == IBV_QPS_RTR)
		return EINVAL;
	t_rxe.doorbells++;
	if (!t_rxe.defer_requester && req_of(ps->qp_handle))
		req_run(req_of(ps->qp_handle));
	return 0;
}

/* One u32 input attribute of a method (inline), into an output's buffer. */
static void echo_u32(struct t_uv_cmd *cmd, uint16_t in_id, uint16_t out_id)
{
	struct ib_uverbs_attr *in = t_uv_attr(cmd, in_id);
	struct ib_uverbs_attr *out = t_uv_attr(cmd, out_id);
	uint32_t v;

	if (!in || !out || in->len != sizeof(v) || out->len < sizeof(v))
		return;
	v = (uint32_t)in->data;
	memcpy((void *)(uintptr_t)out->data, &v, sizeof(v));
}

/* rdma_rxe keeps an SRQ's max_wr and max_sge, when they are small. */
static void echo_srq_attr(struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_create_srq *in = cmd->core_in;
	struct ib_uverbs_create_srq_resp *out = cmd->core_out;

	if (cmd->is_ioctl) {
		echo_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_WR,
			 UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR);
		echo_u32(cmd, UVERBS_ATTR_CREATE_SRQ_MAX_SGE,
			 UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE);
		return;
	}
	if (cmd->core_in_len < sizeof(*in) || cmd->core_out_len < sizeof(*out))
		return;
	out->max_wr = in->max_wr;
	out->max_sge = in->max_sge;
}

/* MODIFY_SRQ with a new max_wr: the new mminfo goes where it points. */
static int modify_srq(const struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_modify_srq *m = cmd->core_in;
	const struct rxe_modify_srq_cmd *drv = cmd->drv_in;
	struct mminfo mi;

	if (cmd->core_in_len < sizeof(*m) || !(m->attr_mask & IBV_SRQ_MAX_WR))
		return 0;
	if (cmd->drv_in_len < sizeof(*drv) || !drv->mmap_info_addr)
		return EINVAL;
	mi = queue_moved(&srq_queue, m->max_wr, RECV_ELEM, &t_rxe.srq);
	memcpy((void *)(uintptr_t)drv->mmap_info_addr, &mi, sizeof(mi));
	return 0;
}

/* rdma_rxe's side of each command: its driver data. */
static int rxe_answer(struct t_uv_cmd *cmd)
{
	switch (t_uv_verb_of(cmd)) {
	case T_UV_CREATE_CQ: {
		struct rxe_create_cq_resp r = {
			.mi = queue_at(16, sizeof(struct ib_uverbs_wc)),
		};

		cq_queue = last_queue();
		cq_queue->as = &t_rxe.cq;
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_RESIZE_CQ: {
		const struct ib_uverbs_resize_cq *rc = cmd->core_in;
		struct rxe_resize_cq_resp r;

		r.mi = queue_moved(&cq_queue, rc->cqe,
				   sizeof(struct ib_uverbs_wc), &t_rxe.cq);
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_QP: {
		struct rxe_create_qp_resp r;

		/* rdma_rxe keeps the caps asked for, when they are small. */
		t_uv_echo_qp_caps(cmd);
		r.rq_mi = queue_at(8, RECV_ELEM);
		r.sq_mi = queue_at(8, SEND_ELEM);
		last_queue()->as = &t_rxe.sq;
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_MODIFY_QP:
		return modify_qp(cmd);
	case T_UV_POST_SEND:
		return post_send(cmd);
	case T_UV_CREATE_SRQ: {
		struct rxe_create_srq_resp r = {
			.mi = queue_at(8, RECV_ELEM),
			.srq_num = 0x11,
		};

		echo_srq_attr(cmd);
		srq_queue = last_queue();
		srq_queue->as = &t_rxe.srq;
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_MODIFY_SRQ:
		return modify_srq(cmd);
	case T_UV_CREATE_AH: {
		struct rxe_create_ah_resp r = { .ah_num = t_rxe.ah_num };

		return t_uv_put(cmd, &r, sizeof(r));
	}
	default:
		return 0;
	}
}

/*
 * The entries of the queue @q replaces, still unconsumed, copied to its
 * first slots as rdma_rxe's resize does; the old queue's indices stay,
 * as the kernel no longer looks at them.
 */
static void move_entries(struct queue *q)
{
	struct rxe_queue_buf *old = q->from ? q->from->addr : NULL;
	struct rxe_queue_buf *buf = q->addr;
	uint32_t cons, prod, n = 0;
	size_t elem = (size_t)1 << q->log2_elem;

	if (!old)
		return;
	cons = __atomic_load_n(&old->consumer_index, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n(&old->producer_index, __ATOMIC_ACQUIRE);
	for (; cons != prod; cons = (cons + 1) & old->index_mask, n++)
		memcpy(buf->data + n * elem,
		       old->data + ((size_t)cons << old->log2_elem_size), elem);
	buf->producer_index = n;
}

/* The header rdma_rxe keeps at the base of a shared queue. */
static void rxe_mmap(uint64_t offset, void *addr, size_t len)
{
	struct rxe_queue_buf *buf = addr;

	if (len < sizeof(*buf))
		return;
	for (unsigned int i = 0; i < NQUEUES && i < nqueues; i++)
		if (queues[i].offset == offset) {
			buf->log2_elem_size = queues[i].log2_elem;
			buf->index_mask = queues[i].slots - 1;
			queues[i].addr = buf;
			move_entries(&queues[i]);
			if (queues[i].as)
				*queues[i].as = buf;
			t_rxe.queues_mapped++;
		}
}

void t_rxe_complete(uint64_t wr_id)
{
	struct rxe_queue_buf *q = t_rxe.cq;
	struct ib_uverbs_wc *wc;
	uint32_t prod;

	assert_non_null(q);
	prod = __atomic_load_n(&q->producer_index, __ATOMIC_RELAXED);
	wc = (void *)(q->data + ((size_t)prod << q->log2_elem_size));
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->opcode = IBV_WC_RECV;
	wc->byte_len = 1;
	__atomic_store_n(&q->producer_index, (prod + 1) & q->index_mask,
			 __ATOMIC_RELEASE);
}

static const struct t_uv_driver rxe_driver = {
	.name = "rxe",
	.answer = rxe_answer,
	.mmap = rxe_mmap,
};

/* A fresh driver on a fresh kernel of @kernel. */
static void reset(enum t_uv_kernel kernel)
{
	t_uv_reset(kernel);
	t_uv.driver = &rxe_driver;
	memset(queues, 0, sizeof(queues));
	nqueues = 0;
	memset(qps, 0, sizeof(qps));
	memset(reqs, 0, sizeof(reqs));
	t_rxe.defer_requester = false;
	t_rxe.on_take = NULL;
	t_rxe.on_take_arg = NULL;
	cq_queue = srq_queue = NULL;
	next_offset = 0x10000;
	t_rxe.ah_num = 1;
	t_rxe.queues_mapped = 0;
	t_rxe.cq = t_rxe.sq = t_rxe.srq = NULL;
	t_rxe.doorbells = 0;
}

int t_rxe_run(const struct CMUnitTest *tests, size_t n)
{
	struct t_dev dev = {
		.ibdev = "rxe0",
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = 2, /* RXE_UVERBS_ABI_VERSION, the kernel's rxe.h */
		.node_type = 1, /* CA */
	};
	const char *abi = getenv("T_RXE_ABI");
	char drivers[4096];
	char *root = t_fake_kernel(false);
	int ret = 0;

	if (!root)
		return T_SKIP;
	/* An older kernel's version: 1, before 32-bit layouts were fixed. */
	if (abi)
		dev.abi = atoi(abi);
	t_sysfs_add(root, &dev);
	free(root); /* SYSFS_PATH holds its own copy */
	/*
	 * Our plugin only, by path, whichever core loads it; or the one
	 * T_RXE_PLUGIN names (Debian's, to compare).
	 */
	if (getenv("T_RXE_PLUGIN"))
		snprintf(drivers, sizeof(drivers), "%s",
			 getenv("T_RXE_PLUGIN"));
	else
		snprintf(drivers, sizeof(drivers), "%s/lib/librxe",
			 t_build_dir());
	setenv("RDMAV_DRIVERS", drivers, 1);
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++) {
		reset(t_diffrun_kernels[k]);
		ret |= _cmocka_run_group_tests(
			t_uv_kernel_name(t_diffrun_kernels[k]), tests, n, NULL,
			NULL);
	}
	return ret;
}
