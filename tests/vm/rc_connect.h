/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An RC QP from RESET to RTS towards a QP on the same port, reached
 * through the port's own GID: how the programs that move data on rxe0 in
 * the test VM connect their QPs (threads_vm_test, bench/verbs_bench).
 * The caller passes ibv_modify_qp(), linked or looked up
 * (verbs_lookup.h), so that the verb is the library under test's.
 */
#ifndef RC_CONNECT_H
#define RC_CONNECT_H

#include <stdint.h>

#include <infiniband/verbs.h>

typedef __typeof__(ibv_modify_qp) *rc_modify_fn;

/* RESET -> INIT on port 1, local and remote write allowed; 0 or errno. */
int rc_to_init(rc_modify_fn modify, struct ibv_qp *qp);

/*
 * INIT -> RTR -> RTS towards QP @dest_qpn at @gid, index @gid_index of
 * port 1. Returns 0 or the error of the transition that failed, which
 * *@failed ("modify_qp RTR", "modify_qp RTS") names when @failed is set.
 */
int rc_to_rts(rc_modify_fn modify, struct ibv_qp *qp, const union ibv_gid *gid,
	      int gid_index, uint32_t dest_qpn, const char **failed);

/* rc_to_init(), then rc_to_rts(); *@failed may be "modify_qp INIT" too. */
int rc_connect(rc_modify_fn modify, struct ibv_qp *qp, const union ibv_gid *gid,
	       int gid_index, uint32_t dest_qpn, const char **failed);

#endif
