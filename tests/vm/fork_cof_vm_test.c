// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fork safety requested on a kernel that copies pinned pages into fork()
 * children (the VM tier's Linux 6.1), through the library as a program
 * uses it: RDMAV_FORK_SAFE=1, then one-page registrations on rxe0, each
 * with an unregistered page on both sides, with vm.max_map_count lowered
 * to leave room for ROOM more mappings than the process has.
 *
 *   fork_cof_vm_test unneeded
 *       Our library: all REGS registrations succeed, the process gains no
 *       mapping, and a fork()ed child reads every registered page.
 *   fork_cof_vm_test tracked
 *       A library that tracks pages regardless (rdma-core 44): a
 *       registration fails once the split mappings reach the limit, and
 *       the child dies reading a registered page. This proves
 *       the test bed: the limit bites and the child would see the loss.
 *
 * Runs as root inside the test VM (tests/vm/fork_cof); exits 77 elsewhere.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "t_util.h"
#include "t_vm.h"

#define REGS 1000 /* registrations: 2000 mappings for a tracker */
#define ROOM 200 /* mappings allowed above those the process has */
#define MAP_COUNT "/proc/sys/vm/max_map_count"

static long map_count_limit = -1; /* the sysctl's value before the test */

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", v) > 0;
	return !fclose(f) && ok;
}

static void restore_limit(void)
{
	if (map_count_limit > 0)
		write_long(MAP_COUNT, map_count_limit);
}

static long mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	T_CHECK(f);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* A child reads the first byte of each of @n registered pages. */
static int child_reads(const char *buf, size_t ps, int n)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	T_CHECK(pid >= 0);
	if (!pid) {
		for (int i = 0; i < n; i++)
			if (buf[2 * i * ps + ps] != (char)(i % 251 + 1))
				_exit(1);
		_exit(0);
	}
	T_CHECK(waitpid(pid, &status, 0) == pid);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
				     WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *dev = getenv("IBV_VM_RXE");
	size_t ps = sysconf(_SC_PAGESIZE);
	static struct ibv_mr *mr[REGS];
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	long before, after;
	bool tracked;
	int n = 0, err = 0;
	char *buf;

	if (argc != 2 ||
	    (strcmp(argv[1], "unneeded") && strcmp(argv[1], "tracked"))) {
		fprintf(stderr, "usage: %s unneeded|tracked\n", argv[0]);
		return 2;
	}
	tracked = !strcmp(argv[1], "tracked");
	if (!getenv("IBV_VM") || geteuid()) {
		printf("runs as root in the test VM (tests/vm/run)\n");
		return 77;
	}
	setenv("RDMAV_FORK_SAFE", "1", 1);
	ctx = t_vm_open(dev ? dev : "rxe0");
	T_CHECK(ctx);
	/* Requested twice, by the variable and by the call: both succeed. */
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);
	pd = ibv_alloc_pd(ctx);
	T_CHECK(pd);

	/* Page 2i is a gap, page 2i + 1 registration i. */
	buf = mmap(NULL, 2 * REGS * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	T_CHECK(buf != MAP_FAILED);
	for (int i = 0; i < REGS; i++)
		memset(buf + 2 * i * ps + ps, i % 251 + 1, ps);

	before = mappings();
	map_count_limit = read_long(MAP_COUNT);
	T_CHECK(map_count_limit > before + ROOM);
	atexit(restore_limit);
	T_CHECK(write_long(MAP_COUNT, before + ROOM));
	for (; n < REGS; n++) {
		mr[n] = ibv_reg_mr(pd, buf + 2 * n * ps + ps, ps,
				   IBV_ACCESS_LOCAL_WRITE);
		if (!mr[n]) {
			err = errno;
			break;
		}
	}
	after = mappings();
	printf("%s: %d of %d registrations (%s), mappings %ld -> %ld (limit %ld)\n",
	       argv[1], n, REGS, n < REGS ? strerror(err) : "all", before,
	       after, before + ROOM);

	if (tracked) {
		/* rdma-core 44 reports madvise()'s failure as it comes. */
		T_CHECK(n < REGS && after >= before + ROOM - 2);
		T_CHECK(child_reads(buf, ps, n) == 128 + SIGSEGV);
	} else {
		T_CHECK(n == REGS);
		T_CHECK(after <= before + 2); /* the library's own, at most */
		T_CHECK(child_reads(buf, ps, n) == 0);
	}
	while (n--)
		T_CHECK(ibv_dereg_mr(mr[n]) == 0);
	restore_limit();
	T_CHECK(ibv_dealloc_pd(pd) == 0);
	T_CHECK(ibv_close_device(ctx) == 0);
	munmap(buf, 2 * REGS * ps);
	printf("%s: ok\n", argv[1]);
	return 0;
}
