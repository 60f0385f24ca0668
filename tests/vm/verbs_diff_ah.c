// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of address handles and multicast groups.
 */
#include <errno.h>

#include "verbs_diff.h"

static void t_ah_step(struct t_st *st, uint8_t port)
{
	struct ibv_ah_attr a = {
		.is_global = 1,
		.grh = { .dgid = st->gid,
			 .hop_limit = 1,
			 .sgid_index = st->dev->gid_index },
		.port_num = port,
	};
	struct ibv_ah *ah;

	t_need(ibv_create_ah);
	t_need(ibv_destroy_ah);
	errno = 0;
	ah = lib.ibv_create_ah(st->pd, &a);
	if (!t_ptr("ret", ah))
		return;
	errno = 0;
	t_rc("destroy", lib.ibv_destroy_ah(ah));
}

static void s_ah_create(struct t_st *st)
{
	t_ah_step(st, 1);
}

static void s_ah_bad_port(struct t_st *st)
{
	t_ah_step(st, 7);
}

static void s_mcast(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_UD, 4, true);
	union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 0x01 } };

	t_need(ibv_attach_mcast);
	t_need(ibv_detach_mcast);
	errno = 0;
	t_rc("ret", lib.ibv_attach_mcast(qp, &mgid, 0));
	errno = 0;
	t_rc("detach", lib.ibv_detach_mcast(qp, &mgid, 0));
}

static void s_mcast_rc(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 0x01 } };

	t_need(ibv_attach_mcast);
	errno = 0;
	t_rc("ret", lib.ibv_attach_mcast(qp, &mgid, 0));
}

static const struct t_step ah_steps[] = {
	{ "ah.create", T_PD, s_ah_create },
	{ "ah.create.bad_port", T_PD, s_ah_bad_port },
	{ "mcast.attach_detach.ud", T_CQ, s_mcast },
	{ "mcast.attach.rc", T_CQ, s_mcast_rc },
};

const struct t_steps t_ah_steps = T_STEPS(ah_steps);
