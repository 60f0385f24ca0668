// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_is_fork_initialized() (libibverbs/fork_cow.c) in a fresh process:
 * the first question asked from many threads at once, the answer a kernel
 * that copies pinned pages at fork() gives over RDMA netlink, and the
 * tracker's state otherwise.
 */
#include <pthread.h>
#include <sys/socket.h>
#include <linux/netlink.h>
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

#include "t_fork.h"
#include "t_fork_tracker.h"
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

int main(int argc, char **argv)
{
	static const struct t_mode modes[] = {
		{ "status", mode_status },
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_status),
	};

	return t_fork_main(argc, argv, modes, ARRAY_SIZE(modes), tests,
			   ARRAY_SIZE(tests));
}
