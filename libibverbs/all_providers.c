// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_provider_all for RDMA_STATIC_PROVIDERS=all, built into libibverbs.a
 * only: every provider this tree builds. The list comes from the build
 * (all_providers.h, written by libibverbs/CMakeLists.txt from the
 * providers that ibv_add_provider() declared), so adding a provider needs
 * no change here.
 */
#include <stddef.h>

#include "all_providers.h"
#include "driver.h"

#if IBV_NUM_ALL_PROVIDERS > 0

#define DECLARE_PROVIDER(name) \
	extern const struct verbs_device_ops verbs_provider_##name;
#define LIST_PROVIDER(name) &verbs_provider_##name,

IBV_FOR_ALL_PROVIDERS(DECLARE_PROVIDER)

static const struct verbs_device_ops *all_providers[] = {
	IBV_FOR_ALL_PROVIDERS(LIST_PROVIDER) NULL,
};

#else

/*
 * No provider was built, so "all" would silently link none: the program
 * would build and then find no device. Fail the link instead. The symbol
 * below is never defined, and its name says why; GNU ld (bfd and gold)
 * also prints the .gnu.warning text for any reference to
 * verbs_provider_all.
 */
extern const struct verbs_device_ops
	RDMA_STATIC_PROVIDERS_all__this_libibverbs_a_was_built_without_providers;

static const struct verbs_device_ops *all_providers[] = {
	&RDMA_STATIC_PROVIDERS_all__this_libibverbs_a_was_built_without_providers,
	NULL,
};

static const char all_warning[]
	__attribute__((used, section(".gnu.warning.verbs_provider_all"))) =
		"this libibverbs.a was built without any provider; "
		"RDMA_STATIC_PROVIDERS=all has nothing to link "
		"(name the providers to link, or none)";

#endif

const struct verbs_device_ops verbs_provider_all = {
	.name = "all",
	.static_providers = all_providers,
};
