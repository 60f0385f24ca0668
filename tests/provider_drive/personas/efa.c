// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libefa, the AWS Elastic Fabric
 * Adapter.
 *
 * The driver (drivers/infiniband/hw/efa) answers with the structs of
 * <rdma/efa-abi.h>. EFA has no RC and no SRQ: its queue pairs are UD and
 * SRD (a driver QP type, made through efadv_create_driver_qp() or
 * efadv_create_qp_ex()), both taken through INIT (with a qkey), RTR and
 * RTS (with an sq_psn). Its port's link layer is unspecified, and an
 * address handle names its peer by GID only. Every queue and doorbell
 * is a page the provider maps from the command file at the key the
 * driver gave: a CQ's ring, a receive ring, the LLQ descriptors of the
 * send queue, and the doorbell pages of both queues.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

/* verbs.h first: it lays out RDMA_UAPI_PTR before the kernel's headers. */
#include "t_drive.h"

#include <rdma/efa-abi.h>

/* What the device is: an EFA of the second generation, in round numbers. */
#define PAGE 4096u
#define SUB_CQS 1
#define INLINE_BUF 32
#define MAX_LLQ (128u << 10) /* 2048 descriptors of 64 bytes */
#define MAX_TX_BATCH 16 /* units of 64 bytes */
#define MIN_SQ_WR 32
#define MAX_SQ_WR 4096
#define MAX_RQ_WR 8192
#define MAX_SQ_SGE 2
#define MAX_RQ_SGE 3
#define MAX_RDMA_SIZE (1u << 30)
#define PDN 0x11
#define CQ_IDX 0x20
#define AHN 0x33
/* Offsets in their pages of the doorbells and of the LLQ descriptors. */
#define SQ_DB_OFFSET 0x10
#define RQ_DB_OFFSET 0x18
#define LLQ_DESC_OFFSET 0x100
#define CQ_DB_OFFSET 0x20

/*
 * The driver's mmap keys: an offset of the command file each, page
 * aligned, handed out in order as the kernel's mmap entries are.
 */
static uint64_t next_key(void)
{
	static uint64_t next = 0x100 * PAGE;

	return t_next_key(&next, PAGE);
}

static uint64_t page_align(uint64_t len)
{
	return (len + PAGE - 1) / PAGE * PAGE;
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct efa_ibv_alloc_ucontext_resp r = {
		.cmds_supp_udata_mask = EFA_USER_CMDS_SUPP_UDATA_QUERY_DEVICE |
					EFA_USER_CMDS_SUPP_UDATA_CREATE_AH,
		.sub_cqs_per_cq = SUB_CQS,
		.inline_buf_size = INLINE_BUF,
		.max_llq_size = MAX_LLQ,
		.max_tx_batch = MAX_TX_BATCH,
		.min_sq_wr = MIN_SQ_WR,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int query_device(struct t_uv_cmd *cmd)
{
	struct efa_ibv_ex_query_device_resp r = {
		.max_sq_wr = MAX_SQ_WR,
		.max_rq_wr = MAX_RQ_WR,
		.max_sq_sge = MAX_SQ_SGE,
		.max_rq_sge = MAX_RQ_SGE,
		.max_rdma_size = MAX_RDMA_SIZE,
		.device_caps = EFA_QUERY_DEVICE_CAPS_RDMA_READ |
			       EFA_QUERY_DEVICE_CAPS_RNR_RETRY |
			       EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS |
			       EFA_QUERY_DEVICE_CAPS_CQ_WITH_SGID,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * One ring of the entries asked for, per sub-CQ, at a key of its own;
 * a CQ with a completion channel gets a doorbell page to arm it.
 */
static int create_cq(struct t_uv_cmd *cmd)
{
	const struct efa_ibv_create_cq *req = cmd->drv_in;
	struct efa_ibv_create_cq_resp r = { .cq_idx = CQ_IDX };

	if (cmd->drv_in_len < sizeof(*req))
		return 0;
	r.q_mmap_key = next_key();
	r.q_mmap_size = page_align((uint64_t)t_cq_entries(cmd) *
				   req->cq_entry_size * req->num_sub_cqs);
	if (req->flags & EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL) {
		r.comp_mask = EFA_CREATE_CQ_RESP_DB_OFF;
		r.db_off = CQ_DB_OFFSET;
		r.db_mmap_key = next_key();
	}
	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The rings of the sizes asked for, and the two doorbell pages. */
static int create_qp(struct t_uv_cmd *cmd)
{
	const struct efa_ibv_create_qp *req = cmd->drv_in;
	struct efa_ibv_create_qp_resp r = {
		.rq_db_offset = RQ_DB_OFFSET,
		.sq_db_offset = SQ_DB_OFFSET,
		.llq_desc_offset = LLQ_DESC_OFFSET,
		.send_sub_cq_idx = 0,
		.recv_sub_cq_idx = 0,
	};

	if (cmd->drv_in_len < sizeof(*req))
		return 0;
	if (req->rq_ring_size) {
		r.rq_mmap_key = next_key();
		r.rq_mmap_size = page_align(req->rq_ring_size);
		r.rq_db_mmap_key = next_key();
	}
	r.sq_db_mmap_key = next_key();
	r.llq_desc_mmap_key = next_key();
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct efa_ibv_alloc_pd_resp r = { .pdn = PDN };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* An AH is the driver's number for it. */
static int ah_number(struct t_uv_cmd *cmd)
{
	struct efa_ibv_create_ah_resp r = { .efa_address_handle = AHN };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The direct verbs (libefa.so.1, efadv.h of rdma-core 44). */
#define DV_LIB "libefa.so.1"

/* struct efadv_device_attr, 32 bytes; its first size had 24. */
struct dv_device_attr {
	uint64_t comp_mask;
	uint32_t max_sq_wr;
	uint32_t max_rq_wr;
	uint16_t max_sq_sge;
	uint16_t max_rq_sge;
	uint16_t inline_buf_size;
	uint8_t reserved[2];
	uint32_t device_caps;
	uint32_t max_rdma_size;
};
#define DV_DEVICE_ATTR_V1 24

/* struct efadv_qp_init_attr; EFADV_QP_DRIVER_TYPE_SRD. */
struct dv_qp_attr {
	uint64_t comp_mask;
	uint32_t driver_qp_type;
	uint8_t reserved[4];
};
#define DV_QP_SRD 0
/* An SRD QP's depth and scatter entries, both ways. */
#define SRD_WR 16
#define SRD_SGE 1

/* struct efadv_cq_init_attr; EFADV_WC_EX_WITH_SGID. */
struct dv_cq_attr {
	uint64_t comp_mask;
	uint64_t wc_flags;
};
#define DV_WC_EX_WITH_SGID 1

/* struct efadv_ah_attr. */
struct dv_ah_attr {
	uint64_t comp_mask;
	uint16_t ahn;
	uint8_t reserved[6];
};

/* struct efadv_cq: what efadv_cq_from_ibv_cq_ex() gives. */
struct dv_cq {
	uint64_t comp_mask;
	int (*wc_read_sgid)(struct dv_cq *cq, union ibv_gid *sgid);
};

/* Every limit, at the size of today and at the first one. */
static void dv_query_device(struct ibv_context *ctx)
{
	int (*query)(struct ibv_context *, struct dv_device_attr *, uint32_t) =
		t_dv_sym(DV_LIB, "efadv_query_device");
	struct dv_device_attr attr;

	if (!query) {
		t_uv_note("efadv_query_device missing");
		return;
	}
	memset(&attr, 0xff, sizeof(attr));
	t_uv_note("efadv_query_device ret=%d", query(ctx, &attr, sizeof(attr)));
	t_uv_dump("efadv_device_attr", &attr, sizeof(attr));
	memset(&attr, 0xff, sizeof(attr));
	t_uv_note("efadv_query_device(v1) ret=%d",
		  query(ctx, &attr, DV_DEVICE_ATTR_V1));
	t_uv_dump("efadv_device_attr(v1)", &attr, sizeof(attr));
}

static void note_qp(const char *what, struct ibv_qp *qp,
		    const struct ibv_qp_cap *cap)
{
	t_uv_note("%s qp_num=%x type=%d state=%d cap=%u/%u/%u/%u/%u", what,
		  qp->qp_num, qp->qp_type, qp->state, cap->max_send_wr,
		  cap->max_recv_wr, cap->max_send_sge, cap->max_recv_sge,
		  cap->max_inline_data);
}

/* UD and SRD alike: INIT with a qkey, RTR, RTS with an sq_psn. */
static bool to_rts(struct ibv_qp *qp, bool srd)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .pkey_index = 0,
				 .port_num = 1,
				 .qkey = 0x11111111 };
	int ret;

	ret = ibv_modify_qp(qp, &a,
			    IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				    IBV_QP_QKEY);
	t_uv_note("modify_qp INIT ret=%d state=%d", ret, qp->state);
	if (ret)
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE);
	t_uv_note("modify_qp RTR ret=%d state=%d", ret, qp->state);
	if (ret)
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x456;
	/* An SRD QP retries on RNR when the device can (RNR_RETRY). */
	a.rnr_retry = 7;
	ret = ibv_modify_qp(qp, &a,
			    IBV_QP_STATE | IBV_QP_SQ_PSN |
				    (srd ? IBV_QP_RNR_RETRY : 0));
	t_uv_note("modify_qp RTS ret=%d state=%d", ret, qp->state);
	return !ret;
}

/* What the kernel says of a QP, through the provider's query_qp. */
static void query_qp(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	memset(&init, 0, sizeof(init));
	ret = ibv_query_qp(
		qp, &attr,
		IBV_QP_STATE | IBV_QP_QKEY | IBV_QP_SQ_PSN | IBV_QP_CAP, &init);
	t_uv_note("query_qp ret=%d", ret);
	t_uv_dump("qp_attr", &attr, sizeof(attr));
	t_uv_dump("qp_init_attr", &init, sizeof(init));
}

static void destroy_qp(struct ibv_qp *qp)
{
	t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
}

/* The UD QP of the steps, to RTS. */
static void ud_qp(const struct t_objs *o)
{
	if (o->ud)
		to_rts(o->ud, false);
}

/* A UD QP through ibv_create_qp_ex(), with the send ops UD allows. */
static void ud_qp_ex(const struct t_objs *o)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = o->cq,
		.recv_cq = o->cq,
		.cap = { .max_send_wr = 64,
			 .max_recv_wr = 32,
			 .max_send_sge = 2,
			 .max_recv_sge = 2,
			 .max_inline_data = INLINE_BUF },
		.qp_type = IBV_QPT_UD,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = o->pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_SEND_WITH_IMM,
	};
	struct ibv_qp *qp = ibv_create_qp_ex(o->ctx, &a);

	if (!t_note_made("create_qp_ex(UD)", qp))
		return;
	note_qp("qp_ex", qp, &a.cap);
	t_uv_note("qp_to_qp_ex %s", ibv_qp_to_qp_ex(qp) ? "ok" : "none");
	to_rts(qp, false);
	destroy_qp(qp);
}

/* An SRD QP the first way: efadv_create_driver_qp(). */
static void srd_driver_qp(const struct t_objs *o)
{
	struct ibv_qp *(*create)(struct ibv_pd *, struct ibv_qp_init_attr *,
				 uint32_t) =
		t_dv_sym(DV_LIB, "efadv_create_driver_qp");
	struct ibv_qp_init_attr a =
		t_qp_init(o->cq, IBV_QPT_DRIVER, SRD_WR, SRD_SGE);
	struct ibv_qp *qp;

	if (!create)
		return;
	qp = create(o->pd, &a, DV_QP_SRD);
	if (!t_note_made("efadv_create_driver_qp(SRD)", qp))
		return;
	note_qp("srd", qp, &a.cap);
	to_rts(qp, true);
	destroy_qp(qp);
}

/*
 * Two work requests through the extended API, a send and an RDMA read,
 * written to the LLQ the provider mapped; the doorbell is a page too.
 */
static void post_wr(struct ibv_qp *qp, struct ibv_ah *ah)
{
	static uint8_t buf[256];
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(qp);

	t_uv_note("qp_to_qp_ex %s", qpx ? "ok" : "none");
	if (!qpx || !ah)
		return;
	ibv_wr_start(qpx);
	qpx->wr_id = 3;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qpx);
	ibv_wr_set_ud_addr(qpx, ah, 0x77, 0x11111111);
	ibv_wr_set_sge(qpx, 0x1234, (uintptr_t)buf, 64);
	qpx->wr_id = 4;
	ibv_wr_rdma_read(qpx, 0x5678, 0x10000);
	ibv_wr_set_ud_addr(qpx, ah, 0x77, 0x11111111);
	ibv_wr_set_sge(qpx, 0x1234, (uintptr_t)buf + 64, 64);
	t_uv_note("wr_complete ret=%d", ibv_wr_complete(qpx));
}

/* An SRD QP the second way, extended: RDMA read is in its send ops. */
static void srd_qp_ex(const struct t_objs *o, struct ibv_ah *ah)
{
	struct ibv_qp *(*create)(struct ibv_context *,
				 struct ibv_qp_init_attr_ex *,
				 struct dv_qp_attr *, uint32_t) =
		t_dv_sym(DV_LIB, "efadv_create_qp_ex");
	struct ibv_qp_init_attr_ex a =
		t_qp_init_ex(o->pd, o->cq, IBV_QPT_DRIVER, SRD_WR, SRD_SGE,
			     IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_READ);
	struct dv_qp_attr dv = { .driver_qp_type = DV_QP_SRD };
	struct ibv_qp *qp;

	if (!create)
		return;
	qp = create(o->ctx, &a, &dv, sizeof(dv));
	if (!t_note_made("efadv_create_qp_ex(SRD)", qp))
		return;
	note_qp("srd_ex", qp, &a.cap);
	if (to_rts(qp, true))
		post_wr(qp, ah);
	query_qp(qp);
	destroy_qp(qp);
}

/* A CQ that reads the sender's GID of a completion from an unknown AH. */
static void sgid_cq(const struct t_objs *o)
{
	struct ibv_cq_ex *(*create)(struct ibv_context *,
				    struct ibv_cq_init_attr_ex *,
				    struct dv_cq_attr *, uint32_t) =
		t_dv_sym(DV_LIB, "efadv_create_cq");
	struct dv_cq *(*from)(struct ibv_cq_ex *) =
		t_dv_sym(DV_LIB, "efadv_cq_from_ibv_cq_ex");
	struct ibv_cq_init_attr_ex a = {
		.cqe = 20,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_SRC_QP |
			    IBV_WC_EX_WITH_SLID,
	};
	struct dv_cq_attr dv = { .wc_flags = DV_WC_EX_WITH_SGID };
	struct ibv_poll_cq_attr pa = { 0 };
	struct ibv_cq_ex *cq;
	struct dv_cq *dcq;

	if (!create || !from)
		return;
	cq = create(o->ctx, &a, &dv, sizeof(dv));
	if (!t_note_made("efadv_create_cq", cq))
		return;
	dcq = from(cq);
	t_uv_note("efadv_cq cqe=%d comp_mask=%llx sgid=%s", cq->cqe,
		  (unsigned long long)dcq->comp_mask,
		  dcq->wc_read_sgid ? "yes" : "no");
	/* Nothing has completed: the ring is as the driver zeroed it. */
	t_uv_note("start_poll ret=%d", ibv_start_poll(cq, &pa));
	t_uv_note("destroy_cq ret=%d", ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
}

/* The core's own paths on an EFA context: the first query, GID, P_Key. */
static void queries(struct ibv_context *ctx)
{
	struct ibv_device_attr attr;
	struct ibv_gid_entry entry;
	union ibv_gid gid;
	uint16_t pkey = 0;
	int ret;

	memset(&attr, 0, sizeof(attr));
	ret = ibv_query_device(ctx, &attr);
	t_uv_note("query_device ret=%d fw_ver=%.64s", ret, attr.fw_ver);
	memset(attr.fw_ver, 0, sizeof(attr.fw_ver));
	t_uv_dump("device_attr", &attr, sizeof(attr));
	memset(&gid, 0, sizeof(gid));
	ret = ibv_query_gid(ctx, 1, 0, &gid);
	t_uv_note("query_gid ret=%d", ret);
	t_uv_dump("gid", &gid, sizeof(gid));
	memset(&entry, 0, sizeof(entry));
	ret = ibv_query_gid_ex(ctx, 1, 0, &entry, 0);
	t_uv_note("query_gid_ex ret=%d", ret);
	t_uv_dump("gid_entry", &entry, sizeof(entry));
	ret = ibv_query_pkey(ctx, 1, 0, &pkey);
	t_uv_note("query_pkey ret=%d pkey=%x", ret, pkey);
}

/*
 * The provider's query_device_ex as an application built on older
 * headers calls it (a shorter struct ibv_device_attr_ex), and with an
 * input it cannot know: the core decides what of the answer fits.
 */
static void query_sizes(struct ibv_context *ctx)
{
	static const size_t sizes[] = {
		sizeof(struct ibv_device_attr) - 8,
		sizeof(struct ibv_device_attr),
		offsetof(struct ibv_device_attr_ex, odp_caps) + 4,
		offsetof(struct ibv_device_attr_ex, tso_caps),
		offsetof(struct ibv_device_attr_ex, max_dm_size),
	};
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_device_attr_ex attr;
	int ret;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&attr, 0xee, sizeof(attr));
		ret = vctx->query_device_ex(ctx, NULL, &attr, sizes[i]);
		t_uv_note("query_device_ex(%zu) ret=%d", sizes[i], ret);
		memset(attr.orig_attr.fw_ver, 0, sizeof(attr.orig_attr.fw_ver));
		t_uv_dump("device_attr_ex", &attr, sizeof(attr));
	}
	memset(&attr, 0, sizeof(attr));
	ret = ibv_query_device_ex(ctx, &in, &attr);
	t_uv_note("query_device_ex(input comp_mask 1) ret=%d", ret);
}

/* Memory of another device, by a dma-buf file (ioctl only). */
static void dmabuf_mr(const struct t_objs *o)
{
	struct ibv_mr *mr = ibv_reg_dmabuf_mr(
		o->pd, 0x2000, 0x10000, 0x7000, t_uv_new_fd(T_UV_OTHER_FILE),
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);

	if (!t_note_made("reg_dmabuf_mr", mr))
		return;
	t_uv_note("dmabuf mr lkey=%x rkey=%x length=%zu", mr->lkey, mr->rkey,
		  mr->length);
	t_uv_note("dereg_mr ret=%d", ibv_dereg_mr(mr));
}

/* A CQ on a completion channel: the driver adds a doorbell to arm it. */
static void cq_channel(const struct t_objs *o)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(o->ctx);
	struct ibv_cq *cq;

	if (!t_note_made("create_comp_channel", ch))
		return;
	cq = ibv_create_cq(o->ctx, 8, NULL, ch, 0);
	if (t_note_made("create_cq(channel)", cq)) {
		t_uv_note("req_notify_cq ret=%d", ibv_req_notify_cq(cq, 0));
		t_uv_note("req_notify_cq(solicited) ret=%d",
			  ibv_req_notify_cq(cq, 1));
		t_uv_note("destroy_cq ret=%d", ibv_destroy_cq(cq));
	}
	t_uv_note("destroy_comp_channel ret=%d", ibv_destroy_comp_channel(ch));
}

/*
 * The data path of the UD QP in RTS, which reaches no kernel: a receive
 * and a send written to the rings the provider mapped, and a poll of a
 * CQ where nothing has completed.
 */
static void data_path(const struct t_objs *o, struct ibv_ah *ah)
{
	static uint8_t buf[256];
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = 64,
			       .lkey = 0x1234 };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr swr = { .wr_id = 2,
				   .sg_list = &sge,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED,
				   .wr.ud = { .ah = ah,
					      .remote_qpn = 0x77,
					      .remote_qkey = 0x11111111 } };
	struct ibv_recv_wr *bad_r = NULL;
	struct ibv_send_wr *bad_s = NULL;
	struct ibv_wc wc[2];

	if (!o->ud || o->ud->state != IBV_QPS_RTS)
		return;
	t_uv_note("post_recv ret=%d", ibv_post_recv(o->ud, &rwr, &bad_r));
	t_uv_note("post_send ret=%d", ibv_post_send(o->ud, &swr, &bad_s));
	t_uv_note("poll_cq ret=%d", ibv_poll_cq(o->cq, 2, wc));
	t_uv_note("query_qp_data_in_order=%d",
		  ibv_query_qp_data_in_order(o->ud, IBV_WR_SEND, 0));
}

/* An address handle names its peer by GID; the driver gives its number. */
static struct ibv_ah *create_ah(const struct t_objs *o)
{
	int (*query)(struct ibv_ah *, struct dv_ah_attr *, uint32_t) =
		t_dv_sym(DV_LIB, "efadv_query_ah");
	struct ibv_ah_attr a = { .is_global = 1, .port_num = 1 };
	struct dv_ah_attr attr;
	struct ibv_ah *h;

	for (unsigned int i = 0; i < 16; i++)
		a.grh.dgid.raw[i] = 0xf0 + i;
	h = ibv_create_ah(o->pd, &a);
	if (!t_note_made("create_ah(gid)", h) || !query)
		return h;
	memset(&attr, 0xff, sizeof(attr));
	t_uv_note("efadv_query_ah ret=%d", query(h, &attr, sizeof(attr)));
	t_uv_dump("efadv_ah_attr", &attr, sizeof(attr));
	return h;
}

/*
 * A verb that makes an object: NULL and errno, or made (and undone by
 * @undo, which takes the object).
 */
#define TRY(what, obj, undo)                                            \
	do {                                                            \
		errno = 0;                                              \
		void *o_ = (obj);                                       \
		t_uv_note("%s %s errno=%d", what, o_ ? "made" : "none", \
			  o_ ? 0 : errno);                              \
		if (o_)                                                 \
			undo(o_);                                       \
	} while (0)

/*
 * What EFA has not: no SRQ, memory window, XRC, WQ, thread domain,
 * device memory, counters, null MR, multicast, resize or moderation
 * of a CQ, ECE. The core answers for the provider, as rdma-core 44's
 * dummy ops do.
 */
static void unsupported(const struct t_objs *o)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 32,
						  .max_sge = 1 } };
	struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD |
						      IBV_XRCD_INIT_ATTR_OFLAGS,
					 .fd = -1 };
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ,
				       .max_wr = 16,
				       .max_sge = 1,
				       .pd = o->pd,
				       .cq = o->cq };
	struct ibv_td_init_attr ta = { 0 };
	struct ibv_alloc_dm_attr da = { .length = 4096 };
	struct ibv_counters_init_attr ca = { 0 };
	struct ibv_modify_cq_attr ma = { .attr_mask = IBV_CQ_ATTR_MODERATE,
					 .moderate = { .cq_count = 4,
						       .cq_period = 8 } };
	union ibv_gid mgid = { .raw = { 0xff, 0x12 } };
	struct ibv_ece ece;

	TRY("create_srq", ibv_create_srq(o->pd, &sa), ibv_destroy_srq);
	TRY("alloc_mw", ibv_alloc_mw(o->pd, IBV_MW_TYPE_1), ibv_dealloc_mw);
	TRY("open_xrcd", ibv_open_xrcd(o->ctx, &xa), ibv_close_xrcd);
	TRY("create_wq", ibv_create_wq(o->ctx, &wa), ibv_destroy_wq);
	TRY("alloc_td", ibv_alloc_td(o->ctx, &ta), ibv_dealloc_td);
	TRY("alloc_dm", ibv_alloc_dm(o->ctx, &da), ibv_free_dm);
	TRY("create_counters", ibv_create_counters(o->ctx, &ca),
	    ibv_destroy_counters);
	TRY("alloc_null_mr", ibv_alloc_null_mr(o->pd), ibv_dereg_mr);
	t_uv_note("resize_cq ret=%d", ibv_resize_cq(o->cq, 64));
	t_uv_note("modify_cq ret=%d", ibv_modify_cq(o->cq, &ma));
	memset(&ece, 0, sizeof(ece));
	if (o->ud) {
		t_uv_note("attach_mcast ret=%d",
			  ibv_attach_mcast(o->ud, &mgid, 0xc001));
		t_uv_note("query_ece ret=%d", ibv_query_ece(o->ud, &ece));
	}
}

static void efa_dv(const struct t_objs *o)
{
	struct ibv_ah *ah;

	dv_query_device(o->ctx);
	queries(o->ctx);
	query_sizes(o->ctx);
	if (!o->pd || !o->cq)
		return;
	ud_qp(o);
	ah = create_ah(o);
	ud_qp_ex(o);
	srd_driver_qp(o);
	srd_qp_ex(o, ah);
	sgid_cq(o);
	cq_channel(o);
	dmabuf_mr(o);
	unsupported(o);
	if (ah) {
		data_path(o, ah);
		t_uv_note("destroy_ah ret=%d", ibv_destroy_ah(ah));
	}
	/* Last: the answer's state (the fake's pattern) becomes the QP's. */
	if (o->ud)
		query_qp(o->ud);
}

const struct t_persona t_persona_efa = {
	.name = "efa",
	.ibdev = "efa_0",
	.driver_id = RDMA_DRIVER_EFA,
	.vendor = 0x1d0f,
	.device = 0xefa1,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_UNSPECIFIED,
	/*
	 * EFA has neither RC QPs (QP, QP_EX and MODIFY are of an RC QP)
	 * nor SRQs; its UD QP is a step, its extended and SRD QPs, their
	 * way to RTS and its GID-named AH are its own verbs (efa_dv).
	 */
	.steps = T_STEP_QUERY | T_STEP_PD | T_STEP_MR | T_STEP_CQ |
		 T_STEP_CQ_EX | T_STEP_UD,
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_QUERY_DEVICE] = query_device,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_CREATE_AH] = ah_number,
	},
	.dv = efa_dv,
};
