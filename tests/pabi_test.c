// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One core, two provider ABIs: the test provider built for each provider
 * ABI of releases/table (libtestprov-rdmav<N>.so, cmake/IbvProvider.cmake)
 * opens a fake device under our core, which must take each for what it
 * registered as (verbs_register_driver_<N>) and lay its structures out
 * accordingly (compat_pabi34.c):
 *   - its ops reach their slots: query_port and poll_cq sit at other
 *     offsets of struct verbs_context_ops in ABI 34, behind the 17 ops
 *     that ABI 65 inserted by name;
 *   - its struct verbs_context has the size of its ABI (sz), an inline
 *     verb finds no slot it lacks, and the verb behind such a slot
 *     answers EOPNOTSUPP;
 *   - the bytes in front of its struct verbs_context stay untouched, as
 *     the core never writes the newer slots there.
 * The plugin is picked by the directory RDMAV_DRIVERS names, which holds
 * that one file only.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/releases.h>
#include <infiniband/verbs.h>

#include "t_scenario.h"
#include "t_util.h"

/* sizeof(struct verbs_context) as each provider ABI lays it out. */
#define T_VCTX_SIZE_34 648
#define T_VCTX_SIZE_65 696

/* A directory holding only the test provider of provider ABI @pabi. */
static const char *only_plugin(int pabi)
{
	static char dir[PATH_MAX];
	char from[PATH_MAX], to[PATH_MAX + 64];
	char *d = t_mkdtemp("pabi");

	T_CHECK(d);
	snprintf(from, sizeof(from), "%s-rdmav%d.so", t_testprov(), pabi);
	T_CHECK(access(from, R_OK) == 0);
	snprintf(to, sizeof(to), "%s/libtestprov-rdmav%d.so", d, pabi);
	T_CHECK(symlink(from, to) == 0);
	snprintf(dir, sizeof(dir), "%s/libtestprov", d);
	free(d);
	return dir;
}

static _Atomic int *provider_int(int pabi, const char *sym)
{
	char path[PATH_MAX + 64];
	void *h;

	snprintf(path, sizeof(path), "%s-rdmav%d.so", t_testprov(), pabi);
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	T_CHECK(h);
	return dlsym(h, sym);
}

static int sc_provider_abi(void *arg)
{
	int pabi = (int)(long)arg;
	struct verbs_context *vctx;
	struct ibv_comp_cntr_init_attr ca = { 0 };
	struct ibv_device **list;
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	_Atomic int *guard;
	char *root;
	int n = 0;

	root = t_fake_kernel(false);
	if (!root)
		return T_SKIP;
	setenv("RDMAV_DRIVERS", only_plugin(pabi), 1);
	/* Its node is /dev/null: the provider sends no command. */
	t_sysfs_add(root, &T_DEV(0, .maj = 1, .min = 3));
	free(root); /* SYSFS_PATH holds its own copy */
	list = ibv_get_device_list(&n);
	T_CHECK(list && n == 1);
	ctx = ibv_open_device(list[0]);
	T_CHECK(ctx);

	/* The ops, wherever the provider's ABI put them. */
	memset(&pa, 0, sizeof(pa));
	T_CHECK(ibv_query_port(ctx, 1, &pa) == 0);
	T_CHECK(pa.lid == 0x1234 && pa.state == IBV_PORT_ACTIVE);
	T_CHECK(ibv_query_port(ctx, 2, &pa) == EINVAL);
	T_CHECK(ctx->ops.poll_cq(NULL, 0, NULL) == 4242);

	/* The context as the provider's ABI lays it out. */
	vctx = verbs_get_ctx(ctx);
	T_CHECK(vctx);
	T_CHECK(vctx->sz == (pabi >= 65 ? T_VCTX_SIZE_65 : T_VCTX_SIZE_34));
	if (pabi >= 65)
		T_CHECK(verbs_get_ctx_op(ctx, alloc_dmah) != NULL);
	else
		T_CHECK(verbs_get_ctx_op(ctx, alloc_dmah) == NULL);
	T_CHECK(verbs_get_ctx_op(ctx, query_port) != NULL);

	/* A verb of ABI 65 the provider has no op for: the dummy's answer. */
	errno = 0;
	T_CHECK(ibv_create_comp_cntr(ctx, &ca) == NULL && errno == EOPNOTSUPP);

	T_CHECK(ibv_close_device(ctx) == 0);
	guard = provider_int(pabi, "testprov_guard_intact");
	T_CHECK(guard && *guard);
	ibv_free_device_list(list);
	return 0;
}

#define T_PABI_TEST(pabi)                                          \
	static void test_pabi_##pabi(void **state)                 \
	{                                                          \
		t_scenario(sc_provider_abi, (void *)(long)(pabi)); \
	}
IBV_FOR_EACH_PABI(T_PABI_TEST)
#undef T_PABI_TEST

int main(void)
{
#define T_PABI_ENTRY(pabi) cmocka_unit_test(test_pabi_##pabi),
	const struct CMUnitTest tests[] = { IBV_FOR_EACH_PABI(T_PABI_ENTRY) };
#undef T_PABI_ENTRY

	return cmocka_run_group_tests(tests, NULL, NULL);
}
