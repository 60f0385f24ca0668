// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Looks the verbs of verbs_lookup.h up at rdma-core 44's default versions.
 */
#include <dlfcn.h>
#include <stddef.h>

#include "verbs_lookup.h"

const char *verbs_lookup(void *handle, struct verbs_v44 *fns)
{
	const char *missing = NULL;

#define VERBS_V44_LOOKUP(name, ver)                                    \
	fns->name = (__typeof__(fns->name))dlvsym(handle, #name, ver); \
	if (!fns->name && !missing)                                    \
		missing = #name "@" ver;
	VERBS_V44(VERBS_V44_LOOKUP)
#undef VERBS_V44_LOOKUP
	return missing;
}
