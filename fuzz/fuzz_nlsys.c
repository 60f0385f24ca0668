// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The system attributes reply (RDMA_NLDEV_CMD_SYS_GET) that tells the
 * fork tracker whether the kernel copies pinned pages at fork
 * (fork_cow.c).
 */
#include <stdint.h>

#include "libibverbs/fork.h"
#include "nl_msgs.h"

static void sys_reply(struct nl_msg *msg, void *arg)
{
	(void)fork_cow_sys_reply(msg, arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t cof = 0;

	fuzz_nl_each(data, size, sys_reply, &cof);
	return 0;
}
