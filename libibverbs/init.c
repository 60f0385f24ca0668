// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One-time library initialisation, run by the first ibv_get_device_list()
 * under the device list lock, as rdma-core does: not from a constructor,
 * so that merely linking the library reads no environment and opens no
 * file. It sets up the log, the sysfs root and the fork tracker.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cmd.h"
#include "driver.h"
#include "env.h"
#include "fork.h"
#include "init.h"
#include "log.h"

/*
 * Registrations pin memory; under a limit of a few pages they fail in
 * ways that are hard to trace back to it, so say it once, early.
 */
static void check_memlock(void)
{
	struct rlimit rl;

	if (geteuid() == 0 || getrlimit(RLIMIT_MEMLOCK, &rl))
		return;
	if (rl.rlim_cur <= 32768)
		fprintf(stderr,
			"libibverbs: Warning: the locked-memory limit (RLIMIT_MEMLOCK) is only %llu bytes; most memory registrations will fail\n",
			(unsigned long long)rl.rlim_cur);
}

/* Called with the device list lock held. */
int ibverbs_init(void)
{
	static bool done;

	if (done)
		return 0;
	done = true;
	verbs_log_init();
	verbs_fork_env_init();
	if (env_enabled(ENV_RDMAV_ALLOW_DISASSOC_DESTROY) ||
	    env_enabled(ENV_MLX4_DEVICE_FATAL_CLEANUP))
		cmd_allow_disassociate_destroy();
	ibv_get_sysfs_path();
	check_memlock();
	return 0;
}
