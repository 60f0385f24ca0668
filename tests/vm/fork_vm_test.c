// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker on the VM tier's Linux 6.1 guest (tests/vm/run), where
 * two things differ from a current host:
 *  - ib_core is loaded, so the kernel answers RDMA netlink and reports
 *    copy-on-fork: ibv_is_fork_initialized() must say IBV_FORK_UNNEEDED;
 *  - there is no PROCMAP_QUERY (Linux 6.11), so huge-page detection must
 *    fall back to /proc/self/smaps.
 * Like tests/fork_test.c it links memory.c itself to read the counters of
 * memory.h. Exits 77 with a reason where neither applies (e.g. the host).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>

#include <setjmp.h>
#include <cmocka.h>

#include <infiniband/verbs.h>

#include "kernel-headers/procmap_query.h"
#include "memory.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_HUGE "/proc/sys/vm/nr_hugepages"

static size_t t_ps;
static enum ibv_fork_status status_before_init;

static bool t_rdma_netlink(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool t_kernel_has_procmap(void)
{
	struct procmap_query q = { .size = sizeof(q) };
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	int ret;

	q.query_addr = (uintptr_t)&q;
	ret = ioctl(fd, PROCMAP_QUERY, &q);
	close(fd);
	return ret == 0;
}

/* Whether any descriptor of ours is open on /proc/<pid>/maps. */
static bool t_holds_maps_fd(void)
{
	char path[300], target[PATH_MAX], want[64];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	bool found = false;
	ssize_t n;

	snprintf(want, sizeof(want), "/proc/%d/maps", (int)getpid());
	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		found |= !strcmp(target, want);
	}
	if (dir)
		closedir(dir);
	return found;
}

static bool t_mapped(const void *addr, size_t unit)
{
	unsigned char vec[512];

	return mincore((void *)addr, unit, vec) == 0;
}

/* What a fork()ed child sees of @n units: '.' present, 'X' missing. */
static void t_view(const char *buf, size_t n, size_t unit, char *out)
{
	int fds[2];
	pid_t pid;
	size_t i;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		for (i = 0; i < n; i++)
			out[i] = t_mapped(buf + i * unit, unit) ? '.' : 'X';
		_exit(write(fds[1], out, n) == (ssize_t)n ? 0 : 1);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], out, n), (ssize_t)n);
	out[n] = 0;
	close(fds[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/* Exit code of a child reading @addr, or 128 + the signal that killed it. */
static int t_child_read(const char *addr)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	int status;
	pid_t pid = fork();

	if (!pid) {
		sigaction(SIGSEGV, &sa, NULL);
		_exit(*(volatile const char *)addr == 1 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
				     WEXITSTATUS(status);
}

/* Make socket(AF_NETLINK, ...) fail with EACCES in this process. */
static int t_deny_netlink(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
#if defined(__x86_64__)
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_AARCH64, 1, 0),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(f), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return errno;
	return 0;
#else
	return EOPNOTSUPP;
#endif
}

static void test_copy_on_fork(void **state)
{
	int status;
	pid_t pid;

	if (!t_rdma_netlink()) {
		printf("no RDMA netlink here (ib_core not loaded)\n");
		skip();
	}
	assert_int_equal(status_before_init, IBV_FORK_UNNEEDED);
	/* It takes precedence over an initialised tracker. */
	assert_true(verbs_fork_enabled());
	assert_int_equal(ibv_is_fork_initialized(), IBV_FORK_UNNEEDED);
	/* The answer is kept: a process that can no longer ask still knows. */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (t_deny_netlink())
			_exit(77);
		if (t_rdma_netlink())
			_exit(2);
		_exit(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		printf("seccomp unavailable; caching not checked\n");
		return;
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void t_require_smaps_kernel(void)
{
	if (t_kernel_has_procmap()) {
		printf("this kernel has PROCMAP_QUERY; the fallback is for older ones\n");
		skip();
	}
}

/* Base pages: the tracker works, and every look-up went through smaps. */
static void test_smaps_fallback(void **state)
{
	struct verbs_fork_stats st;
	char *p = mmap(NULL, 3 * t_ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char view[4];

	t_require_smaps_kernel();
	assert_true(p != MAP_FAILED);
	memset(p, 1, 3 * t_ps);
	assert_int_equal(verbs_fork_page_size(p + t_ps), t_ps);
	assert_int_equal(ibv_dontfork_range(p + t_ps + 9, 100), 0);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 1);
	t_view(p, 3, t_ps, view);
	assert_string_equal(view, ".X.");
	assert_int_equal(t_child_read(p + t_ps), 128 + SIGSEGV);
	assert_int_equal(ibv_dofork_range(p + t_ps + 9, 100), 0);
	t_view(p, 3, t_ps, view);
	assert_string_equal(view, "...");
	verbs_fork_get_stats(&st);
	assert_int_equal(st.procmap_queries, 0);
	assert_true(st.smaps_scans >= 3);
	/* PROCMAP_QUERY was tried once at most, and not kept open. */
	assert_true(st.maps_opens <= 1);
	assert_false(t_holds_maps_fd());
	munmap(p, 3 * t_ps);
}

static size_t t_huge_size(void)
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

static long t_nr_huge(long set)
{
	FILE *f = fopen(NR_HUGE, set < 0 ? "re" : "we");
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

static void t_hugetlb_checks(char *h, size_t huge)
{
	char view[3];

	assert_int_equal(verbs_fork_page_size(h + 5), huge);
	assert_int_equal(ibv_dontfork_range(h + t_ps, 10), 0);
	assert_int_equal(verbs_fork_refcount(h), 1);
	assert_int_equal(verbs_fork_refcount(h + huge - 1), 1);
	assert_int_equal(verbs_fork_refcount(h + huge), 0);
	t_view(h, 2, huge, view);
	assert_string_equal(view, "X.");
	assert_int_equal(t_child_read(h + 2 * t_ps), 128 + SIGSEGV);
	assert_int_equal(t_child_read(h + huge), 0);
	assert_int_equal(ibv_dofork_range(h + t_ps, 10), 0);
	t_view(h, 2, huge, view);
	assert_string_equal(view, "..");
}

/* Huge pages found through smaps, rounded and advised as whole pages. */
static void test_smaps_hugetlb(void **state)
{
	struct verbs_fork_stats st;
	size_t huge = t_huge_size();
	long old = t_nr_huge(-1);
	char *h;

	t_require_smaps_kernel();
	if (!huge || old < 0 || geteuid() || t_nr_huge(old + 2) < 0) {
		printf("cannot reserve huge pages (needs root and " NR_HUGE
		       ")\n");
		skip();
	}
	h = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (h == MAP_FAILED) {
		t_nr_huge(old);
		printf("MAP_HUGETLB failed: %s\n", strerror(errno));
		skip();
	}
	memset(h, 1, 2 * huge);
	t_hugetlb_checks(h, huge);
	munmap(h, 2 * huge);
	t_nr_huge(old);
	verbs_fork_get_stats(&st);
	assert_int_equal(st.procmap_queries, 0);
	assert_true(st.smaps_scans > 0);
	assert_int_equal(st.nodes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_on_fork),
		cmocka_unit_test(test_smaps_fallback),
		cmocka_unit_test(test_smaps_hugetlb),
	};
	int ret;

	t_ps = sysconf(_SC_PAGESIZE);
	if (!t_rdma_netlink() && t_kernel_has_procmap()) {
		printf("neither RDMA netlink nor a kernel without PROCMAP_QUERY: run this in the VM (tests/vm/run)\n");
		return 77;
	}
	/* The huge-page look-up runs on every call only with this set. */
	setenv("RDMAV_HUGEPAGES_SAFE", "1", 1);
	status_before_init = ibv_is_fork_initialized();
	ret = ibv_fork_init();
	if (ret) {
		printf("ibv_fork_init: %s\n", strerror(ret));
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
