/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hidden functions of the library that its own white-box unit tests call
 * (tests/config_test.c links the static archive, where they are
 * reachable). Plain C types only: including this gives a test no access
 * to the library's internal structures, which stay in ibverbs.h.
 */
#ifndef IBV_TEST_HOOKS_H
#define IBV_TEST_HOOKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

#define TEST_HOOK __attribute__((visibility("hidden")))

/* discover.c: the kernel's node type as the public enum; UNKNOWN if odd. */
TEST_HOOK enum ibv_node_type decode_node_type(uint64_t knode);

/* drivers.c: the provider names load_drivers() would try, in order. */
TEST_HOOK int parse_driver_config_dir(const char *dir);
TEST_HOOK int parse_driver_env(const char *value);
TEST_HOOK void load_drivers(void);
TEST_HOOK const char *driver_name_at(unsigned int i);

/*
 * kcmd.c: the transport seam. The two system calls on a command file,
 * with the libc calling convention (-1 and errno on failure); NULL puts
 * the real one back. Not thread-safe: set before any command runs.
 */
typedef int (*kcmd_ioctl_fn)(int fd, unsigned long request, void *arg);
typedef ssize_t (*kcmd_write_fn)(int fd, const void *buf, size_t len);
TEST_HOOK void kcmd_set_transport(kcmd_ioctl_fn ioctl_fn,
				  kcmd_write_fn write_fn);

/*
 * cq_init.c: the library's create_cq_ex, which context.c installs in
 * every context's verbs_context slot.
 */
TEST_HOOK struct ibv_cq_ex *
verbs_create_cq_ex(struct ibv_context *context,
		   struct ibv_cq_init_attr_ex *cq_attr);

/*
 * neigh.c: ibv_resolve_eth_l2_from_gid() once it has the source GID, with
 * the wait for the neighbour bounded by @timeout_ms (the verb uses 3000).
 * Returns what the verb returns. Needs no ibv_query_gid().
 */
TEST_HOOK int neigh_resolve_gid(const union ibv_gid *sgid,
				const union ibv_gid *dgid,
				unsigned int timeout_ms, uint8_t *mac,
				uint16_t *vid);

#endif
