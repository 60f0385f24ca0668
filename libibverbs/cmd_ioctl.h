/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Command buffers for the uverbs ioctl() interface, part of the provider
 * ABI (IBVERBS_PRIVATE_34) and, like driver.h, not installed. Debian's
 * binary providers build these buffers on their own stacks, append their
 * driver attributes and pass them into the core's ibv_cmd_*() functions,
 * so struct ibv_command_buffer keeps rdma-core 44's layout exactly
 * (56 bytes on x86_64, the attribute array right behind it);
 * tests/driver_abi_test.c pins it. The helpers that fill and execute a
 * buffer come later.
 */
#ifndef IBV_CMD_IOCTL_H
#define IBV_CMD_IOCTL_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/rdma_user_ioctl_cmds.h>

/*
 * One method call being assembled: a kernel ioctl header followed in
 * memory by room for its attributes. The array is hdr.attrs, so whoever
 * allocates a buffer allocates ibv_cmd_buffer_size(n) bytes for n
 * attributes.
 */
struct ibv_command_buffer {
	/*
	 * A provider may fill a buffer of its own (driver attributes) and
	 * link it in front of the core's; the core then sends the attributes
	 * of every buffer in the chain as one call.
	 */
	struct ibv_command_buffer *next;
	/* Where the next attribute goes, and the end of the room for them. */
	struct ib_uverbs_attr *next_attr;
	struct ib_uverbs_attr *last_attr;
	/*
	 * Index in hdr.attrs of the driver-private input and output
	 * attributes (UVERBS_ATTR_UHW_IN/OUT), so the write() fallback can
	 * find the provider's data. The legacy write() path sends that data
	 * behind its own headers; the headroom counts, in 32-bit words, how
	 * much space it must keep free in front of the provider's data for
	 * them.
	 */
	uint8_t uhw_in_idx;
	uint8_t uhw_out_idx;
	uint8_t uhw_in_headroom_dwords;
	uint8_t uhw_out_headroom_dwords;
	/* An attribute did not fit: the call fails instead of being sent. */
	uint8_t buffer_error : 1;
	/* The write() fallback must use the extended command header. */
	uint8_t fallback_require_ex : 1;
	/* The method has no write() equivalent: ioctl() or nothing. */
	uint8_t fallback_ioctl_only : 1;
	/* What the kernel receives; the attributes follow it in memory. */
	struct ib_uverbs_ioctl_hdr hdr;
};

/* Bytes a command buffer needs to hold @num_attrs attributes. */
static inline size_t ibv_cmd_buffer_size(unsigned int num_attrs)
{
	return offsetof(struct ibv_command_buffer, hdr.attrs) +
	       (size_t)num_attrs * sizeof(struct ib_uverbs_attr);
}

#endif
