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

#include "t_qp.h"

/*
 * The requests as offsets: the header, then the kernel's
 * struct ib_uverbs_modify_qp with its struct ib_uverbs_qp_dest, or
 * struct ib_uverbs_query_qp. Written from the uverbs ABI.
 */
enum {
	MODIFY_QP_DEST = CMD_HDR_SIZE + 0,
	QP_DEST_DGID = 0,
	QP_DEST_FLOW_LABEL = 16,
	QP_DEST_DLID = 20,
	QP_DEST_RESERVED = 22,
	QP_DEST_SGID_INDEX = 24,
	QP_DEST_HOP_LIMIT = 25,
	QP_DEST_SL = 27,
	QP_DEST_IS_GLOBAL = 30,
	QP_DEST_PORT_NUM = 31,
	QP_DEST_SIZE = 32,
	MODIFY_QP_QP_HANDLE = CMD_HDR_SIZE + 64,
	MODIFY_QP_ATTR_MASK = CMD_HDR_SIZE + 68,
	MODIFY_QP_RQ_PSN = CMD_HDR_SIZE + 76,
	MODIFY_QP_DEST_QP_NUM = CMD_HDR_SIZE + 84,
	MODIFY_QP_QP_STATE = CMD_HDR_SIZE + 96,
	MODIFY_QP_PATH_MTU = CMD_HDR_SIZE + 98,
	MODIFY_QP_RESERVED = CMD_HDR_SIZE + 110,
	QUERY_QP_QP_HANDLE = CMD_HDR_SIZE + 8,
};

/* The mask picks the fields; the rest of the request stays the provider's. */
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
	uint8_t want[120], *dest = want + MODIFY_QP_DEST;

	memset(&cmd, 0xff, sizeof(cmd));
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_qp(&qp, &a, mask, &cmd, sizeof(cmd)),
			 0);
	/*
	 * What the mask names, over the provider's bytes: the rest goes as
	 * the provider left it (0xff here), as rdma-core 44 sends it.
	 */
	memset(want, 0xff, sizeof(want));
	t_put_write_hdr(want, IB_USER_VERBS_CMD_MODIFY_QP, sizeof(want), 0);
	/* The AV is in the mask: all of it but its reserved bytes. */
	memset(dest, 0, QP_DEST_SIZE);
	dest[QP_DEST_RESERVED] = dest[QP_DEST_RESERVED + 1] = 0xff;
	dest[QP_DEST_DGID] = 0xfe;
	dest[QP_DEST_DGID + 1] = 0x80;
	t_put32(dest + QP_DEST_FLOW_LABEL, 0xabc);
	t_put16(dest + QP_DEST_DLID, 0x12);
	dest[QP_DEST_SGID_INDEX] = 2;
	dest[QP_DEST_HOP_LIMIT] = 64;
	dest[QP_DEST_SL] = 3;
	dest[QP_DEST_IS_GLOBAL] = 1;
	dest[QP_DEST_PORT_NUM] = 1;
	t_put32(want + MODIFY_QP_QP_HANDLE, 7);
	t_put32(want + MODIFY_QP_ATTR_MASK, mask);
	t_put32(want + MODIFY_QP_RQ_PSN, 0x789);
	t_put32(want + MODIFY_QP_DEST_QP_NUM, 0x456);
	want[MODIFY_QP_QP_STATE] = IBV_QPS_RTR;
	want[MODIFY_QP_PATH_MTU] = IBV_MTU_1024;
	want[MODIFY_QP_RESERVED] = 0;
	want[MODIFY_QP_RESERVED + 1] = 0;
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
	assert_int_equal(
		t_get32(tk.log[tk.ncalls - 1].bytes + QUERY_QP_QP_HANDLE), 7);
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
