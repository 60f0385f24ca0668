// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Steering flows (ibv_cmd_create_flow, ibv_cmd_destroy_flow): the command
 * layer for the kernel's FLOW object. Providers call these from their
 * create_flow/destroy_flow ops, which the inline ibv_create_flow() and
 * ibv_destroy_flow() of verbs.h reach through the verbs_context.
 *
 * A flow is created only by the extended write() command CREATE_FLOW
 * (rdma-core 44 has no ioctl method for it): the public struct
 * ibv_flow_attr and the specs behind it are rewritten spec by spec into
 * the kernel's ib_uverbs_flow_spec_* layouts, which differ in size and,
 * for the IPv4/IPv6/VXLAN filters, in how much of the filter the kernel
 * knows. Destroy is an ioctl with the write() command as fallback.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/*
 * Applications lay their specs out packed behind struct ibv_flow_attr
 * (20 bytes), so a spec is rarely aligned for its struct: every field
 * is read here by its offset, with memcpy.
 */
struct ib_spec {
	const uint8_t *p;
	uint32_t type;
	int size; /* as the spec says, header included */
};

static struct ib_spec read_spec(const uint8_t *p)
{
	struct ib_spec s = { .p = p };
	uint16_t size;

	memcpy(&s.type, p + offsetof(struct ibv_flow_spec_eth, type), 4);
	memcpy(&size, p + offsetof(struct ibv_flow_spec_eth, size), 2);
	s.size = size;
	return s;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * The filters whose public and kernel layouts may differ in length
 * (IPv4 with options, IPv6, VXLAN) are copied by size: value then mask,
 * each half of what follows the 8-byte public header. A filter shorter
 * than the kernel's fields is malformed (EINVAL); one longer is accepted
 * only if the mask leaves the bytes the kernel lacks at zero (EOPNOTSUPP
 * otherwise), since the kernel could not match on them.
 */
static int copy_sized_filter(const struct ib_spec *ib, void *kval, void *kmask,
			     int kern_len)
{
	const int hdr = sizeof(((struct ibv_flow_spec *)0)->hdr);
	int ib_len = (ib->size - hdr) / 2;
	const uint8_t *val = ib->p + hdr;

	if (ib_len < kern_len)
		return with_errno(EINVAL);
	if (!all_zero(val + ib_len + kern_len, ib_len - kern_len))
		return with_errno(EOPNOTSUPP);
	memcpy(kval, val, kern_len);
	memcpy(kmask, val + ib_len, kern_len);
	return 0;
}

/* Bytes of a kernel filter up to and including member @m. */
#define KFILTER_LEN(type, m) ((int)(offsetof(type, m) + sizeof(((type *)0)->m)))

static int conv_ipv4_ext(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	/* The kernel has one IPv4 type; its layout is the extended one. */
	k->hdr.type = IBV_FLOW_SPEC_IPV4 | (ib->type & IBV_FLOW_SPEC_INNER);
	k->hdr.size = sizeof(k->ipv4_ext);
	return copy_sized_filter(ib, &k->ipv4_ext.val, &k->ipv4_ext.mask,
				 KFILTER_LEN(struct ib_uverbs_flow_ipv4_filter,
					     flags));
}

static int conv_ipv6(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	k->hdr.size = sizeof(k->ipv6);
	return copy_sized_filter(ib, &k->ipv6.val, &k->ipv6.mask,
				 KFILTER_LEN(struct ib_uverbs_flow_ipv6_filter,
					     hop_limit));
}

static int conv_tunnel(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	k->hdr.size = sizeof(k->tunnel);
	return copy_sized_filter(
		ib, &k->tunnel.val, &k->tunnel.mask,
		KFILTER_LEN(struct ib_uverbs_flow_tunnel_filter, tunnel_id));
}

/*
 * Filters of the same length on both sides: value and mask copied from
 * where the public struct @ptype has them, whatever the spec's size
 * says.
 */
#define COPY_FILTER(k, kf, ib, ptype)                                  \
	do {                                                           \
		_Static_assert(sizeof((k)->kf.val) ==                  \
				       sizeof(((ptype *)0)->val),      \
			       "filter lengths differ");               \
		(k)->hdr.size = sizeof((k)->kf);                       \
		memcpy(&(k)->kf.val, (ib)->p + offsetof(ptype, val),   \
		       sizeof((k)->kf.val));                           \
		memcpy(&(k)->kf.mask, (ib)->p + offsetof(ptype, mask), \
		       sizeof((k)->kf.mask));                          \
	} while (0)

static int conv_filter(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	switch (ib->type & ~IBV_FLOW_SPEC_INNER) {
	case IBV_FLOW_SPEC_ETH:
		COPY_FILTER(k, eth, ib, struct ibv_flow_spec_eth);
		return 0;
	case IBV_FLOW_SPEC_IPV4:
		COPY_FILTER(k, ipv4, ib, struct ibv_flow_spec_ipv4);
		return 0;
	case IBV_FLOW_SPEC_IPV4_EXT:
		return conv_ipv4_ext(ib, k);
	case IBV_FLOW_SPEC_IPV6:
		return conv_ipv6(ib, k);
	case IBV_FLOW_SPEC_ESP:
		COPY_FILTER(k, esp, ib, struct ibv_flow_spec_esp);
		return 0;
	case IBV_FLOW_SPEC_TCP:
	case IBV_FLOW_SPEC_UDP:
		COPY_FILTER(k, tcp_udp, ib, struct ibv_flow_spec_tcp_udp);
		return 0;
	case IBV_FLOW_SPEC_MPLS:
		COPY_FILTER(k, mpls, ib, struct ibv_flow_spec_mpls);
		return 0;
	}
	return with_errno(EINVAL);
}

/* The object pointer of an action spec, read where it lies. */
static const void *read_ptr(const struct ib_spec *ib, size_t offset)
{
	const void *ptr;

	memcpy(&ptr, ib->p + offset, sizeof(ptr));
	return ptr;
}

/* Actions name other kernel objects by the handle the core keeps. */
static int conv_action(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	const struct verbs_flow_action *va;
	const struct verbs_counters *vc;

	switch (ib->type) {
	case IBV_FLOW_SPEC_ACTION_TAG:
		k->hdr.size = sizeof(k->flow_tag);
		memcpy(&k->flow_tag.tag_id,
		       ib->p + offsetof(struct ibv_flow_spec_action_tag,
					tag_id),
		       sizeof(k->flow_tag.tag_id));
		return 0;
	case IBV_FLOW_SPEC_ACTION_DROP:
		k->hdr.size = sizeof(k->drop);
		return 0;
	case IBV_FLOW_SPEC_ACTION_HANDLE:
		va = container_of(
			read_ptr(ib,
				 offsetof(struct ibv_flow_spec_action_handle,
					  action)),
			struct verbs_flow_action, action);
		k->hdr.size = sizeof(k->handle);
		k->handle.handle = va->handle;
		return 0;
	case IBV_FLOW_SPEC_ACTION_COUNT:
		vc = container_of(
			read_ptr(ib,
				 offsetof(struct ibv_flow_spec_counter_action,
					  counters)),
			struct verbs_counters, counters);
		k->hdr.size = sizeof(k->flow_count);
		k->flow_count.handle = vc->handle;
		return 0;
	}
	return with_errno(EINVAL);
}

/*
 * One public spec into the kernel's layout at @k (zeroed by the caller).
 * rdma-core 44 accepts the inner-header flag on every filter but GRE and
 * VXLAN, and never on actions; any other type is EINVAL.
 */
static int spec_to_kern(const struct ib_spec *ib, struct ibv_kern_spec *k)
{
	uint32_t outer = ib->type & ~IBV_FLOW_SPEC_INNER;

	k->hdr.type = ib->type;
	if (ib->type == IBV_FLOW_SPEC_GRE) {
		COPY_FILTER(k, gre, ib, struct ibv_flow_spec_gre);
		return 0;
	}
	if (ib->type == IBV_FLOW_SPEC_VXLAN_TUNNEL)
		return conv_tunnel(ib, k);
	if (ib->type & IBV_FLOW_SPEC_ACTION_TAG)
		return conv_action(ib, k);
	if (outer == IBV_FLOW_SPEC_GRE || outer == IBV_FLOW_SPEC_VXLAN_TUNNEL)
		return with_errno(EINVAL);
	return conv_filter(ib, k);
}

/*
 * Converts the specs behind @attr into @cmd's spec area; flow_attr.size
 * counts their kernel length. Each public spec is as long as its size
 * field says.
 */
static int convert_specs(struct ibv_create_flow *cmd,
			 const struct ibv_flow_attr *attr)
{
	const uint8_t *ib = (const uint8_t *)(attr + 1);
	uint8_t *kern = (uint8_t *)(cmd + 1);
	int ret;

	for (unsigned int i = 0; i < attr->num_of_specs; i++) {
		struct ibv_kern_spec *k = (struct ibv_kern_spec *)kern;
		struct ib_spec spec = read_spec(ib);

		ret = spec_to_kern(&spec, k);
		if (ret)
			return ret;
		cmd->flow_attr.size += k->hdr.size;
		kern += k->hdr.size;
		ib += spec.size;
	}
	return 0;
}

static int send_create_flow(struct ibv_qp *qp, struct ibv_create_flow *cmd,
			    const void *ucmd, size_t ucmd_size,
			    struct ib_uverbs_create_flow_resp *resp)
{
	size_t core = sizeof(*cmd) + cmd->flow_attr.size;
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_EX_CMD_CREATE_FLOW,
		.extended = true,
		.req = cmd,
		.req_core = core,
		.req_len = core + ucmd_size,
		KCMD_RESP(resp, sizeof(*resp)),
	};

	/* The provider's data goes right behind the specs actually used. */
	if (ucmd_size)
		memcpy((uint8_t *)cmd + core, ucmd, ucmd_size);
	return kcmd_write(qp->context, &w);
}

/*
 * The request's length in u64s: headers, core, room for every spec in
 * its largest kernel form, and the provider's data. At most 255 specs
 * (num_of_specs is a u8) and KCMD_EX_PART_MAX bytes of data, so the sum
 * cannot wrap and the request fits on the stack, as rdma-core's does.
 */
static size_t create_flow_words(const struct ibv_flow_attr *attr, size_t udata)
{
	return (sizeof(struct ibv_create_flow) +
		attr->num_of_specs * sizeof(struct ibv_kern_spec) + udata + 7) /
	       8;
}

static int create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id,
		       struct ibv_flow_attr *flow_attr, const void *ucmd,
		       size_t udata)
{
	uint64_t buf[create_flow_words(flow_attr, udata)];
	struct ibv_create_flow *cmd = (struct ibv_create_flow *)buf;
	struct ib_uverbs_create_flow_resp resp = { 0 };
	int ret;

	memset(buf, 0, sizeof(buf));
	cmd->qp_handle = qp->handle;
	cmd->flow_attr.type = flow_attr->type;
	cmd->flow_attr.priority = flow_attr->priority;
	cmd->flow_attr.num_of_specs = flow_attr->num_of_specs;
	cmd->flow_attr.port = flow_attr->port;
	cmd->flow_attr.flags = flow_attr->flags;
	ret = convert_specs(cmd, flow_attr);
	if (!ret)
		ret = send_create_flow(qp, cmd, ucmd, udata, &resp);
	if (ret)
		return ret;
	flow_id->context = qp->context;
	flow_id->handle = resp.flow_handle;
	return 0;
}

/*
 * Creates a flow steering rule on @qp from @flow_attr and its specs;
 * @ucmd/@ucmd_size is the provider's data for the kernel driver (may be
 * NULL/0). Fills flow_id's context and handle. 0 or a positive errno;
 * EINVAL for more provider data than the command can carry, before
 * anything is built.
 */
IBV_EXPORT int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id,
				   struct ibv_flow_attr *flow_attr, void *ucmd,
				   size_t ucmd_size)
{
	size_t udata = ucmd ? ucmd_size : 0;

	if (udata > KCMD_EX_PART_MAX)
		return with_errno(EINVAL);
	return create_flow(qp, flow_id, flow_attr, ucmd, udata);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_create_flow);

static const struct cmd_destroy flow_destroy = {
	CMD_DESTROY_IDS(FLOW),
	.command = IB_USER_VERBS_EX_CMD_DESTROY_FLOW,
	.extended = true,
};

/*
 * Destroys @flow_id: the FLOW/DESTROY method, or the extended write()
 * command DESTROY_FLOW on kernels without it.
 */
IBV_EXPORT int ibv_cmd_destroy_flow(struct ibv_flow *flow_id)
{
	return cmd_destroy_handle(flow_id->context, &flow_destroy,
				  flow_id->handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_destroy_flow);
