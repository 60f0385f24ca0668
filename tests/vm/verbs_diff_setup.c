// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a verbs_diff step's child builds before the step runs (t_build(),
 * from the step's flags) and the objects steps build for themselves.
 * A setup call that fails ends the step with setup-failed=<call>.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "verbs_diff.h"

void t_open(struct t_st *st)
{
	struct ibv_device **list;
	int i, n = 0;

	t_need(ibv_get_device_list);
	t_need(ibv_open_device);
	t_need(ibv_get_device_name);
	list = lib.ibv_get_device_list(&n);
	if (!list)
		t_setup_failed("get_device_list");
	for (i = 0; i < n; i++)
		if (!strcmp(lib.ibv_get_device_name(list[i]), st->dev->name))
			break;
	if (i == n) {
		t_out("setup-failed=device-not-listed listed=%d", n);
		t_done();
	}
	errno = 0;
	st->ctx = lib.ibv_open_device(list[i]);
	if (!st->ctx)
		t_setup_failed("open_device");
}

void t_build(struct t_st *st, unsigned int flags)
{
	if (!(flags & T_CTX))
		return;
	t_open(st);
	t_need(ibv_query_device);
	t_need(ibv_query_gid);
	if (lib.ibv_query_device(st->ctx, &st->attr))
		t_setup_failed("query_device");
	if (lib.ibv_query_gid(st->ctx, 1, st->dev->gid_index, &st->gid))
		t_setup_failed("query_gid");
	if ((flags & T_PD) == T_PD) {
		t_need(ibv_alloc_pd);
		st->pd = lib.ibv_alloc_pd(st->ctx);
		if (!st->pd)
			t_setup_failed("alloc_pd");
	}
	if ((flags & T_CQ) == T_CQ) {
		t_need(ibv_create_cq);
		st->cq = lib.ibv_create_cq(st->ctx, 16, NULL, NULL, 0);
		if (!st->cq)
			t_setup_failed("create_cq");
	}
}

/*
 * The header's ibv_reg_mr() macro, for constant access flags: optional
 * bits go to ibv_reg_mr_iova2, the rest to ibv_reg_mr.
 */
struct ibv_mr *t_reg(struct t_st *st, void *addr, size_t len,
		     unsigned int access)
{
	errno = 0;
	if (access & IBV_ACCESS_OPTIONAL_RANGE) {
		t_need(ibv_reg_mr_iova2);
		return lib.ibv_reg_mr_iova2(st->pd, addr, len, (uintptr_t)addr,
					    access);
	}
	t_need(ibv_reg_mr);
	return lib.ibv_reg_mr(st->pd, addr, len, (int)access);
}

void *t_page(void)
{
	static char page[4096] __attribute__((aligned(4096)));

	return page;
}

struct ibv_qp *t_qp(struct t_st *st, enum ibv_qp_type type, uint32_t wr,
		    bool setup)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = type,
		.cap = { .max_send_wr = wr,
			 .max_recv_wr = wr,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp *qp;

	t_need(ibv_create_qp);
	errno = 0;
	qp = lib.ibv_create_qp(st->pd, &ia);
	if (!qp && setup)
		t_setup_failed("create_qp");
	return qp;
}

int t_to_init(struct ibv_qp *qp, int access)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
		.qkey = 0x11111111,
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	mask |= qp->qp_type == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS;
	t_need(ibv_modify_qp);
	errno = 0;
	return lib.ibv_modify_qp(qp, &a, mask);
}

/*
 * The result @rc of a transition of t_loopback(): printed as @key in a
 * step that tests it, a setup failure (@call) in one that builds on it;
 * either way a failure ends the step.
 */
static void t_moved(int rc, bool setup, const char *call, const char *key)
{
	if (rc && setup) {
		errno = rc;
		t_setup_failed(call);
	}
	if (!setup)
		t_rc(key, rc);
	if (rc)
		t_done();
}

/* RESET -> INIT -> RTR -> RTS, connected to itself through its GID. */
void t_loopback(struct t_st *st, struct ibv_qp *qp, bool setup)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = qp->qp_num,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.grh = { .dgid = st->gid, .hop_limit = 1,
				 .sgid_index = st->dev->gid_index },
			.port_num = 1,
		},
	};
	int rc, access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			 IBV_ACCESS_REMOTE_READ;

	rc = t_to_init(qp, access);
	if (rc) {
		errno = rc;
		if (setup)
			t_setup_failed("modify_qp_init");
		t_rc("init", rc);
		t_done();
	}
	rc = lib.ibv_modify_qp(qp, &a,
			       IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				       IBV_QP_MAX_DEST_RD_ATOMIC |
				       IBV_QP_MIN_RNR_TIMER);
	t_moved(rc, setup, "modify_qp_rtr", "ret");
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	rc = lib.ibv_modify_qp(qp, &a,
			       IBV_QP_STATE | IBV_QP_TIMEOUT |
				       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	t_moved(rc, setup, "modify_qp_rts", "rts");
}
