/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The device list (device_list.c): the references a context holds. */
#ifndef IBV_DEVICE_LIST_H
#define IBV_DEVICE_LIST_H

#include <stdatomic.h>
#include <stdint.h>

#include "driver.h"

/* Frees a device whose last reference is gone (device_list.c). */
void verbs_device_release(struct verbs_device *vdev);

/*
 * Drops a reference taken by ibv_get_device_list() or a context. Inline:
 * every ibv_close_device() drops one, and is rarely the last.
 */
static inline void verbs_device_put(struct verbs_device *vdev)
{
	if (atomic_fetch_sub(&vdev->refcount, 1) == 1)
		verbs_device_release(vdev);
}

/* node_guid's "xxxx:xxxx:xxxx:xxxx"; apart from the read for fuzz/. */
int parse_node_guid(const char *s, uint64_t *guid);

#endif
