/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* verbs_cq.c's slot in every context (context.c installs it). */
#ifndef IBV_VERBS_CQ_H
#define IBV_VERBS_CQ_H

#include <infiniband/verbs.h>

/*
 * The provider's create_cq_ex behind a check of the completion fields,
 * with the core fields of the new CQ set.
 */
struct ibv_cq_ex *verbs_create_cq_ex(struct ibv_context *context,
				     struct ibv_cq_init_attr_ex *cq_attr);

#endif
