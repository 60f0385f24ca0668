// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel ABI checks, compiled on their own: every build holds the
 * system's kernel headers to the layouts that the library and Debian's
 * binary providers depend on. Nothing here is linked anywhere.
 */
#include "kernel-headers/kabi_netlink.h"
#include "kernel-headers/kabi_verbs.h"
#include "kernel-headers/procmap_query.h"
#include "kernel-headers/query_port_resp.h"
