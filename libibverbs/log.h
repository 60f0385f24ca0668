/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The core's log (log.c); providers use verbs_log*() of driver.h. */
#ifndef IBV_LOG_H
#define IBV_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

void verbs_log_init(void);
bool verbs_log_enabled(uint32_t level);

/*
 * VERBS_LOG_LEVEL as verbs_log_init() read it, once: an error path asks
 * it with a load (explain_enabled()) instead of a call.
 */
extern uint32_t verbs_log_level;
void ibv_log(uint32_t level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define ibv_log_err(fmt, ...) ibv_log(VERBS_LOG_ERR, fmt, ##__VA_ARGS__)
#define ibv_log_warn(fmt, ...) ibv_log(VERBS_LOG_WARN, fmt, ##__VA_ARGS__)
#define ibv_log_info(fmt, ...) ibv_log(VERBS_LOG_INFO, fmt, ##__VA_ARGS__)
#define ibv_log_debug(fmt, ...) ibv_log(VERBS_LOG_DEBUG, fmt, ##__VA_ARGS__)
/* Printed when IBV_SHOW_WARNINGS is set or the log level asks for it. */
void ibv_warn_user(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
