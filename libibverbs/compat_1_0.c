// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Entry points kept only for binaries built against old libibverbs: the
 * @IBVERBS_1.0 versions of the pre-1.1 ABI, whose device handle differs,
 * and the empty ibv_register_driver@IBVERBS_1.1. Programs built against
 * current headers never bind to these. Shared library only: the static
 * archive carries the newest version of each symbol alone.
 */
#include <errno.h>
#include <stdlib.h>

#include "ibverbs.h"

/*
 * Providers of libibverbs 1.1 registered through this; none of those can
 * work with this library, but old libfabric binaries still import it.
 */
void ibv_register_driver_compat(const char *name, void *init_func);
void ibv_register_driver_compat(const char *name, void *init_func)
{
}
VERBS_COMPAT_VERSION(ibv_register_driver_compat, ibv_register_driver,
		     "IBVERBS_1.1");

/*
 * The device handle of libibverbs 1.0. Programs linked against that ABI
 * get arrays of these; the third pointer leads to the real device.
 */
struct ibv_device_1_0 {
	void *obsolete_sysfs_dev;
	void *obsolete_sysfs_ibdev;
	struct ibv_device *real_device;
	struct _ibv_device_ops _ops;
};

/*
 * The returned array is preceded by one hidden slot holding the current
 * list, so that freeing needs nothing but the array.
 */
struct ibv_device_1_0 **ibv_get_device_list_1_0(int *num_devices);
struct ibv_device_1_0 **ibv_get_device_list_1_0(int *num_devices)
{
	struct ibv_device_1_0 **list;
	struct ibv_device **real;
	int n = 0, i;

	real = ibv_get_device_list(&n);
	if (!real)
		return NULL;
	list = calloc(n + 2, sizeof(*list));
	if (!list)
		goto err_free_real;
	list[0] = (struct ibv_device_1_0 *)real;
	for (i = 0; i < n; i++) {
		list[i + 1] = calloc(1, sizeof(**list));
		if (!list[i + 1])
			goto err_free_list;
		list[i + 1]->real_device = real[i];
	}
	if (num_devices)
		*num_devices = n;
	return list + 1;

err_free_list:
	while (i--)
		free(list[i + 1]);
	free(list);
err_free_real:
	ibv_free_device_list(real);
	errno = ENOMEM;
	return NULL;
}
VERBS_COMPAT_VERSION(ibv_get_device_list_1_0, ibv_get_device_list,
		     "IBVERBS_1.0");

void ibv_free_device_list_1_0(struct ibv_device_1_0 **list);
void ibv_free_device_list_1_0(struct ibv_device_1_0 **list)
{
	struct ibv_device_1_0 **d;

	if (!list)
		return;
	for (d = list; *d; d++)
		free(*d);
	ibv_free_device_list((struct ibv_device **)list[-1]);
	free(list - 1);
}
VERBS_COMPAT_VERSION(ibv_free_device_list_1_0, ibv_free_device_list,
		     "IBVERBS_1.0");

const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device);
const char *ibv_get_device_name_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_name(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_name_1_0, ibv_get_device_name,
		     "IBVERBS_1.0");

__be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device);
__be64 ibv_get_device_guid_1_0(struct ibv_device_1_0 *device)
{
	return ibv_get_device_guid(device ? device->real_device : NULL);
}
VERBS_COMPAT_VERSION(ibv_get_device_guid_1_0, ibv_get_device_guid,
		     "IBVERBS_1.0");
