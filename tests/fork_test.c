// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker (libibverbs/fork.c) against the real kernel: real
 * fork(), real madvise(), no mocks. What a child can see of the parent's
 * memory is the ground truth; the tracker's counts are checked against a
 * model. The binary links the tracker's sources itself to reach the test
 * hooks of fork.h.
 *
 * Initialisation happens once per process, so everything about it runs in
 * a fresh copy of this program (re-executed with --mode NAME), with the
 * environment the case needs. The differential cases load the built
 * library and Debian's reference library the same way.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
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
#include <sys/stat.h>
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
#include "t_util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif

static size_t t_ps;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static uint64_t t_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* @n pages of private anonymous memory; page i is filled with i + 1. */
static char *t_map(size_t n)
{
	char *p = mmap(NULL, n * t_ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED)
		return NULL;
	for (i = 0; i < n; i++)
		memset(p + i * t_ps, (int)(i + 1), t_ps);
	return p;
}

static void t_view(const char *buf, size_t n, size_t unit, char *out)
{
	assert_true(t_view_units(buf, n, unit, out));
}

static void t_expect_view(const char *buf, size_t n, const char *expect)
{
	char got[256];

	assert_true(n < sizeof(got));
	t_view(buf, n, t_ps, got);
	assert_string_equal(got, expect);
}

static void t_assert_tree(void)
{
	const char *why = verbs_fork_check_tree();

	if (why)
		fail_msg("tree check: %s", why);
}

static size_t t_nodes(void)
{
	struct verbs_fork_stats st;

	verbs_fork_get_stats(&st);
	return st.nodes;
}

#define T_HOLE_MAX 15

/*
 * @n units of @unit bytes at @p, the first @pre of them registered once;
 * unit @hole (after them) is unmapped here. A dontfork over all @n units
 * must then fail with ENOMEM and change nothing: every count, the tree,
 * and what a fork()ed child sees. Returns 0, or 1 with the failed check
 * printed, so that both the cmocka tests and the modes can use it.
 */
static int t_failed_dontfork_changes_nothing(char *p, size_t n, size_t unit,
					     size_t pre, size_t hole)
{
	char want[T_HOLE_MAX + 1], view[T_HOLE_MAX + 1];
	size_t i, nodes;

	T_CHECK_RET(n <= T_HOLE_MAX && pre < hole && hole < n);
	for (i = 0; i < n; i++)
		want[i] = i < pre || i == hole ? 'X' : '.';
	want[n] = 0;
	T_CHECK_RET(!pre || ibv_dontfork_range(p, pre * unit) == 0);
	T_CHECK_RET(munmap(p + hole * unit, unit) == 0);
	nodes = t_nodes();
	errno = 0;
	T_CHECK_RET(ibv_dontfork_range(p, n * unit) == -1);
	T_CHECK_RET(errno == ENOMEM);
	for (i = 0; i < n; i++)
		T_CHECK_RET(verbs_fork_refcount(p + i * unit) == (i < pre));
	T_CHECK_RET(t_nodes() == nodes);
	T_CHECK_RET(!verbs_fork_check_tree());
	T_CHECK_RET(t_view_units(p, n, unit, view));
	if (strcmp(view, want)) {
		fprintf(stderr, "a child sees %s, expected %s\n", view, want);
		return 1;
	}
	T_CHECK_RET(!pre || ibv_dofork_range(p, pre * unit) == 0);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Running this program again in a fresh process                       */

struct t_run {
	int status; /* exit code, or 128 + signal */
	char out[4096];
	char err[8192];
};

static void t_drain(int fd, char *buf, size_t size, size_t *len)
{
	ssize_t n = read(fd, buf + *len, size - 1 - *len);

	if (n > 0)
		*len += n;
	buf[*len] = 0;
}

static void t_collect(int out_fd, int err_fd, struct t_run *r)
{
	struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
			       { .fd = err_fd, .events = POLLIN } };
	size_t olen = 0, elen = 0;
	int open_fds = 2;

	r->out[0] = r->err[0] = 0;
	while (open_fds && poll(p, 2, -1) > 0) {
		if (p[0].revents) {
			t_drain(out_fd, r->out, sizeof(r->out), &olen);
			if (!(p[0].revents & POLLIN) ||
			    olen == sizeof(r->out) - 1)
				p[0].fd = -1, open_fds--;
		}
		if (p[1].revents) {
			t_drain(err_fd, r->err, sizeof(r->err), &elen);
			if (!(p[1].revents & POLLIN) ||
			    elen == sizeof(r->err) - 1)
				p[1].fd = -1, open_fds--;
		}
	}
}

static void t_child_exec(int out_fd, int err_fd, const char *const *argv,
			 const char *const *env)
{
	static const char *const cleared[] = { "RDMAV_FORK_SAFE",
					       "IBV_FORK_SAFE",
					       "RDMAV_HUGEPAGES_SAFE" };
	const char *args[16] = { "fork_test", "--mode" };
	size_t i, n = 2;

	for (i = 0; i < ARRAY_SIZE(cleared); i++)
		unsetenv(cleared[i]);
	for (; env && *env; env++)
		putenv((char *)*env);
	for (; *argv && n < ARRAY_SIZE(args) - 1; argv++)
		args[n++] = *argv;
	args[n] = NULL;
	dup2(out_fd, 1);
	dup2(err_fd, 2);
	execv("/proc/self/exe", (char *const *)args);
	_exit(126);
}

/* Run "--mode argv..." in a new process with @env (NAME=VALUE strings). */
static void t_spawn(struct t_run *r, const char *const *argv,
		    const char *const *env)
{
	int out[2], err[2], status;
	pid_t pid;

	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		t_child_exec(out[1], err[1], argv, env);
	close(out[1]);
	close(err[1]);
	t_collect(out[0], err[0], r);
	close(out[0]);
	close(err[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	r->status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
					  WEXITSTATUS(status);
}

/* Spawn, then pass, skip (77, with the child's reason) or fail. */
static void t_spawn_ok(const char *const *argv, const char *const *env)
{
	struct t_run r;

	t_spawn(&r, argv, env);
	if (r.status == 77) {
		printf("%s", r.out);
		skip();
	}
	if (r.status)
		fail_msg("mode %s exited %d\nstdout: %s\nstderr: %s", argv[0],
			 r.status, r.out, r.err);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* ------------------------------------------------------------------ */
/* Seccomp: make the kernel refuse one call so that errors are real     */

/* ------------------------------------------------------------------ */
/* Modes: each runs in a fresh process, 0 = pass, 77 = cannot run      */

/*
 * A mode is the whole process, so a failed T_CHECK (t_util.h) may simply
 * exit 1 from wherever it happens, helpers included.
 */

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

static bool t_rdma_netlink(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void *t_status_thread(void *arg)
{
	*(enum ibv_fork_status *)arg = ibv_is_fork_initialized();
	return NULL;
}

static int mode_status(char **argv)
{
	enum ibv_fork_status got[8];
	pthread_t th[8];
	bool netlink = t_rdma_netlink();
	size_t i;

	/* The first question comes from many threads at once. */
	for (i = 0; i < ARRAY_SIZE(th); i++)
		T_CHECK(!pthread_create(&th[i], NULL, t_status_thread,
					&got[i]));
	for (i = 0; i < ARRAY_SIZE(th); i++) {
		pthread_join(th[i], NULL);
		T_CHECK(got[i] == got[0]);
	}
	if (got[0] == IBV_FORK_UNNEEDED) {
		/* Only a kernel that answers over RDMA netlink says so. */
		T_CHECK(netlink);
		T_CHECK(ibv_fork_init() == 0);
		T_CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);
		return 0;
	}
	T_CHECK(got[0] == IBV_FORK_DISABLED);
	T_CHECK(ibv_fork_init() == 0);
	T_CHECK(ibv_is_fork_initialized() == IBV_FORK_ENABLED);
	printf("netlink=%d\n", netlink);
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

struct t_mode {
	const char *name;
	int (*fn)(char **argv);
};

static const struct t_mode t_modes[] = {
	{ "env", mode_env },
	{ "too-late", mode_too_late },
	{ "init-twice", mode_init_twice },
	{ "enosys", mode_enosys },
	{ "enomem", mode_enomem },
	{ "pgsz-counters", mode_pgsz_counters },
	{ "procmap", mode_procmap },
	{ "pgsz-compare", mode_pgsz_compare },
	{ "hugetlb", mode_hugetlb },
	{ "hole", mode_hole },
	{ "status", mode_status },
	{ "dl-env", mode_dl_env },
};

static int run_mode(const char *name, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IONBF, 0);
	/* A mode that hangs fails instead. */
	alarm(120);
	for (i = 0; i < ARRAY_SIZE(t_modes); i++)
		if (!strcmp(t_modes[i].name, name))
			return t_modes[i].fn(argv);
	fprintf(stderr, "unknown mode %s\n", name);
	return 2;
}

/* ------------------------------------------------------------------ */
/* Tests in this process (the tracker is initialised by the setup)     */

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

static void test_subpage_ranges(void **state)
{
	char *p = t_map(3);

	assert_non_null(p);
	/* A few bytes inside one page take the whole page. */
	assert_int_equal(ibv_dontfork_range(p + 100, 10), 0);
	assert_int_equal(verbs_fork_refcount(p), 1);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 0);
	t_expect_view(p, 3, "X..");
	/* Two bytes across a boundary take both pages. */
	assert_int_equal(ibv_dontfork_range(p + 2 * t_ps - 1, 2), 0);
	assert_int_equal(verbs_fork_refcount(p), 1);
	assert_int_equal(verbs_fork_refcount(p + t_ps), 1);
	assert_int_equal(verbs_fork_refcount(p + 2 * t_ps), 1);
	t_expect_view(p, 3, "XXX");
	assert_int_equal(ibv_dofork_range(p + 100, 10), 0);
	t_expect_view(p, 3, ".XX");
	assert_int_equal(ibv_dofork_range(p + 2 * t_ps - 1, 2), 0);
	t_expect_view(p, 3, "...");
	/* Nothing to do for an empty range or NULL. */
	assert_int_equal(ibv_dontfork_range(p, 0), 0);
	assert_int_equal(ibv_dontfork_range(NULL, 100), 0);
	assert_int_equal(t_nodes(), 0);
	t_assert_tree();
	munmap(p, 3 * t_ps);
}

static void test_merge_and_split(void **state)
{
	char *p = t_map(4);

	assert_non_null(p);
	assert_int_equal(ibv_dontfork_range(p, t_ps), 0);
	assert_int_equal(ibv_dontfork_range(p + t_ps, t_ps), 0);
	/* Touching ranges with equal counts are one node. */
	assert_int_equal(t_nodes(), 1);
	assert_int_equal(ibv_dontfork_range(p + t_ps, 2 * t_ps), 0);
	assert_int_equal(t_nodes(), 3); /* 1, 2, 1 */
	assert_int_equal(ibv_dofork_range(p + 2 * t_ps, t_ps), 0);
	assert_int_equal(t_nodes(), 2); /* 1, 2 */
	assert_int_equal(ibv_dofork_range(p + t_ps, t_ps), 0);
	assert_int_equal(t_nodes(), 1); /* 1, 1 */
	t_expect_view(p, 4, "XX..");
	assert_int_equal(ibv_dofork_range(p, 2 * t_ps), 0);
	assert_int_equal(t_nodes(), 0);
	t_assert_tree();
	munmap(p, 4 * t_ps);
}

static void test_unbalanced_dofork(void **state)
{
	char *p = t_map(2);

	assert_non_null(p);
	/* Releasing what was never taken changes nothing... */
	assert_int_equal(ibv_dofork_range(p, 2 * t_ps), 0);
	assert_int_equal(verbs_fork_refcount(p), 0);
	assert_int_equal(t_nodes(), 0);
	/* ...and leaves no debt: the next registration protects. */
	assert_int_equal(ibv_dontfork_range(p, t_ps), 0);
	t_expect_view(p, 2, "X.");
	assert_int_equal(ibv_dofork_range(p, t_ps), 0);
	t_expect_view(p, 2, "..");
	munmap(p, 2 * t_ps);
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

/* The same on pages no one had registered: one DONTFORK call, undone. */
static void test_hole_in_fresh_pages(void **state)
{
	char *p = t_map(7);

	assert_non_null(p);
	assert_int_equal(t_failed_dontfork_changes_nothing(p, 7, t_ps, 0, 3),
			 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, 7 * t_ps);
}

/* Pages registered once stay at 1 and hidden; the fresh page is shown. */
static void test_hole_after_registered_pages(void **state)
{
	char *p = t_map(7);

	assert_non_null(p);
	assert_int_equal(t_failed_dontfork_changes_nothing(p, 7, t_ps, 3, 4),
			 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, 7 * t_ps);
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

/* ------------------------------------------------------------------ */
/* Random sequences against a model                                    */

#define T_PAGES 48

static void t_model_apply(long *model, size_t off, size_t len, bool up)
{
	size_t i;

	for (i = off / t_ps; i <= (off + len - 1) / t_ps; i++)
		model[i] = up ? model[i] + 1 : (model[i] ? model[i] - 1 : 0);
}

/* Touching pages with the same non-zero count make one node. */
static size_t t_model_nodes(const long *model)
{
	size_t i, n = 0;

	for (i = 0; i < T_PAGES; i++)
		if (model[i] && (!i || model[i - 1] != model[i]))
			n++;
	return n;
}

static void t_model_check(const char *p, const long *model, bool view)
{
	char got[T_PAGES + 1], want[T_PAGES + 1];
	size_t i;

	t_assert_tree();
	for (i = 0; i < T_PAGES; i++) {
		assert_int_equal(verbs_fork_refcount(p + i * t_ps), model[i]);
		want[i] = model[i] ? 'X' : '.';
	}
	want[T_PAGES] = 0;
	assert_int_equal(t_nodes(), t_model_nodes(model));
	if (!view)
		return;
	t_view(p, T_PAGES, t_ps, got);
	assert_string_equal(got, want);
}

static void test_random_against_model(void **state)
{
	uint64_t seed = 0x1234567887654321ULL;
	long model[T_PAGES] = { 0 };
	char *p = t_map(T_PAGES);
	size_t off, len, i;
	int iter;
	bool up;

	assert_non_null(p);
	for (iter = 0; iter < 6000; iter++) {
		off = t_rand(&seed) % (T_PAGES * t_ps);
		len = 1 + t_rand(&seed) % (6 * t_ps);
		if (len > T_PAGES * t_ps - off)
			len = T_PAGES * t_ps - off;
		up = t_rand(&seed) % 2;
		assert_int_equal(up ? ibv_dontfork_range(p + off, len) :
				      ibv_dofork_range(p + off, len),
				 0);
		t_model_apply(model, off, len, up);
		t_model_check(p, model, iter % 500 == 0);
	}
	for (i = 0; i < T_PAGES; i++)
		while (model[i]--)
			assert_int_equal(ibv_dofork_range(p + i * t_ps, 1), 0);
	assert_int_equal(t_nodes(), 0);
	t_expect_view(p, 4, "....");
	munmap(p, T_PAGES * t_ps);
}

/* ------------------------------------------------------------------ */
/* Threads                                                             */

#define T_THREADS 4
#define T_LIVE 16

struct t_worker {
	pthread_t th;
	char *buf;
	uint64_t seed;
	size_t off[T_LIVE], len[T_LIVE];
	int live;
	int errors;
};

/* Random balanced traffic; each worker leaves its live ranges in place. */
static void *t_worker_main(void *arg)
{
	struct t_worker *w = arg;
	int op, k;

	for (op = 0; op < 4000; op++) {
		if (w->live && (w->live == T_LIVE || t_rand(&w->seed) % 2)) {
			k = t_rand(&w->seed) % w->live;
			w->errors += !!ibv_dofork_range(w->buf + w->off[k],
							w->len[k]);
			w->off[k] = w->off[--w->live];
			w->len[k] = w->len[w->live];
			continue;
		}
		k = w->live++;
		w->off[k] = t_rand(&w->seed) % (T_PAGES * t_ps - 1);
		w->len[k] = 1 + t_rand(&w->seed) % (T_PAGES * t_ps - w->off[k]);
		if (w->len[k] > 5 * t_ps)
			w->len[k] = 5 * t_ps;
		w->errors +=
			!!ibv_dontfork_range(w->buf + w->off[k], w->len[k]);
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct t_worker w[T_THREADS];
	long model[T_PAGES] = { 0 };
	char *p = t_map(T_PAGES);
	int i, k;

	assert_non_null(p);
	for (i = 0; i < T_THREADS; i++) {
		w[i] = (struct t_worker){ .buf = p, .seed = 77 + i };
		assert_int_equal(pthread_create(&w[i].th, NULL, t_worker_main,
						&w[i]),
				 0);
	}
	for (i = 0; i < T_THREADS; i++) {
		assert_int_equal(pthread_join(w[i].th, NULL), 0);
		assert_int_equal(w[i].errors, 0);
		for (k = 0; k < w[i].live; k++)
			t_model_apply(model, w[i].off[k], w[i].len[k], true);
	}
	t_model_check(p, model, true);
	for (i = 0; i < T_THREADS; i++)
		for (k = 0; k < w[i].live; k++)
			assert_int_equal(ibv_dofork_range(p + w[i].off[k],
							  w[i].len[k]),
					 0);
	assert_int_equal(t_nodes(), 0);
	munmap(p, T_PAGES * t_ps);
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

/* ------------------------------------------------------------------ */
/* Tests in fresh processes                                            */

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

static void test_fork_status(void **state)
{
	t_spawn_ok(ARGS("status"), NULL);
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

/* ------------------------------------------------------------------ */
/* The same environment against the built and the reference library   */

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

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segv_and_neighbours),
		cmocka_unit_test(test_subpage_ranges),
		cmocka_unit_test(test_merge_and_split),
		cmocka_unit_test(test_unbalanced_dofork),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_rollback_over_hole),
		cmocka_unit_test(test_hole_in_fresh_pages),
		cmocka_unit_test(test_hole_after_registered_pages),
		cmocka_unit_test(test_dofork_over_hole),
		cmocka_unit_test(test_parent_keeps_pages),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_fork_while_busy),
		cmocka_unit_test(test_too_late),
		cmocka_unit_test(test_init_twice),
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_enomem),
		cmocka_unit_test(test_env_values),
		cmocka_unit_test(test_env_too_late),
		cmocka_unit_test(test_hugepages_env),
		cmocka_unit_test(test_procmap_path),
		cmocka_unit_test(test_pgsz_compare),
		cmocka_unit_test(test_hole_with_page_lookups),
		cmocka_unit_test(test_hugetlb),
		cmocka_unit_test(test_fork_status),
		cmocka_unit_test(test_env_differential),
	};
	int ret;

	t_ps = sysconf(_SC_PAGESIZE);
	if (argc >= 3 && !strcmp(argv[1], "--mode"))
		return run_mode(argv[2], argv + 3);
	/* The tests in this process share one initialised tracker. */
	ret = ibv_fork_init();
	if (ret == ENOSYS) {
		printf("madvise(MADV_DONTFORK) is not supported here\n");
		return 77;
	}
	if (ret) {
		printf("ibv_fork_init: %s\n", strerror(ret));
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
