// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requests to the kernel's RDMA netlink family (NLDEV), through libnl: the
 * library's one netlink helper. Discovery (discover.c) dumps the devices
 * and asks for each one's character device; the fork tracker
 * (fork_cow.c) reads a system attribute. Callers parse the replies;
 * this file only opens sockets, builds requests, runs the exchange (one
 * request at a time through libnl, or a batch of them per send) and
 * turns libnl's errors into errno values.
 *
 * A kernel without the RDMA core refuses the socket itself, which is how
 * the library learns it must fall back to sysfs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
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
 * A batch's requests in one send, and a slot per reply: a GET_CHARDEV
 * request takes some 40 bytes, its reply or error under 100. A reply too
 * large for its slot arrives cut (MSG_TRUNC) and counts as lost.
 */
#define BATCH_BYTES 4096
#define SLOT_BYTES 512

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

/*
 * RDMA_NL_BATCH requests at most: libnl sizes the socket's receive
 * buffer to 64 KiB, and the kernel charges each reply about 1 KiB of it
 * (its buffer's true size), so the replies of one batch fit with room
 * to spare. Should some be dropped all the same, the socket reports
 * ENOBUFS once and the others still arrive.
 */
struct rdma_nl_batch {
	struct nl_sock *nl;
	rdma_nl_cb cb;
	rdma_nl_done done;
	unsigned int n;
	uint32_t first_seq; /* the requests' numbers follow each other */
	size_t len;
	void *arg[RDMA_NL_BATCH];
	bool answered[RDMA_NL_BATCH];
	uint8_t req[BATCH_BYTES] __attribute__((aligned(NLMSG_ALIGNTO)));
	uint8_t slot[RDMA_NL_BATCH][SLOT_BYTES]
		__attribute__((aligned(NLMSG_ALIGNTO)));
};

struct rdma_nl_batch *rdma_nl_batch_new(struct nl_sock *nl, rdma_nl_cb cb,
					rdma_nl_done done)
{
	struct rdma_nl_batch *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	b->nl = nl;
	b->cb = cb;
	b->done = done;
	b->n = 0;
	b->len = 0;
	memset(b->answered, 0, sizeof(b->answered));
	return b;
}

void rdma_nl_batch_free(struct rdma_nl_batch *b)
{
	free(b);
}

int rdma_nl_batch_add(struct rdma_nl_batch *b, struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h;
	size_t len;

	if (!msg)
		return ENOMEM;
	/* The socket's port, the next sequence number, NLM_F_REQUEST. */
	nl_complete_msg(b->nl, msg);
	h = nlmsg_hdr(msg);
	len = NLMSG_ALIGN(h->nlmsg_len);
	if (b->n == RDMA_NL_BATCH || b->len + len > sizeof(b->req) ||
	    (b->n && h->nlmsg_seq != b->first_seq + b->n))
		rdma_nl_batch_run(b);
	if (len > sizeof(b->req)) {
		nlmsg_free(msg);
		return EMSGSIZE;
	}
	if (!b->n)
		b->first_seq = h->nlmsg_seq;
	memset(b->req + b->len, 0, len);
	memcpy(b->req + b->len, h, h->nlmsg_len);
	b->len += len;
	b->arg[b->n++] = arg;
	nlmsg_free(msg);
	return 0;
}

/* One reply to request @i: its data to the callback, or its error. */
static bool take_reply(struct rdma_nl_batch *b, unsigned int i,
		       struct nlmsghdr *h)
{
	struct nl_msg *msg;
	int err = 0;

	if (h->nlmsg_type == NLMSG_ERROR) {
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
			return false;
		err = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
	} else {
		msg = nlmsg_convert(h);
		if (!msg)
			return false; /* asked again alone */
		b->cb(msg, b->arg[i]);
		nlmsg_free(msg);
	}
	b->answered[i] = true;
	b->done(b->arg[i], err);
	return true;
}

/* Whether a whole message @h starts the @len bytes left of a datagram. */
static bool whole_message(const struct nlmsghdr *h, size_t len)
{
	return len >= sizeof(*h) && h->nlmsg_len >= sizeof(*h) &&
	       h->nlmsg_len <= len;
}

/*
 * The messages of one datagram from the kernel, matched to requests by
 * sequence number; returns how many requests they answered. Anything
 * else (another sender, a number not of this batch, a second answer, a
 * cut datagram) is dropped.
 */
static unsigned int take_datagram(struct rdma_nl_batch *b,
				  const struct mmsghdr *mm)
{
	const struct sockaddr_nl *from = mm->msg_hdr.msg_name;
	struct nlmsghdr *h = mm->msg_hdr.msg_iov->iov_base;
	size_t len = mm->msg_len, step;
	unsigned int n = 0, i;

	if ((mm->msg_hdr.msg_flags & MSG_TRUNC) ||
	    mm->msg_hdr.msg_namelen < sizeof(*from) || from->nl_pid)
		return 0;
	/* NLMSG_OK() compares a __u32 with an int: clang's -Wsign-compare. */
	for (; whole_message(h, len);
	     len -= step, h = (struct nlmsghdr *)((char *)h + step)) {
		step = NLMSG_ALIGN(h->nlmsg_len);
		if (step > len)
			step = len;
		i = h->nlmsg_seq - b->first_seq;
		if (i >= b->n || b->answered[i] ||
		    h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_NOOP)
			continue;
		n += take_reply(b, i, h);
	}
	return n;
}

/*
 * Takes the replies: the kernel has answered every request by the time
 * the send returns, so the first receive waits and the others only
 * drain what is queued. ENOBUFS means some reply was dropped; the rest
 * are still read.
 */
static void collect(struct rdma_nl_batch *b, int fd)
{
	struct sockaddr_nl from[RDMA_NL_BATCH];
	struct mmsghdr mm[RDMA_NL_BATCH];
	struct iovec iov[RDMA_NL_BATCH];
	unsigned int left = b->n, i;
	int flags = MSG_WAITFORONE, got;

	for (i = 0; i < b->n; i++) {
		iov[i] = (struct iovec){ b->slot[i], SLOT_BYTES };
		mm[i].msg_hdr =
			(struct msghdr){ .msg_iov = &iov[i], .msg_iovlen = 1 };
	}
	while (left) {
		for (i = 0; i < left; i++) {
			mm[i].msg_hdr.msg_name = &from[i];
			mm[i].msg_hdr.msg_namelen = sizeof(from[i]);
		}
		got = recvmmsg(fd, mm, left, flags, NULL);
		if (got < 0 && errno == EINTR)
			continue;
		flags = MSG_DONTWAIT;
		if (got < 0 && errno == ENOBUFS)
			continue;
		if (got <= 0)
			return;
		for (i = 0; i < (unsigned int)got; i++)
			left -= take_datagram(b, &mm[i]);
	}
}

int rdma_nl_batch_run(struct rdma_nl_batch *b)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov = { b->req, b->len };
	struct msghdr mh = { .msg_name = &kernel,
			     .msg_namelen = sizeof(kernel),
			     .msg_iov = &iov,
			     .msg_iovlen = 1 };
	int fd = nl_socket_get_fd(b->nl), ret = 0;

	if (!b->n)
		return 0;
	if (sendmsg(fd, &mh, 0) < 0)
		ret = errno;
	else
		collect(b, fd);
	b->n = 0;
	b->len = 0;
	memset(b->answered, 0, sizeof(b->answered));
	return ret;
}
