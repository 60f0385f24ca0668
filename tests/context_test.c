// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Opening and importing devices (context.c): a descriptor that is no
 * uverbs file is refused, and a provider that leaves the async event
 * file to the library gets one, on open and on import (t_device.h, with
 * a provider of this binary on a fake sysfs). Links the static archive,
 * where the hidden seam hook is reachable.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_device.h"
#include "t_scenario.h"
#include "t_util.h"

static void test_import_bad_fd(void **state)
{
	char path[600];
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/ports/1/pkeys/0", t_root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_null(ibv_import_device(fd));
	assert_int_equal(errno, EINVAL);
	close(fd);
	assert_null(ibv_import_device(-1));
	assert_int_equal(errno, EINVAL);
}

/*
 * Opening and importing a real (fake-sysfs) device with a provider of
 * this binary that leaves the async event file to the library, as the
 * ioctl GET_CONTEXT path does. Each runs in a child with its own library
 * state (t_scenario()); the node of tdev0 is /dev/null (1:3).
 */
struct td_context {
	struct verbs_context vctx;
};

static void td_free_context(struct ibv_context *ibctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ibctx);

	verbs_uninit_context(vctx);
	free(vctx);
}

static const struct verbs_context_ops td_ops = {
	.free_context = td_free_context,
};

static struct verbs_context *td_alloc_context(struct ibv_device *ibdev,
					      int cmd_fd, void *private_data)
{
	struct td_context *ctx;

	(void)private_data;
	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   T_DRIVER_ID);
	if (ctx)
		verbs_set_ops(&ctx->vctx, &td_ops);
	return ctx ? &ctx->vctx : NULL;
}

static struct verbs_device *td_alloc_device(struct verbs_sysfs_dev *sd)
{
	(void)sd;
	return calloc(1, sizeof(struct verbs_device));
}

static void td_uninit_device(struct verbs_device *vdev)
{
	free(vdev);
}

static struct verbs_context *td_alloc_context_import(struct ibv_device *ibdev,
						     int cmd_fd)
{
	return td_alloc_context(ibdev, cmd_fd, NULL);
}

static const struct verbs_match_ent td_match[] = {
	VERBS_NAME_MATCH("tdev", NULL),
	{},
};

static const struct verbs_device_ops td_dev_ops = {
	.name = "tdev",
	.match_min_abi_version = 1,
	.match_max_abi_version = 6,
	.match_table = td_match,
	.alloc_context = td_alloc_context,
	.import_context = td_alloc_context_import,
	.alloc_device = td_alloc_device,
	.uninit_device = td_uninit_device,
};
PROVIDER_DRIVER(tdev, td_dev_ops);

/*
 * tdev0 on /dev/null in a fake sysfs, opened; NULL (skip) without
 * namespaces. @list and @dev are the list it is on and the device.
 */
static struct ibv_context *td_open(struct ibv_device ***list,
				   struct ibv_device **dev)
{
	struct ibv_context *ctx;
	char *root = t_fake_kernel(false);

	if (!root)
		return NULL;
	t_sysfs_add(root, &((struct t_dev){ .ibdev = "tdev0",
					    .uverbs = 0,
					    .maj = 1,
					    .min = 3,
					    .abi = 1,
					    .node_type = 1 }));
	free(root); /* SYSFS_PATH holds its own copy */
	t_device_kernel_reset();
	t_kernel_install();
	*list = ibv_get_device_list(NULL);
	*dev = t_find(*list, "tdev0");
	if (!*dev)
		return NULL;
	ctx = ibv_open_device(*dev);
	T_CHECK(ctx);
	return ctx;
}

/* The library allocates the async file; without it the open fails. */
static int sc_open_async_fd(void *arg)
{
	struct ibv_device **list, *dev;
	struct ibv_context *ctx;

	(void)arg;
	ctx = td_open(&list, &dev);
	if (!ctx)
		return T_SKIP;
	T_CHECK(tk.ioctls == 1 && tk.log[0].is_ioctl);
	T_CHECK(t_get16(tk.log[0].bytes + IOCTL_HDR_OBJECT_ID) ==
		UVERBS_OBJECT_ASYNC_EVENT);
	T_CHECK(ctx->async_fd == fk.fds[0]);
	/* The compat slots old binaries call. */
	T_CHECK(ctx->ops._compat_query_device == ibv_query_device);
	T_CHECK(verbs_get_ctx(ctx)->query_port != NULL);
	T_CHECK(ibv_close_device(ctx) == 0);
	tk.no_ioctl = true;
	errno = 0;
	T_CHECK(!ibv_open_device(dev));
	T_CHECK(errno == ENOTTY);
	ibv_free_device_list(list);
	return 0;
}

/* Import: the device by its node, a context marked imported, async fd. */
static int sc_import(void *arg)
{
	struct ibv_device **list, *dev;
	struct ibv_context *ctx, *imp;

	(void)arg;
	ctx = td_open(&list, &dev);
	if (!ctx)
		return T_SKIP;
	imp = ibv_import_device(dup(ctx->cmd_fd));
	T_CHECK(imp);
	T_CHECK(imp->device == dev);
	T_CHECK(imp->async_fd == fk.fds[1]);
	T_CHECK(imp->ops._compat_query_device == ibv_query_device);
	T_CHECK(ibv_close_device(imp) == 0);
	/* A character device no RDMA device has. */
	errno = 0;
	T_CHECK(!ibv_import_device(open("/dev/zero", O_RDONLY | O_CLOEXEC)));
	T_CHECK(errno == ENODEV);
	T_CHECK(ibv_close_device(ctx) == 0);
	ibv_free_device_list(list);
	return 0;
}

static void test_open_async_fd(void **state)
{
	(void)state;
	t_scenario(sc_open_async_fd, NULL);
}

static void test_import(void **state)
{
	(void)state;
	t_scenario(sc_import, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_import_bad_fd),
		cmocka_unit_test(test_open_async_fd),
		cmocka_unit_test(test_import),
	};

	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
