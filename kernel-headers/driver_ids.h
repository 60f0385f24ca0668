/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * uverbs driver ids (enum rdma_driver_id) newer than the oldest uapi
 * headers we build with (Linux 6.1), whose list ends at ERDMA: MANA
 * (Linux 6.2) and IONIC (a later kernel), which the netlink device dump
 * reports and provider_rules.c matches on.
 *
 * The kernel declares them as enumerators, which cannot be tested with
 * #ifdef, so they are constants of our own names here (KABI_ and the
 * kernel's name). Where the system's headers have them,
 * kernel-headers/CMakeLists.txt defines KABI_HAVE_RDMA_DRIVER_<NAME> and
 * kabi_check.c asserts that the value here equals the kernel's; in every
 * build it asserts that they follow ERDMA, as the list only grows at its
 * end.
 */
#ifndef IBV_KERNEL_DRIVER_IDS_H
#define IBV_KERNEL_DRIVER_IDS_H

/*
 * No kernel header is included here: <rdma/ib_user_ioctl_verbs.h> has
 * the guard of our public <infiniband/ib_user_ioctl_verbs.h>, and a
 * library file that met the kernel's first would lose ours.
 */
#define KABI_RDMA_DRIVER_MANA 20
#define KABI_RDMA_DRIVER_IONIC 21

#endif /* IBV_KERNEL_DRIVER_IDS_H */
