// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Seccomp filters that make the kernel itself refuse one system call. */
#include <errno.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>

#include "t_seccomp.h"

#if defined(__x86_64__)
#define T_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define T_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define T_ARG(n) (offsetof(struct seccomp_data, args[0]) + 8 * (n))
#else
#define T_ARG(n) (offsetof(struct seccomp_data, args[0]) + 8 * (n) + 4)
#endif

int t_seccomp_deny(int nr, int a1, uint32_t v1, int a2, uint32_t v2, int err)
{
#ifdef T_AUDIT_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, T_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, T_ARG(a1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, v1, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, T_ARG(a2 < 0 ? a1 : a2)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, a2 < 0 ? v1 : v2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
				   .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return errno;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return errno;
	return 0;
#else
	return EOPNOTSUPP;
#endif
}

int t_hide_rdma_netlink(void)
{
	return t_seccomp_deny(__NR_socket, 0, AF_NETLINK, 2, NETLINK_RDMA,
			      EPROTONOSUPPORT);
}

bool t_rdma_netlink(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}
