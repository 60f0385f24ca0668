/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The line an explanation builds (explain_line.c), shared by the files
 * that word failures: explain_<object>.c (queues, address handles, QP
 * states, registrations), explain_ioctl.c (methods the kernel lacks),
 * explain_open.c and explain_busy.c (objects still in use).
 * Library-internal.
 *
 * A line is a list of causes ("clauses") joined by "; ", written as
 * "<verb> on <device>[ <object>]: <causes>" only when it has one.
 */
#ifndef IBV_EXPLAIN_LINE_H
#define IBV_EXPLAIN_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "log.h"

/* The VERBS_LOG_LEVEL from which failures explain themselves. */
#define EXPLAIN_LEVEL 3

struct line {
	char s[480];
	size_t n;
	unsigned int clauses;
};

/*
 * An empty line. Not an initialiser: the buffer is left as it is, so a
 * quiet run (no explanation) pays nothing for it.
 */
static inline void line_start(struct line *l)
{
	l->s[0] = '\0';
	l->n = 0;
	l->clauses = 0;
}
/* Appends to the current cause; text past the buffer is dropped. */
void line_add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A whole explanation of one cause for @verb on @ctx's device, errno
 * kept; nothing when failures are not explained.
 */
void explain_one(struct ibv_context *ctx, const char *verb, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));
/* Starts a new cause, which the caller words with line_add(). */
void line_clause(struct line *l);
/* One cause: "@what @req > @limit_name @limit", if @req is over. */
void line_over(struct line *l, const char *what, uint64_t req,
	       const char *limit_name, uint64_t limit);
/*
 * One cause: "@what 0x.. has bits 0x.. that no @prefix flag defines", if
 * @value has bits outside @known.
 */
void line_unknown_bits(struct line *l, const char *what, uint64_t value,
		       uint64_t known, const char *prefix);
/* Logs the line for @verb on @ctx's device and @obj ("" for none). */
void line_emit_obj(struct ibv_context *ctx, const char *verb, const char *obj,
		   const struct line *l);
void line_emit(struct ibv_context *ctx, const char *verb, const struct line *l);
/* The same for a device by name, before it has a context. */
void line_emit_name(const char *device, const char *verb, const struct line *l);

/*
 * Whether failures explain themselves now (VERBS_LOG_LEVEL >= 3). Inline:
 * a quiet run pays a load and a branch on each error path, no call.
 */
static inline bool explain_enabled(void)
{
	return verbs_log_level >= EXPLAIN_LEVEL;
}
/* The device's attributes through the context's private ops. */
bool explain_device_attr(struct ibv_context *ctx, struct ibv_device_attr_ex *a);

#endif
