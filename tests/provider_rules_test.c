// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The rules of provider_rules.c against the providers themselves: every
 * lib<name>-rdmav<N>.so of one release's Debian providers
 * (IBV_REFERENCE_PROVIDERS; CTest runs this per release) is loaded, and
 * its registration caught here, before the library sees it, so that its
 * match table is in hand. For every entry of every table, a device that
 * the entry matches must lead the rules to that provider, and to every
 * other provider whose table matches the device too, so that the order
 * of the configuration still decides between them. A device the rules
 * cannot place must get the empty set, which loads everything.
 *
 * provider_rules.c is compiled in: the library hides it.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <infiniband/driver.h>
#include <infiniband/releases.h>

#include "libibverbs/provider_rules.h"

#define T_MAX_PLUGINS 32
/* Debian's ibverbs-providers ships at least this many plugins (18 in 65). */
#define T_DEBIAN_PROVIDERS 17

struct plugin {
	char name[64]; /* the config name: lib<name>-rdmav<N>.so */
	const struct verbs_device_ops *ops;
};

static struct plugin plugins[T_MAX_PLUGINS];
static unsigned int nplugins;
/* The plugin being loaded, whose constructor registers now. */
static const char *loading;

static void caught(const struct verbs_device_ops *ops)
{
	if (!loading || nplugins == T_MAX_PLUGINS)
		return;
	snprintf(plugins[nplugins].name, sizeof(plugins[0].name), "%s",
		 loading);
	plugins[nplugins++].ops = ops;
}

/*
 * The registration entry point of every provider ABI (releases/table),
 * exported by this program, so that a plugin's constructor finds it
 * before the library's.
 */
#define T_CATCHER(pabi)                                                        \
	void verbs_register_driver_##pabi(const struct verbs_device_ops *ops); \
	void verbs_register_driver_##pabi(const struct verbs_device_ops *ops)  \
	{                                                                      \
		caught(ops);                                                   \
	}
IBV_FOR_EACH_PABI(T_CATCHER)
#undef T_CATCHER

/* The config name of plugin file @file, or false if it is none. */
static bool plugin_name(const char *file, char *name, size_t len)
{
	const char *dash = strstr(file, "-rdmav");

	if (strncmp(file, "lib", 3) || !dash || !strstr(dash, ".so") ||
	    (size_t)(dash - file - 3) >= len)
		return false;
	memcpy(name, file + 3, dash - file - 3);
	name[dash - file - 3] = '\0';
	return true;
}

static int load_plugins(void **state)
{
	const char *dir = getenv("IBV_REFERENCE_PROVIDERS");
	struct dirent **list;
	char path[4096], name[64];
	int n;

	if (!dir) {
		fprintf(stderr, "skip: IBV_REFERENCE_PROVIDERS is not set\n");
		exit(77);
	}
	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "skip: cannot read %s\n", dir);
		exit(77);
	}
	for (int i = 0; i < n; i++) {
		if (plugin_name(list[i]->d_name, name, sizeof(name))) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 list[i]->d_name);
			loading = name;
			if (!dlopen(path, RTLD_LAZY | RTLD_LOCAL))
				fprintf(stderr, "dlopen %s: %s\n", path,
					dlerror());
			loading = NULL;
		}
		free(list[i]);
	}
	free(list);
	return 0;
}

/*
 * A device as match tables see it, matched the way rdma-core matches:
 * a driver id, a PCI entry against the modalias's vendor and device, a
 * glob against the modalias or against "rdma_device:N<name>".
 */
static bool entry_matches(const struct verbs_match_ent *e,
			  const struct verbs_sysfs_dev *sd)
{
	char name[IBV_SYSFS_NAME_MAX + 16];
	unsigned int vendor, device;

	switch (e->kind) {
	case VERBS_MATCH_DRIVER_ID:
		return sd->driver_id != RDMA_DRIVER_UNKNOWN &&
		       e->u.driver_id == sd->driver_id;
	case VERBS_MATCH_PCI:
		return sscanf(sd->modalias, "pci:v%8xd%8x", &vendor, &device) ==
			       2 &&
		       vendor == e->vendor && device == e->device;
	case VERBS_MATCH_MODALIAS:
		snprintf(name, sizeof(name), "rdma_device:N%s", sd->ibdev_name);
		return !fnmatch(e->u.modalias, name, 0) ||
		       (sd->modalias[0] &&
			!fnmatch(e->u.modalias, sd->modalias, 0));
	}
	return false;
}

static bool table_matches(const struct verbs_match_ent *t,
			  const struct verbs_sysfs_dev *sd)
{
	for (; t && t->kind != VERBS_MATCH_SENTINEL; t++)
		if (entry_matches(t, sd))
			return true;
	return false;
}

/* Makes a string that glob @g matches: '*' is nothing, '?' an 'x'. */
static void from_glob(char *dst, size_t len, const char *g)
{
	size_t n = 0;

	for (; *g && n + 1 < len; g++)
		if (*g != '*')
			dst[n++] = *g == '?' ? 'x' : *g;
	dst[n] = '\0';
}

/* A device that @e matches, as the kernel would show it. */
static void device_for(const struct verbs_match_ent *e,
		       struct verbs_sysfs_dev *sd)
{
	char s[512];
	const char *n;

	memset(sd, 0, sizeof(*sd));
	sd->flags = VSYSFS_READ_MODALIAS; /* the modalias below, no sysfs */
	snprintf(sd->ibdev_name, sizeof(sd->ibdev_name), "dev0");
	switch (e->kind) {
	case VERBS_MATCH_DRIVER_ID:
		sd->driver_id = e->u.driver_id;
		break;
	case VERBS_MATCH_PCI:
		snprintf(sd->modalias, sizeof(sd->modalias),
			 "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00", e->vendor,
			 e->device, e->vendor, 0x1234);
		break;
	case VERBS_MATCH_MODALIAS:
		from_glob(s, sizeof(s), e->u.modalias);
		n = strncmp(s, "rdma_device:", 12) ? NULL : strchr(s, 'N');
		if (n)
			snprintf(sd->ibdev_name, sizeof(sd->ibdev_name), "%s",
				 n + 1);
		else
			snprintf(sd->modalias, sizeof(sd->modalias), "%s", s);
		break;
	}
}

/* The one-provider set of a plugin's config name, which must be known. */
static provider_set set_of(const struct plugin *p)
{
	provider_set set = rules_provider_named(p->name);

	if (!set)
		fprintf(stderr, "the rules do not know provider %s\n", p->name);
	return set;
}

static void test_every_plugin_is_named(void **state)
{
	char path[4096];
	unsigned int unknown = 0;

	printf("%u plugins registered\n", nplugins);
	assert_true(nplugins >= T_DEBIAN_PROVIDERS);
	for (unsigned int i = 0; i < nplugins; i++) {
		unknown += !set_of(&plugins[i]);
		/* A path prefix names the same provider as its bare name. */
		snprintf(path, sizeof(path), "/usr/lib/libibverbs/lib%s",
			 plugins[i].name);
		assert_int_equal(rules_provider_named(path),
				 rules_provider_named(plugins[i].name));
	}
	assert_int_equal(unknown, 0);
}

/*
 * Every provider whose table matches @sd must be in the rules' set for
 * it; @owner, whose entry made the device, above all.
 */
static unsigned int check_device(const struct plugin *owner,
				 struct verbs_sysfs_dev *sd)
{
	provider_set set = rules_providers_of(sd);
	unsigned int bad = 0;

	for (unsigned int i = 0; i < nplugins; i++) {
		if (&plugins[i] != owner &&
		    !table_matches(plugins[i].ops->match_table, sd))
			continue;
		if (set & set_of(&plugins[i]))
			continue;
		fprintf(stderr,
			"device id %u modalias '%s' name %s of %s: the rules miss %s\n",
			sd->driver_id, sd->modalias, sd->ibdev_name,
			owner->name, plugins[i].name);
		bad++;
	}
	return bad;
}

static void test_every_entry_leads_to_its_providers(void **state)
{
	struct verbs_sysfs_dev sd;
	unsigned int entries = 0, bad = 0;

	for (unsigned int i = 0; i < nplugins; i++) {
		const struct verbs_match_ent *e = plugins[i].ops->match_table;

		for (; e && e->kind != VERBS_MATCH_SENTINEL; e++) {
			device_for(e, &sd);
			assert_true(entry_matches(e, &sd));
			bad += check_device(&plugins[i], &sd);
			entries++;
		}
	}
	printf("%u match entries of %u plugins checked, %u missed\n", entries,
	       nplugins, bad);
	assert_true(entries > 100);
	assert_int_equal(bad, 0);
}

/*
 * A PCI device whose driver id no provider claims (mthca's, hns's) is
 * placed by its vendor, as on a kernel without driver ids; an id no
 * rule knows, without a modalias, is placed nowhere.
 */
static void test_unclaimed_ids(void **state)
{
	struct verbs_sysfs_dev sd = { .flags = VSYSFS_READ_MODALIAS };

	snprintf(sd.ibdev_name, sizeof(sd.ibdev_name), "mthca0");
	sd.driver_id = RDMA_DRIVER_MTHCA;
	snprintf(sd.modalias, sizeof(sd.modalias),
		 "pci:v000015B3d00006274sv000015B3sd00000000bc0Csc06i00");
	assert_true(rules_providers_of(&sd) & rules_provider_named("mthca"));
	sd.driver_id = 200;
	assert_true(rules_providers_of(&sd) & rules_provider_named("mthca"));
	sd.modalias[0] = '\0';
	assert_int_equal(rules_providers_of(&sd), 0);
	/* A vendor no provider names, under an id no provider claims. */
	sd.driver_id = RDMA_DRIVER_USNIC;
	snprintf(sd.modalias, sizeof(sd.modalias),
		 "pci:v00001137d00000043sv00001137sd00000000bc02sc00i00");
	assert_int_equal(rules_providers_of(&sd), 0);
	/* A modalias that is no PCI one and no glob's. */
	snprintf(sd.modalias, sizeof(sd.modalias), "platform:foo");
	assert_int_equal(rules_providers_of(&sd), 0);
}

/* A claimed driver id decides alone: the modalias is not even read. */
static void test_driver_id_first(void **state)
{
	struct verbs_sysfs_dev sd = { .driver_id = RDMA_DRIVER_SIW };

	snprintf(sd.ibdev_name, sizeof(sd.ibdev_name), "siw0");
	assert_int_equal(rules_providers_of(&sd), rules_provider_named("siw"));
	assert_false(sd.flags & VSYSFS_READ_MODALIAS);
	/* rxe's name glob joins whatever the id names. */
	snprintf(sd.ibdev_name, sizeof(sd.ibdev_name), "rxe_on_siw");
	assert_int_equal(rules_providers_of(&sd),
			 rules_provider_named("siw") |
				 rules_provider_named("rxe"));
}

/*
 * Among providers that go by driver id and name only (siw, rxe), a
 * device without a driver id is placed by its name, and its modalias is
 * not read; among any that a modalias may lead to, it is, once.
 */
static void test_modalias_when_it_helps(void **state)
{
	const provider_set by_id = rules_provider_named("siw") |
				   rules_provider_named("rxe");
	struct verbs_sysfs_dev sd = { .driver_id = RDMA_DRIVER_UNKNOWN };

	snprintf(sd.ibdev_name, sizeof(sd.ibdev_name), "tprov0");
	assert_int_equal(rules_providers_among(&sd, by_id), 0);
	assert_false(sd.flags & VSYSFS_READ_MODALIAS);
	snprintf(sd.ibdev_name, sizeof(sd.ibdev_name), "rxe3");
	assert_int_equal(rules_providers_among(&sd, by_id),
			 rules_provider_named("rxe"));
	assert_false(sd.flags & VSYSFS_READ_MODALIAS);
	/* An id no rule claims leaves the name too. */
	sd.driver_id = 200;
	assert_int_equal(rules_providers_among(&sd, by_id),
			 rules_provider_named("rxe"));
	assert_false(sd.flags & VSYSFS_READ_MODALIAS);
	/* mthca goes by PCI vendor: now the modalias counts. */
	snprintf(sd.modalias, sizeof(sd.modalias),
		 "pci:v000015B3d00006274sv000015B3sd00000000bc0Csc06i00");
	sd.flags = VSYSFS_READ_MODALIAS;
	assert_int_equal(rules_providers_among(&sd,
					       rules_provider_named("mthca")),
			 rules_provider_named("mthca"));
	sd.flags = 0;
	rules_providers_among(&sd, by_id | rules_provider_named("mthca"));
	assert_true(sd.flags & VSYSFS_READ_MODALIAS);
}

/* Third parties' names, and what only looks like a path. */
static void test_names(void **state)
{
	assert_int_equal(rules_provider_named("testprov"), 0);
	assert_int_equal(rules_provider_named("/opt/lib/libtestprov"), 0);
	assert_int_equal(rules_provider_named("/opt/lib/mlx5"), 0);
	assert_int_equal(rules_provider_named("libmlx5"), 0);
	assert_int_not_equal(rules_provider_named("/opt/lib/libmlx5"), 0);
	assert_string_equal(rules_provider_name(0), "bnxt_re");
	for (unsigned int b = 0; rules_provider_name(b); b++)
		assert_int_equal(rules_provider_named(rules_provider_name(b)),
				 1u << b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_plugin_is_named),
		cmocka_unit_test(test_every_entry_leads_to_its_providers),
		cmocka_unit_test(test_unclaimed_ids),
		cmocka_unit_test(test_driver_id_first),
		cmocka_unit_test(test_modalias_when_it_helps),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, load_plugins, NULL);
}
