// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Static linking support, built into libibverbs.a only. An application
 * compiled with RDMA_STATIC_PROVIDERS references verbs_provider_<name>
 * through ibv_static_providers(); the reference alone pulls the provider's
 * object into the link, and its constructor registers it.
 */
#include <stddef.h>

#include "ibverbs.h"

void ibv_static_providers(void *unused, ...);
void ibv_static_providers(void *unused, ...)
{
}

/* The providers this project builds; "all" names each of them. */
static const struct verbs_device_ops *all_providers[] = {
	NULL,
};

const struct verbs_device_ops verbs_provider_all = {
	.name = "all",
	.static_providers = all_providers,
};

/* "none" links no provider at all. */
const struct verbs_device_ops verbs_provider_none = {
	.name = "none",
	.static_providers = all_providers +
			    (sizeof(all_providers) / sizeof(all_providers[0])) -
			    1,
};
