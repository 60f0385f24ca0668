// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libcxgb4, Chelsio T4-T6 iWARP adapters.
 *
 * The driver's answers (<rdma/cxgb4-abi.h>), as iw_cxgb4 gives them on a
 * T6: every queue the provider maps (the context's status page, each
 * CQ's and WQ's ring, each doorbell/GTS page) has a mmap key of its own,
 * handed out a page apart from 0 for each context. The status page says
 * where the device's QP and CQ ids lie, which the provider sizes its id
 * tables from, so each CQ and WQ gets an id inside those ranges. MR keys
 * (in the core answer) carry a memory id below the device's max_mr, which
 * indexes another of its tables.
 *
 * Of the steps an iWARP device takes, cxgb4 (44.0 to 65.0) has no
 * extended CQ or QP: those are left out.
 */
#include <rdma/cxgb4-abi.h>

#include <string.h>

#include "t_drive.h"

#define PAGE 4096

/* Where the device's ids lie (the status page's qp/cq start and size). */
#define QID_START 0x400
#define QID_SIZE 0x400
#define CQID_START 0x800
#define CQID_SIZE 0x400
/* Doorbell segments per page, less one: the kernel's qid_mask. */
#define QID_MASK 0x1f

/* The status page (struct t4_dev_status_page of libcxgb4). */
struct status_page {
	uint8_t db_off;
	uint8_t write_cmpl_supported;
	uint16_t pad2;
	uint32_t pad3;
	uint64_t qp_start, qp_size, cq_start, cq_size;
};

static uint64_t next_key;
static uint32_t next_qid, next_cqid;

/* A mmap key of a page. */
static uint64_t new_key(void)
{
	return t_next_key(&next_key, PAGE);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct c4iw_alloc_ucontext_resp r = { .status_page_size = PAGE };

	next_key = 0;
	next_qid = QID_START;
	next_cqid = CQID_START;
	r.status_page_key = new_key();
	return t_drv_answer(cmd, &r, sizeof(r));
}

static void cxgb4_mmap(uint64_t offset, void *page, size_t len)
{
	struct status_page s = {
		.qp_start = QID_START,
		.qp_size = QID_SIZE,
		.cq_start = CQID_START,
		.cq_size = CQID_SIZE,
	};

	if (offset == 0 && len >= sizeof(s))
		memcpy(page, &s, sizeof(s));
}

/* The core answer's keys: memory id 1 up, an 8-bit key of 0x5a. */
static int reg_mr(struct t_uv_cmd *cmd)
{
	static uint32_t mmid = 1;
	struct ib_uverbs_reg_mr_resp *r = cmd->core_out;

	if (cmd->core_out_len >= sizeof(*r))
		r->lkey = r->rkey = mmid++ << 8 | 0x5a;
	return 0;
}

/* A ring of @entries of @size bytes and the status entry after them. */
static uint64_t ring_bytes(uint32_t entries, uint32_t size)
{
	return ((uint64_t)(entries + 1) * size + PAGE - 1) / PAGE * PAGE;
}

static uint32_t round16(uint32_t n)
{
	return (n + 15) / 16 * 16;
}

/* 64-byte CQEs, as the provider asks. */
static int create_cq(struct t_uv_cmd *cmd)
{
	struct c4iw_create_cq_resp r = {
		.cqid = next_cqid++,
		.size = round16(t_cq_entries(cmd) + 1),
		.qid_mask = QID_MASK,
		.flags = C4IW_64B_CQE,
	};

	r.key = new_key();
	r.gts_key = new_key();
	r.memsize = ring_bytes(r.size, 64);
	return t_drv_answer(cmd, &r, sizeof(r));
}

/* 64-byte WQ entries; the RQ in multiples of 16. */
static int create_qp(struct t_uv_cmd *cmd)
{
	struct c4iw_create_qp_resp r = { .qid_mask = QID_MASK };
	struct ib_uverbs_qp_cap cap = t_qp_cap(cmd);

	r.sqid = next_qid++;
	r.rqid = next_qid++;
	r.sq_size = cap.max_send_wr + 1;
	r.rq_size = round16(cap.max_recv_wr + 1);
	r.sq_memsize = ring_bytes(r.sq_size, 64);
	r.rq_memsize = ring_bytes(r.rq_size, 64);
	r.flags = C4IW_QPF_WRITE_W_IMM;
	r.ma_sync_key = new_key();
	r.sq_key = new_key();
	r.rq_key = new_key();
	r.sq_db_gts_key = new_key();
	r.rq_db_gts_key = new_key();
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	uint32_t wr = t_srq_max_wr(cmd);
	struct c4iw_create_srq_resp r = {
		.srqid = next_qid++,
		.srq_size = round16(wr + 1),
		.rqt_abs_idx = 0x100,
		.qid_mask = QID_MASK,
		.flags = T4_SRQ_LIMIT_SUPPORT,
	};

	r.srq_key = new_key();
	r.srq_db_gts_key = new_key();
	r.srq_memsize = ring_bytes(r.srq_size, 64);
	return t_drv_answer(cmd, &r, sizeof(r));
}

const struct t_persona t_persona_cxgb4 = {
	.name = "cxgb4",
	.ibdev = "cxgb4_0",
	.driver_id = RDMA_DRIVER_CXGB4,
	.vendor = 0x1425,
	.device = 0x6401,
	.abi = 3,
	.node_type = T_NODE_RNIC,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_IWARP & ~(T_STEP_CQ_EX | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_REG_MR] = reg_mr,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.driver.mmap = cxgb4_mmap,
};
