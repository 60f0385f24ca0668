/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Fuzz bytes as the netlink messages of one receive (nl_msgs.c). */
#ifndef FUZZ_NL_MSGS_H
#define FUZZ_NL_MSGS_H

#include <stddef.h>
#include <stdint.h>

struct nl_msg;

typedef void (*fuzz_nl_fn)(struct nl_msg *msg, void *arg);

/* Calls @fn on every message of @data, each as its own struct nl_msg. */
void fuzz_nl_each(const uint8_t *data, size_t size, fuzz_nl_fn fn, void *arg);

#endif
