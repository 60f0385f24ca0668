/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the parts of siw_conformance_vm_test share: the state, the one
 * check line, and small helpers around the verbs.
 */
#ifndef SIW_CONFORMANCE_H
#define SIW_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "siw_cm.h"

struct t_state {
	struct cm_base b;
	int failed;
	bool ours; /* our provider runs, not Debian's libsiw */
};
extern struct t_state t;

/* Prints "ok NAME" or "FAIL NAME: ..." and counts the failure. */
void check(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One check that @got equals @want, both printed on failure. */
#define CHECK_EQ(name, got, want)                                       \
	do {                                                            \
		long long got_ = (long long)(got);                      \
		long long want_ = (long long)(want);                    \
		check(got_ == want_, name, "got %lld, want %lld", got_, \
		      want_);                                           \
	} while (0)

/*
 * The value a refusal returns: the errno value, as ibv_post_send(3)
 * says; Debian's libsiw 44 returns it negated (-EINVAL, -ENOMEM).
 */
#define ERR(e) (t.ours ? (e) : -(e))

/* Polls until @n completions or @timeout_ms; how many were taken. */
int poll_wc(struct ibv_cq *cq, int n, struct ibv_wc *wc, int timeout_ms);
/* 1 if an async event of @type arrives within @timeout_ms, else 0. */
int async_event(enum ibv_event_type type, int timeout_ms);
/* A registered buffer of @len bytes of @fill, local and remote access. */
struct ibv_mr *buf_mr(size_t len, char fill);
void buf_free(struct ibv_mr *mr);
struct ibv_sge sge_of(struct ibv_mr *mr, size_t off, uint32_t len);
int post_recv(struct ibv_qp *qp, uint64_t id, struct ibv_sge *sge, int n);
int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
	      struct ibv_send_wr **bad);
struct ibv_qp_init_attr qp_attr(struct ibv_cq *scq, struct ibv_cq *rcq,
				uint32_t depth, uint32_t sge);
/* Prepares and connects @p (check line "connect" on failure): 0 or -1. */
int pair_up(struct cm_pair *p, struct ibv_qp_init_attr *ca,
	    struct ibv_qp_init_attr *sa);

/* A send WR of @n SGEs from @sg. */
struct ibv_send_wr send_wr(uint64_t id, struct ibv_sge *sg, int n,
			   enum ibv_wr_opcode op, unsigned flags);
/* Points @wr's wr.rdma remote address and rkey at @off in @mr. */
void set_remote(struct ibv_send_wr *wr, struct ibv_mr *mr, size_t off);

/*
 * What most checks start from: a send and a receive CQ, a buffer of
 * 4096 bytes, QP attributes on those CQs and the pair made with them.
 * @ch, if set before rig_make(), is the receive CQ's channel.
 */
struct rig {
	struct ibv_comp_channel *ch;
	struct ibv_cq *scq, *rcq;
	struct ibv_mr *m;
	struct ibv_qp_init_attr a;
	struct cm_pair p;
};

/*
 * CQs of @scqe and @rcqe entries (@rcqe 0: the send CQ receives too),
 * the buffer filled with @seed, attributes of @depth WRs and @sge SGEs
 * each way: 0, or -1 if any is missing.
 */
int rig_make(struct rig *r, int scqe, int rcqe, uint32_t depth, uint32_t sge,
	     char seed);
/* rig_make(), then the pair connected with r->a on both sides. */
int rig_up(struct rig *r, int scqe, int rcqe, uint32_t depth, uint32_t sge,
	   char seed);
/* Destroys the pair, the CQs and the buffer, whichever exist. */
void rig_down(struct rig *r);

/* siw_conformance_ops.c */
void t_opcodes(void);
void t_unsupported(void);
void t_limits(void);
void t_wrap(void);
void t_read_0sge(void);
void t_send_inv_inline(void);

/* siw_conformance_queues.c */
void t_srq(void);
void t_overflow(void);
void t_flush(void);
void t_doorbell(void);
void t_fenced_read(void);
void t_solicited(void);

#endif
