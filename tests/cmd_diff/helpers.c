// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the helpers of the provider ABI that are not
 * commands of their own (execute_ioctl() with a provider's buffer,
 * verbs_init_cq(), ibv_query_gid_type(), sysfs reads, the log).
 */
#include "t_diff.h"

T_CASE_SET(t_cases_helpers);
