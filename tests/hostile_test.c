// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Hostile input: sysfs trees, driver config files and environments that
 * a careless reader would hang on, misread or truncate into something
 * else. Each scenario runs in its own child process under an alarm, so a
 * regression that blocks fails instead of hanging the suite. With
 * IBV_TEST_REFERENCE=1 the scenarios rdma-core 44 agrees with run against
 * Debian's libibverbs; the others skip there.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include <infiniband/driver.h>

#include "t_scenario.h"
#include "t_util.h"

static char *root;

/* Common start of a scenario: the fake kernel with its tree as root. */
static bool setup_tree(bool with_provider)
{
	root = t_fake_kernel(with_provider);
	return root != NULL;
}

/* @rel below the fake sysfs root, in a static buffer. */
static const char *in_root(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static const char *in_root(const char *fmt, ...)
{
	static char path[8192];
	char rel[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

/* node_type as the kernel would never write it, and as it does. */
struct node_case {
	const char *text; /* NULL: no node_type file */
	enum ibv_node_type type;
	enum ibv_transport_type transport;
	bool ours_only;
};

static int sc_node_type(void *arg)
{
	const struct node_case *c = arg;
	struct ibv_device **list;

	if (c->ours_only && t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	if (c->text)
		t_write(in_root("class/infiniband/tprov0/node_type"), c->text);
	else
		T_CHECK(!unlink(in_root("class/infiniband/tprov0/node_type")));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	if (list[0]->node_type != c->type ||
	    list[0]->transport_type != c->transport) {
		fprintf(stderr, "node_type %s: got node %d transport %d\n",
			c->text ? c->text : "(none)\n", list[0]->node_type,
			list[0]->transport_type);
		return 1;
	}
	ibv_free_device_list(list);
	return 0;
}

#define NODE(t, n, tr)                                \
	{                                             \
		.text = t, .type = n, .transport = tr \
	}
#define UNKNOWN(t) NODE(t, IBV_NODE_UNKNOWN, IBV_TRANSPORT_UNKNOWN)

static const struct node_case node_cases[] = {
	UNKNOWN("0\n"),
	UNKNOWN("8\n"),
	UNKNOWN("42: bogus\n"),
	UNKNOWN("garbage\n"),
	UNKNOWN(NULL),
	NODE("1: CA\n", IBV_NODE_CA, IBV_TRANSPORT_IB),
	NODE("2: switch\n", IBV_NODE_SWITCH, IBV_TRANSPORT_IB),
	NODE("3: router\n", IBV_NODE_ROUTER, IBV_TRANSPORT_IB),
	NODE("4: RNIC\n", IBV_NODE_RNIC, IBV_TRANSPORT_IWARP),
	NODE("5: usNIC\n", IBV_NODE_USNIC, IBV_TRANSPORT_USNIC),
	NODE("6: usNIC UDP\n", IBV_NODE_USNIC_UDP, IBV_TRANSPORT_USNIC_UDP),
	NODE("7: unspecified\n", IBV_NODE_UNSPECIFIED,
	     IBV_TRANSPORT_UNSPECIFIED),
	/* rdma-core 44 cuts this to 32 bits and reads 1, a CA. */
	{ .text = "4294967297\n",
	  .type = IBV_NODE_UNKNOWN,
	  .transport = IBV_TRANSPORT_UNKNOWN,
	  .ours_only = true },
};

/* Replaces @rel below the fake root with a FIFO nobody ever writes to. */
static void make_fifo(const char *rel)
{
	const char *path = in_root("%s", rel);

	unlink(path);
	T_CHECK(!mkfifo(path, 0644));
}

/* A sysfs attribute that is a FIFO, and what listing must still give. */
struct fifo_case {
	const char *ibdev;
	const char *rel; /* below the fake root */
	int listed;
};

/*
 * Ours only: rdma-core 44 opens attributes for a blocking read and hangs.
 * Every attribute read while listing is tried.
 */
static int sc_sysfs_fifo(void *arg)
{
	const struct fifo_case *c = arg;
	struct ibv_device **list;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0, .ibdev = c->ibdev, .guid = "0:0:0:1",
				 .modalias = "tprov:v1d2"));
	make_fifo(c->rel);
	list = ibv_get_device_list(NULL);
	T_CHECK(list);
	T_CHECK(t_count(list) == c->listed);
	if (c->listed && strstr(c->rel, "node_guid"))
		T_CHECK(ibv_get_device_guid(list[0]) == 0);
	if (c->listed && strstr(c->rel, "node_type"))
		T_CHECK(list[0]->node_type == IBV_NODE_UNKNOWN);
	ibv_free_device_list(list);
	return 0;
}

static const struct fifo_case fifo_cases[] = {
	{ "tprov0", "class/infiniband_verbs/abi_version", 0 },
	{ "tprov0", "class/infiniband_verbs/uverbs0/ibdev", 0 },
	{ "tprov0", "class/infiniband_verbs/uverbs0/dev", 0 },
	/* No ABI version: the provider's range 1..6 refuses the device. */
	{ "tprov0", "class/infiniband_verbs/uverbs0/abi_version", 0 },
	{ "tprov0", "class/infiniband/tprov0/node_type", 1 },
	{ "tprov0", "class/infiniband/tprov0/node_guid", 1 },
	/* Not matched by name, so the modalias is read. */
	{ "other0", "class/infiniband/other0/device/modalias", 0 },
};

/* Ours only: the exported reader refuses what is not a regular file. */
static int sc_read_sysfs_fifo(void *arg)
{
	char buf[64];

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(false))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	make_fifo("class/infiniband/tprov0/fifo");
	errno = 0;
	T_CHECK(ibv_read_sysfs_file(in_root("class/infiniband/tprov0"), "fifo",
				    buf, sizeof(buf)) == -1);
	T_CHECK(errno == EINVAL);
	errno = 0;
	T_CHECK(ibv_read_sysfs_file(root, "class/infiniband/tprov0", buf,
				    sizeof(buf)) == -1);
	T_CHECK(errno == EISDIR);
	/* Device nodes: one reads empty, one fills the buffer. */
	T_CHECK(!symlink("/dev/null", in_root("class/infiniband/tprov0/null")));
	T_CHECK(!symlink("/dev/zero", in_root("class/infiniband/tprov0/zero")));
	errno = 0;
	T_CHECK(ibv_read_sysfs_file(in_root("class/infiniband/tprov0"), "null",
				    buf, sizeof(buf)) == -1);
	T_CHECK(errno == EINVAL);
	errno = 0;
	T_CHECK(ibv_read_sysfs_file(in_root("class/infiniband/tprov0"), "zero",
				    buf, sizeof(buf)) == -1);
	T_CHECK(errno == EINVAL);
	T_CHECK(ibv_read_sysfs_file(in_root("class/infiniband/tprov0"),
				    "node_type", buf, sizeof(buf)) == 5);
	return 0;
}

/* The devices listed, with what the library printed meanwhile. */
static int list_capturing(char **err)
{
	struct ibv_device **list = NULL;
	int n;

	*err = t_capture_stderr(t_list_once, NULL);
	list = ibv_get_device_list(&n);
	T_CHECK(list);
	ibv_free_device_list(list);
	return n;
}

/* A FIFO among the config files is skipped; rdma-core agrees. */
static int sc_config_fifo(void *arg)
{
	struct ibv_device **list;

	if (!setup_tree(true))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	T_CHECK(!mkfifo("/etc/libibverbs.d/fifo.driver", 0644));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	ibv_free_device_list(list);
	return 0;
}

/* @path holding @first and comment lines, @size bytes in all. */
static void write_sized(const char *path, const char *first, size_t size)
{
	char *buf = malloc(size + 1);
	size_t len = strlen(first), n;

	T_CHECK(buf && len < size);
	memcpy(buf, first, len);
	while (len < size) {
		n = size - len > 80 ? 80 : size - len;
		memset(buf + len, '#', n);
		buf[len + n - 1] = '\n';
		len += n;
	}
	buf[size] = '\0';
	t_write(path, buf);
	free(buf);
}

/* Ours only: a config file over 64 KiB is skipped, and says so. */
static int sc_config_size(void *arg)
{
	char line[4200], *err;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(false))
		return T_SKIP;
	setenv("IBV_SHOW_WARNINGS", "1", 1);
	t_sysfs_add(root, &T_DEV(0));
	snprintf(line, sizeof(line), "driver %s\n", t_testprov());
	write_sized("/etc/libibverbs.d/fits.driver", line, 65536);
	write_sized("/etc/libibverbs.d/huge.driver",
		    "driver /nonexistent/ghost\n", 65537);
	T_CHECK(list_capturing(&err) == 1);
	T_CHECK(strstr(err, "/etc/libibverbs.d/huge.driver"));
	T_CHECK(strstr(err, "65536 bytes"));
	T_CHECK(!strstr(err, "ghost"));
	T_CHECK(!strstr(err, "fits.driver"));
	free(err);
	return 0;
}

/* A config file naming the test provider, at @path. */
static void provider_config(const char *path)
{
	char line[4200];

	snprintf(line, sizeof(line), "driver %s\n", t_testprov());
	t_write(path, line);
}

/*
 * A config file that is a symlink to a regular file is read, as rdma-core
 * reads it; the link is relative, as a package would install it.
 */
static int sc_config_symlink(void *arg)
{
	struct ibv_device **list;

	if (!setup_tree(false))
		return T_SKIP;
	t_sysfs_add(root, &T_DEV(0));
	T_CHECK(!mkdir("/etc/ibvt-real", 0755));
	provider_config("/etc/ibvt-real/testprov.driver");
	T_CHECK(!symlink("../ibvt-real/testprov.driver",
			 "/etc/libibverbs.d/testprov.driver"));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	ibv_free_device_list(list);
	return 0;
}

/*
 * Links that lead nowhere readable are skipped and the other files still
 * read; rdma-core agrees. Ours also names each skipped file.
 */
static int sc_config_bad_links(void *arg)
{
	/* Each skipped file, and the reason that must follow its name. */
	static const char *const bad[][2] = {
		{ "loop", "Too many levels of symbolic links" },
		{ "dir", "directory" },
		{ "fifo", "FIFO" },
		{ "null", "character device" },
		{ "dangling", "No such file or directory" },
	};
	char path[256], *err, *at;
	size_t i;

	if (!setup_tree(false))
		return T_SKIP;
	setenv("IBV_SHOW_WARNINGS", "1", 1);
	t_sysfs_add(root, &T_DEV(0));
	T_CHECK(!mkdir("/etc/ibvt-real", 0755));
	T_CHECK(!mkfifo("/etc/ibvt-real/fifo", 0644));
	T_CHECK(!symlink("loop.driver", "/etc/libibverbs.d/loop.driver"));
	T_CHECK(!symlink("/etc/ibvt-real", "/etc/libibverbs.d/dir.driver"));
	T_CHECK(!symlink("/etc/ibvt-real/fifo",
			 "/etc/libibverbs.d/fifo.driver"));
	T_CHECK(!symlink("/dev/null", "/etc/libibverbs.d/null.driver"));
	T_CHECK(!symlink("/etc/ibvt-real/none",
			 "/etc/libibverbs.d/dangling.driver"));
	provider_config("/etc/libibverbs.d/testprov.driver");
	T_CHECK(list_capturing(&err) == 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]) && !t_reference(); i++) {
		snprintf(path, sizeof(path),
			 "/etc/libibverbs.d/%s.driver:", bad[i][0]);
		at = strstr(err, path);
		if (!at || !strstr(at, bad[i][1]) ||
		    strchr(at, '\n') < strstr(at, bad[i][1])) {
			fprintf(stderr, "%s not reported as %s in:\n%s", path,
				bad[i][1], err);
			return 1;
		}
	}
	free(err);
	return 0;
}

/*
 * The test provider's file name, led by enough slashes to be @len bytes
 * long: a different name for the same file.
 */
static char *padded_provider(size_t len, const char *suffix)
{
	char *name = malloc(len + 1);
	size_t tail = strlen(t_testprov()) + strlen(suffix);

	T_CHECK(name && tail < len);
	memset(name, '/', len - tail);
	strcpy(name + len - tail, t_testprov());
	strcat(name, suffix);
	return name;
}

enum name_source { FROM_ENV, FROM_CONFIG };

static void name_provider(enum name_source from, const char *name)
{
	char *line;

	if (from == FROM_ENV) {
		setenv("RDMAV_DRIVERS", name, 1);
		return;
	}
	line = malloc(strlen(name) + 9);
	T_CHECK(line);
	sprintf(line, "driver %s\n", name);
	t_write("/etc/libibverbs.d/long.driver", line);
	free(line);
}

/*
 * "<name>-rdmav<N>.so" must be tried whole. Here it names no file, but
 * cut after <name> it names the test provider, which must not load.
 * rdma-core agrees.
 */
static int sc_name_truncated(void *arg)
{
	enum name_source from = (enum name_source)(long)arg;
	char *name, *err;

	if (!setup_tree(false))
		return T_SKIP;
	setenv("IBV_SHOW_WARNINGS", "1", 1);
	t_sysfs_add(root, &T_DEV(0));
	/* 511: the longest path the old fixed buffer held. */
	name = padded_provider(511, t_plugin_suffix());
	name_provider(from, name);
	T_CHECK(list_capturing(&err) == 0);
	if (!t_reference())
		T_CHECK(strstr(err, name));
	free(err);
	free(name);
	return 0;
}

/* A name too long for any path is refused, and the refusal names it. */
static int sc_name_too_long(void *arg)
{
	enum name_source from = (enum name_source)(long)arg;
	char *name, *err, *at;

	if (!setup_tree(false))
		return T_SKIP;
	setenv("IBV_SHOW_WARNINGS", "1", 1);
	t_sysfs_add(root, &T_DEV(0));
	name = padded_provider(PATH_MAX - 1, "");
	name_provider(from, name);
	T_CHECK(list_capturing(&err) == 0);
	at = strstr(err, name);
	if (!t_reference())
		T_CHECK(at && strstr(at, "too long"));
	free(err);
	free(name);
	return 0;
}

/*
 * A fake sysfs root whose path is exactly @len bytes long, made of
 * directories below a fresh temporary one, and used as SYSFS_PATH.
 */
static char *long_root(size_t len)
{
	char *path = malloc(len + 1), *top = t_mkdtemp("ibvt-long");
	size_t n, at;

	T_CHECK(path);
	strcpy(path, top);
	free(top);
	for (at = strlen(path); at < len; at += n + 1) {
		n = len - at - 1 > 200 ? 200 : len - at - 1;
		/* A last component of one byte could come out empty. */
		if (len - at - 1 - n == 1)
			n--;
		path[at] = '/';
		memset(path + at + 1, 'd', n);
		path[at + 1 + n] = '\0';
		T_CHECK(!mkdir(path, 0755));
	}
	T_CHECK(strlen(path) == len);
	free(root); /* the tree t_fake_kernel() made is not used */
	root = path;
	T_CHECK(!mkdir(in_root("class"), 0755));
	T_CHECK(!mkdir(in_root("class/infiniband"), 0755));
	T_CHECK(!mkdir(in_root("class/infiniband_verbs"), 0755));
	t_write(in_root("class/infiniband_verbs/abi_version"), "6\n");
	setenv("SYSFS_PATH", root, 1);
	return root;
}

static void check_paths(struct ibv_device *dev, const char *uverbs,
			const char *ibdev)
{
	T_CHECK(!strcmp(dev->dev_path,
			in_root("class/infiniband_verbs/%s", uverbs)));
	T_CHECK(!strcmp(dev->ibdev_path,
			in_root("class/infiniband/%s", ibdev)));
}

/* Paths of exactly 255 bytes fit struct ibv_device; rdma-core agrees. */
static int sc_root_fits(void *arg)
{
	struct ibv_device **list;

	if (!setup_tree(true))
		return T_SKIP;
	/* 224 + strlen("/class/infiniband_verbs/uverbs0") == 255 */
	long_root(224);
	t_sysfs_add(root, &T_DEV(0));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(strlen(list[0]->dev_path) == 255);
	check_paths(list[0], "uverbs0", "tprov0");
	ibv_free_device_list(list);
	return 0;
}

/*
 * Ours only (rdma-core cuts the paths short): a device whose dev_path
 * would not fit in IBV_SYSFS_PATH_MAX is skipped, and the log says so.
 */
static int sc_dev_path_too_long(void *arg)
{
	char *err;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	setenv("VERBS_LOG_LEVEL", "2", 1);
	long_root(225); /* dev_path: 256 bytes */
	t_sysfs_add(root, &T_DEV(0));
	T_CHECK(list_capturing(&err) == 0);
	T_CHECK(strstr(err, "uverbs0: its sysfs path"));
	T_CHECK(strstr(err, in_root("class/infiniband_verbs/uverbs0")));
	T_CHECK(strstr(err, "over 255 bytes"));
	free(err);
	return 0;
}

/* Ours only, as above, for the ibdev_path that a long name makes. */
static int sc_ibdev_path_too_long(void *arg)
{
	struct ibv_device **list;
	char name[64], *err;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	setenv("VERBS_LOG_LEVEL", "2", 1);
	long_root(200);
	/* 200 + strlen("/class/infiniband/") + 38 == 256 */
	memset(name, 'x', 38);
	memcpy(name, "tprov", 5);
	name[38] = '\0';
	t_sysfs_add(root, &T_DEV(0, .ibdev = name));
	T_CHECK(list_capturing(&err) == 0);
	T_CHECK(strstr(err, in_root("class/infiniband/%s", name)));
	T_CHECK(strstr(err, "over 255 bytes"));
	free(err);
	/* One byte shorter, it is listed. */
	t_sysfs_del(root, &T_DEV(0, .ibdev = name));
	name[37] = '\0';
	t_sysfs_add(root, &T_DEV(1, .ibdev = name));
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	check_paths(list[0], "uverbs1", name);
	ibv_free_device_list(list);
	return 0;
}

/*
 * Ours only: a SYSFS_PATH longer than 255 bytes can hold no device that
 * struct ibv_device could describe. Rather than read /sys, which the
 * caller did not ask for, the library lists nothing: ENAMETOOLONG.
 * rdma-core 44 cuts the value to 256 bytes and reads that tree.
 */
static int sc_sysfs_path_too_long(void *arg)
{
	size_t len = (size_t)arg;
	struct ibv_device **list;
	char *value, *err;

	if (t_reference())
		return T_SKIP;
	if (!setup_tree(true))
		return T_SKIP;
	setenv("VERBS_LOG_LEVEL", "1", 1);
	if (len < PATH_MAX) {
		long_root(len);
		t_sysfs_add(root, &T_DEV(0));
	} else {
		free(root);
		root = malloc(len + 1);
		T_CHECK(root);
		memset(root, 'a', len);
		root[len] = '\0';
		memcpy(root, "/tmp/", 5);
	}
	value = malloc(len + 3);
	T_CHECK(value);
	strcpy(value, root);
	strcat(value, "//");
	setenv("SYSFS_PATH", value, 1);
	T_CHECK(!strcmp(ibv_get_sysfs_path(), len < PATH_MAX ? root : ""));
	err = t_capture_stderr(t_list_once, NULL);
	T_CHECK(strstr(err, "SYSFS_PATH"));
	T_CHECK(strstr(err, root));
	errno = 0;
	list = ibv_get_device_list(NULL);
	T_CHECK(list == NULL && errno == ENAMETOOLONG);
	free(err);
	free(value);
	return 0;
}

static void test_node_type(void **state)
{
	t_scenario(sc_node_type, *state);
}

static void test_sysfs_fifo(void **state)
{
	t_scenario(sc_sysfs_fifo, *state);
}

static void test_read_sysfs_fifo(void **state)
{
	t_scenario(sc_read_sysfs_fifo, NULL);
}

static void test_config_fifo(void **state)
{
	t_scenario(sc_config_fifo, NULL);
}

static void test_config_size(void **state)
{
	t_scenario(sc_config_size, NULL);
}

static void test_config_symlink(void **state)
{
	t_scenario(sc_config_symlink, NULL);
}

static void test_config_bad_links(void **state)
{
	t_scenario(sc_config_bad_links, NULL);
}

static void test_env_name_truncated(void **state)
{
	t_scenario(sc_name_truncated, (void *)(long)FROM_ENV);
}

static void test_config_name_truncated(void **state)
{
	t_scenario(sc_name_truncated, (void *)(long)FROM_CONFIG);
}

static void test_env_name_too_long(void **state)
{
	t_scenario(sc_name_too_long, (void *)(long)FROM_ENV);
}

static void test_config_name_too_long(void **state)
{
	t_scenario(sc_name_too_long, (void *)(long)FROM_CONFIG);
}

static void test_root_fits(void **state)
{
	t_scenario(sc_root_fits, NULL);
}

static void test_dev_path_too_long(void **state)
{
	t_scenario(sc_dev_path_too_long, NULL);
}

static void test_ibdev_path_too_long(void **state)
{
	t_scenario(sc_ibdev_path_too_long, NULL);
}

static void test_sysfs_path_too_long(void **state)
{
	t_scenario(sc_sysfs_path_too_long, (void *)(size_t)256);
}

static void test_sysfs_path_beyond_path_max(void **state)
{
	t_scenario(sc_sysfs_path_too_long, (void *)(size_t)PATH_MAX);
}

#define FIFO_TEST(name, i)                                                \
	{                                                                 \
		name, test_sysfs_fifo, NULL, NULL, (void *)&fifo_cases[i] \
	}

#define NODE_TEST(name, i)                                        \
	{                                                         \
		name, test_node_type, NULL, NULL,                 \
			(void *)&node_cases[i] /* cmocka state */ \
	}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NODE_TEST("node_type_0", 0),
		NODE_TEST("node_type_8", 1),
		NODE_TEST("node_type_42", 2),
		NODE_TEST("node_type_garbage", 3),
		NODE_TEST("node_type_missing", 4),
		NODE_TEST("node_type_ca", 5),
		NODE_TEST("node_type_switch", 6),
		NODE_TEST("node_type_router", 7),
		NODE_TEST("node_type_rnic", 8),
		NODE_TEST("node_type_usnic", 9),
		NODE_TEST("node_type_usnic_udp", 10),
		NODE_TEST("node_type_unspecified", 11),
		NODE_TEST("node_type_2_to_the_32_plus_1", 12),
		FIFO_TEST("fifo_abi_version", 0),
		FIFO_TEST("fifo_ibdev", 1),
		FIFO_TEST("fifo_dev", 2),
		FIFO_TEST("fifo_device_abi_version", 3),
		FIFO_TEST("fifo_node_type", 4),
		FIFO_TEST("fifo_node_guid", 5),
		FIFO_TEST("fifo_modalias", 6),
		cmocka_unit_test(test_read_sysfs_fifo),
		cmocka_unit_test(test_config_fifo),
		cmocka_unit_test(test_config_size),
		cmocka_unit_test(test_config_symlink),
		cmocka_unit_test(test_config_bad_links),
		cmocka_unit_test(test_env_name_truncated),
		cmocka_unit_test(test_config_name_truncated),
		cmocka_unit_test(test_env_name_too_long),
		cmocka_unit_test(test_config_name_too_long),
		cmocka_unit_test(test_root_fits),
		cmocka_unit_test(test_dev_path_too_long),
		cmocka_unit_test(test_ibdev_path_too_long),
		cmocka_unit_test(test_sysfs_path_too_long),
		cmocka_unit_test(test_sysfs_path_beyond_path_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
