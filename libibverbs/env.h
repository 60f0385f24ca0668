/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every environment variable the library reads (env.c), and whether a
 * privileged process may see it.
 */
#ifndef IBV_ENV_H
#define IBV_ENV_H

#include <stdbool.h>

enum verbs_env {
	ENV_RDMAV_DRIVERS,
	ENV_IBV_DRIVERS,
	ENV_SYSFS_PATH,
	ENV_VERBS_LOG_LEVEL,
	ENV_VERBS_LOG_FILE,
	ENV_IBV_SHOW_WARNINGS,
	ENV_RDMAV_FORK_SAFE,
	ENV_IBV_FORK_SAFE,
	ENV_RDMAV_HUGEPAGES_SAFE,
	ENV_RDMAV_ALLOW_DISASSOC_DESTROY,
	ENV_MLX4_DEVICE_FATAL_CLEANUP,
};

const char *env_name(enum verbs_env var);
const char *env_get(enum verbs_env var);
bool env_present(enum verbs_env var);
bool env_enabled(enum verbs_env var);

#endif
