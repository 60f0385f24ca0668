// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_bench's worker: the process (verbs_bench --worker) that loads one
 * library by path, checks that it and the rxe provider are the ones
 * mapped and that the fork tracker is on exactly when it should be, opens
 * the device, then runs the batches the parent asks for and times them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "bench_util.h"
#include "verbs_bench.h"

/* The verbs, filled by load_lib(); see verbs_bench.h. */
struct verbs_v44 v;

static void *load_lib(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	const char *missing;

	if (!h)
		die("dlopen %s: %s", path, dlerror());
	missing = verbs_lookup(h, &v);
	if (missing)
		die("%s lacks %s", path, missing);
	return h;
}

/*
 * Exactly one libibverbs, the requested one, must be mapped, and the rxe
 * provider with it; @prov receives the provider's path.
 */
static void check_maps(const char *lib, char *prov, size_t len)
{
	char want[PATH_MAX], line[PATH_MAX + 128], *p, *real;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f || !realpath(lib, want))
		die("cannot check the mappings: %s", strerror(errno));
	prov[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		if (strstr(p, "/librxe-rdmav"))
			snprintf(prov, len, "%s", p);
		if (!strstr(p, "/libibverbs.so"))
			continue;
		real = realpath(p, NULL);
		if (!real || strcmp(real, want))
			die("%s is mapped next to %s", p, want);
		free(real);
	}
	fclose(f);
	if (!prov[0])
		die("the rxe provider is not loaded");
}

static char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu: %s", len, strerror(errno));
	return p;
}

static void open_dev(struct wk *w, const char *name)
{
	struct ibv_device **list = v.ibv_get_device_list(NULL);
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(v.ibv_get_device_name(list[i]), name))
			w->dev = list[i];
	if (!w->dev)
		die("no device %s", name);
	/* The list is kept: w->dev must stay valid. */
	w->ctx = v.ibv_open_device(w->dev);
	w->pd = w->ctx ? v.ibv_alloc_pd(w->ctx) : NULL;
	w->cq = w->pd ? v.ibv_create_cq(w->ctx, 64, NULL, NULL, 0) : NULL;
	if (!w->cq)
		die("opening %s: %s", name, strerror(errno));
	if (v.ibv_query_gid(w->ctx, 1, w->gid_index, &w->gid))
		die("ibv_query_gid %d: %s", w->gid_index, strerror(errno));
}

/* Whether a registration marks its pages: the fork tracker is on. */
static bool tracker_on(struct wk *w)
{
	struct ibv_mr *mr =
		v.ibv_reg_mr(w->pd, w->small, 4096, IBV_ACCESS_LOCAL_WRITE);
	bool on;

	if (!mr)
		die("ibv_reg_mr: %s", strerror(errno));
	on = dontfork_set(w->small);
	v.ibv_dereg_mr(mr);
	return on;
}

/*
 * Fork safety asked for, and the tracker off: right where the library
 * says the kernel keeps a fork child off pinned pages by itself
 * (IBV_FORK_UNNEEDED), as ours does on a kernel that copies them.
 */
static bool fork_unneeded(void *lib, bool fork_safe)
{
	enum ibv_fork_status (*status)(void);

	*(void **)&status = dlsym(lib, "ibv_is_fork_initialized");
	return fork_safe && status && status() == IBV_FORK_UNNEEDED;
}

static void serve(struct wk *w, int in, int out)
{
	struct request rq;
	struct reply rp;
	double t;

	while (read(in, &rq, sizeof(rq)) == sizeof(rq)) {
		memset(&rp, 0, sizeof(rp));
		w->why[0] = 0;
		if (rq.line >= num_lines)
			die("bad request");
		t = now_ns();
		rp.err = lines[rq.line].run(w, rq.iters);
		rp.ns = now_ns() - t;
		snprintf(rp.msg, sizeof(rp.msg), "%s", w->why);
		if (write(out, &rp, sizeof(rp)) != sizeof(rp))
			die("reply: %s", strerror(errno));
	}
}

int worker_main(char **argv)
{
	static struct wk w;
	struct reply hello = { 0 };
	char prov[PATH_MAX];
	bool fork_safe = atoi(argv[3]);
	void *lib;

	w.gid_index = atoi(argv[2]);
	w.big = map_anon(BIG_BUF);
	w.small = map_anon(TRAFFIC_BUF);
	memset(w.small, 1, TRAFFIC_BUF);
	lib = load_lib(argv[0]);
	open_dev(&w, argv[1]);
	check_maps(argv[0], prov, sizeof(prov));
	if (tracker_on(&w) != fork_safe && !fork_unneeded(lib, fork_safe))
		die("the fork tracker is %s, expected %s",
		    fork_safe ? "off" : "on", fork_safe ? "on" : "off");
	/* The provider's path, cut to the message if it must be. */
	memcpy(hello.msg, prov, strnlen(prov, sizeof(hello.msg) - 1));
	if (write(atoi(argv[5]), &hello, sizeof(hello)) != sizeof(hello))
		die("hello: %s", strerror(errno));
	serve(&w, atoi(argv[4]), atoi(argv[5]));
	return 0;
}
