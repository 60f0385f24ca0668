// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP attribute commands of cmd_qp_attr.c against a fake kernel
 * behind the transport seam (t_qp.h): the modify request built from the
 * attribute mask, byte for byte, and the query's answer decoded into the
 * caller's attributes. Links the static archive, where the seam is
 * reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "libibverbs/test_hooks.h"
#include "t_qp.h"

/* The mask picks the fields; the rest of the request stays zero. */
static void test_modify_qp_mask(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 7 };
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = 0x456,
		.rq_psn = 0x789,
		.qkey = 0xdead, /* not in the mask */
		.ah_attr = { .dlid = 0x12,
			     .sl = 3,
			     .port_num = 1,
			     .is_global = 1,
			     .grh = { .dgid.raw = { 0xfe, 0x80 },
				      .flow_label = 0xabc,
				      .sgid_index = 2,
				      .hop_limit = 64 } },
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	struct ibv_modify_qp cmd;
	uint8_t want[120];

	memset(&cmd, 0xff, sizeof(cmd));
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, mask, &cmd, sizeof(cmd)),
			 0);
	memset(want, 0, sizeof(want));
	t_put32(want, IB_USER_VERBS_CMD_MODIFY_QP);
	t_put16(want + 4, 120 / 4);
	want[8] = 0xfe; /* dest.dgid */
	want[9] = 0x80;
	t_put32(want + 24, 0xabc);
	t_put16(want + 28, 0x12);
	want[32] = 2; /* sgid_index */
	want[33] = 64;
	want[35] = 3; /* sl */
	want[38] = 1; /* is_global */
	want[39] = 1; /* port_num */
	t_put32(want + 72, 7);
	t_put32(want + 76, mask);
	t_put32(want + 84, 0x789);
	t_put32(want + 92, 0x456);
	want[104] = IBV_QPS_RTR;
	want[106] = IBV_MTU_1024;
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	tk.ncalls = 0;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, IBV_QP_RATE_LIMIT, &cmd,
					   sizeof(cmd)),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

/* QUERY_QP's answer into both attrs; init attr partly from the QP. */
static void test_query_qp(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	struct ibv_qp qp = { .context = ctx,
			     .handle = 7,
			     .send_cq = &cq,
			     .qp_type = IBV_QPT_UC };
	struct ib_uverbs_query_qp_resp r = {
		.qkey = 0x1234,
		.max_send_wr = 10,
		.qp_state = IBV_QPS_RTS,
		.sq_sig_all = 1,
		.dest = { .dlid = 0x99, .port_num = 2 },
		.alt_timeout = 14,
	};
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_query_qp cmd;

	memcpy(fk.resp, &r, sizeof(r));
	fk.resp_len = sizeof(r);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_query_qp(&qp, &a, IBV_QP_STATE, &ia, &cmd,
					  sizeof(cmd)),
			 0);
	assert_int_equal(a.qkey, 0x1234);
	assert_int_equal(a.qp_state, IBV_QPS_RTS);
	assert_int_equal(a.ah_attr.dlid, 0x99);
	assert_int_equal(a.ah_attr.port_num, 2);
	assert_int_equal(a.alt_timeout, 14);
	assert_int_equal(ia.cap.max_send_wr, 10);
	assert_int_equal(ia.sq_sig_all, 1);
	assert_ptr_equal(ia.send_cq, &cq);
	assert_int_equal(ia.qp_type, IBV_QPT_UC);
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes + 16) & 0xffffffff,
			 7);
	tk.write_err = EACCES;
	assert_int_equal(ibv_cmd_query_qp(&qp, &a, 0, &ia, &cmd, sizeof(cmd)),
			 EACCES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_modify_qp_mask),
		T_CASE(test_query_qp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
