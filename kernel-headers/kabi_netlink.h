/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Compile-time checks of the RDMA netlink ABI the core relies on. The
 * values come from the system's <rdma/rdma_netlink.h>; these assertions
 * make a header that disagrees with the kernel ABI fail the build instead
 * of producing a library that asks the kernel the wrong questions.
 */
#ifndef IBV_KABI_NETLINK_H
#define IBV_KABI_NETLINK_H

#include <assert.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

static_assert(NETLINK_RDMA == 20, "NETLINK_RDMA");
static_assert(RDMA_NL_NLDEV == 5, "RDMA_NL_NLDEV");
static_assert(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET) == 0x1401,
	      "RDMA_NLDEV_CMD_GET message type");
static_assert(RDMA_NLDEV_CMD_SYS_GET == 6, "RDMA_NLDEV_CMD_SYS_GET");
static_assert(RDMA_NLDEV_CMD_GET_CHARDEV == 15, "RDMA_NLDEV_CMD_GET_CHARDEV");

static_assert(RDMA_NLDEV_ATTR_DEV_INDEX == 1, "DEV_INDEX");
static_assert(RDMA_NLDEV_ATTR_DEV_NAME == 2, "DEV_NAME");
static_assert(RDMA_NLDEV_ATTR_PORT_INDEX == 3, "PORT_INDEX");
static_assert(RDMA_NLDEV_ATTR_NODE_GUID == 6, "NODE_GUID");
static_assert(RDMA_NLDEV_ATTR_DEV_NODE_TYPE == 14, "DEV_NODE_TYPE");
static_assert(RDMA_NLDEV_ATTR_CHARDEV_TYPE == 69, "CHARDEV_TYPE");
static_assert(RDMA_NLDEV_ATTR_CHARDEV_NAME == 70, "CHARDEV_NAME");
static_assert(RDMA_NLDEV_ATTR_CHARDEV_ABI == 71, "CHARDEV_ABI");
static_assert(RDMA_NLDEV_ATTR_CHARDEV == 72, "CHARDEV");
static_assert(RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID == 73, "UVERBS_DRIVER_ID");
static_assert(RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK == 93, "COPY_ON_FORK");

/* Node types, as netlink sends them and sysfs node_type prints them. */
static_assert(RDMA_NODE_IB_CA == 1, "RDMA_NODE_IB_CA");
static_assert(RDMA_NODE_RNIC == 4, "RDMA_NODE_RNIC");
static_assert(RDMA_NODE_UNSPECIFIED == 7, "RDMA_NODE_UNSPECIFIED");

#endif
