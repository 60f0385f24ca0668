// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * device_list_bench's fake RDMA netlink: in a child of a netlink run, the
 * test's fake (tests/t_rdma_nl.c, linked into the program, whose socket
 * calls it interposes) answers for the devices of the fake sysfs tree,
 * with what a kernel says of each: index, name, node type, GUID, ports,
 * and on GET_CHARDEV the uverbs node and the driver id.
 *
 * The fake answers in-process, so its cost is part of each library's
 * cold call; both libraries ask it the same questions (one dump, one
 * GET_CHARDEV per device), so it weighs the same on both sides.
 */
#include <stdio.h>
#include <stdlib.h>

#include <rdma/rdma_netlink.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "bench_util.h"
#include "device_list_bench.h"
#include "t_rdma_nl.h"

#define UVERBS_MAJOR 231
#define NAME_LEN 20

/*
 * No kernel driver stands behind tprovN, so its driver id is the one of
 * a driver that sets none; both libraries then match the test provider
 * by modalias or name, as in a sysfs run.
 */
void fake_netlink(unsigned int devices)
{
	char *names = malloc((size_t)devices * 2 * NAME_LEN);
	unsigned int i;

	if (!names)
		die("out of memory");
	t_nl_enable();
	for (i = 0; i < devices; i++) {
		char *ib = names + (size_t)i * 2 * NAME_LEN,
		     *uv = ib + NAME_LEN;
		struct t_nl_dev d = { .index = i + 1,
				      .name = ib,
				      .node_type = RDMA_NODE_IB_CA,
				      .node_guid = 0x0002c90300000000ull |
						   (i & 0xffff),
				      .ports = 1,
				      .maj = UVERBS_MAJOR,
				      .min = i,
				      .chardev = uv,
				      .abi = 1,
				      .driver_id = RDMA_DRIVER_UNKNOWN };

		snprintf(ib, NAME_LEN, "tprov%u", i);
		snprintf(uv, NAME_LEN, "uverbs%u", i);
		t_nl_add(&d);
	}
}

void fake_netlink_requests(unsigned int *dumps, unsigned int *chardevs)
{
	*dumps = t_nl_requests(RDMA_NLDEV_CMD_GET);
	*chardevs = t_nl_requests(RDMA_NLDEV_CMD_GET_CHARDEV);
}
