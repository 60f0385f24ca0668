// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Our rxe plugin against the fake rdma_rxe of t_rxe_kernel.h where the
 * kernel's answer decides what the provider must do next: a send
 * doorbell refused below RTS, a queue that moved on resize but could
 * not be mapped, the extended QP's creation flags, the port's speed.
 * Each case states the kernel behaviour it rests on.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_port_speed.h"
#include "t_rxe_kernel.h"
#include "t_uverbs.h"
#include "t_util.h"

struct base {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

static int base_up(void **state)
{
	static struct base b;

	b.ctx = t_uv_open_only("rxe0");
	assert_non_null(b.ctx);
	b.pd = ibv_alloc_pd(b.ctx);
	assert_non_null(b.pd);
	b.cq = ibv_create_cq(b.ctx, 10, NULL, NULL, 0);
	assert_non_null(b.cq);
	*state = &b;
	return 0;
}

static int base_down(void **state)
{
	struct base *b = *state;

	assert_int_equal(ibv_destroy_cq(b->cq), 0);
	assert_int_equal(ibv_dealloc_pd(b->pd), 0);
	assert_int_equal(ibv_close_device(b->ctx), 0);
	return 0;
}

/*
 * An RC QP, extended (@ex) with SEND and @more_ops; NULL and errno when
 * the provider refuses it.
 */
static struct ibv_qp *rc_qp_try(struct base *b, bool ex, uint64_t more_ops)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = b->cq,
		.recv_cq = b->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = b->pd,
	};

	if (ex) {
		a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a.send_ops_flags = IBV_QP_EX_WITH_SEND | more_ops;
	}
	t_rxe.sq = NULL;
	errno = 0;
	return ibv_create_qp_ex(b->ctx, &a);
}

static struct ibv_qp *rc_qp(struct base *b, bool ex)
{
	struct ibv_qp *qp = rc_qp_try(b, ex, 0);

	assert_non_null(qp);
	assert_non_null(t_rxe.sq);
	return qp;
}

static void move(struct ibv_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = { .qp_state = state };

	assert_int_equal(ibv_modify_qp(qp, &attr, IBV_QP_STATE), 0);
}

static uint32_t sq_prod(void)
{
	return __atomic_load_n(&t_rxe.sq->producer_index, __ATOMIC_ACQUIRE);
}

static const struct rxe_send_wqe *sq_slot(uint32_t i)
{
	return (const void *)(t_rxe.sq->data +
			      ((size_t)i << t_rxe.sq->log2_elem_size));
}

/* A SEND of @wr_id through ibv_post_send(); *bad_wr as it left it. */
static int post(struct ibv_qp *qp, uint64_t wr_id, unsigned int n,
		struct ibv_send_wr **bad)
{
	static char buf[8];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x100 };
	struct ibv_send_wr wr[2];
	static struct ibv_send_wr sentinel;
	int ret;

	for (unsigned int i = 0; i < 2; i++)
		wr[i] = (struct ibv_send_wr){ .wr_id = wr_id + i,
					      .next = i + 1 < n ? &wr[i + 1] :
								  NULL,
					      .sg_list = &sge,
					      .num_sge = 1,
					      .opcode = IBV_WR_SEND };
	*bad = &sentinel;
	ret = ibv_post_send(qp, wr, bad);
	/* Name the answer by the WR's position: wr is about to go. */
	if (*bad == &wr[0])
		*bad = (struct ibv_send_wr *)1;
	else if (*bad == &wr[1])
		*bad = (struct ibv_send_wr *)2;
	return ret;
}

/* The same through the builders. */
static int post_ex(struct ibv_qp *qp, uint64_t wr_id)
{
	struct ibv_qp_ex *ex = ibv_qp_to_qp_ex(qp);

	ibv_wr_start(ex);
	ex->wr_id = wr_id;
	ibv_wr_send(ex);
	ibv_wr_set_sge(ex, 0x100, 0x1000, 8);
	return ibv_wr_complete(ex);
}

/*
 * rdma_rxe 6.1 answers the send doorbell with EINVAL while the QP is
 * below RTS, before its requester runs: a send posted then must fail
 * with *bad_wr on its first WR and leave nothing in the queue, or it
 * would go out at the first doorbell after RTS (and twice, once the
 * caller posts it again).
 */
static void sends_below_rts(void **state)
{
	struct base *b = *state;
	struct ibv_send_wr *bad;
	struct ibv_qp *qp = rc_qp(b, false);
	const enum ibv_qp_state below[] = { IBV_QPS_RESET, IBV_QPS_INIT,
					    IBV_QPS_RTR };

	for (size_t i = 0; i < sizeof(below) / sizeof(below[0]); i++) {
		if (i)
			move(qp, below[i]);
		assert_int_equal(post(qp, 10 + i, 2, &bad), EINVAL);
		assert_ptr_equal(bad, (struct ibv_send_wr *)1);
		assert_int_equal(sq_prod(), 0);
	}
	move(qp, IBV_QPS_RTS);
	assert_int_equal(post(qp, 20, 1, &bad), 0);
	assert_int_equal(sq_prod(), 1);
	/* The first WQE the kernel sees is the one posted in RTS. */
	assert_int_equal(sq_slot(0)->wr.wr_id, 20);
	assert_int_equal(t_rxe.doorbells, 1);

	/*
	 * A QP the kernel holds below RTS though the provider saw no such
	 * modify: the doorbell is refused, and the list withdrawn whole.
	 */
	t_rxe_set_qp_state(qp->handle, IBV_QPS_INIT);
	assert_int_equal(post(qp, 30, 2, &bad), EINVAL);
	assert_ptr_equal(bad, (struct ibv_send_wr *)1);
	assert_int_equal(sq_prod(), 1);
	t_rxe_set_qp_state(qp->handle, IBV_QPS_RTS);
	assert_int_equal(post(qp, 40, 1, &bad), 0);
	assert_int_equal(sq_prod(), 2);
	assert_int_equal(sq_slot(1)->wr.wr_id, 40);
	/* Send sequence numbers count only the WQEs that stayed. */
	assert_int_equal(sq_slot(1)->ssn, sq_slot(0)->ssn + 1);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

static void wr_complete_below_rts(void **state)
{
	struct base *b = *state;
	struct ibv_qp *qp = rc_qp(b, true);

	assert_int_equal(post_ex(qp, 1), EINVAL);
	move(qp, IBV_QPS_INIT);
	assert_int_equal(post_ex(qp, 2), EINVAL);
	assert_int_equal(sq_prod(), 0);
	move(qp, IBV_QPS_RTR);
	move(qp, IBV_QPS_RTS);
	assert_int_equal(post_ex(qp, 3), 0);
	assert_int_equal(sq_prod(), 1);
	assert_int_equal(sq_slot(0)->wr.wr_id, 3);
	t_rxe_set_qp_state(qp->handle, IBV_QPS_RTR);
	assert_int_equal(post_ex(qp, 4), EINVAL);
	assert_int_equal(sq_prod(), 1);
	t_rxe_set_qp_state(qp->handle, IBV_QPS_RTS);
	assert_int_equal(post_ex(qp, 5), 0);
	assert_int_equal(sq_slot(1)->wr.wr_id, 5);
	assert_int_equal(sq_slot(1)->ssn, sq_slot(0)->ssn + 1);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * IBV_QP_INIT_ATTR_CREATE_FLAGS with no flag asks for nothing: Debian's
 * librxe 44 creates the QP, so must ours.
 */
static void create_flags_none(void **state)
{
	struct base *b = *state;
	struct ibv_qp_init_attr_ex a = {
		.send_cq = b->cq,
		.recv_cq = b->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = b->pd,
	};
	struct ibv_qp *qp = ibv_create_qp_ex(b->ctx, &a);

	assert_non_null(qp);
	assert_int_equal(ibv_destroy_qp(qp), 0);
	a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	a.send_ops_flags = IBV_QP_EX_WITH_SEND;
	qp = ibv_create_qp_ex(b->ctx, &a);
	assert_non_null(qp);
	assert_non_null(ibv_qp_to_qp_ex(qp)->wr_send);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * rdma_rxe's RESIZE_CQ moves the completions into a new queue and writes
 * only that one from then on. A resize whose new queue cannot be mapped
 * must not leave the CQ polling the old one (empty for ever, or handing
 * out completions the kernel moved): polls fail until a resize maps a
 * queue, and the CQ can still be destroyed, its mappings given back.
 */
static void resize_cq_unmapped(void **state)
{
	struct base *b = *state;
	struct ibv_cq *cq = ibv_create_cq(b->ctx, 10, NULL, NULL, 0);
	unsigned int maps = t_uv_live_maps();
	struct ibv_wc wc[4];

	assert_non_null(cq);
	t_rxe_complete(1);
	t_rxe_complete(2);
	assert_int_equal(ibv_resize_cq(cq, 40), 0);
	assert_int_equal(t_uv_live_maps(), maps);
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 2);
	assert_int_equal(wc[0].wr_id, 1);
	assert_int_equal(wc[1].wr_id, 2);
	t_rxe_complete(3);
	t_uv.mmap_err = ENOMEM;
	assert_int_equal(ibv_resize_cq(cq, 100), ENOMEM);
	assert_true(ibv_poll_cq(cq, 4, wc) < 0);
	assert_int_equal(t_uv_live_maps(), maps - 1);
	/* A resize that maps brings the completion back, moved. */
	assert_int_equal(ibv_resize_cq(cq, 60), 0);
	assert_int_equal(ibv_destroy_cq(cq), 0);
	assert_int_equal(t_uv_live_maps(), maps - 1);
}

/* The same for an SRQ grown by ibv_modify_srq(IBV_SRQ_MAX_WR). */
static void resize_srq_unmapped(void **state)
{
	struct base *b = *state;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct ibv_srq_attr grow = { .max_wr = 20 };
	static char buf[8];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x100 };
	struct ibv_recv_wr wr = { .wr_id = 5, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad = NULL;
	struct ibv_srq *srq = ibv_create_srq(b->pd, &sa);
	unsigned int maps = t_uv_live_maps();

	assert_non_null(srq);
	assert_int_equal(ibv_modify_srq(srq, &grow, IBV_SRQ_MAX_WR), 0);
	assert_non_null(t_rxe.srq);
	assert_int_equal(ibv_post_srq_recv(srq, &wr, &bad), 0);
	assert_int_equal(t_rxe.srq->producer_index, 1);
	t_uv.mmap_err = ENOMEM;
	grow.max_wr = 40;
	assert_int_equal(ibv_modify_srq(srq, &grow, IBV_SRQ_MAX_WR), ENOMEM);
	assert_int_equal(ibv_post_srq_recv(srq, &wr, &bad), EIO);
	assert_ptr_equal(bad, &wr);
	assert_int_equal(t_uv_live_maps(), maps - 1);
	assert_int_equal(ibv_destroy_srq(srq), 0);
	assert_int_equal(t_uv_live_maps(), maps - 1);
}

/* What the model of rdma_rxe's requester took last. */
static struct t_rxe_wire last_taken;
static unsigned int taken;

static void keep_taken(const struct t_rxe_wire *w, void *arg)
{
	(void)arg;
	last_taken = *w;
	taken++;
}

/* An RC or UC QP in RTS, with the model of its requester attached. */
static struct ibv_qp *qp_in_rts(struct base *b, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = b->cq,
		.recv_cq = b->cq,
		.qp_type = type,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 2,
			 .max_recv_sge = 1,
			 .max_inline_data = 32 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = b->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_READ |
				  IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD,
	};
	struct ibv_qp *qp;

	t_rxe.sq = NULL;
	qp = ibv_create_qp_ex(b->ctx, &a);
	assert_non_null(qp);
	t_rxe_req_attach(qp, t_rxe.sq);
	move(qp, IBV_QPS_INIT);
	move(qp, IBV_QPS_RTR);
	move(qp, IBV_QPS_RTS);
	t_rxe.on_take = keep_taken;
	taken = 0;
	return qp;
}

static void qp_done(struct ibv_qp *qp)
{
	t_rxe.on_take = NULL;
	t_rxe_req_detach(qp);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * rdma_rxe lands an atomic's original value in the WQE's gather list,
 * which shares the slot with inline data: IBV_SEND_INLINE on an atomic
 * must leave the list as the caller gave it, not overwrite it with the
 * bytes the list names (then read as an address and a key).
 */
static void atomic_inline_keeps_sink(void **state)
{
	struct base *b = *state;
	struct ibv_qp *qp = qp_in_rts(b, IBV_QPT_RC);
	static uint64_t orig = 0x1122334455667788ull;
	struct ibv_sge sge = { (uintptr_t)&orig, sizeof(orig), 0x77 };
	struct ibv_send_wr wr = {
		.wr_id = 9,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED,
		.wr.atomic = { .remote_addr = 0x8000,
			       .compare_add = 1,
			       .rkey = 0x99 },
	};
	struct ibv_send_wr *bad;

	assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
	assert_int_equal(taken, 1);
	assert_int_equal(last_taken.fate, T_RXE_SENT);
	assert_int_equal(last_taken.num_sge, 1);
	assert_int_equal(last_taken.sge[0].addr, (uintptr_t)&orig);
	assert_int_equal(last_taken.sge[0].length, sizeof(orig));
	assert_int_equal(last_taken.sge[0].lkey, 0x77);
	qp_done(qp);
}

/* The same through the builders: inline data is no READ's sink. */
static void read_inline_builder_refused(void **state)
{
	struct base *b = *state;
	struct ibv_qp *qp = qp_in_rts(b, IBV_QPT_RC);
	struct ibv_qp_ex *ex = ibv_qp_to_qp_ex(qp);
	static char data[8] = "abcdefg";

	ibv_wr_start(ex);
	ex->wr_id = 3;
	ex->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_read(ex, 0x99, 0x8000);
	ibv_wr_set_inline_data(ex, data, sizeof(data));
	assert_int_equal(ibv_wr_complete(ex), EINVAL);
	assert_int_equal(t_rxe_req_run(qp), 0);
	assert_int_equal(taken, 0);
	qp_done(qp);
}

/*
 * IBTA gives UC no packet that carries an invalidate, and rdma_rxe's
 * requester fails such a WQE (IBV_WC_LOC_QP_OP_ERR) and the QP with
 * it: a SEND_WITH_INV on UC is refused at the post.
 */
static void send_inv_on_uc_refused(void **state)
{
	struct base *b = *state;
	struct ibv_qp *qp = qp_in_rts(b, IBV_QPT_UC);
	static char buf[8];
	struct ibv_sge sge = { (uintptr_t)buf, sizeof(buf), 0x100 };
	struct ibv_send_wr wr = { .wr_id = 4,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND_WITH_INV,
				  .invalidate_rkey = 0x55 };
	struct ibv_send_wr *bad = NULL;

	assert_int_equal(ibv_post_send(qp, &wr, &bad), EINVAL);
	assert_ptr_equal(bad, &wr);
	assert_int_equal(taken, 0);
	assert_int_equal(t_rxe_qp_state(qp->handle), IBV_QPS_RTS);
	qp_done(qp);
}

/*
 * Lengths whose sum wraps 32 bits: inline, the copy would be 4 GiB into
 * a slot; gathered, the kernel would send a short message and complete
 * it successfully. Both are refused, nothing reaches the kernel.
 */
static void wrapping_lengths_refused(void **state)
{
	struct base *b = *state;
	struct ibv_qp *qp = qp_in_rts(b, IBV_QPT_RC);
	struct ibv_qp_ex *ex = ibv_qp_to_qp_ex(qp);
	static char buf[8];
	struct ibv_sge sge[2] = { { (uintptr_t)buf, 8, 0x100 },
				  { (uintptr_t)buf, 0xfffffff9u, 0x100 } };
	struct ibv_send_wr wr = { .wr_id = 5,
				  .sg_list = sge,
				  .num_sge = 2,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE };
	struct ibv_send_wr *bad = NULL;

	assert_int_equal(ibv_post_send(qp, &wr, &bad), EINVAL);
	assert_ptr_equal(bad, &wr);
	sge[0].length = sge[1].length = 0x80000000u;
	wr.send_flags = 0;
	assert_int_equal(ibv_post_send(qp, &wr, &bad), EINVAL);
	ibv_wr_start(ex);
	ex->wr_id = 6;
	ex->wr_flags = 0;
	ibv_wr_rdma_read(ex, 0x99, 0x8000);
	ibv_wr_set_sge_list(ex, 2, sge);
	assert_int_equal(ibv_wr_complete(ex), EINVAL);
	assert_int_equal(t_rxe_req_run(qp), 0);
	assert_int_equal(taken, 0);
	qp_done(qp);
}

/*
 * FLUSH and ATOMIC_WRITE: rdma_rxe has them since Linux 6.2 and says so
 * in its capabilities (IB_UVERBS_DEVICE_FLUSH_GLOBAL, _PERSISTENT,
 * _ATOMIC_WRITE: bits 38, 39, 40); 6.1 fails such a WQE at completion
 * time and the QP with it. A QP asks for them at creation, where the
 * kernel's answer decides.
 */
enum {
	KCAP_FLUSH_GLOBAL = 38,
	KCAP_ATOMIC_WRITE = 40,
};

static struct ibv_qp *qp_with_ops(struct base *b, uint64_t ops)
{
	return rc_qp_try(b, true, ops);
}

static void flush_atomic_write_need_kernel(void **state)
{
	struct base *b = *state;

	t_uv.device_cap_flags_ex = 0;
	assert_null(qp_with_ops(b, IBV_QP_EX_WITH_FLUSH));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_null(qp_with_ops(b, IBV_QP_EX_WITH_ATOMIC_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	/* Each needs its own bit. */
	t_uv.device_cap_flags_ex = 1ULL << KCAP_ATOMIC_WRITE;
	assert_null(qp_with_ops(b, IBV_QP_EX_WITH_FLUSH |
					   IBV_QP_EX_WITH_ATOMIC_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	t_uv.device_cap_flags_ex = 1ULL << KCAP_FLUSH_GLOBAL;
	assert_null(qp_with_ops(b, IBV_QP_EX_WITH_FLUSH |
					   IBV_QP_EX_WITH_ATOMIC_WRITE));
	assert_int_equal(errno, EOPNOTSUPP);
	t_uv.device_cap_flags_ex = 0;
}

/* Bytes at @off of a slot's send WR union (rdma_rxe's wr.flush). */
static uint64_t wr_bytes(const struct rxe_send_wqe *wqe, size_t off, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, (const char *)&wqe->wr.wr + off, n);
	return v;
}

/*
 * Where rdma_rxe 6.2 reads each: ATOMIC_WRITE's target in wr.rdma and
 * iova, its 8 bytes where inline data goes (dma.atomic_wr), dma length
 * 8; FLUSH's target, length, rkey (behind the length), placement and
 * selectivity in wr.flush, the length also in dma.length and resid,
 * which the kernel puts in the request.
 */
static void flush_atomic_write_in_wqe(void **state)
{
	struct base *b = *state;
	static const uint64_t value = 0x0102030405060708ull;
	const struct rxe_send_wqe *w;
	struct ibv_send_wr wr = { .wr_id = 7, .opcode = IBV_WR_FLUSH };
	struct ibv_send_wr *bad = NULL;
	struct ibv_qp_ex *ex;
	struct ibv_qp *qp;
	uint32_t first;

	t_uv.device_cap_flags_ex = 1ULL << KCAP_FLUSH_GLOBAL |
				   1ULL << KCAP_ATOMIC_WRITE;
	qp = qp_with_ops(b, IBV_QP_EX_WITH_FLUSH | IBV_QP_EX_WITH_ATOMIC_WRITE);
	assert_non_null(qp);
	ex = ibv_qp_to_qp_ex(qp);
	assert_non_null(ex);
	assert_non_null(ex->wr_flush);
	move(qp, IBV_QPS_INIT);
	move(qp, IBV_QPS_RTR);
	move(qp, IBV_QPS_RTS);
	first = sq_prod();
	ibv_wr_start(ex);
	ex->wr_id = 1;
	ex->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(ex, 0x55, 0x9000, &value);
	ex->wr_id = 2;
	ibv_wr_flush(ex, 0x66, 0xa000, 4096, IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE);
	assert_int_equal(ibv_wr_complete(ex), 0);
	assert_int_equal(sq_prod() - first, 2);

	w = sq_slot(first);
	assert_int_equal(w->wr.wr_id, 1);
	assert_int_equal(w->wr.opcode, IBV_WR_ATOMIC_WRITE);
	assert_int_equal(w->wr.send_flags, IBV_SEND_SIGNALED);
	assert_int_equal(w->wr.wr.rdma.remote_addr, 0x9000);
	assert_int_equal(w->wr.wr.rdma.rkey, 0x55);
	assert_int_equal(w->iova, 0x9000);
	assert_int_equal(w->dma.length, 8);
	assert_int_equal(w->dma.resid, 8);
	assert_int_equal(w->dma.num_sge, 0);
	assert_memory_equal(w->dma.inline_data, &value, 8);

	w = sq_slot(first + 1);
	assert_int_equal(w->wr.wr_id, 2);
	assert_int_equal(w->wr.opcode, IBV_WR_FLUSH);
	assert_int_equal(wr_bytes(w, 0, 8), 0xa000);
	assert_int_equal(wr_bytes(w, 8, 4), 4096);
	assert_int_equal(wr_bytes(w, 12, 4), 0x66);
	assert_int_equal(wr_bytes(w, 16, 1), IBV_FLUSH_GLOBAL);
	assert_int_equal(wr_bytes(w, 17, 1), IBV_FLUSH_RANGE);
	assert_int_equal(w->iova, 0xa000);
	assert_int_equal(w->dma.length, 4096);
	assert_int_equal(w->dma.resid, 4096);

	/* struct ibv_send_wr has no place for a FLUSH's arguments. */
	assert_int_equal(ibv_post_send(qp, &wr, &bad), EINVAL);
	assert_ptr_equal(bad, &wr);
	assert_int_equal(sq_prod() - first, 2);
	assert_int_equal(ibv_destroy_qp(qp), 0);
	t_uv.device_cap_flags_ex = 0;
}

/* A QP not created for them refuses them, as any opcode it lacks. */
static void flush_atomic_write_not_granted(void **state)
{
	struct base *b = *state;
	static const uint64_t value = 1;
	struct ibv_qp *qp = qp_in_rts(b, IBV_QPT_RC);
	struct ibv_qp_ex *ex = ibv_qp_to_qp_ex(qp);

	ibv_wr_start(ex);
	ex->wr_id = 1;
	ex->wr_flags = 0;
	ibv_wr_atomic_write(ex, 0x55, 0x9000, &value);
	assert_int_equal(ibv_wr_complete(ex), EINVAL);
	ibv_wr_start(ex);
	ibv_wr_flush(ex, 0x66, 0xa000, 64, IBV_FLUSH_GLOBAL, IBV_FLUSH_MR);
	assert_int_equal(ibv_wr_complete(ex), EINVAL);
	assert_int_equal(t_rxe_req_run(qp), 0);
	assert_int_equal(taken, 0);
	qp_done(qp);
}

/* The port's speed: ours asks the kernel, which rdma_rxe 7.2 refuses. */
static void port_speed(void **state)
{
	struct base *b = *state;

	t_port_speed_cases(b->ctx, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sends_below_rts, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(wr_complete_below_rts, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(create_flags_none, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(resize_cq_unmapped, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(atomic_inline_keeps_sink,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(read_inline_builder_refused,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(send_inv_on_uc_refused, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(wrapping_lengths_refused,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(resize_srq_unmapped, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(flush_atomic_write_need_kernel,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(flush_atomic_write_in_wqe,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(flush_atomic_write_not_granted,
						base_up, base_down),
		cmocka_unit_test_setup_teardown(port_speed, base_up, base_down),
	};

	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return 1;
	return t_rxe_run(tests, sizeof(tests) / sizeof(tests[0]));
}
