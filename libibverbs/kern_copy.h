/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Copies between the kernel's QP, AH and path-record structs and the
 * public ones (kern_copy.c). Exported, because librdmacm imports them,
 * but declared in no installed header, as in rdma-core 44.
 */
#ifndef IBV_KERN_COPY_H
#define IBV_KERN_COPY_H

#include <infiniband/verbs.h>

struct ib_uverbs_qp_attr;
struct ib_uverbs_ah_attr;
struct ib_user_path_rec;
struct ibv_sa_path_rec;

void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

#endif
