// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_resolve_eth_l2_from_gid(): the Ethernet address (and VLAN id) that
 * a RoCE address handle needs to reach a destination GID, asked of the
 * kernel's IP stack over rtnetlink (libnl-route-3). RoCE v2 GIDs are IP
 * addresses: IPv4 ones as ::ffff:a.b.c.d (or ff0e::ffff:a.b.c.d for
 * multicast), everything else as IPv6.
 *
 * The walk, as rdma-core 44 does it: the source GID names the interface
 * that owns its address; a route lookup from that interface says whether
 * the destination is local, behind a gateway, or on the link; multicast
 * and IPv6 link-local destinations encode their MAC in the address; for
 * the rest the kernel's neighbour table is read, and when it has no entry
 * a datagram to the discard port makes the kernel resolve one while we
 * wait, boundedly, for the neighbour update on netlink. libnl-route-3's
 * functions come from nl_route.c's table, loaded on the first call.
 *
 * The return values are rdma-core 44's mixture, kept because callers
 * compare against them: 0; whatever ibv_query_gid() returned; the setup's
 * -ENOSYS, libnl code, -1 or -ENOMEM; -EINVAL before the route lookup;
 * -EHOSTUNREACH from the route lookup on. A libnl-route-3 that cannot be
 * loaded is a failed setup too: -ENOSYS, which is also what rdma-core
 * returns when it was built without neighbour resolution.
 */
#include <net/if.h>
#include <errno.h>
#include <ifaddrs.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <netinet/in.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>

#include "driver.h"
#include "export.h"
#include "neigh.h"
#include "nl_route.h"

/* The public verb's bound on the whole neighbour wait. */
#define NEIGH_TIMEOUT_MS 3000
/* The wait is cut in this many ticks; each of all but the last re-sends. */
#define NEIGH_TICKS 11
/* A just-added IPv6 source is refused while tentative; v44 spins on it. */
#define NEIGH_SEND_SPINS 100000
#define NEIGH_DISCARD_PORT 9
#define NEIGH_VID_NONE 0xffff
#define NEIGH_VID_MAX 0xfff

struct neigh_query {
	const struct nl_route *rt; /* libnl-route-3's functions */
	struct nl_sock *sk;
	struct nl_cache *links;
	struct nl_cache *neighs;
	struct nl_addr *src;
	struct nl_addr *dst; /* the GID's address, then the route's gateway */
	struct nl_addr *lladdr; /* the answer */
	struct rtnl_route *route;
	int oif;
};

/* ::ffff:a.b.c.d, or the multicast form ff0e::ffff:a.b.c.d. */
static bool gid_is_ipv4(const uint8_t *raw)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t mcast[12] = { 0xff,
					   0x0e, [10] = 0xff, [11] = 0xff };

	return !memcmp(raw, mapped, 12) || !memcmp(raw, mcast, 12);
}

static struct nl_addr *gid_to_addr(const union ibv_gid *gid)
{
	if (gid_is_ipv4(gid->raw))
		return nl_addr_build(AF_INET, (void *)(gid->raw + 12), 4);
	return nl_addr_build(AF_INET6, (void *)gid->raw, 16);
}

static void query_close(struct neigh_query *q)
{
	if (q->route)
		q->rt->rtnl_route_put(q->route);
	nl_addr_put(q->lladdr);
	nl_addr_put(q->dst);
	nl_addr_put(q->src);
	if (q->neighs)
		nl_cache_free(q->neighs);
	if (q->links)
		nl_cache_free(q->links);
	nl_socket_free(q->sk);
}

/*
 * The socket and the snapshots of the link and neighbour tables. The
 * return values are v44's, one per step (it also dumps the routing table,
 * unused, whose failure returned -1 like the link table's).
 */
static int query_open(struct neigh_query *q)
{
	int err;

	q->sk = nl_socket_alloc();
	if (!q->sk)
		return -ENOSYS;
	/* Replies and neighbour events alike: no acks, no sequence check. */
	nl_socket_disable_auto_ack(q->sk);
	nl_socket_disable_seq_check(q->sk);
	err = nl_connect(q->sk, NETLINK_ROUTE);
	if (err < 0)
		return err;
	if (q->rt->rtnl_link_alloc_cache(q->sk, AF_UNSPEC, &q->links))
		return -1;
	if (q->rt->rtnl_neigh_alloc_cache(q->sk, &q->neighs))
		return -ENOMEM;
	return 0;
}

static bool same_addr(const struct sockaddr *sa, struct nl_addr *addr)
{
	const void *bin;
	size_t len;

	if (sa->sa_family != nl_addr_get_family(addr))
		return false;
	if (sa->sa_family == AF_INET) {
		bin = &((const struct sockaddr_in *)sa)->sin_addr;
		len = 4;
	} else if (sa->sa_family == AF_INET6) {
		bin = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		len = 16;
	} else {
		return false;
	}
	return !memcmp(bin, nl_addr_get_binary_addr(addr), len);
}

/*
 * The index of the first interface holding @src, or 0. Like v44 it goes
 * by the entry's name, so an IPv4 alias label ("eth0:1") finds nothing.
 */
static int src_ifindex(struct nl_addr *src)
{
	struct ifaddrs *list, *ifa;
	int index = 0;

	if (getifaddrs(&list))
		return 0;
	for (ifa = list; ifa; ifa = ifa->ifa_next) {
		if (ifa->ifa_addr && same_addr(ifa->ifa_addr, src)) {
			index = if_nametoindex(ifa->ifa_name);
			break;
		}
	}
	freeifaddrs(list);
	return index;
}

static struct nl_addr *mac_addr(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3,
				uint8_t b4, uint8_t b5)
{
	uint8_t mac[ETHERNET_LL_SIZE] = { b0, b1, b2, b3, b4, b5 };

	return nl_addr_build(AF_LLC, mac, sizeof(mac));
}

/* Multicast and IPv6 link-local destinations carry their MAC. */
static struct nl_addr *encoded_lladdr(struct nl_addr *dst)
{
	static const uint8_t link_local[8] = { 0xfe, 0x80 };
	const uint8_t *a = nl_addr_get_binary_addr(dst);

	/* 01:00:5e and the group's low 23 bits (RFC 1112). */
	if (nl_addr_get_family(dst) == AF_INET) {
		if ((a[0] & 0xf0) != 0xe0)
			return NULL;
		return mac_addr(0x01, 0x00, 0x5e, a[1] & 0x7f, a[2], a[3]);
	}
	/* 33:33 and the group's low 32 bits (RFC 2464). */
	if (a[0] == 0xff)
		return mac_addr(0x33, 0x33, a[12], a[13], a[14], a[15]);
	/* The modified EUI-64 undone; bytes 11-12 (ff:fe) go unchecked. */
	if (!memcmp(a, link_local, sizeof(link_local)))
		return mac_addr(a[8] ^ 2, a[9], a[10], a[13], a[14], a[15]);
	return NULL;
}

static void take_route(struct nl_object *obj, void *arg)
{
	struct neigh_query *q = arg;

	if (!q->route) {
		nl_object_get(obj);
		q->route = (struct rtnl_route *)obj;
	}
}

static int on_route_msg(struct nl_msg *msg, void *arg)
{
	nl_msg_parse(msg, take_route, arg);
	return NL_OK;
}

/* RTM_GETROUTE for the destination, from the source's interface. */
static int route_get(struct neigh_query *q)
{
	struct rtmsg rtm = {
		.rtm_family = nl_addr_get_family(q->dst),
		.rtm_dst_len = nl_addr_get_prefixlen(q->dst),
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_GETROUTE, 0);
	int err = -NLE_NOMEM;

	if (!msg)
		return err;
	if (nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO) ||
	    nla_put_addr(msg, RTA_DST, q->dst) ||
	    nla_put_u32(msg, RTA_OIF, q->oif))
		goto out;
	err = nl_send_auto(q->sk, msg);
	if (err < 0)
		goto out;
	nl_socket_modify_cb(q->sk, NL_CB_VALID, NL_CB_CUSTOM, on_route_msg, q);
	err = nl_recvmsgs_default(q->sk);
	if (err >= 0 && !q->route)
		err = -NLE_OBJ_NOTFOUND;
out:
	nlmsg_free(msg);
	return err < 0 ? err : 0;
}

/* The interface's own address, for a destination that is local. */
static struct nl_addr *own_lladdr(struct neigh_query *q)
{
	struct rtnl_link *link = q->rt->rtnl_link_get(q->links, q->oif);
	struct nl_addr *addr = NULL;

	if (!link)
		return NULL;
	if (q->rt->rtnl_link_get_addr(link))
		addr = nl_addr_clone(q->rt->rtnl_link_get_addr(link));
	q->rt->rtnl_link_put(link);
	return addr;
}

/*
 * What the route says: the next hop replaces the destination, reject
 * routes end the search, a local destination is answered by the
 * interface itself, an encoded one by its address. Returns false on a
 * dead end; q->lladdr may still be NULL (ask the neighbour table).
 */
static bool route_apply(struct neigh_query *q)
{
	struct rtnl_nexthop *nh = q->rt->rtnl_route_nexthop_n(q->route, 0);
	struct nl_addr *gw = nh ? q->rt->rtnl_route_nh_get_gateway(nh) : NULL;

	if (gw) {
		nl_addr_put(q->dst);
		q->dst = nl_addr_clone(gw);
		if (!q->dst)
			return false;
	}
	switch (q->rt->rtnl_route_get_type(q->route)) {
	case RTN_BLACKHOLE:
	case RTN_UNREACHABLE:
	case RTN_PROHIBIT:
	case RTN_THROW:
		return false;
	case RTN_LOCAL:
		q->lladdr = own_lladdr(q);
		return q->lladdr != NULL;
	default:
		q->lladdr = encoded_lladdr(q->dst);
		return true;
	}
}

/* The neighbour table's address for the destination, if it has one. */
static struct nl_addr *cached_lladdr(struct neigh_query *q)
{
	struct rtnl_neigh *n = q->rt->rtnl_neigh_get(q->neighs, q->oif, q->dst);
	struct nl_addr *addr = NULL;

	if (!n)
		return NULL;
	if (q->rt->rtnl_neigh_get_lladdr(n))
		addr = nl_addr_clone(q->rt->rtnl_neigh_get_lladdr(n));
	q->rt->rtnl_neigh_put(n);
	return addr;
}

static void take_neigh(struct nl_object *obj, void *arg)
{
	struct rtnl_neigh *n = (struct rtnl_neigh *)obj;
	struct neigh_query *q = arg;
	struct nl_addr *dst = q->rt->rtnl_neigh_get_dst(n);

	if (q->lladdr || !q->rt->rtnl_neigh_get_lladdr(n) || !dst ||
	    q->rt->rtnl_neigh_get_ifindex(n) != q->oif ||
	    nl_addr_cmp(dst, q->dst))
		return;
	q->lladdr = nl_addr_clone(q->rt->rtnl_neigh_get_lladdr(n));
}

static int on_neigh_msg(struct nl_msg *msg, void *arg)
{
	nl_msg_parse(msg, take_neigh, arg);
	return NL_OK;
}

/*
 * The probe socket: bound to the source, aimed at the destination's
 * discard port. As in v44 the socket takes the destination's family and
 * is bound with the source's, so a GID pair of two families fails here.
 */
static int probe_open(struct neigh_query *q, struct sockaddr_storage *to,
		      socklen_t *to_len)
{
	struct sockaddr_storage from = {};
	socklen_t from_len = sizeof(from);
	int fd;

	*to_len = sizeof(*to);
	memset(to, 0, sizeof(*to));
	if (nl_addr_fill_sockaddr(q->src, (struct sockaddr *)&from,
				  &from_len) ||
	    nl_addr_fill_sockaddr(q->dst, (struct sockaddr *)to, to_len))
		return -1;
	if (to->ss_family == AF_INET) {
		((struct sockaddr_in *)to)->sin_port =
			htons(NEIGH_DISCARD_PORT);
	} else {
		((struct sockaddr_in6 *)to)->sin6_port =
			htons(NEIGH_DISCARD_PORT);
		((struct sockaddr_in6 *)to)->sin6_scope_id = q->oif;
	}
	fd = socket(to->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&from, from_len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int probe_send(int fd, const struct sockaddr_storage *to, socklen_t len)
{
	static const char byte;
	unsigned long spins = NEIGH_SEND_SPINS;
	ssize_t n;

	do {
		n = sendto(fd, &byte, 1, 0, (const struct sockaddr *)to, len);
	} while (n < 0 && errno == EADDRNOTAVAIL && --spins);
	return n < 0 ? -1 : 0;
}

/* A periodic tick of timeout_ms / NEIGH_TICKS; 0 leaves it unarmed. */
static int tick_open(unsigned int timeout_ms)
{
	unsigned int ms = timeout_ms / NEIGH_TICKS;
	struct itimerspec its = {
		.it_value = { ms / 1000, (ms % 1000) * 1000000L },
		.it_interval = { ms / 1000, (ms % 1000) * 1000000L },
	};
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd >= 0 && timeout_ms && timerfd_settime(fd, 0, &its, NULL)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Netlink news of the neighbour, or on each tick a fresh look at the
 * table and another datagram; gives up after NEIGH_TICKS ticks or on a
 * failed poll().
 */
static void wait_loop(struct neigh_query *q, int probe, int tick,
		      const struct sockaddr_storage *to, socklen_t to_len)
{
	struct pollfd pfd[2] = { { .fd = nl_socket_get_fd(q->sk),
				   .events = POLLIN },
				 { .fd = tick, .events = POLLIN } };
	unsigned int ticks = 0;
	uint64_t expired;

	while (!q->lladdr) {
		if (poll(pfd, 2, -1) < 0)
			return;
		if (pfd[0].revents) {
			nl_recvmsgs_default(q->sk);
			if (q->lladdr)
				return;
		} else {
			nl_cache_refill(q->sk, q->neighs);
			q->lladdr = cached_lladdr(q);
			if (q->lladdr)
				return;
			if (ticks < NEIGH_TICKS - 1)
				probe_send(probe, to, to_len);
		}
		if (pfd[1].revents &&
		    read(tick, &expired, sizeof(expired)) > 0 &&
		    ++ticks >= NEIGH_TICKS)
			return;
	}
}

/* The neighbour table, then resolution triggered by a datagram. */
static void neigh_lookup(struct neigh_query *q, unsigned int timeout_ms)
{
	struct sockaddr_storage to;
	socklen_t to_len;
	int probe, tick;

	q->lladdr = cached_lladdr(q);
	if (q->lladdr)
		return;
	if (nl_socket_add_membership(q->sk, RTNLGRP_NEIGH) < 0)
		return;
	nl_socket_modify_cb(q->sk, NL_CB_VALID, NL_CB_CUSTOM, on_neigh_msg, q);
	probe = probe_open(q, &to, &to_len);
	if (probe < 0)
		return;
	if (probe_send(probe, &to, to_len) == 0) {
		tick = tick_open(timeout_ms);
		if (tick >= 0) {
			wait_loop(q, probe, tick, &to, to_len);
			close(tick);
		}
	}
	close(probe);
}

/* The VLAN id of the source's interface, or 0xffff when it has none. */
static uint16_t oif_vid(struct neigh_query *q)
{
	struct rtnl_link *link = q->rt->rtnl_link_get(q->links, q->oif);
	int vid = NEIGH_VID_NONE;

	if (!link)
		return NEIGH_VID_NONE;
	if (q->rt->rtnl_link_is_vlan(link))
		vid = q->rt->rtnl_link_vlan_get_id(link);
	q->rt->rtnl_link_put(link);
	return vid >= 0 && vid <= NEIGH_VID_MAX ? vid : NEIGH_VID_NONE;
}

/* Route, then neighbour; true when an address was found. */
static bool resolve(struct neigh_query *q, unsigned int timeout_ms)
{
	if (route_get(q) || !route_apply(q))
		return false;
	if (!q->lladdr)
		neigh_lookup(q, timeout_ms);
	return q->lladdr != NULL;
}

/* Copies the answer if it fits an Ethernet address (v44 copies shorter). */
static bool copy_lladdr(struct nl_addr *lladdr, uint8_t *mac)
{
	unsigned int len = nl_addr_get_len(lladdr);

	if (!len || len > ETHERNET_LL_SIZE)
		return false;
	memcpy(mac, nl_addr_get_binary_addr(lladdr), len);
	return true;
}

int neigh_resolve_gid(const union ibv_gid *sgid, const union ibv_gid *dgid,
		      unsigned int timeout_ms, uint8_t *mac, uint16_t *vid)
{
	struct neigh_query q = { .rt = nl_route_get() };
	uint16_t found_vid = NEIGH_VID_NONE;
	int ret;

	if (!q.rt)
		return -ENOSYS;
	ret = query_open(&q);
	if (ret)
		goto out;
	ret = -EINVAL;
	q.dst = gid_to_addr(dgid);
	q.src = gid_to_addr(sgid);
	if (!q.dst || !q.src)
		goto out;
	q.oif = src_ifindex(q.src);
	if (q.oif <= 0)
		goto out;
	ret = -EHOSTUNREACH;
	if (!resolve(&q, timeout_ms))
		goto out;
	if (vid)
		found_vid = oif_vid(&q);
	if (!copy_lladdr(q.lladdr, mac))
		goto out;
	if (vid)
		*vid = found_vid;
	ret = 0;
out:
	query_close(&q);
	return ret;
}

/**
 * ibv_resolve_eth_l2_from_gid - the MAC (and VLAN id) to reach a GID
 * @context: the device; @attr: port_num, grh.sgid_index and grh.dgid
 * @eth_mac: filled on success; @vid: filled on success if not NULL
 */
IBV_EXPORT int ibv_resolve_eth_l2_from_gid(struct ibv_context *context,
					   struct ibv_ah_attr *attr,
					   uint8_t eth_mac[ETHERNET_LL_SIZE],
					   uint16_t *vid)
{
	union ibv_gid sgid;
	int ret;

	ret = ibv_query_gid(context, attr->port_num, attr->grh.sgid_index,
			    &sgid);
	if (ret)
		return ret;
	return neigh_resolve_gid(&sgid, &attr->grh.dgid, NEIGH_TIMEOUT_MS,
				 eth_mac, vid);
}
