/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Small generic helpers any file of the library may use; nothing here
 * knows of devices, commands or the kernel. Library-internal.
 */
#ifndef IBV_UTIL_H
#define IBV_UTIL_H

#include <errno.h>

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
