/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An RC QP from RESET to RTS towards a QP reached through a GID: the
 * port's own GID for the programs that move data on rxe0 in the test VM
 * (threads_vm_test, bench/verbs_bench), or another device's, across a
 * wire. The caller passes
 * ibv_modify_qp(), linked or looked up (verbs_lookup.h), so that the verb
 * is the library under test's.
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

/*
 * rc_to_rts() with the RTS step's ACK timeout (4.096 us x 2^@timeout) and
 * transport retry count chosen by the caller. rc_to_rts() takes 14 and 7;
 * rxe counts 7 as "retry forever", so a bounded wait needs less.
 */
int rc_to_rts_timed(rc_modify_fn modify, struct ibv_qp *qp,
		    const union ibv_gid *gid, int gid_index, uint32_t dest_qpn,
		    uint8_t timeout, uint8_t retry_cnt, const char **failed);

/* rc_to_init(), then rc_to_rts(); *@failed may be "modify_qp INIT" too. */
int rc_connect(rc_modify_fn modify, struct ibv_qp *qp, const union ibv_gid *gid,
	       int gid_index, uint32_t dest_qpn, const char **failed);

#endif
