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

#endif
