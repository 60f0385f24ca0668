// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_sweep_test's oracle, written from the verbs and IBTA, not from the
 * provider: which opcodes a QP type carries, what a request may be
 * answered (posted, EINVAL, ENOMEM) in each state, the request in the
 * forms of ibv_post_send() and of the ibv_wr_*() builders, and the
 * comparison of what the fake rdma_rxe took with what was asked.
 */
#include <errno.h>
#include <string.h>

#include "rxe_sweep.h"

/*
 * Whether IBTA gives the opcode a meaning on the QP's type (as rdma_rxe
 * implements it: no TSO, no RDMA_READ_WITH_INV, no invalidate on UC).
 */
bool op_valid(enum ibv_qp_type type, uint32_t op)
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

bool op_payload(uint32_t op)
{
	return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM ||
	       op == IBV_WR_SEND_WITH_INV || op == IBV_WR_RDMA_WRITE ||
	       op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

bool op_atomic(uint32_t op)
{
	return op == IBV_WR_ATOMIC_CMP_AND_SWP ||
	       op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

bool op_local(uint32_t op)
{
	return op == IBV_WR_LOCAL_INV || op == IBV_WR_BIND_MW;
}

/* The answers the verbs allow for @r alone, on a QP of @type. */
unsigned int allowed(enum ibv_qp_type type, const struct req *r, enum api api)
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
unsigned int allowed_now(const struct tqp *q, const struct req *r, enum api api,
			 unsigned int queued)
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
void make_req(struct req *r, uint32_t op, uint32_t flags, int nsge,
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

void to_wr(const struct tqp *q, struct req *r, struct ibv_send_wr *wr)
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

bool build_exists(uint32_t op)
{
	return op <= IBV_WR_SEND_WITH_INV;
}

/* @r through the builders; false where no builder exists for its op. */
bool build(const struct tqp *q, const struct req *r)
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

#define CHECK(cond, ...)                   \
	do {                               \
		if (!(cond)) {             \
			diff(__VA_ARGS__); \
			return;            \
		}                          \
	} while (0)

/* What the kernel took for @r is what @r asked. */
void same(const struct tqp *q, const struct req *r, const struct t_rxe_wire *w)
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
