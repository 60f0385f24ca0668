// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * device_list_bench's fake system, what every child sees: a private mount
 * namespace, a tmpfs /dev with a uverbs node per device, the host's
 * provider list hidden, and a sysfs tree of many test-provider devices on
 * a tmpfs of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench_util.h"
#include "device_list_bench.h"

#define UVERBS_MAJOR 231

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die("mkdir %s: %s", path, strerror(errno));
}

/*
 * Formats a path into a PATH_MAX buffer; a tree that does not fit is an
 * error, not something to truncate.
 */
static void __attribute__((format(printf, 2, 3)))
path_fmt(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		die("path too long: %s...", buf);
}

/* Writes @dir/@name with printf-formatted content, as sysfs shows it. */
static void __attribute__((format(printf, 3, 4)))
put(const char *dir, const char *name, const char *fmt, ...)
{
	char path[PATH_MAX], text[128];
	va_list ap;
	int fd, len;

	va_start(ap, fmt);
	len = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	path_fmt(path, "%s/%s", dir, name);
	if (len < 0 || (size_t)len >= sizeof(text))
		die("%s: content too long", path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0 || write(fd, text, len) != len)
		die("write %s: %s", path, strerror(errno));
	close(fd);
}

static void make_link(const char *target, const char *path)
{
	if (symlink(target, path))
		die("symlink %s: %s", path, strerror(errno));
}

/*
 * A device as the kernel shows it: class/infiniband_verbs/uverbsN and
 * class/infiniband/tprovN are symlinks into devices/, so every lookup
 * through a class entry also resolves a link.
 */
static void linked_device(const char *root, unsigned int i, char *uv, char *ib)
{
	char dev[PATH_MAX], link[PATH_MAX], target[PATH_MAX];

	path_fmt(dev, "%s/devices/tprov%u", root, i);
	make_dir(dev);
	put(dev, "modalias", "tprov:%u\n", i);
	path_fmt(uv, "%s/infiniband_verbs", dev);
	make_dir(uv);
	path_fmt(uv, "%s/infiniband_verbs/uverbs%u", dev, i);
	make_dir(uv);
	path_fmt(ib, "%s/infiniband", dev);
	make_dir(ib);
	path_fmt(ib, "%s/infiniband/tprov%u", dev, i);
	make_dir(ib);
	path_fmt(target, "../../devices/tprov%u/infiniband_verbs/uverbs%u", i,
		 i);
	path_fmt(link, "%s/class/infiniband_verbs/uverbs%u", root, i);
	make_link(target, link);
	path_fmt(target, "../../devices/tprov%u/infiniband/tprov%u", i, i);
	path_fmt(link, "%s/class/infiniband/tprov%u", root, i);
	make_link(target, link);
	path_fmt(target, "../../../tprov%u", i);
	path_fmt(link, "%s/device", ib);
	make_link(target, link);
}

/* The layout the issue describes: plain directories under class/. */
static void plain_device(const char *root, unsigned int i, char *uv, char *ib)
{
	char dev[PATH_MAX];

	path_fmt(uv, "%s/class/infiniband_verbs/uverbs%u", root, i);
	make_dir(uv);
	path_fmt(ib, "%s/class/infiniband/tprov%u", root, i);
	make_dir(ib);
	path_fmt(dev, "%s/device", ib);
	make_dir(dev);
	put(dev, "modalias", "tprov:%u\n", i);
}

/* One uverbs entry and the ib device it names, with their attributes. */
static void fake_sysfs_device(const char *root, unsigned int i, bool links)
{
	char uv[PATH_MAX], ib[PATH_MAX];

	if (links)
		linked_device(root, i, uv, ib);
	else
		plain_device(root, i, uv, ib);
	put(uv, "ibdev", "tprov%u\n", i);
	put(uv, "dev", "%u:%u\n", UVERBS_MAJOR, i);
	put(uv, "abi_version", "1\n");
	put(ib, "node_type", "1: CA\n");
	put(ib, "node_guid", "0002:c903:0000:%04x\n", i & 0xffff);
}

static void fake_sysfs(const char *root, unsigned int devices, bool links)
{
	char dir[PATH_MAX];
	unsigned int i;

	path_fmt(dir, "%s/class", root);
	make_dir(dir);
	if (links) {
		path_fmt(dir, "%s/devices", root);
		make_dir(dir);
	}
	path_fmt(dir, "%s/class/infiniband", root);
	make_dir(dir);
	path_fmt(dir, "%s/class/infiniband_verbs", root);
	make_dir(dir);
	put(dir, "abi_version", "6\n");
	for (i = 0; i < devices; i++)
		fake_sysfs_device(root, i, links);
}

static void node(const char *path, unsigned int maj, unsigned int min)
{
	if (mknod(path, S_IFCHR | 0666, makedev(maj, min)))
		skip("mknod %s: %s", path, strerror(errno));
}

/*
 * Both libraries keep only devices whose /dev/infiniband node has the
 * number sysfs gives. Nothing is created in the host's /dev: a tmpfs
 * covers /dev in our private namespace and holds the nodes we need.
 */
static void fake_dev(unsigned int devices)
{
	char path[64];
	unsigned int i;

	if (mount("bench-dev", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC,
		  "mode=0755"))
		skip("cannot mount a tmpfs on /dev: %s", strerror(errno));
	node("/dev/null", 1, 3);
	node("/dev/zero", 1, 5);
	node("/dev/urandom", 1, 9);
	make_dir("/dev/infiniband");
	for (i = 0; i < devices; i++) {
		snprintf(path, sizeof(path), "/dev/infiniband/uverbs%u", i);
		node(path, UVERBS_MAJOR, i);
	}
}

/*
 * Both libraries also load every provider the host lists in its config
 * directory, and how many of those load (and how fast) depends on the
 * host, not on discovery. An empty directory over it, visible in our
 * namespace only, leaves just the test provider.
 */
static void hide_host_providers(void)
{
	struct stat st;

	if (stat(HOST_DRIVER_DIR, &st) || !S_ISDIR(st.st_mode))
		return;
	if (mount("bench-empty", HOST_DRIVER_DIR, "tmpfs",
		  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755"))
		skip("cannot mount an empty tmpfs on %s: %s", HOST_DRIVER_DIR,
		     strerror(errno));
}

static void enter_private_namespace(void)
{
	if (geteuid() != 0)
		skip("needs root: it mounts a private /dev with mknod()ed uverbs nodes in a new mount namespace");
	if (unshare(CLONE_NEWNS))
		skip("unshare(CLONE_NEWNS): %s", strerror(errno));
	/* Our mounts must not propagate back into the host. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL))
		skip("cannot make / private: %s", strerror(errno));
}

static char sysfs_root[PATH_MAX];

static void remove_sysfs_root(void)
{
	umount2(sysfs_root, MNT_DETACH);
	rmdir(sysfs_root);
}

/*
 * The tree lives on a tmpfs only our namespace sees; the host only sees an
 * empty directory, removed at exit.
 */
static void make_sysfs_root(unsigned int devices, bool links)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(sysfs_root, sizeof(sysfs_root), "%s/device_list_bench.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(sysfs_root))
		die("mkdtemp %s: %s", sysfs_root, strerror(errno));
	atexit(remove_sysfs_root);
	if (mount("bench-sysfs", sysfs_root, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755"))
		skip("cannot mount a tmpfs on %s: %s", sysfs_root,
		     strerror(errno));
	fake_sysfs(sysfs_root, devices, links);
}

const char *fake_system(const struct config *cf)
{
	enter_private_namespace();
	fake_dev(cf->devices);
	if (!cf->host_providers)
		hide_host_providers();
	make_sysfs_root(cf->devices, cf->sysfs_links);
	return sysfs_root;
}
