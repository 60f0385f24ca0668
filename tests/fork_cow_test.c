// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_is_fork_initialized() (libibverbs/fork_cow.c) in a fresh process:
 * the first question asked from many threads at once, the answer a kernel
 * that copies pinned pages at fork() gives over RDMA netlink, and the
 * tracker's state otherwise. Then ibv_fork_init() and RDMAV_FORK_SAFE on
 * each answer the fake RDMA netlink (t_rdma_nl.h) gives: a kernel that
 * copies on fork gets no tracker at all (no madvise(), no split mapping,
 * every page in the child), the others get the tracker as before.
 */
#include <pthread.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
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
#include "t_rdma_nl.h"
#include "t_util.h"
#include "t_seccomp.h"

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

static void test_fork_status(void **state)
{
	t_spawn_ok(ARGS("status"), NULL);
}

/* The kernel's answers: SYS_GET's copy-on-fork attribute, or none. */
static const struct {
	const char *name;
	int cof; /* for t_nl_set_copy_on_fork() */
} answers[] = {
	{ "1", 1 },
	{ "0", 0 },
	{ "no-attribute", T_NL_SYS_NO_COF_ATTR },
	{ "no-sys-get", T_NL_SYS_UNKNOWN },
};

/* Fakes RDMA netlink answering @name; true if that answer is "copies". */
static bool t_kernel_says(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(answers); i++) {
		if (strcmp(answers[i].name, name))
			continue;
		t_nl_enable();
		t_nl_set_copy_on_fork(answers[i].cof);
		return answers[i].cof == 1;
	}
	abort();
}

static int t_maps_lines(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int c, n = 0;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/*
 * argv: ANSWER "call"|"env". Fork safety requested, by ibv_fork_init()
 * or by RDMAV_FORK_SAFE at library initialisation, then a registration
 * of the middle of three pages.
 */
static int mode_request(char **argv)
{
	bool cof = t_kernel_says(argv[0]);
	char *p = t_map(3), view[4];
	int maps;

	T_CHECK(p);
	if (!strcmp(argv[1], "env"))
		verbs_fork_env_init();
	else
		T_CHECK(ibv_fork_init() == 0);
	T_CHECK(verbs_fork_enabled() == !cof);
	T_CHECK(ibv_is_fork_initialized() ==
		(cof ? IBV_FORK_UNNEEDED : IBV_FORK_ENABLED));
	maps = t_maps_lines();
	T_CHECK(ibv_dontfork_range(p + t_ps, t_ps) == 0);
	T_CHECK(verbs_fork_refcount(p + t_ps) == !cof);
	/* DONTFORK splits the mapping in three; nothing does here. */
	T_CHECK(t_maps_lines() == maps + (cof ? 0 : 2));
	t_view(p, 3, t_ps, view);
	T_CHECK(!strcmp(view, cof ? "..." : ".X."));
	T_CHECK(t_child_read(p + t_ps, 2) == (cof ? 0 : 128 + SIGSEGV));
	T_CHECK(ibv_dofork_range(p + t_ps, t_ps) == 0);
	t_view(p, 3, t_ps, view);
	T_CHECK(!strcmp(view, "..."));
	return 0;
}

/* argv: ANSWER. Fork safety requested after a registration. */
static int mode_late(char **argv)
{
	bool cof = t_kernel_says(argv[0]);
	char *p = t_map(1);

	T_CHECK(p);
	T_CHECK(ibv_dontfork_range(p, t_ps) == 0);
	T_CHECK(ibv_fork_init() == (cof ? 0 : EINVAL));
	T_CHECK(!verbs_fork_enabled());
	T_CHECK(ibv_is_fork_initialized() ==
		(cof ? IBV_FORK_UNNEEDED : IBV_FORK_DISABLED));
	return 0;
}

static void test_fork_safety_requested(void **state)
{
	struct t_run r;

	for (size_t i = 0; i < ARRAY_SIZE(answers); i++) {
		t_spawn_ok(ARGS("request", answers[i].name, "call"), NULL);
		t_spawn_ok(ARGS("late", answers[i].name), NULL);
		/* The variable asks, and no warning is printed. */
		t_spawn(&r, ARGS("request", answers[i].name, "env"),
			ARGS("RDMAV_FORK_SAFE=1"));
		if (r.status)
			fail_msg("request %s env: exit %d\n%s%s",
				 answers[i].name, r.status, r.out, r.err);
		assert_string_equal(r.err, "");
	}
}

int main(int argc, char **argv)
{
	static const struct t_mode modes[] = {
		{ "status", mode_status },
		{ "request", mode_request },
		{ "late", mode_late },
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_status),
		cmocka_unit_test(test_fork_safety_requested),
	};

	return t_fork_main(argc, argv, modes, ARRAY_SIZE(modes), tests,
			   ARRAY_SIZE(tests));
}
