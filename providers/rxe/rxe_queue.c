// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Mapping a queue the kernel shares, and checking what it says of it. */
#include <errno.h>
#include <sys/mman.h>

#include "rxe_queue.h"

/*
 * Maps the queue @mi describes on @cmd_fd and reads its constants. A
 * header whose slots are shorter than @min_elem, or whose slots do not
 * fit in the mapping, is refused with EINVAL: the provider would read
 * or write past them.
 */
int rxe_queue_map(struct rxe_queue *q, int cmd_fd, const struct mminfo *mi,
		  size_t min_elem)
{
	struct rxe_qhdr *hdr;
	size_t need;

	if (mi->size < sizeof(*hdr))
		return EINVAL;
	hdr = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED, cmd_fd,
		   (off_t)mi->offset);
	if (hdr == MAP_FAILED)
		return errno;

	q->hdr = hdr;
	q->map_len = mi->size;
	q->mask = hdr->index_mask;
	q->log2_elem = hdr->log2_elem_size;
	need = sizeof(*hdr) + (((size_t)q->mask + 1) << q->log2_elem);
	if (q->log2_elem >= 16 || (1ul << q->log2_elem) < min_elem ||
	    (q->mask & (q->mask + 1)) || need > mi->size) {
		rxe_queue_unmap(q);
		return EINVAL;
	}
	return 0;
}

/*
 * Maps the queue a resize moved the kernel to (RESIZE_CQ, MODIFY_SRQ)
 * in place of @q's. From the resize on the kernel writes only the new
 * queue, so the old mapping goes even when the new one cannot be made:
 * @q is then left without a queue (hdr NULL) and the error returned.
 */
int rxe_queue_remap(struct rxe_queue *q, int cmd_fd, const struct mminfo *mi,
		    size_t min_elem)
{
	struct rxe_queue moved = {};
	int ret = rxe_queue_map(&moved, cmd_fd, mi, min_elem);

	rxe_queue_unmap(q);
	*q = moved;
	return ret;
}

void rxe_queue_unmap(struct rxe_queue *q)
{
	if (q->hdr)
		munmap(q->hdr, q->map_len);
	q->hdr = NULL;
}
