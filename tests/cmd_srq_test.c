// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SRQ commands of cmd_srq.c against a fake kernel behind the
 * transport seam (t_qp.h): create, modify, query and destroy, byte for
 * byte, the older modify layout of ABI version 3, and the errors of the
 * extended create. Links the static archive, where the seam is
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

/* SRQ/CREATE on the ioctl path; then CREATE_SRQ by write(). */
static void t_srq_answer(struct ib_uverbs_ioctl_hdr *h)
{
	uint32_t v = 100;

	t_attr(h, UVERBS_ATTR_CREATE_SRQ_HANDLE)->data = 0x44;
	memcpy((void *)(uintptr_t)t_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR)
		       ->data,
	       &v, 4);
	v = 3;
	memcpy((void *)(uintptr_t)t_attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE)
		       ->data,
	       &v, 4);
}

static void test_create_srq(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 3 };
	struct ibv_srq srq;
	struct ibv_srq_init_attr attr = { .attr = { 64, 2, 10 } };
	struct ibv_create_srq cmd;
	struct ib_uverbs_create_srq_resp resp = { 0 };
	struct ib_uverbs_ioctl_hdr *h;

	tk.on_ioctl = t_srq_answer;
	/*
	 * The command sets the PD for a provider of ABI 65, as rdma-core 65
	 * does (this context's); ABI 34's leave it to the public verb, as
	 * rdma-core 44 and 56.1 (driver_cmd_diff_test_<release>).
	 */
	srq.pd = NULL;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	h = (struct ib_uverbs_ioctl_hdr *)tk.log[0].bytes;
	assert_int_equal(h->object_id, UVERBS_OBJECT_SRQ);
	assert_int_equal(h->num_attrs, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_WR)->data, 64);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_LIMIT)->data, 10);
	assert_int_equal(t_attr(h, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE)->data, 3);
	assert_int_equal(srq.handle, 0x44);
	assert_ptr_equal(srq.context, ctx);
	assert_ptr_equal(srq.pd, &pd);
	assert_int_equal(attr.attr.max_wr, 100);
	assert_int_equal(attr.attr.max_sge, 3);

	tk.ncalls = 0;
	tk.refuse_obj = UVERBS_OBJECT_SRQ;
	tk.refuse_method = UVERBS_METHOD_SRQ_CREATE;
	resp.srq_handle = 0x45;
	resp.max_wr = 128;
	memcpy(fk.resp, &resp, sizeof(resp));
	fk.resp_len = sizeof(resp);
	tk.no_ioctl = true;
	srq.pd = NULL;
	assert_int_equal(ibv_cmd_create_srq(&pd, &srq, &attr, &cmd, sizeof(cmd),
					    &resp, sizeof(resp)),
			 0);
	assert_ptr_equal(srq.pd, &pd);
	assert_false(tk.log[tk.ncalls - 1].is_ioctl);
	assert_int_equal(t_get64(tk.log[tk.ncalls - 1].bytes) & 0xffffffff,
			 IB_USER_VERBS_CMD_CREATE_SRQ);
	assert_int_equal(srq.handle, 0x45);
	assert_int_equal(attr.attr.max_wr, 128);
}

/* create_srq_ex: unknown mask bits and a missing PD, unsent. */
static void test_create_srq_ex_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_srq vsrq;
	struct ibv_srq_init_attr_ex ax = { .comp_mask =
						   IBV_SRQ_INIT_ATTR_RESERVED };
	struct ibv_create_xsrq cmd;
	struct ib_uverbs_create_srq_resp resp;

	assert_int_equal(ibv_cmd_create_srq_ex(ctx, &vsrq, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 EOPNOTSUPP);
	ax.comp_mask = IBV_SRQ_INIT_ATTR_TYPE;
	assert_int_equal(ibv_cmd_create_srq_ex(ctx, &vsrq, &ax, &cmd,
					       sizeof(cmd), &resp,
					       sizeof(resp)),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/*
 * The modify requests as offsets: the header, then the kernel's
 * struct ib_uverbs_modify_srq, or the older layout of ABI version 3 with
 * max_sge and padding before srq_limit. Written from the uverbs ABI.
 */
enum {
	MODIFY_SRQ_SRQ_HANDLE = CMD_HDR_SIZE + 0,
	MODIFY_SRQ_ATTR_MASK = CMD_HDR_SIZE + 4,
	MODIFY_SRQ_MAX_WR = CMD_HDR_SIZE + 8,
	MODIFY_SRQ_SRQ_LIMIT = CMD_HDR_SIZE + 12,
	MODIFY_SRQ_V3_SRQ_LIMIT = CMD_HDR_SIZE + 16,
	MODIFY_SRQ_V3_DRIVER_DATA = CMD_HDR_SIZE + 24,
};

/* Modify, query and destroy of an SRQ. */
static void test_srq_modify_query_destroy(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 6 };
	struct ibv_srq_attr a = { .max_wr = 50, .srq_limit = 5 };
	struct ibv_modify_srq mcmd;
	struct ibv_query_srq qcmd;
	struct ib_uverbs_query_srq_resp qr = { 70, 4, 9, 0 };
	uint8_t want[24];

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_LIMIT, &mcmd,
					    sizeof(mcmd)),
			 0);
	t_put_write_req(want, sizeof(want), IB_USER_VERBS_CMD_MODIFY_SRQ, 0);
	t_put32(want + MODIFY_SRQ_SRQ_HANDLE, 6);
	t_put32(want + MODIFY_SRQ_ATTR_MASK, IBV_SRQ_LIMIT);
	t_put32(want + MODIFY_SRQ_MAX_WR, 50);
	t_put32(want + MODIFY_SRQ_SRQ_LIMIT, 5);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));

	memcpy(fk.resp, &qr, sizeof(qr));
	fk.resp_len = sizeof(qr);
	assert_int_equal(ibv_cmd_query_srq(&srq, &a, &qcmd, sizeof(qcmd)), 0);
	assert_int_equal(a.max_wr, 70);
	assert_int_equal(a.max_sge, 4);
	assert_int_equal(a.srq_limit, 9);

	pthread_mutex_init(&srq.mutex, NULL);
	pthread_cond_init(&srq.cond, NULL);
	memset(fk.resp, 0, 4);
	fk.resp_len = 4;
	assert_int_equal(ibv_cmd_destroy_srq(&srq), 0);
	assert_int_equal(t_get32(tk.log[tk.ncalls - 1].bytes + CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_DESTROY_SRQ);
}

/*
 * ABI 3 kernels: the request rebuilt in the old layout, the provider's
 * data behind it; a cmd_size no basic header can count is EINVAL before
 * anything is built (the old request's size would wrap).
 */
static void test_modify_srq_v3(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_srq srq = { .context = ctx, .handle = 6 };
	struct ibv_srq_attr a = { .max_wr = 50, .srq_limit = 5 };
	struct {
		struct ibv_modify_srq core;
		uint64_t drv;
	} mcmd = { .drv = 0xd1d1 };
	uint8_t want[40];

	tk.no_ioctl = true;
	abi_ver = 3;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, sizeof(mcmd)),
			 0);
	t_put_write_req(want, sizeof(want), IB_USER_VERBS_CMD_MODIFY_SRQ_V3, 0);
	t_put32(want + MODIFY_SRQ_SRQ_HANDLE, 6);
	t_put32(want + MODIFY_SRQ_ATTR_MASK, IBV_SRQ_MAX_WR);
	t_put32(want + MODIFY_SRQ_MAX_WR, 50);
	t_put32(want + MODIFY_SRQ_V3_SRQ_LIMIT, 5);
	t_put64(want + MODIFY_SRQ_V3_DRIVER_DATA, 0xd1d1);
	t_expect(tk.ncalls - 1, false, want, sizeof(want));
	tk.ncalls = 0;
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, SIZE_MAX - 8),
			 EINVAL);
	assert_int_equal(ibv_cmd_modify_srq(&srq, &a, IBV_SRQ_MAX_WR,
					    &mcmd.core, (size_t)UINT16_MAX * 4),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_srq),
		T_CASE(test_create_srq_ex_errors),
		T_CASE(test_srq_modify_query_destroy),
		T_CASE(test_modify_srq_v3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
