// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A minimal client, built from an installed tree through pkg-config. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

int main(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list) {
		printf("no device list: %s\n", strerror(errno));
		return errno == ENOSYS ? 0 : 1;
	}
	printf("%d device(s)\n", n);
	ibv_free_device_list(list);
	return 0;
}
