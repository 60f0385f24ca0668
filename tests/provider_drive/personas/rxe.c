// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of librxe, Soft-RoCE, the kernel's software RoCE.
 *
 * rxe's kernel driver shares every queue (CQ, SQ, RQ, SRQ) with the
 * provider: it answers each create with where to mmap the queue on the
 * command file (<rdma/rdma_user_rxe.h> struct mminfo), offsets handed
 * out upwards from one page, each queue a header (struct rxe_queue_buf)
 * and its slots; the provider refuses a CQ whose header gives slots
 * smaller than a completion. Beyond the generic steps, the persona
 * takes the QP's data path (whose send doorbell is a write() of its
 * own) and every other verb of rxe's that is a core command.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <rdma/rdma_user_rxe.h>

#include "soft_roce_dp.h"
#include "t_drive.h"

/*
 * The queues handed out, for their headers when the provider maps them;
 * room for every queue of a drive (the oldest are reused past it).
 */
#define NQUEUES 64
static struct queue {
	uint64_t offset;
	uint32_t slots, log2_elem;
	bool cq;
	bool carry; /* takes the entries the resized SRQ had pending */
	char kind; /* 'c'q, 'r'ecv, 's'end, shared recv 'q' */
	struct rxe_queue_buf *buf; /* where the provider mapped it */
} queues[NQUEUES];
static unsigned int nqueues;

/*
 * The receives pending in an SRQ when it was resized, which rdma_rxe
 * copies into the new queue (rxe_queue_resize()): the new queue starts
 * with them at index 0.
 */
static uint8_t carried[64 * 128];
static uint32_t ncarried, carried_log2;

/* The kernel's next mmap offset: it starts one page up. */
static uint64_t next_offset = 4096;

/* A queue of @slots entries of at least @elem bytes, at a fresh offset. */
static struct mminfo queue_at(uint32_t slots, size_t elem, char kind)
{
	struct queue *q = &queues[nqueues++ % NQUEUES];
	struct mminfo mi = { 0 };

	q->kind = kind;
	q->slots = slots;
	for (q->log2_elem = 0; (1ul << q->log2_elem) < elem; q->log2_elem++)
		;
	mi.size = sizeof(struct rxe_queue_buf) + (slots << q->log2_elem);
	mi.offset = q->offset = t_next_key(&next_offset, mi.size);
	return mi;
}

/* The header the kernel keeps at the base of a shared queue. */
static void rxe_mmap(uint64_t offset, void *addr, size_t len)
{
	struct rxe_queue_buf *buf = addr;

	for (unsigned int i = 0; i < nqueues && i < NQUEUES; i++)
		if (queues[i].offset == offset && len >= sizeof(*buf)) {
			buf->log2_elem_size = queues[i].log2_elem;
			buf->index_mask = queues[i].slots - 1;
			queues[i].buf = buf;
			if (queues[i].carry) {
				memcpy(buf->data, carried,
				       (size_t)ncarried << carried_log2);
				buf->producer_index = ncarried;
				queues[i].carry = false;
			}
			/*
			 * A CQ starts three slots before the end of its ring, as
			 * one the kernel resized may: the completions the drive
			 * writes wrap around it.
			 */
			if (queues[i].cq)
				buf->producer_index = buf->consumer_index =
					queues[i].slots - 3;
		}
}

/* Work requests with room for the drive's two scatter entries. */
#define RECV_WQE (sizeof(struct rxe_recv_wqe) + 2 * sizeof(struct rxe_sge))
#define SEND_WQE (sizeof(struct rxe_send_wqe) + 2 * sizeof(struct rxe_sge))

/* The kernel remaps an SRQ it resized: where to, at the provider's address. */
static int modify_srq(struct t_uv_cmd *cmd)
{
	struct rxe_queue_buf *old = sr_last_queue_of('q');
	struct rxe_modify_srq_cmd req;
	struct mminfo mi;

	ncarried = 0;
	if (old) {
		carried_log2 = old->log2_elem_size;
		for (uint32_t i = old->consumer_index; i != old->producer_index;
		     i = (i + 1) & old->index_mask)
			if (((size_t)(ncarried + 1) << carried_log2) <=
			    sizeof(carried))
				memcpy(carried + ((size_t)ncarried++
						  << carried_log2),
				       old->data + ((size_t)i << carried_log2),
				       (size_t)1 << carried_log2);
	}
	mi = queue_at(64, RECV_WQE, 'q');
	queues[(nqueues - 1) % NQUEUES].carry = ncarried > 0;

	if (cmd->drv_in_len < sizeof(req))
		return 0;
	memcpy(&req, cmd->drv_in, sizeof(req));
	memcpy((void *)(uintptr_t)req.mmap_info_addr, &mi, sizeof(mi));
	return 0;
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct rxe_create_cq_resp r = {
		.mi = queue_at(64, sizeof(struct ib_uverbs_wc), 'c')
	};

	queues[(nqueues - 1) % NQUEUES].cq = true;
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct rxe_create_qp_resp r = {
		.rq_mi = queue_at(32, RECV_WQE, 'r'),
		.sq_mi = queue_at(32, SEND_WQE, 's'),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct rxe_create_srq_resp r = {
		.mi = queue_at(64, RECV_WQE, 'q'),
		.srq_num = 0x11,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int resize_cq(struct t_uv_cmd *cmd)
{
	struct rxe_resize_cq_resp r = {
		.mi = queue_at(128, sizeof(struct ib_uverbs_wc), 'c'),
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

uint32_t sr_ah_num = 1;

static int create_ah(struct t_uv_cmd *cmd)
{
	struct rxe_create_ah_resp r = { .ah_num = sr_ah_num };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The first queue of @kind the provider mapped. */
struct rxe_queue_buf *sr_queue_of(char kind)
{
	for (unsigned int i = 0; i < nqueues && i < NQUEUES; i++)
		if (queues[i].kind == kind)
			return queues[i].buf;
	return NULL;
}

/* The last queue of @kind the provider mapped. */
struct rxe_queue_buf *sr_last_queue_of(char kind)
{
	struct rxe_queue_buf *buf = NULL;

	for (unsigned int i = 0; i < nqueues && i < NQUEUES; i++)
		if (queues[i].kind == kind)
			buf = queues[i].buf;
	return buf;
}

/*
 * The QP's queues, through the provider's own data path, and the verbs
 * beyond the generic steps that go through the core's commands.
 */
static void rxe_dv(const struct t_objs *o)
{
	union ibv_gid mgid = { .raw = { 0xff, 0x0e } };
	struct ibv_mw *mw;

	sr_cq_fill_and_poll(o->cq);
	if (o->ctx)
		sr_cq_ex_poll(o->ctx);
	if (!o->qp)
		return;
	t_post_send_recv(o->qp);
	sr_wqe_dump(o->qp);
	t_poll(o->cq);
	t_query_qp(o->qp);
	t_uv_note("req_notify_cq ret=%d", ibv_req_notify_cq(o->cq, 0));
	t_uv_note("resize_cq ret=%d", ibv_resize_cq(o->cq, 100));
	mw = ibv_alloc_mw(o->pd, IBV_MW_TYPE_2);
	t_uv_note("alloc_mw %s", mw ? "ok" : "failed");
	if (mw)
		t_uv_note("dealloc_mw ret=%d", ibv_dealloc_mw(mw));
	t_uv_note("attach_mcast ret=%d", ibv_attach_mcast(o->qp, &mgid, 0));
	t_uv_note("detach_mcast ret=%d", ibv_detach_mcast(o->qp, &mgid, 0));
	t_grow_srq(o->pd);
}

const struct t_persona t_persona_rxe = {
	.name = "rxe",
	.ibdev = "rxe0",
	.driver_id = RDMA_DRIVER_RXE,
	.abi = 2,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_ALL & ~T_STEP_UD,
	.answers = {
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
		[T_V_RESIZE_CQ] = resize_cq,
		[T_V_CREATE_AH] = create_ah,
		[T_V_MODIFY_SRQ] = modify_srq,
	},
	.driver.mmap = rxe_mmap,
	.dv = rxe_dv,
};