// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libnl-route-3 loaded on first use (libibverbs/nl_route.c), seen through
 * ibv_resolve_eth_l2_from_gid(): the program compiles neigh.c and
 * nl_route.c as the shared library does and links libnl-3 only. It
 * defines dlopen() and dlerror() itself, passing every call on to the C
 * library's unless a case asks for a failed load (no library) or for
 * the wrong library (libnl-3, which lacks every rtnl_* function). The
 * table is loaded once per process, so each case runs in a child.
 *
 * No case needs a network of its own: a source GID that no interface
 * holds (one is picked at start) gets -EINVAL once the library is
 * there, -ENOSYS when it is not.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <ifaddrs.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_util.h"

#define T_SONAME "libnl-route-3.so.200"
#define T_WRONG_LIB "libnl-3.so.200"
#define T_REFUSAL "t_dlopen: refused for the test"
#define T_THREADS 8

/* log.c's, which no header of the test tier declares. */
void verbs_log_init(void);

enum t_mode { T_PASS, T_REFUSE, T_WRONG };

static void *(*real_dlopen)(const char *, int);
static char *(*real_dlerror)(void);
static enum t_mode t_mode;
static const char *t_pending; /* what our dlerror() says next */
static unsigned int t_opens; /* dlopen()s of T_SONAME */

/*
 * The C library's dlopen() and dlerror(), found on the first call: a
 * sanitizer's run-time calls dlopen() before main().
 */
static void t_find_real(void)
{
	if (!real_dlopen)
		real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT,
								  "dlopen");
	if (!real_dlerror)
		real_dlerror = (char *(*)(void))dlsym(RTLD_NEXT, "dlerror");
}

void *dlopen(const char *file, int flags)
{
	t_find_real();
	if (!file || strcmp(file, T_SONAME))
		return real_dlopen(file, flags);
	__atomic_fetch_add(&t_opens, 1, __ATOMIC_RELAXED);
	if (t_mode == T_REFUSE) {
		t_pending = T_REFUSAL;
		return NULL;
	}
	return real_dlopen(t_mode == T_WRONG ? T_WRONG_LIB : file, flags);
}

char *dlerror(void)
{
	const char *msg = t_pending;

	t_find_real();
	if (!msg)
		return real_dlerror();
	t_pending = NULL;
	return (char *)msg;
}

/*
 * The source GID every case resolves from: ::ffff:a.b.c.d of the first
 * of these documentation and benchmarking addresses that no interface
 * here holds (the test VM gives 192.0.2.1 to rxe0's netdev, and
 * 198.51.100.1 to siw0's).
 */
static const uint8_t t_candidates[][4] = {
	{ 203, 0, 113, 77 },
	{ 198, 18, 0, 77 },
	{ 192, 0, 2, 177 },
};
static union ibv_gid t_unheld = { .raw = { [10] = 0xff, [11] = 0xff } };

/* Whether an interface of @list holds IPv4 address @addr. */
static bool t_held(const struct ifaddrs *list, const uint8_t addr[4])
{
	for (const struct ifaddrs *ifa = list; ifa; ifa = ifa->ifa_next) {
		const struct sockaddr_in *sin = (void *)ifa->ifa_addr;

		if (sin && sin->sin_family == AF_INET &&
		    !memcmp(&sin->sin_addr, addr, 4))
			return true;
	}
	return false;
}

/* Picks the source address; false when every candidate is held here. */
static bool t_pick_source(void)
{
	const size_t n = sizeof(t_candidates) / sizeof(t_candidates[0]);
	struct ifaddrs *list;
	size_t i = 0;

	if (getifaddrs(&list))
		return false;
	while (i < n && t_held(list, t_candidates[i]))
		i++;
	freeifaddrs(list);
	if (i == n)
		return false;
	memcpy(&t_unheld.raw[12], t_candidates[i], 4);
	return true;
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid)
{
	(void)context;
	(void)port_num;
	(void)index;
	*gid = t_unheld;
	return 0;
}

static int t_resolve(void)
{
	struct ibv_context ctx = {};
	struct ibv_ah_attr attr = { .port_num = 1, .is_global = 1 };
	uint8_t mac[ETHERNET_LL_SIZE];

	attr.grh.dgid.raw[15] = 1;
	return ibv_resolve_eth_l2_from_gid(&ctx, &attr, mac, NULL);
}

static void *t_resolve_thread(void *arg)
{
	*(int *)arg = t_resolve();
	return NULL;
}

/* Whether a line of @path holds @needle; how many do, in @count. */
static bool t_file_has(const char *path, const char *needle,
		       unsigned int *count)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned int n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0)
		n += strstr(line, needle) != NULL;
	free(line);
	fclose(f);
	if (count)
		*count = n;
	return n > 0;
}

static bool t_mapped(void)
{
	return t_file_has("/proc/self/maps", T_SONAME, NULL);
}

/* Errors logged to a fresh file, as VERBS_LOG_LEVEL=1 asks. */
static void t_log_to(char *path)
{
	int fd = mkstemp(path);

	T_CHECK(fd >= 0);
	close(fd);
	setenv("VERBS_LOG_LEVEL", "1", 1);
	setenv("VERBS_LOG_FILE", path, 1);
	verbs_log_init();
}

/*
 * Threads race for the table; it is loaded once, and every one of them
 * gets past it to the lookup of the source's interface.
 */
static int sc_loads_once(void *arg)
{
	pthread_t th[T_THREADS];
	int ret[T_THREADS];

	(void)arg;
	T_CHECK(!t_mapped());
	for (int i = 0; i < T_THREADS; i++)
		T_CHECK(!pthread_create(&th[i], NULL, t_resolve_thread,
					&ret[i]));
	for (int i = 0; i < T_THREADS; i++) {
		T_CHECK(!pthread_join(th[i], NULL));
		T_CHECK(ret[i] == -EINVAL);
	}
	T_CHECK(t_opens == 1);
	T_CHECK(t_mapped());
	return 0;
}

/*
 * A load that fails in @mode: -ENOSYS (errno too) at every call, one
 * try, and one line in the log holding @line and @why.
 */
static int t_fails(enum t_mode mode, const char *line, const char *why)
{
	char log[] = "/tmp/ibvt-nlroute-XXXXXX";
	unsigned int lines = 0;

	t_mode = mode;
	t_log_to(log);
	T_CHECK(t_resolve() == -ENOSYS);
	errno = 0;
	T_CHECK(t_resolve() == -ENOSYS);
	T_CHECK(errno == ENOSYS);
	T_CHECK(t_opens == 1);
	T_CHECK(t_file_has(log, line, &lines));
	T_CHECK(lines == 1);
	T_CHECK(t_file_has(log, why, NULL));
	unlink(log);
	return 0;
}

/* No library: the log names it and gives dlerror()'s words. */
static int sc_refused(void *arg)
{
	(void)arg;
	t_fails(T_REFUSE, "cannot load " T_SONAME, T_REFUSAL);
	T_CHECK(!t_mapped());
	return 0;
}

/* A library without the functions: the missing one is named. */
static int sc_missing_function(void *arg)
{
	(void)arg;
	/* dlerror()'s own words, as glibc puts them. */
	return t_fails(T_WRONG, T_SONAME " lacks rtnl_link_alloc_cache",
		       "undefined symbol: rtnl_link_alloc_cache");
}

static void t_case(int (*fn)(void *))
{
	assert_int_equal(t_run(fn, NULL), 0);
}

static void test_loads_once(void **state)
{
	(void)state;
	t_case(sc_loads_once);
}

static void test_refused(void **state)
{
	(void)state;
	t_case(sc_refused);
}

static void test_missing_function(void **state)
{
	(void)state;
	t_case(sc_missing_function);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_once),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_missing_function),
	};

	t_find_real();
	if (!real_dlopen || !real_dlerror) {
		printf("nl_route_test: the C library's dlopen() not found\n");
		return 1;
	}
	if (!t_pick_source()) {
		printf("nl_route_test: skip: every candidate source address is held here\n");
		return T_SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
