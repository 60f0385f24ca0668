// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw, the kernel's software iWARP device: registration, device match,
 * the context and the device and port queries. The objects live in one
 * file each (siw_pd.c, siw_mr.c, siw_cq.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "siw.h"
#include "siw_abi.h"

static const struct verbs_match_ent siw_match[] = {
	/* Netlink discovery names the kernel driver by its id. */
	VERBS_DRIVER_ID(RDMA_DRIVER_SIW),
	/* Sysfs discovery has no driver id: the kernel names devices siw*. */
	VERBS_NAME_MATCH("siw", NULL),
	{},
};

static int siw_query_device_ex(struct ibv_context *ctx,
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
	/* The kernel gives a raw number; the string is ours to write. */
	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u.%u", (unsigned int)(fw >> 32) & 0xffff,
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
	return 0;
}

static int siw_query_port(struct ibv_context *ctx, uint8_t port,
			  struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(ctx, port, attr, &cmd, sizeof(cmd));
}

static void siw_free_context(struct ibv_context *ibctx)
{
	struct siw_context *ctx = to_siwctx(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops siw_ctx_ops = {
	.alloc_pd = siw_alloc_pd,
	.create_cq = siw_create_cq,
	.create_qp = siw_create_qp,
	.create_srq = siw_create_srq,
	.dealloc_pd = siw_dealloc_pd,
	.dereg_mr = siw_dereg_mr,
	.destroy_cq = siw_destroy_cq,
	.destroy_qp = siw_destroy_qp,
	.destroy_srq = siw_destroy_srq,
	.free_context = siw_free_context,
	.modify_qp = siw_modify_qp,
	.modify_srq = siw_modify_srq,
	.poll_cq = siw_poll_cq,
	.post_recv = siw_post_recv,
	.post_send = siw_post_send,
	.post_srq_recv = siw_post_srq_recv,
	.query_device_ex = siw_query_device_ex,
	.query_port = siw_query_port,
#if VERBS_PROVIDER_ABI >= 65
	/* The kernel's answer; siw up to 7.2 has none (EOPNOTSUPP). */
	.query_port_speed = ibv_cmd_query_port_speed,
#endif
	.query_qp = siw_query_qp,
	.query_srq = siw_query_srq,
	.reg_mr = siw_reg_mr,
	.req_notify_cq = siw_req_notify_cq,
};

static struct verbs_context *siw_alloc_context(struct ibv_device *ibdev,
					       int cmd_fd, void *private_data)
{
	struct ibv_get_context cmd = {};
	struct siw_resp_get_context resp = {};
	struct siw_context *ctx;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_SIW);
	if (!ctx)
		return NULL;
	if (ibv_cmd_get_context(&ctx->vctx, &cmd, sizeof(cmd), NULL,
				&resp.ibv_resp, sizeof(resp))) {
		verbs_uninit_context(&ctx->vctx);
		free(ctx);
		return NULL;
	}
	ctx->dev_id = resp.drv.dev_id;
	verbs_set_ops(&ctx->vctx, &siw_ctx_ops);
	return &ctx->vctx;
}

static struct verbs_device *siw_alloc_device(struct verbs_sysfs_dev *sd)
{
	struct siw_device *dev = calloc(1, sizeof(*dev));

	return dev ? &dev->vdev : NULL;
}

static void siw_uninit_device(struct verbs_device *vdev)
{
	free(container_of(vdev, struct siw_device, vdev));
}

static const struct verbs_device_ops siw_dev_ops = {
	.name = "siw",
	.match_min_abi_version = SIW_ABI_VERSION,
	.match_max_abi_version = SIW_ABI_VERSION,
	.match_table = siw_match,
	.alloc_device = siw_alloc_device,
	.uninit_device = siw_uninit_device,
	.alloc_context = siw_alloc_context,
};

PROVIDER_DRIVER(siw, siw_dev_ops);
