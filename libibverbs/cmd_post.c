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

_Static_assert(sizeof(struct ibv_sge) == sizeof(struct ib_uverbs_sge),
	       "sge layout");

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

static bool send_size(struct ibv_send_wr *wr, struct post_size *s)
{
	*s = (struct post_size){ .len = sizeof(struct ibv_post_send) };
	for (; wr; wr = wr->next)
		if (!add_wr(s, sizeof(struct ib_uverbs_send_wr), wr->num_sge))
			return false;
	return true;
}

static bool recv_size(struct ibv_recv_wr *wr, size_t core, struct post_size *s)
{
	*s = (struct post_size){ .len = core };
	for (; wr; wr = wr->next)
		if (!add_wr(s, sizeof(struct ib_uverbs_recv_wr), wr->num_sge))
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

/* Work requests at @k, their scatter lists after the last of them. */
static void marshal_send(void *k_wrs, uint32_t nwr, struct ibv_send_wr *wr,
			 enum ibv_qp_type type)
{
	struct ib_uverbs_send_wr *k = k_wrs;
	struct ib_uverbs_sge *sge = (struct ib_uverbs_sge *)(k + nwr);

	for (; wr; wr = wr->next, k++) {
		k->wr_id = wr->wr_id;
		k->num_sge = wr->num_sge;
		k->opcode = wr->opcode;
		k->send_flags = wr->send_flags;
		/* imm_data and invalidate_rkey share these bytes. */
		k->ex.imm_data = wr->imm_data;
		send_remote(k, wr, type);
		memcpy(sge, wr->sg_list, (size_t)wr->num_sge * sizeof(*sge));
		sge += wr->num_sge;
	}
}

static void marshal_recv(void *k_wrs, uint32_t nwr, struct ibv_recv_wr *wr)
{
	struct ib_uverbs_recv_wr *k = k_wrs;
	struct ib_uverbs_sge *sge = (struct ib_uverbs_sge *)(k + nwr);

	for (; wr; wr = wr->next, k++) {
		k->wr_id = wr->wr_id;
		k->num_sge = wr->num_sge;
		memcpy(sge, wr->sg_list, (size_t)wr->num_sge * sizeof(*sge));
		sge += wr->num_sge;
	}
}

/*
 * Sends the request in @req (header room first) and points *@bad at the
 * request the kernel refused; at the head of the chain when it failed
 * without naming one.
 */
static int post(struct ibv_context *ctx, uint32_t command, void *req,
		size_t len, void *head, void **bad, size_t next_off)
{
	struct ib_uverbs_post_send_resp resp = { 0 };
	struct kcmd_write_args w = {
		.command = command,
		.req = req,
		.req_core = len,
		.req_len = len,
		KCMD_RESP(&resp, sizeof(resp)),
	};
	/* The three requests begin alike: header, then response pointer. */
	struct ibv_post_send *hdr = req;
	void *wr = head;
	int ret;

	hdr->response = (uintptr_t)&resp;
	ret = kcmd_write(ctx, &w);
	if (resp.bad_wr) {
		for (uint32_t i = 1; i < resp.bad_wr && wr; i++)
			wr = *(void **)((char *)wr + next_off);
		*bad = wr;
	} else if (ret) {
		*bad = head;
	}
	return ret;
}

/**
 * ibv_cmd_post_send - post a chain of send requests through the kernel
 * @ibqp: the QP; its type decides how the remote half is read
 * @wr: the chain
 * @bad_wr: set to the first request not posted, on failure
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
				 struct ibv_send_wr **bad_wr)
{
	struct post_size s;

	if (!send_size(wr, &s)) {
		*bad_wr = wr;
		return EINVAL;
	}
	{
		uint64_t buf[(s.len + 7) / 8];
		struct ibv_post_send *req = (struct ibv_post_send *)buf;

		memset(buf, 0, sizeof(buf));
		req->qp_handle = ibqp->handle;
		req->wr_count = s.wrs;
		req->sge_count = s.sges;
		req->wqe_size = sizeof(struct ib_uverbs_send_wr);
		marshal_send(req + 1, s.wrs, wr, ibqp->qp_type);
		return post(ibqp->context, IB_USER_VERBS_CMD_POST_SEND, req,
			    s.len, wr, (void **)bad_wr,
			    offsetof(struct ibv_send_wr, next));
	}
}

/**
 * ibv_cmd_post_recv - post a chain of receive requests through the kernel
 *
 * As ibv_cmd_post_send(), for the receive queue of @ibqp.
 */
IBV_EXPORT int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
				 struct ibv_recv_wr **bad_wr)
{
	struct post_size s;

	if (!recv_size(wr, sizeof(struct ibv_post_recv), &s)) {
		*bad_wr = wr;
		return EINVAL;
	}
	{
		uint64_t buf[(s.len + 7) / 8];
		struct ibv_post_recv *req = (struct ibv_post_recv *)buf;

		memset(buf, 0, sizeof(buf));
		req->qp_handle = ibqp->handle;
		req->wr_count = s.wrs;
		req->sge_count = s.sges;
		req->wqe_size = sizeof(struct ib_uverbs_recv_wr);
		marshal_recv(req + 1, s.wrs, wr);
		return post(ibqp->context, IB_USER_VERBS_CMD_POST_RECV, req,
			    s.len, wr, (void **)bad_wr,
			    offsetof(struct ibv_recv_wr, next));
	}
}

/**
 * ibv_cmd_post_srq_recv - post a chain of receive requests to an SRQ
 *
 * As ibv_cmd_post_recv(), for @srq.
 */
IBV_EXPORT int ibv_cmd_post_srq_recv(struct ibv_srq *srq,
				     struct ibv_recv_wr *wr,
				     struct ibv_recv_wr **bad_wr)
{
	struct post_size s;

	if (!recv_size(wr, sizeof(struct ibv_post_srq_recv), &s)) {
		*bad_wr = wr;
		return EINVAL;
	}
	{
		uint64_t buf[(s.len + 7) / 8];
		struct ibv_post_srq_recv *req = (struct ibv_post_srq_recv *)buf;

		memset(buf, 0, sizeof(buf));
		req->srq_handle = srq->handle;
		req->wr_count = s.wrs;
		req->sge_count = s.sges;
		req->wqe_size = sizeof(struct ib_uverbs_recv_wr);
		marshal_recv(req + 1, s.wrs, wr);
		return post(srq->context, IB_USER_VERBS_CMD_POST_SRQ_RECV, req,
			    s.len, wr, (void **)bad_wr,
			    offsetof(struct ibv_recv_wr, next));
	}
}
