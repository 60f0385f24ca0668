// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake RDMA netlink (see t_rdma_nl.h). A fake socket is one end of
 * an AF_UNIX SOCK_SEQPACKET pair, which keeps datagram boundaries as
 * netlink does: a request sent on it is answered at once into a buffer
 * of the socket's, and the replies reach the other end of the pair a
 * datagram at a time, as the kernel's socket buffers carry them (see
 * queue_part()). What libnl checks of the socket itself (the bound port
 * from getsockname(), the sender's address on every message) is made
 * up to look like the kernel's.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rdma/rdma_netlink.h>

#include "t_rdma_nl.h"

#define T_NL_MAX_SOCKS 8
#define T_NL_MAX_DEVS 65536
#define T_NL_MAX_RES 32

/*
 * The kernel's first part of a dump fills a page less the socket buffer's
 * own bookkeeping; later parts grow to the largest buffer the reader gave
 * recvmsg(), up to 32 KiB less that bookkeeping (4 KiB pages, x86-64).
 */
#define T_NL_FIRST_PART 3776
#define T_NL_MAX_PART 32448

/* Messages built, not yet queued on the pair: out.buf[off, len). */
struct reply {
	uint8_t *buf;
	size_t len, cap, off;
};

static bool enabled;
static struct t_nl_dev *devs;
static unsigned int ndevs, devs_cap;
static int sys_cof = T_NL_SYS_UNKNOWN;
static struct t_nl_res res[T_NL_MAX_RES];
static unsigned int nres;
static unsigned int requests[RDMA_NLDEV_NUM_OPS];
static const void *last_recv_buf;
static unsigned int recv_moves;
static unsigned int sends;
static unsigned int lose_after, lose_count; /* of GET_CHARDEV replies */

static struct fake_sock {
	int fd, peer; /* -1: free */
	struct sockaddr_nl local;
	struct reply out;
	size_t max_recv; /* the largest buffer a recvmsg() gave */
	unsigned int queued; /* datagrams on the pair, unread */
	bool overrun; /* a reply was dropped: ENOBUFS, once */
} socks[T_NL_MAX_SOCKS] = { [0 ... T_NL_MAX_SOCKS - 1] = { .fd = -1,
							   .peer = -1 } };

void t_nl_enable(void)
{
	enabled = true;
}

void t_nl_set_copy_on_fork(int cof)
{
	sys_cof = cof;
}

void t_nl_add_res(const struct t_nl_res *r)
{
	if (nres == T_NL_MAX_RES)
		abort();
	res[nres++] = *r;
}

void t_nl_add(const struct t_nl_dev *dev)
{
	if (ndevs == devs_cap) {
		devs_cap = devs_cap ? devs_cap * 2 : 8;
		if (devs_cap > T_NL_MAX_DEVS)
			abort();
		devs = realloc(devs, devs_cap * sizeof(*devs));
		if (!devs)
			abort();
	}
	devs[ndevs++] = *dev;
}

unsigned int t_nl_requests(uint16_t cmd)
{
	return cmd < RDMA_NLDEV_NUM_OPS ? requests[cmd] : 0;
}

unsigned int t_nl_recv_moves(void)
{
	return recv_moves;
}

unsigned int t_nl_sends(void)
{
	return sends;
}

void t_nl_lose_chardev_replies(unsigned int after, unsigned int count)
{
	lose_after = after;
	lose_count = count;
}

static int find_sock(int fd)
{
	for (int i = 0; i < T_NL_MAX_SOCKS; i++)
		if (fd >= 0 && socks[i].fd == fd)
			return i;
	return -1;
}

/* Building replies. */

static void put(struct reply *r, const void *data, size_t len)
{
	size_t need = r->len + NLMSG_ALIGN(len);

	if (need > r->cap) {
		r->cap = need > 2 * r->cap ? need + 4096 : 2 * r->cap;
		r->buf = realloc(r->buf, r->cap);
		if (!r->buf)
			abort();
	}
	memcpy(r->buf + r->len, data, len);
	memset(r->buf + r->len + len, 0, NLMSG_ALIGN(len) - len);
	r->len = need;
}

static void attr(struct reply *r, uint16_t type, const void *data, size_t len)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	put(r, &a, sizeof(a));
	put(r, data, len);
}

static void attr_u8(struct reply *r, uint16_t type, uint8_t v)
{
	attr(r, type, &v, sizeof(v));
}

static void attr_u32(struct reply *r, uint16_t type, uint32_t v)
{
	attr(r, type, &v, sizeof(v));
}

static void attr_u64(struct reply *r, uint16_t type, uint64_t v)
{
	attr(r, type, &v, sizeof(v));
}

static void attr_str(struct reply *r, uint16_t type, const char *s)
{
	attr(r, type, s, strlen(s) + 1);
}

/* A message header now; its length is fixed by end_msg(). */
static size_t begin_msg(struct reply *r, const struct nlmsghdr *req,
			uint16_t type, uint16_t flags)
{
	struct nlmsghdr h = {
		.nlmsg_type = type,
		.nlmsg_flags = flags,
		.nlmsg_seq = req->nlmsg_seq,
		.nlmsg_pid = req->nlmsg_pid,
	};
	size_t at = r->len;

	put(r, &h, sizeof(h));
	return at;
}

static void end_msg(struct reply *r, size_t at)
{
	((struct nlmsghdr *)(r->buf + at))->nlmsg_len = r->len - at;
}

static void error_msg(struct reply *r, const struct nlmsghdr *req, int err)
{
	size_t at = begin_msg(r, req, NLMSG_ERROR, 0);
	struct nlmsgerr e = { .error = -err, .msg = *req };

	put(r, &e, sizeof(e));
	end_msg(r, at);
}

/* What a kernel sends of every device, in a dump's order. */
static void dev_attrs(struct reply *r, const struct t_nl_dev *d)
{
	attr_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	attr_str(r, RDMA_NLDEV_ATTR_DEV_NAME, d->name);
	attr_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, d->ports);
	attr_u64(r, RDMA_NLDEV_ATTR_CAP_FLAGS, 0);
	attr_u64(r, RDMA_NLDEV_ATTR_NODE_GUID, d->node_guid);
	attr_u64(r, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, d->node_guid);
	attr_u8(r, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, d->node_type);
	attr_str(r, RDMA_NLDEV_ATTR_DEV_PROTOCOL,
		 d->node_type == RDMA_NODE_RNIC ? "iw" : "ib");
}

static void dump_devices(struct reply *r, const struct nlmsghdr *req)
{
	for (unsigned int i = 0; i < ndevs; i++) {
		size_t at = begin_msg(r, req, req->nlmsg_type, NLM_F_MULTI);

		dev_attrs(r, &devs[i]);
		end_msg(r, at);
	}
	end_msg(r, begin_msg(r, req, NLMSG_DONE, NLM_F_MULTI));
}

/* Opens a nested attribute; close_nest() fixes its length. */
static size_t open_nest(struct reply *r, uint16_t type)
{
	struct nlattr a = { .nla_type = type | NLA_F_NESTED };
	size_t at = r->len;

	put(r, &a, sizeof(a));
	return at;
}

static void close_nest(struct reply *r, size_t at)
{
	((struct nlattr *)(r->buf + at))->nla_len = r->len - at;
}

/* Each resource command: its table and entry attributes, its id's. */
static const struct {
	uint32_t cmd;
	uint16_t table, entry, id;
} res_kinds[] = {
	{ RDMA_NLDEV_CMD_RES_PD_GET, RDMA_NLDEV_ATTR_RES_PD,
	  RDMA_NLDEV_ATTR_RES_PD_ENTRY, RDMA_NLDEV_ATTR_RES_PDN },
	{ RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_ATTR_RES_CQ,
	  RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RDMA_NLDEV_ATTR_RES_CQN },
	{ RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_RES_QP,
	  RDMA_NLDEV_ATTR_RES_QP_ENTRY, RDMA_NLDEV_ATTR_RES_LQPN },
	{ RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_ATTR_RES_MR,
	  RDMA_NLDEV_ATTR_RES_MR_ENTRY, RDMA_NLDEV_ATTR_RES_MRN },
	{ RDMA_NLDEV_CMD_RES_SRQ_GET, RDMA_NLDEV_ATTR_RES_SRQ,
	  RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, RDMA_NLDEV_ATTR_RES_SRQN },
};

/* An SRQ's QPs as the kernel lists them: one QP, then a range. */
static void srq_qps(struct reply *r, const struct t_nl_res *e)
{
	size_t list = open_nest(r, RDMA_NLDEV_ATTR_RES_QP), one;

	one = open_nest(r, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	attr_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, e->qpn_lo);
	close_nest(r, one);
	if (e->qpn_hi > e->qpn_lo) {
		one = open_nest(r, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
		attr_u32(r, RDMA_NLDEV_ATTR_MIN_RANGE, e->qpn_lo + 1);
		attr_u32(r, RDMA_NLDEV_ATTR_MAX_RANGE, e->qpn_hi);
		close_nest(r, one);
	}
	close_nest(r, list);
}

/* A resource dump of one device: one message with every entry. */
static void dump_res(struct reply *r, const struct nlmsghdr *req,
		     unsigned int kind, uint32_t dev)
{
	size_t at = begin_msg(r, req, req->nlmsg_type, NLM_F_MULTI), table;

	attr_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	table = open_nest(r, res_kinds[kind].table);
	for (unsigned int i = 0; i < nres; i++) {
		const struct t_nl_res *e = &res[i];
		size_t ent;

		if (e->cmd != res_kinds[kind].cmd || e->dev != dev)
			continue;
		ent = open_nest(r, res_kinds[kind].entry);
		attr_u32(r, res_kinds[kind].id, e->id);
		attr_u32(r, RDMA_NLDEV_ATTR_RES_PID, e->pid);
		if (e->pdn >= 0)
			attr_u32(r, RDMA_NLDEV_ATTR_RES_PDN, (uint32_t)e->pdn);
		if (e->usecnt)
			attr_u64(r, RDMA_NLDEV_ATTR_RES_USECNT, e->usecnt);
		if (e->cqe)
			attr_u32(r, RDMA_NLDEV_ATTR_RES_CQE, e->cqe);
		if (e->qpn_lo)
			srq_qps(r, e);
		close_nest(r, ent);
	}
	close_nest(r, table);
	end_msg(r, at);
	end_msg(r, begin_msg(r, req, NLMSG_DONE, NLM_F_MULTI));
}

/* The attribute @type of a request, or NULL. */
static const struct nlattr *req_attr(const struct nlmsghdr *req, uint16_t type)
{
	const uint8_t *p = NLMSG_DATA(req),
		      *end = (const uint8_t *)req + req->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/* The kernel's encoding of a dev_t in 64 bits (huge_encode_dev). */
static uint64_t encode_dev(unsigned int maj, unsigned int min)
{
	return (min & 0xff) | ((uint64_t)maj << 8) |
	       ((uint64_t)(min & ~0xffu) << 12);
}

/*
 * The device of kernel index @index, or NULL. Devices added in the order
 * of their indexes from 1 are found at once: a bench asks for each of
 * thousands, and the fake's own cost is not what it measures.
 */
static const struct t_nl_dev *find_dev(uint32_t index)
{
	if (index >= 1 && index <= ndevs && devs[index - 1].index == index)
		return &devs[index - 1];
	for (unsigned int i = 0; i < ndevs; i++)
		if (devs[i].index == index)
			return &devs[i];
	return NULL;
}

static void get_chardev(struct reply *r, const struct nlmsghdr *req)
{
	const struct nlattr *idx = req_attr(req, RDMA_NLDEV_ATTR_DEV_INDEX);
	const struct nlattr *type = req_attr(req, RDMA_NLDEV_ATTR_CHARDEV_TYPE);
	const struct t_nl_dev *d;
	size_t at;

	d = idx ? find_dev(*(const uint32_t *)(idx + 1)) : NULL;
	if (d && d->no_chardev)
		d = NULL;
	/* The kernel's nldev answers EINVAL for an index it does not have. */
	if (!d || !type || strcmp((const char *)(type + 1), "uverbs")) {
		error_msg(r, req, d ? EOPNOTSUPP : EINVAL);
		return;
	}
	at = begin_msg(r, req, req->nlmsg_type, 0);
	attr_u64(r, RDMA_NLDEV_ATTR_CHARDEV, encode_dev(d->maj, d->min));
	attr_u64(r, RDMA_NLDEV_ATTR_CHARDEV_ABI, d->abi);
	attr_str(r, RDMA_NLDEV_ATTR_CHARDEV_NAME, d->chardev);
	attr_u32(r, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, d->driver_id);
	end_msg(r, at);
}

/* The system attributes: shared network namespaces, and copy-on-fork. */
static void sys_get(struct reply *r, const struct nlmsghdr *req)
{
	size_t at;

	if (sys_cof == T_NL_SYS_UNKNOWN) {
		error_msg(r, req, EOPNOTSUPP);
		return;
	}
	at = begin_msg(r, req, req->nlmsg_type, 0);
	attr_u8(r, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
	if (sys_cof != T_NL_SYS_NO_COF_ATTR)
		attr_u8(r, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, (uint8_t)sys_cof);
	end_msg(r, at);
}

/* A resource dump of a device (its index required); false if not one. */
static bool res_request(struct reply *r, const struct nlmsghdr *req)
{
	const struct nlattr *idx = req_attr(req, RDMA_NLDEV_ATTR_DEV_INDEX);

	for (unsigned int k = 0; k < sizeof(res_kinds) / sizeof(res_kinds[0]);
	     k++) {
		if (req->nlmsg_type !=
			    RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, res_kinds[k].cmd) ||
		    !(req->nlmsg_flags & NLM_F_DUMP))
			continue;
		if (!idx)
			error_msg(r, req, EINVAL);
		else
			dump_res(r, req, k, *(const uint32_t *)(idx + 1));
		return true;
	}
	return false;
}

static void count_request(const struct nlmsghdr *req)
{
	if (RDMA_NL_GET_CLIENT(req->nlmsg_type) == RDMA_NL_NLDEV &&
	    RDMA_NL_GET_OP(req->nlmsg_type) < RDMA_NLDEV_NUM_OPS)
		requests[RDMA_NL_GET_OP(req->nlmsg_type)]++;
}

/*
 * Whether to drop the reply to this GET_CHARDEV, as the kernel does when
 * the reader's receive buffer is full (t_nl_lose_chardev_replies()).
 */
static bool lose_reply(void)
{
	if (lose_after) {
		lose_after--;
		return false;
	}
	if (!lose_count)
		return false;
	lose_count--;
	return true;
}

static void chardev_or_loss(int i, const struct nlmsghdr *req)
{
	size_t before = socks[i].out.len;

	get_chardev(&socks[i].out, req);
	if (lose_reply()) {
		socks[i].out.len = before;
		socks[i].overrun = true;
	}
}

/* Builds the answer to @req at the end of socket @i's replies. */
static void answer(int i, const struct nlmsghdr *req)
{
	struct reply *r = &socks[i].out;

	count_request(req);
	if (req->nlmsg_type ==
		    RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET) &&
	    (req->nlmsg_flags & NLM_F_DUMP))
		dump_devices(r, req);
	else if (req->nlmsg_type ==
		 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV))
		chardev_or_loss(i, req);
	else if (req->nlmsg_type ==
		 RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET))
		sys_get(r, req);
	else if (!res_request(r, req))
		error_msg(r, req, EOPNOTSUPP);
}

/* A message of a dump that more of the same dump follows. */
static bool dump_goes_on(const struct nlmsghdr *h)
{
	return (h->nlmsg_flags & NLM_F_MULTI) && h->nlmsg_type != NLMSG_DONE;
}

/*
 * Queues the next datagram of socket @i's built replies on its pair. As
 * in the kernel, a reply is a datagram of its own, and a dump comes in
 * parts, each as many whole messages as fit its size (T_NL_FIRST_PART,
 * or the reader's largest buffer); the next part is made when the
 * reader has taken the last (see recvmsg()), so the pair never holds
 * more than a part or two and a dump of any size never blocks.
 */
static size_t part_end(int i, size_t off)
{
	struct reply *r = &socks[i].out;
	size_t size = socks[i].max_recv, end = off;
	const struct nlmsghdr *h, *next;

	size = size < T_NL_FIRST_PART ? T_NL_FIRST_PART : size;
	for (;;) {
		h = (const void *)(r->buf + end);
		end += NLMSG_ALIGN(h->nlmsg_len);
		if (!dump_goes_on(h) || end == r->len)
			return end;
		next = (const void *)(r->buf + end);
		if (end - off + next->nlmsg_len > size)
			return end;
	}
}

static void queue_part(int i)
{
	struct reply *r = &socks[i].out;
	size_t end;

	if (r->off == r->len)
		return;
	end = part_end(i, r->off);
	if (syscall(SYS_sendto, socks[i].peer, r->buf + r->off, end - r->off,
		    MSG_DONTWAIT, NULL, 0) < 0)
		abort();
	socks[i].queued++;
	r->off = end;
	if (r->off == r->len)
		r->off = r->len = 0;
}

/* A reply of its own, not a part of a dump. */
static bool plain_at(const struct reply *r, size_t off)
{
	return off < r->len &&
	       !(((const struct nlmsghdr *)(r->buf + off))->nlmsg_flags &
		 NLM_F_MULTI);
}

#define T_NL_BURST 64

/*
 * Queues the next datagram, or, when it is a plain reply, the plain
 * replies that follow it too, up to T_NL_BURST, in one system call: the
 * kernel answers every request of a send before the send returns, so
 * their replies wait together.
 */
static void queue_next(int i)
{
	struct reply *r = &socks[i].out;
	struct mmsghdr mm[T_NL_BURST];
	struct iovec iov[T_NL_BURST];
	unsigned int n = 0;
	size_t off = r->off;

	for (; n < T_NL_BURST && plain_at(r, off); n++) {
		iov[n].iov_base = r->buf + off;
		iov[n].iov_len = NLMSG_ALIGN(
			((const struct nlmsghdr *)(r->buf + off))->nlmsg_len);
		mm[n] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[n],
						       .msg_iovlen = 1 } };
		off += iov[n].iov_len;
	}
	if (!n) {
		queue_part(i);
		return;
	}
	if (syscall(SYS_sendmmsg, socks[i].peer, mm, n, MSG_DONTWAIT) != n)
		abort();
	socks[i].queued += n;
	r->off = off;
	if (r->off == r->len)
		r->off = r->len = 0;
}

/* A datagram the reader took: the next ones are queued after the last. */
static void taken(int i, unsigned int n)
{
	socks[i].queued -= n < socks[i].queued ? n : socks[i].queued;
	if (!socks[i].queued)
		queue_next(i);
}

/* What the kernel reports once after dropping a reply. */
static bool overrun(int i)
{
	if (!socks[i].overrun)
		return false;
	socks[i].overrun = false;
	errno = ENOBUFS;
	return true;
}

/* The sender's address a netlink reader sees: the kernel's, port 0. */
static void from_kernel(struct msghdr *msg, socklen_t room)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (msg->msg_name && room >= sizeof(kernel))
		memcpy(msg->msg_name, &kernel, sizeof(kernel));
	msg->msg_namelen = sizeof(kernel);
	msg->msg_controllen = 0;
}

/* The interposed calls. */

int socket(int domain, int type, int protocol)
{
	int pair[2], i;

	if (!enabled || domain != AF_NETLINK || protocol != NETLINK_RDMA)
		return syscall(SYS_socket, domain, type, protocol);
	for (i = 0; i < T_NL_MAX_SOCKS && socks[i].fd >= 0; i++)
		;
	if (i == T_NL_MAX_SOCKS) {
		errno = EMFILE;
		return -1;
	}
	if (syscall(SYS_socketpair, AF_UNIX,
		    SOCK_SEQPACKET | (type & (SOCK_CLOEXEC | SOCK_NONBLOCK)), 0,
		    pair))
		return -1;
	socks[i].fd = pair[0];
	socks[i].peer = pair[1];
	socks[i].local = (struct sockaddr_nl){ .nl_family = AF_NETLINK };
	return pair[0];
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	int i = find_sock(fd);

	if (i < 0)
		return syscall(SYS_bind, fd, addr, len);
	if (len < sizeof(struct sockaddr_nl) || addr->sa_family != AF_NETLINK) {
		errno = EINVAL;
		return -1;
	}
	socks[i].local = *(const struct sockaddr_nl *)addr;
	if (!socks[i].local.nl_pid)
		socks[i].local.nl_pid = getpid();
	return 0;
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	int i = find_sock(fd);

	if (i < 0)
		return syscall(SYS_getsockname, fd, addr, len);
	if (*len >= sizeof(socks[i].local))
		memcpy(addr, &socks[i].local, sizeof(socks[i].local));
	*len = sizeof(socks[i].local);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	if (find_sock(fd) < 0)
		return syscall(SYS_setsockopt, fd, level, name, val, len);
	return 0;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	uint8_t buf[16384];
	size_t len = 0;
	int i = find_sock(fd);

	if (i < 0)
		return syscall(SYS_sendmsg, fd, msg, flags);
	for (size_t v = 0; v < msg->msg_iovlen; v++) {
		if (len + msg->msg_iov[v].iov_len > sizeof(buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		memcpy(buf + len, msg->msg_iov[v].iov_base,
		       msg->msg_iov[v].iov_len);
		len += msg->msg_iov[v].iov_len;
	}
	for (size_t off = 0; off + NLMSG_HDRLEN <= len;) {
		const struct nlmsghdr *h = (const void *)(buf + off);

		if (h->nlmsg_len < NLMSG_HDRLEN || off + h->nlmsg_len > len)
			break;
		answer(i, h);
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
	sends++;
	if (!socks[i].queued)
		queue_next(i);
	return len;
}

/* The reader's buffer, as the kernel sizes later parts of a dump by it. */
static void note_recv_size(int i, const struct msghdr *msg)
{
	size_t len = 0;

	for (size_t v = 0; v < msg->msg_iovlen; v++)
		len += msg->msg_iov[v].iov_len;
	if (len > T_NL_MAX_PART)
		len = T_NL_MAX_PART;
	if (len > socks[i].max_recv)
		socks[i].max_recv = len;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct msghdr m;
	ssize_t n;
	int i = find_sock(fd);

	if (i < 0)
		return syscall(SYS_recvmsg, fd, msg, flags);
	m = *msg;
	m.msg_name = NULL;
	m.msg_namelen = 0;
	note_recv_size(i, msg);
	if (msg->msg_iovlen && msg->msg_iov[0].iov_base != last_recv_buf) {
		last_recv_buf = msg->msg_iov[0].iov_base;
		recv_moves++;
	}
	if (overrun(i))
		return -1;
	/* Nothing queued is nothing the kernel would ever send. */
	n = syscall(SYS_recvmsg, fd, &m, flags | MSG_DONTWAIT);
	if (n < 0)
		return n;
	if (!(flags & MSG_PEEK))
		taken(i, 1);
	msg->msg_flags = m.msg_flags;
	from_kernel(msg, msg->msg_namelen);
	return n;
}

int recvmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags,
	     struct timespec *timeout)
{
	socklen_t room[T_NL_BURST];
	int i = find_sock(fd), n;

	if (i < 0 || vlen > T_NL_BURST)
		return syscall(SYS_recvmmsg, fd, vec, vlen, flags, timeout);
	if (overrun(i))
		return -1;
	for (unsigned int k = 0; k < vlen; k++) {
		room[k] = vec[k].msg_hdr.msg_namelen;
		note_recv_size(i, &vec[k].msg_hdr);
	}
	n = syscall(SYS_recvmmsg, fd, vec, vlen, flags | MSG_DONTWAIT, NULL);
	if (n <= 0)
		return n;
	if (!(flags & MSG_PEEK))
		taken(i, (unsigned int)n);
	for (int k = 0; k < n; k++)
		from_kernel(&vec[k].msg_hdr, room[k]);
	return n;
}

int close(int fd)
{
	int i = find_sock(fd);

	if (i >= 0) {
		syscall(SYS_close, socks[i].peer);
		free(socks[i].out.buf);
		socks[i] = (struct fake_sock){ .fd = -1, .peer = -1 };
	}
	return syscall(SYS_close, fd);
}
