// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmlx5, NVIDIA/Mellanox Connect-IB
 * and ConnectX-4 and later, on an InfiniBand port.
 *
 * The driver (drivers/infiniband/hw/mlx5) answers with the structs of
 * <rdma/mlx5-abi.h>. Doorbells: a kernel with the ioctl interface knows
 * MLX5_LIB_CAP_DYN_UAR, grants no static blue-flame registers
 * (tot_bfregs 0) and hands out UAR pages one at a time through its UAR
 * object (MLX5_IB_OBJECT_UAR), each at an mmap offset of its own; an
 * older kernel (no ioctl, or only the write() tunnel) grants the static
 * registers the provider asked for, which it maps page by page at the
 * legacy offsets. Either way the pages come from the fake command file.
 * DEVX, the raw firmware commands, is refused: the provider then goes
 * without the capabilities it would read from the firmware.
 */
#include <errno.h>
#include <string.h>

/* verbs.h first: it lays out RDMA_UAPI_PTR before the kernel's headers. */
#include "t_drive.h"

#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

/* What the device is: a ConnectX-5 as mlx5_ib describes one. */
#define BF_REG_SIZE 512
#define MAX_DESC_SZ 512
#define MAX_QUEUE (1u << 15)
#define PDN 0x31
#define CQN 0x400
#define SRQN 0x500
#define WQN 0x600
#define TIRN 0x700
#define UAR_PAGE_ID 0x21
/* The first of the driver's mmap entries: page offset 9 << 16. */
#define UAR_MMAP_BASE (9ull << 16 << 12)

/* Whether this kernel hands out UAR pages through its UAR object. */
static bool dyn_uar(void)
{
	return t_uv.kernel == T_UV_IOCTL;
}

static int get_context(struct t_uv_cmd *cmd)
{
	const struct mlx5_ib_alloc_ucontext_req_v2 *req = cmd->drv_in;
	struct mlx5_ib_alloc_ucontext_resp r = {
		.qp_tab_size = 1 << 18,
		.bf_reg_size = BF_REG_SIZE,
		.cache_line_size = 64,
		.max_sq_desc_sz = MAX_DESC_SZ,
		.max_rq_desc_sz = MAX_DESC_SZ,
		.max_send_wqebb = MAX_QUEUE,
		.max_recv_wr = MAX_QUEUE,
		.max_srq_recv_wr = MAX_QUEUE - 1,
		.num_ports = 1,
		.flow_action_flags =
			MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM,
		.comp_mask =
			MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET |
			MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_DUMP_FILL_MKEY |
			MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE |
			MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS,
		.cqe_version = 1,
		.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
				 MLX5_USER_CMDS_SUPP_UHW_CREATE_AH,
		.eth_min_inline = MLX5_USER_INLINE_MODE_L2,
		.clock_info_versions = 1 << MLX5_IB_CLOCK_INFO_V1,
		.hca_core_clock_offset = 0x40,
		.log_uar_size = 12,
		.num_uars_per_page = 1,
		.num_dyn_bfregs = 16,
		.dump_fill_mkey = 0x1fe00,
	};

	if (!dyn_uar() && cmd->drv_in_len >= sizeof(req->total_num_bfregs))
		r.tot_bfregs = req->total_num_bfregs;
	r.response_length = cmd->drv_out_len < sizeof(r) ? cmd->drv_out_len :
							   sizeof(r);
	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The device has 128 KiB of memory of its own (MEMIC) to hand out. */
static void device_memory(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_ex_query_device_resp *r = cmd->core_out;

	if ((cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) &&
	    cmd->core_out_len >= sizeof(*r))
		r->max_dm_size = 128 << 10;
}

/* Every capability non-zero, so that each shows where it lands. */
static int query_device(struct t_uv_cmd *cmd)
{
	struct mlx5_ib_query_device_resp r = {
		.tso_caps = { .max_tso = 1 << 18,
			      .supported_qpts = 1 << IBV_QPT_RAW_PACKET },
		.rss_caps = { .rx_hash_fields_mask = MLX5_RX_HASH_SRC_IPV4 |
						     MLX5_RX_HASH_DST_IPV4 |
						     MLX5_RX_HASH_SRC_PORT_TCP |
						     MLX5_RX_HASH_DST_PORT_TCP |
						     MLX5_RX_HASH_INNER,
			      .rx_hash_function = MLX5_RX_HASH_FUNC_TOEPLITZ },
		.cqe_comp_caps = { .max_num = 64,
				   .supported_format =
					   MLX5_IB_CQE_RES_FORMAT_HASH |
					   MLX5_IB_CQE_RES_FORMAT_CSUM },
		.packet_pacing_caps = { .qp_rate_limit_min = 1000,
					.qp_rate_limit_max = 100000000,
					.supported_qpts = 1
							  << IBV_QPT_RAW_PACKET,
					.cap_flags = MLX5_IB_PP_SUPPORT_BURST },
		.mlx5_ib_support_multi_pkt_send_wqes = MLX5_IB_ALLOW_MPW |
						       MLX5_IB_SUPPORT_EMPW,
		.flags = MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP |
			 MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD |
			 MLX5_IB_QUERY_DEV_RESP_PACKET_BASED_CREDIT_MODE |
			 MLX5_IB_QUERY_DEV_RESP_FLAGS_SCAT2CQE_DCT,
		.sw_parsing_caps = { .sw_parsing_offloads =
					     MLX5_IB_SW_PARSING |
					     MLX5_IB_SW_PARSING_CSUM |
					     MLX5_IB_SW_PARSING_LSO,
				     .supported_qpts = 1
						       << IBV_QPT_RAW_PACKET },
		.striding_rq_caps = { .min_single_stride_log_num_of_bytes = 6,
				      .max_single_stride_log_num_of_bytes = 13,
				      .min_single_wqe_log_num_of_strides = 3,
				      .max_single_wqe_log_num_of_strides = 16,
				      .supported_qpts = 1
							<< IBV_QPT_RAW_PACKET },
		.tunnel_offloads_caps = MLX5_IB_TUNNELED_OFFLOADS_VXLAN |
					MLX5_IB_TUNNELED_OFFLOADS_GRE |
					MLX5_IB_TUNNELED_OFFLOADS_GENEVE,
		.dci_streams_caps = { .max_log_num_concurent = 4,
				      .max_log_num_errored = 3 },
	};

	r.response_length = cmd->drv_out_len < sizeof(r) ? cmd->drv_out_len :
							   sizeof(r);
	t_drv_answer(cmd, &r, sizeof(r));
	device_memory(cmd);
	return 0;
}

/*
 * The register a QP rings: the kernel picks one of the static ones; on a
 * kernel with dynamic UARs the provider names its page in the request.
 */
static int create_qp(struct t_uv_cmd *cmd)
{
	const struct mlx5_ib_create_qp *req = cmd->drv_in;
	struct mlx5_ib_create_qp_resp r = { .bfreg_index = 0 };

	/* An RSS QP is a TIR: its number and ICM address come back. */
	if (cmd->drv_in_len >= sizeof(struct mlx5_ib_create_qp_rss)) {
		r.comp_mask = MLX5_IB_CREATE_QP_RESP_MASK_TIRN |
			      MLX5_IB_CREATE_QP_RESP_MASK_TIR_ICM_ADDR;
		r.tirn = TIRN;
		r.tir_icm_addr = 0x7ac0000;
	} else if (cmd->drv_in_len >= sizeof(*req)) {
		if (!(req->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX))
			r.bfreg_index = 5;
		/* The firmware accepts the ECE options offered. */
		r.ece_options = req->ece_options;
	}
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int modify_qp(struct t_uv_cmd *cmd)
{
	const struct mlx5_ib_modify_qp *req = cmd->drv_in;
	struct mlx5_ib_modify_qp_resp r = { 0 };

	if (cmd->drv_in_len >= sizeof(*req))
		r.ece_options = req->ece_options;
	r.response_length = cmd->drv_out_len < sizeof(r) ? cmd->drv_out_len :
							   sizeof(r);
	return t_drv_answer(cmd, &r, sizeof(r));
}

static int put_u32(struct t_uv_cmd *cmd, uint32_t v)
{
	return t_drv_answer(cmd, &v, sizeof(v));
}

/* An output attribute of a method, as the kernel writes one. */
static void out_ptr(struct t_uv_cmd *cmd, uint16_t id, const void *v,
		    size_t len)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	if (!a || a->len < len)
		return;
	memcpy((void *)(uintptr_t)a->data, v, len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

/* WQ_CREATE: the core's answers are attributes of their own. */
static void create_wq_method(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *wr =
		t_uv_attr(cmd, UVERBS_ATTR_CREATE_WQ_MAX_WR);
	struct ib_uverbs_attr *sge =
		t_uv_attr(cmd, UVERBS_ATTR_CREATE_WQ_MAX_SGE);
	uint32_t v = WQN;

	if (wr)
		out_ptr(cmd, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, &wr->data, 4);
	if (sge)
		out_ptr(cmd, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, &sge->data, 4);
	out_ptr(cmd, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, &v, sizeof(v));
	put_u32(cmd, sizeof(struct mlx5_ib_create_wq_resp));
}

/* A WQ of the size asked for; mlx5 says how much of its part it wrote. */
static int create_wq(struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_ex_create_wq *req = cmd->core_in;
	struct ib_uverbs_ex_create_wq_resp *r = cmd->core_out;

	if (cmd->is_ioctl) {
		create_wq_method(cmd);
		return 0;
	}
	if (cmd->core_out_len >= sizeof(*r)) {
		r->max_wr = req->max_wr;
		r->max_sge = req->max_sge;
		r->wqn = WQN;
	}
	return put_u32(cmd, sizeof(struct mlx5_ib_create_wq_resp));
}

static int create_ind_tbl(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_ex_create_rwq_ind_table_resp *r = cmd->core_out;

	if (cmd->core_out_len >= sizeof(*r))
		r->ind_tbl_num = 0x900;
	return put_u32(cmd, sizeof(struct mlx5_ib_create_rwq_ind_tbl_resp));
}

/*
 * DM_ALLOC carries mlx5's own attributes: where in its page the memory
 * starts, and the page's index for the mmap offset.
 */
static int alloc_dm(struct t_uv_cmd *cmd)
{
	uint64_t start = 0x180;
	uint16_t page = 3;

	out_ptr(cmd, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start,
		sizeof(start));
	out_ptr(cmd, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &page,
		sizeof(page));
	return 0;
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	return put_u32(cmd, PDN);
}

static int create_cq(struct t_uv_cmd *cmd)
{
	return put_u32(cmd, CQN);
}

static int create_srq(struct t_uv_cmd *cmd)
{
	return put_u32(cmd, SRQN);
}

/* Driver methods. */

/* A UAR page: a handle, where to map it, how long, and its index. */
static int uar_alloc(struct t_uv_cmd *cmd)
{
	static unsigned int n;
	struct ib_uverbs_attr *h =
		t_uv_attr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	uint64_t off = UAR_MMAP_BASE + (uint64_t)n * 4096;
	uint32_t len = 4096, page = UAR_PAGE_ID + n;

	if (!h)
		return EINVAL;
	h->data = 0x700 + n++;
	out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off, sizeof(off));
	out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len, sizeof(len));
	out_ptr(cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page, sizeof(page));
	return 0;
}

static int mlx5_method(struct t_uv_cmd *cmd)
{
	if (cmd->object != MLX5_IB_OBJECT_UAR)
		return -1;
	if (cmd->method == MLX5_IB_METHOD_UAR_OBJ_ALLOC)
		return uar_alloc(cmd);
	if (cmd->method == MLX5_IB_METHOD_UAR_OBJ_DESTROY)
		return 0;
	return -1;
}

/* The direct verbs (libmlx5.so.1, mlx5dv.h of rdma-core 44). */
#define DV_LIB "libmlx5.so.1"

/* struct mlx5dv_context: 152 bytes, comp_mask at 16. */
#define DV_CONTEXT_SIZE 152
#define DV_CONTEXT_COMP_MASK 16
/* Every MLX5DV_CONTEXT_MASK_* bit the 44 provider knows. */
#define DV_CONTEXT_MASK_ALL 0x3fffull

/* mlx5dv_obj: seven {in, out} pairs; which are taken, by MLX5DV_OBJ_*. */
enum { DV_OBJ_QP = 1 << 0, DV_OBJ_CQ = 1 << 1, DV_OBJ_PD = 1 << 6 };
struct dv_pair {
	void *in, *out;
};
struct dv_obj {
	struct dv_pair qp, cq, srq, rwq, dm, ah, pd;
};

/* struct mlx5dv_qp (96 bytes), with comp_mask at 56; mlx5dv_cq (48). */
#define DV_QP_SIZE 96
#define DV_QP_COMP_MASK 56
#define DV_QP_MASK_ALL 0x7ull
#define DV_CQ_SIZE 48
#define DV_PD_SIZE 16

static void dv_query_device(struct ibv_context *ctx)
{
	int (*query)(struct ibv_context *, void *) =
		t_dv_sym(DV_LIB, "mlx5dv_query_device");
	uint64_t mask = DV_CONTEXT_MASK_ALL;
	uint8_t attr[DV_CONTEXT_SIZE] __attribute__((aligned(8)));

	if (!query) {
		t_uv_note("mlx5dv_query_device missing");
		return;
	}
	memset(attr, 0, sizeof(attr));
	memcpy(attr + DV_CONTEXT_COMP_MASK, &mask, sizeof(mask));
	t_uv_note("mlx5dv_query_device ret=%d", query(ctx, attr));
	t_uv_dump("mlx5dv_context", attr, sizeof(attr));
}

static void dv_init_obj(const struct t_objs *o)
{
	int (*init)(struct dv_obj *, uint64_t) =
		t_dv_sym(DV_LIB, "mlx5dv_init_obj");
	uint8_t qp[DV_QP_SIZE] __attribute__((aligned(8)));
	uint8_t cq[DV_CQ_SIZE] __attribute__((aligned(8)));
	uint8_t pd[DV_PD_SIZE] __attribute__((aligned(8)));
	uint64_t mask = DV_QP_MASK_ALL;
	struct dv_obj obj = { .qp = { o->qp, qp },
			      .cq = { o->cq, cq },
			      .pd = { o->pd, pd } };

	if (!init || !o->qp || !o->cq || !o->pd)
		return;
	memset(qp, 0, sizeof(qp));
	memset(cq, 0, sizeof(cq));
	memset(pd, 0, sizeof(pd));
	memcpy(qp + DV_QP_COMP_MASK, &mask, sizeof(mask));
	t_uv_note("mlx5dv_init_obj ret=%d",
		  init(&obj, DV_OBJ_QP | DV_OBJ_CQ | DV_OBJ_PD));
	t_uv_dump("mlx5dv_qp", qp, sizeof(qp));
	t_uv_dump("mlx5dv_cq", cq, sizeof(cq));
	t_uv_dump("mlx5dv_pd", pd, sizeof(pd));
}

/* More of mlx5's paths through the core, each on objects of its own. */

/* struct mlx5dv_cq_init_attr, 16 bytes. */
struct dv_cq_attr {
	uint64_t comp_mask;
	uint8_t cqe_comp_res_format;
	uint32_t flags;
	uint16_t cqe_size;
};
#define DV_CQ_MASK_COMPRESSED_CQE 1
#define DV_CQE_RES_FORMAT_HASH 1

/*
 * A CQ resized, and one made by mlx5dv_create_cq (CQE compression) on a
 * completion channel: the core's verbs_init_cq() must count the CQ on
 * the channel, which cannot go before it.
 */
static void more_cqs(const struct t_objs *o)
{
	struct ibv_cq_ex *(*create)(
		struct ibv_context *, struct ibv_cq_init_attr_ex *,
		struct dv_cq_attr *) = t_dv_sym(DV_LIB, "mlx5dv_create_cq");
	struct dv_cq_attr dv = { .comp_mask = DV_CQ_MASK_COMPRESSED_CQE,
				 .cqe_comp_res_format =
					 DV_CQE_RES_FORMAT_HASH };
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 8, .wc_flags = IBV_WC_EX_WITH_BYTE_LEN
	};
	struct ibv_cq_ex *cq;

	int ret;

	if (o->cq) {
		ret = ibv_resize_cq(o->cq, 100);
		t_uv_note("resize_cq ret=%d cqe=%d", ret, o->cq->cqe);
	}
	attr.channel = ibv_create_comp_channel(o->ctx);
	if (!create || !attr.channel)
		return;
	cq = create(o->ctx, &attr, &dv);
	t_uv_note("mlx5dv_create_cq %s cqe=%d", cq ? "ok" : "failed",
		  cq ? cq->cqe : errno);
	t_uv_note("destroy_comp_channel with a CQ ret=%d",
		  ibv_destroy_comp_channel(attr.channel));
	if (cq)
		t_uv_note("destroy_cq ret=%d",
			  ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
	t_uv_note("destroy_comp_channel ret=%d",
		  ibv_destroy_comp_channel(attr.channel));
}

/* A memory window, and what the kernel says of the RC QP and its ECE. */
static void more_qp(const struct t_objs *o)
{
	struct ibv_ece ece;
	struct ibv_mw *mw;
	int ret;

	mw = ibv_alloc_mw(o->pd, IBV_MW_TYPE_2);
	t_uv_note("alloc_mw %s", mw ? "ok" : "failed");
	if (mw)
		t_uv_note("dealloc_mw ret=%d", ibv_dealloc_mw(mw));
	if (!o->qp)
		return;
	t_query_qp(o->qp);
	memset(&ece, 0, sizeof(ece));
	ret = ibv_query_ece(o->qp, &ece);
	t_uv_note("query_ece ret=%d vendor=%x options=%x", ret, ece.vendor_id,
		  ece.options);
}

/*
 * A thread domain gets a doorbell of its own; a QP on a parent domain
 * (the core's helpers make it) rings that one.
 */
static void more_td(const struct t_objs *o)
{
	struct ibv_td_init_attr ta = { 0 };
	struct ibv_parent_domain_init_attr pa = { .pd = o->pd };
	struct ibv_qp_init_attr init = t_qp_init(o->cq, IBV_QPT_RC, 4, 1);
	struct ibv_pd *parent;
	struct ibv_qp *qp;

	pa.td = ibv_alloc_td(o->ctx, &ta);
	t_uv_note("alloc_td %s", pa.td ? "ok" : "failed");
	if (!pa.td)
		return;
	parent = ibv_alloc_parent_domain(o->ctx, &pa);
	t_uv_note("alloc_parent_domain %s", parent ? "ok" : "failed");
	if (parent) {
		qp = ibv_create_qp(parent, &init);
		t_uv_note("create_qp(parent) %s", qp ? "ok" : "failed");
		if (qp)
			t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
		t_uv_note("dealloc_pd(parent) ret=%d", ibv_dealloc_pd(parent));
	}
	t_uv_note("dealloc_td ret=%d", ibv_dealloc_td(pa.td));
}

/* A flow on the RSS QP: TCP over IPv4 to 192.168.2.1, port 80. */
static void rss_flow(struct ibv_qp *qp)
{
	static const struct ibv_flow_eth_filter ipv4 = { .ether_type = 0x0008 },
						all = { .ether_type = 0xffff };
	struct ibv_flow *flow = t_tcp_flow(qp, &ipv4, &all, 0x0102a8c0);

	t_uv_note("create_flow %s", flow ? "ok" : "failed");
	if (flow)
		t_uv_note("destroy_flow ret=%d", ibv_destroy_flow(flow));
}

/* A receive WQ, an indirection table of it, and an RSS QP over that. */
static void more_rss(const struct t_objs *o)
{
	static uint8_t key[T_RSS_KEY_LEN] = { 0x2c, 0xc6, 0x81, 0xd1, 0x5b,
					      0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
					      0x83, 0x19, 0xdb, 0x1a, 0x3e,
					      0x94, 0x6b, 0x9e, 0x38, 0xd9 };
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ,
				       .max_wr = 16,
				       .max_sge = 1,
				       .pd = o->pd,
				       .cq = o->cq };
	struct ibv_wq_attr mod = { .attr_mask = IBV_WQ_ATTR_STATE,
				   .wq_state = IBV_WQS_RDY };
	struct ibv_rwq_ind_table_init_attr ta = { .log_ind_tbl_size = 0 };
	struct ibv_rwq_ind_table *tbl;
	struct ibv_qp *qp;
	struct ibv_wq *wq = ibv_create_wq(o->ctx, &wa);
	int ret;

	if (!t_note_made("create_wq", wq))
		return;
	t_uv_note("wq wq_num=%x max_wr=%u max_sge=%u", wq->wq_num, wa.max_wr,
		  wa.max_sge);
	ret = ibv_modify_wq(wq, &mod);
	t_uv_note("modify_wq ret=%d state=%d", ret, wq->state);
	ta.ind_tbl = &wq;
	tbl = ibv_create_rwq_ind_table(o->ctx, &ta);
	if (t_note_made("create_rwq_ind_table", tbl)) {
		t_uv_note("ind_tbl_num=%x", tbl->ind_tbl_num);
		qp = t_rss_qp(o->ctx, o->pd, tbl, key);
		if (t_note_made("create_qp(rss)", qp)) {
			rss_flow(qp);
			t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
		}
		t_uv_note("destroy_rwq_ind_table ret=%d",
			  ibv_destroy_rwq_ind_table(tbl));
	}
	t_uv_note("destroy_wq ret=%d", ibv_destroy_wq(wq));
}

/* An XRC domain, an XRC SRQ in it, and the two ends of an XRC QP. */
static void xrc_qps(const struct t_objs *o, struct ibv_xrcd *xrcd)
{
	struct ibv_qp_init_attr_ex send = {
		.send_cq = o->cq,
		.cap = { .max_send_wr = 4, .max_send_sge = 1 },
		.qp_type = IBV_QPT_XRC_SEND,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = o->pd,
	};
	struct ibv_qp_init_attr_ex recv = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = xrcd,
	};
	struct ibv_qp *qp = ibv_create_qp_ex(o->ctx, &send);

	if (t_note_made("create_qp(xrc send)", qp))
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
	qp = ibv_create_qp_ex(o->ctx, &recv);
	if (t_note_made("create_qp(xrc recv)", qp))
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
}

static void more_xrc(const struct t_objs *o)
{
	struct ibv_xrcd *xrcd = t_xrcd(o->ctx);
	struct ibv_srq *srq;
	uint32_t num = 0;
	int ret;

	if (!t_note_made("open_xrcd", xrcd))
		return;
	srq = t_xrc_srq(o, xrcd);
	if (t_note_made("create_srq(xrc)", srq)) {
		ret = ibv_get_srq_num(srq, &num);
		t_uv_note("get_srq_num ret=%d num=%x", ret, num);
		xrc_qps(o, xrcd);
		t_uv_note("destroy_srq ret=%d", ibv_destroy_srq(srq));
	}
	t_uv_note("close_xrcd ret=%d", ibv_close_xrcd(xrcd));
}

/*
 * Device memory: mapped from the command file at the page the driver
 * named, written and read there, and registered as an MR.
 */
static void more_dm(const struct t_objs *o)
{
	struct ibv_alloc_dm_attr attr = { .length = 4096 };
	uint8_t in[64], out[64];
	struct ibv_dm *dm = ibv_alloc_dm(o->ctx, &attr);
	struct ibv_mr *mr;
	int ret;

	if (!t_note_made("alloc_dm", dm))
		return;
	memset(in, 0x5a, sizeof(in));
	memset(out, 0, sizeof(out));
	ret = ibv_memcpy_to_dm(dm, 64, in, sizeof(in));
	t_uv_note("memcpy_to_dm ret=%d", ret);
	ret = ibv_memcpy_from_dm(out, dm, 64, sizeof(out));
	t_uv_note("memcpy_from_dm ret=%d same=%d", ret,
		  !memcmp(in, out, sizeof(in)));
	mr = ibv_reg_dm_mr(o->pd, dm, 0, 4096,
			   IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE);
	if (t_note_made("reg_dm_mr", mr))
		t_uv_note("dereg_mr ret=%d", ibv_dereg_mr(mr));
	t_uv_note("free_dm ret=%d", ibv_free_dm(dm));
}

static void mlx5_dv(const struct t_objs *o)
{
	dv_query_device(o->ctx);
	dv_init_obj(o);
	if (!o->pd || !o->cq)
		return;
	more_cqs(o);
	more_qp(o);
	more_td(o);
	more_rss(o);
	more_xrc(o);
	more_dm(o);
}

const struct t_persona t_persona_mlx5 = {
	.name = "mlx5",
	.ibdev = "mlx5_0",
	.driver_id = RDMA_DRIVER_MLX5,
	.vendor = 0x15b3,
	.device = 0x1017,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	/* A UD QP is no step of mlx5's: it has RC. */
	.steps = T_STEPS_ALL & ~T_STEP_UD,
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_QUERY_DEVICE] = query_device,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
		[T_V_MODIFY_QP] = modify_qp,
		[T_V_CREATE_SRQ] = create_srq,
		[T_V_CREATE_WQ] = create_wq,
		[T_V_CREATE_IND_TBL] = create_ind_tbl,
		[T_V_ALLOC_DM] = alloc_dm,
	},
	.driver.method = mlx5_method,
	.dv = mlx5_dv,
};
