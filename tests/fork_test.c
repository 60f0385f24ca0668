// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker's entry points (libibverbs/fork.c) against the real
 * kernel: real fork(), real madvise(), no mocks. What a child can see of
 * the parent's memory is the ground truth: ranges hidden and shown again,
 * a failed madvise() undone, fork() while another thread is inside the
 * tracker; ibv_fork_init() and the environment that asks for it, each in
 * a fresh process; the same environment against the built and Debian's
 * library, loaded with dlopen().
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
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

#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif

/* Print whether fork protection is on after the library's env check. */
static int mode_env(char **argv)
{
	char *junk = malloc(64);

	if (argv[0] && !strcmp(argv[0], "late"))
		T_CHECK(ibv_dontfork_range(junk, 64) == 0);
	verbs_fork_env_init();
	printf("%s\n", verbs_fork_enabled() ? "enabled" : "disabled");
	free(junk);
	return 0;
}

static int mode_too_late(char **argv)
{
	char *p = t_map(2);

	T_CHECK(p);
	if (!strcmp(argv[0], "dontfork"))
		T_CHECK(ibv_dontfork_range(p, 10) == 0);
	else if (!strcmp(argv[0], "dofork"))
		T_CHECK(ibv_dofork_range(p, 10) == 0);
	else
		T_CHECK(ibv_dontfork_range(NULL, 0) == 0);
	T_CHECK(ibv_fork_init() == EINVAL);
	T_CHECK(ibv_fork_init() == EINVAL);
	T_CHECK(!verbs_fork_enabled());
	T_CHECK(ibv_is_fork_initialized() != IBV_FORK_ENABLED);
	/* Still a silent no-op: nothing is tracked, nothing is hidden. */
	T_CHECK(ibv_dontfork_range(p, t_ps) == 0);
	T_CHECK(verbs_fork_refcount(p) == 0);
	T_CHECK(t_child_read(p, 1) == 0);
	return 0;
}

static int mode_init_twice(char **argv)
{
	char *p = t_map(1);

	T_CHECK(p);
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(ibv_dontfork_range(p, t_ps) == 0);
	/* Registered ranges only matter before the first init. */
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(verbs_fork_refcount(p) == 1);
	T_CHECK(ibv_dofork_range(p, t_ps) == 0);
	return 0;
}

static int mode_enosys(char **argv)
{
	int ret = t_seccomp_deny(SYS_madvise, 2, MADV_DONTFORK, -1, 0, EINVAL);

	if (ret) {
		printf("seccomp unavailable: %s\n", strerror(ret));
		return 77;
	}
	T_CHECK(ibv_fork_init() == ENOSYS);
	T_CHECK(!verbs_fork_enabled());
	T_CHECK(ibv_is_fork_initialized() != IBV_FORK_ENABLED);
	T_CHECK(ibv_fork_init() == ENOSYS);
	return 0;
}

static int mode_enomem(char **argv)
{
	int ret;

#ifdef T_ASAN
	printf("AddressSanitizer needs the page-sized mmap() this case denies\n");
	return 77;
#endif
	/* The probe page: one private anonymous page. */
	ret = t_seccomp_deny(SYS_mmap, 1, (uint32_t)t_ps, 3,
			     MAP_PRIVATE | MAP_ANONYMOUS, ENOMEM);
	if (ret) {
		printf("seccomp unavailable: %s\n", strerror(ret));
		return 77;
	}
	T_CHECK(ibv_fork_init() == ENOMEM);
	T_CHECK(!verbs_fork_enabled());
	return 0;
}

typedef struct ibv_device **(*t_get_list_fn)(int *);
typedef void (*t_free_list_fn)(struct ibv_device **);
typedef int (*t_range_fn)(void *, size_t);
typedef enum ibv_fork_status (*t_status_fn)(void);

/* argv: library path, then "late" or "now". Prints the fork status. */
static int mode_dl_env(char **argv)
{
	void *h = dlopen(argv[0], RTLD_NOW | RTLD_LOCAL);
	t_get_list_fn get_list;
	t_free_list_fn free_list;
	t_range_fn dontfork;
	t_status_fn status;
	struct ibv_device **list;
	char *junk = malloc(64);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	get_list = (t_get_list_fn)dlsym(h, "ibv_get_device_list");
	free_list = (t_free_list_fn)dlsym(h, "ibv_free_device_list");
	dontfork = (t_range_fn)dlsym(h, "ibv_dontfork_range");
	status = (t_status_fn)dlsym(h, "ibv_is_fork_initialized");
	T_CHECK(get_list && free_list && dontfork && status);
	if (!strcmp(argv[1], "late"))
		T_CHECK(dontfork(junk, 64) == 0);
	list = get_list(NULL);
	if (list)
		free_list(list);
	printf("%d\n", (int)status());
	free(junk);
	return 0;
}

/* In this process (the tracker is initialised by t_fork_main()). */

static void test_segv_and_neighbours(void **state)
{
	char *p = t_map(3);

	assert_non_null(p);
	assert_int_equal(ibv_dontfork_range(p + t_ps, t_ps), 0);
	assert_int_equal(t_child_read(p + t_ps, 2), 128 + SIGSEGV);
	assert_int_equal(t_child_read(p + t_ps - 1, 1), 0);
	assert_int_equal(t_child_read(p + 2 * t_ps, 3), 0);
	/* The parent itself keeps its data. */
	assert_int_equal(p[t_ps + 7], 2);
	assert_int_equal(ibv_dofork_range(p + t_ps, t_ps), 0);
	assert_int_equal(t_child_read(p + t_ps, 2), 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, 3 * t_ps);
}

static void test_bad_ranges(void **state)
{
	char *p = t_map(1);

	assert_non_null(p);
	errno = 0;
	assert_int_equal(ibv_dontfork_range((void *)(UINTPTR_MAX - 10), 100),
			 -1);
	assert_int_equal(errno, EINVAL);
	/* Unmapped memory: madvise's error, and no trace in the tree. */
	munmap(p, t_ps);
	assert_int_equal(ibv_dontfork_range(p, t_ps), -1);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(verbs_fork_refcount(p), 0);
	assert_int_equal(t_nodes(), 0);
}

/*
 * A hole in the middle of the range: DONTFORK fails after advising the
 * pages around the hole, and every page must be back as it was.
 */
static void test_rollback_over_hole(void **state)
{
	char *p = t_map(7);

	assert_non_null(p);
	assert_int_equal(ibv_dontfork_range(p + t_ps, t_ps), 0);
	assert_int_equal(munmap(p + 4 * t_ps, t_ps), 0);
	errno = 0;
	/* Gaps [0] and [2..6]: the first succeeds, the second fails. */
	assert_int_equal(ibv_dontfork_range(p, 7 * t_ps), -1);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(verbs_fork_refcount(p), 0);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 1);
	assert_int_equal(verbs_fork_refcount(p + 3 * t_ps), 0);
	assert_int_equal(verbs_fork_refcount(p + 6 * t_ps), 0);
	assert_int_equal(t_nodes(), 1);
	t_expect_view(p, 7, ".X..X..");
	t_assert_tree();
	assert_int_equal(ibv_dofork_range(p + t_ps, t_ps), 0);
	t_expect_view(p, 7, "....X..");
	munmap(p, 7 * t_ps);
}

/*
 * A failed DONTFORK over seven pages, the first @pre registered before,
 * page @hole unmapped: nothing changes, and the tree is left empty.
 */
static void hole_changes_nothing(size_t pre, size_t hole)
{
	char *p = t_map(7);

	assert_non_null(p);
	assert_int_equal(
		t_failed_dontfork_changes_nothing(p, 7, t_ps, pre, hole), 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, 7 * t_ps);
}

/* A hole among pages no one had registered: one DONTFORK call, undone. */
static void test_hole_in_fresh_pages(void **state)
{
	hole_changes_nothing(0, 3);
}

/* Pages registered once stay at 1 and hidden; the fresh page is shown. */
static void test_hole_after_registered_pages(void **state)
{
	hole_changes_nothing(3, 4);
}

/* DOFORK over a range the caller has partly unmapped still succeeds. */
static void test_dofork_over_hole(void **state)
{
	struct verbs_fork_stats before, after;
	char *p = t_map(5);

	assert_non_null(p);
	assert_int_equal(ibv_dontfork_range(p, 5 * t_ps), 0);
	assert_int_equal(munmap(p + 2 * t_ps, t_ps), 0);
	verbs_fork_get_stats(&before);
	assert_int_equal(ibv_dofork_range(p, 5 * t_ps), 0);
	verbs_fork_get_stats(&after);
	assert_int_equal(after.dofork_retries, before.dofork_retries + 1);
	assert_int_equal(after.nodes, 0);
	t_expect_view(p, 5, "..X..");
	munmap(p, 5 * t_ps);
}

/* The physical pages stay with the parent: no copy-on-write at fork. */
static uint64_t t_pfn(int fd, const void *addr)
{
	uint64_t e = 0;

	if (pread(fd, &e, 8, (uintptr_t)addr / t_ps * 8) != 8)
		return 0;
	return (e & (1ULL << 63)) ? e & ((1ULL << 55) - 1) : 0;
}

static void test_parent_keeps_pages(void **state)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	char *p = t_map(2), go;
	int fds[2], status;
	uint64_t pfn0, pfn1;
	pid_t pid;

	assert_non_null(p);
	pfn0 = t_pfn(fd, p);
	pfn1 = t_pfn(fd, p + t_ps);
	if (!pfn0 || !pfn1) {
		printf("page frame numbers are hidden (needs CAP_SYS_ADMIN)\n");
		close(fd);
		skip();
	}
	assert_int_equal(ibv_dontfork_range(p, t_ps), 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* Hold the shared pages until the parent has written. */
		close(fds[1]);
		if (read(fds[0], &go, 1) != 0)
			_exit(3);
		_exit(p[t_ps] == 2 ? 0 : 1);
	}
	close(fds[0]);
	p[0] = 'a';
	p[t_ps] = 'b';
	/* Page 0 was never shared; page 1 was, and the write copied it. */
	assert_true(t_pfn(fd, p) == pfn0);
	assert_true(t_pfn(fd, p + t_ps) != pfn1);
	close(fds[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(p[0], 'a');
	assert_int_equal(ibv_dofork_range(p, t_ps), 0);
	close(fd);
	munmap(p, 2 * t_ps);
}

struct t_busy {
	char *page;
	atomic_int stop;
};

static void *t_busy_main(void *arg)
{
	struct t_busy *b = arg;

	while (!b->stop)
		if (ibv_dontfork_range(b->page, 1) ||
		    ibv_dofork_range(b->page, 1))
			break;
	return NULL;
}

/*
 * fork() while another thread is inside the tracker: the child must find
 * the lock free and the tree whole, and be able to register its own memory.
 */
static void test_fork_while_busy(void **state)
{
	struct t_busy b = { .page = t_map(1) };
	char *mine = t_map(1);
	pthread_t th;
	int i, status;
	pid_t pid;

	assert_non_null(b.page);
	assert_non_null(mine);
	assert_int_equal(pthread_create(&th, NULL, t_busy_main, &b), 0);
	for (i = 0; i < 200; i++) {
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			alarm(10);
			_exit(ibv_dontfork_range(mine, 1) ||
			      ibv_dofork_range(mine, 1) ||
			      verbs_fork_check_tree());
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	b.stop = 1;
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(t_nodes(), 0);
	munmap(b.page, t_ps);
	munmap(mine, t_ps);
}

/* In fresh processes. */

static void test_too_late(void **state)
{
	t_spawn_ok(ARGS("too-late", "dontfork"), NULL);
	t_spawn_ok(ARGS("too-late", "dofork"), NULL);
	t_spawn_ok(ARGS("too-late", "null"), NULL);
}

static void test_init_twice(void **state)
{
	t_spawn_ok(ARGS("init-twice"), NULL);
}

static void test_enosys(void **state)
{
	t_spawn_ok(ARGS("enosys"), NULL);
}

static void test_enomem(void **state)
{
	t_spawn_ok(ARGS("enomem"), NULL);
}

struct t_env_case {
	const char *env[3];
	bool enabled;
};

/* Either variable, set to anything but exactly "0", asks for protection. */
static const struct t_env_case t_env_cases[] = {
	{ { NULL }, false },
	{ { "RDMAV_FORK_SAFE=" }, true },
	{ { "RDMAV_FORK_SAFE=0" }, false },
	{ { "RDMAV_FORK_SAFE=1" }, true },
	{ { "RDMAV_FORK_SAFE=no" }, true },
	{ { "RDMAV_FORK_SAFE=00" }, true },
	{ { "RDMAV_FORK_SAFE= 0" }, true },
	{ { "IBV_FORK_SAFE=" }, true },
	{ { "IBV_FORK_SAFE=0" }, false },
	{ { "IBV_FORK_SAFE=yes" }, true },
	{ { "RDMAV_FORK_SAFE=0", "IBV_FORK_SAFE=1" }, true },
	{ { "RDMAV_FORK_SAFE=1", "IBV_FORK_SAFE=0" }, true },
	{ { "RDMAV_FORK_SAFE=0", "IBV_FORK_SAFE=0" }, false },
};

static void test_env_values(void **state)
{
	struct t_run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t_env_cases); i++) {
		t_spawn(&r, ARGS("env"), t_env_cases[i].env);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.out, t_env_cases[i].enabled ?
						   "enabled\n" :
						   "disabled\n");
		assert_string_equal(r.err, "");
	}
}

/* Too late for the variable: a warning naming it, and no protection. */
static void test_env_too_late(void **state)
{
	struct t_run r;

	t_spawn(&r, ARGS("env", "late"), ARGS("IBV_FORK_SAFE=1"));
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "disabled\n");
	assert_non_null(strstr(r.err, "IBV_FORK_SAFE"));
	assert_non_null(strstr(r.err, "registered before"));
	t_spawn(&r, ARGS("env", "late"), ARGS("RDMAV_FORK_SAFE=0"));
	assert_string_equal(r.out, "disabled\n");
	assert_string_equal(r.err, "");
}

/* The same environment against the built and the reference library. */

static bool t_lib_path(char *buf, size_t size, const char *env, const char *rel)
{
	const char *v = getenv(env), *dir = getenv("IBV_TEST_BUILD_DIR");

	if (v)
		snprintf(buf, size, "%s", v);
	else if (dir)
		snprintf(buf, size, "%s/%s", dir, rel);
	else
		return false;
	return access(buf, R_OK) == 0;
}

static void t_dl_status(const char *lib, const char *when,
			const char *const *env, struct t_run *r)
{
	t_spawn(r, ARGS("dl-env", lib, when), env);
	if (r->status)
		fail_msg("%s: exit %d\n%s", lib, r->status, r->err);
}

static void test_env_differential(void **state)
{
	char ours[PATH_MAX], ref[PATH_MAX];
	struct t_run a, b;
	size_t i;

	if (!t_lib_path(ours, sizeof(ours), "IBV_BUILT_LIB",
			"lib/libibverbs.so.1") ||
	    !t_lib_path(
		    ref, sizeof(ref), "IBV_REFERENCE_LIB",
		    "reference/root/usr/lib/x86_64-linux-gnu/libibverbs.so.1")) {
		printf("built or reference library not found (set IBV_TEST_BUILD_DIR, or IBV_BUILT_LIB and IBV_REFERENCE_LIB)\n");
		skip();
	}
	for (i = 0; i < ARRAY_SIZE(t_env_cases); i++) {
		t_dl_status(ours, "now", t_env_cases[i].env, &a);
		t_dl_status(ref, "now", t_env_cases[i].env, &b);
		assert_string_equal(a.out, b.out);
		t_dl_status(ours, "late", t_env_cases[i].env, &a);
		t_dl_status(ref, "late", t_env_cases[i].env, &b);
		assert_string_equal(a.out, b.out);
		/* Both warn, or neither does. */
		assert_int_equal(!a.err[0], !b.err[0]);
	}
}

int main(int argc, char **argv)
{
	static const struct t_mode modes[] = {
		{ "env", mode_env },
		{ "too-late", mode_too_late },
		{ "init-twice", mode_init_twice },
		{ "enosys", mode_enosys },
		{ "enomem", mode_enomem },
		{ "dl-env", mode_dl_env },
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segv_and_neighbours),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_rollback_over_hole),
		cmocka_unit_test(test_hole_in_fresh_pages),
		cmocka_unit_test(test_hole_after_registered_pages),
		cmocka_unit_test(test_dofork_over_hole),
		cmocka_unit_test(test_parent_keeps_pages),
		cmocka_unit_test(test_fork_while_busy),
		cmocka_unit_test(test_too_late),
		cmocka_unit_test(test_init_twice),
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_enomem),
		cmocka_unit_test(test_env_values),
		cmocka_unit_test(test_env_too_late),
		cmocka_unit_test(test_env_differential),
	};

	return t_fork_main(argc, argv, modes, ARRAY_SIZE(modes), tests,
			   ARRAY_SIZE(tests));
}
