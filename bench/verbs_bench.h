/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the files of verbs_bench share: the state a worker keeps between
 * batches, the table of lines (verbs_bench_lines.c, what one iteration
 * of each line does), the worker process that runs them
 * (verbs_bench_worker.c) and what the parent (verbs_bench.c) and a
 * worker say to each other over their pipes. See verbs_bench.c for how
 * a run goes.
 */
#ifndef VERBS_BENCH_H
#define VERBS_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include <infiniband/verbs.h>

#include "verbs_lookup.h"

#define BIG_BUF (64UL << 20)
#define TRAFFIC_BUF (64UL << 10)

/*
 * The verbs come from the table the VM's verbs_diff uses, at v44's default
 * versions, looked up by the worker (verbs_bench_worker.c). Functions the
 * header implements inline (post, poll, query_port through verbs_context)
 * need no lookup: they reach the provider or the core through the
 * context, as in any application.
 */
extern struct verbs_v44 v;

/* ------------------------------------------------------------------ */
/* Worker: the objects a library's process keeps between batches      */

struct traffic {
	struct ibv_mr *mr;
	struct ibv_cq *cq[3];
	struct ibv_qp *qp[3]; /* 0: looped to itself; 1 <-> 2: ping-pong */
	bool ready;
};

struct wk {
	struct ibv_device *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *mqp; /* the QP that the modify line cycles */
	char *big; /* BIG_BUF reserved, the first @touched bytes written */
	size_t touched;
	char *small;
	union ibv_gid gid;
	int gid_index;
	struct traffic t;
	char why[160]; /* what failed, for the parent */
};

/* ------------------------------------------------------------------ */
/* The lines                                                          */

enum unit { U_OP, U_MSG, U_RTT };

struct line {
	const char *label;
	int (*run)(struct wk *w, unsigned int n);
	enum unit unit;
	bool fork_safe;
};

extern const struct line lines[];
extern const unsigned int num_lines;

/* ------------------------------------------------------------------ */
/* Parent <-> worker                                                  */

struct request {
	unsigned int line;
	unsigned int iters;
};

struct reply {
	int err;
	double ns;
	char msg[200];
};

/*
 * The worker process (verbs_bench_worker.c), its arguments in @argv:
 * library, device, GID index, fork-safe flag, request fd, reply fd.
 */
int worker_main(char **argv);

#endif
