/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reply of DEVICE/QUERY_PORT as kernels since Linux 6.8 fill it:
 * four of the six reserved bytes behind port_cap_flags2 became
 * active_speed_ex, the speed value that the 8-bit active_speed cannot
 * hold (XDR and later). Older kernels leave those bytes zero.
 *
 * Build machines with Linux 6.1's uapi headers still declare the six
 * reserved bytes, and <infiniband/ib_user_ioctl_verbs.h> declares the
 * new layout under the same name and include guard, so which one a file
 * sees depends on its includes (and the system's header cannot be
 * included beside ours). The library reads the reply through this struct
 * of its own name instead; the asserts pin it to the kernel's numbers.
 */
#ifndef IBV_KERNEL_QUERY_PORT_RESP_H
#define IBV_KERNEL_QUERY_PORT_RESP_H

#include <assert.h>
#include <stddef.h>
#include <linux/types.h>
#include <rdma/ib_user_verbs.h>

struct kabi_query_port_resp_ex {
	struct ib_uverbs_query_port_resp legacy_resp;
	__u16 port_cap_flags2;
	__u8 reserved[2];
	__u32 active_speed_ex;
};

static_assert(sizeof(struct kabi_query_port_resp_ex) == 48,
	      "query_port_resp_ex size");
static_assert(offsetof(struct kabi_query_port_resp_ex, port_cap_flags2) == 40,
	      "query_port_resp_ex.port_cap_flags2 offset");
static_assert(offsetof(struct kabi_query_port_resp_ex, active_speed_ex) == 44,
	      "query_port_resp_ex.active_speed_ex offset");

#endif /* IBV_KERNEL_QUERY_PORT_RESP_H */
