/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The provider config files (driver_config.c): the directory of files whose
 * "driver <name>" lines say which provider plug-ins a process may load.
 * The reader knows no registry; it hands each name to its caller.
 */
#ifndef IBV_DRIVER_CONFIG_H
#define IBV_DRIVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct config_reader {
	/* Takes one name (@len bytes, no NUL after them): 0, or ENOMEM. */
	int (*add)(const char *name, size_t len);
	/* Set when an allocation failed, so that a name may be missing. */
	bool short_of_memory;
};

/*
 * Hands @r every name of every regular file of @dir, files in name order:
 * 0, or the error that kept the directory from being read.
 */
int config_read_dir(struct config_reader *r, const char *dir);
/* One file's text (@len bytes, NUL after them); @buf is cut into lines. */
void config_read_text(struct config_reader *r, const char *dir,
		      const char *file, char *buf, size_t len);

#endif
