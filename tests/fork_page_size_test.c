// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker's page sizes (libibverbs/fork_page_size.c), each case
 * in a fresh process: RDMAV_HUGEPAGES_SAFE turns the look-ups on, the
 * PROCMAP_QUERY ioctl and the smaps scan agree on every kind of mapping,
 * hugetlb mappings are tracked by whole huge pages, and a failed
 * dontfork over a hole undoes itself with page look-ups on.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "libibverbs/fork.h"
#include "t_fork.h"
#include "t_fork_tracker.h"
#include "t_util.h"

/* One dontfork/dofork pair, then print the look-up counters. */
static int mode_pgsz_counters(char **argv)
{
	struct verbs_fork_stats st;
	char *p = t_map(1);

	T_CHECK(p);
	if (argv[0] && !strcmp(argv[0], "late")) {
		/* Huge pages can be turned on by a later call. */
		T_CHECK(ibv_fork_init() == 0);
		setenv("RDMAV_HUGEPAGES_SAFE", "1", 1);
	}
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(ibv_dontfork_range(p, 1) == 0);
	T_CHECK(ibv_dofork_range(p, 1) == 0);
	verbs_fork_get_stats(&st);
	printf("lookups=%lu\n", st.procmap_queries + st.smaps_scans);
	return 0;
}

static int t_child_reopens(char *p)
{
	struct verbs_fork_stats st;
	pid_t pid = fork();
	int status;

	if (!pid) {
		if (ibv_dontfork_range(p, 1) || ibv_dofork_range(p, 1))
			_exit(2);
		verbs_fork_get_stats(&st);
		_exit(st.maps_opens == 2 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* RDMAV_HUGEPAGES_SAFE on a kernel with PROCMAP_QUERY. */
static int mode_procmap(char **argv)
{
	struct verbs_fork_stats st;
	char *p = t_map(4), link[64], target[64];
	int i, fd, null_fd;
	ssize_t n;

	if (!t_kernel_has_procmap()) {
		printf("this kernel has no PROCMAP_QUERY (Linux 6.11+)\n");
		return 77;
	}
	T_CHECK(p && ibv_fork_init() == 0);
	for (i = 0; i < 10; i++) {
		T_CHECK(ibv_dontfork_range(p + t_ps, 3 * t_ps) == 0);
		T_CHECK(ibv_dofork_range(p + t_ps, 3 * t_ps) == 0);
	}
	verbs_fork_get_stats(&st);
	T_CHECK(st.procmap_queries >= 20 && st.smaps_scans == 0);
	/* One descriptor for all calls, not inherited across exec. */
	T_CHECK(st.maps_opens == 1);
	fd = t_find_maps_fd();
	T_CHECK(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
	/* A child must look at its own address space. */
	T_CHECK(t_child_reopens(p) == 0);
	/* Someone else's file on our number is left alone. */
	null_fd = open("/dev/null", O_RDONLY);
	T_CHECK(null_fd >= 0 && dup2(null_fd, fd) == fd);
	T_CHECK(ibv_dontfork_range(p, 1) == 0 && ibv_dofork_range(p, 1) == 0);
	verbs_fork_get_stats(&st);
	T_CHECK(st.maps_opens == 2 && st.smaps_scans == 0);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	T_CHECK(n > 0);
	target[n] = 0;
	T_CHECK(!strcmp(target, "/dev/null"));
	return 0;
}

static size_t t_pgsz(const void *addr, enum verbs_fork_pgsz_source src,
		     unsigned long *procmap, unsigned long *smaps)
{
	struct verbs_fork_stats before, after;
	size_t size;

	verbs_fork_set_pgsz_source(src);
	verbs_fork_get_stats(&before);
	size = verbs_fork_page_size(addr);
	verbs_fork_get_stats(&after);
	*procmap = after.procmap_queries - before.procmap_queries;
	*smaps = after.smaps_scans - before.smaps_scans;
	return size;
}

/* Both look-ups agree, and each one was really the one used. */
static int t_compare_pgsz(const void *addr, size_t expect)
{
	bool procmap = t_kernel_has_procmap();
	unsigned long pq, ss;
	size_t a, s;

	a = t_pgsz(addr, VERBS_FORK_PGSZ_AUTO, &pq, &ss);
	T_CHECK(procmap ? pq == 1 && ss == 0 : ss == 1);
	s = t_pgsz(addr, VERBS_FORK_PGSZ_SMAPS, &pq, &ss);
	T_CHECK(pq == 0 && ss == 1);
	if (a != s || (expect && a != expect)) {
		fprintf(stderr, "%p: procmap %zu smaps %zu expected %zu\n",
			addr, a, s, expect);
		return 1;
	}
	return 0;
}

static int mode_pgsz_compare(char **argv)
{
	size_t huge = argv[0] ? strtoul(argv[0], NULL, 0) : 0;
	char *p = t_map(3), *hole = t_map(1), *heap = malloc(100);
	char *h = NULL;
	int local;

	T_CHECK(p && hole && heap && ibv_fork_init() == 0);
	munmap(hole, t_ps);
	T_CHECK(!t_compare_pgsz(&local, t_ps));
	T_CHECK(!t_compare_pgsz(heap, t_ps));
	T_CHECK(!t_compare_pgsz(p + t_ps + 5, t_ps));
	T_CHECK(!t_compare_pgsz((const void *)(uintptr_t)&mode_pgsz_compare,
				t_ps));
	T_CHECK(!t_compare_pgsz(hole, t_ps));
	if (huge) {
		h = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		T_CHECK(h != MAP_FAILED);
		T_CHECK(!t_compare_pgsz(h + huge + 12345, huge));
	}
	free(heap);
	return 0;
}

static void t_hugetlb_checks(char *h, size_t huge)
{
	char view[4];

	T_CHECK(ibv_dontfork_range(h + t_ps, 10) == 0);
	T_CHECK(verbs_fork_refcount(h) == 1);
	T_CHECK(verbs_fork_refcount(h + huge - 1) == 1);
	T_CHECK(verbs_fork_refcount(h + huge) == 0);
	T_CHECK(t_view_units(h, 2, huge, view));
	T_CHECK(!strcmp(view, "X."));
	T_CHECK(t_child_read(h + huge, 1) == 0);
	T_CHECK(t_child_read(h + 3 * t_ps, 1) == 128 + SIGSEGV);
	/* Crossing into the second huge page takes all of it. */
	T_CHECK(ibv_dontfork_range(h + huge - 1, 2) == 0);
	T_CHECK(verbs_fork_refcount(h) == 2);
	T_CHECK(verbs_fork_refcount(h + 2 * huge - 1) == 1);
	T_CHECK(t_view_units(h, 2, huge, view));
	T_CHECK(!strcmp(view, "XX"));
	T_CHECK(ibv_dofork_range(h + huge - 1, 2) == 0);
	T_CHECK(ibv_dofork_range(h + 100, 1) == 0);
	T_CHECK(t_view_units(h, 2, huge, view));
	T_CHECK(!strcmp(view, ".."));
	T_CHECK(!verbs_fork_check_tree());
}

/* argv: huge page size, then "auto", "smaps" or "off" (no env variable). */
static int mode_hugetlb(char **argv)
{
	size_t huge = strtoul(argv[0], NULL, 0);
	struct verbs_fork_stats st;
	char *h;

	h = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (h == MAP_FAILED) {
		printf("no huge page for MAP_HUGETLB: %s\n", strerror(errno));
		return 77;
	}
	memset(h, 1, 2 * huge);
	T_CHECK(ibv_fork_init() == 0);
	if (!strcmp(argv[1], "off")) {
		/* Base pages cannot split a hugetlb mapping: EINVAL. */
		T_CHECK(ibv_dontfork_range(h + t_ps, 10) == -1);
		T_CHECK(errno == EINVAL);
		T_CHECK(verbs_fork_refcount(h + t_ps) == 0);
		T_CHECK(t_child_read(h, 1) == 0);
		return 0;
	}
	if (!strcmp(argv[1], "smaps"))
		verbs_fork_set_pgsz_source(VERBS_FORK_PGSZ_SMAPS);
	t_hugetlb_checks(h, huge);
	verbs_fork_get_stats(&st);
	if (!strcmp(argv[1], "smaps") || !t_kernel_has_procmap())
		T_CHECK(st.smaps_scans > 0 && st.procmap_queries == 0);
	else
		T_CHECK(st.procmap_queries > 0 && st.smaps_scans == 0);
	return 0;
}

/*
 * A failed dontfork over a hole, with RDMAV_HUGEPAGES_SAFE so that both
 * ends of every range are looked up. argv: nothing for base pages, or
 * the huge page size to use MAP_HUGETLB (never touched, so MAP_NORESERVE
 * needs no free huge pages).
 */
static int mode_hole(char **argv)
{
	size_t unit = argv[0] ? strtoul(argv[0], NULL, 0) : t_ps, pre;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p;

	if (argv[0])
		flags |= MAP_HUGETLB | MAP_NORESERVE;
	T_CHECK(ibv_fork_init() == 0);
	for (pre = 0; pre < 2; pre++) {
		p = mmap(NULL, 4 * unit, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (p == MAP_FAILED) {
			printf("mmap: %s\n", strerror(errno));
			return 77;
		}
		T_CHECK(verbs_fork_page_size(p) == unit);
		T_CHECK(!t_failed_dontfork_changes_nothing(p, 4, unit, pre, 2));
		munmap(p, 4 * unit);
	}
	return 0;
}

static void test_hugepages_env(void **state)
{
	struct t_run r;

	t_spawn(&r, ARGS("pgsz-counters"), NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "lookups=0\n");
	/* Any value counts, "0" included. */
	t_spawn(&r, ARGS("pgsz-counters"), ARGS("RDMAV_HUGEPAGES_SAFE=0"));
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "lookups=2\n");
	t_spawn(&r, ARGS("pgsz-counters", "late"), NULL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "lookups=2\n");
}

static void test_procmap_path(void **state)
{
	t_spawn_ok(ARGS("procmap"), ARGS("RDMAV_HUGEPAGES_SAFE=1"));
}

#define T_NR_HUGE "/proc/sys/vm/nr_hugepages"

static long t_reserve_huge(void)
{
	long old = t_sysctl(T_NR_HUGE, -1);

	if (old < 0 || geteuid() != 0)
		return -1;
	if (t_sysctl(T_NR_HUGE, old + 2) < 0)
		return -1;
	return old;
}

static void test_hugetlb(void **state)
{
	const char *modes[] = { "auto", "smaps", "off" };
	size_t huge = t_huge_size(), i;
	long old = t_reserve_huge();
	char size[32];
	struct t_run r;

	if (!huge || old < 0) {
		printf("cannot reserve huge pages (%s)\n",
		       huge ? "needs root and " T_NR_HUGE : "no hugetlbfs");
		skip();
	}
	snprintf(size, sizeof(size), "%zu", huge);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		t_spawn(&r, ARGS("hugetlb", size, modes[i]),
			i < 2 ? ARGS("RDMAV_HUGEPAGES_SAFE=1") : NULL);
		if (r.status)
			break;
	}
	if (!r.status)
		t_spawn(&r, ARGS("pgsz-compare", size),
			ARGS("RDMAV_HUGEPAGES_SAFE=1"));
	if (!r.status)
		t_spawn(&r, ARGS("hole", size), ARGS("RDMAV_HUGEPAGES_SAFE=1"));
	t_sysctl(T_NR_HUGE, old);
	if (r.status == 77) {
		printf("%s", r.out);
		skip();
	}
	if (r.status)
		fail_msg("exit %d\n%s%s", r.status, r.out, r.err);
}

static void test_pgsz_compare(void **state)
{
	t_spawn_ok(ARGS("pgsz-compare"), ARGS("RDMAV_HUGEPAGES_SAFE=1"));
}

static void test_hole_with_page_lookups(void **state)
{
	t_spawn_ok(ARGS("hole"), ARGS("RDMAV_HUGEPAGES_SAFE=1"));
}

int main(int argc, char **argv)
{
	static const struct t_mode modes[] = {
		{ "pgsz-counters", mode_pgsz_counters },
		{ "procmap", mode_procmap },
		{ "pgsz-compare", mode_pgsz_compare },
		{ "hugetlb", mode_hugetlb },
		{ "hole", mode_hole },
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hugepages_env),
		cmocka_unit_test(test_procmap_path),
		cmocka_unit_test(test_pgsz_compare),
		cmocka_unit_test(test_hole_with_page_lookups),
		cmocka_unit_test(test_hugetlb),
	};

	return t_fork_main(argc, argv, modes, ARRAY_SIZE(modes), tests,
			   ARRAY_SIZE(tests));
}
