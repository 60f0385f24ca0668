// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RC QP connection on the port's own GID; see rc_connect.h.
 */
#include <stddef.h>

#include "rc_connect.h"

int rc_to_init(rc_modify_fn modify, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE,
	};

	return modify(qp, &a,
		      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			      IBV_QP_ACCESS_FLAGS);
}

static int named(int ret, const char *what, const char **failed)
{
	if (ret && failed)
		*failed = what;
	return ret;
}

int rc_to_rts_timed(rc_modify_fn modify, struct ibv_qp *qp,
		    const union ibv_gid *gid, int gid_index, uint32_t dest_qpn,
		    uint8_t timeout, uint8_t retry_cnt, const char **failed)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = dest_qpn,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
		.ah_attr = { .is_global = 1,
			     .grh = { .dgid = *gid,
				      .hop_limit = 1,
				      .sgid_index = gid_index },
			     .port_num = 1 },
	};
	int ret;

	ret = modify(qp, &a,
		     IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			     IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		return named(ret, "modify_qp RTR", failed);
	a.qp_state = IBV_QPS_RTS;
	a.timeout = timeout;
	a.retry_cnt = retry_cnt;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	ret = modify(qp, &a,
		     IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			     IBV_QP_MAX_QP_RD_ATOMIC);
	return named(ret, "modify_qp RTS", failed);
}

int rc_to_rts(rc_modify_fn modify, struct ibv_qp *qp, const union ibv_gid *gid,
	      int gid_index, uint32_t dest_qpn, const char **failed)
{
	return rc_to_rts_timed(modify, qp, gid, gid_index, dest_qpn, 14, 7,
			       failed);
}

int rc_connect(rc_modify_fn modify, struct ibv_qp *qp, const union ibv_gid *gid,
	       int gid_index, uint32_t dest_qpn, const char **failed)
{
	int ret = rc_to_init(modify, qp);

	if (ret)
		return named(ret, "modify_qp INIT", failed);
	return rc_to_rts(modify, qp, gid, gid_index, dest_qpn, failed);
}
