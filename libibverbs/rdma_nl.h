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

/*
 * Requests sent several to a send, each reply matched to its request by
 * sequence number: @cb sees each valid reply with the @arg of its
 * request, then @done learns that the request was answered (@err 0) or
 * refused (@err the kernel's errno). A request that gets neither lost
 * its reply (a full receive buffer); its caller asks again alone.
 */
#define RDMA_NL_BATCH 32

typedef void (*rdma_nl_done)(void *arg, int err);
struct rdma_nl_batch;

struct rdma_nl_batch *rdma_nl_batch_new(struct nl_sock *nl, rdma_nl_cb cb,
					rdma_nl_done done);
/* Queues @msg (consumed), running the batch first when it is full. */
int rdma_nl_batch_add(struct rdma_nl_batch *b, struct nl_msg *msg, void *arg);
/* Sends the queued requests and takes every reply they get. */
int rdma_nl_batch_run(struct rdma_nl_batch *b);
void rdma_nl_batch_free(struct rdma_nl_batch *b);

#endif
