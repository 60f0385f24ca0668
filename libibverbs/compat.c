// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Entry points kept only for binaries built against old libibverbs. */
#include "ibverbs.h"

/*
 * Providers of libibverbs 1.1 registered through this; none of those can
 * work with this library, but old libfabric binaries still import it.
 */
void ibv_register_driver_compat(const char *name, void *init_func);
void ibv_register_driver_compat(const char *name, void *init_func)
{
}
__asm__(".symver ibv_register_driver_compat, ibv_register_driver@IBVERBS_1.1");
