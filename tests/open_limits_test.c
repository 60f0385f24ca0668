// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Opening a device with no file descriptor left (RLIMIT_NOFILE) for the
 * uverbs node: a clean failure (NULL, EMFILE, nothing left open, the
 * library usable after) and at VERBS_LOG_LEVEL=3 a line with the limit.
 * On our library and siw plugin over the fake siw kernel
 * (t_siw_kernel.h); the async event file, which only a real kernel
 * makes, is the VM tier's (tests/vm/explain_vm_test.c).
 */
#include <dirent.h>
#include <errno.h>
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

#include <infiniband/verbs.h>

#include "t_siw_kernel.h"

static long t_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

/* The lowest descriptor number free, which the next open() takes. */
static long t_lowest_free(void)
{
	int fd = dup(0);

	assert_true(fd >= 0);
	close(fd);
	return fd;
}

/*
 * Opens siw0 with room for @room more descriptors; restores the limit.
 * @open_fds gets how many are open, @limit the limit set.
 */
static struct ibv_context *t_open_with_room(long room, long *open_fds,
					    long *limit)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct rlimit old, rl;
	int n;

	list = ibv_get_device_list(&n);
	assert_true(list && n == 1);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	*open_fds = t_open_fds();
	rl = old;
	/* The limit is on descriptor numbers: room above the lowest free. */
	rl.rlim_cur = t_lowest_free() + room;
	*limit = (long)rl.rlim_cur;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	errno = 0;
	ctx = ibv_open_device(list[0]);
	if (!ctx)
		assert_int_equal(errno, EMFILE);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	ibv_free_device_list(list);
	return ctx;
}

static void no_fd_left(void **state)
{
	struct ibv_context *ctx;
	long fds, limit;
	char line[160];

	(void)state;
	assert_null(t_open_with_room(0, &fds, &limit));
	snprintf(
		line, sizeof(line),
		"open_device on siw0: no file descriptor left for the uverbs node: all %ld that RLIMIT_NOFILE allows are open",
		limit);
	assert_true(t_siw_log_has(line));
	assert_int_equal(t_open_fds(), fds);
	/* Usable afterwards, with the limit back. */
	ctx = t_siw_open();
	assert_non_null(ctx);
	assert_int_equal(ibv_close_device(ctx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_fd_left),
	};

	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
