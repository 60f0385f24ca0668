// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers of the fork-tracker tests, on this host and in the VM. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel-headers/procmap_query.h"
#include "t_fork.h"

bool t_kernel_has_procmap(void)
{
	struct procmap_query q = { .size = sizeof(q) };
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	int ret;

	q.query_addr = (uintptr_t)&q;
	ret = ioctl(fd, PROCMAP_QUERY, &q);
	close(fd);
	return ret == 0;
}

/* Our descriptor on /proc/<pid>/maps, found through /proc/self/fd. */
int t_find_maps_fd(void)
{
	char path[300], target[PATH_MAX], want[64];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int found = -1;
	ssize_t n;

	snprintf(want, sizeof(want), "/proc/%d/maps", (int)getpid());
	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (!strcmp(target, want))
			found = atoi(d->d_name);
	}
	if (dir)
		closedir(dir);
	return found;
}

bool t_mapped(const void *addr, size_t unit)
{
	unsigned char vec[512];

	return mincore((void *)addr, unit, vec) == 0;
}

/*
 * What a fork()ed child sees of @n units of @unit bytes from @buf: '.' for
 * a unit it has, 'X' for one it lacks (kept from it, or unmapped).
 */
bool t_view_units(const char *buf, size_t n, size_t unit, char *out)
{
	int fds[2], status;
	pid_t pid;
	size_t i;
	bool ok;

	if (pipe(fds))
		return false;
	pid = fork();
	if (!pid) {
		for (i = 0; i < n; i++)
			out[i] = t_mapped(buf + i * unit, unit) ? '.' : 'X';
		_exit(write(fds[1], out, n) == (ssize_t)n ? 0 : 1);
	}
	close(fds[1]);
	ok = pid > 0 && read(fds[0], out, n) == (ssize_t)n;
	out[ok ? n : 0] = 0;
	close(fds[0]);
	if (pid > 0)
		ok = waitpid(pid, &status, 0) == pid && ok && status == 0;
	return ok;
}

/* How a child that reads one byte at @addr ends: exit code or 128 + signal. */
int t_child_read(const char *addr, char expect)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		/* Sanitizer runtimes catch SIGSEGV; we want to die of it. */
		sigaction(SIGSEGV, &sa, NULL);
		_exit(*(volatile const char *)addr == expect ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Huge pages: reserve two when we may, and put the old count back. */
size_t t_huge_size(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

long t_sysctl(const char *path, long set)
{
	FILE *f = fopen(path, set < 0 ? "re" : "we");
	long v = -1;

	if (!f)
		return -1;
	if (set < 0 && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (set >= 0)
		v = fprintf(f, "%ld\n", set) > 0 ? set : -1;
	if (fclose(f))
		v = -1;
	return v;
}
