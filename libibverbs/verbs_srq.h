/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* verbs_srq.c's slot in every context (context.c installs it). */
#ifndef IBV_VERBS_SRQ_H
#define IBV_VERBS_SRQ_H

#include <infiniband/verbs.h>

/* The provider's create_srq_ex, with its failure explained. */
struct ibv_srq *verbs_create_srq_ex(struct ibv_context *context,
				    struct ibv_srq_init_attr_ex *attr);

#endif
