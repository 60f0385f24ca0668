// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * How a verbs_diff step prints: its fields go to the parent through a
 * pipe, and the verbs' results are printed by kind (0 or errno, a count,
 * an object) so that every step writes them alike.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "verbs_diff.h"

int t_fd = -1; /* the pipe to the parent */

/*
 * Everything a child prints goes straight to the parent, field by field,
 * so what came before a crash is kept.
 */
void t_out(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	buf[0] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(buf + 1, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (write(t_fd, buf, n + 1) < 0)
		_exit(2);
}

static const char *t_errname(int e)
{
	static char other[16];
	const char *name;

	if (!e)
		return "0";
	name = strerrorname_np(e);
	if (name)
		return name;
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

/*
 * A step ends here; nothing is torn down that _exit() does not. The maps
 * probe of the test (maps_probe.c), when preloaded, notes first which core
 * and providers the step had mapped: _exit() runs no destructor.
 */
void t_done(void)
{
	void (*probe_dump)(void) =
		(void (*)(void))dlsym(RTLD_DEFAULT, "maps_probe_dump");

	if (probe_dump)
		probe_dump();
	_exit(0);
}

/* A step needs @fn: without it, it ends with missing-symbol=<name>. */
void t_need_fn(const void *fn, const char *name)
{
	if (!fn) {
		t_out("missing-symbol=%s", name);
		t_done();
	}
}

/*
 * A step needs @fn, one of the verbs rdma-core 65 added: a library of an
 * older release lacks it by design, which the step says and ends with.
 */
void t_need_v65_fn(const void *fn, const char *name)
{
	if (!fn) {
		t_out("not-in-release=%s", name);
		t_done();
	}
}

/* The main result of a verb that returns 0 or a positive errno. */
void t_rc(const char *key, int rc)
{
	int e = errno;

	if (!rc) {
		t_out("%s=0 errno=-", key);
		return;
	}
	t_out("%s=%s errno=%s", key, rc > 0 ? t_errname(rc) : "neg",
	      t_errname(e));
	if (rc < 0)
		t_out("%s.value=%d", key, rc);
}

/* A verb that returns a count, or -1 with errno. */
void t_num(const char *key, long n)
{
	int e = errno;

	if (n >= 0)
		t_out("%s=%ld errno=-", key, n);
	else
		t_out("%s=%ld errno=%s", key, n, t_errname(e));
}

/* A verb that returns an object, or NULL with errno; true on success. */
bool t_ptr(const char *key, const void *p)
{
	int e = errno;

	if (p) {
		t_out("%s=ok errno=-", key);
		return true;
	}
	t_out("%s=NULL errno=%s", key, t_errname(e));
	return false;
}

/* A setup call failed: say which, and end the step. */
void t_setup_failed(const char *what)
{
	int e = errno;

	t_out("setup-failed=%s errno=%s", what, t_errname(e));
	t_done();
}
