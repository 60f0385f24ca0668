/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* libnl-route-3, loaded on first use (nl_route.c). */
#ifndef IBV_NL_ROUTE_H
#define IBV_NL_ROUTE_H

#include <netlink/route/link.h>
#include <netlink/route/link/vlan.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>

/* The soname dlopen()ed, also named in the log when it fails. */
#define NL_ROUTE_SONAME "libnl-route-3.so.200"

/* Every libnl-route-3 function neigh.c calls; the rest it takes from libnl-3. */
#define NL_ROUTE_FUNCS(X)            \
	X(rtnl_link_alloc_cache)     \
	X(rtnl_link_get)             \
	X(rtnl_link_get_addr)        \
	X(rtnl_link_is_vlan)         \
	X(rtnl_link_put)             \
	X(rtnl_link_vlan_get_id)     \
	X(rtnl_neigh_alloc_cache)    \
	X(rtnl_neigh_get)            \
	X(rtnl_neigh_get_dst)        \
	X(rtnl_neigh_get_ifindex)    \
	X(rtnl_neigh_get_lladdr)     \
	X(rtnl_neigh_put)            \
	X(rtnl_route_get_type)       \
	X(rtnl_route_nexthop_n)      \
	X(rtnl_route_nh_get_gateway) \
	X(rtnl_route_put)

/* One pointer per function, named after it, with its own type. */
#define NL_ROUTE_SLOT(name) __typeof__(name) *name;
struct nl_route {
	NL_ROUTE_FUNCS(NL_ROUTE_SLOT)
};
#undef NL_ROUTE_SLOT

/*
 * The table, filled once per process, errno untouched: NULL with errno
 * ENOSYS, after one line in the log, when the library cannot be loaded
 * or lacks one of the functions. A static libibverbs.a calls
 * libnl-route-3 directly and never fails.
 */
const struct nl_route *nl_route_get(void);

#endif
