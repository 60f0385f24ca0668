/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The address vector's checks (explain_ah.c), which explain_qp.c also
 * runs for a modify_qp that sets one. Library-internal.
 */
#ifndef IBV_EXPLAIN_AH_H
#define IBV_EXPLAIN_AH_H

#include <infiniband/verbs.h>

#include "explain_line.h"

/*
 * What @av needs of its port, added to @l: that it exists and is active,
 * and, with a GRH, a source GID that exists; RoCE needs the GRH.
 */
void explain_av(struct line *l, struct ibv_context *ctx,
		const struct ibv_ah_attr *av);

#endif
