/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The verbs that the programs comparing our library with rdma-core 44
 * call through a pointer, each at its default version in rdma-core 44
 * (and, in a table of their own, those rdma-core 65 added):
 * tests/vm/verbs_diff (every verb, ours against Debian's) and
 * bench/verbs_bench (the same verbs, timed). One table, so that both
 * programs bind every verb at the same version.
 *
 * They look the verbs up with dlvsym() rather than linking them: an
 * unversioned reference binds to the oldest version, which for most
 * verbs is the IBVERBS_1.0 wrapper taking a struct ibv_context_1_0, and
 * a verb that one library lacks must not keep the program from loading.
 *
 * The table lives with the VM tier because both programs run in the test
 * VM; bench/CMakeLists.txt compiles verbs_lookup.c into verbs_bench by
 * path, since tests/vm is configured only with ENABLE_VM_TESTS while the
 * benchmarks are always built.
 */
#ifndef VERBS_LOOKUP_H
#define VERBS_LOOKUP_H

#include <infiniband/verbs.h>

#define VERBS_V44(X)                                  \
	X(ibv_get_device_list, "IBVERBS_1.1")         \
	X(ibv_free_device_list, "IBVERBS_1.1")        \
	X(ibv_get_device_name, "IBVERBS_1.1")         \
	X(ibv_open_device, "IBVERBS_1.1")             \
	X(ibv_close_device, "IBVERBS_1.1")            \
	X(ibv_query_device, "IBVERBS_1.1")            \
	X(ibv_query_gid, "IBVERBS_1.1")               \
	X(ibv_query_pkey, "IBVERBS_1.1")              \
	X(ibv_alloc_pd, "IBVERBS_1.1")                \
	X(ibv_dealloc_pd, "IBVERBS_1.1")              \
	X(ibv_reg_mr, "IBVERBS_1.1")                  \
	X(ibv_reg_mr_iova2, "IBVERBS_1.8")            \
	X(ibv_rereg_mr, "IBVERBS_1.1")                \
	X(ibv_dereg_mr, "IBVERBS_1.1")                \
	X(ibv_create_comp_channel, "IBVERBS_1.0")     \
	X(ibv_destroy_comp_channel, "IBVERBS_1.0")    \
	X(ibv_create_cq, "IBVERBS_1.1")               \
	X(ibv_resize_cq, "IBVERBS_1.1")               \
	X(ibv_destroy_cq, "IBVERBS_1.1")              \
	X(ibv_get_cq_event, "IBVERBS_1.1")            \
	X(ibv_create_qp, "IBVERBS_1.1")               \
	X(ibv_modify_qp, "IBVERBS_1.1")               \
	X(ibv_query_qp, "IBVERBS_1.1")                \
	X(ibv_destroy_qp, "IBVERBS_1.1")              \
	X(ibv_qp_to_qp_ex, "IBVERBS_1.6")             \
	X(ibv_query_qp_data_in_order, "IBVERBS_1.14") \
	X(ibv_create_srq, "IBVERBS_1.1")              \
	X(ibv_modify_srq, "IBVERBS_1.1")              \
	X(ibv_query_srq, "IBVERBS_1.1")               \
	X(ibv_destroy_srq, "IBVERBS_1.1")             \
	X(ibv_create_ah, "IBVERBS_1.1")               \
	X(ibv_destroy_ah, "IBVERBS_1.1")              \
	X(ibv_attach_mcast, "IBVERBS_1.1")            \
	X(ibv_detach_mcast, "IBVERBS_1.1")            \
	X(ibv_get_async_event, "IBVERBS_1.1")         \
	X(ibv_wc_status_str, "IBVERBS_1.1")           \
	X(ibv_node_type_str, "IBVERBS_1.1")           \
	X(ibv_port_state_str, "IBVERBS_1.1")          \
	X(ibv_event_type_str, "IBVERBS_1.1")          \
	X(ibv_rate_to_mbps, "IBVERBS_1.1")            \
	X(mbps_to_ibv_rate, "IBVERBS_1.1")            \
	X(ibv_rate_to_mult, "IBVERBS_1.0")            \
	X(mult_to_ibv_rate, "IBVERBS_1.0")

/*
 * The verbs that rdma-core 65 added (IBVERBS_1.15 to 1.18), apart: a
 * library of an older release lacks them all, and verbs_diff reports
 * their steps as not in that release rather than as a failure.
 */
#define VERBS_V65(X)                                 \
	X(ibv_alloc_dmah, "IBVERBS_1.15")            \
	X(ibv_dealloc_dmah, "IBVERBS_1.15")          \
	X(ibv_reg_mr_ex, "IBVERBS_1.15")             \
	X(ibv_query_port_speed, "IBVERBS_1.16")      \
	X(ibv_dm_export_dmabuf_fd, "IBVERBS_1.16")   \
	X(ibv_alloc_buf, "IBVERBS_1.17")             \
	X(ibv_free_buf, "IBVERBS_1.17")              \
	X(ibv_reg_buf_mr, "IBVERBS_1.17")            \
	X(ibv_export_buf_dmabuf_fd, "IBVERBS_1.18")  \
	X(_ibv_query_comp_cntr_caps, "IBVERBS_1.18") \
	X(ibv_create_comp_cntr, "IBVERBS_1.18")      \
	X(ibv_destroy_comp_cntr, "IBVERBS_1.18")     \
	X(ibv_set_comp_cntr, "IBVERBS_1.18")         \
	X(ibv_set_err_comp_cntr, "IBVERBS_1.18")     \
	X(ibv_inc_comp_cntr, "IBVERBS_1.18")         \
	X(ibv_inc_err_comp_cntr, "IBVERBS_1.18")     \
	X(ibv_read_comp_cntr, "IBVERBS_1.18")        \
	X(ibv_read_err_comp_cntr, "IBVERBS_1.18")    \
	X(ibv_qp_attach_comp_cntr, "IBVERBS_1.18")

#define VERBS_FIELD(name, ver) __typeof__(name) *name;

/* One pointer per verb of each table, named as the verb. */
struct verbs_v44 {
	VERBS_V44(VERBS_FIELD)
};

struct verbs_v65 {
	VERBS_V65(VERBS_FIELD)
};

/*
 * verbs.h turns a call of ibv_reg_mr() into an inline function that
 * picks ibv_reg_mr_iova2 for some access flags; through the table a call
 * is the exported verb itself.
 */
#undef ibv_reg_mr

/*
 * Fill @fns from @handle (a dlopen() handle, or RTLD_DEFAULT for the
 * library the program is linked with). A verb not found is left NULL;
 * returns the first of them as "name@version", or NULL when all were.
 */
const char *verbs_lookup(void *handle, struct verbs_v44 *fns);

/* The same for rdma-core 65's verbs, at their versions there. */
const char *verbs_lookup_v65(void *handle, struct verbs_v65 *fns);

#endif
