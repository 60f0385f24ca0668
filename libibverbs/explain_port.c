// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why ibv_query_port_speed() failed (explain.h). Three causes have a
 * fact behind them: the provider has no such operation (rdma-core 65's
 * own rxe and siw, and most hardware plug-ins), the port number is not
 * one of the device's, or the kernel has the method but its driver
 * keeps no speed to give (rdma_rxe and siw on 7.2 answer EOPNOTSUPP).
 * A kernel without the method at all is explain_ioctl.c's line.
 */
#include <errno.h>

#include "context_priv.h"
#include "explain.h"
#include "explain_line.h"

void explain_query_port_speed(struct ibv_context *ctx, uint32_t port_num,
			      int err, bool provider_op)
{
	const struct verbs_context_ops *ops = get_ops(ctx);
	struct ibv_port_attr pa;

	if (!explain_enabled())
		return;
	if (err == EOPNOTSUPP && !provider_op)
		explain_one(
			ctx, "query_port_speed",
			"the provider has no port-speed query; ibv_query_port() reports the port's width and speed");
	else if (err == EINVAL &&
		 (port_num > UINT8_MAX ||
		  ops->query_port(ctx, (uint8_t)port_num, &pa)))
		explain_one(ctx, "query_port_speed",
			    "port_num %u is not a port of the device",
			    port_num);
}

void explain_port_speed_refused(struct ibv_context *ctx, uint32_t port_num)
{
	explain_one(
		ctx, "query_port_speed",
		"the kernel has the method DEVICE/QUERY_PORT_SPEED, but its driver gives no speed for port %u (EOPNOTSUPP)",
		port_num);
}
