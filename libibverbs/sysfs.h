/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The sysfs root and bounded reads of attribute files (sysfs.c). */
#ifndef IBV_SYSFS_H
#define IBV_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a file is, for messages about the files the library refuses. */
const char *file_kind(mode_t mode);
int ibv_read_sysfs_file_at(int dirfd, const char *file, char *buf, size_t size);
int sysfs_read_u64(int dirfd, const char *file, int base, uint64_t *val);
int sysfs_root_check(void);

/* The text of an attribute, apart from the files (for fuzz/ too). */
int sysfs_attr_text(char *buf, size_t len, size_t size);
int sysfs_parse_u64(const char *buf, int base, uint64_t *val);

#endif
