/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The header of a queue the rdma_rxe driver shares through mmap(), and
 * our view of one mapped queue.
 *
 * The facts (README.md has the sources): the header is the kernel's
 * struct rxe_queue_buf of <rdma/rdma_user_rxe.h>: the log2 of the slot
 * size and the index mask, then the producer index and the consumer
 * index each on a 128-byte line of its own, then the slots. The slot
 * size and the slot count are powers of two; both indices are stored
 * already masked, so a slot is data + (index << log2_elem_size); the
 * queue is empty when the two indices are equal, which leaves one slot
 * unused and a capacity of index_mask entries.
 *
 * Each index has one writer: the producer side writes producer_index,
 * the consumer side consumer_index. Our struct gives them atomic types
 * so every access to the other side's index states its ordering; the
 * assertions tie the layout to the kernel's header.
 */
#ifndef RXE_QUEUE_H
#define RXE_QUEUE_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/rdma_user_rxe.h>

/*
 * The provider's functions are its own: kept out of the plugin's dynamic
 * symbols, so that no global of a program's can stand in for them.
 */
#pragma GCC visibility push(hidden)

struct rxe_qhdr {
	uint32_t log2_elem_size;
	uint32_t index_mask;
	uint32_t pad_1[30];
	_Atomic uint32_t producer_index;
	uint32_t pad_2[31];
	_Atomic uint32_t consumer_index;
	uint32_t pad_3[31];
	uint8_t data[];
};

static_assert(sizeof(_Atomic uint32_t) == sizeof(uint32_t),
	      "an atomic index is the kernel's 32-bit word");
static_assert(offsetof(struct rxe_qhdr, log2_elem_size) ==
		      offsetof(struct rxe_queue_buf, log2_elem_size),
	      "rxe_qhdr: log2_elem_size where the kernel has it");
static_assert(offsetof(struct rxe_qhdr, index_mask) ==
		      offsetof(struct rxe_queue_buf, index_mask),
	      "rxe_qhdr: index_mask where the kernel has it");
static_assert(offsetof(struct rxe_qhdr, producer_index) ==
		      offsetof(struct rxe_queue_buf, producer_index),
	      "rxe_qhdr: producer_index where the kernel has it");
static_assert(offsetof(struct rxe_qhdr, consumer_index) ==
		      offsetof(struct rxe_queue_buf, consumer_index),
	      "rxe_qhdr: consumer_index where the kernel has it");
static_assert(offsetof(struct rxe_qhdr, data) ==
		      offsetof(struct rxe_queue_buf, data),
	      "rxe_qhdr: slots where the kernel has them");
static_assert(sizeof(struct rxe_qhdr) == sizeof(struct rxe_queue_buf),
	      "rxe_qhdr: as long as the kernel's header");

/* One mapped queue, with the header's constants read once. */
struct rxe_queue {
	struct rxe_qhdr *hdr;
	size_t map_len;
	uint32_t mask;
	uint32_t log2_elem;
};

static inline void *rxe_queue_slot(const struct rxe_queue *q, uint32_t index)
{
	return q->hdr->data + ((size_t)index << q->log2_elem);
}

int rxe_queue_map(struct rxe_queue *q, int cmd_fd, const struct mminfo *mi,
		  size_t min_elem);
int rxe_queue_remap(struct rxe_queue *q, int cmd_fd, const struct mminfo *mi,
		    size_t min_elem);
void rxe_queue_unmap(struct rxe_queue *q);

/*
 * The lock the posters of one queue, or the pollers of one CQ, take
 * turns with: one atomic exchange to take it and one store to give it
 * back, inline, where pthread_spin_lock() and pthread_spin_unlock()
 * would be two calls into the C library on every post and poll; with
 * no call, a post or poll needs no register saved either. Acquire and
 * release keep the queue's accesses inside. A lock found taken is read
 * until it is given back, which keeps its cache line shared, with the
 * pause hint that lets a sibling hardware thread run meanwhile. A
 * zeroed lock is free.
 */
struct rxe_lock {
	_Atomic bool held;
};

static inline void rxe_lock(struct rxe_lock *lock)
{
	while (__builtin_expect(atomic_exchange_explicit(&lock->held, true,
							 memory_order_acquire),
				0)) {
		while (atomic_load_explicit(&lock->held,
					    memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#elif defined(__aarch64__)
			__asm__ volatile("yield");
#endif
		}
	}
}

static inline void rxe_unlock(struct rxe_lock *lock)
{
	atomic_store_explicit(&lock->held, false, memory_order_release);
}

#pragma GCC visibility pop

#endif /* RXE_QUEUE_H */
