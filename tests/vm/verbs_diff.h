/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of verbs_diff share: the state a step's child builds,
 * the step tables, and the helpers that print a step's fields
 * (verbs_diff_out.c) and build its objects (verbs_diff_setup.c). The
 * steps live in one file per kind of object, verbs_diff_<object>.c;
 * verbs_diff.c runs them. See verbs_diff.c for the transcript's format.
 */
#ifndef VERBS_DIFF_H
#define VERBS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs_lookup.h"

/*
 * The verbs of verbs_lookup.h, looked up in the library the program
 * runs on (verbs_diff.c). The header's inline functions that call an
 * exported verb are either not used (ibv_reg_mr) or reach it through a
 * forwarder defined in verbs_diff.c (ibv_query_device) or through a
 * symbol our library already exports at its default version
 * (ibv_query_port), weak so that the program loads without it.
 */
extern struct verbs_v44 lib;
#pragma weak ibv_query_port

/*
 * rdma-core 65's verbs (IBVERBS_1.15 to 1.18), looked up apart: a library
 * of an older release has none of them, and their steps say so with
 * not-in-release=<name>, which tests/vm/verbs_diff does not count as a
 * difference or a failure. The inline ibv_query_comp_cntr_caps() reaches
 * its verb through a forwarder of verbs_diff.c, as ibv_query_device().
 */
extern struct verbs_v65 lib65;

/* Step flags: what the child builds before the step, where it runs. */
enum {
	T_NODEV = 1 << 0, /* needs no device: runs once, device "any" */
	T_RXE = 1 << 1, /* RoCE only (needs a GID to reach itself) */
	T_CTX = 1 << 2, /* an open context */
	T_PD = 1 << 3 | T_CTX, /* and a PD */
	T_CQ = 1 << 4 | T_PD, /* and a CQ of 16 entries */
};

struct t_dev {
	const char *name;
	int gid_index;
	bool rxe;
};

/* What a step's child builds; torn down by _exit(). */
struct t_st {
	const struct t_dev *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_device_attr attr;
	union ibv_gid gid;
};

struct t_step {
	const char *id;
	unsigned int flags;
	void (*run)(struct t_st *st);
};

/* The steps of one verbs_diff_<object>.c, in the order they run. */
struct t_steps {
	const struct t_step *step;
	size_t num;
};

#define T_STEPS(array)                                    \
	{                                                 \
		array, sizeof(array) / sizeof((array)[0]) \
	}

extern const struct t_steps t_dev_steps, t_mr_steps, t_cq_steps, t_qp_steps,
	t_srq_steps, t_ah_steps, t_async_steps, t_traffic_steps, t_cntr_steps,
	t_str_steps;

/* verbs_diff_out.c: a step's fields, written to the parent as they come. */
extern int t_fd;
void t_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void t_done(void) __attribute__((noreturn));
void t_need_fn(const void *fn, const char *name);
void t_need_v65_fn(const void *fn, const char *name);
void t_rc(const char *key, int rc);
void t_num(const char *key, long n);
bool t_ptr(const char *key, const void *p);
void t_setup_failed(const char *what) __attribute__((noreturn));

/* A step needs the verb @fn of the table; see t_need_fn(). */
#define t_need(fn) t_need_fn((const void *)lib.fn, #fn)

/* A step needs rdma-core 65's verb @fn; see t_need_v65_fn(). */
#define t_need65(fn) t_need_v65_fn((const void *)lib65.fn, #fn)

/* verbs_diff_setup.c: each ends the step with setup-failed=... on failure. */
void t_build(struct t_st *st, unsigned int flags);
void t_open(struct t_st *st);
struct ibv_mr *t_reg(struct t_st *st, void *addr, size_t len,
		     unsigned int access);
void *t_page(void);
struct ibv_qp *t_qp(struct t_st *st, enum ibv_qp_type type, uint32_t wr,
		    bool setup);
int t_to_init(struct ibv_qp *qp, int access);
void t_loopback(struct t_st *st, struct ibv_qp *qp, bool setup);

#endif
