// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * no-ioctl CMD [ARG...]: run CMD with the verbs ioctl switched off.
 *
 * A seccomp filter makes every ioctl(fd, RDMA_VERBS_IOCTL, ...) fail with
 * ENOTTY, the answer of a kernel that predates the ioctl interface, then
 * the launcher execs CMD. The filter is inherited across exec and fork, so
 * a whole test script and every client it starts run on the write()
 * command path of whichever libibverbs they load (Debian's and ours
 * alike: Debian's run proves what the expected result is). Other ioctls
 * (terminals, netlink tools, rdma_cm) are untouched.
 *
 * The job also gets IBV_VM_NO_IOCTL=1, so the scripts can say which mode
 * their table is for and pick the expectations of that mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rdma/rdma_user_ioctl.h>

#include "t_seccomp.h"

int main(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: no-ioctl CMD [ARG...]\n");
		return 2;
	}
	/* The filter compares the low 32 bits of the request: all of it. */
	err = t_seccomp_deny(__NR_ioctl, 1, RDMA_VERBS_IOCTL, -1, 0, ENOTTY);
	if (err) {
		fprintf(stderr, "no-ioctl: cannot install the filter: %s\n",
			strerror(err));
		/* Without the filter the run would prove nothing: skip. */
		return err == EOPNOTSUPP ? 77 : 1;
	}
	if (setenv("IBV_VM_NO_IOCTL", "1", 1))
		return 1;
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-ioctl: cannot run %s: %s\n", argv[1],
		strerror(errno));
	return 127;
}
