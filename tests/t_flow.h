/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The flow family tests' fixture (cmd_flow_test.c, cmd_flow_action_test.c,
 * cmd_wq_test.c, cmd_counters_test.c): a context of t_kernel.h whose fake
 * kernel has every method, the tunnel included, and answers the family's
 * creates and destroys, by ioctl, through the tunnel and by write().
 */
#ifndef T_FLOW_H
#define T_FLOW_H

#include <stdint.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

#define T_DRIVER_ID 7
#define T_HANDLE 0x5a5a
#define T_EX 0x80000000u

/*
 * What the fake kernel answers beyond the shared knobs of t_kernel:
 * creates get T_HANDLE, a WQ destroy @events, an indirection table's
 * response length can be made up.
 */
struct t_flow_kernel {
	uint32_t events;
	uint32_t resp_len_override;
};
extern struct t_flow_kernel fk;

/* cmocka setup of that context. */
int t_setup(void **state);
/* The response pointer of logged write() @i: the u64 after its header. */
uint64_t t_resp_ptr(unsigned int i);

#define T_CASE(fn)                                   \
	cmocka_unit_test_setup_teardown(fn, t_setup, \
					t_context_teardown_keep_async)

#endif
