// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Running one scenario for a cmocka test, and small helpers on device
 * lists; see t_scenario.h.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>

#include "t_scenario.h"
#include "t_util.h"

struct bounded {
	int (*fn)(void *);
	void *arg;
};

/* In the child: a read that blocks forever ends with SIGALRM instead. */
static int run_bounded(void *p)
{
	struct bounded *b = p;

	alarm(T_SCENARIO_SECONDS);
	return b->fn(b->arg);
}

static bool under_ci(void)
{
	const char *ci = getenv("CI");

	return ci && !strcmp(ci, "true");
}

void t_scenario(int (*fn)(void *), void *arg)
{
	struct bounded b = { fn, arg };
	int rc = t_run(run_bounded, &b);

	if (rc == T_SKIP) {
		/* Scenarios of our behaviour alone skip on the reference. */
		if (under_ci() && !t_reference())
			fail_msg("scenario skipped under CI");
		skip();
	}
	if (rc == 128 + SIGALRM)
		fail_msg("scenario hung: killed after %d seconds",
			 T_SCENARIO_SECONDS);
	assert_int_equal(rc, 0);
}

int t_count(struct ibv_device **list)
{
	int n = 0;

	while (list && list[n])
		n++;
	return n;
}

void t_list_once(void *unused)
{
	ibv_free_device_list(ibv_get_device_list(NULL));
}

struct ibv_device *t_find(struct ibv_device **list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}
