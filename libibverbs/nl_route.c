// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libnl-route-3 for neighbour resolution (neigh.c), the library's only
 * user of it. The shared library does not link it: loading it costs a
 * process about 124,000 instructions (bench/README.md, "startup"), which
 * programs that never resolve a RoCE destination, most of them, would pay
 * at every start. It is dlopen()ed the first time a destination is
 * resolved instead, and its functions are looked up into one table.
 *
 * RTLD_LOCAL keeps its rtnl_* names out of the process's global scope:
 * its own dependency, libnl-3, is already loaded (this library links it
 * for discovery) and is the one its references bind to, so the objects
 * both sides pass each other are of one libnl-3. It is never closed: its
 * constructors registered its cache types with libnl-3.
 *
 * libibverbs.a keeps calling it directly: a static program links it
 * (libibverbs.pc's Requires.private), and a static program may have no
 * dynamic loader at all.
 */
#include <stddef.h>

#include "nl_route.h"

#ifdef _STATIC_LIBRARY_BUILD_

#define NL_ROUTE_DIRECT(name) .name = name,
static const struct nl_route direct = { NL_ROUTE_FUNCS(NL_ROUTE_DIRECT) };

const struct nl_route *nl_route_get(void)
{
	return &direct;
}

#else

#include <assert.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "log.h"

static_assert(sizeof(void *) == sizeof(void (*)(void)),
	      "dlsym()'s pointer holds a function's address");

static struct nl_route table;
static bool table_ok;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static const char *dl_why(void)
{
	const char *why = dlerror();

	return why ? why : "no reason given";
}

/* One function's address into its slot; false, logged, when it is missing. */
static bool lookup(void *lib, const char *name, void *slot)
{
	void *sym;

	dlerror();
	sym = dlsym(lib, name);
	if (!sym) {
		ibv_log_err("%s lacks %s, which neighbour resolution needs: %s",
			    NL_ROUTE_SONAME, name, dl_why());
		return false;
	}
	memcpy(slot, &sym, sizeof(sym));
	return true;
}

#define NL_ROUTE_LOOKUP(name) lookup(lib, #name, &table.name) &&

static void table_load(void)
{
	void *lib = dlopen(NL_ROUTE_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		ibv_log_err(
			"cannot load %s, which neighbour resolution needs: %s",
			NL_ROUTE_SONAME, dl_why());
		return;
	}
	table_ok = NL_ROUTE_FUNCS(NL_ROUTE_LOOKUP) true;
}

/*
 * errno is kept across a load that works: the loader's search of the
 * library path leaves ENOENT behind, and providers that report errno
 * after ibv_resolve_eth_l2_from_gid() fails would show it.
 */
const struct nl_route *nl_route_get(void)
{
	int saved = errno;

	pthread_once(&table_once, table_load);
	if (!table_ok) {
		errno = ENOSYS;
		return NULL;
	}
	errno = saved;
	return &table;
}

#endif
