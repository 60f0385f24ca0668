// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The AH commands of cmd_ah.c against a fake kernel behind the transport
 * seam (t_qp.h): create and destroy by write() and by ioctl, byte for
 * byte. Links the static archive, where the seam is reachable.
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
 * struct ib_uverbs_create_ah with its struct ib_uverbs_ah_attr, or
 * struct ib_uverbs_destroy_ah. Written from the uverbs ABI.
 */
enum {
	CREATE_AH_USER_HANDLE = CMD_HDR_SIZE + 8,
	CREATE_AH_PD_HANDLE = CMD_HDR_SIZE + 16,
	CREATE_AH_ATTR = CMD_HDR_SIZE + 24,
	AH_ATTR_GRH_HOP_LIMIT = 21,
	AH_ATTR_DLID = 24,
	AH_ATTR_STATIC_RATE = 28,
	DESTROY_AH_AH_HANDLE = CMD_HDR_SIZE + 0,
};

/* CREATE_AH: the address vector in the kernel's layout. */
static void test_create_destroy_ah(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx, .handle = 3 };
	struct ibv_ah ah = { 0 };
	struct ibv_ah_attr attr = { .dlid = 0x22,
				    .sl = 1,
				    .port_num = 1,
				    .static_rate = 3,
				    .grh = { .hop_limit = 9 } };
	struct {
		struct ib_uverbs_create_ah_resp core;
		uint32_t drv;
	} resp;
	uint32_t handle = 0x71;
	uint8_t want[24 + 8];
	const uint8_t *req;

	memcpy(fk.resp, &handle, 4);
	fk.resp_len = 4;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_ah(&pd, &ah, &attr, &resp.core,
					   sizeof(resp)),
			 0);
	req = tk.log[tk.ncalls - 1].bytes;
	assert_int_equal(tk.log[tk.ncalls - 1].len, 64);
	assert_int_equal(t_get64(req + CMD_RESPONSE), (uintptr_t)&resp);
	assert_int_equal(t_get64(req + CREATE_AH_USER_HANDLE), (uintptr_t)&ah);
	assert_int_equal(t_get32(req + CREATE_AH_PD_HANDLE), 3);
	assert_int_equal(req[CREATE_AH_ATTR + AH_ATTR_GRH_HOP_LIMIT], 9);
	assert_int_equal(t_get16(req + CREATE_AH_ATTR + AH_ATTR_DLID), 0x22);
	assert_int_equal(req[CREATE_AH_ATTR + AH_ATTR_STATIC_RATE], 3);
	assert_int_equal(ah.handle, 0x71);
	assert_ptr_equal(ah.context, ctx);

	tk.ncalls = 0;
	fk.resp_len = 0;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	t_put_write_req(want, DESTROY_AH_AH_HANDLE + 4,
			IB_USER_VERBS_CMD_DESTROY_AH, 0);
	t_put32(want + DESTROY_AH_AH_HANDLE, 0x71);
	t_expect(tk.ncalls - 1, false, want, DESTROY_AH_AH_HANDLE + 4);
}

/* AH/DESTROY on the ioctl path; EIO of a dead device passes through. */
static void test_destroy_ah_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_ah ah = { .context = ctx, .handle = 0x71 };
	uint8_t want[IOCTL_ATTR(1)];

	assert_int_equal(ibv_cmd_destroy_ah(&ah), 0);
	t_put_attr(t_put_ioctl_hdr(want, UVERBS_OBJECT_AH,
				   UVERBS_METHOD_AH_DESTROY, 1),
		   UVERBS_ATTR_DESTROY_AH_HANDLE, 0, 1, 0x71);
	t_expect(0, true, want, sizeof(want));
	tk.ioctl_err = EIO;
	assert_int_equal(ibv_cmd_destroy_ah(&ah), EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_destroy_ah),
		T_CASE(test_destroy_ah_ioctl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
