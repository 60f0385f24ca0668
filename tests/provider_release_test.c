// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which release's layouts the core takes a provider file for
 * (libibverbs/provider_release.c), on plugin directories laid out here:
 * for every release of releases/table, a plugin whose file names the
 * release, a plain plugin beside such a one, and, apart, a plain plugin
 * alone and one naming a release the table lacks, which get this tree's
 * own layouts. Our test provider carries the note of driver.h.
 */
#include "config.h"
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>
#include <infiniband/releases.h>

#include "libibverbs/provider_release.h"
#include "t_util.h"

struct row {
	const char *release;
	unsigned int qp_ex;
	unsigned int dmabuf;
};

#define T_ROW(rel, deb, suite, abi, pabi, kernel, qp_ex, dmabuf) \
	{ rel, qp_ex, dmabuf },
static const struct row rows[] = { IBV_FOR_EACH_RELEASE(T_ROW) };

static char top[] = "/tmp/ibvt-release-XXXXXX";

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
}

static void assert_builtin(struct provider_abi abi)
{
	assert_null(abi.release);
	assert_int_equal(abi.qp_ex_size, sizeof(struct ibv_qp_ex));
	assert_int_equal(abi.dmabuf_args, VERBS_DMABUF_MR_ARGS);
}

/* Per release: DIR/libmlx5.so.1.25.R, a plugin link to it, a plain one. */
static void test_release_of_files(void **state)
{
	char dir[512], path[600], target[600];
	struct provider_abi abi;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%zu", top, i);
		assert_int_equal(mkdir(dir, 0755), 0);
		snprintf(target, sizeof(target), "%s/libmlx5.so.1.25.%s", dir,
			 rows[i].release);
		touch(target);
		snprintf(path, sizeof(path),
			 "%s/libmlx5" IBVERBS_PROVIDER_SUFFIX, dir);
		assert_int_equal(symlink(target, path), 0);
		abi = provider_abi_of_file(path);
		assert_non_null(abi.release);
		assert_string_equal(abi.release, rows[i].release);
		assert_int_equal(abi.qp_ex_size, rows[i].qp_ex);
		assert_int_equal(abi.dmabuf_args, rows[i].dmabuf);

		/* A plain plugin is taken for its neighbours' release. */
		snprintf(path, sizeof(path),
			 "%s/librxe" IBVERBS_PROVIDER_SUFFIX, dir);
		touch(path);
		abi = provider_abi_of_file(path);
		assert_non_null(abi.release);
		assert_string_equal(abi.release, rows[i].release);
		assert_int_equal(abi.qp_ex_size, rows[i].qp_ex);
	}
}

static void test_nothing_known(void **state)
{
	char dir[512], path[600];

	snprintf(dir, sizeof(dir), "%s/alone", top);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/libqedr" IBVERBS_PROVIDER_SUFFIX, dir);
	touch(path);
	assert_builtin(provider_abi_of_file(path));
	/* A version the table does not name is no release of ours. */
	snprintf(path, sizeof(path), "%s/libefa.so.1.2.0.7", dir);
	touch(path);
	assert_builtin(provider_abi_of_file(path));
	assert_builtin(provider_abi_of_file("/nonexistent/libx.so"));
}

/* Our own providers say what they were built with, in a note. */
static void test_note(void **state)
{
	char path[4096];
	void *h, *ops;

	snprintf(path, sizeof(path),
		 "%s/lib/libtestprov" IBVERBS_PROVIDER_SUFFIX, t_build_dir());
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail_msg("%s: %s", path, dlerror());
	ops = dlsym(h, "verbs_provider_testprov");
	assert_non_null(ops);
	assert_builtin(provider_abi_of(ops));
	/* The note is what answers: this file names no release. */
	assert_null(provider_abi_of_file(path).release);
	dlclose(h);
}

static int setup(void **state)
{
	return mkdtemp(top) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_of_files),
		cmocka_unit_test(test_nothing_known),
		cmocka_unit_test(test_note),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
