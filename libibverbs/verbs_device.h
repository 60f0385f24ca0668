/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* verbs_device.c's slot in every context (context.c installs it). */
#ifndef IBV_VERBS_DEVICE_H
#define IBV_VERBS_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "driver.h"

/* query_port for a caller whose struct ibv_port_attr is @attr_len long. */
int verbs_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr, size_t attr_len);

/*
 * The port attributes read from sysfs, apart from the reads so that
 * fuzz/ feeds them: a P_Key entry, a GID, a GID's type.
 */
int parse_pkey(const char *buf, __be16 *pkey);
int parse_gid(const char *text, union ibv_gid *gid);
int parse_gid_type(const char *buf, enum ibv_gid_type_sysfs *type);

#endif
