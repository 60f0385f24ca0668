// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Address handles. rdma_rxe keeps the address vector itself and answers
 * CREATE_AH with a number that UD send WRs carry (wr.ud.ah_num).
 *
 * Kernels before that number (rdma_rxe answers ah_num 0) take the whole
 * address vector in each UD WQE instead (wr.ud.av): for those we build
 * struct rxe_av here, once, as the kernel builds its own from the AH
 * attributes (rxe_av.c: rxe_av_from_attr(), rxe_av_fill_ip_info()), and
 * the posts copy it into the slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <infiniband/driver.h>

#include "rxe.h"
#include "rxe_abi.h"

/* A GID of the form ::ffff:a.b.c.d holds an IPv4 address. */
static bool rxe_gid_is_v4(const union ibv_gid *gid)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(gid->raw, prefix, sizeof(prefix));
}

/* The IP address in @gid as a socket address, as rdma_rxe reads it. */
static void rxe_gid_to_addr(const union ibv_gid *gid, bool v4,
			    struct rxe_av *av, bool src)
{
	if (v4) {
		struct sockaddr_in *in = src ? &av->sgid_addr._sockaddr_in :
					       &av->dgid_addr._sockaddr_in;

		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, gid->raw + 12, 4);
	} else {
		struct sockaddr_in6 *in6 = src ? &av->sgid_addr._sockaddr_in6 :
						 &av->dgid_addr._sockaddr_in6;

		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, gid->raw, 16);
	}
}

/*
 * The address vector for @attr on @ctx. rdma_rxe speaks RoCE v2 only
 * (its GIDs are all of that type, and its AV has no other network
 * type than IPv4 and IPv6): the network type is the source GID's, IPv4
 * for an IPv4-mapped GID, else IPv6, as the kernel decides it for its
 * own AVs. The destination MAC is the core's neighbour resolution.
 */
static int rxe_av_build(struct ibv_context *ctx, struct ibv_ah_attr *attr,
			struct rxe_av *av)
{
	union ibv_gid sgid;
	bool v4;
	int ret;

	memset(av, 0, sizeof(*av));
	if (!attr->is_global)
		return EINVAL; /* RoCE: every AH has a GRH */
	if (ibv_query_gid(ctx, attr->port_num, attr->grh.sgid_index, &sgid))
		return errno ? errno : EINVAL;
	v4 = rxe_gid_is_v4(&sgid);
	av->port_num = attr->port_num;
	av->network_type = v4 ? RXE_NETWORK_TYPE_IPV4 : RXE_NETWORK_TYPE_IPV6;
	memcpy(av->grh.dgid.raw, attr->grh.dgid.raw, sizeof(av->grh.dgid.raw));
	av->grh.flow_label = attr->grh.flow_label;
	av->grh.sgid_index = attr->grh.sgid_index;
	av->grh.hop_limit = attr->grh.hop_limit;
	av->grh.traffic_class = attr->grh.traffic_class;
	rxe_gid_to_addr(&sgid, v4, av, true);
	rxe_gid_to_addr(&attr->grh.dgid, rxe_gid_is_v4(&attr->grh.dgid), av,
			false);
	ret = ibv_resolve_eth_l2_from_gid(ctx, attr, av->dmac, NULL);
	return ret ? (errno ? errno : EINVAL) : 0;
}

static void __attribute__((cold, noinline))
rxe_explain_av(struct ibv_context *ctx, const struct ibv_ah_attr *attr, int ret)
{
	verbs_info(verbs_get_ctx(ctx),
		   "AH: the kernel wants the address vector in each WR and "
		   "port %u GID %u %s: %s\n",
		   attr->port_num, attr->grh.sgid_index,
		   attr->is_global ? "found no route to the destination" :
				     "has no GRH",
		   strerror(ret));
}

struct ibv_ah *rxe_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rxe_resp_create_ah resp = {};
	struct rxe_ah *ah = calloc(1, sizeof(*ah));
	int ret;

	if (!ah)
		return NULL;
	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret)
		goto err_free;
	ah->ah_num = resp.drv.ah_num;
	if (!ah->ah_num) {
		ret = rxe_av_build(pd->context, attr, &ah->av);
		if (ret) {
			rxe_explain_av(pd->context, attr, ret);
			ibv_cmd_destroy_ah(&ah->ibv_ah);
			goto err_free;
		}
	}
	return &ah->ibv_ah;

err_free:
	free(ah);
	errno = ret;
	return NULL;
}

int rxe_destroy_ah(struct ibv_ah *ibah)
{
	int ret = ibv_cmd_destroy_ah(ibah);

	if (!ret)
		free(to_rxeah(ibah));
	return ret;
}
