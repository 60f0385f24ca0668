/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rxe provider's command and response extensions: the core struct
 * first, the rdma_rxe driver's struct of <rdma/rdma_user_rxe.h> behind
 * it in `drv`, with no gap between (providers/README.md).
 */
#ifndef RXE_ABI_H
#define RXE_ABI_H

#include <assert.h>
#include <stddef.h>

#include <infiniband/kern-abi.h>
#include <rdma/rdma_user_rxe.h>

/*
 * Each struct puts the driver's words behind a core struct that ends in
 * a flexible array; clang calls that an extension.
 */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

/*
 * A FLUSH in a send WQE, as rdma_rxe reads it since Linux 6.2: in
 * struct rxe_send_wr's union, where older uapi headers have no member
 * for it (their rdma_rxe refuses the opcode). The offsets are the
 * kernel's wr.flush; its rkey sits behind the length, not where the
 * RDMA rkey is. @type is the placement (IBV_FLUSH_GLOBAL, _PERSISTENT),
 * @level the selectivity (IBV_FLUSH_RANGE, _MR).
 */
struct rxe_flush_wr {
	__aligned_u64 remote_addr;
	__u32 length;
	__u32 rkey;
	__u8 type;
	__u8 level;
};
static_assert(offsetof(struct rxe_flush_wr, rkey) == 12 &&
		      offsetof(struct rxe_flush_wr, type) == 16 &&
		      offsetof(struct rxe_flush_wr, level) == 17,
	      "rxe_flush_wr: rdma_rxe's wr.flush offsets");
static_assert(sizeof(struct rxe_flush_wr) <=
		      sizeof(((struct rxe_send_wr *)0)->wr),
	      "rxe_flush_wr: inside the send WR's union");

/*
 * Device capabilities of the kernel's 64-bit flags
 * (IB_UVERBS_DEVICE_*, <rdma/ib_user_verbs.h> since Linux 6.2), which
 * ibv_query_device_ex() passes on in device_cap_flags_ex.
 */
#define RXE_KCAP_FLUSH_GLOBAL (1ULL << 38)
#define RXE_KCAP_FLUSH_PERSISTENT (1ULL << 39)
#define RXE_KCAP_ATOMIC_WRITE (1ULL << 40)

/* CREATE_CQ: nothing goes in; where to map the queue comes back. */
struct rxe_resp_create_cq {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct rxe_create_cq_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_cq, drv) ==
		      sizeof(struct ib_uverbs_create_cq_resp),
	      "rxe_resp_create_cq: driver data right behind the core answer");

/* CREATE_CQ (extended): the same driver answer. */
struct rxe_resp_create_cq_ex {
	struct ib_uverbs_ex_create_cq_resp ibv_resp;
	struct rxe_create_cq_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_cq_ex, drv) ==
		      sizeof(struct ib_uverbs_ex_create_cq_resp),
	      "rxe_resp_create_cq_ex: driver data right behind the core answer");

/* RESIZE_CQ: the queue moves; where to map it now comes back. */
struct rxe_resp_resize_cq {
	struct ib_uverbs_resize_cq_resp ibv_resp;
	struct rxe_resize_cq_resp drv;
};
static_assert(offsetof(struct rxe_resp_resize_cq, drv) ==
		      sizeof(struct ib_uverbs_resize_cq_resp),
	      "rxe_resp_resize_cq: driver data right behind the core answer");

/* CREATE_QP: where to map the receive and the send queue. */
struct rxe_resp_create_qp {
	struct ib_uverbs_create_qp_resp ibv_resp;
	struct rxe_create_qp_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_qp, drv) ==
		      sizeof(struct ib_uverbs_create_qp_resp),
	      "rxe_resp_create_qp: driver data right behind the core answer");

/* The same through the extended command, as ibv_create_qp_ex() sends it. */
struct rxe_resp_create_qp_ex {
	struct ib_uverbs_ex_create_qp_resp ibv_resp;
	struct rxe_create_qp_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_qp_ex, drv) ==
		      sizeof(struct ib_uverbs_ex_create_qp_resp),
	      "rxe_resp_create_qp_ex: driver data right behind the core answer");

/* CREATE_SRQ: where to map its queue, and its number. */
struct rxe_resp_create_srq {
	struct ib_uverbs_create_srq_resp ibv_resp;
	struct rxe_create_srq_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_srq, drv) ==
		      sizeof(struct ib_uverbs_create_srq_resp),
	      "rxe_resp_create_srq: driver data right behind the core answer");

/* MODIFY_SRQ: where the kernel writes the new mminfo of a resized SRQ. */
struct rxe_cmd_modify_srq {
	struct ibv_modify_srq ibv_cmd;
	struct rxe_modify_srq_cmd drv;
};
static_assert(offsetof(struct rxe_cmd_modify_srq, drv) ==
		      sizeof(struct ibv_modify_srq),
	      "rxe_cmd_modify_srq: driver data right behind the core request");

/* CREATE_AH: the number the kernel gave the AH, for UD sends. */
struct rxe_resp_create_ah {
	struct ib_uverbs_create_ah_resp ibv_resp;
	struct rxe_create_ah_resp drv;
};
static_assert(offsetof(struct rxe_resp_create_ah, drv) ==
		      sizeof(struct ib_uverbs_create_ah_resp),
	      "rxe_resp_create_ah: driver data right behind the core answer");

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#endif /* RXE_ABI_H */
