// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ESP flow action commands of cmd_flow_action.c against a fake
 * kernel behind the transport seam (t_flow.h): every attribute of a
 * create, then modify and destroy, byte for byte. Links the static
 * archive, where the seam hook is reachable.
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_flow.h"

static void test_esp_create_all(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_flow_action_esp esp = { .spi = 1 };
	struct ibv_flow_action_esp_encap encap = { .len = 4 };
	uint8_t key[36] = { 0 }, replay[4] = { 0 };
	struct ibv_flow_action_esp_attr attr = {
		.esp_attr = &esp,
		.keymat_proto = IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM,
		.keymat_len = sizeof(key),
		.keymat_ptr = key,
		.replay_proto = IBV_FLOW_ACTION_ESP_REPLAY_BMP,
		.replay_len = sizeof(replay),
		.replay_ptr = replay,
		.esp_encap = &encap,
		.comp_mask = IBV_FLOW_ACTION_ESP_MASK_ESN,
		.esn = 0x10203,
	};
	struct verbs_flow_action va = { 0 };
	uint8_t want[IOCTL_ATTR(6)], *p;

	assert_int_equal(ibv_cmd_create_flow_action_esp(ctx, &attr, &va, NULL),
			 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_FLOW_ACTION,
			    UVERBS_METHOD_FLOW_ACTION_ESP_CREATE, 6);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE, 0, 0);
	p = t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_ESN, 4, 0x10203);
	p = t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT, 36,
			(uintptr_t)key);
	t_put16(p - 16 + 6, IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM); /* elem_id */
	p = t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY, 4, 0);
	t_put16(p - 16 + 6, IBV_FLOW_ACTION_ESP_REPLAY_BMP);
	p = t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_ENCAP, sizeof(encap),
			(uintptr_t)&encap);
	t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS, sizeof(esp),
		    (uintptr_t)&esp);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(va.handle, T_HANDLE);
	assert_int_equal(va.type, IBV_FLOW_ACTION_ESP);
	assert_ptr_equal(va.action.context, ctx);
}

/* Modify sends the handle and only the parts given; destroy by handle. */
static void test_esp_modify_destroy(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_flow_action_esp_attr attr = {
		.comp_mask = IBV_FLOW_ACTION_ESP_MASK_ESN, .esn = 9
	};
	struct verbs_flow_action va = { .action.context = ctx, .handle = 0x33 };
	uint8_t want[24 + 32], *p;

	assert_int_equal(ibv_cmd_modify_flow_action_esp(&va, &attr, NULL), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_FLOW_ACTION,
			    UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY, 2);
	p = t_put_mattr(p, UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE, 0, 0x33);
	t_put_mattr(p, UVERBS_ATTR_FLOW_ACTION_ESP_ESN, 4, 9);
	t_expect(0, true, want, sizeof(want));

	assert_int_equal(ibv_cmd_destroy_flow_action(&va), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_FLOW_ACTION,
			    UVERBS_METHOD_FLOW_ACTION_DESTROY, 1);
	t_put_mattr(p, UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE, 0, 0x33);
	t_expect(1, true, want, 24 + 16);

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_flow_action_esp(&va, &attr, NULL),
			 ENOTTY);
	assert_int_equal(ibv_cmd_destroy_flow_action(&va), ENOTTY);
	tk.no_ioctl = false;
	t_fail_next(EINVAL);
	va.handle = 0;
	assert_int_equal(ibv_cmd_create_flow_action_esp(ctx, &attr, &va, NULL),
			 EINVAL);
	assert_int_equal(va.handle, 0);
	assert_int_equal(tk.ncalls, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_esp_create_all),
		T_CASE(test_esp_modify_destroy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
