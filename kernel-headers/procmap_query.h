/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The PROCMAP_QUERY ioctl on /proc/<pid>/maps (Linux 6.11). It answers for
 * one address with the VMA that holds it, including the page size the
 * kernel uses for it, without formatting the whole maps file.
 *
 * The build machines carry older uapi headers, so the interface is
 * declared here when <linux/fs.h> does not provide it. Layout and numbers
 * are the kernel's; the static_asserts pin them.
 */
#ifndef IBV_KERNEL_PROCMAP_QUERY_H
#define IBV_KERNEL_PROCMAP_QUERY_H

#include <assert.h>
#include <stddef.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#ifndef PROCMAP_QUERY

#define PROCFS_IOCTL_MAGIC 'f'

enum procmap_query_flags {
	PROCMAP_QUERY_VMA_READABLE = 0x01,
	PROCMAP_QUERY_VMA_WRITABLE = 0x02,
	PROCMAP_QUERY_VMA_EXECUTABLE = 0x04,
	PROCMAP_QUERY_VMA_SHARED = 0x08,
	PROCMAP_QUERY_COVERING_OR_NEXT_VMA = 0x10,
	PROCMAP_QUERY_FILE_BACKED_VMA = 0x20,
};

struct procmap_query {
	__u64 size;
	__u64 query_flags;
	__u64 query_addr;
	__u64 vma_start;
	__u64 vma_end;
	__u64 vma_flags;
	__u64 vma_page_size;
	__u64 vma_offset;
	__u64 inode;
	__u32 dev_major;
	__u32 dev_minor;
	__u32 vma_name_size;
	__u32 build_id_size;
	__u64 vma_name_addr;
	__u64 build_id_addr;
};

#define PROCMAP_QUERY _IOWR(PROCFS_IOCTL_MAGIC, 17, struct procmap_query)

#endif /* PROCMAP_QUERY */

static_assert(sizeof(struct procmap_query) == 104, "procmap_query size");
static_assert(offsetof(struct procmap_query, vma_page_size) == 48,
	      "procmap_query.vma_page_size offset");
static_assert(offsetof(struct procmap_query, vma_name_size) == 80,
	      "procmap_query.vma_name_size offset");
static_assert(PROCMAP_QUERY == 0xc0686611, "PROCMAP_QUERY number");

#endif
