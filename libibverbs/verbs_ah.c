// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of address handles: create and destroy, and the
 * attributes of a handle that answers a received packet
 * (ibv_init_ah_from_wc, ibv_create_ah_from_wc), which look the packet's
 * destination up in the GID table. The provider reaches the kernel
 * through cmd_ah.c, or builds the handle in user space alone.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"

/**
 * ibv_create_ah - create an address handle for @attr on @pd
 * Returns the AH, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(ibv_create_ah, "IBVERBS_1.1");
struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ibv_ah *ah = get_ops(pd->context)->create_ah(pd, attr);

	/* A provider that never asks the kernel leaves these to us. */
	if (ah) {
		ah->context = pd->context;
		ah->pd = pd;
	} else {
		explain_create_ah(pd->context, attr);
	}
	return ah;
}

/**
 * ibv_destroy_ah - destroy @ah
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_destroy_ah, "IBVERBS_1.1");
int ibv_destroy_ah(struct ibv_ah *ah)
{
	return get_ops(ah->context)->destroy_ah(ah);
}

/* The index of @gid with @type in @port's table; -1 with errno if none. */
static int find_gid_index(struct ibv_context *ctx, uint8_t port,
			  const union ibv_gid *gid,
			  enum ibv_gid_type_sysfs type)
{
	enum ibv_gid_type_sysfs t;
	union ibv_gid g;
	int i;

	/* The walk ends where the table does: the query fails there. */
	for (i = 0;; i++) {
		if (ibv_query_gid(ctx, port, i, &g) ||
		    ibv_query_gid_type(ctx, port, i, &t))
			return -1;
		if (!memcmp(&g, gid, sizeof(g)) && t == type)
			return i;
	}
}

/* The IPv4 header of a RoCE v2 packet fills the GRH's last 20 bytes. */
static const struct iphdr *grh_ipv4(const struct ibv_grh *grh)
{
	return (const struct iphdr *)((const uint8_t *)grh + 20);
}

/* One's complement sum of the header with its check field zeroed. */
static uint16_t ipv4_csum(const struct iphdr *ip)
{
	struct iphdr copy = *ip;
	uint16_t words[10];
	uint32_t sum = 0;
	int i;

	copy.check = 0;
	memcpy(words, &copy, sizeof(words));
	for (i = 0; i < 10; i++)
		sum += words[i];
	/* Folded once, as rdma-core 44 does. */
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * 6 or 4, or -1 with errno. A RoCE v2 IPv4 packet leaves the first 20
 * bytes of the GRH undefined, so they may look like IPv6: an IPv4 header
 * with a good checksum in the second half then wins.
 */
static int grh_version(const struct ibv_grh *grh)
{
	const struct iphdr *ip = grh_ipv4(grh);

	if ((be32toh(grh->version_tclass_flow) >> 28) != 6) {
		if (ip->version == 4)
			return 4;
		errno = EPROTONOSUPPORT;
		return -1;
	}
	if (ip->ihl != 5)
		return 6;
	return ip->check == ipv4_csum(ip) ? 4 : 6;
}

static void ipv4_mapped(uint32_t addr, union ibv_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], &addr, 4);
}

static int ah_from_ipv4(struct ibv_context *ctx, struct ibv_ah_attr *ah,
			const struct iphdr *ip, uint8_t port)
{
	union ibv_gid local;
	int idx;

	/* Our own GID is never a multicast address: no use searching. */
	if (IN_CLASSD(be32toh(ip->daddr))) {
		errno = EINVAL;
		return -1;
	}
	ipv4_mapped(ip->daddr, &local);
	idx = find_gid_index(ctx, port, &local, IBV_GID_TYPE_SYSFS_ROCE_V2);
	if (idx < 0)
		return -1;
	ipv4_mapped(ip->saddr, &ah->grh.dgid);
	ah->grh.sgid_index = idx;
	ah->grh.hop_limit = ip->ttl;
	ah->grh.traffic_class = ip->tos;
	return 0;
}

/* The GRH's next header: UDP for RoCE v2, 0x1b (BTH) for IB and RoCE v1. */
static int ah_from_ipv6(struct ibv_context *ctx, struct ibv_ah_attr *ah,
			const struct ibv_grh *grh, uint8_t port)
{
	enum ibv_gid_type_sysfs type;
	int idx;

	if (grh->dgid.raw[0] == 0xff) {
		errno = EINVAL;
		return -1;
	}
	ah->grh.dgid = grh->sgid;
	if (grh->next_hdr == IPPROTO_UDP) {
		type = IBV_GID_TYPE_SYSFS_ROCE_V2;
	} else if (grh->next_hdr == 0x1b) {
		type = IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
	} else {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	idx = find_gid_index(ctx, port, &grh->dgid, type);
	if (idx < 0)
		return -1;
	ah->grh.sgid_index = idx;
	ah->grh.hop_limit = grh->hop_limit;
	ah->grh.traffic_class = (be32toh(grh->version_tclass_flow) >> 20) &
				0xff;
	return 0;
}

/* The verb below, without its explanation. */
static int init_ah_from_wc(struct ibv_context *context, uint8_t port_num,
			   struct ibv_wc *wc, struct ibv_grh *grh,
			   struct ibv_ah_attr *ah_attr)
{
	int version;

	memset(ah_attr, 0, sizeof(*ah_attr));
	if (grh)
		ah_attr->grh.flow_label = be32toh(grh->version_tclass_flow) &
					  0xfffff;
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	ah_attr->port_num = port_num;
	if (!(wc->wc_flags & IBV_WC_GRH))
		return 0;
	ah_attr->is_global = 1;
	version = grh_version(grh);
	if (version == 4)
		return ah_from_ipv4(context, ah_attr, grh_ipv4(grh), port_num);
	if (version == 6)
		return ah_from_ipv6(context, ah_attr, grh, port_num);
	return -1;
}

/**
 * ibv_init_ah_from_wc - address handle attributes to answer a packet
 * @context: the device it arrived on
 * @port_num: the port it arrived on
 * @wc: its completion
 * @grh: its first 40 bytes, read only when @wc has IBV_WC_GRH
 * @ah_attr: filled in
 *
 * Returns 0, or -1 with errno set (no local GID matches the packet's
 * destination, a multicast destination, an unknown header).
 */
IBV_EXPORT int ibv_init_ah_from_wc(struct ibv_context *context,
				   uint8_t port_num, struct ibv_wc *wc,
				   struct ibv_grh *grh,
				   struct ibv_ah_attr *ah_attr)
{
	int ret = init_ah_from_wc(context, port_num, wc, grh, ah_attr);

	if (ret)
		explain_init_ah_from_wc(context, port_num);
	return ret;
}

/**
 * ibv_create_ah_from_wc - an address handle to answer a received packet
 * @pd: the protection domain of the new address handle
 * @wc: the packet's completion
 * @grh: its first 40 bytes (see ibv_init_ah_from_wc())
 * @port_num: the port it arrived on
 *
 * Returns the address handle, or NULL with errno set.
 */
IBV_EXPORT struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd,
						struct ibv_wc *wc,
						struct ibv_grh *grh,
						uint8_t port_num)
{
	struct ibv_ah_attr attr;

	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr))
		return NULL;
	return ibv_create_ah(pd, &attr);
}
