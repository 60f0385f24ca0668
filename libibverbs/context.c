// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Contexts: opening and closing a device, creating the core half of a
 * provider's context, and wiring the operation tables that inline
 * functions in applications call through.
 *
 * Opening goes device list (device_list.c: the device and its reference) ->
 * the uverbs node (discover.c: open_cdev) -> the provider's alloc_context,
 * which calls back into verbs_init_context() here. Every op slot holds a
 * dummy (ops.c) until the provider's verbs_set_ops() replaces it, so
 * inline verbs in applications never call through NULL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_device.h"
#include "context_priv.h"
#include "device_list.h"
#include "discover.h"
#include "driver.h"
#include "drivers.h"
#include "explain.h"
#include "export.h"
#include "log.h"
#include "ops.h"
#include "verbs_cq.h"
#include "verbs_device.h"
#include "verbs_qp.h"
#include "verbs_srq.h"

static int verbs_init_context(struct verbs_context *vctx,
			      struct ibv_device *device, int cmd_fd,
			      uint32_t driver_id,
			      const struct provider_abi *abi)
{
	struct ibv_context *ctx = &vctx->context;

	ctx->device = device;
	ctx->cmd_fd = cmd_fd;
	ctx->async_fd = -1;
	pthread_mutex_init(&ctx->mutex, NULL);
	/*
	 * The sentinel and size tell inline functions in applications that
	 * the extended slots in front of ctx exist, and how many of them.
	 */
	ctx->abi_compat = __VERBS_ABI_IS_EXTENDED;
	vctx->priv = calloc(1, sizeof(*vctx->priv));
	if (!vctx->priv)
		return ENOMEM;
	vctx->priv->driver_id = driver_id;
	vctx->priv->abi = *abi;
	/* A provider of an older provider ABI embeds fewer slots. */
	vctx->sz = sizeof(*vctx) - vctx_growth(vctx->priv->abi.pabi);
	verbs_set_ops(vctx, &verbs_dummy_ops);
	atomic_fetch_add(&verbs_get_device(device)->refcount, 1);
	return 0;
}

/**
 * _verbs_init_and_alloc_context - allocate and initialise a provider context
 * @device: the device being opened
 * @cmd_fd: its uverbs file; owned by the context from here on, also on error
 * @alloc_size: size of the provider's context structure
 * @context_offset: offset of the embedded struct verbs_context, as a pointer
 * @driver_id: the provider's RDMA_DRIVER_* value
 *
 * Returns the zeroed provider structure, or NULL with errno set.
 */
IBV_EXPORT void *_verbs_init_and_alloc_context(
	struct ibv_device *device, int cmd_fd, size_t alloc_size,
	struct verbs_context *context_offset, uint32_t driver_id)
{
	struct provider_abi abi = drivers_abi(verbs_get_device(device)->ops);
	struct verbs_context *vctx;
	void *drv;
	int ret;

	drv = calloc(1, alloc_size);
	if (!drv) {
		ret = ENOMEM;
		goto err_close;
	}
	/*
	 * @context_offset is where the provider's own layout starts; a
	 * provider of an older ABI lacks the newest slots in front of it.
	 */
	vctx = vctx_from_provider((char *)drv + (uintptr_t)context_offset,
				  abi.pabi);
	ret = verbs_init_context(vctx, device, cmd_fd, driver_id, &abi);
	if (ret)
		goto err_free;
	return drv;

err_free:
	free(drv);
err_close:
	if (cmd_fd >= 0)
		close(cmd_fd);
	errno = ret;
	return NULL;
}
VERBS_PRIVATE_EXPORT(_verbs_init_and_alloc_context);

/**
 * verbs_uninit_context - release what verbs_init_context() acquired
 * @vctx: the context; its memory stays the provider's to free
 */
IBV_EXPORT void verbs_uninit_context(struct verbs_context *vctx)
{
	struct ibv_context *ctx = &vctx->context;

	/* The provider frees the context next: nothing here is read again. */
	free(vctx->priv);
	if (ctx->cmd_fd >= 0)
		close(ctx->cmd_fd);
	if (ctx->async_fd >= 0)
		close(ctx->async_fd);
	verbs_device_put(verbs_get_device(ctx->device));
}
VERBS_PRIVATE_NEWEST(verbs_uninit_context);

/* Slots the library fills with its own functions after alloc_context. */
static void set_lib_ops(struct verbs_context *vctx)
{
	vctx->query_port = verbs_query_port;
	/* Checks wc_flags and sets the core fields around the provider's. */
	vctx->create_cq_ex = verbs_create_cq_ex;
	/* The provider's, explained when they fail (explain_qp.c, _srq.c). */
	vctx->create_qp_ex = verbs_create_qp_ex;
	vctx->create_srq_ex = verbs_create_srq_ex;
	/* Binaries from before the private op table call these two. */
	vctx->context.ops._compat_query_device = ibv_query_device;
	vctx->context.ops._compat_query_port = ibv_query_port;
	/*
	 * Applications built against libibverbs 1.1.8 find the flow ops at
	 * the positions that are placeholders today.
	 */
	vctx->ABI_placeholder1 = (void (*)(void))vctx->ibv_create_flow;
	vctx->ABI_placeholder2 = (void (*)(void))vctx->ibv_destroy_flow;
}

/* On failure the context is closed, errno kept. */
static int alloc_async_fd(struct ibv_context *ctx)
{
	int ret = cmd_alloc_async_fd(ctx);

	if (!ret)
		return 0;
	ibv_log_err("%s: no async event file: %s", ctx->device->name,
		    strerror(ret));
	explain_open_device(ctx->device, "the async event file", ret);
	ibv_close_device(ctx);
	errno = ret;
	return ret;
}

/**
 * verbs_open_device - open a device, passing data through to the provider
 * @device: a device from ibv_get_device_list()
 * @private_data: handed to the provider's alloc_context
 */
IBV_EXPORT struct ibv_context *verbs_open_device(struct ibv_device *device,
						 void *private_data)
{
	struct verbs_device *vdev;
	struct verbs_context *vctx;
	int cmd_fd = -1;

	if (!device) {
		errno = EINVAL;
		return NULL;
	}
	vdev = verbs_get_device(device);
	/* Devices without sysfs (e.g. VFIO) have no uverbs node to open. */
	if (vdev->sysfs) {
		cmd_fd = open_cdev(vdev->sysfs->sysfs_name,
				   vdev->sysfs->sysfs_cdev);
		if (cmd_fd < 0) {
			explain_open_device(device, "the uverbs node", errno);
			return NULL;
		}
	}
	vctx = vdev->ops->alloc_context(device, cmd_fd, private_data);
	if (!vctx)
		return NULL;
	vctx = vctx_from_provider(vctx, drivers_abi(vdev->ops).pabi);
	set_lib_ops(vctx);
	/*
	 * A provider that used the write() GET_CONTEXT has the async event
	 * file already; after the ioctl one the library asks for it.
	 */
	if (vdev->sysfs && vctx->context.async_fd < 0 &&
	    alloc_async_fd(&vctx->context))
		return NULL;
	return &vctx->context;
}
VERBS_PRIVATE_EXPORT(verbs_open_device);

VERBS_DEFAULT_VERSION(ibv_open_device, "IBVERBS_1.1");
struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	return verbs_open_device(device, NULL);
}

/* The device whose uverbs node is @cdev, with a list reference. */
static struct verbs_device *device_of_cdev(dev_t cdev)
{
	struct verbs_device *found = NULL, *vdev;
	struct ibv_device **list;
	int i;

	list = ibv_get_device_list(NULL);
	if (!list)
		return NULL;
	for (i = 0; list[i]; i++) {
		vdev = verbs_get_device(list[i]);
		if (vdev->sysfs && vdev->sysfs->sysfs_cdev == cdev) {
			found = vdev;
			/* The context will hold its own reference. */
			atomic_fetch_add(&found->refcount, 1);
			break;
		}
	}
	ibv_free_device_list(list);
	return found;
}

/* Imports into the provider's context; then as for an open context. */
static struct ibv_context *import_on(struct verbs_device *vdev, int cmd_fd)
{
	struct verbs_context *vctx;

	if (!vdev->ops->import_context) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	vctx = vdev->ops->import_context(&vdev->device, cmd_fd);
	if (!vctx)
		return NULL;
	vctx = vctx_from_provider(vctx, drivers_abi(vdev->ops).pabi);
	set_lib_ops(vctx);
	vctx->priv->imported = true;
	if (alloc_async_fd(&vctx->context))
		return NULL;
	return &vctx->context;
}

/**
 * ibv_import_device - a context for a command file another process opened
 * @cmd_fd: a duplicate of that context's cmd_fd; the new context owns it
 *
 * Returns the context, or NULL with errno set: EINVAL if @cmd_fd is no
 * character device, ENODEV if no known device has that node, EOPNOTSUPP
 * if its provider cannot import.
 */
IBV_EXPORT struct ibv_context *ibv_import_device(int cmd_fd)
{
	struct verbs_device *vdev;
	struct ibv_context *ctx;
	struct stat st;

	if (fstat(cmd_fd, &st) || !S_ISCHR(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	vdev = device_of_cdev(st.st_rdev);
	if (!vdev) {
		errno = ENODEV;
		return NULL;
	}
	ctx = import_on(vdev, cmd_fd);
	verbs_device_put(vdev);
	return ctx;
}

VERBS_DEFAULT_VERSION(ibv_close_device, "IBVERBS_1.1");
int ibv_close_device(struct ibv_context *context)
{
	if (!context)
		return EINVAL;
	get_ops(context)->free_context(context);
	return 0;
}
