/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the fake uverbs kernel (t_uverbs.c) uses of its trace
 * (t_uverbs_trace.c). Only those two files include this.
 */
#ifndef T_UVERBS_TRACE_H
#define T_UVERBS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Appends to the trace, if there is one. */
void t_uv_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @len bytes as 64-bit words, the last one short if @len says so. */
void t_uv_trace_words(const void *buf, size_t len);
/* A value as the trace shows it: a named address, "ptr", or hex. */
void t_uv_fmt_value(char *out, size_t size, uint64_t v);
/* Names a page mapped at @off of a command file by that offset. */
void t_uv_name_page(void *p, size_t len, off_t off);

#endif
