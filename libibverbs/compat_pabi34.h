/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Provider ABI 34 beside the newest (compat_pabi34.c): its table of
 * provider ops, laid out from driver.h's list without the members later
 * ABIs added, and the copy of one into the newest layout.
 */
#ifndef IBV_COMPAT_PABI34_H
#define IBV_COMPAT_PABI34_H

#include "driver.h"

#define OP_IN34_ALL(member) member
#define OP_IN34_65(member)
#define OP_MEMBER34(abi, ret, name, params) OP_IN34_##abi(ret(*name) params;)

struct verbs_context_ops_34 {
	VERBS_CONTEXT_OPS(OP_MEMBER34)
};

/* @out gets every op of @in, at its member; the later ABIs' are not set. */
void compat_pabi34_ops(struct verbs_context_ops *out,
		       const struct verbs_context_ops_34 *in);

#endif
