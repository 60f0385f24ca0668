// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The write() requests of <infiniband/kern-abi.h> against rdma-core 44's
 * layouts. Debian's binary providers embed struct ibv_<cmd> first in
 * their own requests and hand them to the core with their sizes, so each
 * request must keep rdma-core 44's size, and its kernel part must start
 * right after the header (8 bytes; 24 for an extended command). The
 * build already refuses a mismatch (kernel-headers/kabi_verbs.h); this
 * program names each struct that differs, and checks that the direct
 * member names reach the same bytes as core_payload.
 */
#include <infiniband/kern-abi.h> /* first: it must need no other header */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define T_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One request: what our header gives it, and what rdma-core 44 has. */
struct t_req {
	const char *name;
	size_t size;
	size_t core_offset;
	size_t core_size;
	size_t want_hdr;
	size_t want_size;
};

#define T_REQ(cmd, kstruct, hdr, sz)                                    \
	{                                                               \
		.name = #cmd, .size = sizeof(struct cmd),               \
		.core_offset = offsetof(struct cmd, core_payload),      \
		.core_size = sizeof(struct kstruct), .want_hdr = (hdr), \
		.want_size = (sz),                                      \
	}

static const struct t_req reqs[] = {
	T_REQ(ibv_get_context, ib_uverbs_get_context, 8, 16),
	T_REQ(ibv_query_device, ib_uverbs_query_device, 8, 16),
	T_REQ(ibv_query_port, ib_uverbs_query_port, 8, 24),
	T_REQ(ibv_alloc_pd, ib_uverbs_alloc_pd, 8, 16),
	T_REQ(ibv_dealloc_pd, ib_uverbs_dealloc_pd, 8, 12),
	T_REQ(ibv_create_ah, ib_uverbs_create_ah, 8, 64),
	T_REQ(ibv_destroy_ah, ib_uverbs_destroy_ah, 8, 12),
	T_REQ(ibv_reg_mr, ib_uverbs_reg_mr, 8, 48),
	T_REQ(ibv_rereg_mr, ib_uverbs_rereg_mr, 8, 56),
	T_REQ(ibv_dereg_mr, ib_uverbs_dereg_mr, 8, 12),
	T_REQ(ibv_alloc_mw, ib_uverbs_alloc_mw, 8, 24),
	T_REQ(ibv_dealloc_mw, ib_uverbs_dealloc_mw, 8, 12),
	T_REQ(ibv_create_comp_channel, ib_uverbs_create_comp_channel, 8, 16),
	T_REQ(ibv_create_cq, ib_uverbs_create_cq, 8, 40),
	T_REQ(ibv_resize_cq, ib_uverbs_resize_cq, 8, 24),
	T_REQ(ibv_destroy_cq, ib_uverbs_destroy_cq, 8, 24),
	T_REQ(ibv_poll_cq, ib_uverbs_poll_cq, 8, 24),
	T_REQ(ibv_req_notify_cq, ib_uverbs_req_notify_cq, 8, 16),
	T_REQ(ibv_create_qp, ib_uverbs_create_qp, 8, 64),
	T_REQ(ibv_query_qp, ib_uverbs_query_qp, 8, 24),
	T_REQ(ibv_modify_qp, ib_uverbs_modify_qp, 8, 120),
	T_REQ(ibv_destroy_qp, ib_uverbs_destroy_qp, 8, 24),
	T_REQ(ibv_post_send, ib_uverbs_post_send, 8, 32),
	T_REQ(ibv_post_recv, ib_uverbs_post_recv, 8, 32),
	T_REQ(ibv_attach_mcast, ib_uverbs_attach_mcast, 8, 32),
	T_REQ(ibv_detach_mcast, ib_uverbs_detach_mcast, 8, 32),
	T_REQ(ibv_create_srq, ib_uverbs_create_srq, 8, 40),
	T_REQ(ibv_modify_srq, ib_uverbs_modify_srq, 8, 24),
	T_REQ(ibv_query_srq, ib_uverbs_query_srq, 8, 24),
	T_REQ(ibv_destroy_srq, ib_uverbs_destroy_srq, 8, 24),
	T_REQ(ibv_post_srq_recv, ib_uverbs_post_srq_recv, 8, 32),
	T_REQ(ibv_open_xrcd, ib_uverbs_open_xrcd, 8, 24),
	T_REQ(ibv_close_xrcd, ib_uverbs_close_xrcd, 8, 12),
	T_REQ(ibv_create_xsrq, ib_uverbs_create_xsrq, 8, 56),
	T_REQ(ibv_open_qp, ib_uverbs_open_qp, 8, 40),
	T_REQ(ibv_query_device_ex, ib_uverbs_ex_query_device, 24, 32),
	T_REQ(ibv_create_cq_ex, ib_uverbs_ex_create_cq, 24, 56),
	T_REQ(ibv_create_qp_ex, ib_uverbs_ex_create_qp, 24, 88),
	T_REQ(ibv_modify_qp_ex, ib_uverbs_ex_modify_qp, 24, 144),
	T_REQ(ibv_create_flow, ib_uverbs_create_flow, 24, 48),
	T_REQ(ibv_destroy_flow, ib_uverbs_destroy_flow, 24, 32),
	T_REQ(ibv_create_wq, ib_uverbs_ex_create_wq, 24, 64),
	T_REQ(ibv_modify_wq, ib_uverbs_ex_modify_wq, 24, 48),
	T_REQ(ibv_destroy_wq, ib_uverbs_ex_destroy_wq, 24, 32),
	T_REQ(ibv_create_rwq_ind_table, ib_uverbs_ex_create_rwq_ind_table, 24,
	      32),
	T_REQ(ibv_destroy_rwq_ind_table, ib_uverbs_ex_destroy_rwq_ind_table, 24,
	      32),
	T_REQ(ibv_modify_cq, ib_uverbs_ex_modify_cq, 24, 40),
	T_REQ(ibv_modify_srq_v3, ib_uverbs_modify_srq_v3, 8, 32),
};

static int t_check_req(const struct t_req *r)
{
	int bad = 0;

	if (r->core_offset != r->want_hdr) {
		print_error("struct %s: core_payload at %zu; rdma-core 44 has "
			    "it at %zu\n",
			    r->name, r->core_offset, r->want_hdr);
		bad++;
	}
	if (r->size != r->want_size || r->size != r->want_hdr + r->core_size) {
		print_error("struct %s: %zu bytes; rdma-core 44 has %zu "
			    "(header %zu + kernel request %zu)\n",
			    r->name, r->size, r->want_size, r->want_hdr,
			    r->core_size);
		bad++;
	}
	return bad;
}

static void requests_keep_their_layout(void **state)
{
	int bad = 0;
	size_t i;

	(void)state;
	for (i = 0; i < T_ARRAY_SIZE(reqs); i++)
		bad += t_check_req(&reqs[i]);
	assert_int_equal(bad, 0);
}

/*
 * Writes through a direct member name and reads it back through
 * core_payload, the two ways providers and the core reach the same
 * field.
 */
static void members_alias_core_payload(void **state)
{
	struct ibv_create_cq cq;
	struct ibv_create_qp_ex qp;
	struct ibv_modify_qp mq;

	(void)state;
	assert_int_equal(offsetof(struct ibv_create_cq, user_handle),
			 8 + offsetof(struct ib_uverbs_create_cq, user_handle));
	assert_int_equal(offsetof(struct ibv_create_qp_ex, source_qpn),
			 24 + offsetof(struct ib_uverbs_ex_create_qp,
				       source_qpn));
	assert_int_equal(offsetof(struct ibv_modify_qp, alt_dest),
			 8 + offsetof(struct ib_uverbs_modify_qp, alt_dest));

	memset(&cq, 0, sizeof(cq));
	cq.user_handle = 0x1122334455667788ULL;
	cq.comp_channel = -1;
	assert_true(cq.core_payload.user_handle == 0x1122334455667788ULL);
	assert_int_equal(cq.core_payload.comp_channel, -1);

	memset(&qp, 0, sizeof(qp));
	qp.max_inline_data = 64;
	assert_int_equal(qp.core_payload.max_inline_data, 64);

	memset(&mq, 0, sizeof(mq));
	mq.dest.port_num = 2;
	assert_int_equal(mq.core_payload.dest.port_num, 2);
}

/* The extended header and the address of the basic CREATE_QP inside. */
static void extended_header_and_create_qp(void **state)
{
	struct ibv_create_qp_ex ex;
	struct ib_uverbs_create_qp *reg;

	(void)state;
	assert_int_equal(sizeof(struct ex_hdr), 24);
	assert_int_equal(offsetof(struct ibv_create_qp_ex, hdr.ex_hdr.response),
			 8);
	memset(&ex, 0, sizeof(ex));
	reg = ibv_create_qp_ex_to_reg(&ex);
	assert_ptr_equal(&reg->user_handle, &ex.user_handle);
	assert_ptr_equal(&reg->is_srq, &ex.is_srq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(requests_keep_their_layout),
		cmocka_unit_test(members_alias_core_payload),
		cmocka_unit_test(extended_header_and_create_qp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
