// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * device_list_bench's child: one library, one process. It dlopen()s the
 * library by path, checks that it is the only libibverbs mapped, makes
 * the cold call and notes the memory it left resident, then times the
 * warm ones, checking every list it gets.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "bench_util.h"
#include "device_list_bench.h"
#include "t_seccomp.h"

struct verbs_api {
	struct ibv_device **(*get_list)(int *num);
	void (*free_list)(struct ibv_device **list);
	const char *(*get_name)(struct ibv_device *dev);
};

struct loaded_check {
	const char *want; /* realpath of the library we dlopen()ed */
	unsigned int verbs_libs;
	bool want_seen;
};

static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded_check *lc = arg;
	const char *base = strrchr(info->dlpi_name, '/');
	char real[PATH_MAX];

	(void)size;
	base = base ? base + 1 : info->dlpi_name;
	if (strncmp(base, "libibverbs.so", strlen("libibverbs.so")))
		return 0;
	lc->verbs_libs++;
	if (realpath(info->dlpi_name, real) && !strcmp(real, lc->want))
		lc->want_seen = true;
	return 0;
}

/*
 * The providers bind to whichever libibverbs.so.1 the process holds; with
 * two in the process (e.g. the system's, pulled in by some dependency) we
 * would measure a mix. Insist on exactly the one we were asked to load.
 */
static void check_single_libibverbs(const char *lib)
{
	struct loaded_check lc = {};
	char real[PATH_MAX];

	if (!realpath(lib, real))
		die("realpath %s: %s", lib, strerror(errno));
	lc.want = real;
	dl_iterate_phdr(note_object, &lc);
	if (lc.verbs_libs != 1 || !lc.want_seen)
		die("%s: expected only %s loaded, found %u libibverbs objects",
		    lib, real, lc.verbs_libs);
}

static void load_api(const char *lib, struct verbs_api *api)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);

	if (!h)
		die("dlopen %s: %s", lib, dlerror());
	api->get_list = (struct ibv_device * *(*)(int *))
		dlsym(h, "ibv_get_device_list");
	api->free_list = (void (*)(struct ibv_device **))dlsym(
		h, "ibv_free_device_list");
	api->get_name = (const char *(*)(struct ibv_device *))dlsym(
		h, "ibv_get_device_name");
	if (!api->get_list || !api->free_list || !api->get_name)
		die("%s lacks the device list functions", lib);
	check_single_libibverbs(lib);
}

/* Every fake device exactly once, by name. */
static void check_names(const struct verbs_api *api, struct ibv_device **list,
			unsigned int devices)
{
	char *seen = calloc(devices, 1);
	unsigned int i, idx;
	const char *name;
	char tail;

	if (!seen)
		die("out of memory");
	for (i = 0; i < devices; i++) {
		name = api->get_name(list[i]);
		if (!name || sscanf(name, "tprov%u%c", &idx, &tail) != 1 ||
		    idx >= devices || seen[idx]++)
			die("unexpected or duplicate device name '%s'",
			    name ? name : "(null)");
	}
	if (list[devices])
		die("the device array is not NULL-terminated");
	free(seen);
}

static void check_count(bool got_list, int n, unsigned int want)
{
	if (!got_list)
		die("ibv_get_device_list failed: %s", strerror(errno));
	if (n < 0 || (unsigned int)n != want)
		die("ibv_get_device_list returned %d devices, expected %u", n,
		    want);
}

/*
 * A "Vm...:" line of /proc/self/status, in KiB; read without stdio, so
 * that reading it allocates nothing in the process it measures.
 */
static double status_kb(const char *field)
{
	char buf[4096], *at;
	ssize_t n;
	int fd;

	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open /proc/self/status: %s", strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("read /proc/self/status: %s", strerror(errno));
	buf[n] = '\0';
	at = strstr(buf, field);
	if (!at)
		die("/proc/self/status has no %s", field);
	return strtod(at + strlen(field), NULL);
}

/* The cold pair: library set-up, provider loading and a full read. */
static void measure_cold(const struct verbs_api *api, unsigned int devices,
			 struct sample *s)
{
	double t[4], c[4], rss_before = status_kb("VmRSS:");
	struct ibv_device **list;
	int n = -1;

	c[0] = cpu_ns();
	t[0] = now_ns();
	list = api->get_list(&n);
	t[1] = now_ns();
	c[1] = cpu_ns();
	check_count(list != NULL, n, devices);
	check_names(api, list, devices);
	c[2] = cpu_ns();
	t[2] = now_ns();
	api->free_list(list);
	t[3] = now_ns();
	c[3] = cpu_ns();
	s->cold_ns = (t[1] - t[0]) + (t[3] - t[2]);
	s->cold_cpu_ns = (c[1] - c[0]) + (c[3] - c[2]);
	s->rss_kb = status_kb("VmRSS:");
	s->hwm_kb = status_kb("VmHWM:");
	s->rss_delta_kb = s->rss_kb - rss_before;
}

/*
 * A netlink run measures nothing unless the library asked the fake: one
 * dump at least, and the character device of every device.
 */
static void check_netlink_used(const struct config *cf, struct sample *s)
{
	fake_netlink_requests(&s->nl_dumps, &s->nl_chardevs);
	if (!s->nl_dumps || s->nl_chardevs < cf->devices)
		die("%s did not take its netlink path: %u dump(s), %u GET_CHARDEV for %u devices",
		    cf->lib[0], s->nl_dumps, s->nl_chardevs, cf->devices);
}

/* One warm pair; the count is checked outside the timed region. */
static double warm_call(const struct verbs_api *api, unsigned int devices)
{
	struct ibv_device **list;
	double t0, t1;
	int n = -1;
	bool ok;

	t0 = now_ns();
	list = api->get_list(&n);
	ok = list != NULL;
	api->free_list(list);
	t1 = now_ns();
	check_count(ok, n, devices);
	return t1 - t0;
}

static void measure_warm(const struct verbs_api *api, const struct config *cf,
			 struct sample *s)
{
	size_t cap = 1024, n = 0;
	double *v = malloc(cap * sizeof(*v)), start, sum = 0;

	if (!v)
		die("out of memory");
	start = now_ns();
	while (!n || n < cf->min_iters ||
	       now_ns() - start < cf->min_time * 1e9) {
		if (n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die("out of memory");
		}
		v[n] = warm_call(api, cf->devices);
		sum += v[n++];
	}
	s->calls = n;
	s->warm_mean_ns = sum / (double)n;
	s->warm_median_ns = median(v, n);
	free(v);
}

/* Lets sysfs timestamp windows close, so warm calls see a settled tree. */
static void warm_up(const struct verbs_api *api, const struct config *cf)
{
	double start = now_ns();

	do
		warm_call(api, cf->devices);
	while (now_ns() - start < cf->warmup_ms * 1e6);
}

int child_main(const struct config *cf, int result_fd)
{
	struct verbs_api api;
	struct sample s = {};
	struct ibv_device **list;
	int n = -1;

	/*
	 * A netlink run hides the kernel's too: a library that went past
	 * the fake would then find no netlink at all, and fail the check.
	 */
	if (t_hide_rdma_netlink() && t_rdma_netlink())
		skip("the kernel answers RDMA netlink and it cannot be hidden here, so neither library would read the fake sysfs tree");
	if (cf->mode == MODE_NETLINK)
		fake_netlink(cf->devices);
	load_api(cf->lib[0], &api);
	measure_cold(&api, cf->devices, &s);
	if (cf->mode == MODE_NETLINK)
		check_netlink_used(cf, &s);
	/* Providers are loaded now; none may have dragged in another copy. */
	check_single_libibverbs(cf->lib[0]);
	/* --min-iters 0 --min-time 0: the cold call alone, for profiling. */
	if (cf->min_iters || cf->min_time > 0) {
		if (cf->warmup_ms)
			warm_up(&api, cf);
		measure_warm(&api, cf, &s);
		/* The devices must have survived all those calls intact. */
		list = api.get_list(&n);
		check_count(list != NULL, n, cf->devices);
		check_names(&api, list, cf->devices);
		api.free_list(list);
	}
	dprintf(result_fd, "%.0f %.0f %.1f %.1f %lu %.0f %.0f %.0f %u %u\n",
		s.cold_ns, s.cold_cpu_ns, s.warm_median_ns, s.warm_mean_ns,
		s.calls, s.rss_kb, s.hwm_kb, s.rss_delta_kb, s.nl_dumps,
		s.nl_chardevs);
	return 0;
}
