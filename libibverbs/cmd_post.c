// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Posting work requests through the kernel (POST_SEND, POST_RECV,
 * POST_SRQ_RECV): the path of providers whose queues the kernel owns,
 * such as software devices. Write-only commands in rdma-core 44.
 *
 * The request is variable-length: the core header, then one fixed-size
 * kernel work request per element of the chain, then every scatter entry
 * of the chain in order. It is built on the stack: the write() header
 * counts the whole request in 16 bits of 4-byte words, which bounds it
 * (256 KiB); a longer chain, or a negative num_sge, fails with EINVAL
 * before anything is copied or sent. (rdma-core 44 adds the counts in
 * 32 bits: a chain whose sum wraps passes its size check and overruns
 * the stack.)
 *
 * The kernel answers with the 1-based index of the first request it did
 * not take, which becomes the caller's *bad_wr.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

_Static_assert(sizeof(struct ibv_sge) == sizeof(struct ib_uverbs_sge),
	       "sge layout");

/*
 * The three requests are laid out alike: header, response pointer, the
 * QP's or SRQ's handle, the counts, then the kernel's work requests.
 * One struct stands for all three.
 */
#define SAME_REQ(a, fa)                                                      \
	_Static_assert(                                                      \
		sizeof(struct a) == sizeof(struct ibv_post_send) &&          \
			offsetof(struct a, fa) ==                            \
				offsetof(struct ibv_post_send, qp_handle) && \
			offsetof(struct a, wqe_size) ==                      \
				offsetof(struct ibv_post_send, wqe_size),    \
		#a " is laid out like ibv_post_send")
SAME_REQ(ibv_post_recv, qp_handle);
SAME_REQ(ibv_post_srq_recv, srq_handle);

/*
 * Send and receive requests begin alike too (wr_id, next, sg_list,
 * num_sge), so one walk serves both chains; a field is read where it
 * lies in either.
 */
#define SAME_HEAD(f)                                            \
	_Static_assert(offsetof(struct ibv_send_wr, f) ==       \
			       offsetof(struct ibv_recv_wr, f), \
		       "work requests begin alike")
SAME_HEAD(next);
SAME_HEAD(sg_list);
SAME_HEAD(num_sge);

#define WR_FIELD(wr, f, val)                                                 \
	memcpy(&(val), (const char *)(wr) + offsetof(struct ibv_recv_wr, f), \
	       sizeof(val))

static void *wr_next(const void *wr)
{
	void *next;

	WR_FIELD(wr, next, next);
	return next;
}

static int wr_num_sge(const void *wr)
{
	int n;

	WR_FIELD(wr, num_sge, n);
	return n;
}

static const struct ibv_sge *wr_sg_list(const void *wr)
{
	const struct ibv_sge *sg;

	WR_FIELD(wr, sg_list, sg);
	return sg;
}

/* What tells the three posts apart. */
struct post_kind {
	uint32_t command;
	uint32_t wqe_size; /* the kernel's work request */
	/* One element of the chain into the kernel's work request @k. */
	void (*marshal)(void *k, const void *wr, enum ibv_qp_type type);
};

/* Counts of a chain, and the bytes of its request. */
struct post_size {
	uint32_t wrs, sges;
	size_t len;
};

/*
 * Adds one request of @wr_size bytes and @num_sge scatter entries to @s;
 * false once the request could not be sent. The sum is taken in size_t
 * and checked at every step, so no count, however large or negative,
 * wraps it, and a chain that loops back on itself ends here too.
 */
static bool add_wr(struct post_size *s, size_t wr_size, int num_sge)
{
	if (num_sge < 0 || (size_t)num_sge > KCMD_BASIC_MAX)
		return false;
	s->len += wr_size + (size_t)num_sge * sizeof(struct ib_uverbs_sge);
	if (s->len > KCMD_BASIC_MAX)
		return false;
	s->wrs++;
	s->sges += num_sge;
	return true;
}

static bool chain_size(const struct post_kind *kind, const void *wr,
		       struct post_size *s)
{
	*s = (struct post_size){ .len = sizeof(struct ibv_post_send) };
	for (; wr; wr = wr_next(wr))
		if (!add_wr(s, kind->wqe_size, wr_num_sge(wr)))
			return false;
	return true;
}

/* The remote half of one send request; UD QPs name an AH instead. */
static void send_remote(struct ib_uverbs_send_wr *k,
			const struct ibv_send_wr *wr, enum ibv_qp_type type)
{
	if (type == IBV_QPT_UD) {
		k->wr.ud.ah = wr->wr.ud.ah->handle;
		k->wr.ud.remote_qpn = wr->wr.ud.remote_qpn;
		k->wr.ud.remote_qkey = wr->wr.ud.remote_qkey;
		return;
	}
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		k->wr.rdma.remote_addr = wr->wr.rdma.remote_addr;
		k->wr.rdma.rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		k->wr.atomic.remote_addr = wr->wr.atomic.remote_addr;
		k->wr.atomic.compare_add = wr->wr.atomic.compare_add;
		k->wr.atomic.swap = wr->wr.atomic.swap;
		k->wr.atomic.rkey = wr->wr.atomic.rkey;
		break;
	default:
		break;
	}
}

static void marshal_send(void *k_wr, const void *chain_wr,
			 enum ibv_qp_type type)
{
	struct ib_uverbs_send_wr *k = k_wr;
	const struct ibv_send_wr *wr = chain_wr;

	k->wr_id = wr->wr_id;
	k->num_sge = wr->num_sge;
	k->opcode = wr->opcode;
	k->send_flags = wr->send_flags;
	/* imm_data and invalidate_rkey share these bytes. */
	k->ex.imm_data = wr->imm_data;
	send_remote(k, wr, type);
}

static void marshal_recv(void *k_wr, const void *chain_wr,
			 enum ibv_qp_type type)
{
	struct ib_uverbs_recv_wr *k = k_wr;
	const struct ibv_recv_wr *wr = chain_wr;

	(void)type;
	k->wr_id = wr->wr_id;
	k->num_sge = wr->num_sge;
}

static const struct post_kind post_send_kind = {
	.command = IB_USER_VERBS_CMD_POST_SEND,
	.wqe_size = sizeof(struct ib_uverbs_send_wr),
	.marshal = marshal_send,
};
static const struct post_kind post_recv_kind = {
	.command = IB_USER_VERBS_CMD_POST_RECV,
	.wqe_size = sizeof(struct ib_uverbs_recv_wr),
	.marshal = marshal_recv,
};
static const struct post_kind post_srq_recv_kind = {
	.command = IB_USER_VERBS_CMD_POST_SRQ_RECV,
	.wqe_size = sizeof(struct ib_uverbs_recv_wr),
	.marshal = marshal_recv,
};

/* The chain's work requests at @k, their scatter lists after the last. */
static void marshal_chain(const struct post_kind *kind, void *k, uint32_t nwr,
			  const void *wr, enum ibv_qp_type type)
{
	struct ib_uverbs_sge *sge =
		(void *)((char *)k + (size_t)nwr * kind->wqe_size);
	int n;

	for (; wr; wr = wr_next(wr), k = (char *)k + kind->wqe_size) {
		kind->marshal(k, wr, type);
		n = wr_num_sge(wr);
		memcpy(sge, wr_sg_list(wr), (size_t)n * sizeof(*sge));
		sge += n;
	}
}

/*
 * Sends the request in @req (header room first) and points *@bad at the
 * request the kernel refused; at the head of the chain when it failed
 * without naming one.
 */
static int send_post(struct ibv_context *ctx, uint32_t command,
		     struct ibv_post_send *req, size_t len, void *head,
		     void **bad)
{
	struct ib_uverbs_post_send_resp resp = { 0 };
	struct kcmd_write_args w = {
		.command = command,
		.req = req,
		.req_core = len,
		.req_len = len,
		KCMD_RESP(&resp, sizeof(resp)),
	};
	void *wr = head;
	int ret;

	req->response = ioctl_ptr_to_u64(&resp);
	ret = kcmd_write(ctx, &w);
	if (resp.bad_wr) {
		for (uint32_t i = 1; i < resp.bad_wr && wr; i++)
			wr = wr_next(wr);
		*bad = wr;
	} else if (ret) {
		*bad = head;
	}
	return ret;
}

/* The one body of the three posts: build the request on the stack, send. */
static int post(struct ibv_context *ctx, const struct post_kind *kind,
		uint32_t handle, enum ibv_qp_type type, void *head, void **bad)
{
	struct post_size s;

	if (!chain_size(kind, head, &s)) {
		*bad = head;
		return with_errno(EINVAL);
	}
	{
		uint64_t buf[(s.len + 7) / 8];
		struct ibv_post_send *req = (struct ibv_post_send *)buf;

		memset(buf, 0, sizeof(buf));
		req->qp_handle = handle;
		req->wr_count = s.wrs;
		req->sge_count = s.sges;
		req->wqe_size = kind->wqe_size;
		marshal_chain(kind, req + 1, s.wrs, head, type);
		return send_post(ctx, kind->command, req, s.len, head, bad);
	}
}

/**
 * ibv_cmd_post_send - post a chain of send requests through the kernel
 * @ibqp: the QP; its type decides how the remote half is read
 * @wr: the chain
 * @bad_wr: set to the first request not posted, on failure
 *
 * A post of no work request (@wr NULL) is a provider's doorbell, saying
 * that the queue it shares with the kernel has new entries (rxe, siw):
 * once per post call on the data path, so it takes the cheapest route
 * there is, kcmd_doorbell(), before post() sets up its frame; posts of
 * work requests take the route rdma-core 44's do. Debian's providers
 * write() their doorbells too.
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
				 struct ibv_send_wr **bad_wr)
{
	if (!wr)
		return kcmd_doorbell(ibqp->context, post_send_kind.command,
				     ibqp->handle, post_send_kind.wqe_size,
				     (void **)bad_wr);
	return post(ibqp->context, &post_send_kind, ibqp->handle, ibqp->qp_type,
		    wr, (void **)bad_wr);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_post_send);

/**
 * ibv_cmd_post_recv - post a chain of receive requests through the kernel
 *
 * As ibv_cmd_post_send(), for the receive queue of @ibqp.
 */
IBV_EXPORT int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
				 struct ibv_recv_wr **bad_wr)
{
	if (!wr)
		return kcmd_doorbell(ibqp->context, post_recv_kind.command,
				     ibqp->handle, post_recv_kind.wqe_size,
				     (void **)bad_wr);
	return post(ibqp->context, &post_recv_kind, ibqp->handle, ibqp->qp_type,
		    wr, (void **)bad_wr);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_post_recv);

/**
 * ibv_cmd_post_srq_recv - post a chain of receive requests to an SRQ
 *
 * As ibv_cmd_post_recv(), for @srq.
 */
IBV_EXPORT int ibv_cmd_post_srq_recv(struct ibv_srq *srq,
				     struct ibv_recv_wr *wr,
				     struct ibv_recv_wr **bad_wr)
{
	if (!wr)
		return kcmd_doorbell(srq->context, post_srq_recv_kind.command,
				     srq->handle, post_srq_recv_kind.wqe_size,
				     (void **)bad_wr);
	/* An SRQ has no QP type, and receive requests need none. */
	return post(srq->context, &post_srq_recv_kind, srq->handle, 0, wr,
		    (void **)bad_wr);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_post_srq_recv);
