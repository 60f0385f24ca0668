/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the tests of failures that explain themselves share (t_explain.c):
 * a context on "rxe0" whose provider ops are fakes that fail (device
 * limits, one RoCE port, a GID table in a fake sysfs), the fake kernel
 * of t_kernel.h behind the transport seam, and the log file each case
 * reads back. The library reads VERBS_LOG_LEVEL once per process, so
 * each scenario runs in a child (t_scenario.h).
 */
#ifndef T_EXPLAIN_H
#define T_EXPLAIN_H

#include <stdbool.h>

#include <infiniband/verbs.h>

/* Hidden in the library, reachable from these statically linked tests. */
void verbs_log_init(void);
struct ibv_qp *verbs_create_qp_ex(struct ibv_context *context,
				  struct ibv_qp_init_attr_ex *attr);
struct ibv_srq *verbs_create_srq_ex(struct ibv_context *context,
				    struct ibv_srq_init_attr_ex *attr);

/* What a fake provider leaves in errno; the explanation must keep it. */
#define T_ERRNO EINVAL

/* The port's state, ACTIVE unless a case changes it. */
extern enum ibv_port_state t_port_state;
/*
 * The fake create_qp and create_qp_ex refuse every QP (T_ERRNO), or with
 * t_qp_limited only those with a capability over t_qp_limit; they count
 * the QPs they made and destroy_qp the ones destroyed.
 */
extern struct ibv_qp_cap t_qp_limit;
extern bool t_qp_limited;
extern unsigned int t_qp_created, t_qp_destroyed;
/* What the fake reg_mr, reg_dmabuf_mr and rereg_mr fail with (ENOMEM). */
extern int t_reg_mr_errno;
/* What the fake dealloc_pd, destroy_cq and destroy_srq return (EBUSY). */
extern int t_destroy_errno;
/* A PD of the context t_open() made. */
extern struct ibv_pd t_pd;
/* The log file. */
extern char t_log[4096];

/*
 * The scenario's context on device rxe0, logging at @level (NULL: the
 * default) into a file of the scenario directory.
 */
struct ibv_context *t_open(const char *level);
void t_close(struct ibv_context *ctx);
/* The log is exactly @line (with the library's prefix), or empty for NULL. */
int t_expect_log(const char *line);

#endif
