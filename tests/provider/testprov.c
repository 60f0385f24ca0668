// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A provider for tests. It claims fake devices named tprov* (by name),
 * devices whose modalias starts with "tprov:", and the kernel's rxe and siw
 * devices (by driver id), and opens them without sending any command to
 * the kernel; its one kernel object is the steering flow. It is built against our private header only, so loading it
 * into Debian's libibverbs also checks that header's ABI.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <infiniband/driver.h>

/*
 * Read by tests through dlsym() to check device lifetimes. Devices are
 * released by whichever thread drops the last reference, hence atomics.
 */
_Atomic int testprov_live_devices;
_Atomic int testprov_live_contexts;
/*
 * Whether the bytes in front of the last context's struct verbs_context
 * were still untouched when it was freed: a core that laid the struct out
 * for another provider ABI would write there (tests/pabi_test.c).
 */
_Atomic int testprov_guard_intact;

struct tp_device {
	struct verbs_device vdev;
};

struct tp_context {
	uint64_t guard[8]; /* zero, as calloc() left it */
	struct verbs_context vctx;
};

static const struct verbs_match_ent tp_match[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_RXE),
	VERBS_DRIVER_ID(RDMA_DRIVER_SIW),
	/* Sysfs discovery knows no driver id; these names stand in for it. */
	VERBS_NAME_MATCH("rxe", NULL),
	VERBS_NAME_MATCH("siw", NULL),
	VERBS_NAME_MATCH("tprov", NULL),
	VERBS_MODALIAS_MATCH("tprov:*", NULL),
	{},
};

/* Lets tests exercise the match_device hook: it vetoes "*veto*". */
static bool tp_match_device(struct verbs_sysfs_dev *sd)
{
	if (strstr(sd->ibdev_name, "veto"))
		return false;
	return sd->match != NULL;
}

static int tp_query_port(struct ibv_context *ctx, uint8_t port,
			 struct ibv_port_attr *attr)
{
	if (port != 1)
		return EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->state = IBV_PORT_ACTIVE;
	attr->max_mtu = IBV_MTU_4096;
	attr->active_mtu = IBV_MTU_1024;
	attr->gid_tbl_len = 16;
	attr->lid = 0x1234;
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

/* A recognisable value proves the op reached the public slot. */
static int tp_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	return 4242;
}

/*
 * Steering flows through the core's commands, as a NIC's provider makes
 * them: neither rxe nor siw has flows, and a provider inside a test
 * program would not do, for alloc_fail_flow_test spares the program's
 * own allocations. The flow's QP need only name the kernel's QP.
 */
static struct ibv_flow *tp_create_flow(struct ibv_qp *qp,
				       struct ibv_flow_attr *attr)
{
	struct ibv_flow *flow = calloc(1, sizeof(*flow));
	int ret;

	if (!flow)
		return NULL;
	ret = ibv_cmd_create_flow(qp, flow, attr, NULL, 0);
	if (ret) {
		free(flow);
		errno = ret;
		return NULL;
	}
	return flow;
}

/* The flow stays ours to retry when the kernel keeps it. */
static int tp_destroy_flow(struct ibv_flow *flow)
{
	int ret = ibv_cmd_destroy_flow(flow);

	if (!ret)
		free(flow);
	return ret;
}

static void tp_free_context(struct ibv_context *ibctx)
{
	struct tp_context *ctx =
		container_of(ibctx, struct tp_context, vctx.context);
	static const uint64_t zero[8];

	verbs_uninit_context(&ctx->vctx);
	testprov_guard_intact = !memcmp(ctx->guard, zero, sizeof(zero));
	free(ctx);
	testprov_live_contexts--;
}

static const struct verbs_context_ops tp_ctx_ops = {
	.create_flow = tp_create_flow,
	.destroy_flow = tp_destroy_flow,
	.free_context = tp_free_context,
	.poll_cq = tp_poll_cq,
	.query_port = tp_query_port,
};

static struct verbs_context *tp_alloc_context(struct ibv_device *ibdev,
					      int cmd_fd, void *private_data)
{
	struct tp_context *ctx;

	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;
	/* The core wants an async event file; an eventfd stands in for it. */
	ctx->vctx.context.async_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ctx->vctx.context.async_fd < 0) {
		verbs_uninit_context(&ctx->vctx);
		free(ctx);
		return NULL;
	}
	ctx->vctx.context.num_comp_vectors = 1;
	verbs_set_ops(&ctx->vctx, &tp_ctx_ops);
	testprov_live_contexts++;
	return &ctx->vctx;
}

static struct verbs_device *tp_alloc_device(struct verbs_sysfs_dev *sd)
{
	struct tp_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	testprov_live_devices++;
	return &dev->vdev;
}

static void tp_uninit_device(struct verbs_device *vdev)
{
	free(container_of(vdev, struct tp_device, vdev));
	testprov_live_devices--;
}

static const struct verbs_device_ops tp_dev_ops = {
	.name = "testprov",
	.match_min_abi_version = 1,
	.match_max_abi_version = 6,
	.match_table = tp_match,
	.match_device = tp_match_device,
	.alloc_device = tp_alloc_device,
	.uninit_device = tp_uninit_device,
	.alloc_context = tp_alloc_context,
};

PROVIDER_DRIVER(testprov, tp_dev_ops);
