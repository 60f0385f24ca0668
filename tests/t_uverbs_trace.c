// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake uverbs kernel's trace (see t_uverbs.h): the names a test
 * gives its buffers, how a value is shown (a named address, "ptr", or
 * hex), and the lines the fake and the tests write. t_uverbs.c decodes
 * and answers the commands; this file only says what was seen.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "t_uverbs.h"
#include "t_uverbs_trace.h"

/* Naming addresses. */

#define T_UV_MAX_NAMES 64
static struct {
	char name[32];
	uintptr_t start;
	size_t len;
} names[T_UV_MAX_NAMES];
static unsigned int nnames;

void t_uv_name(const char *name, const void *buf, size_t len)
{
	if (nnames == T_UV_MAX_NAMES)
		abort();
	snprintf(names[nnames].name, sizeof(names[0].name), "%s", name);
	names[nnames].start = (uintptr_t)buf;
	names[nnames].len = len;
	nnames++;
}

void t_uv_unname(const void *buf)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (names[i].start == (uintptr_t)buf)
			names[i--] = names[--nnames];
}

void t_uv_forget_all(void)
{
	nnames = 0;
}

/*
 * The lowest address a library's buffer can have. Under AddressSanitizer
 * everything below 0x10007fff8000 is its shadow: mapped, yet no buffer's,
 * and wide enough to take in two u32 handles side by side (0x1100000010).
 */
#if defined(__SANITIZE_ADDRESS__) /* gcc */
#define T_UV_ASAN 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer)
#define T_UV_ASAN 1
#endif
#endif
#ifdef T_UV_ASAN
#define LOWEST_ADDRESS 0x10007fff8000ull
#else
#define LOWEST_ADDRESS (1ull << 32)
#endif

/* Whether @v is an address in this process's user space. */
static bool is_address(uint64_t v)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char vec;

	if (v < LOWEST_ADDRESS || v >= (1ull << 47))
		return false;
	return !mincore((void *)(uintptr_t)(v & ~(uint64_t)(page - 1)), 1,
			&vec);
}

/*
 * A value as the trace shows it: a named buffer's address as its name
 * and offset, any other address as "ptr" (where a library keeps its
 * scratch space is not the kernel's business), anything else in hex.
 */
void t_uv_fmt_value(char *out, size_t size, uint64_t v)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (v >= names[i].start && v - names[i].start < names[i].len) {
			snprintf(out, size, "%s+%llu", names[i].name,
				 (unsigned long long)(v - names[i].start));
			return;
		}
	if (is_address(v))
		snprintf(out, size, "ptr");
	else
		snprintf(out, size, "%llx", (unsigned long long)v);
}

void t_uv_trace(const char *fmt, ...)
{
	va_list ap;

	if (!t_uv.trace)
		return;
	va_start(ap, fmt);
	vfprintf(t_uv.trace, fmt, ap);
	va_end(ap);
}

/* @len bytes as 64-bit words, the last one short if @len says so. */
void t_uv_trace_words(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	char v[64];

	for (size_t off = 0; off < len; off += 8) {
		uint64_t w = 0;
		size_t n = len - off < 8 ? len - off : 8;

		memcpy(&w, p + off, n);
		if (n == 8)
			t_uv_fmt_value(v, sizeof(v), w);
		else
			snprintf(v, sizeof(v), "%llx/%zu",
				 (unsigned long long)w, n);
		t_uv_trace(" %s", v);
	}
}

/* A line of the trace: @prefix, then the text. */
static __attribute__((format(printf, 2, 0))) void
trace_line(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, t_uv.trace);
	vfprintf(t_uv.trace, fmt, ap);
	fputc('\n', t_uv.trace);
}

void t_uv_section(const char *fmt, ...)
{
	va_list ap;

	if (!t_uv.trace)
		return;
	va_start(ap, fmt);
	trace_line("== ", fmt, ap);
	va_end(ap);
	fflush(t_uv.trace);
}

void t_uv_note(const char *fmt, ...)
{
	va_list ap;

	if (!t_uv.trace)
		return;
	va_start(ap, fmt);
	trace_line("  result ", fmt, ap);
	va_end(ap);
}

void t_uv_dump(const char *what, const void *buf, size_t len)
{
	t_uv_trace("  result %s[%zu]", what, len);
	t_uv_trace_words(buf, len);
	t_uv_trace("\n");
}

/*
 * Where a provider keeps a driver's page (a doorbell register, a clock)
 * is the kernel's business: the page is named by its offset, while there
 * is room for a name.
 */
void t_uv_name_page(void *p, size_t len, off_t off)
{
	char name[32];

	if (nnames == T_UV_MAX_NAMES)
		return;
	snprintf(name, sizeof(name), "map@%llx", (unsigned long long)off);
	t_uv_name(name, p, len);
}
