// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: shared receive queues, basic and extended.
 */
#include "t_diff.h"

T_CASE_SET(t_cases_srq);
