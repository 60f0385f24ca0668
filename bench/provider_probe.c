// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An LD_PRELOAD probe for bench/providers-perftest: when the process
 * exits, it appends to the file $PROVIDER_PROBE_OUT one line naming the
 * program and the libibverbs, rxe and siw provider files it had mapped:
 *
 *   exe=/usr/bin/ib_send_bw core=/.../libibverbs.so.1.14.44.0 rxe=/.../librxe-rdmav34.so siw=-
 *
 * The bench compares two providers run by unmodified perftest; this line
 * is its proof of which one each process ran. It is read at exit, after
 * the measurement, so the maps are the ones that did the work (a core
 * never unloads a provider). A process killed by a signal writes nothing,
 * which the bench counts as a failed run.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mapped {
	char core[PATH_MAX];
	char rxe[PATH_MAX];
	char siw[PATH_MAX];
};

/* Keeps the first file of each kind; the bench rejects a second one. */
static void note(char *dst, const char *path, int *extra)
{
	if (!dst[0])
		snprintf(dst, PATH_MAX, "%s", path);
	else if (strcmp(dst, path))
		(*extra)++;
}

static void scan(FILE *f, struct mapped *m, int *extra)
{
	char line[PATH_MAX + 128];

	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');

		if (!path)
			continue;
		path[strcspn(path, "\n")] = 0;
		if (strstr(path, "/libibverbs.so"))
			note(m->core, path, extra);
		else if (strstr(path, "/librxe-rdmav"))
			note(m->rxe, path, extra);
		else if (strstr(path, "/libsiw-rdmav"))
			note(m->siw, path, extra);
	}
}

static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

static void __attribute__((destructor)) provider_probe_report(void)
{
	const char *out = getenv("PROVIDER_PROBE_OUT");
	char exe[PATH_MAX] = "?";
	struct mapped m = {};
	char buf[4 * PATH_MAX + 128];
	int extra = 0, fd, n;
	ssize_t len;
	FILE *f;

	if (!out)
		return;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	scan(f, &m, &extra);
	fclose(f);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 1] = 0;
	n = snprintf(buf, sizeof(buf),
		     "exe=%s core=%s rxe=%s siw=%s extra=%d\n", exe,
		     or_dash(m.core), or_dash(m.rxe), or_dash(m.siw), extra);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	/* One write() of an O_APPEND file: lines of two processes never mix. */
	fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) != n)
		fprintf(stderr, "provider_probe: short write to %s\n", out);
	close(fd);
}
