// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The helpers that need no device: enum names, rate conversions and the
 * kernel-struct copies librdmacm uses. Every expected value below was read
 * off Debian's rdma-core 44 libibverbs; with IBV_TEST_REFERENCE=1 this
 * binary runs against that library and must pass unchanged.
 */
#include <dlfcn.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/sa.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_sa.h>
#include <rdma/ib_user_verbs.h>

#include "t_util.h"

/* Exported, but no installed header declares them; librdmacm does too. */
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

/* Values that name nothing in any of the enums tested here. */
static const int out_of_range[] = { INT_MIN, -2, -1, 30, 255, 1000, INT_MAX };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The differential run must really call the reference, and vice versa. */
static void test_library(void **state)
{
	Dl_info info;

	assert_true(dladdr((void *)ibv_wc_status_str, &info));
	assert_non_null(info.dli_fname);
	if (t_reference())
		assert_non_null(strstr(info.dli_fname, "/reference/"));
	else
		assert_null(strstr(info.dli_fname, "/reference/"));
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
	assert_string_equal(ibv_event_type_str(20), "unknown");
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

/* Every enum ibv_rate value with its multiple (-1: none) and Mbit/s. */
static const struct {
	enum ibv_rate rate;
	int mult;
	int mbps;
} rates[] = {
	{ IBV_RATE_2_5_GBPS, 1, 2500 },
	{ IBV_RATE_5_GBPS, 2, 5000 },
	{ IBV_RATE_10_GBPS, 4, 10000 },
	{ IBV_RATE_20_GBPS, 8, 20000 },
	{ IBV_RATE_30_GBPS, 12, 30000 },
	{ IBV_RATE_40_GBPS, 16, 40000 },
	{ IBV_RATE_60_GBPS, 24, 60000 },
	{ IBV_RATE_80_GBPS, 32, 80000 },
	{ IBV_RATE_120_GBPS, 48, 120000 },
	{ IBV_RATE_14_GBPS, -1, 14062 },
	{ IBV_RATE_56_GBPS, -1, 56250 },
	{ IBV_RATE_112_GBPS, -1, 112500 },
	{ IBV_RATE_168_GBPS, -1, 168750 },
	{ IBV_RATE_25_GBPS, -1, 25781 },
	{ IBV_RATE_100_GBPS, -1, 103125 },
	{ IBV_RATE_200_GBPS, -1, 206250 },
	{ IBV_RATE_300_GBPS, -1, 309375 },
	{ IBV_RATE_28_GBPS, 11, 28125 },
	{ IBV_RATE_50_GBPS, 20, 53125 },
	{ IBV_RATE_400_GBPS, 160, 425000 },
	{ IBV_RATE_600_GBPS, 240, 637500 },
	{ IBV_RATE_800_GBPS, 320, 850000 },
	{ IBV_RATE_1200_GBPS, 480, 1275000 },
};

/* Rates with no number: IBV_RATE_MAX, the unused 1, and past the end. */
static const int no_rate[] = { INT_MIN, -1, IBV_RATE_MAX, 1, 25, 1000, INT_MAX };

static void test_rate_to_numbers(void **state)
{
	size_t i;

	assert_int_equal(N(rates), IBV_RATE_1200_GBPS - 1);
	for (i = 0; i < N(rates); i++) {
		assert_int_equal(ibv_rate_to_mult(rates[i].rate),
				 rates[i].mult);
		assert_int_equal(ibv_rate_to_mbps(rates[i].rate),
				 rates[i].mbps);
	}
	for (i = 0; i < N(no_rate); i++) {
		assert_int_equal(ibv_rate_to_mult(no_rate[i]), -1);
		assert_int_equal(ibv_rate_to_mbps(no_rate[i]), -1);
	}
}

/* The rate a number names, from the table; IBV_RATE_MAX if none. */
static enum ibv_rate expected_rate(int n, bool mult)
{
	size_t i;

	if (n <= 0) /* the table's -1 means "no multiple", not a number */
		return IBV_RATE_MAX;
	for (i = 0; i < N(rates); i++)
		if ((mult ? rates[i].mult : rates[i].mbps) == n)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

/*
 * Only exact numbers convert back; everything in between, zero, negative
 * or huge is IBV_RATE_MAX. The scan covers every number up to past the
 * largest rate, so it also proves there is no rounding.
 */
static void test_numbers_to_rate(void **state)
{
	static const int extremes[] = { INT_MIN, INT_MIN + 1, -100000,
					-1,	 INT_MAX - 1, INT_MAX };
	int n;
	size_t i;

	for (n = -1000; n <= 2000; n++)
		assert_int_equal(mult_to_ibv_rate(n), expected_rate(n, true));
	for (n = -1000; n <= 1400000; n++)
		if (mbps_to_ibv_rate(n) != expected_rate(n, false))
			fail_msg("mbps_to_ibv_rate(%d) = %d", n,
				 mbps_to_ibv_rate(n));
	for (i = 0; i < N(extremes); i++) {
		assert_int_equal(mult_to_ibv_rate(extremes[i]), IBV_RATE_MAX);
		assert_int_equal(mbps_to_ibv_rate(extremes[i]), IBV_RATE_MAX);
	}
	assert_int_equal(mult_to_ibv_rate(11), IBV_RATE_28_GBPS);
	assert_int_equal(mbps_to_ibv_rate(14062), IBV_RATE_14_GBPS);
}

/* Fills @p with bytes that differ from their neighbours and from 0xee. */
static void pattern(void *p, size_t len)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = 0x10 + i;
}

/* What the reference writes into an ibv_ah_attr from the kernel's form. */
static void expect_ah(struct ibv_ah_attr *e, const struct ib_uverbs_ah_attr *k)
{
	memcpy(e->grh.dgid.raw, k->grh.dgid, 16);
	e->grh.flow_label = k->grh.flow_label;
	e->grh.sgid_index = k->grh.sgid_index;
	e->grh.hop_limit = k->grh.hop_limit;
	e->grh.traffic_class = k->grh.traffic_class;
	e->dlid = k->dlid;
	e->sl = k->sl;
	e->src_path_bits = k->src_path_bits;
	e->static_rate = k->static_rate;
	e->is_global = k->is_global;
	e->port_num = k->port_num;
}

static void test_copy_ah_attr(void **state)
{
	struct ib_uverbs_ah_attr k;
	struct ibv_ah_attr got, exp;

	pattern(&k, sizeof(k));
	memset(&got, 0xee, sizeof(got));
	memset(&exp, 0xee, sizeof(exp));
	expect_ah(&exp, &k);
	ibv_copy_ah_attr_from_kern(&got, &k);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The padding after traffic_class and after port_num is kept. */
	assert_int_equal(((unsigned char *)&got)[23], 0xee);
	assert_int_equal(((unsigned char *)&got)[31], 0xee);
}

static void test_copy_qp_attr(void **state)
{
	struct ib_uverbs_qp_attr k;
	struct ibv_qp_attr got, exp;

	pattern(&k, sizeof(k));
	memset(&got, 0xee, sizeof(got));
	memset(&exp, 0xee, sizeof(exp));
	exp.cur_qp_state = k.cur_qp_state;
	exp.path_mtu = k.path_mtu;
	exp.path_mig_state = k.path_mig_state;
	exp.qkey = k.qkey;
	exp.rq_psn = k.rq_psn;
	exp.sq_psn = k.sq_psn;
	exp.dest_qp_num = k.dest_qp_num;
	exp.qp_access_flags = k.qp_access_flags;
	exp.cap.max_send_wr = k.max_send_wr;
	exp.cap.max_recv_wr = k.max_recv_wr;
	exp.cap.max_send_sge = k.max_send_sge;
	exp.cap.max_recv_sge = k.max_recv_sge;
	exp.cap.max_inline_data = k.max_inline_data;
	expect_ah(&exp.ah_attr, &k.ah_attr);
	expect_ah(&exp.alt_ah_attr, &k.alt_ah_attr);
	exp.pkey_index = k.pkey_index;
	exp.alt_pkey_index = k.alt_pkey_index;
	exp.en_sqd_async_notify = k.en_sqd_async_notify;
	exp.sq_draining = k.sq_draining;
	exp.max_rd_atomic = k.max_rd_atomic;
	exp.max_dest_rd_atomic = k.max_dest_rd_atomic;
	exp.min_rnr_timer = k.min_rnr_timer;
	exp.port_num = k.port_num;
	exp.timeout = k.timeout;
	exp.retry_cnt = k.retry_cnt;
	exp.rnr_retry = k.rnr_retry;
	exp.alt_port_num = k.alt_port_num;
	exp.alt_timeout = k.alt_timeout;
	ibv_copy_qp_attr_from_kern(&got, &k);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* Quirks of the reference: qp_state and rate_limit are not copied. */
	assert_int_equal(got.qp_state, 0xeeeeeeee);
	assert_int_equal(got.rate_limit, 0xeeeeeeee);
}

static void test_copy_path_rec_from_kern(void **state)
{
	struct ib_user_path_rec k;
	struct ibv_sa_path_rec got, exp;

	pattern(&k, sizeof(k));
	memset(&got, 0xee, sizeof(got));
	memset(&exp, 0xee, sizeof(exp));
	memcpy(exp.dgid.raw, k.dgid, 16);
	memcpy(exp.sgid.raw, k.sgid, 16);
	exp.dlid = k.dlid;
	exp.slid = k.slid;
	exp.raw_traffic = k.raw_traffic;
	exp.flow_label = k.flow_label;
	exp.hop_limit = k.hop_limit;
	exp.traffic_class = k.traffic_class;
	exp.reversible = k.reversible;
	exp.numb_path = k.numb_path;
	exp.pkey = k.pkey;
	exp.sl = k.sl;
	exp.mtu_selector = k.mtu_selector;
	exp.mtu = k.mtu;
	exp.rate_selector = k.rate_selector;
	exp.rate = k.rate;
	exp.packet_life_time_selector = k.packet_life_time_selector;
	exp.packet_life_time = k.packet_life_time;
	exp.preference = k.preference;
	ibv_copy_path_rec_from_kern(&got, &k);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The kernel's mtu is 32 bits; its low byte (offset 48) survives. */
	assert_int_equal(got.mtu, 0x10 + 48);
}

static void test_copy_path_rec_to_kern(void **state)
{
	struct ibv_sa_path_rec u;
	struct ib_user_path_rec got, exp;

	pattern(&u, sizeof(u));
	memset(&got, 0xee, sizeof(got));
	memset(&exp, 0xee, sizeof(exp));
	memcpy(exp.dgid, u.dgid.raw, 16);
	memcpy(exp.sgid, u.sgid.raw, 16);
	exp.dlid = u.dlid;
	exp.slid = u.slid;
	exp.raw_traffic = u.raw_traffic;
	exp.flow_label = u.flow_label;
	exp.reversible = u.reversible;
	exp.mtu = u.mtu;
	exp.pkey = u.pkey;
	exp.hop_limit = u.hop_limit;
	exp.traffic_class = u.traffic_class;
	exp.numb_path = u.numb_path;
	exp.sl = u.sl;
	exp.mtu_selector = u.mtu_selector;
	exp.rate_selector = u.rate_selector;
	exp.rate = u.rate;
	exp.packet_life_time_selector = u.packet_life_time_selector;
	exp.packet_life_time = u.packet_life_time;
	exp.preference = u.preference;
	ibv_copy_path_rec_to_kern(&got, &u);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The public 8-bit mtu widens with zeroes. */
	assert_int_equal(got.mtu, 0x10 + 58);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library),
		cmocka_unit_test(test_node_type_str),
		cmocka_unit_test(test_port_state_str),
		cmocka_unit_test(test_event_type_str),
		cmocka_unit_test(test_wc_status_str),
		cmocka_unit_test(test_rate_to_numbers),
		cmocka_unit_test(test_numbers_to_rate),
		cmocka_unit_test(test_copy_ah_attr),
		cmocka_unit_test(test_copy_qp_attr),
		cmocka_unit_test(test_copy_path_rec_from_kern),
		cmocka_unit_test(test_copy_path_rec_to_kern),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
