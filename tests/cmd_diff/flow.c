// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: steering flows and their specs, ESP flow
 * actions and counters. WQs and RSS tables are wq.c's.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

/* Objects a flow's action specs name by handle. */
static struct verbs_flow_action action = { .handle = 0xac7 };
static struct verbs_counters counters = { .handle = 0xc07 };

/* A flow attr and its packed specs, as an application lays them out. */
struct flow_buf {
	union {
		struct ibv_flow_attr attr;
		uint8_t bytes[1024];
	};
	size_t len;
};

static void flow_start(struct flow_buf *f, uint16_t priority)
{
	t_diff_stale(f->bytes, sizeof(f->bytes));
	f->attr.type = IBV_FLOW_ATTR_NORMAL;
	f->attr.priority = priority;
	f->attr.num_of_specs = 0;
	f->attr.port = 1;
	f->attr.flags = 0;
	f->len = sizeof(f->attr);
}

/*
 * A spec of @type and @size whose value and mask are the pattern @seed
 * (a filter) or whose body is @body (an action).
 */
static void *add_spec(struct flow_buf *f, uint32_t type, uint16_t size,
		      uint32_t seed)
{
	struct ibv_flow_spec *s = (void *)(f->bytes + f->len);

	t_uv_pattern(s, size, seed);
	s->hdr.type = type;
	s->hdr.size = size;
	f->len += size;
	f->attr.num_of_specs++;
	return s;
}

static void add_ptr_spec(struct flow_buf *f, uint32_t type, const void *ptr)
{
	struct ibv_flow_spec_action_handle *s =
		add_spec(f, type, sizeof(*s), 0);

	memset(&s->action, 0, sizeof(s->action));
	memcpy(&s->action, &ptr, sizeof(ptr));
}

static void create_flow(struct ibv_qp *qp, struct flow_buf *f, bool ucmd)
{
	struct tdrv_drv_in drv = DRV_IN_INIT;
	struct ibv_flow flow;
	int ret;

	memset(&flow, 0, sizeof(flow));
	t_uv_name("flow", &flow, sizeof(flow));
	ret = ibv_cmd_create_flow(qp, &flow, &f->attr, ucmd ? &drv : NULL,
				  ucmd ? sizeof(drv) : 0);
	t_uv_note("create_flow ret=%d errno=%d", ret, ret ? errno : 0);
	t_uv_dump("flow", &flow, sizeof(flow));
	if (!ret)
		T_NOTE_RET("destroy_flow", ibv_cmd_destroy_flow(&flow));
	t_uv_unname(&flow);
}

static int flow_qp(struct ibv_context *ctx, struct t_diff_qp_objs *o)
{
	action.action.context = ctx;
	counters.counters.context = ctx;
	return t_diff_new_qp(ctx, IBV_QPT_RAW_PACKET, o);
}

#define SPEC(f, type, st, seed) add_spec(f, type, sizeof(struct st), seed)

static void case_flow_l2_l4(struct ibv_context *ctx)
{
	struct ibv_flow_spec_action_tag *tag;
	struct flow_buf f;
	struct t_diff_qp_objs o;

	if (flow_qp(ctx, &o))
		return;
	flow_start(&f, 3);
	SPEC(&f, IBV_FLOW_SPEC_ETH, ibv_flow_spec_eth, 1);
	SPEC(&f, IBV_FLOW_SPEC_IPV4, ibv_flow_spec_ipv4, 2);
	SPEC(&f, IBV_FLOW_SPEC_TCP, ibv_flow_spec_tcp_udp, 3);
	tag = SPEC(&f, IBV_FLOW_SPEC_ACTION_TAG, ibv_flow_spec_action_tag, 4);
	tag->tag_id = 0x7a9;
	create_flow(&o.qp.qp, &f, true);
	create_flow(&o.qp.qp, &f, false);
	flow_start(&f, 0);
	SPEC(&f, IBV_FLOW_SPEC_IPV4_EXT, ibv_flow_spec_ipv4_ext, 5);
	SPEC(&f, IBV_FLOW_SPEC_UDP, ibv_flow_spec_tcp_udp, 6);
	SPEC(&f, IBV_FLOW_SPEC_ACTION_DROP, ibv_flow_spec_action_drop, 7);
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 1);
	f.attr.type = IBV_FLOW_ATTR_ALL_DEFAULT;
	f.attr.flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP;
	create_flow(&o.qp.qp, &f, true);
	t_uv.next_err = EINVAL;
	create_flow(&o.qp.qp, &f, true);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

static void case_flow_tunnel(struct ibv_context *ctx)
{
	struct flow_buf f;
	struct t_diff_qp_objs o;

	if (flow_qp(ctx, &o))
		return;
	t_uv_name("action", &action, sizeof(action));
	t_uv_name("counters", &counters, sizeof(counters));
	flow_start(&f, 2);
	SPEC(&f, IBV_FLOW_SPEC_IPV6, ibv_flow_spec_ipv6, 8);
	SPEC(&f, IBV_FLOW_SPEC_UDP, ibv_flow_spec_tcp_udp, 9);
	SPEC(&f, IBV_FLOW_SPEC_VXLAN_TUNNEL, ibv_flow_spec_tunnel, 10);
	SPEC(&f, IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER, ibv_flow_spec_eth,
	     11);
	SPEC(&f, IBV_FLOW_SPEC_IPV4 | IBV_FLOW_SPEC_INNER, ibv_flow_spec_ipv4,
	     12);
	add_ptr_spec(&f, IBV_FLOW_SPEC_ACTION_HANDLE, &action.action);
	add_ptr_spec(&f, IBV_FLOW_SPEC_ACTION_COUNT, &counters.counters);
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 2);
	SPEC(&f, IBV_FLOW_SPEC_ESP, ibv_flow_spec_esp, 13);
	SPEC(&f, IBV_FLOW_SPEC_GRE, ibv_flow_spec_gre, 14);
	SPEC(&f, IBV_FLOW_SPEC_MPLS, ibv_flow_spec_mpls, 15);
	SPEC(&f, IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER, ibv_flow_spec_mpls,
	     16);
	SPEC(&f, IBV_FLOW_SPEC_TCP | IBV_FLOW_SPEC_INNER, ibv_flow_spec_tcp_udp,
	     17);
	create_flow(&o.qp.qp, &f, false);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

/*
 * Specs whose public size differs from the kernel's: longer ones with
 * the extra mask bytes zero are taken, with them set refused; shorter
 * ones and unknown types are refused.
 */
static void case_flow_spec_sizes(struct ibv_context *ctx)
{
	struct ibv_flow_spec_ipv6 *v6;
	uint8_t *p;
	struct flow_buf f;
	struct t_diff_qp_objs o;

	if (flow_qp(ctx, &o))
		return;
	/* An IPv4 spec with 4 bytes more of filter, mask bytes zero. */
	flow_start(&f, 0);
	p = add_spec(&f, IBV_FLOW_SPEC_IPV4_EXT,
		     sizeof(struct ibv_flow_spec_ipv4_ext) + 8, 20);
	memset(p + 8 + 12 + 4 + 12, 0, 4);
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 0);
	add_spec(&f, IBV_FLOW_SPEC_IPV4_EXT,
		 sizeof(struct ibv_flow_spec_ipv4_ext) + 8, 21);
	create_flow(&o.qp.qp, &f, true);
	/* An IPv6 spec cut short. */
	flow_start(&f, 0);
	v6 = add_spec(&f, IBV_FLOW_SPEC_IPV6, 8 + 2 * 36, 22);
	(void)v6;
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 0);
	SPEC(&f, IBV_FLOW_SPEC_ETH, ibv_flow_spec_eth, 23);
	add_spec(&f, 0x77, 16, 24);
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 0);
	SPEC(&f, IBV_FLOW_SPEC_GRE | IBV_FLOW_SPEC_INNER, ibv_flow_spec_gre,
	     25);
	create_flow(&o.qp.qp, &f, true);
	flow_start(&f, 0);
	SPEC(&f, IBV_FLOW_SPEC_ACTION_DROP | IBV_FLOW_SPEC_INNER,
	     ibv_flow_spec_action_drop, 26);
	create_flow(&o.qp.qp, &f, true);
	T_NOTE_RET("destroy_qp", ibv_cmd_destroy_qp(&o.qp.qp));
}

/* A provider's attribute for the ESP methods. */
#define DRIVER_BUFFER(name, method)                                        \
	DECLARE_COMMAND_BUFFER(name, UVERBS_OBJECT_FLOW_ACTION,            \
			       UVERBS_METHOD_FLOW_ACTION_ESP_##method, 1); \
	fill_attr_in_uint64(name, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE)

struct esp_parts {
	struct ib_uverbs_flow_action_esp esp;
	struct ib_uverbs_flow_action_esp_keymat_aes_gcm keymat;
	struct ib_uverbs_flow_action_esp_replay_bmp replay;
	struct ib_uverbs_flow_action_esp_encap encap;
	struct ibv_flow_ipv4_filter filter;
};

/* Every part @with names, from a stale attr. */
static void esp_attr(struct ibv_flow_action_esp_attr *a, struct esp_parts *p,
		     unsigned int with)
{
	t_uv_pattern(p, sizeof(*p), 30);
	p->encap.val_ptr = &p->filter;
	p->encap.next_ptr = NULL;
	p->encap.len = sizeof(p->filter);
	p->encap.type = IBV_FLOW_SPEC_IPV4;
	t_diff_stale(a, sizeof(*a));
	a->esp_attr = with & 1 ? &p->esp : NULL;
	a->keymat_proto = IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM;
	a->keymat_len = sizeof(p->keymat);
	a->keymat_ptr = with & 2 ? &p->keymat : NULL;
	a->replay_proto = IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP;
	a->replay_len = sizeof(p->replay);
	a->replay_ptr = with & 4 ? &p->replay : NULL;
	a->esp_encap = with & 8 ? &p->encap : NULL;
	a->comp_mask = with & 16 ? IBV_FLOW_ACTION_ESP_MASK_ESN : 0;
	a->esn = 0x5e5e;
}

static void create_esp(struct ibv_context *ctx, unsigned int with,
		       struct ibv_command_buffer *drv)
{
	struct ibv_flow_action_esp_attr a;
	struct verbs_flow_action fa;
	struct esp_parts p;
	int ret;

	esp_attr(&a, &p, with);
	t_uv_name("esp_parts", &p, sizeof(p));
	t_diff_stale(&fa, sizeof(fa));
	ret = ibv_cmd_create_flow_action_esp(ctx, &a, &fa, drv);
	t_uv_note("create_flow_action_esp(%x) ret=%d", with, ret);
	t_uv_dump("flow_action", &fa, sizeof(fa));
	t_uv_dump("esp_parts", &p, sizeof(p));
	if (!ret)
		T_NOTE_RET("destroy_flow_action",
			   ibv_cmd_destroy_flow_action(&fa));
	t_uv_unname(&p);
}

static void case_flow_action_esp(struct ibv_context *ctx)
{
	DRIVER_BUFFER(drv, CREATE);

	create_esp(ctx, 31, drv);
	create_esp(ctx, 1, NULL);
	create_esp(ctx, 0, NULL);
	create_esp(ctx, 2 | 16, NULL);
	create_esp(ctx, 4 | 8, NULL);
	t_uv.next_err = EINVAL;
	create_esp(ctx, 1, NULL);
}

static void case_modify_flow_action_esp(struct ibv_context *ctx)
{
	DRIVER_BUFFER(drv, MODIFY);
	struct ibv_flow_action_esp_attr a;
	struct verbs_flow_action fa;
	struct esp_parts p;
	int ret;

	esp_attr(&a, &p, 1);
	t_uv_name("esp_parts", &p, sizeof(p));
	t_diff_stale(&fa, sizeof(fa));
	ret = ibv_cmd_create_flow_action_esp(ctx, &a, &fa, NULL);
	T_NOTE_RET("create_flow_action_esp", ret);
	if (ret) {
		t_uv_unname(&p);
		return;
	}
	esp_attr(&a, &p, 31);
	T_NOTE_RET("modify_flow_action_esp",
		   ibv_cmd_modify_flow_action_esp(&fa, &a, drv));
	esp_attr(&a, &p, 16);
	T_NOTE_RET("modify_flow_action_esp",
		   ibv_cmd_modify_flow_action_esp(&fa, &a, NULL));
	esp_attr(&a, &p, 0);
	T_NOTE_RET("modify_flow_action_esp",
		   ibv_cmd_modify_flow_action_esp(&fa, &a, NULL));
	t_uv.next_err = EINVAL;
	T_NOTE_RET("modify_flow_action_esp fails",
		   ibv_cmd_modify_flow_action_esp(&fa, &a, NULL));
	t_uv_dump("flow_action", &fa, sizeof(fa));
	t_uv.next_err = EBUSY;
	T_NOTE_RET("destroy_flow_action fails",
		   ibv_cmd_destroy_flow_action(&fa));
	T_NOTE_RET("destroy_flow_action", ibv_cmd_destroy_flow_action(&fa));
	t_uv_unname(&p);
}

static void case_counters(struct ibv_context *ctx)
{
	DECLARE_COMMAND_BUFFER(cdrv, UVERBS_OBJECT_COUNTERS,
			       UVERBS_METHOD_COUNTERS_CREATE, 1);
	DECLARE_COMMAND_BUFFER(rdrv, UVERBS_OBJECT_COUNTERS,
			       UVERBS_METHOD_COUNTERS_READ, 1);
	struct ibv_counters_init_attr attr;
	struct verbs_counters vc;
	uint64_t values[4];
	int ret;

	fill_attr_in_uint64(cdrv, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE);
	fill_attr_in_uint64(rdrv, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE);
	t_diff_stale(&attr, sizeof(attr));
	t_diff_stale(&vc, sizeof(vc));
	T_NOTE_RET("create_counters bad mask",
		   ibv_cmd_create_counters(ctx, &attr, &vc, NULL));
	attr.comp_mask = 0;
	ret = ibv_cmd_create_counters(ctx, &attr, &vc, cdrv);
	T_NOTE_RET("create_counters", ret);
	t_uv_dump("counters", &vc, sizeof(vc));
	if (ret)
		return;
	t_uv_name("values", values, sizeof(values));
	t_diff_stale(values, sizeof(values));
	T_NOTE_RET("read_counters",
		   ibv_cmd_read_counters(&vc, values, 4,
					 IB_UVERBS_READ_COUNTERS_PREFER_CACHED,
					 rdrv));
	t_uv_dump("values", values, sizeof(values));
	t_diff_stale(values, sizeof(values));
	T_NOTE_RET("read_counters 1",
		   ibv_cmd_read_counters(&vc, values, 1, 0, NULL));
	T_NOTE_RET("read_counters 0",
		   ibv_cmd_read_counters(&vc, values, 0, 0, NULL));
	t_uv_dump("values", values, sizeof(values));
	t_uv.next_err = EINVAL;
	T_NOTE_RET("read_counters fails",
		   ibv_cmd_read_counters(&vc, values, 2, 0, NULL));
	t_uv_unname(values);
	T_NOTE_RET("destroy_counters", ibv_cmd_destroy_counters(&vc));
	t_uv.next_err = ENOMEM;
	t_diff_stale(&vc, sizeof(vc));
	T_NOTE_RET("create_counters fails",
		   ibv_cmd_create_counters(ctx, &attr, &vc, NULL));
	t_uv_dump("counters", &vc, sizeof(vc));
}

T_CASE_SET(t_cases_flow, T_CASE(flow_l2_l4), T_CASE(flow_tunnel),
	   T_CASE(flow_spec_sizes), T_CASE(flow_action_esp),
	   T_CASE(modify_flow_action_esp), T_CASE(counters));
