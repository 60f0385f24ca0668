// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Huge-page sizes for the fork tracker (fork_page_size.h). The kernel says
 * which page size a mapping uses in two places: the PROCMAP_QUERY ioctl on
 * /proc/self/maps (Linux 6.11), which answers for one address, and
 * /proc/self/smaps, which has to be read mapping by mapping up to the one
 * we want. The ioctl is tried first; a kernel that does not know it is
 * not asked again.
 *
 * Only called with RDMAV_HUGEPAGES_SAFE, under the tracker's lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel-headers/procmap_query.h"
#include "fork_page_size.h"

static enum verbs_fork_pgsz_source pgsz_source = VERBS_FORK_PGSZ_AUTO;
static bool procmap_unsupported;

/* Test counters; see struct verbs_fork_stats. */
static unsigned long procmap_queries;
static unsigned long smaps_scans;
static unsigned long maps_opens;

/* Our descriptor on /proc/self/maps for PROCMAP_QUERY, and whose it is. */
static int maps_fd = -1;
static pid_t maps_pid;
static dev_t maps_dev;
static ino_t maps_ino;

static bool maps_fd_is_ours(void)
{
	struct stat st;

	if (fstat(maps_fd, &st))
		return false;
	return st.st_dev == maps_dev && st.st_ino == maps_ino;
}

/*
 * A descriptor on /proc/self/maps stays bound to the address space it was
 * opened in, so a forked child must not reuse its parent's. And the
 * application may have closed ours and reused the number; the identity
 * check keeps us from sending the ioctl to some other file.
 */
static int get_maps_fd(void)
{
	struct stat st;
	bool ours = maps_fd >= 0 && maps_fd_is_ours();

	if (ours && maps_pid == getpid())
		return maps_fd;
	if (ours)
		close(maps_fd);
	maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (maps_fd < 0)
		return -1;
	if (fstat(maps_fd, &st)) {
		close(maps_fd);
		maps_fd = -1;
		return -1;
	}
	maps_pid = getpid();
	maps_dev = st.st_dev;
	maps_ino = st.st_ino;
	maps_opens++;
	return maps_fd;
}

static COLD int procmap_page_size(uintptr_t addr, size_t *size,
				  uintptr_t *vma_end)
{
	struct procmap_query q = { .size = sizeof(q), .query_addr = addr };
	int fd = get_maps_fd();

	if (fd < 0)
		return errno;
	if (ioctl(fd, PROCMAP_QUERY, &q)) {
		/* "Nothing mapped there" is an answer too. */
		if (errno == ENOENT)
			procmap_queries++;
		return errno;
	}
	procmap_queries++;
	*size = q.vma_page_size;
	*vma_end = q.vma_end;
	return 0;
}

/* Parse an smaps mapping line, "start-end perms ...". */
static bool vma_header(const char *line, uintptr_t *lo, uintptr_t *hi)
{
	unsigned long a, b;

	/* Field lines ("Size:", "KernelPageSize:", ...) start in upper case. */
	if (!((line[0] >= '0' && line[0] <= '9') ||
	      (line[0] >= 'a' && line[0] <= 'f')))
		return false;
	if (sscanf(line, "%lx-%lx ", &a, &b) != 2)
		return false;
	*lo = a;
	*hi = b;
	return true;
}

/* Kernels before 6.11 only say it in smaps, mapping by mapping. */
static COLD int smaps_page_size(uintptr_t addr, size_t *size,
				uintptr_t *vma_end)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char *line = NULL;
	size_t cap = 0;
	uintptr_t lo, hi;
	unsigned long kb;
	bool inside = false;
	int ret = ENOENT;

	smaps_scans++;
	if (!f)
		return errno;
	while (getline(&line, &cap, f) > 0) {
		if (vma_header(line, &lo, &hi)) {
			/* Mappings come in address order. */
			if (inside || lo > addr)
				break;
			inside = addr < hi;
			if (inside)
				*vma_end = hi;
		} else if (inside &&
			   sscanf(line, "KernelPageSize: %lu kB", &kb) == 1) {
			*size = kb * 1024;
			ret = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* A kernel before 6.11: stop asking, and stop holding the descriptor. */
static COLD void give_up_procmap(void)
{
	procmap_unsupported = true;
	if (maps_fd >= 0 && maps_fd_is_ours())
		close(maps_fd);
	maps_fd = -1;
}

COLD size_t page_size_lookup(uintptr_t addr, size_t base, uintptr_t *vma_end)
{
	size_t size = base;
	int ret;

	*vma_end = UINTPTR_MAX;
	if (pgsz_source == VERBS_FORK_PGSZ_AUTO && !procmap_unsupported) {
		ret = procmap_page_size(addr, &size, vma_end);
		if (!ret)
			return size;
		if (ret == ENOENT)
			return base;
		if (ret == ENOTTY)
			give_up_procmap();
	}
	if (smaps_page_size(addr, &size, vma_end))
		return base;
	return size;
}

void page_size_set_source(enum verbs_fork_pgsz_source src)
{
	pgsz_source = src;
}

void page_size_get_stats(struct verbs_fork_stats *stats)
{
	stats->procmap_queries = procmap_queries;
	stats->smaps_scans = smaps_scans;
	stats->maps_opens = maps_opens;
}
