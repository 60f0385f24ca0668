/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * provider_drive_test, rxe persona: between the fake kernel's side
 * (rxe.c: the queues it hands out, its answers) and the data-path
 * dumps (soft_roce_dp.c).
 */
#ifndef SOFT_ROCE_DP_H
#define SOFT_ROCE_DP_H

#include <stdint.h>

#include <infiniband/verbs.h>

struct rxe_queue_buf;

/* The first (last) queue of @kind the provider mapped: 'c'q, 'r'ecv,
 * 's'end, shared recv 'q'. */
struct rxe_queue_buf *sr_queue_of(char kind);
struct rxe_queue_buf *sr_last_queue_of(char kind);

/* What the kernel answers the next CREATE_AH with (1 unless set). */
extern uint32_t sr_ah_num;

/* The first CQ filled by the kernel and polled with ibv_poll_cq(). */
void sr_cq_fill_and_poll(struct ibv_cq *cq);
/* The same through an extended CQ of its own. */
void sr_cq_ex_poll(struct ibv_context *ctx);
/* Every kind of WQE the provider writes, from @qp's PD and CQs. */
void sr_wqe_dump(struct ibv_qp *qp);

#endif /* SOFT_ROCE_DP_H */
