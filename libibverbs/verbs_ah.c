// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of address handles: create and destroy. They dispatch to
 * the provider through the context's private op table (get_ops()); the
 * provider reaches the kernel through cmd_ah.c, or builds the handle in
 * user space alone.
 */
#include <errno.h>

#include "explain.h"
#include "ibverbs.h"

/**
 * ibv_create_ah - create an address handle for @attr on @pd
 * Returns the AH, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(struct ibv_ah *, ibv_create_ah, "IBVERBS_1.1",
		      struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct ibv_ah *ah = get_ops(pd->context)->create_ah(pd, attr);

	/* A provider that never asks the kernel leaves these to us. */
	if (ah) {
		ah->context = pd->context;
		ah->pd = pd;
	} else {
		explain_create_ah(pd->context, attr);
	}
	return ah;
}

/**
 * ibv_destroy_ah - destroy @ah
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(int, ibv_destroy_ah, "IBVERBS_1.1", struct ibv_ah *ah)
{
	return get_ops(ah->context)->destroy_ah(ah);
}
