// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The flow family of the command layer (cmd_flow.c, cmd_flow_action.c,
 * cmd_wq.c, cmd_counters.c) against a fake kernel behind the transport
 * seam: the exact bytes of each command (ioctl attributes, or the
 * write() request with its headers), the conversion of flow specs into
 * the kernel's layouts and its errors, the write() fallbacks and their
 * memory, the kernel's answers decoded into the objects, errors passed
 * through, and a WQ destroy that waits for its events to be acked.
 * Links the static archive, where the seam hook is reachable.
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

#include "t_kernel.h"

#define T_DRIVER_ID 7
#define T_HANDLE 0x5a5a
#define T_EX 0x80000000u

/*
 * What the fake kernel answers beyond the shared knobs of t_kernel:
 * creates get T_HANDLE, a WQ destroy @events, an indirection table's
 * response length can be made up.
 */
static struct {
	uint32_t events;
	uint32_t resp_len_override;
} fk;

static void t_put_u32(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	if (a)
		memcpy((void *)(uintptr_t)a->data, &v, sizeof(v));
}

/* A write-format command's response, for the write() path and tunnel. */
static void t_write_resp(uint32_t cmd, void *resp, size_t len)
{
	uint32_t r[6] = { 0 };

	switch (cmd & ~T_EX) {
	case IB_USER_VERBS_EX_CMD_CREATE_FLOW:
		r[1] = T_HANDLE; /* comp_mask, flow_handle */
		break;
	case IB_USER_VERBS_EX_CMD_CREATE_WQ:
		/* comp_mask, response_length, handle, max_wr, max_sge, wqn */
		r[1] = 24;
		r[2] = T_HANDLE;
		r[3] = 64;
		r[4] = 3;
		r[5] = 0x123;
		break;
	case IB_USER_VERBS_EX_CMD_DESTROY_WQ:
		r[1] = 16;
		r[2] = fk.events;
		break;
	case IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL:
		r[1] = fk.resp_len_override ? fk.resp_len_override : 16;
		r[2] = T_HANDLE;
		r[3] = 0x99;
		break;
	}
	memcpy(resp, r, len < sizeof(r) ? len : sizeof(r));
}

/* The tunnel answers as write() would. */
static void t_invoke_write(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *out = t_attr(h, UVERBS_ATTR_CORE_OUT);

	if (out && out->len)
		t_write_resp(t_attr(h, UVERBS_ATTR_WRITE_CMD)->data,
			     (void *)(uintptr_t)out->data, out->len);
}

/* What a kernel writes back for the methods of this family. */
static void t_outputs(struct ib_uverbs_ioctl_hdr *h)
{
	if (h->object_id == UVERBS_OBJECT_DEVICE) {
		t_invoke_write(h);
		return;
	}
	if (h->object_id == UVERBS_OBJECT_WQ &&
	    h->method_id == UVERBS_METHOD_WQ_DESTROY) {
		t_put_u32(h, UVERBS_ATTR_DESTROY_WQ_RESP, fk.events);
		return;
	}
	if (h->object_id == UVERBS_OBJECT_WQ) {
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, 32);
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, 2);
		t_put_u32(h, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, 0x456);
	}
	/* Attribute 0 of every create here is the new object's handle. */
	if (h->method_id == 0 && h->attrs[0].attr_id == 0)
		h->attrs[0].data = T_HANDLE;
}

static int t_write_answer(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t resp;

	(void)len;
	if (err)
		return err;
	memcpy(&resp, (const uint8_t *)buf + 8, 8);
	if (resp && (h->command & T_EX))
		t_write_resp(h->command, (void *)(uintptr_t)resp,
			     8 * (size_t)h->out_words);
	return 0;
}

/* The kernel has every method, the tunnel included. */
static int t_setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.tunnel = true;
	tk.on_ioctl = t_outputs;
	tk.on_write = t_write_answer;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

static int t_teardown(void **state)
{
	struct ibv_context *ctx = *state;

	ctx->async_fd = -1;
	t_context_free(ctx);
	return 0;
}

static uint64_t t_resp_ptr(unsigned int i)
{
	uint64_t v;

	memcpy(&v, tk.log[i].bytes + 8, 8);
	return v;
}

/* Flows */

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
	memcpy(p, mac, 6);
	memset(p + 6, 0, 6);
	p = t_put16(p + 12, 0x0008);
	p = t_put16(p, 0);
	memset(p, 0xff, 6);
	memset(p + 6, 0, 6);
	p = t_put16(p + 12, 0xffff);
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
	uint8_t want[24 + 24 + 96 + 8], *p;

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
	const uint8_t *k = tk.log[0].core + 24;

	t_fill_sized(&r);
	assert_int_equal(ibv_cmd_create_flow(&qp, &flow, T_ATTR(r), NULL, 0),
			 0);
	assert_int_equal(tk.log[0].core_len, 24 + 32 + 88 + 16);
	assert_int_equal(tk.log[0].core[12], 32 + 88 + 16);
	assert_int_equal(k[0], 0x30);
	assert_int_equal(k[1], 0x01); /* IBV_FLOW_SPEC_INNER */
	assert_int_equal(k[4], 32);
	assert_int_equal(k[8 + 8], 6); /* val.proto */
	assert_int_equal(k[8 + 12 + 11], 0xff); /* mask.flags */
	k += 32;
	assert_int_equal(k[0], IBV_FLOW_SPEC_IPV6);
	assert_int_equal(k[4], 88);
	assert_int_equal(k[8], 0xfe);
	assert_int_equal(k[8 + 40 + 38], 0xff); /* mask.hop_limit */
	k += 88;
	assert_int_equal(k[0], IBV_FLOW_SPEC_VXLAN_TUNNEL);
	assert_int_equal(k[4], 16);
	assert_int_equal(k[8], 0x77);
	assert_int_equal(k[12], 0xff);
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
	uint8_t want[24 + 16], core[8], *p;

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
		t_teardown(state);
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

/* Work queues */

struct t_wq_cmd {
	struct ibv_create_wq ibv;
	uint64_t drv;
};

struct t_wq_resp {
	struct ib_uverbs_ex_create_wq_resp ibv;
	uint64_t drv;
};

struct t_wq {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_wq wq;
	struct ibv_wq_init_attr init;
	struct t_wq_cmd cmd;
	struct t_wq_resp resp;
};

static void t_wq_init(struct t_wq *t, struct ibv_context *ctx)
{
	memset(t, 0, sizeof(*t));
	t->pd.handle = 0x11;
	t->cq.handle = 0x22;
	t->init =
		(struct ibv_wq_init_attr){ .wq_type = IBV_WQT_RQ,
					   .max_wr = 100,
					   .max_sge = 4,
					   .pd = &t->pd,
					   .cq = &t->cq,
					   .comp_mask = IBV_WQ_INIT_ATTR_FLAGS,
					   .create_flags = 0x2 };
	t->cmd.drv = 0xd0d0;
	(void)ctx;
}

static int t_create_wq(struct ibv_context *ctx, struct t_wq *t)
{
	return ibv_cmd_create_wq(ctx, &t->init, &t->wq, &t->cmd.ibv,
				 sizeof(t->cmd), &t->resp.ibv, sizeof(t->resp));
}

/* WQ/CREATE: every attribute, the provider's data last, outputs read. */
static void test_create_wq_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[24 + 14 * 16], *p;
	struct t_wq t;

	t_wq_init(&t, ctx);
	ctx->async_fd = 9;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE,
			    14);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_HANDLE, 0, 0);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_USER_HANDLE, 8,
			(uintptr_t)&t.wq);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_PD_HANDLE, 0, 0x11);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE, 0, 0x22);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_TYPE, 8, IBV_WQT_RQ);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_MAX_WR, 4, 100);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_MAX_SGE, 4, 4);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_EVENT_FD, 0, 9);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_FLAGS, 4, 2);
	/* The three outputs point into the library's stack: compare apart. */
	for (int i = 0; i < 3; i++)
		p = t_put_mattr(p, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR + i, 4, 0);
	p = t_put_mattr(p, UVERBS_ATTR_UHW_IN, 8, 0xd0d0);
	t_put_mattr(p, UVERBS_ATTR_UHW_OUT, 8, (uintptr_t)&t.resp.drv);
	for (int i = 9; i < 12; i++)
		memset(tk.log[0].bytes + 24 + 16 * i + 8, 0, 8);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(t.wq.handle, T_HANDLE);
	assert_int_equal(t.wq.wq_num, 0x456);
	assert_int_equal(t.init.max_wr, 32);
	assert_int_equal(t.init.max_sge, 2);
	assert_ptr_equal(t.wq.context, ctx);
	assert_ptr_equal(t.wq.pd, &t.pd);
	assert_ptr_equal(t.wq.cq, &t.cq);
	assert_int_equal(t.wq.wq_type, IBV_WQT_RQ);
}

/* Without an async event file the EVENT_FD attribute is left out. */
static void test_create_wq_no_event_fd(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(tk.log[0].bytes[6], 13);
	for (unsigned int i = 0; i < 13; i++)
		assert_int_not_equal(tk.log[0].bytes[24 + 16 * i],
				     UVERBS_ATTR_CREATE_WQ_EVENT_FD);
}

/* A kernel without WQ/CREATE gets the extended write() command. */
static void test_create_wq_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[24 + 40 + 8], *p;
	struct t_wq t;

	t_wq_init(&t, ctx);
	tk.no_ioctl = true;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_CREATE_WQ, 5, 3,
			 (uintptr_t)&t.resp, 1, 1);
	p = t_put32(p, 0); /* comp_mask */
	p = t_put32(p, IBV_WQT_RQ);
	p = t_put64(p, (uintptr_t)&t.wq);
	p = t_put32(p, 0x11);
	p = t_put32(p, 0x22);
	p = t_put32(p, 100);
	p = t_put32(p, 4);
	p = t_put32(p, 2);
	p = t_put32(p, 0);
	t_put64(p, 0xd0d0);
	/* WQ/CREATE refused, the tunnel probed and refused, then write(). */
	assert_int_equal(tk.ncalls, 2);
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(t.wq.handle, T_HANDLE);
	assert_int_equal(t.wq.wq_num, 0x123);
	assert_int_equal(t.init.max_wr, 64);
	assert_int_equal(t.init.max_sge, 3);
	assert_ptr_equal(t.wq.context, ctx);

	tk.ncalls = 0;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(tk.ncalls, 1);
	assert_false(tk.log[0].is_ioctl);
}

/*
 * create_flags without IBV_WQ_INIT_ATTR_FLAGS are stale bits of a reused
 * struct: 0 goes to the kernel, as an attribute and in the write() form.
 */
static void test_create_wq_stale_flags(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	ctx->async_fd = 9;
	t.init.comp_mask = 0;
	t.init.create_flags = IBV_WQ_FLAGS_CVLAN_STRIPPING;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	assert_int_equal(tk.log[0].bytes[24 + 16 * 8],
			 UVERBS_ATTR_CREATE_WQ_FLAGS);
	assert_int_equal(t_get64(tk.log[0].bytes + 24 + 16 * 8 + 8), 0);

	t_kernel_reset();
	tk.no_ioctl = true;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	/* create_flags, the ninth u32 of the core request. */
	assert_int_equal(t_get64(tk.log[1].bytes + 24 + 32), 0);
}

static void test_create_wq_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct t_wq t;

	t_wq_init(&t, ctx);
	t.init.comp_mask = IBV_WQ_INIT_ATTR_RESERVED;
	errno = 0;
	assert_int_equal(t_create_wq(ctx, &t), EINVAL);
	assert_int_equal(errno, EINVAL);
	/* An unknown comp_mask leaves the WQ untouched, as in rdma-core 44 */
	assert_null(t.wq.context);
	t_wq_init(&t, ctx);
	t.init.create_flags = IBV_WQ_FLAGS_RESERVED;
	assert_int_equal(t_create_wq(ctx, &t), EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	/* ... unknown flags come later, when the WQ's fields are set. */
	assert_ptr_equal(t.wq.context, ctx);
	assert_ptr_equal(t.wq.pd, &t.pd);
	assert_ptr_equal(t.wq.cq, &t.cq);
	assert_int_equal(tk.ncalls, 0);
	/* Unasked-for flags are not checked (and are sent as they are). */
	t.init.comp_mask = 0;
	assert_int_equal(t_create_wq(ctx, &t), 0);
	t_wq_init(&t, ctx);
	t_fail_next(ENOMEM);
	assert_int_equal(t_create_wq(ctx, &t), ENOMEM);
	assert_int_equal(t.wq.handle, 0);
}

struct t_modify_wq {
	struct ibv_modify_wq ibv;
	uint64_t drv;
};

static void test_modify_wq(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq wq = { .context = ctx,
			     .handle = 0x71,
			     .state = IBV_WQS_RESET };
	struct ibv_wq_attr attr = { .attr_mask = IBV_WQ_ATTR_STATE |
						 IBV_WQ_ATTR_FLAGS,
				    .wq_state = IBV_WQS_RDY,
				    .flags = 1,
				    .flags_mask = 3 };
	struct t_modify_wq cmd;
	uint8_t want[24 + 24 + 8], *p;

	memset(&cmd, 0xee, sizeof(cmd));
	cmd.drv = 0x5e;
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_MODIFY_WQ, 3, 0, 0, 1, 0);
	p = t_put32(p, IBV_WQ_ATTR_STATE | IBV_WQ_ATTR_FLAGS);
	p = t_put32(p, 0x71);
	p = t_put32(p, IBV_WQS_RDY);
	p = t_put32(p, 0); /* curr_wq_state */
	p = t_put32(p, 1);
	p = t_put32(p, 3);
	t_put64(p, 0x5e);
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(wq.state, IBV_WQS_RDY);

	attr.attr_mask = IBV_WQ_ATTR_RESERVED;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EINVAL);
	attr.attr_mask = IBV_WQ_ATTR_FLAGS;
	attr.flags_mask = IBV_WQ_FLAGS_RESERVED;
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EOPNOTSUPP);
	attr.attr_mask = IBV_WQ_ATTR_STATE;
	attr.wq_state = IBV_WQS_ERR;
	t_fail_next(EINVAL);
	assert_int_equal(ibv_cmd_modify_wq(&wq, &attr, &cmd.ibv, sizeof(cmd)),
			 EINVAL);
	assert_int_equal(wq.state, IBV_WQS_RDY);
}

static void t_wq_obj(struct ibv_wq *wq, struct ibv_context *ctx)
{
	memset(wq, 0, sizeof(*wq));
	wq->context = ctx;
	wq->handle = 0x81;
	pthread_mutex_init(&wq->mutex, NULL);
	pthread_cond_init(&wq->cond, NULL);
}

/* WQ/DESTROY: the response attribute first, then the handle. */
static void test_destroy_wq_ioctl(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[24 + 32], *p;
	struct ibv_wq wq;

	t_wq_obj(&wq, ctx);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_DESTROY,
			    2);
	p = t_put_mattr(p, UVERBS_ATTR_DESTROY_WQ_RESP, 4, 0);
	t_put_mattr(p, UVERBS_ATTR_DESTROY_WQ_HANDLE, 0, 0x81);
	memset(tk.log[0].bytes + 24 + 8, 0, 8);
	t_expect(0, true, want, sizeof(want));
}

static void test_destroy_wq_fallback(void **state)
{
	struct ibv_context *ctx = *state;
	uint8_t want[32], *p;
	struct ibv_wq wq;

	t_wq_obj(&wq, ctx);
	tk.no_ioctl = true;
	fk.events = 2;
	wq.events_completed = 2;
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_DESTROY_WQ, 1, 2,
			 t_resp_ptr(1), 0, 0);
	p = t_put32(p, 0);
	t_put32(p, 0x81);
	t_expect(1, false, want, sizeof(want));

	tk.no_ioctl = false;
	tk.refuse_obj = UVERBS_OBJECT_WQ;
	tk.refuse_method = UVERBS_METHOD_WQ_DESTROY;
	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), EBUSY);
}

struct t_acker {
	struct ibv_wq *wq;
	uint32_t n;
	volatile bool acked;
};

/* The application's ibv_ack_async_event(), late. */
static void *t_ack_later(void *arg)
{
	struct t_acker *a = arg;
	struct timespec delay = { 0, 50 * 1000 * 1000 };

	nanosleep(&delay, NULL);
	pthread_mutex_lock(&a->wq->mutex);
	a->wq->events_completed += a->n;
	a->acked = true;
	pthread_cond_signal(&a->wq->cond);
	pthread_mutex_unlock(&a->wq->mutex);
	return NULL;
}

/*
 * The kernel reported 3 events, the application acked 1 so far: the
 * destroy returns only once the other 2 are acked. alarm() bounds the
 * wait should the destroy never return.
 */
static void test_destroy_wq_waits_for_acks(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq wq;
	struct t_acker a = { .wq = &wq, .n = 2 };
	pthread_t th;

	t_wq_obj(&wq, ctx);
	wq.events_completed = 1;
	fk.events = 3;
	alarm(10);
	assert_int_equal(pthread_create(&th, NULL, t_ack_later, &a), 0);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
	assert_true(a.acked);
	pthread_join(th, NULL);
	alarm(0);

	/* A destroy that failed does not wait. */
	wq.events_completed = 0;
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_wq(&wq), 0);
}

/* Indirection tables */

static void test_create_rwq_ind_table(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wq w0 = { .handle = 0x100 }, w1 = { .handle = 0x101 };
	struct ibv_wq *tbl[2] = { &w0, &w1 };
	struct ibv_rwq_ind_table_init_attr init = { .log_ind_tbl_size = 1,
						    .ind_tbl = tbl };
	struct ibv_rwq_ind_table t = { 0 };
	struct {
		struct ib_uverbs_ex_create_rwq_ind_table_resp ibv;
		uint64_t drv;
	} resp;
	uint8_t want[24 + 16], *p;

	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 0);
	p = t_put_ex_hdr(want, IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL, 2, 2,
			 (uintptr_t)&resp, 0, 1);
	p = t_put32(p, 0);
	p = t_put32(p, 1);
	p = t_put32(p, 0x100);
	t_put32(p, 0x101);
	t_expect(1, false, want, sizeof(want));
	assert_int_equal(t.ind_tbl_handle, T_HANDLE);
	assert_int_equal(t.ind_tbl_num, 0x99);
	assert_ptr_equal(t.context, ctx);

	/* One entry: the request is padded to a multiple of 8. */
	init.log_ind_tbl_size = 0;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 0);
	assert_int_equal(tk.log[2].len, 40);

	fk.resp_len_override = 12; /* a kernel that answered short */
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	tk.ncalls = 0;
	init.log_ind_tbl_size = 14;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	init.log_ind_tbl_size = 0;
	init.comp_mask = IBV_CREATE_IND_TABLE_RESERVED;
	assert_int_equal(ibv_cmd_create_rwq_ind_table(ctx, &init, &t, &resp.ibv,
						      sizeof(resp)),
			 EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

/* Counters */

static void test_counters(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { 0 };
	struct verbs_counters vc = { 0 };
	uint64_t vals[3];
	uint8_t want[24 + 48], *p;

	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_CREATE, 1);
	t_put_mattr(p, UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0, 0);
	t_expect(0, true, want, 24 + 16);
	assert_int_equal(vc.handle, T_HANDLE);
	assert_ptr_equal(vc.counters.context, ctx);

	assert_int_equal(ibv_cmd_read_counters(&vc, vals, 3, 1, NULL), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_READ, 3);
	p = t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_HANDLE, 0, T_HANDLE);
	p = t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_BUFF, 24, (uintptr_t)vals);
	t_put_mattr(p, UVERBS_ATTR_READ_COUNTERS_FLAGS, 4, 1);
	t_expect(1, true, want, sizeof(want));

	assert_int_equal(ibv_cmd_destroy_counters(&vc), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_DESTROY, 1);
	t_put_mattr(p, UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, 0, T_HANDLE);
	t_expect(2, true, want, 24 + 16);
}

/* The provider's linked attributes travel behind the core's. */
static void test_counters_link(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { 0 };
	struct verbs_counters vc = { 0 };
	uint8_t want[24 + 32], *p;
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_COUNTERS,
			       UVERBS_METHOD_COUNTERS_CREATE, 1);

	fill_attr_in_uint64(drv, 0x1000, 0xfeed);
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, drv), 0);
	p = t_put_ioctl_hdr(want, UVERBS_OBJECT_COUNTERS,
			    UVERBS_METHOD_COUNTERS_CREATE, 2);
	p = t_put_mattr(p, UVERBS_ATTR_CREATE_COUNTERS_HANDLE, 0, 0);
	t_put_mattr(p, 0x1000, 8, 0xfeed);
	t_expect(0, true, want, sizeof(want));
}

/* ioctl-only: no write() on an old kernel, and errors pass through. */
static void test_counters_errors(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_counters_init_attr init = { .comp_mask = 1 };
	struct verbs_counters vc = { .handle = 5 };
	uint64_t v;

	vc.counters.context = ctx;
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
	tk.refuse_obj = UVERBS_OBJECT_COUNTERS;
	tk.refuse_method = UVERBS_METHOD_COUNTERS_READ;
	assert_int_equal(ibv_cmd_read_counters(&vc, &v, 1, 0, NULL),
			 EPROTONOSUPPORT);
	tk.no_ioctl = true;
	init.comp_mask = 0;
	assert_int_equal(ibv_cmd_create_counters(ctx, &init, &vc, NULL),
			 ENOTTY);
	assert_int_equal(vc.handle, 5);
	tk.no_ioctl = false;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_counters(&vc), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_counters(&vc), 0);
	for (unsigned int i = 0; i < tk.ncalls; i++)
		assert_true(tk.log[i].is_ioctl);
}

/* ESP flow actions */

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
	uint8_t want[24 + 6 * 16], *p;

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

#define T_CASE(fn) cmocka_unit_test_setup_teardown(fn, t_setup, t_teardown)

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
		T_CASE(test_create_wq_ioctl),
		T_CASE(test_create_wq_no_event_fd),
		T_CASE(test_create_wq_fallback),
		T_CASE(test_create_wq_stale_flags),
		T_CASE(test_create_wq_errors),
		T_CASE(test_modify_wq),
		T_CASE(test_destroy_wq_ioctl),
		T_CASE(test_destroy_wq_fallback),
		T_CASE(test_destroy_wq_waits_for_acks),
		T_CASE(test_create_rwq_ind_table),
		T_CASE(test_counters),
		T_CASE(test_counters_link),
		T_CASE(test_counters_errors),
		T_CASE(test_esp_create_all),
		T_CASE(test_esp_modify_destroy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
