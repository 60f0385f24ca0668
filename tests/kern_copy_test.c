// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel-struct copies of kern_copy.c that librdmacm uses: what each
 * writes, and the bytes it leaves alone. Every expected value was read
 * off Debian's rdma-core 44 libibverbs; with IBV_TEST_REFERENCE=1 this
 * binary runs against that library and must pass unchanged.
 */
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

/*
 * Exported, but no installed header declares them: declared here as
 * librdmacm does, not from libibverbs/kern_copy.h, so that this binary
 * also runs unchanged on the reference library.
 */
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

/*
 * Where the copies' quirks sit, as offsets written from the layouts:
 * struct ibv_ah_attr's padding after grh.traffic_class and after
 * port_num; the mtu of struct ib_user_path_rec (the kernel's, 32 bits)
 * and of struct ibv_sa_path_rec (8 bits).
 */
enum {
	AH_ATTR_PAD_AFTER_TRAFFIC_CLASS = 23,
	AH_ATTR_PAD_AFTER_PORT_NUM = 31,
	USER_PATH_REC_MTU = 48,
	SA_PATH_REC_MTU = 58,
};

/* Fills @p with bytes that differ from their neighbours and from 0xee. */
static void pattern(void *p, size_t len)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = 0x10 + i;
}

/* A source in the pattern; the result and its expectation all 0xee. */
static void start(void *src, size_t src_len, void *got, void *exp, size_t len)
{
	pattern(src, src_len);
	memset(got, 0xee, len);
	memset(exp, 0xee, len);
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

	start(&k, sizeof(k), &got, &exp, sizeof(got));
	expect_ah(&exp, &k);
	ibv_copy_ah_attr_from_kern(&got, &k);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The padding after traffic_class and after port_num is kept. */
	assert_int_equal(
		((unsigned char *)&got)[AH_ATTR_PAD_AFTER_TRAFFIC_CLASS], 0xee);
	assert_int_equal(((unsigned char *)&got)[AH_ATTR_PAD_AFTER_PORT_NUM],
			 0xee);
}

static void test_copy_qp_attr(void **state)
{
	struct ib_uverbs_qp_attr k;
	struct ibv_qp_attr got, exp;

	start(&k, sizeof(k), &got, &exp, sizeof(got));
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

/*
 * struct ibv_sa_path_rec and struct ib_user_path_rec name their fields
 * alike: both copies move every one of these, each way (the GIDs, raw
 * arrays on one side, apart).
 */
#define PATH_REC_FIELDS(OP, dst, src)            \
	OP(dst, src, dlid);                      \
	OP(dst, src, slid);                      \
	OP(dst, src, raw_traffic);               \
	OP(dst, src, flow_label);                \
	OP(dst, src, hop_limit);                 \
	OP(dst, src, traffic_class);             \
	OP(dst, src, reversible);                \
	OP(dst, src, numb_path);                 \
	OP(dst, src, pkey);                      \
	OP(dst, src, sl);                        \
	OP(dst, src, mtu_selector);              \
	OP(dst, src, mtu);                       \
	OP(dst, src, rate_selector);             \
	OP(dst, src, rate);                      \
	OP(dst, src, packet_life_time_selector); \
	OP(dst, src, packet_life_time);          \
	OP(dst, src, preference)
#define SET_FIELD(dst, src, f) ((dst).f = (src).f)

static void test_copy_path_rec_from_kern(void **state)
{
	struct ib_user_path_rec k;
	struct ibv_sa_path_rec got, exp;

	start(&k, sizeof(k), &got, &exp, sizeof(got));
	memcpy(exp.dgid.raw, k.dgid, 16);
	memcpy(exp.sgid.raw, k.sgid, 16);
	PATH_REC_FIELDS(SET_FIELD, exp, k);
	ibv_copy_path_rec_from_kern(&got, &k);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The kernel's mtu is 32 bits; its low byte survives. */
	assert_int_equal(got.mtu, 0x10 + USER_PATH_REC_MTU);
}

static void test_copy_path_rec_to_kern(void **state)
{
	struct ibv_sa_path_rec u;
	struct ib_user_path_rec got, exp;

	start(&u, sizeof(u), &got, &exp, sizeof(got));
	memcpy(exp.dgid, u.dgid.raw, 16);
	memcpy(exp.sgid, u.sgid.raw, 16);
	PATH_REC_FIELDS(SET_FIELD, exp, u);
	ibv_copy_path_rec_to_kern(&got, &u);
	assert_memory_equal(&got, &exp, sizeof(got));
	/* The public 8-bit mtu widens with zeroes. */
	assert_int_equal(got.mtu, 0x10 + SA_PATH_REC_MTU);
}

/* The differential run must really call the reference, and vice versa. */
static int t_library_setup(void **state)
{
	return t_library_under_test((void *)ibv_copy_ah_attr_from_kern) ? 0 :
									  -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_ah_attr),
		cmocka_unit_test(test_copy_qp_attr),
		cmocka_unit_test(test_copy_path_rec_from_kern),
		cmocka_unit_test(test_copy_path_rec_to_kern),
	};

	return cmocka_run_group_tests(tests, t_library_setup, NULL);
}
