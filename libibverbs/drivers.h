/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The registry of providers (drivers.c): configuration files,
 * RDMAV_DRIVERS, dlopen() of the plug-ins, and matching a device to one.
 */
#ifndef IBV_DRIVERS_H
#define IBV_DRIVERS_H

#include <stdbool.h>

#include "driver.h"
#include "provider_release.h"

/* Whether every configured provider was tried (load_drivers()). */
bool drivers_loaded(void);
/*
 * The layouts of the provider whose device operations are @ops
 * (provider_release.h), worked out once per provider and kept.
 */
struct provider_abi drivers_abi(const struct verbs_device_ops *ops);
/* Registers a provider built for provider ABI @pabi (drivers.c). */
void drivers_register(const struct verbs_device_ops *ops, unsigned int pabi);
/* Changes whenever a provider registers. */
unsigned int drivers_generation(void);
const struct verbs_device_ops *match_driver(struct verbs_sysfs_dev *sysfs_dev,
					    bool *abi_refused);

/*
 * Providers are loaded as devices need them, in three steps, each only
 * while some device is still unmatched: load_drivers_env() the names of
 * RDMAV_DRIVERS; load_drivers_for() the configured providers the rules
 * (provider_rules.h) name for @sd; load_drivers() every configured
 * provider not tried yet. Each name is tried once per process. All
 * return 0, or ENOMEM when a name may have been missed for want of
 * memory (the next call then reads them all again; providers loaded
 * stay).
 */
int load_drivers_env(void);
int load_drivers_for(struct verbs_sysfs_dev *sd);
int load_drivers(void);
/* What load_drivers() reads; the unit tests call them directly. */
int parse_driver_config_dir(const char *dir);
int parse_driver_env(const char *value);
/* One config file's text (@len bytes, NUL after them); @buf is cut up. */
void parse_config_text(const char *dir, const char *file, char *buf,
		       size_t len);
/* Forgets the names the parsers above collected. */
void driver_names_clear(void);
/* The entry of @t that @sysfs_dev matches (its name, its modalias). */
const struct verbs_match_ent *match_table(const struct verbs_match_ent *t,
					  struct verbs_sysfs_dev *sysfs_dev);
/* The provider names load_drivers() would try, in order; NULL past the end. */
const char *driver_name_at(unsigned int i);

#endif
