// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider registry: which providers exist, how they are loaded, and
 * which one drives a given device.
 */
#include <stdio.h>
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "discover.h"
#include "driver.h"
#include "drivers.h"
#include "env.h"
#include "export.h"
#include "log.h"
#include "sysfs.h"
#include "util.h"

struct driver {
	const struct verbs_device_ops *ops;
	struct driver *next;
	/* The provider ABI it registered through (verbs_register_driver_<N>). */
	unsigned int pabi;
	/* Its layouts, found when a context is first opened with it. */
	bool abi_known;
	struct provider_abi abi;
};

/* Providers in registration order; appended to by constructors. */
static struct driver *drivers;
static struct driver **drivers_tail = &drivers;
static unsigned int registry_gen;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* Names of providers to load, from the environment and the config dir. */
struct driver_name {
	char *name;
	bool from_env;
	struct driver_name *next;
};
static struct driver_name *driver_names;
static bool loaded;
/* An allocation failed while load_drivers() read the names. */
static bool short_of_memory;

/*
 * Providers register from ELF constructors, run by dlopen() on whatever
 * thread loads them; the generation tells the device list that devices it
 * could not match before deserve another try.
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
	struct driver *d;

	pthread_mutex_lock(&registry_lock);
	d = pooled < ARRAY_SIZE(pool) ? &pool[pooled++] : calloc(1, sizeof(*d));
	if (!d) {
		pthread_mutex_unlock(&registry_lock);
		ibv_log_err("out of memory registering provider %s", ops->name);
		return;
	}
	d->ops = ops;
	d->pabi = pabi;
	/* Published whole: drivers_abi() walks the list without the lock. */
	__atomic_store_n(drivers_tail, d, __ATOMIC_RELEASE);
	drivers_tail = &d->next;
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

/* Far more than any list of provider names; bounds what one file costs. */
#define CONFIG_FILE_MAX (64 * 1024)

static void parse_config_line(const char *dir, const char *file,
			      unsigned int lineno, char *line)
{
	char *word, *name, *rest;

	word = line + strspn(line, " \t");
	if (*word == '#' || *word == '\0')
		return;
	name = word + strcspn(word, " \t");
	if (name - word != 6 || strncmp(word, "driver", 6))
		goto bad;
	name += strspn(name, " \t");
	rest = name + strcspn(name, " \t");
	if (rest == name)
		goto bad;
	if (rest[strspn(rest, " \t")] != '\0' &&
	    rest[strspn(rest, " \t")] != '#')
		goto bad;
	if (add_driver_name(name, rest - name, false)) {
		ibv_log_err("out of memory reading %s/%s", dir, file);
		short_of_memory = true;
	}
	return;
bad:
	fprintf(stderr,
		"libibverbs: Warning: ignoring bad line %u in config file %s/%s: '%s'\n",
		lineno, dir, file, line);
}

/*
 * Opens a config file without waiting. Symlinks are followed, since
 * distributions install config files as links; what the link leads to
 * must be a regular file, as a FIFO would block the reader forever.
 */
static int open_config(int dirfd, const char *dir, const char *file)
{
	struct stat st;
	int fd;

	fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		ibv_warn_user("skipping driver config file %s/%s: %s", dir,
			      file, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		ibv_warn_user("skipping driver config file %s/%s: %s", dir,
			      file, strerror(errno));
		goto err_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ibv_warn_user(
			"skipping driver config file %s/%s: it is a %s, not a regular file",
			dir, file, file_kind(st.st_mode));
		goto err_close;
	}
	return fd;

err_close:
	close(fd);
	return -1;
}

/* All of @fd into @buf, NUL-terminated; EFBIG past CONFIG_FILE_MAX bytes. */
static int read_config(int fd, char *buf, size_t *len)
{
	size_t got = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf + got, CONFIG_FILE_MAX + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			break;
		got += n;
		if (got > CONFIG_FILE_MAX)
			return EFBIG;
	}
	buf[got] = '\0';
	*len = got;
	return 0;
}

/* Splits the file's text into lines; line numbers are for the warnings. */
void parse_config_text(const char *dir, const char *file, char *buf, size_t len)
{
	unsigned int lineno = 0;
	char *line, *end;

	for (line = buf; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		if (!end)
			end = buf + len;
		*end = '\0';
		parse_config_line(dir, file, ++lineno, line);
	}
}

static void parse_config_file(int dirfd, const char *dir, const char *file)
{
	size_t len = 0;
	char *buf;
	int fd, ret;

	fd = open_config(dirfd, dir, file);
	if (fd < 0)
		return;
	buf = malloc(CONFIG_FILE_MAX + 1);
	ret = buf ? read_config(fd, buf, &len) : ENOMEM;
	close(fd);
	if (ret == ENOMEM)
		short_of_memory = true;
	if (ret == EFBIG)
		ibv_warn_user(
			"skipping driver config file %s/%s: it is larger than %d bytes",
			dir, file, CONFIG_FILE_MAX);
	else if (ret)
		ibv_warn_user("skipping driver config file %s/%s: %s", dir,
			      file, strerror(ret));
	else
		parse_config_text(dir, file, buf, len);
	free(buf);
}

static int cmp_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Reads every regular file of @dir, in name order for a stable result. */
int parse_driver_config_dir(const char *dir)
{
	struct dirent **list;
	int n, i, dirfd;

	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return errno;
	n = scandirat(dirfd, ".", &list, not_hidden, cmp_names);
	if (n < 0) {
		n = errno;
		close(dirfd);
		if (n == ENOMEM)
			short_of_memory = true;
		return n;
	}
	for (i = 0; i < n; i++) {
		parse_config_file(dirfd, dir, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	close(dirfd);
	return 0;
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
static void load_driver(const struct driver_name *dn)
{
	char why[512] = "";

	if (is_registered(dn->name))
		return;
	if (!name_fits(dn->name)) {
		snprintf(why, sizeof(why),
			 "the name is too long to form a file name (%zu bytes)",
			 strlen(dn->name));
		report_load_failure(dn, why);
		return;
	}
	if (dn->name[0] == '/') {
		if (try_dlopen(dn->name, "", why, sizeof(why)))
			return;
	} else if (try_dlopen(VERBS_PROVIDER_DIR "/lib", dn->name, why,
			      sizeof(why)) ||
		   try_dlopen("lib", dn->name, why, sizeof(why))) {
		return;
	}
	report_load_failure(dn, why);
}
#endif

/*
 * Loads every configured provider, once per process. Static builds load
 * nothing: their providers were linked in and registered by constructors.
 */
int load_drivers(void)
{
	const char *env;

	if (loaded)
		return 0;
	loaded = true;
	short_of_memory = false;
#ifndef _STATIC_LIBRARY_BUILD_
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
		loaded = false;
		return ENOMEM;
	}
	for (const struct driver_name *dn = driver_names; dn; dn = dn->next)
		load_driver(dn);
#else
	(void)env;
#endif
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

/* Read once per device, on the first provider that needs it. */
static bool read_modalias(struct verbs_sysfs_dev *sd)
{
	if (sd->flags & VSYSFS_READ_MODALIAS)
		return sd->modalias[0] != '\0';
	sd->flags |= VSYSFS_READ_MODALIAS;
	if (ibv_read_ibdev_sysfs_file(sd->modalias, sizeof(sd->modalias), sd,
				      "device/modalias") <= 0)
		sd->modalias[0] = '\0';
	return sd->modalias[0] != '\0';
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
	if (!read_modalias(sd))
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
