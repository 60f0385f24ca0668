// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Looks the verbs of verbs_lookup.h up at their default versions: those
 * of rdma-core 44, and apart those rdma-core 65 added.
 */
#include <dlfcn.h>
#include <stddef.h>

#include "verbs_lookup.h"

#define VERBS_LOOKUP(name, ver)                                        \
	fns->name = (__typeof__(fns->name))dlvsym(handle, #name, ver); \
	if (!fns->name && !missing)                                    \
		missing = #name "@" ver;

const char *verbs_lookup(void *handle, struct verbs_v44 *fns)
{
	const char *missing = NULL;

	VERBS_V44(VERBS_LOOKUP)
	return missing;
}

const char *verbs_lookup_v65(void *handle, struct verbs_v65 *fns)
{
	const char *missing = NULL;

	VERBS_V65(VERBS_LOOKUP)
	return missing;
}
