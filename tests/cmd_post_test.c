// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The post commands of cmd_post.c against a fake kernel behind the
 * transport seam (t_qp.h): send and receive work requests, scatter
 * entries and all, byte for byte, and counts that cannot wrap. Links the
 * static archive, where the seam is reachable.
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
 * The post requests as offsets: the header, then the kernel's struct
 * (ib_uverbs_post_send; post_recv and post_srq_recv alike, with the
 * SRQ's handle in the QP's place), then its work requests, then all
 * their scatter entries. Written from the uverbs ABI.
 */
enum {
	POST_HANDLE = CMD_HDR_SIZE + 8,
	POST_WR_COUNT = CMD_HDR_SIZE + 12,
	POST_SGE_COUNT = CMD_HDR_SIZE + 16,
	POST_WQE_SIZE = CMD_HDR_SIZE + 20,
	POST_WRS = CMD_HDR_SIZE + 24,
	/* struct ib_uverbs_send_wr */
	SEND_WR_WR_ID = 0,
	SEND_WR_NUM_SGE = 8,
	SEND_WR_OPCODE = 12,
	SEND_WR_SEND_FLAGS = 16,
	SEND_WR_IMM_DATA = 20,
	SEND_WR_RDMA_REMOTE_ADDR = 24,
	SEND_WR_RDMA_RKEY = 32,
	SEND_WR_SIZE = 56,
	/* struct ib_uverbs_recv_wr */
	RECV_WR_WR_ID = 0,
	RECV_WR_NUM_SGE = 8,
	RECV_WR_SIZE = 16,
	/* struct ib_uverbs_sge */
	SGE_ADDR = 0,
	SGE_LENGTH = 8,
	SGE_LKEY = 12,
	SGE_SIZE = 16,
};

/*
 * The image of a post request of @len bytes: its header, the QP's or
 * SRQ's @handle and the counts; the response pointer as the library
 * sent it (its own memory).
 */
static void put_post(uint8_t *want, uint16_t len, uint32_t cmd, uint32_t handle,
		     uint32_t wr_count, uint32_t sge_count, uint32_t wqe_size)
{
	t_put_write_req(want, len, cmd, 4);
	t_put64(want + CMD_RESPONSE,
		t_get64(tk.log[tk.ncalls - 1].bytes + CMD_RESPONSE));
	t_put32(want + POST_HANDLE, handle);
	t_put32(want + POST_WR_COUNT, wr_count);
	t_put32(want + POST_SGE_COUNT, sge_count);
	t_put32(want + POST_WQE_SIZE, wqe_size);
}

/* The image of one scatter entry; returns the next. */
static uint8_t *put_sge(uint8_t *p, uint64_t addr, uint32_t length,
			uint32_t lkey)
{
	t_put64(p + SGE_ADDR, addr);
	t_put32(p + SGE_LENGTH, length);
	t_put32(p + SGE_LKEY, lkey);
	return p + SGE_SIZE;
}

/* Two chained sends with three scatter entries, byte for byte. */
static void test_post_send_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx,
			     .handle = 7,
			     .qp_type = IBV_QPT_RC };
	struct ibv_sge sg1[2] = { { 0x1000, 64, 0x11 }, { 0x2000, 32, 0x12 } };
	struct ibv_sge sg2 = { 0x3000, 16, 0x13 };
	struct ibv_send_wr w2 = { .wr_id = 0x2222,
				  .sg_list = &sg2,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .imm_data = 5 };
	struct ibv_send_wr w1 = { .wr_id = 0x1111,
				  .next = &w2,
				  .sg_list = sg1,
				  .num_sge = 2,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { 0xaabb, 0x77 } };
	struct ibv_send_wr *bad = NULL;
	uint8_t want[192], *wr1 = want + POST_WRS, *wr2 = wr1 + SEND_WR_SIZE;
	uint8_t *sge = wr2 + SEND_WR_SIZE;

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), 0);
	assert_null(bad);
	put_post(want, sizeof(want), IB_USER_VERBS_CMD_POST_SEND, 7, 2, 3,
		 SEND_WR_SIZE);
	t_put64(wr1 + SEND_WR_WR_ID, 0x1111);
	t_put32(wr1 + SEND_WR_NUM_SGE, 2);
	t_put32(wr1 + SEND_WR_OPCODE, IBV_WR_RDMA_WRITE);
	t_put32(wr1 + SEND_WR_SEND_FLAGS, IBV_SEND_SIGNALED);
	t_put64(wr1 + SEND_WR_RDMA_REMOTE_ADDR, 0xaabb);
	t_put32(wr1 + SEND_WR_RDMA_RKEY, 0x77);
	t_put64(wr2 + SEND_WR_WR_ID, 0x2222);
	t_put32(wr2 + SEND_WR_NUM_SGE, 1);
	t_put32(wr2 + SEND_WR_OPCODE, IBV_WR_SEND);
	t_put32(wr2 + SEND_WR_IMM_DATA, 5);
	sge = put_sge(sge, 0x1000, 64, 0x11);
	sge = put_sge(sge, 0x2000, 32, 0x12);
	put_sge(sge, 0x3000, 16, 0x13);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	/* The kernel refuses the second: bad_wr is 1-based. */
	t_put32(fk.resp, 2);
	fk.resp_len = 4;
	tk.write_err = EINVAL;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), EINVAL);
	assert_ptr_equal(bad, &w2);
	fk.resp_len = 0;
	tk.write_err = ENOMEM;
	assert_int_equal(ibv_cmd_post_send(&qp, &w1, &bad), ENOMEM);
	assert_ptr_equal(bad, &w1);
}

/*
 * A post of no work request, a provider's doorbell, goes by write() even
 * where the kernel has the ioctl tunnel that posts of work requests take:
 * the bare request, no WR, one system call; a refusal leaves *bad_wr NULL.
 */
static void test_doorbell_by_write(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx,
			     .handle = 9,
			     .qp_type = IBV_QPT_RC };
	struct ibv_srq srq = { .context = ctx, .handle = 4 };
	struct ibv_send_wr *bad = (void *)1;
	struct ibv_recv_wr *rbad = (void *)1;
	uint8_t want[CMD_HDR_SIZE + 24];
	unsigned int calls = tk.ncalls;

	tk.no_ioctl = false;
	assert_int_equal(ibv_cmd_post_send(&qp, NULL, &bad), 0);
	assert_int_equal(tk.ncalls, calls + 1);
	put_post(want, sizeof(want), IB_USER_VERBS_CMD_POST_SEND, 9, 0, 0,
		 SEND_WR_SIZE);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_ptr_equal(bad, (void *)1); /* untouched on success */

	assert_int_equal(ibv_cmd_post_recv(&qp, NULL, &rbad), 0);
	put_post(want, sizeof(want), IB_USER_VERBS_CMD_POST_RECV, 9, 0, 0,
		 RECV_WR_SIZE);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, NULL, &rbad), 0);
	put_post(want, sizeof(want), IB_USER_VERBS_CMD_POST_SRQ_RECV, 4, 0, 0,
		 RECV_WR_SIZE);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	tk.write_err = ENOTCONN;
	assert_int_equal(ibv_cmd_post_send(&qp, NULL, &bad), ENOTCONN);
	assert_int_equal(errno, ENOTCONN);
	assert_null(bad);
	tk.write_err = 0;
}

/*
 * Counts a request cannot hold fail with EINVAL before anything is
 * copied or sent: scatter counts whose 32-bit sum wraps, a negative
 * count, a chain that loops back on itself.
 */
static void test_post_counts_cannot_wrap(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 7 };
	struct ibv_srq srq = { .context = ctx, .handle = 8 };
	struct ibv_sge sg = { 0x1000, 8, 0x11 };
	struct ibv_send_wr s[3], *bad_s = NULL;
	struct ibv_recv_wr r[3], *bad_r = NULL;

	tk.no_ioctl = true;
	for (int i = 0; i < 3; i++) {
		/* 3 * 0x55555556 is 2 in 32 bits. */
		s[i] = (struct ibv_send_wr){ .next = i < 2 ? &s[i + 1] : NULL,
					     .sg_list = &sg,
					     .num_sge = 0x55555556 };
		r[i] = (struct ibv_recv_wr){ .next = i < 2 ? &r[i + 1] : NULL,
					     .sg_list = &sg,
					     .num_sge = 0x55555556 };
	}
	assert_int_equal(ibv_cmd_post_send(&qp, s, &bad_s), EINVAL);
	assert_ptr_equal(bad_s, s);
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad_r), EINVAL);
	assert_ptr_equal(bad_r, r);
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, r, &bad_r), EINVAL);

	s[0] = (struct ibv_send_wr){ .sg_list = &sg, .num_sge = -1 };
	assert_int_equal(ibv_cmd_post_send(&qp, s, &bad_s), EINVAL);
	r[0] = (struct ibv_recv_wr){ .sg_list = &sg, .num_sge = -1 };
	assert_int_equal(ibv_cmd_post_recv(&qp, r, &bad_r), EINVAL);

	r[0] = (struct ibv_recv_wr){ .next = &r[1],
				     .sg_list = &sg,
				     .num_sge = 1 };
	r[1] = (struct ibv_recv_wr){ .next = &r[0],
				     .sg_list = &sg,
				     .num_sge = 1 };
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, r, &bad_r), EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* Receives: wqe_size 16, the UD AH handle path is not taken. */
static void test_post_recv_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 8 };
	struct ibv_sge sg = { 0x4000, 8, 0x21 };
	struct ibv_recv_wr wr = { .wr_id = 0x33, .sg_list = &sg, .num_sge = 1 };
	struct ibv_recv_wr *bad = NULL;
	uint8_t want[64], *rwr = want + POST_WRS;
	uint8_t *sge = rwr + RECV_WR_SIZE;

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_post_srq_recv(&srq, &wr, &bad), 0);
	put_post(want, sizeof(want), IB_USER_VERBS_CMD_POST_SRQ_RECV, 8, 1, 1,
		 RECV_WR_SIZE);
	t_put64(rwr + RECV_WR_WR_ID, 0x33);
	t_put32(rwr + RECV_WR_NUM_SGE, 1);
	put_sge(sge, 0x4000, 8, 0x21);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_post_send_bytes),
		T_CASE(test_doorbell_by_write),
		T_CASE(test_post_recv_bytes),
		T_CASE(test_post_counts_cannot_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
