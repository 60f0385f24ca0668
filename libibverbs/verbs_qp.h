/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* verbs_qp.c's slot in every context (context.c installs it). */
#ifndef IBV_VERBS_QP_H
#define IBV_VERBS_QP_H

#include <infiniband/verbs.h>

/* The provider's create_qp_ex, with its failure explained. */
struct ibv_qp *verbs_create_qp_ex(struct ibv_context *context,
				  struct ibv_qp_init_attr_ex *attr);

#endif
