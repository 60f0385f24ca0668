/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * siw's command and response extensions: each pairs a core struct of
 * kern-abi.h with the driver's struct of <rdma/siw-abi.h> in a member
 * drv right behind it (providers/README.md, "Command and response
 * extensions"). Only the directions that carry driver data are here.
 */
#ifndef SIW_ABI_H
#define SIW_ABI_H

#include <assert.h>
#include <stddef.h>

#include <infiniband/kern-abi.h>
#include <rdma/siw-abi.h>

/*
 * The core structs end in a flexible array, which clang calls an
 * extension when another member follows.
 */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

/* GET_CONTEXT: nothing goes in; the device's id comes back. */
struct siw_resp_get_context {
	struct ib_uverbs_get_context_resp ibv_resp;
	struct siw_uresp_alloc_ctx drv;
};
static_assert(offsetof(struct siw_resp_get_context, drv) ==
		      sizeof(struct ib_uverbs_get_context_resp),
	      "siw_resp_get_context: driver data right behind the core answer");

/* REG_MR: the key the provider chose goes in, the STag comes back. */
struct siw_cmd_reg_mr {
	struct ibv_reg_mr ibv_cmd;
	struct siw_ureq_reg_mr drv;
};
struct siw_resp_reg_mr {
	struct ib_uverbs_reg_mr_resp ibv_resp;
	struct siw_uresp_reg_mr drv;
};
static_assert(offsetof(struct siw_cmd_reg_mr, drv) == sizeof(struct ibv_reg_mr),
	      "siw_cmd_reg_mr: driver data right behind the core request");
static_assert(offsetof(struct siw_resp_reg_mr, drv) ==
		      sizeof(struct ib_uverbs_reg_mr_resp),
	      "siw_resp_reg_mr: driver data right behind the core answer");

/* CREATE_CQ: the ring's depth and its mmap key come back. */
struct siw_resp_create_cq {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct siw_uresp_create_cq drv;
};
static_assert(offsetof(struct siw_resp_create_cq, drv) ==
		      sizeof(struct ib_uverbs_create_cq_resp),
	      "siw_resp_create_cq: driver data right behind the core answer");

/* CREATE_QP: the queues' depths, the QP's id and their mmap keys. */
struct siw_resp_create_qp {
	struct ib_uverbs_create_qp_resp ibv_resp;
	struct siw_uresp_create_qp drv;
};
static_assert(offsetof(struct siw_resp_create_qp, drv) ==
		      sizeof(struct ib_uverbs_create_qp_resp),
	      "siw_resp_create_qp: driver data right behind the core answer");

/* CREATE_SRQ: the queue's depth and its mmap key. */
struct siw_resp_create_srq {
	struct ib_uverbs_create_srq_resp ibv_resp;
	struct siw_uresp_create_srq drv;
};
static_assert(offsetof(struct siw_resp_create_srq, drv) ==
		      sizeof(struct ib_uverbs_create_srq_resp),
	      "siw_resp_create_srq: driver data right behind the core answer");

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#endif /* SIW_ABI_H */
