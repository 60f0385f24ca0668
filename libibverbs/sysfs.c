// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reading the small text files the kernel publishes under /sys: the sysfs
 * root (SYSFS_PATH), and attribute reads that never block and never
 * overflow, for discovery (discover.c, drivers.c) and for providers
 * (ibv_read_sysfs_file(), ibv_read_ibdev_sysfs_file()). A hostile tree
 * may put a FIFO or a directory where an attribute belongs; such a file
 * is refused. Whatever the tree, an attribute that reads as text costs
 * open, read and close, no fstat: only a read that gave nothing usable
 * asks what the file is.
 */
#include <stdio.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "driver.h"
#include "env.h"
#include "export.h"
#include "log.h"
#include "sysfs.h"

static char sysfs_path[PATH_MAX];
/* SYSFS_PATH is too long to name a directory; sysfs_path is "". */
static bool sysfs_path_unusable;
/* The root is a mount of the kernel's sysfs, not a tree of files. */
static bool sysfs_path_kernel;
static pthread_once_t sysfs_once = PTHREAD_ONCE_INIT;

#ifndef SYSFS_MAGIC
#define SYSFS_MAGIC 0x62656572
#endif

/*
 * A SYSFS_PATH that does not fit is never cut short or replaced by /sys:
 * either would read a tree the caller did not choose.
 */
static void sysfs_path_init(void)
{
	const char *env = env_get(ENV_SYSFS_PATH);

	struct statfs fs;
	size_t len;

	strcpy(sysfs_path, "/sys");
	if (env && *env) {
		len = strlen(env);
		while (len > 1 && env[len - 1] == '/')
			len--;
		if (len >= sizeof(sysfs_path)) {
			sysfs_path[0] = '\0';
			sysfs_path_unusable = true;
			return;
		}
		memcpy(sysfs_path, env, len);
		sysfs_path[len] = '\0';
	}
	sysfs_path_kernel = !statfs(sysfs_path, &fs) &&
			    fs.f_type == SYSFS_MAGIC;
}

/**
 * ibv_get_sysfs_path - the root of the sysfs tree the library reads
 *
 * $SYSFS_PATH without trailing slashes when set (and the program is not
 * setuid), otherwise "/sys"; "" when $SYSFS_PATH is PATH_MAX bytes or
 * longer. Fixed for the life of the process.
 */
IBV_EXPORT const char *ibv_get_sysfs_path(void)
{
	pthread_once(&sysfs_once, sysfs_path_init);
	return sysfs_path;
}

/*
 * Every device path starts with the root and must fit the 256-byte paths
 * of struct ibv_device, so a longer root can hold no device: ENAMETOOLONG,
 * rather than a list from another tree.
 */
int sysfs_root_check(void)
{
	const char *root = ibv_get_sysfs_path();

	if (!sysfs_path_unusable && strlen(root) < IBV_SYSFS_PATH_MAX)
		return 0;
	ibv_log_err(
		"SYSFS_PATH %s is longer than %d bytes, too long for the path of any device below it; listing no device",
		env_get(ENV_SYSFS_PATH), IBV_SYSFS_PATH_MAX - 1);
	return ENAMETOOLONG;
}

/* What a file is, for messages about the files we refuse to read. */
const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "regular file";
	case S_IFDIR:
		return "directory";
	case S_IFIFO:
		return "FIFO";
	case S_IFSOCK:
		return "socket";
	case S_IFCHR:
		return "character device";
	case S_IFBLK:
		return "block device";
	default:
		return "special file";
	}
}

/*
 * Whether the attribute @fd, whose read gave nothing usable, is a regular
 * file after all; if not, says what it is and sets errno (EISDIR for a
 * directory, EINVAL for a FIFO, device node or socket).
 */
static bool attr_is_file(int fd, const char *file)
{
	struct stat st;

	if (fstat(fd, &st) || S_ISREG(st.st_mode))
		return true;
	ibv_log_warn("not reading sysfs attribute %s: it is a %s", file,
		     file_kind(st.st_mode));
	errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	return false;
}

/*
 * One read() is enough for sysfs attributes, which the kernel produces in
 * a single page. A trailing newline is dropped; content that fills @buf
 * without one cannot be terminated and is an error.
 *
 * An attribute is always a regular file, but a tree SYSFS_PATH points at
 * may hold a FIFO, a device node or a directory in its place. The open
 * does not wait, so neither does the read: a FIFO reads as empty (no
 * writer) or EAGAIN, a directory as EISDIR, a device node fills @buf
 * without a newline. Only such a read asks what the file is, and a file
 * that is not regular is refused; a read that gave text costs no fstat,
 * and in the kernel's own sysfs (@kernel_tree) nothing else is met.
 */
static int read_attr(int dirfd, const char *file, char *buf, size_t size,
		     bool kernel_tree)
{
	ssize_t len;
	int fd, ret, err;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size);
	ret = len < 0 ? -1 : sysfs_attr_text(buf, len, size);
	err = errno;
	if (ret <= 0 && !kernel_tree && !attr_is_file(fd, file)) {
		ret = -1;
		err = errno;
	}
	close(fd);
	errno = err;
	return ret;
}

int ibv_read_sysfs_file_at(int dirfd, const char *file, char *buf, size_t size)
{
	return read_attr(dirfd, file, buf, size, false);
}

/*
 * What one read() of @len bytes leaves in @buf (@size bytes): the text
 * without its newline, NUL-terminated; its length, or -1 with EOVERFLOW.
 * Apart from ibv_read_sysfs_file_at() so that fuzz/ can feed it.
 */
int sysfs_attr_text(char *buf, size_t len, size_t size)
{
	if (len > 0 && buf[len - 1] == '\n') {
		buf[--len] = '\0';
	} else if (len < size) {
		buf[len] = '\0';
	} else {
		errno = EOVERFLOW;
		return -1;
	}
	return (int)len;
}

/* @file in @dir; @kernel_tree: both are in the kernel's sysfs. */
static int read_in_dir(const char *dir, const char *file, char *buf,
		       size_t size, bool kernel_tree)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return read_attr(AT_FDCWD, path, buf, size, kernel_tree);
}

/**
 * ibv_read_sysfs_file - read a sysfs attribute into @buf
 * @dir: directory holding the attribute
 * @file: attribute name, relative to @dir
 * @buf: destination, NUL-terminated on success
 * @size: size of @buf
 *
 * Returns the length read without the trailing newline, or -1 with errno
 * (EINVAL for a FIFO, socket or device node, EISDIR for a directory).
 */
IBV_EXPORT int ibv_read_sysfs_file(const char *dir, const char *file, char *buf,
				   size_t size)
{
	if (!dir || !file || !buf) {
		errno = EINVAL;
		return -1;
	}
	return read_in_dir(dir, file, buf, size, false);
}

/**
 * ibv_read_ibdev_sysfs_file - read an attribute of a device's ib directory
 * @buf: destination
 * @size: size of @buf
 * @sysfs_dev: the device, whose ibdev_path is the base directory
 * @fnfmt: printf format of the path below that directory
 */
IBV_EXPORT int ibv_read_ibdev_sysfs_file(char *buf, size_t size,
					 struct verbs_sysfs_dev *sysfs_dev,
					 const char *fnfmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;
	int n;

	if (!sysfs_dev || !fnfmt) {
		errno = EINVAL;
		return -1;
	}
	va_start(ap, fnfmt);
	n = vsnprintf(rel, sizeof(rel), fnfmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/*
	 * Discovery put the device's directory below the root, and the
	 * provider's format names an attribute in it.
	 */
	ibv_get_sysfs_path();
	return read_in_dir(sysfs_dev->ibdev_path, rel, buf, size,
			   sysfs_path_kernel);
}
VERBS_PRIVATE_EXPORT(ibv_read_ibdev_sysfs_file);

int sysfs_read_u64(int dirfd, const char *file, int base, uint64_t *val)
{
	char buf[32];
	int len;

	len = ibv_read_sysfs_file_at(dirfd, file, buf, sizeof(buf));
	if (len < 0)
		return errno;
	if (len == 0)
		return EINVAL;
	return sysfs_parse_u64(buf, base, val);
}

/*
 * A number as the kernel prints it: digits first (no sign, no blank);
 * what follows them is ignored ("6\n", "4: ACTIVE").
 */
int sysfs_parse_u64(const char *buf, int base, uint64_t *val)
{
	char *end;

	if (!isxdigit((unsigned char)buf[0]) ||
	    (base == 10 && !isdigit((unsigned char)buf[0])))
		return EINVAL;
	errno = 0;
	*val = strtoull(buf, &end, base);
	if (errno || end == buf)
		return EINVAL;
	return 0;
}
