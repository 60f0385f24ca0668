// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fork tracker host tests' fixture (t_fork_tracker.h): pages of our
 * own, what a fork()ed child sees of them, the tracker's counts and tree,
 * and running the test program again as a fresh process in a "mode".
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "libibverbs/fork.h"
#include "t_fork.h"
#include "t_fork_tracker.h"
#include "t_seccomp.h"
#include "t_util.h"

#define T_HOLE_MAX 15

size_t t_ps;

uint64_t t_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

char *t_map(size_t n)
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

void t_view(const char *buf, size_t n, size_t unit, char *out)
{
	assert_true(t_view_units(buf, n, unit, out));
}

void t_expect_view(const char *buf, size_t n, const char *expect)
{
	char got[256];

	assert_true(n < sizeof(got));
	t_view(buf, n, t_ps, got);
	assert_string_equal(got, expect);
}

void t_assert_tree(void)
{
	const char *why = verbs_fork_check_tree();

	if (why)
		fail_msg("tree check: %s", why);
}

size_t t_nodes(void)
{
	struct verbs_fork_stats st;

	verbs_fork_get_stats(&st);
	return st.nodes;
}

int t_failed_dontfork_changes_nothing(char *p, size_t n, size_t unit,
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
	const char *args[16] = { program_invocation_short_name, "--mode" };
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
	/* Not /proc/self/exe, which under valgrind is valgrind's tool. */
	execv(program_invocation_name, (char *const *)args);
	_exit(126);
}

void t_spawn(struct t_run *r, const char *const *argv, const char *const *env)
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

void t_spawn_ok(const char *const *argv, const char *const *env)
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

static int run_mode(const struct t_mode *modes, size_t n, const char *name,
		    char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IONBF, 0);
	/* A mode that hangs fails instead. */
	alarm(120);
	for (i = 0; i < n; i++)
		if (!strcmp(modes[i].name, name))
			return modes[i].fn(argv);
	fprintf(stderr, "unknown mode %s\n", name);
	return 2;
}

int t_fork_main(int argc, char **argv, const struct t_mode *modes,
		size_t n_modes, const struct CMUnitTest *tests, size_t n_tests)
{
	int ret;

	t_ps = sysconf(_SC_PAGESIZE);
	if (argc >= 3 && !strcmp(argv[1], "--mode"))
		return run_mode(modes, n_modes, argv[2], argv + 3);
	/*
	 * The tests in this process share one initialised tracker. A kernel
	 * that says it copies pinned pages at fork() gets none (the VM
	 * tier's guest does): the tests play one that does not say so.
	 */
	if (t_hide_rdma_netlink() && t_rdma_netlink()) {
		printf("cannot hide RDMA netlink, whose copy-on-fork answer turns the tracker off\n");
		return 1;
	}
	ret = ibv_fork_init();
	if (ret == ENOSYS) {
		printf("madvise(MADV_DONTFORK) is not supported here\n");
		return 77;
	}
	if (ret) {
		printf("ibv_fork_init: %s\n", strerror(ret));
		return 1;
	}
	return _cmocka_run_group_tests("tests", tests, n_tests, NULL, NULL);
}
