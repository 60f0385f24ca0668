// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmlx4, Mellanox ConnectX-3 and earlier.
 *
 * mlx4 keeps its queues in the process's memory and tells the kernel
 * where (buffer and doorbell addresses in each create's request); the
 * kernel answers with object numbers (<rdma/mlx4-abi.h>). The context
 * maps the UAR doorbell page (offset 0), the BlueFlame page (one page
 * up, as the device has BlueFlame registers) and, as the device reports
 * its core clock's place, the clock page (three pages up). An AH is the
 * provider's own, no kernel object.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include <rdma/mlx4-abi.h>

#include "t_drive.h"

/* The core clock's offset in the clock page, as the device reports it. */
#define CLOCK_OFFSET 0x1f0

/* Each CQ's buffer, by handle, where the device writes its entries. */
static struct {
	uint32_t handle;
	uint64_t buf;
} cqs[8];
static unsigned int ncqs;

static int create_cq(struct t_uv_cmd *cmd)
{
	struct mlx4_ib_create_cq_resp r = { .cqn = 0x81 + ncqs };
	struct mlx4_ib_create_cq req;

	if (cmd->drv_in_len >= sizeof(req) && ncqs < 8) {
		memcpy(&req, cmd->drv_in, sizeof(req));
		cqs[ncqs].handle =
			t_new_handle(cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		cqs[ncqs++].buf = req.buf_addr;
	}
	return t_drv_answer(cmd, &r, sizeof(r));
}

/*
 * Resizing, the device ends the old buffer with a resize entry, which
 * the provider copies entries up to: the first entry of a CQ nothing
 * was polled from. mlx4 reads a 64-byte entry's second half, whose last
 * byte holds the opcode.
 */
static int resize_cq(struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_resize_cq *req = cmd->core_in;

	for (unsigned int i = 0; i < ncqs; i++)
		if (cqs[i].handle == req->cq_handle)
			((uint8_t *)(uintptr_t)cqs[i].buf)[63] = 0x16;
	return 0;
}

static int get_context(struct t_uv_cmd *cmd)
{
	struct mlx4_ib_alloc_ucontext_resp r = {
		.dev_caps = 1, /* MLX4_USER_DEV_CAP_LARGE_CQE */
		.qp_tab_size = 1 << 17,
		.bf_reg_size = 512,
		.bf_regs_per_page = 8,
		.cqe_size = 64,
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int query_device(struct t_uv_cmd *cmd)
{
	struct mlx4_uverbs_ex_query_device_resp r = {
		.comp_mask = 1, /* the core clock offset is valid */
		.response_length = sizeof(r),
		.hca_core_clock_offset = 3 * 4096 + CLOCK_OFFSET,
		.max_inl_recv_sz = 64,
		.rss_caps = { .rx_hash_fields_mask = 0xff,
			      .rx_hash_function = 1 },
		.tso_caps = { .max_tso = 0x3ffff,
			      .supported_qpts = 1 << IBV_QPT_RAW_PACKET },
	};

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int alloc_pd(struct t_uv_cmd *cmd)
{
	struct mlx4_ib_alloc_pd_resp r = { .pdn = 0x21 };

	return t_drv_answer(cmd, &r, sizeof(r));
}

static int create_srq(struct t_uv_cmd *cmd)
{
	struct mlx4_ib_create_srq_resp r = { .srqn = 0x41 };

	return t_drv_answer(cmd, &r, sizeof(r));
}

/* The provider's own library, where its direct verbs are. */
#define DV_LIB "libmlx4.so.1"

/* mlx4dv.h's layouts, as rdma-core 44 installs them. */
struct dv_context {
	uint8_t version;
	uint32_t max_inl_recv_sz;
	uint64_t comp_mask;
};

struct dv_buf {
	void *buf;
	size_t length;
};

struct dv_wq {
	uint32_t wqe_cnt;
	int wqe_shift, offset;
};

struct dv_qp {
	uint32_t *rdb, *sdb;
	uint32_t doorbell_qpn;
	struct dv_wq sq, rq;
	struct dv_buf buf;
	uint64_t comp_mask;
	off_t uar_mmap_offset;
};

struct dv_cq {
	struct dv_buf buf;
	uint32_t cqe_cnt, cqn;
	uint32_t *set_ci_db, *arm_db;
	int arm_sn, cqe_size;
	uint64_t comp_mask;
	void *cq_uar;
};

struct dv_obj {
	struct {
		struct ibv_qp *in;
		struct dv_qp *out;
	} qp;
	struct {
		struct ibv_cq *in;
		struct dv_cq *out;
	} cq;
	void *srq[2], *rwq[2];
};

struct dv_qp_init_attr {
	uint64_t comp_mask;
	uint32_t inl_recv_sz;
};

enum {
	DV_OBJ_QP = 1 << 0,
	DV_OBJ_CQ = 1 << 1,
	DV_QP_MASK_UAR_MMAP_OFFSET = 1 << 0,
	DV_CQ_MASK_UAR = 1 << 0,
	DV_QP_INIT_ATTR_MASK_INL_RECV = 1 << 0,
};

static void dv_query(struct ibv_context *ctx)
{
	int (*query)(struct ibv_context *, struct dv_context *) =
		t_dv_sym(DV_LIB, "mlx4dv_query_device");
	struct dv_context attr;
	int ret;

	if (!query)
		return;
	memset(&attr, 0xff, sizeof(attr));
	ret = query(ctx, &attr);
	t_uv_note(
		"mlx4dv_query_device ret=%d version=%u max_inl_recv_sz=%u comp_mask=%llx",
		ret, attr.version, attr.max_inl_recv_sz,
		(unsigned long long)attr.comp_mask);
}

/* What the provider made of the kernel's answers, as mlx4dv shows it. */
static void dv_init_obj(const struct t_objs *o)
{
	int (*init_obj)(struct dv_obj *, uint64_t) =
		t_dv_sym(DV_LIB, "mlx4dv_init_obj");
	struct dv_qp qp = { .comp_mask = DV_QP_MASK_UAR_MMAP_OFFSET };
	struct dv_cq cq = { .comp_mask = DV_CQ_MASK_UAR };
	struct dv_obj obj = { .qp = { o->qp, &qp }, .cq = { o->cq, &cq } };
	int ret;

	if (!init_obj)
		return;
	ret = init_obj(&obj, DV_OBJ_QP | DV_OBJ_CQ);
	t_uv_note("mlx4dv_init_obj ret=%d", ret);
	if (ret)
		return;
	t_uv_note(
		"mlx4dv qp doorbell_qpn=%x sq=%u/%d/%d rq=%u/%d/%d length=%zu comp_mask=%llx uar_mmap_offset=%llx",
		qp.doorbell_qpn, qp.sq.wqe_cnt, qp.sq.wqe_shift, qp.sq.offset,
		qp.rq.wqe_cnt, qp.rq.wqe_shift, qp.rq.offset, qp.buf.length,
		(unsigned long long)qp.comp_mask,
		(unsigned long long)qp.uar_mmap_offset);
	t_uv_note(
		"mlx4dv cq cqn=%x cqe_cnt=%u cqe_size=%d arm_sn=%d length=%zu comp_mask=%llx",
		cq.cqn, cq.cqe_cnt, cq.cqe_size, cq.arm_sn, cq.buf.length,
		(unsigned long long)cq.comp_mask);
}

/* An extended QP as libmlx4 takes one: no send ops, maybe mlx4dv's. */
static void qp_ex(const struct t_objs *o, bool dv)
{
	struct ibv_qp *(*create)(struct ibv_context *,
				 struct ibv_qp_init_attr_ex *,
				 struct dv_qp_init_attr *) =
		t_dv_sym(DV_LIB, "mlx4dv_create_qp");
	struct dv_qp_init_attr dv_attr = {
		.comp_mask = DV_QP_INIT_ATTR_MASK_INL_RECV,
		.inl_recv_sz = 32,
	};
	struct ibv_qp_init_attr_ex attr =
		t_qp_init_ex(o->pd, o->cq, IBV_QPT_RC, 8, 2, 0);
	struct ibv_qp *qp;

	if (dv && !create)
		return;
	attr.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	qp = dv ? create(o->ctx, &attr, &dv_attr) :
		  ibv_create_qp_ex(o->ctx, &attr);
	if (!qp) {
		t_uv_note("%s failed",
			  dv ? "mlx4dv_create_qp" : "create_qp_ex");
		return;
	}
	t_uv_note("%s qp_num=%x cap=%u/%u/%u/%u/%u",
		  dv ? "mlx4dv_create_qp" : "create_qp_ex", qp->qp_num,
		  attr.cap.max_send_wr, attr.cap.max_recv_wr,
		  attr.cap.max_send_sge, attr.cap.max_recv_sge,
		  attr.cap.max_inline_data);
	t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(qp));
}

/* An MR's access changed in place: the core's rereg with mlx4's checks. */
static void rereg(const struct t_objs *o)
{
	static char buf[8192] __attribute__((aligned(4096)));
	struct ibv_mr *mr =
		ibv_reg_mr(o->pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);

	if (!mr) {
		t_uv_note("reg_mr failed errno=%d", errno);
		return;
	}
	t_uv_name("rereg_buf", buf, sizeof(buf));
	t_uv_note("rereg_mr ret=%d",
		  ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			       IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_READ));
	t_uv_note("dereg_mr ret=%d", ibv_dereg_mr(mr));
	t_uv_unname(buf);
}

/*
 * A steering rule of three specs on the RC QP, to one MAC and 10.0.0.2:
 * the core lays them out.
 */
static void flow(const struct t_objs *o)
{
	static const struct ibv_flow_eth_filter
		mac = { .dst_mac = { 2, 0, 0, 0, 0, 1 } },
		all = { .dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
	struct ibv_flow *f = t_tcp_flow(o->qp, &mac, &all, 0x0200000a);

	t_uv_note("create_flow %s errno=%d", f ? "ok" : "failed",
		  f ? 0 : errno);
	if (f)
		t_uv_note("destroy_flow ret=%d", ibv_destroy_flow(f));
}

/* XRC: a domain, its SRQ, a receive QP opened again, a send QP. */
static void xrc_qps(const struct t_objs *o, struct ibv_xrcd *xrcd)
{
	struct ibv_qp_init_attr_ex ra = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = xrcd,
	};
	struct ibv_qp_init_attr_ex sa = {
		.send_cq = o->cq,
		.recv_cq = o->cq,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
		.qp_type = IBV_QPT_XRC_SEND,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = o->pd,
	};
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.xrcd = xrcd,
		.qp_type = IBV_QPT_XRC_RECV,
	};
	struct ibv_qp *recv, *send, *opened = NULL;

	recv = ibv_create_qp_ex(o->ctx, &ra);
	t_uv_note("create_qp_ex(XRC_RECV) %s", recv ? "ok" : "failed");
	if (recv) {
		oa.qp_num = recv->qp_num;
		opened = ibv_open_qp(o->ctx, &oa);
		t_uv_note("open_qp %s", opened ? "ok" : "failed");
	}
	send = ibv_create_qp_ex(o->ctx, &sa);
	t_uv_note("create_qp_ex(XRC_SEND) %s", send ? "ok" : "failed");
	if (send)
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(send));
	if (opened)
		t_uv_note("destroy_qp(opened) ret=%d", ibv_destroy_qp(opened));
	if (recv)
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(recv));
}

static void xrc(const struct t_objs *o)
{
	struct ibv_xrcd *xrcd = t_xrcd(o->ctx);
	struct ibv_srq *srq;
	uint32_t srqn = 0;
	int ret;

	t_uv_note("open_xrcd %s", xrcd ? "ok" : "failed");
	if (!xrcd)
		return;
	srq = t_xrc_srq(o, xrcd);
	t_uv_note("create_srq_ex(XRC) %s", srq ? "ok" : "failed");
	if (srq) {
		ret = ibv_get_srq_num(srq, &srqn);
		t_uv_note("get_srq_num ret=%d srqn=%x", ret, srqn);
		xrc_qps(o, xrcd);
		t_uv_note("destroy_srq ret=%d", ibv_destroy_srq(srq));
	}
	t_uv_note("close_xrcd ret=%d", ibv_close_xrcd(xrcd));
}

static void mlx4_dv(const struct t_objs *o)
{
	int ret;

	dv_query(o->ctx);
	if (!o->qp)
		return;
	dv_init_obj(o);
	qp_ex(o, false);
	qp_ex(o, true);
	ret = ibv_resize_cq(o->cq, 100);
	t_uv_note("resize_cq ret=%d cqe=%d", ret, o->cq->cqe);
	rereg(o);
	flow(o);
	xrc(o);
}

/*
 * mlx4 44 hands the core its OPEN_QP request (struct ibv_open_qp) unset
 * from its stack; the core writes every field but reserved[7], which
 * goes to the kernel as the stack held it, under either core.
 */
static void mlx4_mask_core_in(const struct t_uv_cmd *cmd, uint8_t *core,
			      size_t len)
{
	size_t at = offsetof(struct ib_uverbs_open_qp, reserved);

	if (!cmd->is_ioctl && cmd->command == IB_USER_VERBS_CMD_OPEN_QP &&
	    len >= at + sizeof(((struct ib_uverbs_open_qp *)0)->reserved))
		memset(core + at, 0,
		       sizeof(((struct ib_uverbs_open_qp *)0)->reserved));
}

const struct t_persona t_persona_mlx4 = {
	.name = "mlx4",
	.ibdev = "mlx4_0",
	.driver_id = RDMA_DRIVER_MLX4,
	.vendor = 0x15b3,
	.device = 0x1003,
	.abi = 4,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_INFINIBAND,
	/*
	 * libmlx4 has no ibv_wr_*() API: the generic extended QP, which asks
	 * for send ops, is refused (EOPNOTSUPP); the persona's own verbs
	 * make one without them, and one through mlx4dv_create_qp().
	 */
	.steps = T_STEPS_ALL & ~(T_STEP_UD | T_STEP_QP_EX),
	.answers = {
		[T_V_GET_CONTEXT] = get_context,
		[T_V_QUERY_DEVICE] = query_device,
		[T_V_ALLOC_PD] = alloc_pd,
		[T_V_CREATE_CQ] = create_cq,
		[T_V_RESIZE_CQ] = resize_cq,
		[T_V_CREATE_SRQ] = create_srq,
	},
	.driver.mask_core_in = mlx4_mask_core_in,
	.dv = mlx4_dv,
};
