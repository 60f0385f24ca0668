// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A statically linked program. Built twice: with RDMA_STATIC_PROVIDERS
 * naming the test provider, which must then drive the fake devices with
 * nothing loaded at run time, and without it, which must find no device
 * even though RDMAV_DRIVERS names the provider (static builds never
 * dlopen()).
 */
#ifdef RDMA_STATIC_PROVIDERS
struct verbs_device_ops;
extern const struct verbs_device_ops verbs_provider_testprov;
#endif
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "t_util.h"

int main(void)
{
	struct ibv_device **list;
	char *root;
	int n = -1;

	if (!t_ns_enter())
		return T_SKIP;
	root = t_sysfs_new();
	t_sysfs_add(root,
		    &((struct t_dev){
			    .ibdev = "tprov0", .maj = 1, .min = 3, .abi = 1 }));
	setenv("SYSFS_PATH", root, 1);
	setenv("RDMAV_DRIVERS", t_testprov(), 1);
	list = ibv_get_device_list(&n);
	T_CHECK(list);
#ifdef RDMA_STATIC_PROVIDERS
	T_CHECK(n == 1);
	T_CHECK(!strcmp(ibv_get_device_name(list[0]), "tprov0"));
	{
		struct ibv_context *ctx = ibv_open_device(list[0]);

		T_CHECK(ctx);
		T_CHECK(ibv_close_device(ctx) == 0);
	}
#else
	T_CHECK(n == 0);
#endif
	ibv_free_device_list(list);
	t_rm_rf(root);
	free(root);
	printf("1 passed, 0 failed\n");
	return 0;
}
