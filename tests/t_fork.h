/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#ifndef T_FORK_H
#define T_FORK_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this kernel answers PROCMAP_QUERY on /proc/self/maps (6.11+). */
bool t_kernel_has_procmap(void);
/* Our descriptor open on /proc/<pid>/maps, or -1. */
int t_find_maps_fd(void);
/* Whether [addr, addr + unit) is mapped in this process. */
bool t_mapped(const void *addr, size_t unit);
/*
 * What a fork()ed child sees of @n units of @unit bytes at @buf: @out gets
 * '.' for a unit present and 'X' for one missing, NUL-terminated.
 */
bool t_view_units(const char *buf, size_t n, size_t unit, char *out);
/*
 * Exit status of a child that reads @addr and checks it holds @expect, or
 * 128 + the signal that killed it, or -1.
 */
int t_child_read(const char *addr, char expect);
/* The default huge page size, 0 without hugetlbfs. */
size_t t_huge_size(void);
/* Read (@set < 0) or write a numeric file such as a sysctl; -1 on error. */
long t_sysctl(const char *path, long set);

#endif
