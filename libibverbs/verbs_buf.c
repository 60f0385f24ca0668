// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of the buffers a provider allocates (rdma-core 65): memory
 * laid out as the device wants it, page aligned at least, and in a
 * confidential guest taken from a dma-buf heap its host can reach
 * (dmabuf_heap.c). The handle, struct ibv_buf, is the provider's
 * (driver.h). Allocation and release dispatch to the provider's
 * alloc_buf and free_buf ops, whose defaults (ops_dummy.c) hand out
 * memory of the C library. A range of a buffer is registered through
 * ibv_reg_mr_ex() (verbs_mr.c), which checks that it lies in the buffer,
 * keeps plain memory from fork() children, and registers a dma-buf
 * backed buffer as its dma-buf.
 *
 * A parent domain is a PD like any other here: the provider decides what
 * it means for the memory, and the buffer keeps the PD it was allocated
 * with, the one a registration must name.
 *
 * Where rdma-core 65 reads through a NULL handle or hands a zero size on,
 * these verbs refuse with EINVAL instead.
 */
#include <errno.h>
#include <fcntl.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "ops.h"

/**
 * ibv_alloc_buf - a buffer of @size bytes, allocated by @pd's provider
 * @pd: the protection domain (or parent domain) the buffer is for
 * @size: its size in bytes, not 0
 * @buf: where its handle goes
 *
 * Returns the buffer's address, or NULL with errno set.
 */
IBV_EXPORT void *ibv_alloc_buf(struct ibv_pd *pd, size_t size,
			       struct ibv_buf **buf)
{
	const struct verbs_context_ops *ops;
	void *addr;

	if (!pd) {
		errno = EINVAL;
		return NULL;
	}
	if (!buf || !size) {
		errno = EINVAL;
		explain_buf(pd->context, "alloc_buf",
			    buf ? "size 0" :
				  "buf is NULL: no place for the handle");
		return NULL;
	}
	ops = get_ops(pd->context);
	addr = ops->alloc_buf(pd, size, buf);
	if (!addr && ops->alloc_buf == verbs_dummy_ops.alloc_buf)
		explain_buf(
			pd->context, "alloc_buf",
			"the provider has no allocator of its own, and the C library's page-aligned memory ran out");
	return addr;
}

/* Gives a buffer of ibv_alloc_buf() back to its provider. */
IBV_EXPORT void ibv_free_buf(struct ibv_buf *buf)
{
	if (buf)
		get_ops(buf->pd->context)->free_buf(buf);
}

/**
 * ibv_export_buf_dmabuf_fd - the dma-buf behind a buffer, for other users
 * @buf: a buffer of ibv_alloc_buf()
 *
 * Returns a new descriptor (close-on-exec) of the buffer's dma-buf, which
 * the caller closes, or -1 with errno set: ENODATA for plain memory.
 */
IBV_EXPORT int ibv_export_buf_dmabuf_fd(struct ibv_buf *buf)
{
	int fd;

	if (!buf) {
		errno = EINVAL;
		return -1;
	}
	if (buf->dmabuf_fd < 0) {
		errno = ENODATA;
		explain_export_buf(buf->pd->context, buf->dmabuf_fd);
		return -1;
	}
	fd = fcntl(buf->dmabuf_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		explain_export_buf(buf->pd->context, buf->dmabuf_fd);
	return fd;
}

/**
 * ibv_reg_buf_mr - register a range of a buffer of ibv_alloc_buf()
 * @pd: the protection domain @buf was allocated for
 * @buf: the buffer
 * @addr, @length: the range, inside @buf
 * @access: IBV_ACCESS_* flags
 *
 * Returns the MR, or NULL with errno set (EINVAL: a range outside @buf,
 * another PD, a NULL @pd or @buf).
 */
IBV_EXPORT struct ibv_mr *ibv_reg_buf_mr(struct ibv_pd *pd, struct ibv_buf *buf,
					 void *addr, size_t length, int access)
{
	struct ibv_mr_init_attr attr = {
		.length = length,
		.access = access,
		.comp_mask = IBV_REG_MR_MASK_BUF | IBV_REG_MR_MASK_ADDR,
		.addr = addr,
		.buf = buf,
	};

	if (!pd) {
		errno = EINVAL;
		return NULL;
	}
	return ibv_reg_mr_ex(pd, &attr);
}
