/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The device commands the library sends itself (cmd_device.c). */
#ifndef IBV_CMD_DEVICE_H
#define IBV_CMD_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* ASYNC_EVENT/ALLOC: a new async event file into ctx->async_fd. */
int cmd_alloc_async_fd(struct ibv_context *ctx);
/*
 * DEVICE/QUERY_GID_ENTRY and QUERY_GID_TABLE. True when the kernel lacks
 * the method (the caller reads sysfs instead); otherwise *ret holds the
 * ioctl's result, 0 or a positive errno value.
 */
bool cmd_query_gid_entry(struct ibv_context *ctx, uint32_t port_num,
			 uint32_t gid_index, struct ibv_gid_entry *entry,
			 uint32_t flags, size_t entry_size, int *ret);
bool cmd_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *entries,
			 size_t max_entries, uint32_t flags, size_t entry_size,
			 uint64_t *num_entries, int *ret);

#endif
