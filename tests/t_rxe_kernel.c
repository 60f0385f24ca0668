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
	char drivers[4096];
	char *root = t_fake_kernel(false);
	int ret = 0;

	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	free(root); /* SYSFS_PATH holds its own copy */
	/* Our plugin only, by path, whichever core loads it. */
	snprintf(drivers, sizeof(drivers), "%s/lib/librxe", t_build_dir());
	setenv("RDMAV_DRIVERS", drivers, 1);
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++) {
		reset(t_diffrun_kernels[k]);
		ret |= _cmocka_run_group_tests(
			t_uv_kernel_name(t_diffrun_kernels[k]), tests, n, NULL,
			NULL);
	}
	return ret;
}
