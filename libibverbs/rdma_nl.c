// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requests to the kernel's RDMA netlink family (NLDEV), through libnl: the
 * library's one netlink helper. Discovery (discover.c) dumps the devices
 * and asks for each one's character device; the fork tracker
 * (fork_cow.c) reads a system attribute. Callers parse the replies;
 * this file only opens sockets, builds requests, runs the exchange and
 * turns libnl's errors into errno values.
 *
 * A kernel without the RDMA core refuses the socket itself, which is how
 * the library learns it must fall back to sysfs.
 */
#include <errno.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <rdma/rdma_netlink.h>

#include "driver.h"
#include "rdma_nl.h"

#define REQUEST_SIZE 256

/*
 * Returns a connected socket, or NULL with errno when RDMA netlink is
 * absent. Automatic acks and peeking are off: every request here is
 * answered by data or by an error, and replies are small.
 */
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

/*
 * The same, for a question asked on the way to something else (fork
 * safety, an explanation): the kernel always answers, but a caller is
 * never kept waiting on it for more than 5 s.
 */
struct nl_sock *rdma_nl_open_bounded(void)
{
	struct timeval tv = { .tv_sec = 5 };
	struct nl_sock *nl = rdma_nl_open();

	if (nl)
		setsockopt(nl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
			   sizeof(tv));
	return nl;
}

void rdma_nl_close(struct nl_sock *nl)
{
	if (nl)
		nl_socket_free(nl);
}

/*
 * A request of NLDEV command @cmd; the caller adds attributes. None adds
 * more than an index and a short name, so the request gets 256 bytes,
 * not libnl's default of a page: a cold listing asks once per device,
 * and libnl clears the whole buffer each time.
 */
struct nl_msg *rdma_nl_msg(int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(REQUEST_SIZE);

	if (msg && !nlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
			      RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), 0, flags)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* libnl reports its own negative codes; callers want an errno value. */
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
