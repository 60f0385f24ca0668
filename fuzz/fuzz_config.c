// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A provider config file of /etc/libibverbs.d, as drivers.c reads it:
 * the whole text, NUL-terminated after its end, cut into lines. The
 * names it collects are forgotten after each input, so that memory does
 * not grow over a run and one input cannot change the next.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libibverbs/drivers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf;

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	parse_config_text("/etc/libibverbs.d", "fuzz.driver", buf, size);
	for (unsigned int i = 0; driver_name_at(i); i++)
		;
	driver_names_clear();
	free(buf);
	return 0;
}
