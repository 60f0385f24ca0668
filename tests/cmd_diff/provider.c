// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test provider "tdrv" of driver_cmd_diff_test: it claims the fake
 * device tdrv0 by name and opens it the way a hardware provider does,
 * GET_CONTEXT carrying driver data both ways. It registers itself with
 * whichever libibverbs the program runs on.
 */
#include <stdlib.h>

#include "t_diff.h"

struct tdrv_get_context {
	struct ibv_get_context ibv_cmd;
	struct tdrv_drv_in drv;
};
struct tdrv_get_context_resp {
	struct ib_uverbs_get_context_resp ibv_resp;
	struct tdrv_drv_out drv;
};

struct tdrv_context {
	struct verbs_context vctx;
	struct tdrv_get_context_resp resp; /* what GET_CONTEXT answered */
};

size_t tdrv_context_tail(void)
{
	return sizeof(struct tdrv_context) -
	       offsetof(struct tdrv_context, vctx.context);
}

void tdrv_free_context(struct ibv_context *ibctx)
{
	struct tdrv_context *ctx =
		container_of(ibctx, struct tdrv_context, vctx.context);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

/*
 * The kernel driver behind tdrv0: it knows one method of its own
 * namespace, which fills its output attribute with the pattern; the core
 * commands' driver parts get the fake's pattern (answer is NULL).
 */
static int tdrv_method(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *out = t_uv_attr(cmd, TDRV_ATTR_OUT);

	if (cmd->object != TDRV_OBJECT || cmd->method != TDRV_METHOD)
		return -1;
	if (!out || !t_uv_attr(cmd, TDRV_ATTR_IN))
		return EINVAL;
	t_uv_pattern((void *)(uintptr_t)out->data, out->len, 0x7d);
	out->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return 0;
}

const struct t_uv_driver tdrv_kernel = {
	.name = "tdrv",
	.method = tdrv_method,
};

/* As a hardware provider's: the core's command, no driver data. */
static int tdrv_query_port(struct ibv_context *ctx, uint8_t port,
			   struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(ctx, port, attr, &cmd, sizeof(cmd));
}

static const struct verbs_context_ops tdrv_ops = {
	.free_context = tdrv_free_context,
	.query_port = tdrv_query_port,
};

static struct verbs_context *tdrv_alloc_context(struct ibv_device *ibdev,
						int cmd_fd, void *private_data)
{
	struct tdrv_get_context cmd = { .drv = DRV_IN_INIT };
	struct tdrv_context *ctx;
	int ret;

	(void)private_data;
	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_MLX5);
	if (!ctx)
		return NULL;
	t_uv_name("get_context_resp", &ctx->resp, sizeof(ctx->resp));
	ret = ibv_cmd_get_context(&ctx->vctx, &cmd.ibv_cmd, sizeof(cmd), NULL,
				  &ctx->resp.ibv_resp, sizeof(ctx->resp));
	t_uv_note("get_context ret=%d async_fd=%d num_comp_vectors=%d", ret,
		  ctx->vctx.context.async_fd,
		  ctx->vctx.context.num_comp_vectors);
	t_uv_dump("get_context_resp", &ctx->resp, sizeof(ctx->resp));
	if (ret) {
		verbs_uninit_context(&ctx->vctx);
		free(ctx);
		return NULL;
	}
	verbs_set_ops(&ctx->vctx, &tdrv_ops);
	return &ctx->vctx;
}

static struct verbs_device *tdrv_alloc_device(struct verbs_sysfs_dev *sd)
{
	(void)sd;
	return calloc(1, sizeof(struct verbs_device));
}

static void tdrv_uninit_device(struct verbs_device *vdev)
{
	free(vdev);
}

static const struct verbs_match_ent tdrv_match[] = {
	VERBS_NAME_MATCH("tdrv", NULL),
	{},
};

static const struct verbs_device_ops tdrv_dev_ops = {
	.name = "tdrv",
	.match_min_abi_version = 1,
	.match_max_abi_version = 1,
	.match_table = tdrv_match,
	.alloc_device = tdrv_alloc_device,
	.uninit_device = tdrv_uninit_device,
	.alloc_context = tdrv_alloc_context,
};

static __attribute__((constructor)) void tdrv_register(void)
{
	verbs_register_driver(&tdrv_dev_ops);
}
