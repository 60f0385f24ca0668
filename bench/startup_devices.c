// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * startup_devices: every device's name and node GUID, one a line, for
 * the static rows of bench/startup. The file is compiled against our
 * headers and linked with our libibverbs.a, and compiled against
 * rdma-core 44's and linked with Debian's archives, each time with the
 * providers RDMA_STATIC_PROVIDERS names: the same source on both sides,
 * so that the count tells the libraries apart. It does only what a
 * listing needs; its output is compared across the two builds.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>

#include <infiniband/verbs.h>

int main(void)
{
	struct ibv_device **list;
	int n;

	/* With RDMA_STATIC_PROVIDERS set, verbs.h names the providers here. */
	list = ibv_get_device_list(&n);
	if (!list) {
		perror("startup_devices: ibv_get_device_list");
		return 1;
	}
	printf("%d device(s)\n", n);
	for (int i = 0; i < n; i++)
		printf("%s %016" PRIx64 "\n", ibv_get_device_name(list[i]),
		       be64toh(ibv_get_device_guid(list[i])));
	ibv_free_device_list(list);
	return 0;
}
