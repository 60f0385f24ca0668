/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The operation table every context starts with (ops_dummy.c); ops.c
 * holds verbs_set_ops(), declared in driver.h for providers.
 */
#ifndef IBV_OPS_H
#define IBV_OPS_H

#include "driver.h"

/* Every slot fails with EOPNOTSUPP, so no inline verb calls through NULL. */
extern const struct verbs_context_ops verbs_dummy_ops;

/*
 * verbs_set_ops() for a table of provider ABI 34, converted: the members
 * ABI 65 added are neither read nor set (compat_pabi34.c).
 */
void ops_set_older(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

#endif
