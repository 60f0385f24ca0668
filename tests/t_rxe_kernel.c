// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The fake rxe kernel driver of t_rxe_kernel.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_rxe_kernel.h"

#include "t_diffrun.h"
#include "t_util.h"
#include "t_uverbs.h"

struct t_rxe_kern t_rxe;

/*
 * The queues handed out, so that each gets its header when the provider
 * maps it. A test creates and destroys objects by the hundred: the
 * oldest entries are reused, long after their queues were unmapped.
 */
#define NQUEUES 64
static struct queue {
	uint64_t offset;
	uint32_t slots, log2_elem;
} queues[NQUEUES];
static unsigned int nqueues;

/* rdma_rxe hands out mmap offsets upwards, page-aligned. */
static uint64_t next_offset;

/*
 * Slots for work requests of up to four scatter entries (the provider
 * refuses a queue whose slots are shorter than the QP's caps need, and
 * the caps are the request's, see t_uv_echo_qp_caps()).
 */
#define MAX_SGE 4
#define RECV_ELEM \
	(sizeof(struct rxe_recv_wqe) + MAX_SGE * sizeof(struct rxe_sge))
#define SEND_ELEM \
	(sizeof(struct rxe_send_wqe) + MAX_SGE * sizeof(struct rxe_sge))

/* A queue of @slots slots of at least @elem bytes, at a fresh offset. */
static struct mminfo queue_at(uint32_t slots, size_t elem)
{
	struct queue *q = &queues[nqueues++ % NQUEUES];
	struct mminfo mi = { 0 };

	q->slots = slots;
	for (q->log2_elem = 0; (1ul << q->log2_elem) < elem; q->log2_elem++)
		;
	mi.size = sizeof(struct rxe_queue_buf) + (slots << q->log2_elem);
	mi.offset = q->offset = next_offset;
	next_offset += (mi.size + 4095) & ~(uint64_t)4095;
	return mi;
}

/* rdma_rxe's side of each command: its driver data. */
static int rxe_answer(struct t_uv_cmd *cmd)
{
	switch (t_uv_verb_of(cmd)) {
	case T_UV_CREATE_CQ: {
		struct rxe_create_cq_resp r = {
			.mi = queue_at(16, sizeof(struct ib_uverbs_wc)),
		};

		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_QP: {
		struct rxe_create_qp_resp r;

		/* rdma_rxe keeps the caps asked for, when they are small. */
		t_uv_echo_qp_caps(cmd);
		r.rq_mi = queue_at(8, RECV_ELEM);
		r.sq_mi = queue_at(8, SEND_ELEM);
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_SRQ: {
		struct rxe_create_srq_resp r = {
			.mi = queue_at(8, RECV_ELEM),
			.srq_num = 0x11,
		};

		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_AH: {
		struct rxe_create_ah_resp r = { .ah_num = t_rxe.ah_num };

		return t_uv_put(cmd, &r, sizeof(r));
	}
	default:
		return 0;
	}
}

/* The header rdma_rxe keeps at the base of a shared queue. */
static void rxe_mmap(uint64_t offset, void *addr, size_t len)
{
	struct rxe_queue_buf *buf = addr;

	if (len < sizeof(*buf))
		return;
	for (unsigned int i = 0; i < NQUEUES && i < nqueues; i++)
		if (queues[i].offset == offset) {
			buf->log2_elem_size = queues[i].log2_elem;
			buf->index_mask = queues[i].slots - 1;
			t_rxe.queues_mapped++;
		}
}

static const struct t_uv_driver rxe_driver = {
	.name = "rxe",
	.answer = rxe_answer,
	.mmap = rxe_mmap,
};

/* A fresh driver on a fresh kernel of @kernel. */
static void reset(enum t_uv_kernel kernel)
{
	t_uv_reset(kernel);
	t_uv.driver = &rxe_driver;
	memset(queues, 0, sizeof(queues));
	nqueues = 0;
	next_offset = 0x10000;
	t_rxe.ah_num = 1;
	t_rxe.queues_mapped = 0;
}

int t_rxe_run(const struct CMUnitTest *tests, size_t n)
{
	struct t_dev dev = {
		.ibdev = "rxe0",
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = 2, /* RXE_UVERBS_ABI_VERSION, the kernel's rxe.h */
		.node_type = 1, /* CA */
	};
	char drivers[4096];
	char *root = t_fake_kernel(false);
	int ret = 0;

	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	free(root); /* SYSFS_PATH holds its own copy */
	/* Our plugin only, by path, whichever core loads it. */
	snprintf(drivers, sizeof(drivers), "%s/lib/librxe", t_build_dir());
	setenv("RDMAV_DRIVERS", drivers, 1);
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++) {
		reset(t_diffrun_kernels[k]);
		ret |= _cmocka_run_group_tests(
			t_uv_kernel_name(t_diffrun_kernels[k]), tests, n, NULL,
			NULL);
	}
	return ret;
}
