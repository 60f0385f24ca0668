/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fork tracker's question to the kernel (fork_cow.c), which fork.c
 * asks before it turns the tracker on. Library-internal; fork.h includes
 * it for the tracker's callers and the fuzzer of the reply.
 */
#ifndef IBV_FORK_COW_H
#define IBV_FORK_COW_H

#include <stdbool.h>

/*
 * Whether the kernel copies pinned pages into fork() children, as it
 * says over RDMA netlink (Linux 5.13 and later); false when it does not
 * say. Asked once per process (fork_cow.c).
 */
bool verbs_fork_copy_on_fork(void);
/* The kernel's reply to that question; @arg a uint8_t (fuzz/ feeds it). */
struct nl_msg;
int fork_cow_sys_reply(struct nl_msg *msg, void *arg);

#endif
