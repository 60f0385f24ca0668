/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake rxe kernel driver that tests of our rxe plugin run on: the
 * fake kernel of t_uverbs.h answering with rdma_rxe's driver data
 * (<rdma/rdma_user_rxe.h>) to CREATE_CQ (basic and extended), CREATE_QP
 * (basic and extended), CREATE_SRQ, CREATE_AH, RESIZE_CQ and
 * MODIFY_SRQ (which move a queue: a new one, the entries copied over),
 * laying out each queue the provider maps as rdma_rxe shares it: a
 * struct rxe_queue_buf header (slot size, index mask, indices) and its
 * slots. rxe0 is the only device, claimed by our librxe-rdmav34.so
 * alone.
 */
#ifndef T_RXE_KERNEL_H
#define T_RXE_KERNEL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>

/* What the fake rxe driver answers, and what it saw. */
struct t_rxe_kern {
	/*
	 * CREATE_AH's ah_num. rdma_rxe numbers its AHs since Linux 5.18;
	 * older ones answer 0 and want the address vector in each WQE.
	 */
	uint32_t ah_num;
	unsigned int queues_mapped; /* headers laid out so far */
	/*
	 * The shared queues of the last CQ created or resized, of the last
	 * QP's send queue and of the last SRQ created or resized, where the
	 * provider mapped them; NULL while it has not (or could not).
	 */
	struct rxe_queue_buf *cq, *sq, *srq;
	unsigned int doorbells; /* POST_SEND commands the driver took */
};

extern struct t_rxe_kern t_rxe;

/*
 * The fake's QP states, as rdma_rxe keeps them: each MODIFY_QP with
 * IB_QP_STATE that the kernel would allow moves its QP, and POST_SEND
 * is refused with EINVAL while the QP is below RTS (rxe_post_send() of
 * Linux 6.1). A test may set a state behind the provider's back, as a
 * modify it did not see.
 */
enum ibv_qp_state t_rxe_qp_state(uint32_t qp_handle);
void t_rxe_set_qp_state(uint32_t qp_handle, enum ibv_qp_state state);

/* The kernel writes a completion of @wr_id into the CQ's queue. */
void t_rxe_complete(uint64_t wr_id);

/*
 * Runs @tests on the fake rxe0, once on each of the fake's kernels
 * (ioctl, write() only, the tunnel), with our rxe plugin as the only
 * provider. Returns cmocka's result, or T_SKIP when the fake kernel
 * cannot be set up.
 */
int t_rxe_run(const struct CMUnitTest *tests, size_t n);

#endif /* T_RXE_KERNEL_H */
