// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's completion queues. The kernel allocates the ring and hands back
 * its depth (a power of two at least the size asked) and a key, the
 * offset on cmd_fd to mmap() it at (struct siw_uresp_create_cq). The
 * mapping holds num_cqe struct siw_cqe and, right after the last one,
 * the struct siw_cq_ctrl whose flags word arms the CQ.
 *
 * The ring is a single-producer (the kernel, under its CQ lock) and
 * single-consumer (us, under cq->lock) queue with no indices shared:
 * the owner of an entry is told by its flags byte alone. The kernel
 * fills an entry only while its flags read zero, fills the other fields
 * and then sets SIW_WQE_VALID; we read the fields after seeing
 * SIW_WQE_VALID and then give the entry back by writing zero. A full
 * ring makes the kernel drop the completion and raise a CQ error event.
 *
 * Polling and arming need no command: a CQ is armed by writing the
 * SIW_NOTIFY_* flags into the control word, which the kernel reads (and
 * clears) when it places a completion.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "siw.h"
#include "siw_abi.h"

/* The ring's mapping: the entries, then the control word. */
static size_t siw_cq_map_len(uint32_t num_cqe)
{
	return (size_t)num_cqe * sizeof(struct siw_cqe) +
	       sizeof(struct siw_cq_ctrl);
}

struct ibv_cq *siw_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct ibv_create_cq cmd = {};
	struct siw_resp_create_cq resp = {};
	struct siw_cq *cq;
	void *map;
	int ret;

	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	if (ibv_cmd_create_cq(ctx, cqe, channel, comp_vector, &cq->vcq.cq, &cmd,
			      sizeof(cmd), &resp.ibv_resp, sizeof(resp)))
		goto err_free;

	/* A depth that is not a power of two would break the index mask. */
	if (!resp.drv.num_cqe || (resp.drv.num_cqe & (resp.drv.num_cqe - 1)) ||
	    resp.drv.cq_key == SIW_INVAL_UOBJ_KEY) {
		errno = EPROTO;
		goto err_destroy;
	}
	cq->num_cqe = resp.drv.num_cqe;
	cq->cq_id = resp.drv.cq_id;
	cq->map_len = siw_cq_map_len(cq->num_cqe);
	map = mmap(NULL, cq->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   ctx->cmd_fd, (off_t)resp.drv.cq_key);
	if (map == MAP_FAILED)
		goto err_destroy;
	cq->ring = map;
	cq->ctrl = (struct siw_cq_ctrl *)&cq->ring[cq->num_cqe];
	return &cq->vcq.cq;

err_destroy:
	ret = errno;
	ibv_cmd_destroy_cq(&cq->vcq.cq);
	errno = ret;
err_free:
	ret = errno;
	free(cq);
	errno = ret;
	return NULL;
}

int siw_destroy_cq(struct ibv_cq *ibcq)
{
	struct siw_cq *cq = to_siwcq(ibcq);
	int ret = ibv_cmd_destroy_cq(ibcq);

	if (ret)
		return ret;
	munmap(cq->ring, cq->map_len);
	free(cq);
	return 0;
}

/* The flags byte of an entry, the one field both sides write. */
static inline _Atomic uint8_t *siw_cqe_flags(struct siw_cqe *cqe)
{
	return (_Atomic uint8_t *)&cqe->flags;
}

/*
 * enum siw_opcode -> enum ibv_wc_opcode, as the kernel's own CQ maps.
 * One entry for every value of the CQE's 8-bit field, so that the lookup
 * needs no range check: past the kernel's opcodes the entries are zero,
 * IBV_WC_SEND, what an unknown opcode reads as.
 */
static_assert(IBV_WC_SEND == 0, "an unknown opcode reads as IBV_WC_SEND");
static_assert(sizeof(((struct siw_cqe *)0)->opcode) == 1,
	      "the CQE's opcode is one byte");
static const uint8_t siw_wc_opcode[256] = {
	[SIW_OP_WRITE] = IBV_WC_RDMA_WRITE,
	[SIW_OP_READ] = IBV_WC_RDMA_READ,
	[SIW_OP_READ_LOCAL_INV] = IBV_WC_RDMA_READ,
	[SIW_OP_SEND] = IBV_WC_SEND,
	[SIW_OP_SEND_WITH_IMM] = IBV_WC_SEND,
	[SIW_OP_SEND_REMOTE_INV] = IBV_WC_SEND,
	[SIW_OP_FETCH_AND_ADD] = IBV_WC_FETCH_ADD,
	[SIW_OP_COMP_AND_SWAP] = IBV_WC_COMP_SWAP,
	[SIW_OP_RECEIVE] = IBV_WC_RECV,
	[SIW_OP_INVAL_STAG] = IBV_WC_LOCAL_INV,
	[SIW_OP_REG_MR] = IBV_WC_BIND_MW,
};

/* enum siw_wc_status -> enum ibv_wc_status. */
static const uint8_t siw_wc_status[SIW_NUM_WC_STATUS] = {
	[SIW_WC_SUCCESS] = IBV_WC_SUCCESS,
	[SIW_WC_LOC_LEN_ERR] = IBV_WC_LOC_LEN_ERR,
	[SIW_WC_LOC_PROT_ERR] = IBV_WC_LOC_PROT_ERR,
	[SIW_WC_LOC_QP_OP_ERR] = IBV_WC_LOC_QP_OP_ERR,
	[SIW_WC_WR_FLUSH_ERR] = IBV_WC_WR_FLUSH_ERR,
	[SIW_WC_BAD_RESP_ERR] = IBV_WC_BAD_RESP_ERR,
	[SIW_WC_LOC_ACCESS_ERR] = IBV_WC_LOC_ACCESS_ERR,
	[SIW_WC_REM_ACCESS_ERR] = IBV_WC_REM_ACCESS_ERR,
	[SIW_WC_REM_INV_REQ_ERR] = IBV_WC_REM_INV_REQ_ERR,
	[SIW_WC_GENERAL_ERR] = IBV_WC_GENERAL_ERR,
};

static void siw_fill_wc(struct ibv_wc *wc, const struct siw_cqe *cqe,
			uint8_t flags)
{
	*wc = (struct ibv_wc){
		.wr_id = cqe->id,
		.byte_len = cqe->bytes,
		.qp_num = (uint32_t)cqe->qp_id,
		.status = cqe->status < SIW_NUM_WC_STATUS ?
				  siw_wc_status[cqe->status] :
				  IBV_WC_GENERAL_ERR,
		.opcode = siw_wc_opcode[cqe->opcode],
	};
	if (flags & SIW_WQE_REM_INVAL) {
		wc->wc_flags = IBV_WC_WITH_INV;
		wc->invalidated_rkey = cqe->inval_stag;
	}
}

int siw_poll_cq(struct ibv_cq *ibcq, int ne, struct ibv_wc *wc)
{
	struct siw_cq *cq = to_siwcq(ibcq);
	int n;

	siw_lock(&cq->lock);
	for (n = 0; n < ne; n++) {
		/* Read here, not kept: fewer registers to save per call. */
		struct siw_cqe *cqe = &cq->ring[cq->head & (cq->num_cqe - 1)];
		uint8_t flags;

		/*
		 * Acquire pairs with the kernel's store of SIW_WQE_VALID,
		 * made after it filled the entry: the fields read below are
		 * the ones it wrote.
		 */
		flags = atomic_load_explicit(siw_cqe_flags(cqe),
					     memory_order_acquire);
		if (!(flags & SIW_WQE_VALID))
			break;
		siw_fill_wc(&wc[n], cqe, flags);
		/*
		 * Release pairs with the kernel's read of a zero flags byte
		 * before it refills the entry: our reads above are done
		 * before it may overwrite them.
		 */
		atomic_store_explicit(siw_cqe_flags(cqe), 0,
				      memory_order_release);
		cq->head++;
	}
	siw_unlock(&cq->lock);
	return n;
}

int siw_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	struct siw_cq *cq = to_siwcq(ibcq);
	uint32_t want = solicited_only ? SIW_NOTIFY_SOLICITED :
					 SIW_NOTIFY_SOLICITED |
						 SIW_NOTIFY_NEXT_COMPLETION;

	/*
	 * The kernel reads this word after it placed a completion, and
	 * clears it when it signals; the caller polls again after arming
	 * to catch a completion placed in between. That store-then-load
	 * against the kernel's store-then-load needs a full barrier on our
	 * side, hence sequentially consistent rather than release.
	 */
	atomic_store_explicit((_Atomic uint32_t *)&cq->ctrl->flags, want,
			      memory_order_seq_cst);
	return 0;
}
