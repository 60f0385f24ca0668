// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Static linking support, built into libibverbs.a only. An application
 * compiled with RDMA_STATIC_PROVIDERS references verbs_provider_<name>
 * through ibv_static_providers(); the reference alone pulls the provider's
 * object into the link, and its constructor registers it. "all" lives in
 * all_providers.c, an object of its own, so that only naming it links it.
 */
#include <stddef.h>

#include "driver.h"

void ibv_static_providers(void *unused, ...);
void ibv_static_providers(void *unused, ...)
{
}

static const struct verbs_device_ops *no_providers[] = {
	NULL,
};

/* "none" links no provider at all; verbs.h pads every list with it. */
const struct verbs_device_ops verbs_provider_none = {
	.name = "none",
	.static_providers = no_providers,
};
