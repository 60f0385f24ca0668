/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which providers may drive a device, decided from what the kernel says
 * of it (provider_rules.c), so that drivers.c loads those plug-ins only.
 * A set of providers is a bit mask over the rules' table; 0 means that
 * no rule knows the device, and then every configured provider is loaded.
 */
#ifndef IBV_PROVIDER_RULES_H
#define IBV_PROVIDER_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

typedef uint32_t provider_set;

/* The providers that claim @sd, in the rules' view; 0: no rule knows it. */
provider_set rules_providers_of(struct verbs_sysfs_dev *sd);
/*
 * The same, of the providers in @among only: the device's modalias is not
 * read when none of them could be claimed by it (siw, rxe, ionic and mana
 * go by driver id and name), so that a device no provider left to try
 * can follow costs no sysfs read.
 */
provider_set rules_providers_among(struct verbs_sysfs_dev *sd,
				   provider_set among);
/*
 * The provider a configured @name designates (a bare name such as "mlx5",
 * or a path prefix ending in lib<name>), as a set of one; 0 for a name the
 * rules do not know, such as a third party's.
 */
provider_set rules_provider_named(const char *name);
/* The configured name of the provider whose bit is @bit; NULL past the end. */
const char *rules_provider_name(unsigned int bit);
/* Reads the device's modalias once; false when it has none. */
bool sysfs_dev_modalias(struct verbs_sysfs_dev *sd);

#endif
