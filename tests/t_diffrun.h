/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Differential runs against a release of rdma-core on the fake kernel
 * (t_uverbs.h): a test program records its scenarios into a trace twice,
 * in two child processes of itself, once on our libibverbs and once on
 * Debian's (LD_LIBRARY_PATH=$IBV_REFERENCE_LIBDIR), then compares the
 * traces a section at a time ("== <name> <kernel>").
 *
 * A trace is a list of records: a system call (from its "ioctl" or
 * "write" line to its "  -> errno" line) or a line of its own. The
 * differences we make on purpose are rules, each with its reason: a
 * drop rule takes the system calls it matches out of both traces (the
 * fake kernel's two, t_diffrun.c, hold for every test); a line rule, a
 * test's own, replaces in one section name's rdma-core trace a whole
 * line with the one our library gives instead; a word "*x" of the line
 * stands for any word ending in x (bytes rdma-core never set, which
 * differ from run to run). The last case prints what every rule took
 * out and fails on a line rule that never matched, so that no rule
 * outlives its reason.
 */
#ifndef T_DIFFRUN_H
#define T_DIFFRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "t_uverbs.h"

struct t_line {
	const char *name; /* the section name it applies to */
	const char *ref, *ours;
	const char *why;
	unsigned int used;
};

/* The kernels of t_uverbs.h a test records every case under, in order. */
#define T_DIFFRUN_NKERNELS 3
extern const enum t_uv_kernel t_diffrun_kernels[T_DIFFRUN_NKERNELS];

struct t_diffrun {
	const char *group; /* the cmocka group */
	/* In a recording child: every case into @path; an exit status. */
	int (*record)(const char *path);
	struct t_line *lines;
	size_t nlines;
	char *ours, *ref; /* the two traces */
	char path_ours[64], path_ref[64];
};

/*
 * A differential test's main(). In a recording child it returns
 * @run->record()'s status. In the parent it records both traces (77,
 * skip, without a reference), then runs a cmocka case per name of
 * @names, which compares the sections "<name> <kernel>" under every
 * kernel and prints the first difference, and "deliberate_differences"
 * last: what each rule took out, failing on a line rule that no longer
 * matches. The trace files are removed at the end (kept, and named,
 * with T_UV_KEEP=1).
 */
int t_diffrun_main(struct t_diffrun *run, const char *const *names, size_t n);

/*
 * Runs this program again, with @env set to @value and, unless NULL,
 * LD_LIBRARY_PATH to @libdir; waits for it. Its exit status, 128 when a
 * signal ended it, -1 when it could not be run.
 */
int t_diffrun_self(const char *env, const char *value, const char *libdir);

#endif
