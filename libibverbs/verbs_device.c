// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of the device family: device, port and P_Key queries, and
 * the library's own query_port slot. The device and port queries
 * dispatch to the provider through the context's private op table
 * (get_ops()); the provider reaches the kernel through cmd_device.c.
 * P_Keys come from sysfs, as in rdma-core 44: the kernel has no command
 * for them. GIDs live next door (verbs_gid.c).
 *
 * This file sits below context.c, whose set_lib_ops() points the
 * context's compat slots at ibv_query_device() and ibv_query_port().
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>

#include "ibverbs.h"

/* verbs.h turns calls into the inline ___ibv_query_port(); define the real one. */
#undef ibv_query_port

/*
 * The verbs_context slot takes the caller's idea of the structure size,
 * since an application built against older headers has a shorter
 * struct ibv_port_attr; the provider always fills the full one.
 */
int verbs_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr, size_t attr_len)
{
	struct ibv_port_attr full;
	int ret;

	if (attr_len >= sizeof(full)) {
		memset(attr, 0, attr_len);
		return get_ops(ctx)->query_port(ctx, port, attr);
	}
	memset(&full, 0, sizeof(full));
	ret = get_ops(ctx)->query_port(ctx, port, &full);
	if (!ret)
		memcpy(attr, &full, attr_len);
	return ret;
}

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
VERBS_DEFAULT_VERSION(int, ibv_query_port, "IBVERBS_1.1",
		      struct ibv_context *context, uint8_t port_num,
		      struct _compat_ibv_port_attr *port_attr)
{
	if (!context || !port_attr)
		return EINVAL;
	return verbs_query_port(context, port_num,
				(struct ibv_port_attr *)port_attr,
				sizeof(*port_attr));
}

/**
 * ibv_query_device - query a device's base attributes
 * @context: an open device
 * @device_attr: filled in
 *
 * Providers implement only the extended query; asked for the size of
 * the base structure, they fill that much. Returns 0 or a positive
 * errno value.
 */
VERBS_DEFAULT_VERSION(int, ibv_query_device, "IBVERBS_1.1",
		      struct ibv_context *context,
		      struct ibv_device_attr *device_attr)
{
	struct ibv_device_attr_ex *ex;

	if (!context || !device_attr)
		return EINVAL;
	/* orig_attr is the first member: only its bytes are written. */
	ex = (struct ibv_device_attr_ex *)device_attr;
	return get_ops(context)->query_device_ex(context, NULL, ex,
						 sizeof(*device_attr));
}

/**
 * ibv_query_pkey - read one entry of a port's P_Key table
 * @context: an open device
 * @port_num: the port, from 1
 * @index: the entry
 * @pkey: the P_Key, in network byte order
 *
 * Returns 0, or -1 with errno set (sysfs has no such entry).
 */
VERBS_DEFAULT_VERSION(int, ibv_query_pkey, "IBVERBS_1.1",
		      struct ibv_context *context, uint8_t port_num, int index,
		      __be16 *pkey)
{
	struct verbs_device *vdev;
	char buf[8];
	unsigned int val;

	if (!context || !pkey) {
		errno = EINVAL;
		return -1;
	}
	vdev = verbs_get_device(context->device);
	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), vdev->sysfs,
				      "ports/%d/pkeys/%d", port_num, index) < 0)
		return -1;
	if (sscanf(buf, "%x", &val) != 1 || val > UINT16_MAX) {
		errno = EINVAL;
		return -1;
	}
	*pkey = htobe16(val);
	return 0;
}

/**
 * ibv_get_pkey_index - find a P_Key in a port's table
 * @context: an open device
 * @port_num: the port, from 1
 * @pkey: the P_Key, in network byte order
 *
 * Returns its index, or -1 with errno set once the table ends without it.
 */
int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
		       __be16 pkey)
{
	__be16 entry;
	int i;

	/* The table's length is not asked: the first missing entry ends it. */
	for (i = 0;; i++) {
		if (ibv_query_pkey(context, port_num, i, &entry))
			return -1;
		if (entry == pkey)
			return i;
	}
}
