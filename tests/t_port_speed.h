/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ibv_query_port_speed() through one of our providers (rxe, siw) on the
 * fake kernel of t_uverbs.h, whichever of its kernels is current: the
 * speed a kernel with the method gives, a driver that refuses it, and a
 * kernel without the method or without ioctl. Shared by
 * rxe_provider_test and siw_provider_test.
 */
#ifndef T_PORT_SPEED_H
#define T_PORT_SPEED_H

#include <stdbool.h>

#include <infiniband/verbs.h>

/*
 * The cases on @ctx's port 1. @log_has (NULL where the test keeps no
 * log) is asked for the line the library logs at level 3 for each
 * refusal. Skips (cmocka) on a core before rdma-core 65, which has no
 * such verb.
 */
void t_port_speed_cases(struct ibv_context *ctx,
			bool (*log_has)(const char *needle));

#endif
