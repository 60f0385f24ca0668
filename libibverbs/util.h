/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Small generic helpers any file of the library may use; nothing here
 * knows of devices, commands or the kernel. Library-internal.
 */
#ifndef IBV_UTIL_H
#define IBV_UTIL_H

/*
 * The number of elements of the array @a. Given a pointer instead, gcc
 * and clang warn (-Wsizeof-pointer-div, in -Wall).
 */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
