// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The allocation interposer of t_alloc.h. The program defines the C
 * library's allocation functions, so every library it loads (ours, a
 * provider, libnl, the C library itself) allocates here; each call goes
 * on to glibc's own __libc_* entry points unless it is the one armed to
 * fail. Beside it, the loop the tests run a verb in (t_alloc_each()).
 */
#include <errno.h>
#include <link.h>
#include <execinfo.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "t_alloc.h"

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

static _Atomic long live; /* blocks handed out and not yet freed */
static _Atomic unsigned long calls; /* allocation calls since arming */
static unsigned long fail_at; /* 0: none */
static _Atomic bool failed;

/*
 * Code whose allocations never fail here: the dynamic loader's, and the
 * test program's own (the fake kernel must not fail in the library's
 * place).
 */
static struct {
	uintptr_t lo, hi;
} spared[2];

static void spare(unsigned int i, const struct dl_phdr_info *info)
{
	for (int k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		spared[i].lo = info->dlpi_addr + ph->p_vaddr;
		spared[i].hi = spared[i].lo + ph->p_memsz;
	}
}

static int find_spared(struct dl_phdr_info *info, size_t size, void *arg)
{
	bool *first = arg;

	(void)size;
	if (*first)
		spare(0, info); /* the program comes first */
	else if (info->dlpi_name && strstr(info->dlpi_name, "/ld-linux"))
		spare(1, info);
	*first = false;
	return 0;
}

static bool is_spared(uintptr_t caller)
{
	for (unsigned int i = 0; i < 2; i++)
		if (caller >= spared[i].lo && caller < spared[i].hi)
			return true;
	return false;
}

void t_alloc_fail_at(unsigned long n)
{
	bool first = true;

	if (!spared[0].hi)
		dl_iterate_phdr(find_spared, &first);
	atomic_store(&calls, 0);
	atomic_store(&failed, false);
	fail_at = n;
}

bool t_alloc_failed(void)
{
	return atomic_load(&failed);
}

unsigned long t_alloc_calls(void)
{
	return atomic_load(&calls);
}

long t_alloc_live(void)
{
	return atomic_load(&live);
}

/*
 * Whether this allocation, made from @caller, is the one to fail (and
 * then it did). The spared are not counted. How the loader copes with
 * memory running out inside dlopen() is glibc's business (it reports
 * whatever error it met next); the provider's constructor, which runs
 * there, is not spared.
 */
static bool fails_from(uintptr_t caller)
{
	unsigned long n;

	if (is_spared(caller))
		return false;
	n = atomic_fetch_add(&calls, 1) + 1;

	if (!fail_at || n != fail_at)
		return false;
	atomic_store(&failed, true);
	/* T_ALLOC_TRACE=1: where the failing allocation came from. */
	if (getenv("T_ALLOC_TRACE")) {
		void *frames[16];

		backtrace_symbols_fd(frames, backtrace(frames, 16), 2);
	}
	errno = ENOMEM;
	return true;
}

static void *counted(void *p)
{
	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

/* The caller of the function this is used in. */
#define CALLER ((uintptr_t)__builtin_return_address(0))

static void *alloc(size_t size, uintptr_t caller)
{
	return fails_from(caller) ? NULL : counted(__libc_malloc(size));
}

static void *alloc_aligned(size_t align, size_t size, uintptr_t caller)
{
	return fails_from(caller) ? NULL :
				    counted(__libc_memalign(align, size));
}

void *malloc(size_t size)
{
	return alloc(size, CALLER);
}

void *calloc(size_t n, size_t size)
{
	return fails_from(CALLER) ? NULL : counted(__libc_calloc(n, size));
}

void *realloc(void *p, size_t size)
{
	if (!p)
		return alloc(size, CALLER);
	if (!size) {
		free(p);
		return NULL;
	}
	return fails_from(CALLER) ? NULL : __libc_realloc(p, size);
}

void free(void *p)
{
	if (p)
		atomic_fetch_sub(&live, 1);
	__libc_free(p);
}

void *memalign(size_t align, size_t size)
{
	return alloc_aligned(align, size, CALLER);
}

void *aligned_alloc(size_t align, size_t size)
{
	return alloc_aligned(align, size, CALLER);
}

void *valloc(size_t size)
{
	return alloc_aligned(4096, size, CALLER);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p = alloc_aligned(align, size, CALLER);

	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = alloc(n, CALLER);

	return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *d = alloc(n + 1, CALLER);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

unsigned long t_alloc_each(const struct t_alloc_verb *v, void *arg)
{
	long before;
	unsigned long n;
	int err = 0;

	/* Caches the first call fills are not the verb's to free. */
	if (!v->make(arg, &err))
		fail_msg("%s fails with nothing failing: errno %d", v->name,
			 err);
	v->undo(arg);
	before = t_alloc_live();
	for (n = 1;; n++) {
		bool ok, armed_failed;

		errno = 0;
		err = 0;
		t_alloc_fail_at(n);
		ok = v->make(arg, &err);
		armed_failed = t_alloc_failed();
		t_alloc_fail_at(0);
		if (ok)
			v->undo(arg);
		else if (!armed_failed)
			fail_msg(
				"%s failed (errno %d) with no allocation failing",
				v->name, err);
		else if (!err)
			fail_msg("%s failed at allocation %lu without errno",
				 v->name, n);
		if (t_alloc_live() != before)
			fail_msg(
				"%s, allocation %lu failing: %ld blocks leaked",
				v->name, n, t_alloc_live() - before);
		if (!armed_failed)
			return n - 1;
	}
}
