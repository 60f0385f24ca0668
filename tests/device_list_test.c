// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device discovery, matching and lifetime against fake sysfs trees, with
 * the test provider. Each scenario runs in its own child process because
 * the library reads SYSFS_PATH and RDMAV_DRIVERS once per process. With
 * IBV_TEST_REFERENCE=1 the same binary runs against Debian's libibverbs;
 * scenarios about behaviour of ours alone skip there.
 */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include <infiniband/driver.h>

#include "t_scenario.h"
#include "t_util.h"
static char on[] = "on";

static char *root;

/* A device no provider of this test matches. */
#define OTHER0 T_DEV(1, .ibdev = "other0")

/* Common start of a scenario: the fake kernel with its tree as root. */
static bool setup_tree(bool with_provider)
{
	root = t_fake_kernel(with_provider);
	return root != NULL;
}

static _Atomic int *provider_counter(const char *sym)
{
	char path[4200];
	void *h;

	snprintf(path, sizeof(path), "%s%s", t_testprov(), t_plugin_suffix());
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	T_CHECK(h);
	return dlsym(h, sym);
}

/* The libibverbs 1.0 device handle: the third pointer is the real device. */
struct dev_1_0 {
	void *unused[2];
	struct ibv_device *real;
	void *ops[2];
};

/* Programs linked against IBVERBS_1.0 get arrays of struct dev_1_0. */
static void check_compat_1_0(struct ibv_device **list)
{
	void *h = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);
	struct dev_1_0 **(*get)(int *);
	void (*put)(struct dev_1_0 **);
	const char *(*name)(struct dev_1_0 *);
	__be64 (*guid)(struct dev_1_0 *);
	struct dev_1_0 **old;
	int n = -1, i;

	T_CHECK(h);
	get = dlvsym(h, "ibv_get_device_list", "IBVERBS_1.0");
	put = dlvsym(h, "ibv_free_device_list", "IBVERBS_1.0");
	name = dlvsym(h, "ibv_get_device_name", "IBVERBS_1.0");
	guid = dlvsym(h, "ibv_get_device_guid", "IBVERBS_1.0");
	T_CHECK(get && put && name && guid);
	T_CHECK((void *)get != dlvsym(h, "ibv_get_device_list", "IBVERBS_1.1"));
	old = get(&n);
	T_CHECK(old && n == t_count(list) && old[n] == NULL);
	for (i = 0; i < n; i++) {
		T_CHECK(t_find(list, name(old[i])) == old[i]->real);
		T_CHECK(guid(old[i]) == ibv_get_device_guid(old[i]->real));
	}
	put(old);
	dlclose(h);
}

/* What the core offers providers: sysfs reads relative to the device. */
static void check_provider_helpers(struct ibv_device *dev)
{
	struct verbs_sysfs_dev *sd = verbs_get_device(dev)->sysfs;
	char buf[64];

	T_CHECK(sd && !strcmp(sd->ibdev_name, "tprov0"));
	T_CHECK(!strcmp(sd->sysfs_name, "uverbs0"));
	T_CHECK(sd->abi_ver == 1);
	T_CHECK(ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sd, "node_%s",
					  "type") == 5);
	T_CHECK(!strcmp(buf, "1: CA"));
	T_CHECK(ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sd, "missing") < 0);
}

static int sc_list(void *arg)
{
	struct ibv_device **list, *d;
	char expect[4200];
	int n = -1;

	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0, .guid = "0002:c903:0000:1234"));
	t_sysfs_add(root, &T_DEV(1, .node_type = 4));
	t_sysfs_add(root, &T_DEV(2, .guid = "fe80:0000:0000:0001"));

	list = ibv_get_device_list(&n);
	T_CHECK(list);
	T_CHECK(n == 3);
	T_CHECK(list[3] == NULL);
	d = t_find(list, "tprov0");
	T_CHECK(d);
	T_CHECK(!strcmp(d->dev_name, "uverbs0"));
	snprintf(expect, sizeof(expect), "%s/class/infiniband_verbs/uverbs0",
		 root);
	T_CHECK(!strcmp(d->dev_path, expect));
	snprintf(expect, sizeof(expect), "%s/class/infiniband/tprov0", root);
	T_CHECK(!strcmp(d->ibdev_path, expect));
	T_CHECK(d->node_type == IBV_NODE_CA);
	T_CHECK(d->transport_type == IBV_TRANSPORT_IB);
	/* GUIDs come back in network byte order. */
	T_CHECK(be64toh(ibv_get_device_guid(d)) == 0x0002c90300001234ULL);
	T_CHECK(be64toh(ibv_get_device_guid(t_find(list, "tprov2"))) ==
		0xfe80000000000001ULL);
	/* No node_guid file: 0. */
	T_CHECK(ibv_get_device_guid(t_find(list, "tprov1")) == 0);
	T_CHECK(t_find(list, "tprov1")->node_type == IBV_NODE_RNIC);
	T_CHECK(t_find(list, "tprov1")->transport_type == IBV_TRANSPORT_IWARP);
	check_compat_1_0(list);
	check_provider_helpers(t_find(list, "tprov0"));
	/* Sysfs discovery knows no kernel index. */
	T_CHECK(ibv_get_device_index(d) == -1);
	ibv_free_device_list(list);

	/* The count is optional. */
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 3);
	ibv_free_device_list(list);
	return 0;
}

static int sc_enosys(void *arg)
{
	struct ibv_device **list;
	int n = 5;

	if (!t_ns_enter())
		return T_SKIP;
	root = t_sysfs_empty();
	setenv("SYSFS_PATH", root, 1);
	errno = 0;
	list = ibv_get_device_list(&n);
	T_CHECK(list == NULL);
	T_CHECK(errno == ENOSYS);
	T_CHECK(n == 0);
	return 0;
}

static int sc_empty(void *arg)
{
	struct ibv_device **list;
	int n = 5;

	if (!setup_tree(true))
		return T_SKIP;
	list = ibv_get_device_list(&n);
	T_CHECK(list != NULL);
	T_CHECK(n == 0);
	T_CHECK(list[0] == NULL);
	ibv_free_device_list(list);
	return 0;
}

static int sc_hotplug(void *arg)
{
	struct ibv_device **l1, **l2, **l3, **l4;

	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	t_sysfs_add(root, &T_DEV(1));
	l1 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l1) == 2);

	t_sysfs_add(root, &T_DEV(2));
	l2 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l2) == 3);
	/* Unchanged devices keep their identity across calls. */
	T_CHECK(t_find(l2, "tprov0") == t_find(l1, "tprov0"));
	T_CHECK(t_find(l2, "tprov2"));

	t_sysfs_del(root, &T_DEV(1));
	l3 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l3) == 2);
	T_CHECK(!t_find(l3, "tprov1"));
	T_CHECK(t_find(l3, "tprov2") == t_find(l2, "tprov2"));

	/* The same uverbs name comes back for another device at once. */
	t_sysfs_del(root, &T_DEV(2));
	t_sysfs_add(root, &T_DEV(2, .ibdev = "tprov9", .min = 9));
	l4 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l4) == 2);
	T_CHECK(t_find(l4, "tprov9"));
	T_CHECK(!t_find(l4, "tprov2"));
	/* Old arrays stay readable until freed. */
	T_CHECK(!strcmp(t_find(l2, "tprov1")->name, "tprov1"));
	ibv_free_device_list(l1);
	ibv_free_device_list(l2);
	ibv_free_device_list(l3);
	ibv_free_device_list(l4);
	return 0;
}

/*
 * The exported ibv_query_port() (what the macro bypasses) fills only the
 * 48-byte structure of libibverbs 1.1.
 */
static void check_legacy_query_port(struct ibv_context *ctx)
{
	unsigned char legacy[64];
	uint16_t lid;

	memset(legacy, 0xa5, sizeof(legacy));
	T_CHECK((ibv_query_port)(ctx, 1,
				 (struct _compat_ibv_port_attr *)legacy) == 0);
	memcpy(&lid, legacy + offsetof(struct ibv_port_attr, lid), sizeof(lid));
	T_CHECK(lid == 0x1234);
	T_CHECK(legacy[48] == 0xa5 && legacy[63] == 0xa5);
	T_CHECK((ibv_query_port)(ctx, 2,
				 (struct _compat_ibv_port_attr *)legacy) ==
		EINVAL);
}

static int sc_lifetime(void *arg)
{
	struct ibv_device **list, *dev;
	struct ibv_context *ctx;
	struct ibv_port_attr pa;
	_Atomic int *live;

	if (!setup_tree(true))
		return T_SKIP;
	/* 1:3 is /dev/null, which can really be opened. */
	t_sysfs_add(root, &T_DEV(0, .maj = 1, .min = 3));
	t_sysfs_add(root, &T_DEV(1));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 2);
	live = provider_counter("testprov_live_devices");
	T_CHECK(live && *live == 2);
	dev = t_find(list, "tprov0");
	ctx = ibv_open_device(dev);
	T_CHECK(ctx);
	T_CHECK(ctx->device == dev);
	T_CHECK(ctx->cmd_fd >= 0 && ctx->async_fd >= 0);
	/* Inline dispatch reaches the provider through the public slots. */
	T_CHECK(ibv_poll_cq((struct ibv_cq *)&(struct { void *c; }){ ctx }, 0,
			    NULL) == 4242);
	T_CHECK(ibv_query_port(ctx, 1, &pa) == 0);
	T_CHECK(pa.lid == 0x1234 && pa.state == IBV_PORT_ACTIVE);
	check_legacy_query_port(ctx);
	ibv_free_device_list(list);
	/* Open, so still valid after the list is gone... */
	T_CHECK(!strcmp(dev->name, "tprov0"));

	/* ...and after the kernel removed it. */
	t_sysfs_del(root, &T_DEV(0));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(!t_find(list, "tprov0"));
	T_CHECK(!strcmp(ctx->device->name, "tprov0"));
	T_CHECK(*live == 2);
	T_CHECK(ibv_close_device(ctx) == 0);
	T_CHECK(*live == 1);
	ibv_free_device_list(list);
	return 0;
}

static int sc_unmatched(void *arg)
{
	struct ibv_device **list;

	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	t_sysfs_add(root, &OTHER0);
	/* Vetoed by the provider's match_device hook. */
	t_sysfs_add(root, &T_DEV(2, .ibdev = "tprovveto"));
	/* Matched through its modalias, not its name. */
	t_sysfs_add(root,
		    &T_DEV(3, .ibdev = "bymodalias", .modalias = "tprov:v1d2"));
	/* No device node: dropped. */
	t_sysfs_add(root, &T_DEV(4, .ibdev = "tprovnonode", .no_node = true));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 2);
	T_CHECK(t_find(list, "tprov0"));
	T_CHECK(t_find(list, "bymodalias"));
	ibv_free_device_list(list);
	return 0;
}

static int sc_abi_range(void *arg)
{
	struct ibv_device **list;

	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0, .abi = 9)); /* provider takes 1..6 */
	t_sysfs_add(root, &T_DEV(1, .abi = 6));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(t_find(list, "tprov1"));
	ibv_free_device_list(list);
	return 0;
}

#define SCAN_THREADS 4

static atomic_bool stop_scanning;

/* Lists, checks and frees in a loop while the main thread changes the tree. */
static void *scanner(void *arg)
{
	struct ibv_device **list;
	int n, i, rounds = 0;

	while (!stop_scanning || rounds < 20) {
		list = ibv_get_device_list(&n);
		if (!list)
			return (void *)1;
		for (i = 0; i < n; i++)
			if (strncmp(ibv_get_device_name(list[i]), "tprov", 5))
				return (void *)2;
		ibv_free_device_list(list);
		rounds++;
	}
	return NULL;
}

static int sc_threads(void *arg)
{
	pthread_t th[SCAN_THREADS];
	struct ibv_device **list;
	void *ret;
	int i;

	if (!setup_tree(true))
		return T_SKIP;
	static const char *const base[] = { "tprov0", "tprov1", "tprov2",
					    "tprov3" };
	static const char *const hot[] = { "tprovh4", "tprovh5", "tprovh6",
					   "tprovh7" };

	for (i = 0; i < 4; i++)
		t_sysfs_add(root, &T_DEV(0, .ibdev = base[i], .uverbs = i,
					 .min = (unsigned int)i));
	for (i = 0; i < SCAN_THREADS; i++)
		T_CHECK(!pthread_create(&th[i], NULL, scanner, NULL));
	/* Rounds of adding four devices, then removing them again. */
	for (i = 0; i < 104; i++) {
		struct t_dev d = T_DEV(0, .ibdev = hot[i % 4],
				       .uverbs = 4 + i % 4,
				       .min = (unsigned int)(4 + i % 4));

		if (i % 8 < 4)
			t_sysfs_add(root, &d);
		else
			t_sysfs_del(root, &d);
	}
	stop_scanning = true;
	for (i = 0; i < SCAN_THREADS; i++) {
		T_CHECK(!pthread_join(th[i], &ret));
		T_CHECK(ret == NULL);
	}
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 4);
	ibv_free_device_list(list);
	return 0;
}

/* What one listing with other0 present prints; IBV_SHOW_WARNINGS if @show. */
static char *list_other0_stderr(bool show)
{
	t_sysfs_add(root, &OTHER0);
	if (show)
		setenv("IBV_SHOW_WARNINGS", "1", 1);
	return t_capture_stderr(t_list_once, NULL);
}

static int sc_show_warnings(void *arg)
{
	char *err;

	if (!setup_tree(true))
		return T_SKIP;
	err = list_other0_stderr(arg);
	if (arg)
		T_CHECK(strstr(err, "other0"));
	else
		T_CHECK(!strstr(err, "other0"));
	free(err);
	return 0;
}

/* Ours only: a provider listed in the config dir but not installed. */
static int sc_quiet_missing_provider(void *arg)
{
	char *err;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(false))
		return T_SKIP;
	t_write("/etc/libibverbs.d/ghost.driver", "driver ghostprovider\n");
	err = list_other0_stderr(arg);
	if (arg)
		T_CHECK(strstr(err, "ghostprovider"));
	else
		T_CHECK(err[0] == '\0');
	free(err);
	return 0;
}

static bool file_has(const char *path, const char *needle)
{
	char buf[8192] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, needle) != NULL;
}

/* Ours only: the log says why the list is empty. */
static int sc_log_reasons(void *arg)
{
	char log[] = "/tmp/ibvt-log-XXXXXX";
	int fd;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(false))
		return T_SKIP;
	fd = mkstemp(log);
	T_CHECK(fd >= 0);
	close(fd);
	setenv("VERBS_LOG_LEVEL", "3", 1);
	setenv("VERBS_LOG_FILE", log, 1);
	t_sysfs_add(root, &OTHER0);
	t_sysfs_add(root, &T_DEV(2, .ibdev = "other1", .no_node = true));
	t_list_once(NULL);
	__verbs_log(NULL, VERBS_LOG_INFO, "provider says %d\n", 42);
	__verbs_log(NULL, VERBS_LOG_DEBUG, "too chatty\n");
	T_CHECK(file_has(log, "provider says 42"));
	T_CHECK(!file_has(log, "too chatty"));
	T_CHECK(file_has(log, "no matching provider"));
	T_CHECK(file_has(log, "no accessible character device"));
	unlink(log);
	return 0;
}

/*
 * Ours only: listing devices maps no libnl-route-3, which only neighbour
 * resolution loads (nl_route.c); Debian's library links it.
 */
static int sc_no_nl_route(void *arg)
{
	struct ibv_device **list;
	char *line = NULL;
	size_t cap = 0;
	FILE *maps;
	int n = 0;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	list = ibv_get_device_list(&n);
	T_CHECK(list && n == 1);
	maps = fopen("/proc/self/maps", "re");
	T_CHECK(maps);
	while (getline(&line, &cap, maps) > 0)
		T_CHECK(!strstr(line, "libnl-route-3"));
	free(line);
	fclose(maps);
	ibv_free_device_list(list);
	return 0;
}

/*
 * Ours only: a warm call trusts an unchanged directory and reads nothing
 * per device, so a rewritten attribute of a known device goes unnoticed.
 * The directory's timestamp is set far in the past: the cache then knows
 * no change can hide behind a coarse clock tick, whatever its window.
 */
static int sc_warm_cache(void *arg)
{
	const struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	struct ibv_device **l1, **l2;
	char path[4200];

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	t_sysfs_add(root, &T_DEV(1));
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs", root);
	T_CHECK(utimensat(AT_FDCWD, path, old, 0) == 0);
	l1 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l1) == 2);
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs/uverbs1/ibdev",
		 root);
	t_write(path, "renamed\n");
	l2 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l2) == 2);
	T_CHECK(t_find(l2, "tprov1") == t_find(l1, "tprov1"));
	ibv_free_device_list(l1);
	ibv_free_device_list(l2);
	return 0;
}

static int sc_sysfs_path(void *arg)
{
	char buf[64];
	char *tree;

	if (!setup_tree(true))
		return T_SKIP;
	tree = malloc(strlen(root) + 3);
	strcpy(tree, root);
	strcat(tree, "//");
	setenv("SYSFS_PATH", tree, 1);
	T_CHECK(!strcmp(ibv_get_sysfs_path(), root));
	t_sysfs_add(root, &T_DEV(0));
	snprintf(buf, sizeof(buf), "%s", "x");
	T_CHECK(ibv_read_sysfs_file(root, "class/infiniband_verbs/uverbs0/dev",
				    buf, sizeof(buf)) == 5);
	T_CHECK(!strcmp(buf, "231:0"));
	/* Content that fills the buffer without a newline is refused. */
	T_CHECK(ibv_read_sysfs_file(root, "class/infiniband_verbs/uverbs0/dev",
				    buf, 3) == -1);
	errno = 0;
	T_CHECK(ibv_read_sysfs_file(root, "nope", buf, sizeof(buf)) == -1);
	T_CHECK(errno == ENOENT);
	free(tree);
	return 0;
}

static void test_list(void **s)
{
	t_scenario(sc_list, NULL);
}
static void test_enosys(void **s)
{
	t_scenario(sc_enosys, NULL);
}
static void test_empty(void **s)
{
	t_scenario(sc_empty, NULL);
}
static void test_hotplug(void **s)
{
	t_scenario(sc_hotplug, NULL);
}
static void test_lifetime(void **s)
{
	t_scenario(sc_lifetime, NULL);
}
static void test_unmatched(void **s)
{
	t_scenario(sc_unmatched, NULL);
}
static void test_abi_range(void **s)
{
	t_scenario(sc_abi_range, NULL);
}
static void test_warnings_off(void **s)
{
	t_scenario(sc_show_warnings, NULL);
}
static void test_warnings_on(void **s)
{
	t_scenario(sc_show_warnings, on);
}
static void test_missing_provider_quiet(void **s)
{
	t_scenario(sc_quiet_missing_provider, NULL);
}
static void test_missing_provider_shown(void **s)
{
	t_scenario(sc_quiet_missing_provider, on);
}
static void test_log_reasons(void **s)
{
	t_scenario(sc_log_reasons, NULL);
}
static void test_no_nl_route(void **s)
{
	t_scenario(sc_no_nl_route, NULL);
}
static void test_warm_cache(void **s)
{
	t_scenario(sc_warm_cache, NULL);
}
static void test_threads(void **s)
{
	t_scenario(sc_threads, NULL);
}
static void test_sysfs_path(void **s)
{
	t_scenario(sc_sysfs_path, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_lifetime),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_abi_range),
		cmocka_unit_test(test_warnings_off),
		cmocka_unit_test(test_warnings_on),
		cmocka_unit_test(test_missing_provider_quiet),
		cmocka_unit_test(test_missing_provider_shown),
		cmocka_unit_test(test_log_reasons),
		cmocka_unit_test(test_no_nl_route),
		cmocka_unit_test(test_warm_cache),
		cmocka_unit_test(test_sysfs_path),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
