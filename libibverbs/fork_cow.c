// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Whether fork() needs the tracker at all (verbs_fork_copy_on_fork()).
 * Kernels that copy pinned DMA pages into the child at fork() (Linux
 * 5.13 and later) say so in the RDMA netlink "sys" attributes; on those
 * ibv_is_fork_initialized() answers IBV_FORK_UNNEEDED, and ibv_fork_init()
 * (both in fork.c) leaves the tracker off: it would only split the
 * process's mappings and take the registered pages away from every child.
 *
 * The question goes through the library's RDMA netlink layer (rdma_nl.c),
 * like device discovery.
 */
#include <pthread.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/rdma_netlink.h>

#include <infiniband/verbs.h>

#include "driver.h"
#include "fork_cow.h"
#include "kernel-headers/kabi_netlink.h"
#include "rdma_nl.h"

static struct nla_policy sys_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = { .type = NLA_U8 },
};

int fork_cow_sys_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {};
	uint8_t *cof = arg;

	if (nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
			sys_policy))
		return NL_STOP;
	if (tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK])
		*cof = nla_get_u8(tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]);
	return NL_OK;
}

/*
 * Any failure (no RDMA netlink, an older kernel without the attribute, a
 * reply that does not parse) means "no".
 */
static bool kernel_copies_on_fork(void)
{
	struct nl_sock *nl = rdma_nl_open_bounded();
	uint8_t cof = 0;
	int ret;

	if (!nl)
		return false;
	ret = rdma_nl_request(nl, rdma_nl_msg(RDMA_NLDEV_CMD_SYS_GET, 0),
			      fork_cow_sys_reply, &cof);
	rdma_nl_close(nl);
	return !ret && cof;
}

static bool copy_on_fork;

static void query_copy_on_fork(void)
{
	copy_on_fork = kernel_copies_on_fork();
}

/* The kernel is asked once per process; its answer does not change. */
bool verbs_fork_copy_on_fork(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, query_copy_on_fork);
	return copy_on_fork;
}
