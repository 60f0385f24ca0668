// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers of the VM tier's programs (t_vm.h). */
#include <string.h>

#include "t_vm.h"

struct ibv_context *t_vm_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	if (!list)
		return NULL;
	for (int i = 0; list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}
