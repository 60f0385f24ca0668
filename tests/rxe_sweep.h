/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the parts of rxe_sweep_test share: the requests as the caller
 * asks them, the QPs kept from case to case, the sweep's state, and the
 * oracle (rxe_sweep_oracle.c): what the verbs and IBTA allow of each
 * request, how it is posted, and whether what the kernel took is what
 * was asked.
 */
#ifndef RXE_SWEEP_H
#define RXE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "t_rxe_kernel.h"

#define MAX_SGE 4u
#define MAX_INLINE 64u
#define MAX_WR 7u /* the fake's rings have eight slots */
#define LIST 3
#define AH_NUM 1u /* what the fake answers CREATE_AH */
#define MW_RKEY 0x4d57u
#define MR_LKEY 0x1234u
#define NOPS (IBV_WR_DRIVER1 + 2) /* every opcode, and one past */

enum api { CLASSIC, BUILDER };
enum { ALLOW_POST = 1, ALLOW_EINVAL = 2, ALLOW_ENOMEM = 4 };

/* A request, as the caller asks it. */
struct req {
	uint64_t wr_id;
	uint32_t op, flags;
	int nsge; /* -1: hostile */
	uint32_t total; /* inline: the bytes asked; else 8 an SGE */
	struct ibv_sge sge[MAX_SGE + 1];
	struct ibv_data_buf buf[MAX_SGE + 1];
	/* What the sources held at the post: the oracle's bytes. */
	uint8_t bytes[MAX_INLINE + 8 * (MAX_SGE + 1)];
	uint64_t raddr, cmp, swap;
	uint32_t rkey, imm, inv, qpn, qkey, new_rkey;
};

struct tqp {
	struct ibv_qp *qp;
	struct ibv_qp_ex *ex;
	enum ibv_qp_state state; /* as the test last moved it */
	uint64_t ops; /* the builders it was created with */
	struct req fifo[MAX_WR + 1]; /* posted, not yet taken */
	unsigned int head, len;
};

struct sweep {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_ah *ah;
	struct ibv_mw mw;
	struct ibv_mr mr;
	struct tqp qps[3];
	uint8_t gather[4096]; /* never written after set-up */
	uint8_t scratch[MAX_INLINE * 2 + 64]; /* inline sources */
	uint64_t next_id;
	uint8_t *ledger; /* by wr_id: 1 refused, 2 taken, 4 twice */
	size_t ledger_len;
	unsigned long cases, requests, posted, refused, taken, flushed;
	unsigned long diffs;
	bool report;
	char where[160];
};

extern struct sweep sw;

/* A difference from the oracle, with the case it was found in. */
void diff(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

bool op_valid(enum ibv_qp_type type, uint32_t op);
bool op_payload(uint32_t op);
bool op_atomic(uint32_t op);
bool op_local(uint32_t op);
unsigned int allowed(enum ibv_qp_type type, const struct req *r, enum api api);
unsigned int allowed_now(const struct tqp *q, const struct req *r, enum api api,
			 unsigned int queued);
void make_req(struct req *r, uint32_t op, uint32_t flags, int nsge,
	      uint32_t total);
void to_wr(const struct tqp *q, struct req *r, struct ibv_send_wr *wr);
bool build_exists(uint32_t op);
bool build(const struct tqp *q, const struct req *r);
void same(const struct tqp *q, const struct req *r, const struct t_rxe_wire *w);

#endif /* RXE_SWEEP_H */
