// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Debian's provider plugins against our core: every lib*-rdmav<N>.so of
 * one release's ibverbs-providers (unpacked from the reference packages
 * into IBV_REFERENCE_PROVIDERS; CTest runs this once per release) loads
 * with RTLD_NOW, so each of its imports of IBVERBS_PRIVATE_<N> and the
 * public nodes resolves, and resolves to this library, not to Debian's.
 * Loading runs the plugin's constructor, which registers it with us.
 */
#include "config.h"
#include "libibverbs/provider_release.h"
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <infiniband/releases.h>
#include <infiniband/verbs.h>

#include "t_util.h"

/* Debian's ibverbs-providers ships at least this many plugins (18 in 65). */
#define T_DEBIAN_PROVIDERS 17

static const char *provider_dir(void)
{
	return getenv("IBV_REFERENCE_PROVIDERS");
}

/* The provider ABI of IBV_REFERENCE_RELEASE, from releases/table. */
static int release_pabi(void)
{
#define T_ROW(rel, deb, suite, abi, pabi, kernel, qp_ex, dmabuf) { rel, pabi },
	static const struct {
		const char *release;
		int pabi;
	} rows[] = { IBV_FOR_EACH_RELEASE(T_ROW) };
#undef T_ROW
	const char *want = getenv("IBV_REFERENCE_RELEASE");

	for (size_t i = 0; want && i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].release, want))
			return rows[i].pabi;
	return IBVERBS_PRIVATE_ABI;
}

/* lib<name>-rdmav<N>.so, N the release's provider ABI. */
static bool is_plugin(const char *name)
{
	char suffix[32];
	size_t len = strlen(name), sfx;

	snprintf(suffix, sizeof(suffix), "-rdmav%d.so", release_pabi());
	sfx = strlen(suffix);
	return !strncmp(name, "lib", 3) && len > sfx &&
	       !strcmp(name + len - sfx, suffix);
}

/* Which libibverbs.so.1 the process has mapped: ours, and only ours. */
static void check_single_core(void)
{
	char line[4096], real[4096], *ours = NULL;
	FILE *maps = fopen("/proc/self/maps", "r");
	Dl_info info;

	assert_non_null(maps);
	assert_true(dladdr((void *)ibv_get_device_list, &info));
	while (fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');

		if (!path || !strstr(path, "libibverbs.so.1"))
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (!ours)
			ours = strdup(path);
		else if (strcmp(ours, path))
			fail_msg("two cores mapped: %s and %s", ours, path);
	}
	fclose(maps);
	assert_non_null(ours);
	/* The core that answers is the build tree's, not the reference's. */
	printf("core: %s\n", ours);
	if (strncmp(ours, t_build_dir(), strlen(t_build_dir())) ||
	    strstr(ours, "/reference/"))
		fail_msg("the core is %s, not this build's", ours);
	/* dladdr() names the file by its SONAME link, maps by its target. */
	assert_string_equal(realpath(info.dli_fname, real), ours);
	free(ours);
}

/*
 * The core must know which release built each plugin, as their layouts
 * differ within one provider ABI (libibverbs/provider_release.c): every
 * plugin of IBV_REFERENCE_RELEASE's package is attributed to it.
 */
static void check_release(void *h, const char *file)
{
	const char *want = getenv("IBV_REFERENCE_RELEASE");
	struct provider_abi abi;
	struct link_map *lm;

	assert_non_null(want);
	/* Debian's plugins export no symbol of their own to ask about. */
	assert_int_equal(dlinfo(h, RTLD_DI_LINKMAP, &lm), 0);
	abi = provider_abi_of(lm->l_ld);
	if (!abi.release || strcmp(abi.release, want))
		fail_msg("%s is taken for release %s, not %s", file,
			 abi.release ? abi.release : "(ours)", want);
}

static void test_debian_providers_load(void **state)
{
	char path[4096];
	struct dirent *d;
	int loaded = 0;
	DIR *dir;

	dir = opendir(provider_dir());
	assert_non_null(dir);
	while ((d = readdir(dir))) {
		void *h;

		if (!is_plugin(d->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", provider_dir(),
			 d->d_name);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			fail_msg("%s does not load: %s", d->d_name, dlerror());
		check_release(h, d->d_name);
		printf("loaded %s\n", d->d_name);
		loaded++;
	}
	closedir(dir);
	printf("%d Debian providers load with RTLD_NOW\n", loaded);
	assert_true(loaded >= T_DEBIAN_PROVIDERS);
	check_single_core();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_providers_load),
	};

	struct stat st;

	if (!provider_dir() || stat(provider_dir(), &st) ||
	    !S_ISDIR(st.st_mode)) {
		printf("skip: IBV_REFERENCE_PROVIDERS names no directory of "
		       "Debian's providers\n");
		return T_SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
