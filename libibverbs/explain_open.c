// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a device could not be opened (explain.h): the file descriptors an
 * open needs (the uverbs node, then the async event file) against
 * RLIMIT_NOFILE or the system's file table, and a node the process may
 * not open.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "driver.h"
#include "explain.h"
#include "explain_line.h"

void explain_open_device(struct ibv_device *device, const char *what, int err)
{
	struct line l;
	struct rlimit rl;

	if (!explain_enabled())
		goto out;
	line_start(&l);
	switch (err) {
	case EMFILE:
		/* Every number below the limit is taken, or open() had one. */
		if (getrlimit(RLIMIT_NOFILE, &rl))
			break;
		line_clause(&l);
		line_add(
			&l,
			"no file descriptor left for %s: all %llu that RLIMIT_NOFILE allows are open",
			what, (unsigned long long)rl.rlim_cur);
		break;
	case ENFILE:
		line_clause(&l);
		line_add(
			&l,
			"no file descriptor left for %s: the system's file table is full (fs.file-max)",
			what);
		break;
	case EACCES:
	case EPERM:
		line_clause(&l);
		line_add(&l, "%s: permission denied to uid %u", what,
			 (unsigned int)geteuid());
		break;
	}
	line_emit_name(device->name, "open_device", &l);
out:
	errno = err;
}
