// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The enum names of strings.c (ibv_node_type_str() and its siblings),
 * values out of range included. Every expected string was read off
 * Debian's rdma-core 44 libibverbs; with IBV_TEST_REFERENCE=1 this binary
 * runs against that library and must pass unchanged.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include "t_util.h"

/* Values that name nothing in any of the enums tested here. */
static const int out_of_range[] = { INT_MIN, -2, -1, 30, 255, 1000, INT_MAX };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The differential run must really call the reference, and vice versa. */
static void test_library(void **state)
{
	assert_true(t_library_under_test((void *)ibv_wc_status_str));
}

static void test_node_type_str(void **state)
{
	size_t i;

	assert_string_equal(ibv_node_type_str(IBV_NODE_CA),
			    "InfiniBand channel adapter");
	assert_string_equal(ibv_node_type_str(IBV_NODE_SWITCH),
			    "InfiniBand switch");
	assert_string_equal(ibv_node_type_str(IBV_NODE_ROUTER),
			    "InfiniBand router");
	assert_string_equal(ibv_node_type_str(IBV_NODE_RNIC), "iWARP NIC");
	assert_string_equal(ibv_node_type_str(IBV_NODE_USNIC), "usNIC");
	assert_string_equal(ibv_node_type_str(IBV_NODE_USNIC_UDP), "usNIC UDP");
	assert_string_equal(ibv_node_type_str(IBV_NODE_UNSPECIFIED),
			    "unspecified");
	/* Neither IBV_NODE_UNKNOWN (-1) nor 0 has a name. */
	assert_string_equal(ibv_node_type_str(IBV_NODE_UNKNOWN), "unknown");
	assert_string_equal(ibv_node_type_str(0), "unknown");
	assert_string_equal(ibv_node_type_str(8), "unknown");
	for (i = 0; i < N(out_of_range); i++)
		assert_string_equal(ibv_node_type_str(out_of_range[i]),
				    "unknown");
}

static void test_port_state_str(void **state)
{
	size_t i;

	assert_string_equal(ibv_port_state_str(IBV_PORT_NOP),
			    "no state change (NOP)");
	assert_string_equal(ibv_port_state_str(IBV_PORT_DOWN), "down");
	assert_string_equal(ibv_port_state_str(IBV_PORT_INIT), "init");
	assert_string_equal(ibv_port_state_str(IBV_PORT_ARMED), "armed");
	assert_string_equal(ibv_port_state_str(IBV_PORT_ACTIVE), "active");
	assert_string_equal(ibv_port_state_str(IBV_PORT_ACTIVE_DEFER),
			    "active defer");
	assert_string_equal(ibv_port_state_str(6), "unknown");
	for (i = 0; i < N(out_of_range); i++)
		assert_string_equal(ibv_port_state_str(out_of_range[i]),
				    "unknown");
}

static const char *const event_names[] = {
	"CQ error",
	"local work queue catastrophic error",
	"invalid request local work queue error",
	"local access violation work queue error",
	"communication established",
	"send queue drained",
	"path migrated",
	"path migration request error",
	"local catastrophic error",
	"port active",
	"port error",
	"LID change",
	"P_Key change",
	"SM change",
	"SRQ catastrophic error",
	"SRQ limit reached",
	"last WQE reached",
	"client reregistration",
	"GID table change",
	"WQ fatal",
};

static void test_event_type_str(void **state)
{
	size_t i;

	assert_int_equal(N(event_names), IBV_EVENT_WQ_FATAL + 1);
	for (i = 0; i < N(event_names); i++)
		assert_string_equal(ibv_event_type_str(i), event_names[i]);
	/* rdma-core 65 named the event after them; 44, the reference, not. */
	assert_string_equal(ibv_event_type_str(IBV_EVENT_DEVICE_SPEED_CHANGE),
			    t_reference() ? "unknown" :
					    "Device link speed change");
	assert_string_equal(
		ibv_event_type_str(IBV_EVENT_DEVICE_SPEED_CHANGE + 1),
		"unknown");
	for (i = 0; i < N(out_of_range); i++)
		assert_string_equal(ibv_event_type_str(out_of_range[i]),
				    "unknown");
}

static const char *const wc_status_names[] = {
	"success",
	"local length error",
	"local QP operation error",
	"local EE context operation error",
	"local protection error",
	"Work Request Flushed Error",
	"memory management operation error",
	"bad response error",
	"local access error",
	"remote invalid request error",
	"remote access error",
	"remote operation error",
	"transport retry counter exceeded",
	"RNR retry counter exceeded",
	"local RDD violation error",
	"remote invalid RD request",
	"aborted error",
	"invalid EE context number",
	"invalid EE context state",
	"fatal error",
	"response timeout error",
	"general error",
	"TM error",
	"TM software rendezvous",
};

static void test_wc_status_str(void **state)
{
	size_t i;

	assert_int_equal(N(wc_status_names), IBV_WC_TM_RNDV_INCOMPLETE + 1);
	for (i = 0; i < N(wc_status_names); i++)
		assert_string_equal(ibv_wc_status_str(i), wc_status_names[i]);
	assert_string_equal(ibv_wc_status_str(24), "unknown");
	for (i = 0; i < N(out_of_range); i++)
		assert_string_equal(ibv_wc_status_str(out_of_range[i]),
				    "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library),
		cmocka_unit_test(test_node_type_str),
		cmocka_unit_test(test_port_state_str),
		cmocka_unit_test(test_event_type_str),
		cmocka_unit_test(test_wc_status_str),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
