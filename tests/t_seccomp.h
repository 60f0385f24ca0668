/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef T_SECCOMP_H
#define T_SECCOMP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * From now on, in this process and its children, fail system call @nr with
 * @err when the low words of arguments @a1 and @a2 equal @v1 and @v2
 * (@a2 < 0: the first condition only). Returns 0 or an errno value
 * (EOPNOTSUPP on architectures the filter does not know).
 */
int t_seccomp_deny(int nr, int a1, uint32_t v1, int a2, uint32_t v2, int err);

/*
 * Make socket(AF_NETLINK, *, NETLINK_RDMA) fail with EPROTONOSUPPORT, as on
 * a kernel without the RDMA core, so that the library falls back to sysfs.
 */
int t_hide_rdma_netlink(void);

/* Whether this process can open an RDMA netlink socket (not once hidden). */
bool t_rdma_netlink(void);

#endif
