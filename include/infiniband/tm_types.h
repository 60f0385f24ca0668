/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Wire headers of the tag-matching protocol: the tag-matching header that
 * starts every tagged message and the rendezvous header after it.
 */
#ifndef _TM_TYPES_H
#define _TM_TYPES_H

#include <linux/types.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibv_tmh_op {
	IBV_TMH_NO_TAG = 0,
	IBV_TMH_RNDV = 1,
	IBV_TMH_FIN = 2,
	IBV_TMH_EAGER = 3,
};

struct ibv_tmh {
	uint8_t opcode; /* an ibv_tmh_op */
	uint8_t reserved[3]; /* zero on the wire */
	__be32 app_ctx; /* opaque to the hardware */
	__be64 tag;
};

struct ibv_rvh {
	__be64 va;
	__be32 rkey;
	__be32 len;
};

#ifdef __cplusplus
}
#endif

#endif /* _TM_TYPES_H */
