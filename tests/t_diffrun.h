/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Differential runs against rdma-core 44 on the fake kernel (t_uverbs.h):
 * a test program records its scenarios into a trace twice, in two child
 * processes of itself, once on our libibverbs and once on Debian's
 * (LD_LIBRARY_PATH=$IBV_REFERENCE_LIBDIR), then compares the traces a
 * section at a time ("== <name> <variant>").
 *
 * A trace is a list of records: a system call (from its "ioctl" or
 * "write" line to its "  -> errno" line) or a line of its own. The
 * differences we make on purpose are rules, each with its reason: a
 * drop rule takes the system calls it matches out of both traces; a
 * line rule replaces, in one section name's rdma-core trace, a whole
 * line with the one our library gives instead; a word "*x" of the line
 * stands for any word ending in x (bytes rdma-core never set, which
 * differ from run to run). t_diffrun_report() prints
 * what every rule took out and fails on a line rule that never matched,
 * so that no rule outlives its reason.
 */
#ifndef T_DIFFRUN_H
#define T_DIFFRUN_H

#include <stdbool.h>
#include <stddef.h>

struct t_drop {
	const char *name;
	bool (*match)(const char *record);
	const char *why;
	unsigned int ours, ref; /* records dropped, over the whole run */
};

struct t_line {
	const char *name; /* the section name it applies to */
	const char *ref, *ours;
	const char *why;
	unsigned int used;
};

struct t_diffrun {
	struct t_drop *drops;
	size_t ndrops;
	struct t_line *lines;
	size_t nlines;
	char *ours, *ref; /* the two traces */
	char path_ours[64], path_ref[64];
};

/* The drop rules every run on the fake kernel needs (see t_diffrun.c). */
bool t_drop_tunnel_probe(const char *record);
bool t_drop_refused(const char *record);
#define T_DROP_TUNNEL_PROBE_WHY                                                \
	"rdma-core 44 asks for DEVICE/INVOKE_WRITE (with QUERY_DEVICE and no " \
	"request, which a kernel that has the tunnel refuses with ENOSPC) "    \
	"each time a context opens; we learn whether the kernel has the "      \
	"tunnel from the first command that needs it, and save that system "   \
	"call on every open"
#define T_DROP_REFUSED_WHY                                                    \
	"an ioctl the kernel's dispatcher refuses (ENOTTY: no ioctl at all; " \
	"EPROTONOSUPPORT: no such method) reaches no handler and changes "    \
	"nothing; both libraries remember the refusal, but learn it at "      \
	"different calls (see the tunnel probe)"

/*
 * In the parent: records both traces by running this program again with
 * T_UV_RECORD=<file>. 0, 77 (skip: no reference), or 1 with the reason
 * printed.
 */
int t_diffrun_record(struct t_diffrun *run);
/* In a child: the trace file to record into, or NULL in the parent. */
const char *t_diffrun_recording(void);

/*
 * Compares section "<name> <variant>" of the two traces after the rules;
 * prints the first difference and returns false when they differ (or a
 * section is missing).
 */
bool t_diffrun_compare(struct t_diffrun *run, const char *name,
		       const char *variant);
/* Prints what each rule took out; false if a line rule never matched. */
bool t_diffrun_report(struct t_diffrun *run);
/* Removes the trace files (kept, and named, with T_UV_KEEP=1). */
void t_diffrun_end(struct t_diffrun *run);

#endif
