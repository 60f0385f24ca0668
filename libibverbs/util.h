/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Small generic helpers any file of the library may use; nothing here
 * knows of devices, commands or the kernel. Library-internal.
 */
#ifndef IBV_UTIL_H
#define IBV_UTIL_H

#include <errno.h>
#include <string.h>

/*
 * @a @b @c joined into @dst. ENAMETOOLONG, with @dst empty, when that does
 * not fit: a path or name cut short could name something else.
 */
static inline __attribute__((warn_unused_result)) int
str_join(char *dst, size_t size, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	if (la + lb + lc >= size) {
		dst[0] = '\0';
		return ENAMETOOLONG;
	}
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb);
	memcpy(dst + la + lb, c, lc + 1);
	return 0;
}

/* @src copied into @dst; ENAMETOOLONG, with @dst empty, if it does not fit. */
static inline __attribute__((warn_unused_result)) int
str_copy(char *dst, size_t size, const char *src)
{
	return str_join(dst, size, src, "", "");
}

/*
 * The number of elements of the array @a. Given a pointer instead, gcc
 * and clang warn (-Wsizeof-pointer-div, in -Wall).
 */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Returns @err, a positive errno value or 0, and leaves a failure in
 * errno too: how the command layer fails (the rule above the ibv_cmd_*()
 * declarations in driver.h). Used where a failure is detected, so that
 * every caller up to the provider sees both.
 */
static inline int with_errno(int err)
{
	if (err)
		errno = err;
	return err;
}

#endif
