// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Discovery's netlink replies (discover.c): the device dump
 * (RDMA_NLDEV_CMD_GET, one message a device) and the character device
 * lookup (GET_CHARDEV). Every message of an input goes to both parsers,
 * each with the state a scan gives it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>

#include "libibverbs/discover.h"
#include "nl_msgs.h"

static void dump_reply(struct nl_msg *msg, void *arg)
{
	(void)nl_dev_cb(msg, arg);
}

/* A device the dump named, as fill_netlink() has filled it in. */
static void chardev_reply(struct nl_msg *msg, void *arg)
{
	struct verbs_sysfs_dev *sd = calloc(1, sizeof(*sd));

	if (!sd)
		return;
	strcpy(sd->ibdev_name, "mlx5_0");
	(void)nl_chardev_cb(msg, sd);
	free(sd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scan scan = { .dirfd = -1, .ibfd = -1, .devfd = -1 };

	fuzz_nl_each(data, size, dump_reply, &scan);
	scan_release(&scan);
	fuzz_nl_each(data, size, chardev_reply, NULL);
	return 0;
}
