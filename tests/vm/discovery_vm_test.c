// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device discovery against a real kernel, inside the test VM that
 * tests/vm/run boots (rxe0 and siw0 on two dummy netdevs). What the
 * library reports through the public API is compared with what the kernel
 * says: `rdma dev` and /sys/class/infiniband*.
 *
 * Environment (set by the VM): IBV_VM, IBV_VM_RXE, IBV_VM_RXE_NETDEV,
 * IBV_VM_SIW, IBV_VM_SIW_NETDEV. IBV_VM_SYSFS_EXPECT lists the devices
 * the loaded providers can match without netlink (default: all kernel
 * devices); Debian's siw provider matches by driver id only, so its run
 * expects just rxe0.
 *
 * The test changes the kernel's device set (rdma link delete/add) and puts
 * it back after each case; run it only in the VM.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include "t_util.h"

#define T_SKIP 77
#define T_MAX_DEVS 16
#define T_SYSFS_CHILD "--sysfs-child"

/* One device as the kernel describes it. */
struct t_kdev {
	char name[64];
	int index;
	uint64_t guid; /* host order */
	enum ibv_node_type node_type;
	char uverbs[64]; /* uverbsN, the verbs char device */
};

/* One device as the library reports it. */
struct t_udev {
	char name[64];
	int index;
	uint64_t guid; /* host order */
	int node_type;
	int transport;
	char dev_name[64];
	char dev_path[256];
	char ibdev_path[256];
};

struct t_kernel {
	struct t_kdev dev[T_MAX_DEVS];
	int num;
};

static const char *rxe_name, *rxe_netdev, *siw_name, *siw_netdev;

static const char *t_env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* "001b:2cff:fe3d:4e01" (sysfs and `rdma dev` style) to a number. */
static int t_parse_guid(const char *s, uint64_t *guid)
{
	unsigned int a, b, c, d;

	if (sscanf(s, "%4x:%4x:%4x:%4x", &a, &b, &c, &d) != 4)
		return EINVAL;
	*guid = (uint64_t)a << 48 | (uint64_t)b << 32 | (uint64_t)c << 16 | d;
	return 0;
}

static enum ibv_node_type t_node_type_word(const char *word)
{
	static const struct {
		const char *word;
		enum ibv_node_type type;
	} map[] = {
		{ "ca", IBV_NODE_CA },
		{ "switch", IBV_NODE_SWITCH },
		{ "router", IBV_NODE_ROUTER },
		{ "rnic", IBV_NODE_RNIC },
		{ "usnic", IBV_NODE_USNIC },
		{ "usnic_udp", IBV_NODE_USNIC_UDP },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(word, map[i].word))
			return map[i].type;
	return IBV_NODE_UNKNOWN;
}

/*
 * The transport of each node type, from the kernel's definitions rather
 * than the library's code: the node types are the kernel's RDMA_NODE_*
 * (<rdma/rdma_netlink.h>, the numbers sysfs and netlink report), the
 * transports those the kernel's rdma_node_get_transport() gives them,
 * written with verbs.h's IBV_TRANSPORT_*, which number them as the
 * kernel's enum rdma_transport_type does.
 */
static const struct {
	int node; /* RDMA_NODE_* */
	enum ibv_transport_type transport;
} t_node_transport[] = {
	{ RDMA_NODE_IB_CA, IBV_TRANSPORT_IB },
	{ RDMA_NODE_IB_SWITCH, IBV_TRANSPORT_IB },
	{ RDMA_NODE_IB_ROUTER, IBV_TRANSPORT_IB },
	{ RDMA_NODE_RNIC, IBV_TRANSPORT_IWARP },
	{ RDMA_NODE_USNIC, IBV_TRANSPORT_USNIC },
	{ RDMA_NODE_USNIC_UDP, IBV_TRANSPORT_USNIC_UDP },
	{ RDMA_NODE_UNSPECIFIED, IBV_TRANSPORT_UNSPECIFIED },
};

/*
 * The transport the library must report for a device of node type @type
 * (the kernel's number: t_check_sysfs() holds it against sysfs). A node
 * type the kernel does not define has no transport, which verbs.h calls
 * IBV_TRANSPORT_UNKNOWN, as it calls the node IBV_NODE_UNKNOWN.
 */
static enum ibv_transport_type t_transport_of(enum ibv_node_type type)
{
	size_t i;

	for (i = 0; i < sizeof(t_node_transport) / sizeof(t_node_transport[0]);
	     i++)
		if (t_node_transport[i].node == (int)type)
			return t_node_transport[i].transport;
	return IBV_TRANSPORT_UNKNOWN;
}

/* Read a one-line sysfs file into @buf without its newline. */
static int t_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return errno;
	if (!fgets(buf, size, f))
		ret = EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ret;
}

/* uverbsN whose ibdev file names @ibdev, or "" when there is none. */
static void t_find_uverbs(const char *ibdev, char *out, size_t size)
{
	char path[128], name[64];
	int i;

	out[0] = 0;
	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		if (t_read_line(path, name, sizeof(name)) == 0 &&
		    !strcmp(name, ibdev)) {
			snprintf(out, size, "uverbs%d", i);
			return;
		}
	}
}

/*
 * Cross-check one `rdma dev` line with sysfs, which the kernel fills from
 * the same device: a mismatch means the VM itself is broken.
 */
static void t_check_sysfs(const struct t_kdev *k)
{
	char path[160], line[64];
	uint64_t guid;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_guid",
		 k->name);
	assert_int_equal(t_read_line(path, line, sizeof(line)), 0);
	assert_int_equal(t_parse_guid(line, &guid), 0);
	assert_true(guid == k->guid);
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_type",
		 k->name);
	assert_int_equal(t_read_line(path, line, sizeof(line)), 0);
	assert_int_equal(atoi(line), k->node_type);
}

/* Parse "0: rxe0: node_type ca node_guid 001b:... sys_image_guid ..." */
static int t_parse_rdma_dev(const char *line, struct t_kdev *k)
{
	char type[32], guid[32];

	memset(k, 0, sizeof(*k));
	if (sscanf(line, "%d: %63[^:]: node_type %31s node_guid %31s",
		   &k->index, k->name, type, guid) != 4)
		return EINVAL;
	k->node_type = t_node_type_word(type);
	return t_parse_guid(guid, &k->guid);
}

/* What the kernel says now, from `rdma dev` checked against sysfs. */
static void t_kernel_read(struct t_kernel *kern)
{
	char line[512];
	FILE *p = popen("rdma dev show", "r");

	assert_non_null(p);
	kern->num = 0;
	while (fgets(line, sizeof(line), p)) {
		struct t_kdev *k = &kern->dev[kern->num];

		if (t_parse_rdma_dev(line, k))
			continue;
		assert_true(kern->num < T_MAX_DEVS - 1);
		t_check_sysfs(k);
		t_find_uverbs(k->name, k->uverbs, sizeof(k->uverbs));
		kern->num++;
	}
	assert_int_equal(pclose(p), 0);
}

static const struct t_kdev *t_kernel_find(const struct t_kernel *kern,
					  const char *name)
{
	int i;

	for (i = 0; i < kern->num; i++)
		if (!strcmp(kern->dev[i].name, name))
			return &kern->dev[i];
	return NULL;
}

/* Everything the public API says about one device. */
static void t_describe(struct ibv_device *dev, struct t_udev *u)
{
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", ibv_get_device_name(dev));
	u->index = ibv_get_device_index(dev);
	u->guid = be64toh(ibv_get_device_guid(dev));
	u->node_type = dev->node_type;
	u->transport = dev->transport_type;
	snprintf(u->dev_name, sizeof(u->dev_name), "%s", dev->dev_name);
	snprintf(u->dev_path, sizeof(u->dev_path), "%s", dev->dev_path);
	snprintf(u->ibdev_path, sizeof(u->ibdev_path), "%s", dev->ibdev_path);
}

/* Library view against kernel view; @index is -1 without netlink. */
static void t_check_udev(const struct t_udev *u, const struct t_kdev *k,
			 int index)
{
	char path[256];

	print_message("  %-6s index %d guid %016llx node %d transport %d %s\n",
		      u->name, u->index, (unsigned long long)u->guid,
		      u->node_type, u->transport, u->dev_name);
	assert_string_equal(u->name, k->name);
	assert_int_equal(u->index, index);
	assert_true(u->guid == k->guid);
	assert_int_equal(u->node_type, k->node_type);
	assert_int_equal(u->transport, t_transport_of(k->node_type));
	assert_string_equal(u->dev_name, k->uverbs);
	snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/%s",
		 k->uverbs);
	assert_string_equal(u->dev_path, path);
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", k->name);
	assert_string_equal(u->ibdev_path, path);
}

static struct ibv_device *t_find(struct ibv_device **list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

static int t_count(struct ibv_device **list)
{
	int n = 0;

	while (list && list[n])
		n++;
	return n;
}

__attribute__((format(printf, 1, 2))) static int t_shell(const char *fmt, ...)
{
	char cmd[256];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int t_link_add(const char *name, const char *type, const char *netdev)
{
	return t_shell("rdma link add %s type %s netdev %s", name, type,
		       netdev);
}

/* Put rxe0 and siw0 back after a case removed one of them. */
static int t_restore(void **state)
{
	struct t_kernel kern;

	(void)state;
	t_kernel_read(&kern);
	if (!t_kernel_find(&kern, rxe_name))
		assert_int_equal(t_link_add(rxe_name, "rxe", rxe_netdev), 0);
	if (!t_kernel_find(&kern, siw_name))
		assert_int_equal(t_link_add(siw_name, "siw", siw_netdev), 0);
	return 0;
}

/*
 * With netlink, every kernel device is listed once with the kernel's
 * index, GUID and node type. The providers match rxe and siw by the
 * driver id that only netlink reports, so siw0 being listed at all shows
 * that the driver id was read.
 */
static void test_netlink_lists_kernel_devices(void **state)
{
	struct t_kernel kern;
	struct ibv_device **list;
	struct t_udev u;
	int i, num = -1;

	(void)state;
	t_kernel_read(&kern);
	assert_non_null(t_kernel_find(&kern, rxe_name));
	assert_non_null(t_kernel_find(&kern, siw_name));
	list = ibv_get_device_list(&num);
	assert_non_null(list);
	assert_int_equal(num, kern.num);
	assert_int_equal(t_count(list), kern.num);
	for (i = 0; i < kern.num; i++) {
		struct ibv_device *dev = t_find(list, kern.dev[i].name);

		assert_non_null(dev);
		t_describe(dev, &u);
		t_check_udev(&u, &kern.dev[i], kern.dev[i].index);
	}
	ibv_free_device_list(list);
}

/*
 * The child of the sysfs case, in a fresh process so that the library
 * starts without netlink: prints one line per listed device.
 */
static int t_sysfs_child(void)
{
	struct ibv_device **list;
	struct t_udev u;
	int fd, i, num;

	if (t_hide_rdma_netlink()) {
		perror("seccomp");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (fd >= 0 || errno != EPROTONOSUPPORT) {
		fprintf(stderr, "NETLINK_RDMA is not blocked\n");
		return 2;
	}
	list = ibv_get_device_list(&num);
	if (!list) {
		perror("ibv_get_device_list");
		return 3;
	}
	for (i = 0; i < num; i++) {
		t_describe(list[i], &u);
		printf("%s %d %016llx %d %d %s %s %s\n", u.name, u.index,
		       (unsigned long long)u.guid, u.node_type, u.transport,
		       u.dev_name, u.dev_path, u.ibdev_path);
	}
	ibv_free_device_list(list);
	return 0;
}

/* Run this binary as the sysfs child and collect its lines. */
static int t_run_sysfs_child(struct t_udev *out, int max)
{
	char cmd[300], line[1024];
	unsigned long long guid;
	int n = 0, st;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "/proc/%d/exe %s", getpid(), T_SYSFS_CHILD);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		struct t_udev *u = &out[n];

		assert_true(n < max);
		assert_int_equal(
			sscanf(line, "%63s %d %llx %d %d %63s %255s %255s",
			       u->name, &u->index, &guid, &u->node_type,
			       &u->transport, u->dev_name, u->dev_path,
			       u->ibdev_path),
			8);
		u->guid = guid;
		n++;
	}
	st = pclose(p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	return n;
}

/* Words of a comma-separated list. */
static unsigned int t_count_words(const char *words)
{
	unsigned int n = 1;

	for (; *words; words++)
		n += *words == ',';
	return n;
}

static bool t_word_in(const char *words, const char *word)
{
	size_t len = strlen(word);
	const char *p = words;

	while ((p = strstr(p, word))) {
		bool start = p == words || p[-1] == ' ' || p[-1] == ',';
		bool end = !p[len] || p[len] == ' ' || p[len] == ',';

		if (start && end)
			return true;
		p += len;
	}
	return false;
}

/*
 * Without netlink the library walks /sys/class/infiniband_verbs. The
 * devices it lists carry the kernel's GUID and node type but no index.
 */
static void test_sysfs_fallback_finds_devices(void **state)
{
	struct t_udev devs[T_MAX_DEVS];
	const char *expect;
	struct t_kernel kern;
	int i, n;

	(void)state;
	t_kernel_read(&kern);
	expect = t_env("IBV_VM_SYSFS_EXPECT", NULL);
	n = t_run_sysfs_child(devs, T_MAX_DEVS);
	for (i = 0; i < n; i++) {
		const struct t_kdev *k = t_kernel_find(&kern, devs[i].name);

		assert_non_null(k);
		t_check_udev(&devs[i], k, -1);
	}
	for (i = 0; i < kern.num; i++) {
		const char *name = kern.dev[i].name;
		bool listed = false;
		int j;

		for (j = 0; j < n; j++)
			listed |= !strcmp(devs[j].name, name);
		if (listed != (!expect || t_word_in(expect, name)))
			fail_msg("%s is %slisted without netlink; expected: %s",
				 name, listed ? "" : "not ",
				 expect ? expect : "all kernel devices");
	}
}

/*
 * The two discovery paths agree: every device the sysfs fallback lists
 * (all of IBV_VM_SYSFS_EXPECT) is listed through netlink too, with the
 * same name, GUID, node and transport type and paths; only the kernel
 * index is unknown to sysfs.
 */
static void test_netlink_and_sysfs_agree(void **state)
{
	struct t_udev devs[T_MAX_DEVS], nl;
	struct ibv_device **list, *dev;
	const char *expect;
	int i, n, same = 0;

	(void)state;
	expect = t_env("IBV_VM_SYSFS_EXPECT", NULL);
	n = t_run_sysfs_child(devs, T_MAX_DEVS);
	list = ibv_get_device_list(NULL);
	assert_non_null(list);
	for (i = 0; i < n; i++) {
		dev = t_find(list, devs[i].name);
		if (!dev)
			fail_msg("%s is listed through sysfs only",
				 devs[i].name);
		t_describe(dev, &nl);
		assert_int_equal(devs[i].index, -1);
		assert_true(nl.index >= 0);
		assert_int_equal(nl.guid, devs[i].guid);
		assert_int_equal(nl.node_type, devs[i].node_type);
		assert_int_equal(nl.transport, devs[i].transport);
		assert_string_equal(nl.dev_name, devs[i].dev_name);
		assert_string_equal(nl.dev_path, devs[i].dev_path);
		assert_string_equal(nl.ibdev_path, devs[i].ibdev_path);
		same += !expect || t_word_in(expect, nl.name);
	}
	ibv_free_device_list(list);
	/* Both paths really listed what the test bed provides. */
	assert_int_equal(same, expect ? (int)t_count_words(expect) : n);
	printf("netlink and sysfs agree on %d device(s)\n", same);
}

/* A fresh device list in @list, which must hold @name: that device. */
static struct ibv_device *t_listed(struct ibv_device ***list, const char *name)
{
	struct ibv_device *dev;

	*list = ibv_get_device_list(NULL);
	assert_non_null(*list);
	dev = t_find(*list, name);
	assert_non_null(dev);
	return dev;
}

/*
 * `rdma link delete` and `rdma link add` between two calls: the second
 * list drops the device, the third shows it back as a new device with the
 * kernel's new index, and the pointer from the first list stays usable
 * while that list is held.
 */
static void test_relink_between_lists(void **state)
{
	struct ibv_device **l1, **l2, **l3, *old, *now;
	const struct t_kdev *k;
	struct t_kernel kern;
	struct t_udev u;
	int old_index;

	(void)state;
	old = t_listed(&l1, siw_name);
	old_index = ibv_get_device_index(old);

	assert_int_equal(t_shell("rdma link delete %s", siw_name), 0);
	l2 = ibv_get_device_list(NULL);
	assert_non_null(l2);
	assert_null(t_find(l2, siw_name));
	assert_int_equal(t_count(l2), t_count(l1) - 1);
	assert_string_equal(ibv_get_device_name(old), siw_name);

	assert_int_equal(t_link_add(siw_name, "siw", siw_netdev), 0);
	t_kernel_read(&kern);
	k = t_kernel_find(&kern, siw_name);
	assert_non_null(k);
	assert_int_not_equal(k->index, old_index);
	now = t_listed(&l3, siw_name);
	assert_ptr_not_equal(now, old);
	t_describe(now, &u);
	t_check_udev(&u, k, k->index);

	ibv_free_device_list(l1);
	ibv_free_device_list(l2);
	ibv_free_device_list(l3);
}

static pid_t t_spawn(const char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* waitpid() with a deadline; returns the exit status or -1. */
static int t_wait_exit(pid_t pid, int seconds)
{
	int st, i;

	for (i = 0; i < seconds * 20; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* Poll the device list until @name is gone; false after @seconds. */
static bool t_wait_unlisted(const char *name, int seconds)
{
	int i;

	for (i = 0; i < seconds * 10; i++) {
		struct ibv_device **list = ibv_get_device_list(NULL);
		bool gone = list && !t_find(list, name);

		ibv_free_device_list(list);
		if (gone)
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * A device removed from the kernel while a context is open: the library
 * drops it from its list, but the ibv_device stays valid until the
 * context is closed. The kernel (rxe has no disassociate) finishes the
 * removal only after that close, so it runs in a child.
 */
static void test_removed_while_open(void **state)
{
	const char *argv[] = { "rdma", "link", "delete", rxe_name, NULL };
	struct ibv_device **list, *dev;
	struct ibv_context *ctx;
	struct t_kernel kern;
	uint64_t guid;
	pid_t pid;

	(void)state;
	dev = t_listed(&list, rxe_name);
	guid = ibv_get_device_guid(dev);
	ctx = ibv_open_device(dev);
	if (!ctx)
		print_error("ibv_open_device(%s): %s\n", rxe_name,
			    strerror(errno));
	assert_non_null(ctx);
	ibv_free_device_list(list);

	pid = t_spawn(argv);
	assert_true(pid > 0);
	assert_true(t_wait_unlisted(rxe_name, 10));
	print_message("  %s unlisted; rdma link delete %s\n", rxe_name,
		      waitpid(pid, NULL, WNOHANG) == 0 ? "waits for the close" :
							 "already returned");

	assert_ptr_equal(ctx->device, dev);
	assert_string_equal(ibv_get_device_name(ctx->device), rxe_name);
	assert_true(ibv_get_device_guid(ctx->device) == guid);
	assert_int_equal(ctx->device->node_type, IBV_NODE_CA);
	assert_int_equal(ibv_close_device(ctx), 0);

	assert_int_equal(t_wait_exit(pid, 20), 0);
	t_kernel_read(&kern);
	assert_null(t_kernel_find(&kern, rxe_name));
}

static int t_group_setup(void **state)
{
	(void)state;
	rxe_name = t_env("IBV_VM_RXE", "rxe0");
	rxe_netdev = t_env("IBV_VM_RXE_NETDEV", "dummy0");
	siw_name = t_env("IBV_VM_SIW", "siw0");
	siw_netdev = t_env("IBV_VM_SIW_NETDEV", "dummy1");
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_netlink_lists_kernel_devices,
					  t_restore),
		cmocka_unit_test_teardown(test_sysfs_fallback_finds_devices,
					  t_restore),
		cmocka_unit_test_teardown(test_netlink_and_sysfs_agree,
					  t_restore),
		cmocka_unit_test_teardown(test_relink_between_lists, t_restore),
		cmocka_unit_test_teardown(test_removed_while_open, t_restore),
	};

	if (argc > 1 && !strcmp(argv[1], T_SYSFS_CHILD))
		return t_sysfs_child();
	if (!getenv("IBV_VM")) {
		printf("skip: needs the test VM with rxe and siw devices; run it through tests/vm/run\n");
		return T_SKIP;
	}
	if (access("/sys/class/infiniband", F_OK)) {
		printf("skip: the kernel has no RDMA devices\n");
		return T_SKIP;
	}
	return cmocka_run_group_tests(tests, t_group_setup, NULL);
}
