// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Registrations that explain their failure (libibverbs/explain_mr.c):
 * access flags the verbs forbid or the device cannot honour, and pinned
 * memory over RLIMIT_MEMLOCK, also for root without CAP_IPC_LOCK. Each
 * case checks the exact log line at VERBS_LOG_LEVEL 3, that errno is the
 * provider's, and that below level 3 nothing is written. On the fixture
 * of t_explain.h; links the static archive.
 */
#include <errno.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "t_explain.h"
#include "t_scenario.h"
#include "t_util.h"

#define LW IBV_ACCESS_LOCAL_WRITE
#define RW IBV_ACCESS_REMOTE_WRITE
#define RA IBV_ACCESS_REMOTE_ATOMIC

static char t_page[4096] __attribute__((aligned(4096)));

/* ibv_reg_mr() of one page with @access fails with @err, saying @line. */
static int t_reg_case(int err, unsigned int access, const char *line)
{
	t_reg_mr_errno = err;
	errno = 0;
	T_CHECK_RET(!ibv_reg_mr(&t_pd, t_page, sizeof(t_page), access));
	T_CHECK_RET(errno == err);
	return t_expect_log(line);
}

static int scenario_access(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	struct verbs_mr vmr = {
		.ibv_mr = { .context = ctx, .pd = &t_pd },
		.mr_type = IBV_MR_TYPE_MR,
		.access = LW,
	};
	static const struct {
		int err;
		unsigned int access;
		const char *line;
	} cases[] = {
		{ EINVAL, RW,
		  "reg_mr on rxe0: IBV_ACCESS_REMOTE_WRITE needs IBV_ACCESS_LOCAL_WRITE" },
		{ EINVAL, RW | RA | IBV_ACCESS_REMOTE_READ,
		  "reg_mr on rxe0: IBV_ACCESS_REMOTE_WRITE needs IBV_ACCESS_LOCAL_WRITE; IBV_ACCESS_REMOTE_ATOMIC needs IBV_ACCESS_LOCAL_WRITE" },
		{ EINVAL, LW | 0x1000,
		  "reg_mr on rxe0: access 0x1001 has bits 0x1000 that no IBV_ACCESS_ flag defines" },
		{ EOPNOTSUPP, LW | IBV_ACCESS_ON_DEMAND,
		  "reg_mr on rxe0: IBV_ACCESS_ON_DEMAND, but the device reports no on-demand paging" },
		/* Allowed combinations: the provider's reason, not ours. */
		{ EINVAL, LW | RW | RA | IBV_ACCESS_RELAXED_ORDERING, NULL },
		{ EINVAL, IBV_ACCESS_REMOTE_READ, NULL },
		/* A pin over the limit is not an access problem. */
		{ ENOMEM, RW, NULL },
	};

	t_pd.context = ctx;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		T_CHECK(!t_reg_case(cases[i].err, cases[i].access,
				    quiet ? NULL : cases[i].line));

	t_reg_mr_errno = EINVAL;
	errno = 0;
	T_CHECK(!ibv_reg_dmabuf_mr(&t_pd, 0, 4096, 0, 3, RA));
	T_CHECK(errno == EINVAL);
	T_CHECK(!t_expect_log(
		quiet ? NULL :
			"reg_dmabuf_mr on rxe0: IBV_ACCESS_REMOTE_ATOMIC needs IBV_ACCESS_LOCAL_WRITE"));
	errno = 0;
	T_CHECK(ibv_rereg_mr(&vmr.ibv_mr, IBV_REREG_MR_CHANGE_ACCESS, NULL,
			     NULL, 0, RW) == IBV_REREG_MR_ERR_CMD);
	T_CHECK(errno == EINVAL);
	T_CHECK(!t_expect_log(
		quiet ? NULL :
			"rereg_mr on rxe0: IBV_ACCESS_REMOTE_WRITE needs IBV_ACCESS_LOCAL_WRITE"));
	/* The access is not what changes: nothing to say about it. */
	T_CHECK(ibv_rereg_mr(&vmr.ibv_mr, IBV_REREG_MR_CHANGE_PD, &t_pd, NULL,
			     0, 0) == IBV_REREG_MR_ERR_CMD);
	T_CHECK(!t_expect_log(NULL));
	t_close(ctx);
	return 0;
}

/* A "Key: N kB" line of our /proc/self/status, in bytes. */
static unsigned long long t_status_bytes(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long kb = 0;
	char buf[128];

	T_CHECK(f);
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, key, strlen(key)))
			sscanf(buf + strlen(key) + 1, "%llu", &kb);
	fclose(f);
	return kb * 1024;
}

static int scenario_memlock(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	struct rlimit rl = { 65536, 65536 };
	size_t len = 1 << 20;
	void *buf = aligned_alloc(4096, len);
	char line[256];
	int n;

	T_CHECK(buf && !setrlimit(RLIMIT_MEMLOCK, &rl));
	t_pd.context = ctx;
	t_reg_mr_errno = ENOMEM;
	n = snprintf(
		line, sizeof(line),
		"reg_mr on rxe0: 1048576 bytes more to pin, %llu of RLIMIT_MEMLOCK 65536 already pinned",
		t_status_bytes("VmPin"));
	errno = 0;
	T_CHECK(!ibv_reg_mr(&t_pd, buf, len, LW));
	T_CHECK(errno == ENOMEM);
	/* Root with CAP_IPC_LOCK may pin without limit. */
	T_CHECK(!t_expect_log(quiet || !geteuid() ? NULL : line));
	if (!geteuid()) {
		/* As in most containers: root, but the capability dropped. */
		T_CHECK(t_drop_capability(CAP_IPC_LOCK));
		snprintf(line + n, sizeof(line) - n,
			 " (root, but without CAP_IPC_LOCK)");
		T_CHECK(!ibv_reg_mr(&t_pd, buf, len, LW));
		T_CHECK(errno == ENOMEM);
		T_CHECK(!t_expect_log(quiet ? NULL : line));
	}
	/* On-demand paging pins nothing. */
	T_CHECK(!ibv_reg_mr(&t_pd, buf, len, LW | IBV_ACCESS_ON_DEMAND));
	T_CHECK(!t_expect_log(NULL));
	free(buf);
	t_close(ctx);
	return 0;
}

static void test_access(void **state)
{
	(void)state;
	t_scenario(scenario_access, (void *)"3");
	t_scenario(scenario_access, (void *)"2");
}

static void test_memlock(void **state)
{
	(void)state;
	t_scenario(scenario_memlock, (void *)"3");
	t_scenario(scenario_memlock, (void *)"2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_access),
		cmocka_unit_test(test_memlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
