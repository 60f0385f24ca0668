// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Requests to the kernel's RDMA netlink family (NLDEV), through libnl. */
#include <errno.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <rdma/rdma_netlink.h>

#include "ibverbs.h"

/* Returns a connected socket, or NULL with errno when RDMA netlink is absent. */
struct nl_sock *rdma_nl_open(void)
{
	struct nl_sock *nl = nl_socket_alloc();

	if (!nl) {
		errno = ENOMEM;
		return NULL;
	}
	nl_socket_disable_auto_ack(nl);
	nl_socket_disable_msg_peek(nl);
	if (nl_connect(nl, NETLINK_RDMA)) {
		nl_socket_free(nl);
		errno = EPROTONOSUPPORT;
		return NULL;
	}
	return nl;
}

void rdma_nl_close(struct nl_sock *nl)
{
	if (nl)
		nl_socket_free(nl);
}

struct nl_msg *rdma_nl_msg(int cmd, int flags)
{
	return nlmsg_alloc_simple(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), flags);
}

static int translate(int nlerr)
{
	switch (nlerr) {
	case -NLE_NOMEM:
		return ENOMEM;
	case -NLE_PERM:
		return EPERM;
	case -NLE_OPNOTSUPP:
	case -NLE_PROTO_MISMATCH:
		return EOPNOTSUPP;
	case -NLE_OBJ_NOTFOUND:
	case -NLE_NODEV:
		return ENODEV;
	default:
		return EIO;
	}
}

/*
 * Sends @msg (consumed) and feeds every valid reply to @cb until the kernel
 * finishes: one reply for a plain request, NLMSG_DONE for a dump.
 */
int rdma_nl_request(struct nl_sock *nl, struct nl_msg *msg, rdma_nl_cb cb,
		    void *arg)
{
	int ret;

	if (!msg)
		return ENOMEM;
	ret = nl_send_auto(nl, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return translate(ret);
	ret = nl_socket_modify_cb(nl, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	if (ret < 0)
		return translate(ret);
	ret = nl_recvmsgs_default(nl);
	return ret < 0 ? translate(ret) : 0;
}
