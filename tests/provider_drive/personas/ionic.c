// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libionic, AMD Pensando Ethernet
 * adapters with RoCE v2 (rdma-core 65.0's new provider; 44.0 and 56.1
 * do not ship it).
 *
 * The driver's answers are the structs of the ionic driver's uAPI,
 * <rdma/ionic-abi.h> (Linux 6.18), which the system's headers of the
 * oldest kernel we build on lack: their layouts are written here, each
 * pinned by its size. The device: RDMA firmware version 2, 4 KiB pages,
 * WQEs of up to 256 bytes, one user DMA pipeline (udma), no express
 * doorbells and no controller memory for queues (the kernel grants none
 * of the CMB the provider asks for, as on a device without it). The
 * doorbell page is the driver's first mmap entry; CQ and QP ids follow
 * from the fake's handles. ionic has no SRQ: the drive leaves it out.
 * Beyond the steps, libionic's udma calls and the data path, with the
 * doorbells its posts ring on that page.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "t_drive.h"

/* Linux 6.18 added ionic after MANA. */
#define RDMA_DRIVER_IONIC_ (RDMA_DRIVER_MANA_ + 1)

/* The firmware's RDMA interface and its opcodes (one past BIND_MW). */
#define IONIC_RDMA_VERSION 2
#define IONIC_QP_OPCODES 11
/* A WQE's largest stride, log2: 256 bytes. */
#define IONIC_MAX_STRIDE 8
/* The driver's queue types of the doorbell page. */
#define IONIC_QTYPE_SQ 2
#define IONIC_QTYPE_RQ 3
#define IONIC_QTYPE_CQ 1
#define IONIC_QTYPE_ADMIN 0
/* The first of the driver's mmap entries, the doorbell page. */
#define IONIC_DBELL_KEY 0x1000

/* GET_CONTEXT's answer (struct ionic_ctx_resp). */
struct t_ionic_ctx_resp {
	uint32_t rsvd;
	uint32_t page_shift;
	uint64_t dbell_offset;
	uint16_t version;
	uint8_t qp_opcodes;
	uint8_t admin_opcodes;
	uint8_t sq_qtype;
	uint8_t rq_qtype;
	uint8_t cq_qtype;
	uint8_t admin_qtype;
	uint8_t max_stride;
	uint8_t max_spec;
	uint8_t udma_count;
	uint8_t expdb_mask;
	uint8_t expdb_qtypes;
	uint8_t rsvd2[3];
	uint64_t phc_offset;
};
_Static_assert(sizeof(struct t_ionic_ctx_resp) == 40, "ionic_ctx_resp");

/* A queue the provider allocated (struct ionic_qdesc). */
struct t_ionic_qdesc {
	uint64_t addr;
	uint32_t size;
	uint16_t mask;
	uint8_t depth_log2;
	uint8_t stride_log2;
};
_Static_assert(sizeof(struct t_ionic_qdesc) == 16, "ionic_qdesc");

/* CREATE_CQ's request and answer: a queue per udma pipeline. */
struct t_ionic_cq_req {
	struct t_ionic_qdesc cq[2];
	uint8_t udma_mask;
	uint8_t rsvd[7];
};
_Static_assert(sizeof(struct t_ionic_cq_req) == 40, "ionic_cq_req");

struct t_ionic_cq_resp {
	uint32_t cqid[2];
	uint8_t udma_mask;
	uint8_t rsvd[7];
};
_Static_assert(sizeof(struct t_ionic_cq_resp) == 16, "ionic_cq_resp");

/* CREATE_QP's request (struct ionic_qp_req) and answer. */
struct t_ionic_qp_req {
	struct t_ionic_qdesc sq;
	struct t_ionic_qdesc rq;
	uint8_t sq_spec;
	uint8_t rq_spec;
	uint8_t sq_cmb;
	uint8_t rq_cmb;
	uint8_t udma_mask;
	uint8_t rsvd[3];
};
_Static_assert(sizeof(struct t_ionic_qp_req) == 40, "ionic_qp_req");

struct t_ionic_qp_resp {
	uint32_t qpid;
	uint8_t sq_cmb;
	uint8_t rq_cmb;
	uint8_t udma_idx;
	uint8_t rsvd[1];
	uint64_t sq_cmb_offset;
	uint64_t rq_cmb_offset;
};
_Static_assert(sizeof(struct t_ionic_qp_resp) == 24, "ionic_qp_resp");

/* CREATE_AH's answer (struct ionic_ah_resp). */
struct t_ionic_ah_resp {
	uint32_t ahid;
	uint32_t pad;
};
_Static_assert(sizeof(struct t_ionic_ah_resp) == 8, "ionic_ah_resp");

/*
 * ionic 65.0 fills its CREATE_QP request field by field on its stack:
 * the three reserved bytes at the end hold what the stack held.
 */
static void ionic_mask_in(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			  size_t len)
{
	size_t off = offsetof(struct t_ionic_qp_req, rsvd);

	if (t_verb_of(cmd) == T_V_CREATE_QP &&
	    len >= sizeof(struct t_ionic_qp_req))
		memset(drv_in + off, 0, sizeof(struct t_ionic_qp_req) - off);
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct t_ionic_ctx_resp r = {
		.page_shift = 12,
		.dbell_offset = IONIC_DBELL_KEY,
		.version = IONIC_RDMA_VERSION,
		.qp_opcodes = IONIC_QP_OPCODES,
		.admin_opcodes = 16,
		.sq_qtype = IONIC_QTYPE_SQ,
		.rq_qtype = IONIC_QTYPE_RQ,
		.cq_qtype = IONIC_QTYPE_CQ,
		.admin_qtype = IONIC_QTYPE_ADMIN,
		.max_stride = IONIC_MAX_STRIDE,
		.max_spec = 0,
		.udma_count = 1,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The CQ on each pipeline the request names, which the answer echoes. */
static int create_cq(struct t_uv_cmd *cmd)
{
	const struct t_ionic_cq_req *req = cmd->drv_in;
	struct t_ionic_cq_resp r = { 0 };

	if (cmd->drv_in_len < sizeof(*req))
		return EINVAL;
	r.udma_mask = req->udma_mask;
	for (unsigned int i = 0; i < 2; i++)
		if (req->udma_mask & (1u << i))
			r.cqid[i] = t_cq_number(cmd) + 0x1000 * i;
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_qp(struct t_uv_cmd *cmd)
{
	struct t_ionic_qp_resp r = { .qpid = t_qp_number(cmd) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_ah(struct t_uv_cmd *cmd)
{
	struct t_ionic_ah_resp r = { .ahid = 0x10 + t_new_handle(cmd, 0) };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* Where the provider mapped the doorbell page, for the dv hook. */
static const uint64_t *dbell_page;

static void ionic_mmap(uint64_t offset, void *addr, size_t len)
{
	if (offset == IONIC_DBELL_KEY) {
		dbell_page = addr;
		t_uv_name("dbell", addr, len);
	}
}

/*
 * The doorbell registers of the page, one 64-bit word per queue type:
 * a ring writes the queue's id and its new producer index to its type's.
 */
static void note_doorbells(const char *when)
{
	char what[32];

	if (!dbell_page)
		return;
	snprintf(what, sizeof(what), "dbell(%s)", when);
	t_uv_dump(what, dbell_page, 4 * sizeof(*dbell_page));
}

/* libionic's own calls: the context's and the PD's udma pipelines. */
static void udma(const struct t_objs *o)
{
	uint8_t (*ctx_count)(struct ibv_context *) =
		t_dv_sym("libionic.so.1", "ionic_dv_ctx_get_udma_count");
	uint8_t (*ctx_mask)(struct ibv_context *) =
		t_dv_sym("libionic.so.1", "ionic_dv_ctx_get_udma_mask");
	uint8_t (*pd_mask)(struct ibv_pd *) =
		t_dv_sym("libionic.so.1", "ionic_dv_pd_get_udma_mask");
	int (*pd_set)(struct ibv_pd *, uint8_t) =
		t_dv_sym("libionic.so.1", "ionic_dv_pd_set_udma_mask");

	if (!ctx_count || !ctx_mask || !pd_mask || !pd_set || !o->pd)
		return;
	t_uv_note("udma count=%u mask=%x pd_mask=%x", ctx_count(o->ctx),
		  ctx_mask(o->ctx), pd_mask(o->pd));
	/* A pipeline the device lacks is refused; the one it has is not. */
	t_uv_note("pd_set_udma_mask(2) ret=%d", pd_set(o->pd, 2));
	t_uv_note("pd_set_udma_mask(1) ret=%d", pd_set(o->pd, 1));
}

/*
 * Beyond the steps: the udma calls, the data path with the doorbells it
 * rang, the QP as the kernel says it.
 */
static void ionic_dv(const struct t_objs *o)
{
	udma(o);
	note_doorbells("before");
	if (o->qp && o->cq)
		t_data_path(o);
	note_doorbells("after");
	if (o->qp)
		t_query_qp(o->qp);
}

const struct t_persona t_persona_ionic = {
	.name = "ionic",
	.ibdev = "ionic_0",
	.driver_id = RDMA_DRIVER_IONIC_,
	.vendor = 0x1dd8,
	.device = 0x1002,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEPS_ALL & ~T_STEP_SRQ,
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_AH] = create_ah,
	},
	.driver.mask_in = ionic_mask_in,
	.driver.mmap = ionic_mmap,
	.dv = ionic_dv,
};
