/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_conformance_vm_test: the rxe provider's data path on the guest's
 * rxe0, where the kernel's rdma_rxe judges what the provider put in the
 * shared queues. Each check prints one line, "ok <name>: <what>" or
 * "FAIL <name>: <what>"; the program fails on any FAIL. The lines carry
 * no value that changes from run to run (no QP numbers, no keys), so
 * the runner (tests/vm/rxe_conformance) can diff the run on our librxe
 * against the run on Debian's. A line "note <name>: ..." states a known
 * difference between the two providers; the diff ignores it, and the
 * check next to it asserts each provider's own answer.
 *
 * The subjects, one file each: rxe_conf_ops.c (every opcode, the wc
 * fields, inline and SGE limits, ibv_wr_*, memory windows),
 * rxe_conf_queues.c (wrap-around, CQ overflow, SRQ limit, resize),
 * rxe_conf_err.c (RNR, retry exceeded, flush), rxe_conf_ud.c (UD with
 * GRH, the extended CQ), rxe_conf_log.c (refusals and their messages at
 * VERBS_LOG_LEVEL=3), rxe_conf_cm.c (a post before RTS over rdma_cm),
 * rxe_conf_flush.c (ATOMIC_WRITE and FLUSH, where the kernel has them).
 */
#ifndef RXE_CONF_H
#define RXE_CONF_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

struct conf {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	union ibv_gid gid;
	int gid_index;
	bool ours; /* our librxe, else Debian's */
	struct ibv_device_attr dev;
};

extern struct conf C;

/* Prints the check's line; false (and the program fails) on a mismatch. */
bool check(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A line the runner's diff leaves out: a pinned provider difference. */
void note(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A buffer with its MR (every access, MW binding included). */
struct buf {
	uint8_t *p;
	size_t len;
	struct ibv_mr *mr;
};

int buf_new(struct buf *b, size_t len);
void buf_free(struct buf *b);

/* RC (or UD) QPs, each with its own CQ, on the context's PD. */
struct qp_opts {
	uint32_t send_wr, recv_wr, send_sge, recv_sge, inline_data;
	int cqe;
	struct ibv_srq *srq; /* the second QP's receives */
	bool ex; /* ibv_create_qp_ex with every send op */
	uint64_t more_ops; /* IBV_QP_EX_WITH_* asked for beyond those */
	enum ibv_qp_type type; /* 0: RC */
};

struct side {
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx; /* when opts.ex */
	struct ibv_cq *cq;
	struct ibv_qp_cap cap;
};

int side_new(struct side *s, const struct qp_opts *o, bool second);
void side_free(struct side *s);

/* The RC path parameters: defaults from qp_opts_rc(). */
struct path {
	uint8_t timeout, retry_cnt, rnr_retry;
	unsigned int access; /* qp_access_flags beyond the defaults */
};

/* @a and @b created and connected to each other; 0 or errno. */
int pair_new(struct side *a, struct side *b, const struct qp_opts *o,
	     const struct path *p);
void pair_free(struct side *a, struct side *b);
int qp_to_error(struct ibv_qp *qp);
int qp_connect(struct ibv_qp *qp, uint32_t dest, const struct path *p);

/* Polls one completion within @ms: 1 found, 0 timeout, <0 error. */
int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int ms);
/* Polls exactly @n completions within @ms; returns how many it got. */
int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n, int ms);
/* Nothing more arrives within @ms. */
bool cq_quiet(struct ibv_cq *cq, int ms);

/* The next async event within @ms, acked; false on timeout. */
bool async_wait(struct ibv_async_event *ev, int ms);

int post_recv1(struct ibv_qp *qp, uint64_t wr_id, struct buf *b, size_t off,
	       uint32_t len);
int post_srq_recv1(struct ibv_srq *srq, uint64_t wr_id, struct buf *b,
		   size_t off, uint32_t len);
int post_send1(struct ibv_qp *qp, struct ibv_send_wr *wr, struct buf *b,
	       size_t off, uint32_t len);

const char *st(enum ibv_wc_status s);
/*
 * The status of a WQE rdma_rxe failed itself (the QP then in ERROR):
 * 6.1 marks it IBV_WC_LOC_QP_OP_ERR, 6.12 IBV_WC_WR_FLUSH_ERR (both seen
 * in the VM).
 */
static inline bool kernel_failed(enum ibv_wc_status s)
{
	return s == IBV_WC_LOC_QP_OP_ERR || s == IBV_WC_WR_FLUSH_ERR;
}

void conf_ops(void);
void conf_flush(void);
void conf_queues(void);
void conf_err(void);
void conf_ud(void);
void conf_log(void);
void conf_cm(void);

#endif
