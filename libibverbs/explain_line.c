// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Building an explanation's line (explain_line.h): bounded appends,
 * causes joined by "; ", and the one ibv_log() call that writes it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "context_priv.h"
#include "driver.h"
#include "explain_line.h"
#include "log.h"

static void __attribute__((format(printf, 2, 0)))
line_vadd(struct line *l, const char *fmt, va_list ap)
{
	int n;

	if (l->n >= sizeof(l->s) - 1)
		return;
	n = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	if (n > 0)
		l->n += (size_t)n;
	if (l->n >= sizeof(l->s))
		l->n = sizeof(l->s) - 1;
}

void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_vadd(l, fmt, ap);
	va_end(ap);
}

void explain_one(struct ibv_context *ctx, const char *verb, const char *fmt,
		 ...)
{
	int saved;
	struct line l;
	va_list ap;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	line_clause(&l);
	va_start(ap, fmt);
	line_vadd(&l, fmt, ap);
	va_end(ap);
	line_emit(ctx, verb, &l);
	errno = saved;
}

void line_clause(struct line *l)
{
	if (l->clauses++)
		line_add(l, "; ");
}

void line_over(struct line *l, const char *what, uint64_t req,
	       const char *limit_name, uint64_t limit)
{
	if (req <= limit)
		return;
	line_clause(l);
	line_add(l, "%s %" PRIu64 " > %s %" PRIu64, what, req, limit_name,
		 limit);
}

void line_unknown_bits(struct line *l, const char *what, uint64_t value,
		       uint64_t known, const char *prefix)
{
	if (!(value & ~known))
		return;
	line_clause(l);
	line_add(l,
		 "%s 0x%" PRIx64 " has bits 0x%" PRIx64
		 " that no %s flag defines",
		 what, value, value & ~known, prefix);
}

void line_emit_obj(struct ibv_context *ctx, const char *verb, const char *obj,
		   const struct line *l)
{
	if (l->clauses)
		ibv_log(EXPLAIN_LEVEL, "%s on %s%s: %s", verb,
			ctx->device->name, obj, l->s);
}

void line_emit_name(const char *device, const char *verb, const struct line *l)
{
	if (l->clauses)
		ibv_log(EXPLAIN_LEVEL, "%s on %s: %s", verb, device, l->s);
}

void line_emit(struct ibv_context *ctx, const char *verb, const struct line *l)
{
	line_emit_obj(ctx, verb, "", l);
}

bool explain_device_attr(struct ibv_context *ctx, struct ibv_device_attr_ex *a)
{
	memset(a, 0, sizeof(*a));
	return !get_ops(ctx)->query_device_ex(ctx, NULL, a, sizeof(*a));
}
