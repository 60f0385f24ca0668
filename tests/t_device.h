/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The device family tests' fixture (cmd_device_test.c,
 * verbs_device_test.c, verbs_ah_test.c, context_test.c): a context of
 * t_kernel.h on a device whose sysfs directory is a fake ibdev tree made
 * once per program (GIDs, their types and netdevs, P_Keys), a fake kernel
 * that answers the device methods and commands, provider ops that keep
 * what they saw, and checks of the logged calls.
 */
#ifndef T_DEVICE_H
#define T_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

/* Hidden in the library (ibverbs.h); reachable in the static archive. */
int cmd_alloc_async_fd(struct ibv_context *ctx);
int verbs_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr, size_t attr_len);

#define T_DRIVER_ID 42

/*
 * The fake kernel beyond the shared knobs of t_kernel. By default it has
 * ioctl() but no INVOKE_WRITE tunnel (a 4.x kernel), so write-format
 * commands show up as write() calls.
 */
struct t_device_kernel {
	int ex_err; /* extended write()s fail with it */
	int fds[4]; /* async event files the fake handed out */
	unsigned int nfds;
};
extern struct t_device_kernel fk;

/* The ops a provider would give; what they saw is kept for the tests. */
struct t_device_ops_seen {
	const struct ibv_query_device_ex_input *input;
	size_t attr_size;
	int link_layer;
	int gid_tbl_len;
	int ret;
};
extern struct t_device_ops_seen ops_seen;

/* The fake ibdev directory, and its GIDs as text. */
extern char *t_root;
#define T_ZERO_GID "0000:0000:0000:0000:0000:0000:0000:0000"
#define T_LINK_GID "fe80:0000:0000:0000:0211:22ff:fe33:4455"
#define T_V4_GID "0000:0000:0000:0000:0000:ffff:c0a8:0101"

/* The fake kernel reset, with this family's answers to ioctl and write(). */
void t_device_kernel_reset(void);
/* cmocka setup and teardown: the context with the provider ops. */
int t_setup(void **state);
int t_teardown(void **state);
/*
 * cmocka group setup and teardown: the fake ibdev directory. Port 1: a
 * RoCE port with a link-local v1 GID on lo at 0, an empty slot at 1, the
 * v4-mapped 192.168.1.1 as RoCE v2 at 2 and 3. Port 2 has no gid_attrs
 * directory (an old kernel). P_Keys at port 1.
 */
int t_group_setup(void **state);
int t_group_teardown(void **state);

#define T_CASE(fn) cmocka_unit_test_setup_teardown(fn, t_setup, t_teardown)

#endif
