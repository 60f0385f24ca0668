/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake RDMA netlink at the system-call boundary, beside the fake uverbs
 * kernel (t_uverbs.h): once t_nl_enable() was called, a NETLINK_RDMA
 * socket the test program (a library, libnl, a provider) opens is a
 * socket pair whose far end answers as the kernel's nldev would, for
 * the devices the test added. It answers the device dump
 * (RDMA_NLDEV_CMD_GET), the character device lookup (GET_CHARDEV, with
 * the driver id providers such as siw are matched by), the system
 * attributes (SYS_GET) once t_nl_set_copy_on_fork() was called, the
 * resource dumps of PDs, CQs, QPs, MRs and SRQs of one device (what
 * `rdma resource show` reads) with the entries the test added, and
 * nothing else (EOPNOTSUPP). Its replies come as a kernel's do: a dump
 * in parts of whole messages, as many as a part holds, then NLMSG_DONE.
 *
 * Interposed: socket(), bind(), getsockname(), setsockopt(), sendmsg(),
 * recvmsg(), recvmmsg() and close(), each passing anything that is not a fake
 * socket to the real system call.
 */
#ifndef T_RDMA_NL_H
#define T_RDMA_NL_H

#include <stdbool.h>
#include <stdint.h>

struct t_nl_dev {
	uint32_t index;
	const char *name; /* ibdev name */
	uint8_t node_type; /* kernel node type, 1 = CA */
	uint64_t node_guid;
	uint32_t ports;
	unsigned int maj, min; /* of /dev/infiniband/<chardev> */
	const char *chardev; /* "uverbs0" */
	uint32_t abi;
	uint32_t driver_id; /* RDMA_DRIVER_* */
	bool no_chardev; /* GET_CHARDEV refused, as for a device just gone */
};

/* One object the kernel's resource tracking lists. */
struct t_nl_res {
	uint32_t cmd; /* RDMA_NLDEV_CMD_RES_<KIND>_GET */
	uint32_t dev; /* device index */
	uint32_t id; /* pdn, cqn, lqpn, mrn or srqn */
	uint32_t pid;
	int32_t pdn; /* -1: none */
	uint64_t usecnt; /* PD, CQ; 0: not sent */
	uint32_t cqe; /* CQ; 0: not sent */
	uint32_t qpn_lo, qpn_hi; /* SRQ: its QPs, qpn_lo..qpn_hi (0: none) */
};

/* Makes NETLINK_RDMA sockets fake from now on (in this process). */
void t_nl_enable(void);
/*
 * What SYS_GET answers: copy-on-fork 0 or 1, T_NL_SYS_NO_COF_ATTR (the
 * system attributes without it, as before Linux 5.13) or T_NL_SYS_UNKNOWN
 * (EOPNOTSUPP, the default).
 */
#define T_NL_SYS_UNKNOWN (-1)
#define T_NL_SYS_NO_COF_ATTR (-2)
void t_nl_set_copy_on_fork(int cof);

/* Adds an object to the resource dumps; at most 32. */
void t_nl_add_res(const struct t_nl_res *r);

/* Adds a device the fake reports (copied; its strings are not). */
void t_nl_add(const struct t_nl_dev *dev);

/* How many requests of NLDEV command @cmd the fake has answered. */
unsigned int t_nl_requests(uint16_t cmd);

/*
 * How many times the buffer a reader gave recvmsg() was not the one it
 * gave the time before (the first counts).
 */
unsigned int t_nl_recv_moves(void);

/* How many sendmsg() calls the fake has answered, of any request. */
unsigned int t_nl_sends(void);

/*
 * Drops @count GET_CHARDEV replies after the next @after, as the kernel
 * does when the reader's receive buffer is full: the reader's next
 * receive fails with ENOBUFS, once, and the other replies still come.
 */
void t_nl_lose_chardev_replies(unsigned int after, unsigned int count);

#endif
