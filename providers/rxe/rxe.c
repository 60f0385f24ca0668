// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rxe (Soft-RoCE) provider: registration, which devices it claims,
 * the context, and the device and port queries. Each kernel object has
 * a file of its own (rxe_pd.c, rxe_mr.c, rxe_cq.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include <infiniband/driver.h>

#include "rxe.h"

/*
 * Netlink discovery names the kernel driver; sysfs discovery only has
 * the device's name, which the kernel's rdma_rxe gives as rxe<N> unless
 * the administrator chose another with `rdma link add`.
 */
static const struct verbs_match_ent rxe_match[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_RXE),
	VERBS_NAME_MATCH("rxe", NULL),
	{},
};

static int rxe_query_device_ex(struct ibv_context *ctx,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	uint64_t fw;
	int ret;

	ret = ibv_cmd_query_device_any(ctx, input, attr, attr_size, &resp,
				       &resp_size);
	if (ret)
		return ret;
	/*
	 * The kernel gives the firmware version as one number; users see
	 * it as major.minor.sub, three 16-bit fields from bit 32 down.
	 */
	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u.%u", (unsigned int)(fw >> 32) & 0xffff,
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
	return 0;
}

static int rxe_query_port(struct ibv_context *ctx, uint8_t port,
			  struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(ctx, port, attr, &cmd, sizeof(cmd));
}

static void rxe_free_context(struct ibv_context *ibctx)
{
	struct rxe_context *ctx = to_rxectx(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops rxe_ctx_ops = {
	.alloc_mw = rxe_alloc_mw,
	.alloc_pd = rxe_alloc_pd,
	.attach_mcast = rxe_attach_mcast,
	.bind_mw = rxe_bind_mw,
	.create_ah = rxe_create_ah,
	.create_cq = rxe_create_cq,
	.create_cq_ex = rxe_create_cq_ex,
	.create_qp = rxe_create_qp,
	.create_qp_ex = rxe_create_qp_ex,
	.create_srq = rxe_create_srq,
	.dealloc_mw = rxe_dealloc_mw,
	.dealloc_pd = rxe_dealloc_pd,
	.dereg_mr = rxe_dereg_mr,
	.destroy_ah = rxe_destroy_ah,
	.destroy_cq = rxe_destroy_cq,
	.destroy_qp = rxe_destroy_qp,
	.destroy_srq = rxe_destroy_srq,
	.detach_mcast = rxe_detach_mcast,
	.free_context = rxe_free_context,
	.modify_qp = rxe_modify_qp,
	.modify_srq = rxe_modify_srq,
	.poll_cq = rxe_poll_cq,
	.post_recv = rxe_post_recv,
	.post_send = rxe_post_send,
	.post_srq_recv = rxe_post_srq_recv,
	.query_device_ex = rxe_query_device_ex,
	.query_port = rxe_query_port,
#if VERBS_PROVIDER_ABI >= 65
	/* The kernel's answer; rdma_rxe up to 7.2 has none (EOPNOTSUPP). */
	.query_port_speed = ibv_cmd_query_port_speed,
#endif
	.query_qp = rxe_query_qp,
	.query_srq = rxe_query_srq,
	.reg_mr = rxe_reg_mr,
	.req_notify_cq = rxe_req_notify_cq,
	.resize_cq = rxe_resize_cq,
};

static struct verbs_context *rxe_alloc_context(struct ibv_device *ibdev,
					       int cmd_fd, void *private_data)
{
	struct ib_uverbs_get_context_resp resp;
	struct ibv_get_context cmd;
	struct rxe_context *ctx;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_RXE);
	if (!ctx)
		return NULL;
	if (ibv_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd), NULL, &resp,
				sizeof(resp))) {
		verbs_uninit_context(&ctx->vctx);
		free(ctx);
		return NULL;
	}
	verbs_set_ops(&ctx->vctx, &rxe_ctx_ops);
	return &ctx->vctx;
}

static struct verbs_device *rxe_alloc_device(struct verbs_sysfs_dev *sd)
{
	struct rxe_device *dev = calloc(1, sizeof(*dev));

	return dev ? &dev->vdev : NULL;
}

static void rxe_uninit_device(struct verbs_device *vdev)
{
	free(to_rxedev(&vdev->device));
}

/*
 * rdma_rxe answers uverbs ABI version 2 (RXE_UVERBS_ABI_VERSION in the
 * kernel's rxe.h). Older kernels answered 1, whose structures are laid
 * out as 2's on a 64-bit machine and differ only on a 32-bit one, so a
 * 64-bit process takes both, as rdma-core's librxe does: a container on
 * an older host kernel still finds its rxe devices.
 */
static const struct verbs_device_ops rxe_dev_ops = {
	.name = "rxe",
	.match_min_abi_version = sizeof(void *) == 8 ? 1 : 2,
	.match_max_abi_version = 2,
	.match_table = rxe_match,
	.alloc_device = rxe_alloc_device,
	.uninit_device = rxe_uninit_device,
	.alloc_context = rxe_alloc_context,
};

PROVIDER_DRIVER(rxe, rxe_dev_ops);
