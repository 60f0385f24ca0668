/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Memory from a Linux DMA-buf heap (/dev/dma_heap/<name>), for providers
 * whose device must reach pages that a confidential-computing guest
 * shares with its host: each allocation is a dma-buf of its own, mapped
 * into the process and registrable by its descriptor. Part of the private
 * provider ABI of rdma-core 65 (IBVERBS_PRIVATE_65), published to
 * providers as <infiniband/dmabuf_heap.h> beside driver.h.
 *
 * Errors: NULL with errno set. The heap handle and each buffer are
 * independent: a buffer outlives the heap it came from.
 */
#ifndef INFINIBAND_DMABUF_HEAP_H
#define INFINIBAND_DMABUF_HEAP_H

#include <stddef.h>

struct ibv_dmabuf_heap;

/*
 * Opens the heap of pages shared with the host of a confidential guest
 * ("system_cc_shared"). ENOENT where the kernel offers no such heap.
 */
struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void);

/* Closes @heap; the buffers allocated from it stay valid. */
void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap);

/*
 * A new dma-buf of @size bytes from @heap, mapped shared and writable:
 * returns its address and stores its descriptor in *@dmabuf_fd. Both
 * belong to the caller until ibv_dmabuf_heap_free().
 */
void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size,
			    int *dmabuf_fd);

/* Unmaps @size bytes at @buf and closes @dmabuf_fd, as alloc gave them. */
void ibv_dmabuf_heap_free(void *buf, size_t size, int dmabuf_fd);

#endif
