// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker on the VM tier's Linux 6.1 guest (tests/vm/run), where
 * two things differ from a current host:
 *  - ib_core is loaded, so the kernel answers RDMA netlink and reports
 *    copy-on-fork: ibv_is_fork_initialized() must say IBV_FORK_UNNEEDED
 *    and ibv_fork_init() must leave the tracker off (checked in a child
 *    first; the tracker's tests then run with RDMA netlink hidden);
 *  - there is no PROCMAP_QUERY (Linux 6.11), so huge-page detection must
 *    fall back to /proc/self/smaps.
 * Like tests/fork_test.c it links the tracker's sources itself to read the
 * counters of fork.h. Exits 77 with a reason where neither applies (e.g. the host).
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
#include "libibverbs/fork.h"
#include "t_fork.h"
#include "t_seccomp.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_HUGE "/proc/sys/vm/nr_hugepages"

static size_t t_ps;
static bool netlink; /* the kernel answers RDMA netlink */
static int cof_child; /* t_copy_on_fork_child()'s status */

/* What a fork()ed child sees of @n units: '.' present, 'X' missing. */
static void t_view(const char *buf, size_t n, size_t unit, char *out)
{
	assert_true(t_view_units(buf, n, unit, out));
}

/*
 * In a child forked before this process asked the kernel anything: the
 * kernel says it copies on fork, so fork safety is there without the
 * tracker, and the answer is kept once the child can no longer ask.
 * Returns the child's exit status (77: no seccomp to hide netlink).
 */
static int t_copy_on_fork_child(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		if (ibv_is_fork_initialized() != IBV_FORK_UNNEEDED)
			_exit(1);
		if (ibv_fork_init() || verbs_fork_enabled())
			_exit(2);
		if (t_seccomp_deny(SYS_socket, 0, AF_NETLINK, -1, 0, EACCES))
			_exit(77);
		if (t_rdma_netlink())
			_exit(3);
		_exit(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED ? 0 : 4);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_copy_on_fork(void **state)
{
	if (!netlink) {
		printf("no RDMA netlink here (ib_core not loaded)\n");
		skip();
	}
	if (cof_child == 77) {
		printf("seccomp unavailable; caching not checked\n");
		return;
	}
	assert_int_equal(cof_child, 0);
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
	assert_int_equal(t_child_read(p + t_ps, 1), 128 + SIGSEGV);
	assert_int_equal(ibv_dofork_range(p + t_ps + 9, 100), 0);
	t_view(p, 3, t_ps, view);
	assert_string_equal(view, "...");
	verbs_fork_get_stats(&st);
	assert_int_equal(st.procmap_queries, 0);
	assert_true(st.smaps_scans >= 3);
	/* PROCMAP_QUERY was tried once at most, and not kept open. */
	assert_true(st.maps_opens <= 1);
	assert_false(t_find_maps_fd() >= 0);
	munmap(p, 3 * t_ps);
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
	assert_int_equal(t_child_read(h + 2 * t_ps, 1), 128 + SIGSEGV);
	assert_int_equal(t_child_read(h + huge, 1), 0);
	assert_int_equal(ibv_dofork_range(h + t_ps, 10), 0);
	t_view(h, 2, huge, view);
	assert_string_equal(view, "..");
}

/* Huge pages found through smaps, rounded and advised as whole pages. */
static void test_smaps_hugetlb(void **state)
{
	struct verbs_fork_stats st;
	size_t huge = t_huge_size();
	long old = t_sysctl(NR_HUGE, -1);
	char *h;

	t_require_smaps_kernel();
	if (!huge || old < 0 || geteuid() || t_sysctl(NR_HUGE, old + 2) < 0) {
		printf("cannot reserve huge pages (needs root and " NR_HUGE
		       ")\n");
		skip();
	}
	h = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (h == MAP_FAILED) {
		t_sysctl(NR_HUGE, old);
		printf("MAP_HUGETLB failed: %s\n", strerror(errno));
		skip();
	}
	memset(h, 1, 2 * huge);
	t_hugetlb_checks(h, huge);
	munmap(h, 2 * huge);
	t_sysctl(NR_HUGE, old);
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
	netlink = t_rdma_netlink();
	if (netlink)
		cof_child = t_copy_on_fork_child();
	/*
	 * The tracker's own tests need a kernel that does not say it copies
	 * on fork, or ibv_fork_init() leaves the tracker off.
	 */
	if (t_hide_rdma_netlink() && t_rdma_netlink()) {
		printf("cannot hide RDMA netlink from the tracker\n");
		return 1;
	}
	/* The huge-page look-up runs on every call only with this set. */
	setenv("RDMAV_HUGEPAGES_SAFE", "1", 1);
	ret = ibv_fork_init();
	if (ret || !verbs_fork_enabled()) {
		printf("ibv_fork_init: %s\n", strerror(ret));
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
