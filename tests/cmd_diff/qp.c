// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the QP family's commands: create, open, query,
 * modify, destroy, posting through the kernel, multicast, AHs.
 */
#include "t_diff.h"

T_CASE_SET(t_cases_qp);
