// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider registry: which providers exist, how they are loaded, and
 * which one drives a given device.
 */
#include <stdio.h>
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "discover.h"
#include "driver_config.h"
#include "driver.h"
#include "drivers.h"
#include "env.h"
#include "export.h"
#include "log.h"
#include "provider_rules.h"
#include "util.h"

struct driver {
	const struct verbs_device_ops *ops;
	struct driver *next;
	/* The provider ABI it registered through (verbs_register_driver_<N>). */
	unsigned int pabi;
	/* The rank of the name that loaded it; 0: linked in, or loaded by others. */
	unsigned int rank;
	/* Its layouts, found when a context is first opened with it. */
	bool abi_known;
	struct provider_abi abi;
};

/*
 * Providers in the order of the names that loaded them, which is the
 * order they are tried in: plug-ins are loaded as devices need them, so
 * a provider named early in the configuration may come after one named
 * late, and must still win a device both claim.
 */
static struct driver *drivers;
static unsigned int registry_gen;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* The rank of the name this thread is loading; see register_one(). */
static __thread unsigned int loading_rank;

/* Names of providers to load, from the environment and the config dir. */
struct driver_name {
	char *name;
	bool from_env;
	bool tried;
	unsigned int rank; /* its place in the list, from 1 */
	provider_set provider; /* what the rules know it as; 0: nothing */
	struct driver_name *next;
};
static struct driver_name *driver_names;
/* The names were read; every one was tried. */
static bool configured, loaded;
/* An allocation failed while load_drivers() read the names. */
static bool short_of_memory;

/*
 * Providers register from ELF constructors, run by dlopen() on whatever
 * thread loads them; the generation tells the device list that devices it
 * could not match before deserve another try. A provider takes its place
 * by the rank of the name being loaded on this thread (load_driver()),
 * behind those of equal rank: one plug-in may register several.
 */
static void register_one(const struct verbs_device_ops *ops, unsigned int pabi)
{
	/*
	 * A constructor runs once: a provider lost here for want of memory
	 * would be lost for good. Room for many more than there are
	 * providers, then the heap.
	 */
	static struct driver pool[64];
	static unsigned int pooled;
	struct driver *d, **pos;

	pthread_mutex_lock(&registry_lock);
	d = pooled < ARRAY_SIZE(pool) ? &pool[pooled++] : calloc(1, sizeof(*d));
	if (!d) {
		pthread_mutex_unlock(&registry_lock);
		ibv_log_err("out of memory registering provider %s", ops->name);
		return;
	}
	d->ops = ops;
	d->pabi = pabi;
	d->rank = loading_rank;
	for (pos = &drivers; *pos && (*pos)->rank <= d->rank;
	     pos = &(*pos)->next)
		;
	d->next = *pos;
	/* Published whole: drivers_abi() walks the list without the lock. */
	__atomic_store_n(pos, d, __ATOMIC_RELEASE);
	registry_gen++;
	pthread_mutex_unlock(&registry_lock);
}

/*
 * A provider of provider ABI @pabi; a pseudo-provider listing
 * static_providers registers each of those instead. The device operations
 * have one layout in every ABI.
 */
void drivers_register(const struct verbs_device_ops *ops, unsigned int pabi)
{
	const struct verbs_device_ops **p;

	if (!ops->static_providers) {
		register_one(ops, pabi);
		return;
	}
	for (p = ops->static_providers; *p; p++)
		drivers_register(*p, pabi);
}

/**
 * verbs_register_driver_<N> - make a provider known to the core
 * @ops: the provider's device operations
 *
 * N is the provider ABI the provider was built for: this one is the
 * newest's, compat_pabi34.c has the older ones'.
 */
IBV_EXPORT void verbs_register_driver(const struct verbs_device_ops *ops)
{
	drivers_register(ops, IBVERBS_PRIVATE_ABI);
}

/* The registered driver of @ops, found without the registry lock. */
static struct driver *driver_of(const struct verbs_device_ops *ops)
{
	struct driver *d = __atomic_load_n(&drivers, __ATOMIC_ACQUIRE);

	while (d && d->ops != ops)
		d = __atomic_load_n(&d->next, __ATOMIC_ACQUIRE);
	return d;
}

/*
 * Every context open asks, several times: once known, the answer is read
 * without the lock (abi_known is stored after abi, with release order).
 */
struct provider_abi drivers_abi(const struct verbs_device_ops *ops)
{
	struct driver *d = driver_of(ops);
	struct provider_abi abi;

	if (d && __atomic_load_n(&d->abi_known, __ATOMIC_ACQUIRE))
		return d->abi;
	pthread_mutex_lock(&registry_lock);
	if (d && d->abi_known) {
		abi = d->abi;
	} else {
		/* The device operations live in the provider's object. */
		abi = provider_abi_of(ops);
		abi.pabi = d ? d->pabi : IBVERBS_PRIVATE_ABI;
		if (d) {
			d->abi = abi;
			__atomic_store_n(&d->abi_known, true, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return abi;
}

/* Changes whenever a provider registers; see register_one(). */
unsigned int drivers_generation(void)
{
	unsigned int gen;

	pthread_mutex_lock(&registry_lock);
	gen = registry_gen;
	pthread_mutex_unlock(&registry_lock);
	return gen;
}

/* Whether every configured provider was tried: nothing is left to load. */
bool drivers_loaded(void)
{
	return loaded;
}

/*
 * Whether the provider that @name (a name or a path prefix such as
 * /opt/lib/libfoo) designates registered already, so that a provider
 * named twice, or linked in and named, is not loaded a second time.
 * Unused in the static archive, which loads nothing.
 */
static __attribute__((unused)) bool is_registered(const char *name)
{
	const char *base = strrchr(name, '/');
	struct driver *d;
	bool found = false;

	base = base ? base + 1 : name;
	if (!strncmp(base, "lib", 3) && name[0] == '/')
		base += 3;
	pthread_mutex_lock(&registry_lock);
	for (d = drivers; d && !found; d = d->next)
		found = !strcmp(d->ops->name, base);
	pthread_mutex_unlock(&registry_lock);
	return found;
}

/* Appends @name unless listed already: the first mention sets the order. */
static int add_driver_name(const char *name, size_t len, bool from_env)
{
	struct driver_name *dn, **pos;

	for (pos = &driver_names; *pos; pos = &(*pos)->next)
		if (strlen((*pos)->name) == len &&
		    !strncmp((*pos)->name, name, len))
			return 0;
	dn = calloc(1, sizeof(*dn));
	if (!dn)
		return ENOMEM;
	dn->name = strndup(name, len);
	if (!dn->name) {
		free(dn);
		return ENOMEM;
	}
	dn->from_env = from_env;
	*pos = dn;
	return 0;
}

/*
 * gcc 12's -fanalyzer (scripts/test) loses track of a node that
 * add_driver_name() appends through a pointer into the list, and calls
 * it leaked here, where it returns. The node stays on driver_names for
 * the life of the process.
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
/* RDMAV_DRIVERS: provider names or path prefixes, split on ':' or ';'. */
int parse_driver_env(const char *value)
{
	const char *p = value;
	int ret;

	while (*p) {
		size_t len = strcspn(p, ":;");

		if (len) {
			ret = add_driver_name(p, len, true);
			if (ret)
				return ret;
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

/* A config file's name, for the registry: after RDMAV_DRIVERS' ones. */
static int add_config_name(const char *name, size_t len)
{
	return add_driver_name(name, len, false);
}

/* The config files of @dir (driver_config.c), read into driver_names. */
int parse_driver_config_dir(const char *dir)
{
	struct config_reader r = { .add = add_config_name };
	int ret = config_read_dir(&r, dir);

	short_of_memory |= r.short_of_memory;
	return ret;
}

void parse_config_text(const char *dir, const char *file, char *buf, size_t len)
{
	struct config_reader r = { .add = add_config_name };

	config_read_text(&r, dir, file, buf, len);
	short_of_memory |= r.short_of_memory;
}

#ifndef _STATIC_LIBRARY_BUILD_
/*
 * The plugin file names of every provider ABI the library serves, newest
 * first: lib<name>-rdmav<N>.so. A name is tried with each in turn, so a
 * directory of any release's providers is loaded from.
 */
#define PLUGIN_SUFFIX(pabi) "-rdmav" VERBS_STR(pabi) ".so",
/* clang-format off */
static const char *const plugin_suffixes_oldest_first[] = {
	IBV_FOR_EACH_PABI(PLUGIN_SUFFIX)
};
/* clang-format on */
#undef PLUGIN_SUFFIX
#define N_SUFFIXES ARRAY_SIZE(plugin_suffixes_oldest_first)

/* The longest file name load_driver() may build for @name fits PATH_MAX. */
static bool name_fits(const char *name)
{
	size_t dir = name[0] == '/' ? 0 : strlen(VERBS_PROVIDER_DIR "/lib");
	size_t longest = 0;

	for (size_t i = 0; i < N_SUFFIXES; i++)
		if (strlen(plugin_suffixes_oldest_first[i]) > longest)
			longest = strlen(plugin_suffixes_oldest_first[i]);
	return dir + strlen(name) + longest < PATH_MAX;
}

/*
 * dlopen()s @a@b plus the newest suffix whose file exists; false with the
 * reason in @why if none loads (the newest ABI's error when none exists).
 */
static bool try_dlopen(const char *a, const char *b, char *why, size_t len)
{
	char path[PATH_MAX];
	const char *msg;

	why[0] = '\0';
	for (size_t i = N_SUFFIXES; i-- > 0;) {
		/* Never cut short: a shortened name can be another's file. */
		if (str_join(path, sizeof(path), a, b,
			     plugin_suffixes_oldest_first[i])) {
			snprintf(why, len, "its file name is too long");
			return false;
		}
		if (dlopen(path, RTLD_NOW))
			return true;
		/* The newest ABI's reason, unless an older file was there. */
		msg = dlerror();
		if (!why[0] || (msg && !strstr(msg, "No such file")))
			snprintf(why, len, "%s", msg ? msg : "dlopen failed");
	}
	return false;
}

static void report_load_failure(const struct driver_name *dn, const char *why)
{
	/*
	 * A provider the administrator listed but did not install is the
	 * normal state of a distribution's config directory, so it is only
	 * reported on request. One the user named in RDMAV_DRIVERS is not.
	 */
	if (dn->from_env)
		fprintf(stderr,
			"libibverbs: Warning: could not load provider '%s' named in RDMAV_DRIVERS: %s\n",
			dn->name, why);
	else
		ibv_warn_user("could not load provider '%s': %s", dn->name,
			      why);
}

/*
 * Loads one provider as rdma-core does: a path prefix as given, a bare
 * name from the provider directory first and then through the dynamic
 * loader's search path. Loading is enough: the provider's constructor
 * registers it.
 */
static void load_driver(struct driver_name *dn)
{
	char why[512] = "";

	dn->tried = true;
	if (is_registered(dn->name))
		return;
	if (!name_fits(dn->name)) {
		snprintf(why, sizeof(why),
			 "the name is too long to form a file name (%zu bytes)",
			 strlen(dn->name));
		report_load_failure(dn, why);
		return;
	}
	loading_rank = dn->rank;
	if (dn->name[0] == '/') {
		if (try_dlopen(dn->name, "", why, sizeof(why)))
			goto out;
	} else if (try_dlopen(VERBS_PROVIDER_DIR "/lib", dn->name, why,
			      sizeof(why)) ||
		   try_dlopen("lib", dn->name, why, sizeof(why))) {
		goto out;
	}
	report_load_failure(dn, why);
out:
	loading_rank = 0;
}

/*
 * Reads RDMAV_DRIVERS and the config files, once per process; each name
 * gets its rank (the environment's first) and what the rules know it as.
 */
static int read_names(void)
{
	const char *env;
	unsigned int rank = 0;

	if (configured)
		return 0;
	short_of_memory = false;
	env = env_get(ENV_RDMAV_DRIVERS);
	if (!env)
		env = env_get(ENV_IBV_DRIVERS);
	if (env && parse_driver_env(env)) {
		ibv_log_err("out of memory parsing RDMAV_DRIVERS");
		short_of_memory = true;
	}
	parse_driver_config_dir(IBV_CONFIG_DIR);
	/*
	 * A name may be missing, and the order decides which of two
	 * providers of one device wins: load none, and let the next call
	 * read every name again.
	 */
	if (short_of_memory) {
		driver_names_clear();
		return ENOMEM;
	}
	for (struct driver_name *dn = driver_names; dn; dn = dn->next) {
		dn->rank = ++rank;
		dn->provider = rules_provider_named(dn->name);
	}
	configured = true;
	return 0;
}

/*
 * Loads, in the configuration's order, the names not tried yet that are
 * RDMAV_DRIVERS' (@env: the user chose them), that the rules name in
 * @want, or all of them (@all).
 */
static int load_names(bool env, provider_set want, bool all)
{
	int ret = read_names();

	if (ret)
		return ret;
	for (struct driver_name *dn = driver_names; dn; dn = dn->next)
		if (!dn->tried &&
		    (all || (env && dn->from_env) || (dn->provider & want)))
			load_driver(dn);
	return 0;
}

/* The providers the names not tried yet may bring, by the rules. */
static provider_set untried(void)
{
	provider_set set = 0;

	for (const struct driver_name *dn = driver_names; dn; dn = dn->next)
		if (!dn->tried)
			set |= dn->provider;
	return set;
}
#endif

/*
 * The providers named in RDMAV_DRIVERS, loaded before any other when
 * some device needs a provider. Static builds load nothing: their
 * providers were linked in.
 */
int load_drivers_env(void)
{
#ifndef _STATIC_LIBRARY_BUILD_
	if (!loaded)
		return load_names(true, 0, false);
#endif
	return 0;
}

/*
 * The configured providers that the rules say may claim @sd
 * (provider_rules.c); if none of them takes the device, the caller loads
 * the rest with load_drivers(). The rules are not even asked when no
 * name left could follow them, and read no modalias when none of the
 * names left could be claimed by one.
 */
int load_drivers_for(struct verbs_sysfs_dev *sd)
{
#ifndef _STATIC_LIBRARY_BUILD_
	provider_set want;
	int ret;

	if (loaded)
		return 0;
	ret = read_names();
	if (ret)
		return ret;
	want = untried();
	if (want)
		want = rules_providers_among(sd, want);
	if (want)
		return load_names(false, want, false);
#endif
	(void)sd;
	return 0;
}

/*
 * Loads every configured provider not tried yet: 0, or ENOMEM when a
 * name may have been missed (nothing is loaded then, and the next call
 * reads the names again).
 */
int load_drivers(void)
{
#ifndef _STATIC_LIBRARY_BUILD_
	int ret;

	if (loaded)
		return 0;
	ret = load_names(false, 0, true);
	if (ret)
		return ret;
#endif
	loaded = true;
	return 0;
}

/*
 * Forgets every name, as if nothing had been configured: load_drivers()
 * after a short allocation, and the tests and fuzzers between runs.
 */
void driver_names_clear(void)
{
	struct driver_name *dn;

	while ((dn = driver_names)) {
		driver_names = dn->next;
		free(dn->name);
		free(dn);
	}
	configured = false;
}

/* Test hook: the names load_drivers() would try, in order. */
const char *driver_name_at(unsigned int i)
{
	struct driver_name *dn = driver_names;

	while (dn && i--)
		dn = dn->next;
	return dn ? dn->name : NULL;
}

/*
 * Name and modalias entries are globs; a PCI entry becomes the modalias
 * pattern of its vendor and device ids, and only matches a modalias.
 */
static bool fnmatch_table(const struct verbs_match_ent *ent, const char *s,
			  bool pci)
{
	char pattern[64];

	if (ent->kind == VERBS_MATCH_MODALIAS)
		return !fnmatch(ent->u.modalias, s, 0);
	if (ent->kind != VERBS_MATCH_PCI || !pci)
		return false;
	snprintf(pattern, sizeof(pattern), "pci:v%08Xd%08Xsv*", ent->vendor,
		 ent->device);
	return !fnmatch(pattern, s, 0);
}

/* Table match in three passes: driver id, then name, then modalias. */
const struct verbs_match_ent *match_table(const struct verbs_match_ent *t,
					  struct verbs_sysfs_dev *sd)
{
	const struct verbs_match_ent *e;
	char name[IBV_SYSFS_NAME_MAX + 16];

	for (e = t; e->kind != VERBS_MATCH_SENTINEL; e++)
		if (e->kind == VERBS_MATCH_DRIVER_ID &&
		    sd->driver_id != RDMA_DRIVER_UNKNOWN &&
		    e->u.driver_id == sd->driver_id)
			return e;
	if (!str_join(name, sizeof(name), "rdma_device:N", sd->ibdev_name, ""))
		for (e = t; e->kind != VERBS_MATCH_SENTINEL; e++)
			if (fnmatch_table(e, name, false))
				return e;
	if (!sysfs_dev_modalias(sd))
		return NULL;
	for (e = t; e->kind != VERBS_MATCH_SENTINEL; e++)
		if (fnmatch_table(e, sd->modalias, true))
			return e;
	return NULL;
}

/*
 * As in rdma-core 44: a provider's match_device() hook has the last word
 * even after a table hit (and decides alone without a table), and the
 * device's ABI version is checked last, so that a refusal can be reported
 * as such rather than as "no provider".
 */
static bool try_driver(const struct verbs_device_ops *ops,
		       struct verbs_sysfs_dev *sd, bool *abi_refused)
{
	const struct verbs_match_ent *hit = NULL;

	if (ops->match_table)
		hit = match_table(ops->match_table, sd);
	if (!hit && !ops->match_device)
		return false;
	sd->match = hit;
	if (ops->match_device && !ops->match_device(sd))
		return false;
	if (sd->abi_ver < ops->match_min_abi_version ||
	    sd->abi_ver > ops->match_max_abi_version) {
		ibv_warn_user(
			"provider %s refuses device %s: kernel ABI %u is outside its range %u..%u",
			ops->name, sd->ibdev_name, sd->abi_ver,
			ops->match_min_abi_version, ops->match_max_abi_version);
		*abi_refused = true;
		return false;
	}
	return true;
}

static bool table_has_driver_id(const struct verbs_match_ent *t, uint32_t id)
{
	for (; t && t->kind != VERBS_MATCH_SENTINEL; t++)
		if (t->kind == VERBS_MATCH_DRIVER_ID && t->u.driver_id == id)
			return true;
	return false;
}

/*
 * Finds the provider for @sd. Providers that claim the device's kernel
 * driver id go first so that a generic name or modalias pattern of
 * another provider cannot win over them.
 */
const struct verbs_device_ops *match_driver(struct verbs_sysfs_dev *sd,
					    bool *abi_refused)
{
	const struct verbs_device_ops *found = NULL;
	struct driver *d;

	*abi_refused = false;
	pthread_mutex_lock(&registry_lock);
	if (sd->driver_id != RDMA_DRIVER_UNKNOWN)
		for (d = drivers; d && !found; d = d->next)
			if (table_has_driver_id(d->ops->match_table,
						sd->driver_id) &&
			    try_driver(d->ops, sd, abi_refused))
				found = d->ops;
	for (d = drivers; d && !found; d = d->next)
		if (try_driver(d->ops, sd, abi_refused))
			found = d->ops;
	pthread_mutex_unlock(&registry_lock);
	if (found)
		*abi_refused = false;
	return found;
}
