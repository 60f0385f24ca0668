// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libocrdma, Emulex OneConnect (BE3/Skyhawk) RoCE.
 *
 * The driver's answers (<rdma/ocrdma-abi.h>), as ocrdma gives them: the
 * context carries the firmware's WQE and RQE sizes, its version string
 * and a page for the provider's AH index table; the queues are one page
 * of rings each with a doorbell page, which the provider maps at the
 * bus addresses the answers give (here a page apart, from NEXT_ADDR's
 * start). ids come from the handles; QP ids stay below the provider's
 * table of 2048. DPP (direct packet push) is off, as on most adapters.
 */
#include <rdma/ocrdma-abi.h>

#include "t_drive.h"

#define PAGE 4096
#define WQE_SIZE 256
#define RQE_SIZE 128

static uint64_t next_addr;

static uint64_t new_page(uint32_t pages)
{
	return t_next_key(&next_addr, (size_t)pages * PAGE);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct ocrdma_alloc_ucontext_resp r = {
		.dev_id = 0,
		.wqe_size = WQE_SIZE,
		.max_inline_data = 220,
		.dpp_wqe_size = WQE_SIZE,
		.ah_tbl_len = PAGE,
		.rqe_size = RQE_SIZE,
		.fw_ver = "10.6.193.0",
	};

	next_addr = 0x80000000ull;
	r.ah_tbl_page = new_page(1);
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct ocrdma_alloc_pd_uresp r = { .id = t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_cq(struct t_uv_cmd *cmd)
{
	struct ocrdma_create_cq_uresp r = {
		.cq_id = t_cq_number(cmd),
		.page_size = PAGE,
		.num_pages = 1,
		.max_hw_cqe = PAGE / 16,
		.db_page_size = PAGE,
		.phase_change = 1,
	};

	r.page_addr[0] = new_page(1);
	r.db_page_addr = new_page(1);
	return t_drv_answer(cmd, &r, sizeof(r));
}

/* A ring of @n entries of @size bytes, in whole pages. */
static uint32_t ring_pages(uint32_t n, uint32_t size)
{
	return ((uint64_t)n * size + PAGE - 1) / PAGE;
}

static int create_qp(struct t_uv_cmd *cmd)
{
	uint32_t qpn = t_qp_number(cmd);
	struct ocrdma_create_qp_uresp r = {
		.qp_id = qpn,
		.sq_dbid = qpn,
		.rq_dbid = qpn,
		.num_sq_pages = 1,
		.num_rq_pages = 1,
		.db_page_size = PAGE,
		.db_sq_offset = 0,
		.db_rq_offset = 0x100,
		.db_shift = 16,
	};
	struct ib_uverbs_qp_cap cap = t_qp_cap(cmd);

	r.num_wqe_allocated = cap.max_send_wr + 1;
	r.num_rqe_allocated = cap.max_recv_wr + 1;
	r.sq_page_size = ring_pages(r.num_wqe_allocated, WQE_SIZE) * PAGE;
	r.rq_page_size = ring_pages(r.num_rqe_allocated, RQE_SIZE) * PAGE;
	r.sq_page_addr[0] = new_page(r.sq_page_size / PAGE);
	r.rq_page_addr[0] = new_page(r.rq_page_size / PAGE);
	r.db_page_addr = new_page(1);
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	uint32_t wr = t_srq_max_wr(cmd);
	struct ocrdma_create_srq_uresp r = {
		.rq_dbid = t_srq_number(cmd),
		.num_rq_pages = 1,
		.db_page_size = PAGE,
		.num_rqe_allocated = wr + 1,
		.db_rq_offset = 0x100,
		.db_shift = 16,
	};

	r.rq_page_size = ring_pages(r.num_rqe_allocated, RQE_SIZE) * PAGE;
	r.rq_page_addr[0] = new_page(r.rq_page_size / PAGE);
	r.db_page_addr = new_page(1);
	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * ocrdma 44 leaves the padding of its CREATE_CQ request (struct
 * ocrdma_create_cq_ureq, rsvd: bytes 4-7) as its stack held it; only
 * dpp_cq is its. Seen in the VM guest, where that stack held a heap
 * address that differed with the core underneath.
 */
static void ocrdma_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			   size_t len)
{
	if (t_verb_of(cmd) != T_V_CREATE_CQ)
		return;
	for (size_t i = 4; i < len && i < 8; i++)
		drv_in[i] = 0;
}

const struct t_persona t_persona_ocrdma = {
	.name = "ocrdma",
	.ibdev = "ocrdma0",
	.driver_id = RDMA_DRIVER_OCRDMA,
	.vendor = 0x10df,
	.device = 0xe220,
	.abi = 2,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	/* ocrdma (44.0 to 65.0) has neither create_cq_ex nor create_qp_ex. */
	.steps = T_STEPS_ALL & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.driver.mask_in = ocrdma_mask_in,
};
