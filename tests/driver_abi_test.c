// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider ABIs of the releases of releases/table, against the
 * numbers of their own private headers. Debian's binary providers were
 * compiled with those headers and are loaded by this core, so a
 * structure they share with it must not move, grow or shrink by a byte.
 * Every shared layout is listed here member by member with the
 * reference's offset and size on x86_64 (LP64); a member that differs is
 * reported by name. The offsets of members in the middle of a structure
 * follow from the order and types of its members; they were cross-checked
 * against each ABI's verbs.h and the instructions of its libibverbs.so.
 * On other targets these numbers mean nothing, so the program skips.
 *
 * The program is built once per provider ABI (VERBS_PROVIDER_ABI, as a
 * provider of that ABI is built: driver_abi_test for the newest, 65,
 * driver_abi_test_pabi34 for rdma-core 44 to 56.1) and checks that ABI's
 * numbers; where the two differ the lists below say which is which. A
 * release of the table with a provider ABI not listed here fails
 * test_constants: its layouts need a list of their own.
 */
#include <infiniband/cmd_ioctl.h> /* first: it needs no other header */

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#define T_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define T_MEMBER_SIZE(type, member) sizeof(((type *)0)->member)

/* One member: where it is in our header, and where the reference has it. */
struct t_field {
	const char *name;
	size_t offset;
	size_t size;
	long want_offset;
	size_t want_size;
};

#define T_FIELD(type, member, off, sz)                                     \
	{                                                                  \
		.name = #member, .offset = offsetof(type, member),         \
		.size = T_MEMBER_SIZE(type, member), .want_offset = (off), \
		.want_size = (sz),                                         \
	}

/* A flexible array has no size of its own; only where it starts counts. */
#define T_FLEX(type, member, off)                                  \
	{                                                          \
		.name = #member, .offset = offsetof(type, member), \
		.want_offset = (off),                              \
	}

/*
 * Checks each member of struct @type. Offsets are taken relative to
 * @origin (a member of the same struct; 0 for its start). Prints every
 * mismatch and returns how many there were.
 */
static int t_check_fields(const char *type, size_t origin,
			  const struct t_field *f, size_t n)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		long at = (long)f[i].offset - (long)origin;

		if (at == f[i].want_offset && f[i].size == f[i].want_size)
			continue;
		print_error("struct %s: member %s is at %ld (%zu bytes); "
			    "the reference has it at %ld (%zu bytes)\n",
			    type, f[i].name, at, f[i].size, f[i].want_offset,
			    f[i].want_size);
		bad++;
	}
	return bad;
}

static int t_check_size(const char *type, size_t size, size_t want)
{
	if (size == want)
		return 0;
	print_error("struct %s is %zu bytes; the reference's is %zu\n", type,
		    size, want);
	return 1;
}

static void t_report(const char *type, int bad)
{
	if (bad)
		fail_msg("struct %s: %d difference(s) from the reference", type,
			 bad);
}

/* Size and members of a structure, with offsets from its start. */
static void t_check_struct(const char *type, size_t size, size_t want_size,
			   const struct t_field *f, size_t n)
{
	int bad = t_check_size(type, size, want_size);

	bad += t_check_fields(type, 0, f, n);
	t_report(type, bad);
}

#define T_CHECK_STRUCT(type, want_size, f)                         \
	t_check_struct(#type, sizeof(struct type), (want_size), f, \
		       T_ARRAY_SIZE(f))

static void test_list_node(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct list_node, next, 0, 8),
		T_FIELD(struct list_node, prev, 8, 8),
	};

	T_CHECK_STRUCT(list_node, 16, f);
}

static void test_verbs_device_ops(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_device_ops, name, 0, 8),
		T_FIELD(struct verbs_device_ops, match_min_abi_version, 8, 4),
		T_FIELD(struct verbs_device_ops, match_max_abi_version, 12, 4),
		T_FIELD(struct verbs_device_ops, match_table, 16, 8),
		T_FIELD(struct verbs_device_ops, static_providers, 24, 8),
		T_FIELD(struct verbs_device_ops, match_device, 32, 8),
		T_FIELD(struct verbs_device_ops, alloc_context, 40, 8),
		T_FIELD(struct verbs_device_ops, import_context, 48, 8),
		T_FIELD(struct verbs_device_ops, alloc_device, 56, 8),
		T_FIELD(struct verbs_device_ops, uninit_device, 64, 8),
	};

	T_CHECK_STRUCT(verbs_device_ops, 72, f);
}

static void test_verbs_device(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_device, device, 0, 664),
		T_FIELD(struct verbs_device, ops, 664, 8),
		T_FIELD(struct verbs_device, refcount, 672, 4),
		T_FIELD(struct verbs_device, entry, 680, 16),
		T_FIELD(struct verbs_device, sysfs, 696, 8),
		T_FIELD(struct verbs_device, core_support, 704, 8),
	};

	T_CHECK_STRUCT(verbs_device, 712, f);
}

static void test_verbs_sysfs_dev(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_sysfs_dev, entry, 0, 16),
		T_FIELD(struct verbs_sysfs_dev, provider_data, 16, 8),
		T_FIELD(struct verbs_sysfs_dev, match, 24, 8),
		T_FIELD(struct verbs_sysfs_dev, flags, 32, 4),
		T_FIELD(struct verbs_sysfs_dev, sysfs_name, 36, 64),
		T_FIELD(struct verbs_sysfs_dev, sysfs_cdev, 104, 8),
		T_FIELD(struct verbs_sysfs_dev, ibdev_name, 112, 64),
		T_FIELD(struct verbs_sysfs_dev, ibdev_path, 176, 256),
		T_FIELD(struct verbs_sysfs_dev, modalias, 432, 512),
		T_FIELD(struct verbs_sysfs_dev, node_guid, 944, 8),
		T_FIELD(struct verbs_sysfs_dev, driver_id, 952, 4),
		T_FIELD(struct verbs_sysfs_dev, node_type, 956, 4),
		T_FIELD(struct verbs_sysfs_dev, ibdev_idx, 960, 4),
		T_FIELD(struct verbs_sysfs_dev, num_ports, 964, 4),
		T_FIELD(struct verbs_sysfs_dev, abi_ver, 968, 4),
		T_FIELD(struct verbs_sysfs_dev, time_created, 976, 16),
	};

	T_CHECK_STRUCT(verbs_sysfs_dev, 992, f);
}

/*
 * The public extended context. Applications reach its ops at fixed
 * negative distances from the struct ibv_context they hold, so offsets
 * here are relative to the context member; providers embed the whole
 * struct, so its size and the context's position are pinned too.
 */
#define T_CTX(member, off, sz) T_FIELD(struct verbs_context, member, off, sz)

/* ABI 65 put six slots on top; the context stays where ABI 34 has it. */
#if VERBS_PROVIDER_ABI >= 65
#define T_CTX_SIZE 696
#define T_CTX_AT 368
#else
#define T_CTX_SIZE 648
#define T_CTX_AT 320
#endif

static void test_verbs_context(void **state)
{
	static const struct t_field f[] = {
#if VERBS_PROVIDER_ABI >= 65
		T_CTX(free_buf, -368, 8),
		T_CTX(alloc_buf, -360, 8),
		T_CTX(dm_export_dmabuf_fd, -352, 8),
		T_CTX(reg_mr_ex, -344, 8),
		T_CTX(dealloc_dmah, -336, 8),
		T_CTX(alloc_dmah, -328, 8),
#endif
		T_CTX(query_port, -320, 8),
		T_CTX(advise_mr, -312, 8),
		T_CTX(alloc_null_mr, -304, 8),
		T_CTX(read_counters, -296, 8),
		T_CTX(attach_counters_point_flow, -288, 8),
		T_CTX(create_counters, -280, 8),
		T_CTX(destroy_counters, -272, 8),
		T_CTX(reg_dm_mr, -264, 8),
		T_CTX(alloc_dm, -256, 8),
		T_CTX(free_dm, -248, 8),
		T_CTX(modify_flow_action_esp, -240, 8),
		T_CTX(destroy_flow_action, -232, 8),
		T_CTX(create_flow_action_esp, -224, 8),
		T_CTX(modify_qp_rate_limit, -216, 8),
		T_CTX(alloc_parent_domain, -208, 8),
		T_CTX(dealloc_td, -200, 8),
		T_CTX(alloc_td, -192, 8),
		T_CTX(modify_cq, -184, 8),
		T_CTX(post_srq_ops, -176, 8),
		T_CTX(destroy_rwq_ind_table, -168, 8),
		T_CTX(create_rwq_ind_table, -160, 8),
		T_CTX(destroy_wq, -152, 8),
		T_CTX(modify_wq, -144, 8),
		T_CTX(create_wq, -136, 8),
		T_CTX(query_rt_values, -128, 8),
		T_CTX(create_cq_ex, -120, 8),
		T_CTX(priv, -112, 8),
		T_CTX(query_device_ex, -104, 8),
		T_CTX(ibv_destroy_flow, -96, 8),
		T_CTX(ABI_placeholder2, -88, 8),
		T_CTX(ibv_create_flow, -80, 8),
		T_CTX(ABI_placeholder1, -72, 8),
		T_CTX(open_qp, -64, 8),
		T_CTX(create_qp_ex, -56, 8),
		T_CTX(get_srq_num, -48, 8),
		T_CTX(create_srq_ex, -40, 8),
		T_CTX(open_xrcd, -32, 8),
		T_CTX(close_xrcd, -24, 8),
		T_CTX(_ABI_placeholder3, -16, 8),
		T_CTX(sz, -8, 8),
		T_CTX(context, 0, 328),
	};
	size_t origin = offsetof(struct verbs_context, context);
	int bad;

	bad = t_check_size("verbs_context", sizeof(struct verbs_context),
			   T_CTX_SIZE);
	if (origin != T_CTX_AT) {
		print_error("struct verbs_context: member context is at %zu; "
			    "the reference has it at %d\n",
			    origin, T_CTX_AT);
		bad++;
	}
	bad += t_check_fields("verbs_context (from context)", origin, f,
			      T_ARRAY_SIZE(f));
	t_report("verbs_context", bad);
}

/*
 * The provider op table, in the reference's order: alphabetical, one
 * pointer each. The table is generated from the names, so a slot that was
 * renamed fails to compile and one that moved is reported with its name.
 */
struct t_slot {
	const char *name;
	size_t offset;
	size_t size;
};

#define T_OP(op)                                                               \
	{                                                                      \
		.name = #op, .offset = offsetof(struct verbs_context_ops, op), \
		.size = T_MEMBER_SIZE(struct verbs_context_ops, op),           \
	}

/*
 * Every op by name in the reference's order; those ABI 65 inserted are
 * marked, and absent from ABI 34's table.
 */
#if VERBS_PROVIDER_ABI >= 65
#define T_OP65(op) T_OP(op),
#define T_N_OPS 93
#else
#define T_OP65(op)
#define T_N_OPS 76
#endif

/* clang-format off */
static const struct t_slot ops[] = {
	T_OP(advise_mr),
	T_OP65(alloc_buf)
	T_OP(alloc_dm),
	T_OP65(alloc_dmah)
	T_OP(alloc_mw),
	T_OP(alloc_null_mr),
	T_OP(alloc_parent_domain),
	T_OP(alloc_pd),
	T_OP(alloc_td),
	T_OP(async_event),
	T_OP(attach_counters_point_flow),
	T_OP(attach_mcast),
	T_OP(bind_mw),
	T_OP(close_xrcd),
	T_OP(cq_event),
	T_OP(create_ah),
	T_OP65(create_comp_cntr)
	T_OP(create_counters),
	T_OP(create_cq),
	T_OP(create_cq_ex),
	T_OP(create_flow),
	T_OP(create_flow_action_esp),
	T_OP(create_qp),
	T_OP(create_qp_ex),
	T_OP(create_rwq_ind_table),
	T_OP(create_srq),
	T_OP(create_srq_ex),
	T_OP(create_wq),
	T_OP65(dealloc_dmah)
	T_OP(dealloc_mw),
	T_OP(dealloc_pd),
	T_OP(dealloc_td),
	T_OP(dereg_mr),
	T_OP(destroy_ah),
	T_OP65(destroy_comp_cntr)
	T_OP(destroy_counters),
	T_OP(destroy_cq),
	T_OP(destroy_flow),
	T_OP(destroy_flow_action),
	T_OP(destroy_qp),
	T_OP(destroy_rwq_ind_table),
	T_OP(destroy_srq),
	T_OP(destroy_wq),
	T_OP(detach_mcast),
	T_OP65(dm_export_dmabuf_fd)
	T_OP65(free_buf)
	T_OP(free_context),
	T_OP(free_dm),
	T_OP(get_srq_num),
	T_OP(import_dm),
	T_OP(import_mr),
	T_OP(import_pd),
	T_OP65(inc_comp_cntr)
	T_OP65(inc_err_comp_cntr)
	T_OP(modify_cq),
	T_OP(modify_flow_action_esp),
	T_OP(modify_qp),
	T_OP(modify_qp_rate_limit),
	T_OP(modify_srq),
	T_OP(modify_wq),
	T_OP(open_qp),
	T_OP(open_xrcd),
	T_OP(poll_cq),
	T_OP(post_recv),
	T_OP(post_send),
	T_OP(post_srq_ops),
	T_OP(post_srq_recv),
	T_OP65(qp_attach_comp_cntr)
	T_OP65(query_comp_cntr_caps)
	T_OP(query_device_ex),
	T_OP(query_ece),
	T_OP(query_port),
	T_OP65(query_port_speed)
	T_OP(query_qp),
	T_OP(query_qp_data_in_order),
	T_OP(query_rt_values),
	T_OP(query_srq),
	T_OP65(read_comp_cntr)
	T_OP(read_counters),
	T_OP65(read_err_comp_cntr)
	T_OP(reg_dm_mr),
	T_OP(reg_dmabuf_mr),
	T_OP(reg_mr),
	T_OP65(reg_mr_ex)
	T_OP(req_notify_cq),
	T_OP(rereg_mr),
	T_OP(resize_cq),
	T_OP65(set_comp_cntr)
	T_OP(set_ece),
	T_OP65(set_err_comp_cntr)
	T_OP(unimport_dm),
	T_OP(unimport_mr),
	T_OP(unimport_pd),
};
/* clang-format on */

static void test_verbs_context_ops(void **state)
{
	size_t n = T_ARRAY_SIZE(ops);
	int bad = 0;
	size_t i;

	if (n != T_N_OPS) {
		print_error("this test lists %zu ops; the reference has %d\n",
			    n, T_N_OPS);
		bad++;
	}
	bad += t_check_size("verbs_context_ops",
			    sizeof(struct verbs_context_ops), T_N_OPS * 8);
	for (i = 0; i < n; i++) {
		const struct t_slot *s = &ops[i];

		/* Keeps the list above honest: the order is by name. */
		if (i && strcmp(ops[i - 1].name, s->name) >= 0) {
			print_error("list out of order: %s before %s\n",
				    ops[i - 1].name, s->name);
			bad++;
		}
		if (s->offset == 8 * i && s->size == 8)
			continue;
		print_error("struct verbs_context_ops: op %s is at %zu (slot "
			    "%zu, %zu bytes); the reference has it at %zu "
			    "(slot %zu, 8 bytes)\n",
			    s->name, s->offset, s->offset / 8, s->size, 8 * i,
			    i);
		bad++;
	}
	t_report("verbs_context_ops", bad);
}

static void test_verbs_match_ent(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_match_ent, driver_data, 0, 8),
		T_FIELD(struct verbs_match_ent, u, 8, 8),
		T_FIELD(struct verbs_match_ent, u.modalias, 8, 8),
		T_FIELD(struct verbs_match_ent, u.driver_id, 8, 8),
		T_FIELD(struct verbs_match_ent, vendor, 16, 2),
		T_FIELD(struct verbs_match_ent, device, 18, 2),
		T_FIELD(struct verbs_match_ent, kind, 20, 1),
	};

	T_CHECK_STRUCT(verbs_match_ent, 24, f);
}

/* The object wrappers providers embed their objects in. */
static void test_verbs_mr(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_mr, ibv_mr, 0, 48),
		T_FIELD(struct verbs_mr, mr_type, 48, 4),
		T_FIELD(struct verbs_mr, access, 52, 4),
	};

	T_CHECK_STRUCT(verbs_mr, 56, f);
}

static void test_verbs_qp(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_qp, qp, 0, 160),
		T_FIELD(struct verbs_qp, qp_ex, 0, 360),
		T_FIELD(struct verbs_qp, comp_mask, 360, 4),
		T_FIELD(struct verbs_qp, xrcd, 368, 8),
	};

	/*
	 * rdma-core 56.1's layout: struct ibv_qp_ex grew wr_flush at its
	 * end, which moved comp_mask and xrcd by 8 bytes (Debian 13's
	 * ibv_qp_to_qp_ex() tests offset 0x168, Debian 12's 0x160).
	 */
	T_CHECK_STRUCT(verbs_qp, 376, f);
}

static void test_verbs_cq(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_cq, cq, 0, 128),
		T_FIELD(struct verbs_cq, cq_ex, 0, 288),
	};

	T_CHECK_STRUCT(verbs_cq, 288, f);
}

static void test_verbs_srq(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_srq, srq, 0, 128),
		T_FIELD(struct verbs_srq, srq_type, 128, 4),
		T_FIELD(struct verbs_srq, xrcd, 136, 8),
		T_FIELD(struct verbs_srq, cq, 144, 8),
		T_FIELD(struct verbs_srq, srq_num, 152, 4),
	};

	T_CHECK_STRUCT(verbs_srq, 160, f);
}

static void test_verbs_xrcd(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_xrcd, xrcd, 0, 8),
		T_FIELD(struct verbs_xrcd, comp_mask, 8, 4),
		T_FIELD(struct verbs_xrcd, handle, 12, 4),
	};

	T_CHECK_STRUCT(verbs_xrcd, 16, f);
}

static void test_verbs_flow_action(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_flow_action, action, 0, 8),
		T_FIELD(struct verbs_flow_action, handle, 8, 4),
		T_FIELD(struct verbs_flow_action, type, 12, 4),
	};

	T_CHECK_STRUCT(verbs_flow_action, 16, f);
}

static void test_verbs_dm(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_dm, dm, 0, 32),
		T_FIELD(struct verbs_dm, handle, 32, 4),
	};

	T_CHECK_STRUCT(verbs_dm, 40, f);
}

static void test_verbs_counters(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct verbs_counters, counters, 0, 8),
		T_FIELD(struct verbs_counters, handle, 8, 4),
	};

	T_CHECK_STRUCT(verbs_counters, 16, f);
}

/* The structures provider ABI 65 brought. */
static void test_abi65_structs(void **state)
{
#if VERBS_PROVIDER_ABI >= 65
	static const struct t_field buf[] = {
		T_FIELD(struct ibv_buf, addr, 0, 8),
		T_FIELD(struct ibv_buf, size, 8, 8),
		T_FIELD(struct ibv_buf, pd, 16, 8),
		T_FIELD(struct ibv_buf, dmabuf_fd, 24, 4),
	};
	static const struct t_field dmah[] = {
		T_FIELD(struct verbs_dmah, dmah, 0, 8),
		T_FIELD(struct verbs_dmah, handle, 8, 4),
	};
	static const struct t_field prov[] = {
		T_FIELD(struct verbs_create_cq_prov_attr, buffer.length, 0, 8),
		T_FIELD(struct verbs_create_cq_prov_attr, buffer.ptr, 8, 8),
		T_FIELD(struct verbs_create_cq_prov_attr, buffer.dmabuf.offset,
			8, 8),
		T_FIELD(struct verbs_create_cq_prov_attr, buffer.dmabuf.fd, 16,
			4),
	};

	T_CHECK_STRUCT(ibv_buf, 32, buf);
	T_CHECK_STRUCT(verbs_dmah, 16, dmah);
	T_CHECK_STRUCT(verbs_create_cq_prov_attr, 24, prov);
#else
	skip();
#endif
}

/* The kernel's structures, as the command buffer lays them out. */
static void test_ib_uverbs_attr(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct ib_uverbs_attr, attr_id, 0, 2),
		T_FIELD(struct ib_uverbs_attr, len, 2, 2),
		T_FIELD(struct ib_uverbs_attr, flags, 4, 2),
		T_FIELD(struct ib_uverbs_attr, attr_data, 6, 2),
		T_FIELD(struct ib_uverbs_attr, attr_data.enum_data.elem_id, 6,
			1),
		T_FIELD(struct ib_uverbs_attr, data, 8, 8),
	};

	T_CHECK_STRUCT(ib_uverbs_attr, 16, f);
}

static void test_ib_uverbs_ioctl_hdr(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct ib_uverbs_ioctl_hdr, length, 0, 2),
		T_FIELD(struct ib_uverbs_ioctl_hdr, object_id, 2, 2),
		T_FIELD(struct ib_uverbs_ioctl_hdr, method_id, 4, 2),
		T_FIELD(struct ib_uverbs_ioctl_hdr, num_attrs, 6, 2),
		T_FIELD(struct ib_uverbs_ioctl_hdr, reserved1, 8, 8),
		T_FIELD(struct ib_uverbs_ioctl_hdr, driver_id, 16, 4),
		T_FIELD(struct ib_uverbs_ioctl_hdr, reserved2, 20, 4),
		T_FLEX(struct ib_uverbs_ioctl_hdr, attrs, 24),
	};

	T_CHECK_STRUCT(ib_uverbs_ioctl_hdr, 24, f);
}

static void test_command_buffer(void **state)
{
	static const struct t_field f[] = {
		T_FIELD(struct ibv_command_buffer, next, 0, 8),
		T_FIELD(struct ibv_command_buffer, next_attr, 8, 8),
		T_FIELD(struct ibv_command_buffer, last_attr, 16, 8),
		T_FIELD(struct ibv_command_buffer, uhw_in_idx, 24, 1),
		T_FIELD(struct ibv_command_buffer, uhw_out_idx, 25, 1),
		T_FIELD(struct ibv_command_buffer, uhw_in_headroom_dwords, 26,
			1),
		T_FIELD(struct ibv_command_buffer, uhw_out_headroom_dwords, 27,
			1),
		T_FIELD(struct ibv_command_buffer, hdr, 32, 24),
		T_FLEX(struct ibv_command_buffer, hdr.attrs, 56),
	};
	struct ibv_command_buffer cmdb;
	int bad;

	bad = t_check_size("ibv_command_buffer",
			   sizeof(struct ibv_command_buffer), 56);
	bad += t_check_fields("ibv_command_buffer", 0, f, T_ARRAY_SIZE(f));
	/* The array a provider fills starts right behind the buffer. */
	if ((uint8_t *)cmdb.hdr.attrs - (uint8_t *)&cmdb != 56) {
		print_error("struct ibv_command_buffer: hdr.attrs of a buffer "
			    "is at %td; the reference has it at 56\n",
			    (uint8_t *)cmdb.hdr.attrs - (uint8_t *)&cmdb);
		bad++;
	}
	if (ibv_cmd_buffer_size(0) != 56 || ibv_cmd_buffer_size(3) != 104) {
		print_error("ibv_cmd_buffer_size() gives %zu and %zu for 0 and "
			    "3 attributes; expected 56 and 104\n",
			    ibv_cmd_buffer_size(0), ibv_cmd_buffer_size(3));
		bad++;
	}
	t_report("ibv_command_buffer", bad);
}

/*
 * A flag set alone in a zeroed buffer must show as exactly one bit of
 * byte 28 and nowhere else.
 */
static int t_check_flag(const char *name, const struct ibv_command_buffer *b,
			unsigned int bit)
{
	const uint8_t *p = (const uint8_t *)b;
	int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(*b); i++) {
		uint8_t want = i == 28 ? 1u << bit : 0;

		if (p[i] == want)
			continue;
		print_error("struct ibv_command_buffer: setting %s gives byte "
			    "%zu = %#x; rdma-core 44 sets bit %u of byte 28 "
			    "only\n",
			    name, i, p[i], bit);
		bad++;
	}
	return bad;
}

static void test_command_buffer_flags(void **state)
{
	struct ibv_command_buffer b;
	int bad;

	memset(&b, 0, sizeof(b));
	b.buffer_error = 1;
	bad = t_check_flag("buffer_error", &b, 0);

	memset(&b, 0, sizeof(b));
	b.fallback_require_ex = 1;
	bad += t_check_flag("fallback_require_ex", &b, 1);

	memset(&b, 0, sizeof(b));
	b.fallback_ioctl_only = 1;
	bad += t_check_flag("fallback_ioctl_only", &b, 2);

	t_report("ibv_command_buffer (flags)", bad);
}

/* Named constants compiled into providers. */
struct t_const {
	const char *name;
	long long value;
	long long want;
};

#define T_CONST(c, v)                                             \
	{                                                         \
		.name = #c, .value = (long long)(c), .want = (v), \
	}

/* Every release of the table speaks a provider ABI listed here. */
#define T_RELEASE_PABI(rel, deb, suite, abi, pabi, kernel, qp_ex, dmabuf) \
	{ "provider ABI of " rel " (34 or 65)",                           \
	  (pabi) == 34 || (pabi) == 65 ? (pabi) : -1, pabi },

static void test_constants(void **state)
{
	static const struct t_const c[] = {
		T_CONST(VERBS_LOG_LEVEL_NONE, 0),
		T_CONST(VERBS_LOG_ERR, 1),
		T_CONST(VERBS_LOG_WARN, 2),
		T_CONST(VERBS_LOG_INFO, 3),
		T_CONST(VERBS_LOG_DEBUG, 4),
		T_CONST(VSYSFS_READ_MODALIAS, 1),
		T_CONST(VSYSFS_READ_NODE_GUID, 2),
		T_CONST(VERBS_MATCH_SENTINEL, 0),
		T_CONST(VERBS_MATCH_PCI, 1),
		T_CONST(VERBS_MATCH_MODALIAS, 2),
		T_CONST(VERBS_MATCH_DRIVER_ID, 3),
		T_CONST(IBV_MR_TYPE_MR, 0),
		T_CONST(IBV_MR_TYPE_NULL_MR, 1),
		T_CONST(IBV_MR_TYPE_IMPORTED_MR, 2),
		T_CONST(IBV_MR_TYPE_DMABUF_MR, 3),
		/*
		 * Seen in Debian's libibverbs: ibv_cmd_open_qp() stores 1 in
		 * verbs_qp.comp_mask, ibv_qp_to_qp_ex() tests it with 2,
		 * ibv_cmd_open_xrcd() stores 1 in verbs_xrcd.comp_mask and
		 * ibv_cmd_create_flow_action_esp() 1 in verbs_flow_action.type.
		 */
		T_CONST(VERBS_QP_XRCD, 1),
		T_CONST(VERBS_QP_EX, 2),
		T_CONST(VERBS_XRCD_HANDLE, 1),
		T_CONST(IBV_FLOW_ACTION_UNSPECIFIED, 0),
		T_CONST(IBV_FLOW_ACTION_ESP, 1),
		T_CONST(CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX, 1),
#if VERBS_PROVIDER_ABI >= 65
		T_CONST(CREATE_CQ_CMD_FLAGS_WITH_MEM_VA, 2),
		T_CONST(CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF, 4),
#endif
		/* and last, the provider ABI of each release of the table */
		IBV_FOR_EACH_RELEASE(T_RELEASE_PABI)
	};
	int bad = 0;
	size_t i;

	for (i = 0; i < T_ARRAY_SIZE(c); i++) {
		if (c[i].value == c[i].want)
			continue;
		print_error("%s is %lld; the reference has %lld\n", c[i].name,
			    c[i].value, c[i].want);
		bad++;
	}
	if (bad)
		fail_msg("%d constant(s) differ from the reference's", bad);
}

#define T_STR(x) #x
#define T_XSTR(x) T_STR(x)

/*
 * Providers call verbs_register_driver(); the private ABI number must end
 * up in the symbol they import, verbs_register_driver_<N>@IBVERBS_PRIVATE_<N>.
 */
#define T_REGISTER_NAME "verbs_register_driver_" T_XSTR(VERBS_PROVIDER_ABI)
#define T_PASTE(a, b) a##b
#define T_REGISTER_FN(n) T_PASTE(verbs_register_driver_, n)
#define T_PABI_NODE "IBVERBS_PRIVATE_" T_XSTR(VERBS_PROVIDER_ABI)

static void test_register_name(void **state)
{
	void (*by_macro)(const struct verbs_device_ops *) =
		verbs_register_driver;
	void (*by_name)(const struct verbs_device_ops *) =
		T_REGISTER_FN(VERBS_PROVIDER_ABI);
	void *versioned;

	if (strcmp(T_XSTR(verbs_register_driver), T_REGISTER_NAME))
		fail_msg("verbs_register_driver expands to %s; providers "
			 "import " T_REGISTER_NAME,
			 T_XSTR(verbs_register_driver));
	assert_ptr_equal(by_macro, by_name);

	versioned = dlvsym(RTLD_DEFAULT, T_REGISTER_NAME, T_PABI_NODE);
	if (!versioned)
		fail_msg("no " T_REGISTER_NAME "@" T_PABI_NODE ": %s",
			 dlerror());
	assert_ptr_equal(versioned, (void *)by_name);
}

/* What the match-table macros put where the core looks. */
static void test_match_macros(void **state)
{
	static int data;
	static const struct verbs_match_ent t[] = {
		VERBS_DRIVER_ID(7),
		VERBS_PCI_MATCH(0x15b3, 0x1017, &data),
		VERBS_MODALIAS_MATCH("vmbus:*", &data),
		VERBS_NAME_MATCH("rxe", NULL),
		{},
	};

	assert_int_equal(t[0].kind, VERBS_MATCH_DRIVER_ID);
	assert_int_equal(t[0].u.driver_id, 7);
	assert_int_equal(t[1].kind, VERBS_MATCH_PCI);
	assert_int_equal(t[1].vendor, 0x15b3);
	assert_int_equal(t[1].device, 0x1017);
	assert_ptr_equal(t[1].driver_data, &data);
	assert_int_equal(t[2].kind, VERBS_MATCH_MODALIAS);
	assert_string_equal(t[2].u.modalias, "vmbus:*");
	assert_int_equal(t[3].kind, VERBS_MATCH_MODALIAS);
	assert_string_equal(t[3].u.modalias, "rdma_device:*Nrxe*");
	assert_int_equal(t[4].kind, VERBS_MATCH_SENTINEL);
}

int main(void)
{
#if !defined(__x86_64__) || !defined(__LP64__)
	printf("SKIP: the numbers pinned here are the reference's x86_64 "
	       "LP64 layouts; this build targets another ABI\n");
	return 77;
#endif
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_node),
		cmocka_unit_test(test_verbs_device_ops),
		cmocka_unit_test(test_verbs_device),
		cmocka_unit_test(test_verbs_sysfs_dev),
		cmocka_unit_test(test_verbs_context),
		cmocka_unit_test(test_verbs_context_ops),
		cmocka_unit_test(test_verbs_match_ent),
		cmocka_unit_test(test_verbs_mr),
		cmocka_unit_test(test_verbs_qp),
		cmocka_unit_test(test_verbs_cq),
		cmocka_unit_test(test_verbs_srq),
		cmocka_unit_test(test_verbs_xrcd),
		cmocka_unit_test(test_verbs_flow_action),
		cmocka_unit_test(test_verbs_dm),
		cmocka_unit_test(test_verbs_counters),
		cmocka_unit_test(test_abi65_structs),
		cmocka_unit_test(test_ib_uverbs_attr),
		cmocka_unit_test(test_ib_uverbs_ioctl_hdr),
		cmocka_unit_test(test_command_buffer),
		cmocka_unit_test(test_command_buffer_flags),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_register_name),
		cmocka_unit_test(test_match_macros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
