/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake rxe kernel driver that tests of our rxe plugin run on: the
 * fake kernel of t_uverbs.h answering with rdma_rxe's driver data
 * (<rdma/rdma_user_rxe.h>) to CREATE_CQ (basic and extended), CREATE_QP
 * (basic and extended), CREATE_SRQ and CREATE_AH, and laying out each
 * queue the provider maps as rdma_rxe shares it: a struct rxe_queue_buf
 * header (slot size, index mask, indices) and its slots. rxe0 is the
 * only device, claimed by our librxe-rdmav34.so alone.
 */
#ifndef T_RXE_KERNEL_H
#define T_RXE_KERNEL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <rdma/rdma_user_rxe.h>

/* What the fake rxe driver answers, and what it saw. */
struct t_rxe_kern {
	/*
	 * CREATE_AH's ah_num. rdma_rxe numbers its AHs since Linux 5.18;
	 * older ones answer 0 and want the address vector in each WQE.
	 */
	uint32_t ah_num;
	unsigned int queues_mapped; /* headers laid out so far */
};

extern struct t_rxe_kern t_rxe;

/*
 * Runs @tests on the fake rxe0, once on each of the fake's kernels
 * (ioctl, write() only, the tunnel), with our rxe plugin as the only
 * provider. Returns cmocka's result, or T_SKIP when the fake kernel
 * cannot be set up.
 */
int t_rxe_run(const struct CMUnitTest *tests, size_t n);

#endif /* T_RXE_KERNEL_H */
