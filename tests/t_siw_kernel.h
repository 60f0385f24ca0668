/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake siw kernel driver our siw provider's tests run on: the fake
 * kernel of t_uverbs.h answering with siw's driver data (GET_CONTEXT,
 * REG_MR, CREATE_CQ, CREATE_QP, CREATE_SRQ), counting doorbells, and
 * recording where the provider mapped the CQ ring and the work queues,
 * which the tests then read and write as the kernel does. For the send
 * queue it models the consumer of Linux 6.1's siw: the doorbell's
 * answers in each state, the elements its transmit engine takes without
 * a doorbell and the fields it reads or forces in each, and the flush
 * on the move to ERROR. Beside it,
 * what those tests share: a base of siw0, a PD and a CQ of 10 (a cmocka
 * fixture), and the library's log. siw_provider_test (context, MR, CQ,
 * SRQ) and siw_sq_test (the send and receive queues) use it.
 */
#ifndef T_SIW_KERNEL_H
#define T_SIW_KERNEL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <infiniband/verbs.h>
#include <rdma/siw-abi.h>

#define T_CQ_KEY 0x3000ull /* the ring's mmap offset, as siw hands out */
#define T_NUM_CQE 16u /* what siw rounds a CQ of 10 up to */
#define T_DEV_ID 0x5157u
#define T_SQ_KEY 0x4000ull
#define T_RQ_KEY 0x5000ull
#define T_NUM_WQE 8u /* what siw rounds queues of 5 up to */
#define T_SRQ_KEY 0x6000ull

/*
 * The QP's state as siw_post_send() sees it. RTS is 0: the tests post as
 * on a connected QP unless they say otherwise. IDLE is siw's name for
 * RESET, INIT and RTR.
 */
enum t_siw_state { T_SIW_RTS = 0, T_SIW_IDLE, T_SIW_CLOSING, T_SIW_ERROR };

/* One send element as the kernel took it out of the ring. */
struct t_siw_taken {
	uint32_t index; /* the kernel's count of elements taken, before it */
	/*
	 * 0, or EINVAL where siw refuses the element: when it activates
	 * it (the element stays valid in the ring, the kernel's get index
	 * does not move) or when it transmits it (taken, the connection
	 * dropped).
	 */
	int err;
	struct siw_sqe sqe; /* the kernel's copy, with the fields it forces */
	/*
	 * On the wire: the data of a SEND or WRITE (inline or gathered),
	 * the read size a READ asks of the peer.
	 */
	uint32_t bytes;
};

#define T_SIW_TAKEN_MAX 64u

/* What the fake siw driver saw and shared. */
struct t_siw_kern {
	struct siw_ureq_reg_mr reg_mr_in;
	size_t reg_mr_in_len, reg_mr_out_len, create_cq_out_len;
	struct siw_cqe *ring; /* the provider's mapping of the CQ */
	size_t ring_len;
	struct siw_sqe *sq; /* ... and of the QP's queues */
	struct siw_rqe *rq;
	size_t sq_len, rq_len;
	struct siw_rqe *srq; /* ... and of the SRQ */
	size_t srq_len;
	unsigned int doorbells; /* POST_SEND commands, all without WR */
	uint32_t doorbell_wrs;
	/*
	 * The kernel's side of the send queue. sq_get counts the elements
	 * it took. state_locked: another thread holds the QP's state lock
	 * for writing, so the doorbell's trylock fails. engine: an accepted
	 * doorbell runs the transmit engine, which takes every valid
	 * element in turn (off: the elements stay for the test to read).
	 * meanwhile: run as a doorbell enters the kernel, for what another
	 * thread or the engine does at that moment. taken: what the kernel
	 * made of each element it took, ntaken of them. cq_put: where the
	 * kernel's next completion goes in the CQ ring.
	 */
	uint32_t sq_get;
	enum t_siw_state state;
	bool state_locked, engine;
	void (*meanwhile)(void);
	/*
	 * When set, answers the doorbell in place of state, state_locked
	 * and engine: for a test whose kernel threads keep that state
	 * under locks of their own (siw_sq_threads_test).
	 */
	int (*doorbell)(void);
	struct t_siw_taken taken[T_SIW_TAKEN_MAX];
	unsigned int ntaken;
	uint32_t cq_put;
};

extern struct t_siw_kern t_siw;

/* The kernel takes an element: it copies it out, then clears its flags. */
void t_siw_take(uint16_t *flags);
/*
 * The kernel takes the send element at its get index, as siw's
 * siw_activate_tx() and transmit path do: 0 and @t filled, ENOENT when
 * that element is not valid, EINVAL when siw refuses it (@t says where).
 */
int t_siw_sq_take(struct t_siw_taken *t);
/*
 * The transmit engine: takes valid elements in ring order, each recorded
 * in t_siw.taken, until one is not valid (0) or siw refuses one (EINVAL),
 * with no doorbell, as siw's engine does once it runs.
 */
int t_siw_sq_run(void);
/*
 * The move to ERROR (siw_sq_flush()): every valid element from the get
 * index on completes with a flush error, taken, in order, until one
 * finds the CQ full (it stays valid, as in siw).
 */
void t_siw_sq_flush(void);
/* A completion placed as the kernel places it: fields, then the flag. */
void t_siw_complete(uint32_t idx, uint64_t id, uint8_t opcode, uint16_t status,
		    uint32_t bytes);
struct ibv_context *t_siw_open(void);
/* Whether this process mapped our plugin (not Debian's libsiw). */
bool t_siw_mapped_ours(void);

/* What each test starts from: siw0 opened, a PD, a CQ of 10. */
struct t_siw_base {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

int t_siw_base_up(void **state);
/* Each test leaves @state's objects alone and destroys its own. */
int t_siw_base_down(void **state);

/*
 * An RC QP of @init on @b's PD and CQ whose queues the provider mapped
 * (no RQ on an SRQ), each T_NUM_WQE elements long.
 */
struct ibv_qp *t_siw_qp(struct t_siw_base *b, struct ibv_qp_init_attr *init);

/* Whether the library's log holds @needle. */
bool t_siw_log_has(const char *needle);

/* One ibv_post_send() that must fail; what the log gained meanwhile. */
struct t_siw_post {
	struct ibv_qp *qp;
	struct ibv_send_wr *wr, *bad;
	int ret;
};

char *t_siw_post_refused(struct t_siw_post *p);

int t_siw_run(const struct CMUnitTest *tests, size_t n);

#endif /* T_SIW_KERNEL_H */
