// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of the device family: device, port and GID queries. They
 * check their arguments and dispatch to the provider through the
 * context's private op table (get_ops()); the provider in turn reaches
 * the kernel through the ibv_cmd_* layer.
 */
#include <errno.h>

#include "ibverbs.h"

/* verbs.h turns calls into the inline ___ibv_query_port(); define the real one. */
#undef ibv_query_port

/*
 * struct ibv_port_attr as it was before port_cap_flags2 was added; the
 * exported symbol keeps that size for binaries that call it directly.
 * Programs built against current headers call the verbs_context slot
 * (via the ibv_query_port macro) with their own structure size instead.
 */
struct _compat_ibv_port_attr {
	char bytes[48];
};

/**
 * ibv_query_port - query the attributes of a port
 * @context: an open device
 * @port_num: the port, from 1
 * @port_attr: filled in; the pre-1.1 48-byte layout
 *
 * Returns 0 or a positive errno value.
 */
int ibv_query_port(struct ibv_context *context, uint8_t port_num,
		   struct _compat_ibv_port_attr *port_attr)
{
	if (!context || !port_attr)
		return EINVAL;
	return verbs_query_port(context, port_num,
				(struct ibv_port_attr *)port_attr,
				sizeof(*port_attr));
}
