// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Copies between the kernel's uverbs and SA structs and the public ones,
 * for librdmacm, which receives the kernel's forms from the rdma_cm
 * device. Field by field, because the layouts differ in order, padding and
 * widths. What a copy leaves alone is as in rdma-core 44 and callers may
 * depend on it: the destination's padding, qp_state and rate_limit.
 */
#include <infiniband/sa.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_sa.h>
#include <rdma/ib_user_verbs.h>

#include "driver.h"
#include "export.h"
#include "kern_copy.h"

/**
 * ibv_copy_ah_attr_from_kern - the kernel's address handle attributes
 * @dst: the public form to fill
 * @src: the form the kernel wrote
 */
IBV_EXPORT void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
					   struct ib_uverbs_ah_attr *src)
{
	AV_FROM_KERN(dst, src, &src->grh);
}

/**
 * ibv_copy_qp_attr_from_kern - the kernel's queue pair attributes
 * @dst: the public form to fill; qp_state and rate_limit are not written
 * @src: the form the kernel wrote
 */
IBV_EXPORT void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
					   struct ib_uverbs_qp_attr *src)
{
	QP_ATTR_FIELDS(SET_PUB, dst, src);
	dst->en_sqd_async_notify = src->en_sqd_async_notify;
	ibv_copy_ah_attr_from_kern(&dst->ah_attr, &src->ah_attr);
	ibv_copy_ah_attr_from_kern(&dst->alt_ah_attr, &src->alt_ah_attr);
}

/*
 * A path record's fields but the two GIDs (arrays in the kernel's struct,
 * unions in ours), as OP(public, kernel). Both structs use the same
 * names, so one list serves both directions; where the widths differ
 * (the kernel's mtu has 32 bits) plain assignment converts.
 */
#define PATH_REC_FIELDS(OP, pub, kern)                                    \
	OP((pub)->dlid, (kern)->dlid), OP((pub)->slid, (kern)->slid),     \
		OP((pub)->raw_traffic, (kern)->raw_traffic),              \
		OP((pub)->flow_label, (kern)->flow_label),                \
		OP((pub)->hop_limit, (kern)->hop_limit),                  \
		OP((pub)->traffic_class, (kern)->traffic_class),          \
		OP((pub)->reversible, (kern)->reversible),                \
		OP((pub)->numb_path, (kern)->numb_path),                  \
		OP((pub)->pkey, (kern)->pkey), OP((pub)->sl, (kern)->sl), \
		OP((pub)->mtu_selector, (kern)->mtu_selector),            \
		OP((pub)->mtu, (kern)->mtu),                              \
		OP((pub)->rate_selector, (kern)->rate_selector),          \
		OP((pub)->rate, (kern)->rate),                            \
		OP((pub)->packet_life_time_selector,                      \
		   (kern)->packet_life_time_selector),                    \
		OP((pub)->packet_life_time, (kern)->packet_life_time),    \
		OP((pub)->preference, (kern)->preference)

/**
 * ibv_copy_path_rec_from_kern - a path record as the kernel passes it
 * @dst: the public form to fill
 * @src: the kernel's form; its 32-bit mtu is cut to the public 8 bits
 */
IBV_EXPORT void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
					    struct ib_user_path_rec *src)
{
	memcpy(dst->dgid.raw, src->dgid, sizeof(dst->dgid));
	memcpy(dst->sgid.raw, src->sgid, sizeof(dst->sgid));
	PATH_REC_FIELDS(SET_PUB, dst, src);
}

/**
 * ibv_copy_path_rec_to_kern - a path record in the kernel's form
 * @dst: the kernel's form to fill (it has no padding: every byte is set)
 * @src: the public form
 */
IBV_EXPORT void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
					  struct ibv_sa_path_rec *src)
{
	memcpy(dst->dgid, src->dgid.raw, sizeof(dst->dgid));
	memcpy(dst->sgid, src->sgid.raw, sizeof(dst->sgid));
	PATH_REC_FIELDS(SET_KERN, src, dst);
}
