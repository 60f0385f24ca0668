// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider config files: a directory (IBV_CONFIG_DIR) of small text
 * files, each line "driver <name>", a comment or blank. Files are read
 * without blocking and within a size bound; a bad line is warned about
 * and skipped. The names go to the caller's add(), in the files' order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver_config.h"
#include "log.h"
#include "sysfs.h"

/* Far more than any list of provider names; bounds what one file costs. */
#define CONFIG_FILE_MAX (64 * 1024)

static void parse_config_line(struct config_reader *r, const char *dir,
			      const char *file, unsigned int lineno, char *line)
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
	if (r->add(name, rest - name)) {
		ibv_log_err("out of memory reading %s/%s", dir, file);
		r->short_of_memory = true;
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
void config_read_text(struct config_reader *r, const char *dir,
		      const char *file, char *buf, size_t len)
{
	unsigned int lineno = 0;
	char *line, *end;

	for (line = buf; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		if (!end)
			end = buf + len;
		*end = '\0';
		parse_config_line(r, dir, file, ++lineno, line);
	}
}

static void parse_config_file(struct config_reader *r, int dirfd,
			      const char *dir, const char *file)
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
		r->short_of_memory = true;
	if (ret == EFBIG)
		ibv_warn_user(
			"skipping driver config file %s/%s: it is larger than %d bytes",
			dir, file, CONFIG_FILE_MAX);
	else if (ret)
		ibv_warn_user("skipping driver config file %s/%s: %s", dir,
			      file, strerror(ret));
	else
		config_read_text(r, dir, file, buf, len);
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
int config_read_dir(struct config_reader *r, const char *dir)
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
			r->short_of_memory = true;
		return n;
	}
	for (i = 0; i < n; i++) {
		parse_config_file(r, dirfd, dir, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	close(dirfd);
	return 0;
}
