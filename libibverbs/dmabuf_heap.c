// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A small allocator over the Linux DMA-buf heaps (dmabuf_heap.h), the
 * one rdma-core 65 gives providers for confidential-computing guests:
 * the heap is a character device under /dev/dma_heap, and each
 * DMA_HEAP_IOCTL_ALLOC on it returns a new dma-buf, which we map.
 *
 * The checks of NULL and zero arguments are ours (rdma-core 65 passes
 * them on, to a crash or to the kernel's EINVAL): a provider gets EINVAL
 * before any system call. Every other errno is the kernel's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-heap.h>

#include "dmabuf_heap.h"
#include "export.h"

#define HEAP_DIR "/dev/dma_heap/"

struct ibv_dmabuf_heap {
	int fd;
};

static struct ibv_dmabuf_heap *heap_open(const char *path)
{
	struct ibv_dmabuf_heap *heap;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	heap = malloc(sizeof(*heap));
	if (!heap) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	heap->fd = fd;
	return heap;
}

/* Closing an fd of ours after a failure must not replace the failure. */
static void close_keep_errno(int fd)
{
	int err = errno;

	close(fd);
	errno = err;
}

IBV_EXPORT struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)
{
	return heap_open(HEAP_DIR "system_cc_shared");
}

IBV_EXPORT void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)
{
	if (!heap)
		return;
	close(heap->fd);
	free(heap);
}

IBV_EXPORT void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap,
				       size_t size, int *dmabuf_fd)
{
	struct dma_heap_allocation_data req = {
		.len = size,
		/* The buffer's fd is the caller's: not inherited by exec. */
		.fd_flags = O_RDWR | O_CLOEXEC,
	};
	void *addr;

	if (!heap || !dmabuf_fd || !size) {
		errno = EINVAL;
		return NULL;
	}
	if (ioctl(heap->fd, DMA_HEAP_IOCTL_ALLOC, &req))
		return NULL;
	addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, (int)req.fd,
		    0);
	if (addr == MAP_FAILED) {
		close_keep_errno((int)req.fd);
		return NULL;
	}
	*dmabuf_fd = (int)req.fd;
	return addr;
}

IBV_EXPORT void ibv_dmabuf_heap_free(void *buf, size_t size, int dmabuf_fd)
{
	if (buf)
		munmap(buf, size);
	if (dmabuf_fd >= 0)
		close(dmabuf_fd);
}
