/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The library's one-time set-up (init.c). */
#ifndef IBV_INIT_H
#define IBV_INIT_H

/* Run by the first ibv_get_device_list(); 0 or a positive errno value. */
int ibverbs_init(void);

#endif
