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
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
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
#define UAR_PAGE_ID 0x21
/* The first of the driver's mmap entries: page offset 9 << 16. */
#define UAR_MMAP_BASE (9ull << 16 << 12)

/* Whether this kernel hands out UAR pages through its UAR object. */
static bool dyn_uar(void)
{
	return t_uv.kernel == T_UV_IOCTL;
}

static void get_context(struct t_uv_cmd *cmd)
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
	t_drv_answer(cmd, &r, sizeof(r));
}

/* Every capability non-zero, so that each shows where it lands. */
static void query_device(struct t_uv_cmd *cmd)
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
}

/*
 * The register a QP rings: the kernel picks one of the static ones; on a
 * kernel with dynamic UARs the provider names its page in the request.
 */
static void create_qp(struct t_uv_cmd *cmd)
{
	const struct mlx5_ib_create_qp *req = cmd->drv_in;
	struct mlx5_ib_create_qp_resp r = { .bfreg_index = 0 };

	if (cmd->drv_in_len >= sizeof(*req)) {
		if (!(req->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX))
			r.bfreg_index = 5;
		/* The firmware accepts the ECE options offered. */
		r.ece_options = req->ece_options;
	}
	t_drv_answer(cmd, &r, sizeof(r));
}

static void modify_qp(struct t_uv_cmd *cmd)
{
	const struct mlx5_ib_modify_qp *req = cmd->drv_in;
	struct mlx5_ib_modify_qp_resp r = { 0 };

	if (cmd->drv_in_len >= sizeof(*req))
		r.ece_options = req->ece_options;
	r.response_length = cmd->drv_out_len < sizeof(r) ? cmd->drv_out_len :
							   sizeof(r);
	t_drv_answer(cmd, &r, sizeof(r));
}

static void put_u32(struct t_uv_cmd *cmd, uint32_t v)
{
	t_drv_answer(cmd, &v, sizeof(v));
}

static int mlx5_answer(struct t_uv_cmd *cmd)
{
	switch (t_verb_of(cmd)) {
	case T_V_GET_CONTEXT:
		get_context(cmd);
		break;
	case T_V_QUERY_DEVICE:
		query_device(cmd);
		break;
	case T_V_ALLOC_PD:
		put_u32(cmd, PDN);
		break;
	case T_V_CREATE_CQ:
		put_u32(cmd, CQN);
		break;
	case T_V_CREATE_QP:
		create_qp(cmd);
		break;
	case T_V_MODIFY_QP:
		modify_qp(cmd);
		break;
	case T_V_CREATE_SRQ:
		put_u32(cmd, SRQN);
		break;
	default:
		break;
	}
	return 0;
}

/* Driver methods. */

static void out_ptr(struct t_uv_cmd *cmd, uint16_t id, const void *v,
		    size_t len)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, id);

	if (!a || a->len < len)
		return;
	memcpy((void *)(uintptr_t)a->data, v, len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

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

static void *dv_sym(const char *name)
{
	char path[4096];
	void *h;

	snprintf(path, sizeof(path), "%s/libmlx5.so.1",
		 getenv("IBV_REFERENCE_LIBDIR"));
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	return h ? dlsym(h, name) : NULL;
}

static void dv_query_device(struct ibv_context *ctx)
{
	int (*query)(struct ibv_context *, void *) =
		dv_sym("mlx5dv_query_device");
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
	int (*init)(struct dv_obj *, uint64_t) = dv_sym("mlx5dv_init_obj");
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

static void mlx5_dv(const struct t_objs *o)
{
	dv_query_device(o->ctx);
	dv_init_obj(o);
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
	.answer = mlx5_answer,
	.method = mlx5_method,
	.dv = mlx5_dv,
};
