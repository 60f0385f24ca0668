// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a benchmark's own process has mapped, read from /proc/self; see
 * bench_util.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"

/* The core and the rxe and siw plug-ins, by the names they are loaded as. */
static bool verbs_file(const char *path)
{
	return strstr(path, "/libibverbs.so") ||
	       strstr(path, "/librxe-rdmav") || strstr(path, "/libsiw-rdmav");
}

void print_mapped(void)
{
	char line[PATH_MAX + 128], *p;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		die("cannot read /proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		/* One line per file: its code, mapped once. */
		if (p && verbs_file(p) && strstr(line, " r-xp "))
			printf("%s: mapped %s", program_invocation_short_name,
			       p);
	}
	fclose(f);
}

bool dontfork_set(const void *addr)
{
	char line[512];
	uintptr_t lo, hi, a = (uintptr_t)addr;
	bool in = false, dc = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			dc = strstr(line, " dc") != NULL;
	}
	if (f)
		fclose(f);
	return dc;
}
