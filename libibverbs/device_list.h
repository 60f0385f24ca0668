/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The device list (device_list.c): the references a context holds. */
#ifndef IBV_DEVICE_LIST_H
#define IBV_DEVICE_LIST_H

#include <stdint.h>

#include "driver.h"

/* Drops a reference taken by ibv_get_device_list() or a context. */
void verbs_device_put(struct verbs_device *vdev);

/* node_guid's "xxxx:xxxx:xxxx:xxxx"; apart from the read for fuzz/. */
int parse_node_guid(const char *s, uint64_t *guid);

#endif
