// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The environment: the one place that knows which variables the library
 * reads and which of them a privileged (setuid or setgid) process must
 * ignore. Everything else asks here instead of calling getenv(), so the
 * rule cannot be forgotten by the next variable.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "env.h"

/*
 * Variables that choose code to load, files to read or write, or a tree
 * to trust are "untrusted": honoured only when the process runs with its
 * user's own privileges. The others merely switch behaviour on.
 */
static const struct {
	const char *name;
	bool untrusted;
} vars[] = {
	[ENV_RDMAV_DRIVERS] = { "RDMAV_DRIVERS", true },
	[ENV_IBV_DRIVERS] = { "IBV_DRIVERS", true },
	[ENV_SYSFS_PATH] = { "SYSFS_PATH", true },
	[ENV_VERBS_LOG_LEVEL] = { "VERBS_LOG_LEVEL", true },
	[ENV_VERBS_LOG_FILE] = { "VERBS_LOG_FILE", true },
	[ENV_IBV_SHOW_WARNINGS] = { "IBV_SHOW_WARNINGS", false },
	[ENV_RDMAV_FORK_SAFE] = { "RDMAV_FORK_SAFE", false },
	[ENV_IBV_FORK_SAFE] = { "IBV_FORK_SAFE", false },
	[ENV_RDMAV_HUGEPAGES_SAFE] = { "RDMAV_HUGEPAGES_SAFE", false },
	[ENV_RDMAV_ALLOW_DISASSOC_DESTROY] = { "RDMAV_ALLOW_DISASSOC_DESTROY",
					       false },
	[ENV_MLX4_DEVICE_FATAL_CLEANUP] = { "MLX4_DEVICE_FATAL_CLEANUP",
					    false },
};

/*
 * secure_getenv() alone only covers the AT_SECURE case; a process that
 * changed its ids after exec is caught by comparing them as well.
 */
static bool privileged(void)
{
	return getuid() != geteuid() || getgid() != getegid();
}

const char *env_name(enum verbs_env var)
{
	return vars[var].name;
}

/* The value of @var, or NULL when unset or not to be trusted here. */
const char *env_get(enum verbs_env var)
{
	if (!vars[var].untrusted)
		return getenv(vars[var].name);
	if (privileged())
		return NULL;
	return secure_getenv(vars[var].name);
}

/* Set, whatever the value (even "0"), as rdma-core tests these. */
bool env_present(enum verbs_env var)
{
	return env_get(var) != NULL;
}

/* Set to anything but "0". */
bool env_enabled(enum verbs_env var)
{
	const char *v = env_get(var);

	return v && strcmp(v, "0") != 0;
}
