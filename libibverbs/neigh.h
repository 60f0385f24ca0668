/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* RoCE L2 address resolution (neigh.c). */
#ifndef IBV_NEIGH_H
#define IBV_NEIGH_H

#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * ibv_resolve_eth_l2_from_gid() once it has the source GID, with the wait
 * for the neighbour bounded by @timeout_ms (the verb uses 3000). Returns
 * what the verb returns. Needs no ibv_query_gid().
 */
int neigh_resolve_gid(const union ibv_gid *sgid, const union ibv_gid *dgid,
		      unsigned int timeout_ms, uint8_t *mac, uint16_t *vid);

#endif
