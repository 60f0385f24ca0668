// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The flow commands of cmd_flow.c against a fake kernel behind the
 * transport seam (t_flow.h): the exact bytes of a create (ioctl, tunnel
 * or write()), the conversion of flow specs into the kernel's layouts
 * and its errors, the kernel's answer decoded into the flow; and the
 * destroys that are an ioctl with an extended write() fallback, run for
 * the flow and, alike, for cmd_wq.c's indirection table. Links the
 * static archive, where the seam hook is reachable.
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

/*
 * The kernel's layouts of a flow as offsets, written from the uverbs ABI:
 * the core request (struct ib_uverbs_create_flow with its flow_attr),
 * the header every spec starts with, and the filters that follow it,
 * the value and then the mask.
 */
enum {
	CREATE_FLOW_ATTR_SIZE = 12,
	CREATE_FLOW_SPECS = 24,
	SPEC_TYPE = 0,
	SPEC_SIZE = 4,
	SPEC_VAL = 8,
	ETH_DST_MAC = 0,
	ETH_SRC_MAC = 6,
	ETH_ETHER_TYPE = 12,
	IPV4_PROTO = 8,
	IPV4_FLAGS = 11,
	IPV4_FILTER_SIZE = 12,
	IPV6_SRC_IP = 0,
	IPV6_HOP_LIMIT = 38,
	IPV6_FILTER_SIZE = 40,
	TUNNEL_ID = 0,
	TUNNEL_FILTER_SIZE = 4,
};

/*
 * Rules are laid out as applications do, packed behind the attribute;
 * the attribute is the rule's first member.
 */
#define T_ATTR(rule) ((struct ibv_flow_attr *)(void *)&(rule))

struct t_flow_eth_ipv4_tcp_tag {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
	struct ibv_flow_spec_ipv4 ipv4;
	struct ibv_flow_spec_tcp_udp tcp;
	struct ibv_flow_spec_action_tag tag;
} __attribute__((packed, aligned(8)));

static void t_fill_rule(struct t_flow_eth_ipv4_tcp_tag *r)
{
	memset(r, 0, sizeof(*r));
	r->attr = (struct ibv_flow_attr){ .type = IBV_FLOW_ATTR_NORMAL,
					  .size = sizeof(*r),
					  .priority = 3,
					  .num_of_specs = 4,
					  .port = 1,
					  .flags = 0x40 };
	r->eth = (struct ibv_flow_spec_eth){
		.type = IBV_FLOW_SPEC_ETH,
		.size = sizeof(r->eth),
		.val = { .dst_mac = { 1, 2, 3, 4, 5, 6 },
			 .ether_type = 0x0008 },
		.mask = { .dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
			  .ether_type = 0xffff },
	};
	r->ipv4 = (struct ibv_flow_spec_ipv4){
		.type = IBV_FLOW_SPEC_IPV4,
		.size = sizeof(r->ipv4),
		.val = { .src_ip = 0x0100000a, .dst_ip = 0x0200000a },
		.mask = { .src_ip = ~0u, .dst_ip = ~0u },
	};
	r->tcp = (struct ibv_flow_spec_tcp_udp){
		.type = IBV_FLOW_SPEC_TCP,
		.size = sizeof(r->tcp),
		.val = { .dst_port = 0x5000 },
		.mask = { .dst_port = 0xffff },
	};
	r->tag = (struct ibv_flow_spec_action_tag){
		.type = IBV_FLOW_SPEC_ACTION_TAG,
		.size = sizeof(r->tag),
		.tag_id = 0xabcdef,
	};
}

/* The kernel's image of t_fill_rule()'s four specs, 96 bytes. */
static uint8_t *put_rule_specs(uint8_t *p)
{
	static const uint8_t mac[6] = { 1, 2, 3, 4, 5, 6 };

	p = t_put32(p, IBV_FLOW_SPEC_ETH);
	p = t_put32(p, 40); /* size, reserved */
	memcpy(p + ETH_DST_MAC, mac, 6);
	memset(p + ETH_SRC_MAC, 0, 6);
	p = t_put16(p + ETH_ETHER_TYPE, 0x0008);
	p = t_put16(p, 0);
	memset(p + ETH_DST_MAC, 0xff, 6);
	memset(p + ETH_SRC_MAC, 0, 6);
	p = t_put16(p + ETH_ETHER_TYPE, 0xffff);
	p = t_put16(p, 0);
	p = t_put32(p, IBV_FLOW_SPEC_IPV4);
	p = t_put32(p, 24);
	p = t_put32(p, 0x0100000a);
	p = t_put32(p, 0x0200000a);
	p = t_put64(p, ~0ull);
	p = t_put32(p, IBV_FLOW_SPEC_TCP);
	p = t_put32(p, 16);
	p = t_put32(p, 0x5000);
	p = t_put32(p, 0xffff);
	p = t_put32(p, IBV_FLOW_SPEC_ACTION_TAG);
	p = t_put32(p, 16);
	p = t_put32(p, 0xabcdef);
	return t_put32(p, 0);
}

/* eth + ipv4 + tcp + tag, with 8 bytes of provider data, over write(). */
static void test_create_flow_bytes(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_flow_eth_ipv4_tcp_tag rule;
	struct ibv_qp qp = { .context = ctx, .handle = 0x31 };
	struct ibv_flow flow = { 0 };
	uint64_t ucmd = 0x1122334455667788ull;
	uint8_t want[EX_HDRS_SIZE + CREATE_FLOW_SPECS + 96 + 8], *p;

	t_fill_rule(&rule);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), &ucmd,
					     sizeof(ucmd)),
			 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_CREATE_FLOW, 15, 1,
			 t_resp_ptr(1), 1, 0);
	p = t_put32(p, 0); /* comp_mask */
	p = t_put32(p, 0x31);
	p = t_put32(p, IBV_FLOW_ATTR_NORMAL);
	p = t_put16(p, 96); /* the kernel specs' length */
	p = t_put16(p, 3);
	*p++ = 4;
	p = t_put16(p, 0); /* reserved */
	*p++ = 1; /* port */
	p = t_put32(p, 0x40);
	p = put_rule_specs(p);
	t_put64(p, ucmd);
	/* The first call is the refused tunnel probe. */
	assert_true(tk.log[0].is_ioctl);
	t_expect(1, false, want, sizeof(want));
	assert_ptr_equal(flow.context, ctx);
	assert_int_equal(flow.handle, T_HANDLE);
}

/* Through INVOKE_WRITE: the same core request, as CORE_IN. */
static void test_create_flow_tunnel(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_flow_eth_ipv4_tcp_tag rule;
	struct ibv_qp qp = { .context = ctx, .handle = 0x31 };
	struct ibv_flow flow = { 0 };
	uint8_t want[24 + 96], *p;

	t_fill_rule(&rule);
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), NULL, 0),
			 0);
	assert_int_equal(tk.ncalls, 1);
	assert_int_equal(tk.log[0].object, UVERBS_OBJECT_DEVICE);
	assert_int_equal(tk.log[0].write_cmd,
			 T_EX | IB_USER_VERBS_EX_CMD_CREATE_FLOW);
	p = t_put32(want, 0);
	p = t_put32(p, 0x31);
	p = t_put32(p, IBV_FLOW_ATTR_NORMAL);
	p = t_put16(p, 96);
	p = t_put16(p, 3);
	*p++ = 4;
	p = t_put16(p, 0); /* reserved */
	*p++ = 1; /* port */
	p = t_put32(p, 0x40);
	put_rule_specs(p);
	assert_int_equal(tk.log[0].core_len, sizeof(want));
	assert_memory_equal(tk.log[0].core, want, sizeof(want));
	assert_int_equal(flow.handle, T_HANDLE);
}

struct t_flow_sized {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_ipv4_ext ipv4;
	struct ibv_flow_spec_ipv6 ipv6;
	struct ibv_flow_spec_tunnel vxlan;
} __attribute__((packed, aligned(8)));

static void t_fill_sized(struct t_flow_sized *r)
{
	memset(r, 0, sizeof(*r));
	r->attr.num_of_specs = 3;
	r->ipv4.type = IBV_FLOW_SPEC_IPV4_EXT | IBV_FLOW_SPEC_INNER;
	r->ipv4.size = sizeof(r->ipv4);
	r->ipv4.val.proto = 6;
	r->ipv4.mask.flags = 0xff;
	r->ipv6.type = IBV_FLOW_SPEC_IPV6;
	r->ipv6.size = sizeof(r->ipv6);
	r->ipv6.val.src_ip[0] = 0xfe;
	r->ipv6.mask.hop_limit = 0xff;
	r->vxlan.type = IBV_FLOW_SPEC_VXLAN_TUNNEL;
	r->vxlan.size = sizeof(r->vxlan);
	r->vxlan.val.tunnel_id = 0x77;
	r->vxlan.mask.tunnel_id = ~0u;
}

/*
 * The filters sized by their spec: IPv4 with options becomes the
 * kernel's IPv4 type (inner flag kept), IPv6 keeps 39 of its 40 bytes.
 */
static void test_create_flow_sized_filters(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_qp qp = { .context = ctx, .handle = 1 };
	struct ibv_flow flow;
	struct t_flow_sized r;
	const uint8_t *k = tk.log[0].core + CREATE_FLOW_SPECS;

	t_fill_sized(&r);
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(r), NULL, 0),
			 0);
	assert_int_equal(tk.log[0].core_len, CREATE_FLOW_SPECS + 32 + 88 + 16);
	assert_int_equal(t_get16(tk.log[0].core + CREATE_FLOW_ATTR_SIZE),
			 32 + 88 + 16);
	assert_int_equal(t_get32(k + SPEC_TYPE), 0x130); /* INNER | IPV4 */
	assert_int_equal(t_get16(k + SPEC_SIZE), 32);
	assert_int_equal(k[SPEC_VAL + IPV4_PROTO], 6);
	assert_int_equal(k[SPEC_VAL + IPV4_FILTER_SIZE + IPV4_FLAGS], 0xff);
	k += 32;
	assert_int_equal(t_get32(k + SPEC_TYPE), IBV_FLOW_SPEC_IPV6);
	assert_int_equal(t_get16(k + SPEC_SIZE), 88);
	assert_int_equal(k[SPEC_VAL + IPV6_SRC_IP], 0xfe);
	assert_int_equal(k[SPEC_VAL + IPV6_FILTER_SIZE + IPV6_HOP_LIMIT], 0xff);
	k += 88;
	assert_int_equal(t_get32(k + SPEC_TYPE), IBV_FLOW_SPEC_VXLAN_TUNNEL);
	assert_int_equal(t_get16(k + SPEC_SIZE), 16);
	assert_int_equal(k[SPEC_VAL + TUNNEL_ID], 0x77);
	assert_int_equal(k[SPEC_VAL + TUNNEL_FILTER_SIZE + TUNNEL_ID], 0xff);
}

/* Actions name the core's handles of a flow action and a counter set. */
static void test_create_flow_actions(void **state)
{
	struct ibv_context *ctx = *state;
	struct verbs_flow_action va = { .handle = 0x61 };
	struct verbs_counters vc = { .handle = 0x62 };
	struct ibv_qp qp = { .context = ctx, .handle = 1 };
	struct ibv_flow flow;
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_action_handle h;
		struct ibv_flow_spec_counter_action c;
		struct ibv_flow_spec_action_drop d;
	} __attribute__((packed, aligned(8))) r = {
		.attr = { .num_of_specs = 3 },
		.h = { .type = IBV_FLOW_SPEC_ACTION_HANDLE,
		       .size = sizeof(r.h),
		       .action = &va.action },
		.c = { .type = IBV_FLOW_SPEC_ACTION_COUNT,
		       .size = sizeof(r.c),
		       .counters = &vc.counters },
		.d = { .type = IBV_FLOW_SPEC_ACTION_DROP, .size = sizeof(r.d) },
	};
	uint8_t want[40], *p;

	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(r), NULL, 0),
			 0);
	p = t_put32(want, IBV_FLOW_SPEC_ACTION_HANDLE);
	p = t_put32(p, 16);
	p = t_put64(p, 0x61);
	p = t_put32(p, IBV_FLOW_SPEC_ACTION_COUNT);
	p = t_put32(p, 16);
	p = t_put64(p, 0x62);
	p = t_put32(p, IBV_FLOW_SPEC_ACTION_DROP);
	t_put32(p, 8);
	assert_int_equal(tk.log[0].core_len, 24 + sizeof(want));
	assert_memory_equal(tk.log[0].core + 24, want, sizeof(want));
}

static int t_create_one(struct ibv_context *ctx, const void *spec, size_t len)
{
	struct ibv_qp qp = { .context = ctx, .handle = 1 };
	struct ibv_flow flow;
	uint8_t buf[sizeof(struct ibv_flow_attr) + 128] = { 0 };
	struct ibv_flow_attr *attr = (void *)buf;

	attr->num_of_specs = 1;
	memcpy(attr + 1, spec, len);
	errno = 0;
	return ibv_cmd_create_flow(&qp, &flow, attr, NULL, 0);
}

/* Specs the conversion refuses, unsent, with errno set. */
static void test_create_flow_spec_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_flow_spec_ipv6 v6 = { .type = IBV_FLOW_SPEC_IPV6,
					 .size = sizeof(v6) };
	struct ibv_flow_spec_ipv4_ext v4 = { .type = IBV_FLOW_SPEC_IPV4_EXT,
					     .size = sizeof(v4) };
	struct ibv_flow_spec_gre gre = { .type = IBV_FLOW_SPEC_GRE |
						 IBV_FLOW_SPEC_INNER,
					 .size = sizeof(gre) };
	struct ibv_flow_spec_action_tag bad = { .type = 0x22, .size = 16 };
	struct ibv_flow_spec_action_tag tag = {
		.type = IBV_FLOW_SPEC_ACTION_TAG | IBV_FLOW_SPEC_INNER,
		.size = 16
	};

	assert_int_equal(t_create_one(ctx, &bad, sizeof(bad)), EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(t_create_one(ctx, &gre, sizeof(gre)), EINVAL);
	assert_int_equal(t_create_one(ctx, &tag, sizeof(tag)), EINVAL);
	v4.size = sizeof(v4) - 2; /* a filter shorter than the kernel's */
	assert_int_equal(t_create_one(ctx, &v4, sizeof(v4)), EINVAL);
	v6.size = 8 + 2 * 38;
	assert_int_equal(t_create_one(ctx, &v6, sizeof(v6)), EINVAL);
	v6.size = 4; /* not even a header */
	assert_int_equal(t_create_one(ctx, &v6, sizeof(v6)), EINVAL);
	/* A mask on the byte the kernel's IPv6 filter does not have. */
	v6.size = sizeof(v6);
	((uint8_t *)&v6.mask)[39] = 1;
	assert_int_equal(t_create_one(ctx, &v6, sizeof(v6)), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
	((uint8_t *)&v6.val)[39] = 1; /* a value there is ignored */
	((uint8_t *)&v6.mask)[39] = 0;
	assert_int_equal(t_create_one(ctx, &v6, sizeof(v6)), 0);
}

/*
 * The provider's data is counted in the extended header's 16-bit word
 * count: more is EINVAL, before anything is built or copied, whatever
 * the sum of the sizes would wrap to.
 */
static void test_create_flow_udata_limits(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_flow_eth_ipv4_tcp_tag rule;
	struct ibv_qp qp = { .context = ctx, .handle = 1 };
	struct ibv_flow flow = { .handle = 3 };
	uint64_t udata[2] = { 0 };

	t_fill_rule(&rule);
	errno = 0;
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), udata,
					     SIZE_MAX - 7),
			 EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), udata,
					     (size_t)UINT16_MAX * 8 + 8),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
	assert_int_equal(flow.handle, 3);
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), udata,
					     sizeof(udata)),
			 0);
	assert_int_equal(tk.ncalls, 1);
}

static void test_create_flow_kernel_error(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_flow_eth_ipv4_tcp_tag rule;
	struct ibv_qp qp = { .context = ctx, .handle = 1 };
	struct ibv_flow flow = { .handle = 3 };

	t_fill_rule(&rule);
	t_fail_next(EEXIST);
	errno = 0;
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(rule), NULL, 0),
			 EEXIST);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(flow.handle, 3);
}

/*
 * A destroy that is an ioctl with an extended write() fallback: the
 * ioctl's bytes; after EPROTONOSUPPORT the write() command through the
 * tunnel, and the next destroy goes straight there; after ENOTTY a real
 * write().
 */
struct t_destroy {
	uint16_t obj, method, attr_id;
	uint32_t ex_cmd;
	int (*destroy)(struct ibv_context *ctx, uint32_t handle);
};

static int t_destroy_flow(struct ibv_context *ctx, uint32_t handle)
{
	struct ibv_flow flow = { .context = ctx, .handle = handle };

	return ibv_cmd_destroy_flow(&flow);
}

static int t_destroy_tbl(struct ibv_context *ctx, uint32_t handle)
{
	struct ibv_rwq_ind_table t = { .context = ctx,
				       .ind_tbl_handle = handle };

	return ibv_cmd_destroy_rwq_ind_table(&t);
}

static const struct t_destroy t_destroys[] = {
	{ UVERBS_OBJECT_FLOW, UVERBS_METHOD_FLOW_DESTROY,
	  UVERBS_ATTR_DESTROY_FLOW_HANDLE, IB_USER_VERBS_EX_CMD_DESTROY_FLOW,
	  t_destroy_flow },
	{ UVERBS_OBJECT_RWQ_IND_TBL, UVERBS_METHOD_RWQ_IND_TBL_DESTROY,
	  UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE,
	  IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL, t_destroy_tbl },
};

static void t_destroy_routes(struct ibv_context *ctx, const struct t_destroy *d)
{
	uint8_t want[IOCTL_ATTR(1)], core[8], *p;

	assert_int_equal(d->destroy(ctx, 0x44), 0);
	p = t_put_ioctl_hdr(want, d->obj, d->method, 1);
	t_put_mattr(p, d->attr_id, 0, 0x44);
	t_expect(0, true, want, sizeof(want));

	tk.refuse_obj = d->obj;
	tk.refuse_method = d->method;
	tk.ncalls = 0;
	assert_int_equal(d->destroy(ctx, 0x45), 0);
	assert_int_equal(d->destroy(ctx, 0x46), 0);
	assert_int_equal(tk.ncalls, 3);
	assert_int_equal(tk.log[2].object, UVERBS_OBJECT_DEVICE);
	assert_int_equal(tk.log[2].write_cmd, T_EX | d->ex_cmd);
	p = t_put32(core, 0); /* comp_mask */
	t_put32(p, 0x46);
	assert_int_equal(tk.log[2].core_len, 8);
	assert_memory_equal(tk.log[2].core, core, 8);
}

static void test_destroy_fallbacks(void **state)
{
	struct ibv_context *ctx = *state;

	for (unsigned int i = 0; i < 2; i++) {
		t_context_teardown_keep_async(state);
		t_setup(state);
		ctx = *state;
		t_destroy_routes(ctx, &t_destroys[i]);
	}
}

/* No ioctl at all: write() with the extended header, every time. */
static void test_destroy_enotty(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[32], *p;

	tk.no_ioctl = true;
	for (unsigned int i = 0; i < 2; i++) {
		const struct t_destroy *d = &t_destroys[i];

		tk.ncalls = 0;
		assert_int_equal(d->destroy(ctx, 0x47), 0);
		p = t_put_ex_hdr(want, d->ex_cmd, 1, 0, 0, 0, 0);
		p = t_put32(p, 0);
		t_put32(p, 0x47);
		t_expect(tk.ncalls - 1, false, want, sizeof(want));
	}
	/* Only the very first command tried an ioctl. */
	assert_int_equal(tk.ncalls, 1);
}

/* Errors pass; EIO counts as done only when disassociation allows it. */
static void test_destroy_errors(void **state)
{
	struct ibv_context *ctx = *state;

	t_fail_next(EBUSY);
	assert_int_equal(t_destroy_flow(ctx, 1), EBUSY);
	t_fail_next(EIO);
	assert_int_equal(t_destroy_tbl(ctx, 1), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(t_destroy_flow(ctx, 1), 0);
	t_fail_next(EIO);
	assert_int_equal(t_destroy_tbl(ctx, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_create_flow_bytes),
		T_CASE(test_create_flow_tunnel),
		T_CASE(test_create_flow_sized_filters),
		T_CASE(test_create_flow_actions),
		T_CASE(test_create_flow_spec_errors),
		T_CASE(test_create_flow_udata_limits),
		T_CASE(test_create_flow_kernel_error),
		T_CASE(test_destroy_fallbacks),
		T_CASE(test_destroy_enotty),
		T_CASE(test_destroy_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
