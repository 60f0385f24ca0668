/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The library's one netlink helper, for the RDMA family (rdma_nl.c). */
#ifndef IBV_RDMA_NL_H
#define IBV_RDMA_NL_H

struct nl_sock;
struct nl_msg;

typedef int (*rdma_nl_cb)(struct nl_msg *msg, void *arg);

struct nl_sock *rdma_nl_open(void);
/* rdma_nl_open(), with replies awaited 5 s at most. */
struct nl_sock *rdma_nl_open_bounded(void);
void rdma_nl_close(struct nl_sock *nl);
int rdma_nl_request(struct nl_sock *nl, struct nl_msg *msg, rdma_nl_cb cb,
		    void *arg);
struct nl_msg *rdma_nl_msg(int cmd, int flags);

#endif
