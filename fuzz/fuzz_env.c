// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RDMAV_DRIVERS (drivers.c): provider names and path prefixes split on
 * ':' and ';'. An environment string ends at its first NUL, so the input
 * does too. The names are forgotten after each input, as in
 * fuzz_config.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libibverbs/drivers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *value = strndup((const char *)data, size);

	if (!value)
		return 0;
	(void)parse_driver_env(value);
	for (unsigned int i = 0; driver_name_at(i); i++)
		;
	driver_names_clear();
	free(value);
	return 0;
}
