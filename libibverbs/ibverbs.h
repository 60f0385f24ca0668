/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Library-private declarations shared by the core's source files. Neither
 * installed nor visible to providers (they use driver.h).
 */
#ifndef IBV_IBVERBS_H
#define IBV_IBVERBS_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "driver.h"
#include "kern-abi.h"
#include "test_hooks.h"

/*
 * Defines the default version (name@@ver) of an exported function that also
 * has an older compat version (see compat.c). Both get private names bound
 * with .symver, because the linker would otherwise give the plain name the
 * first version listed. Static archives keep the latest version only,
 * under the plain name.
 */
#ifdef _STATIC_LIBRARY_BUILD_
#define VERBS_DEFAULT_VERSION(ret, name, ver, ...) ret name(__VA_ARGS__)
#else
#define VERBS_DEFAULT_VERSION(ret, name, ver, ...)             \
	__asm__(".symver " #name "_default, " #name "@@" ver); \
	ret name##_default(__VA_ARGS__);                       \
	ret name##_default(__VA_ARGS__)
#endif
/* A compat version name@ver, defined as @impl. Shared library only. */
#define VERBS_COMPAT_VERSION(impl, name, ver) \
	__asm__(".symver " #impl ", " #name "@" ver)

/* Hidden in the shared object; the version script hides them anyway. */
#define VERBS_LOCAL __attribute__((visibility("hidden")))

/* Core ioctl objects below this have their refused methods remembered. */
#define KCMD_MAX_OBJECTS 32

/* The library's half of a context, reached through verbs_context.priv. */
struct verbs_ex_private {
	struct verbs_context_ops ops;
	uint32_t driver_id;
	bool imported;
	/*
	 * What the kernel refused (kcmd.c): no ioctl interface at all, or
	 * per object a bit for each method it does not know. Only ever set.
	 */
	atomic_bool no_ioctl;
	_Atomic uint32_t refused[KCMD_MAX_OBJECTS];
};

/*
 * Every context the library sees was set up by verbs_init_context(), so
 * it is extended: verbs_get_ctx()'s NULL, for applications holding
 * contexts of older libraries, cannot happen here.
 */
static inline struct verbs_ex_private *get_priv(struct ibv_context *ctx)
{
	return container_of(ctx, struct verbs_context, context)->priv;
}

static inline const struct verbs_context_ops *get_ops(struct ibv_context *ctx)
{
	return &get_priv(ctx)->ops;
}

/*
 * @a @b @c joined into @dst. ENAMETOOLONG, with @dst empty, when that does
 * not fit: a path or name cut short could name something else.
 */
static inline __attribute__((warn_unused_result)) int
str_join(char *dst, size_t size, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	if (la + lb + lc >= size) {
		dst[0] = '\0';
		return ENAMETOOLONG;
	}
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb);
	memcpy(dst + la + lb, c, lc + 1);
	return 0;
}

/* @src copied into @dst; ENAMETOOLONG, with @dst empty, if it does not fit. */
static inline __attribute__((warn_unused_result)) int
str_copy(char *dst, size_t size, const char *src)
{
	return str_join(dst, size, src, "", "");
}

/* env.c: every environment variable the library reads. */
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
VERBS_LOCAL const char *env_name(enum verbs_env var);
VERBS_LOCAL const char *env_get(enum verbs_env var);
VERBS_LOCAL bool env_present(enum verbs_env var);
VERBS_LOCAL bool env_enabled(enum verbs_env var);

/* init.c */
VERBS_LOCAL int ibverbs_init(void);

/* log.c */
VERBS_LOCAL void verbs_log_init(void);
VERBS_LOCAL bool verbs_log_enabled(uint32_t level);
VERBS_LOCAL void ibv_log(uint32_t level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define ibv_log_err(fmt, ...) ibv_log(VERBS_LOG_ERR, fmt, ##__VA_ARGS__)
#define ibv_log_warn(fmt, ...) ibv_log(VERBS_LOG_WARN, fmt, ##__VA_ARGS__)
#define ibv_log_info(fmt, ...) ibv_log(VERBS_LOG_INFO, fmt, ##__VA_ARGS__)
#define ibv_log_debug(fmt, ...) ibv_log(VERBS_LOG_DEBUG, fmt, ##__VA_ARGS__)
/* Printed when IBV_SHOW_WARNINGS is set or the log level asks for it. */
VERBS_LOCAL void ibv_warn_user(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* sysfs.c */
VERBS_LOCAL const char *file_kind(mode_t mode);
VERBS_LOCAL int ibv_read_sysfs_file_at(int dirfd, const char *file, char *buf,
				       size_t size);
VERBS_LOCAL int sysfs_read_u64(int dirfd, const char *file, int base,
			       uint64_t *val);
VERBS_LOCAL int sysfs_root_check(void);

/* drivers.c: the registry of providers and device matching. */
VERBS_LOCAL bool drivers_loaded(void);
VERBS_LOCAL unsigned int drivers_generation(void);
VERBS_LOCAL const struct verbs_device_ops *
match_driver(struct verbs_sysfs_dev *sysfs_dev, bool *abi_refused);

/* Why a scan produced no usable device, for the diagnostic message. */
struct discovery_stats {
	unsigned int found;
	unsigned int no_provider;
	unsigned int no_cdev;
	unsigned int abi_refused;
	unsigned int failed;
	bool unmatched; /* some device still has no provider */
};

/* discover.c */
enum scan_mode { SCAN_NETLINK, SCAN_SYSFS };

/* A device seen by one scan, before the core knows whether it changed. */
struct scan_entry {
	char name[IBV_SYSFS_NAME_MAX]; /* ibdev name (netlink) or uverbsN */
	uint64_t ident; /* ibdev index (netlink) or inode (sysfs) */
	uint64_t node_guid;
	uint32_t num_ports;
	enum ibv_node_type node_type;
	bool racy; /* sysfs: identity must be confirmed by reading */
};

struct scan {
	enum scan_mode mode;
	struct scan_entry *ent;
	size_t n, cap;
	int dirfd; /* sysfs: class/infiniband_verbs */
	int ibfd; /* class/infiniband, opened when first needed */
	int devfd; /* /dev/infiniband, opened when first needed */
	struct nl_sock *nl;
};

VERBS_LOCAL int scan_devices(struct scan *scan);
VERBS_LOCAL void scan_release(struct scan *scan);
VERBS_LOCAL int scan_fill(struct scan *scan, const struct scan_entry *ent,
			  struct verbs_sysfs_dev *sysfs_dev);
VERBS_LOCAL int uverbs_path(const struct verbs_sysfs_dev *sysfs_dev,
			    char path[IBV_SYSFS_PATH_MAX]);
VERBS_LOCAL bool cdev_matches(struct scan *scan,
			      const struct verbs_sysfs_dev *sysfs_dev);
VERBS_LOCAL int open_cdev(const char *devname, dev_t cdev);
VERBS_LOCAL extern int abi_ver;

/* rdma_nl.c: a thin layer over libnl for the RDMA netlink family. */
struct nl_sock;
struct nl_msg;
typedef int (*rdma_nl_cb)(struct nl_msg *msg, void *arg);
VERBS_LOCAL struct nl_sock *rdma_nl_open(void);
VERBS_LOCAL void rdma_nl_close(struct nl_sock *nl);
VERBS_LOCAL int rdma_nl_request(struct nl_sock *nl, struct nl_msg *msg,
				rdma_nl_cb cb, void *arg);
VERBS_LOCAL struct nl_msg *rdma_nl_msg(int cmd, int flags);

/* device.c */
VERBS_LOCAL void verbs_device_put(struct verbs_device *vdev);

/* context.c */
VERBS_LOCAL int verbs_init_context(struct verbs_context *vctx,
				   struct ibv_device *device, int cmd_fd,
				   uint32_t driver_id);

/* cmd_device.c: the device commands the library itself sends. */
/* ASYNC_EVENT/ALLOC: a new async event file into ctx->async_fd. */
VERBS_LOCAL int cmd_alloc_async_fd(struct ibv_context *ctx);
/*
 * DEVICE/QUERY_GID_ENTRY and QUERY_GID_TABLE. True when the kernel lacks
 * the method (the caller reads sysfs instead); otherwise *ret holds the
 * ioctl's result, 0 or a positive errno value.
 */
VERBS_LOCAL bool cmd_query_gid_entry(struct ibv_context *ctx, uint32_t port_num,
				     uint32_t gid_index,
				     struct ibv_gid_entry *entry,
				     uint32_t flags, size_t entry_size,
				     int *ret);
VERBS_LOCAL bool cmd_query_gid_table(struct ibv_context *ctx,
				     struct ibv_gid_entry *entries,
				     size_t max_entries, uint32_t flags,
				     size_t entry_size, uint64_t *num_entries,
				     int *ret);

/* verbs_device.c: the library's query_port slot (any caller's size). */
VERBS_LOCAL int verbs_query_port(struct ibv_context *ctx, uint8_t port,
				 struct ibv_port_attr *attr, size_t attr_len);

/*
 * verbs_qp.c: the library's create_qp_ex and create_srq_ex slots, which
 * call the provider's and explain a failure.
 */
VERBS_LOCAL struct ibv_qp *verbs_create_qp_ex(struct ibv_context *context,
					      struct ibv_qp_init_attr_ex *attr);
VERBS_LOCAL struct ibv_srq *
verbs_create_srq_ex(struct ibv_context *context,
		    struct ibv_srq_init_attr_ex *attr);

/* dummy_ops.c */
VERBS_LOCAL extern const struct verbs_context_ops verbs_dummy_ops;

/*
 * kern_copy.c: exported (librdmacm imports them) but declared in no
 * installed header, as in rdma-core 44.
 */
struct ib_uverbs_qp_attr;
struct ib_uverbs_ah_attr;
struct ib_user_path_rec;
struct ibv_sa_path_rec;
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

#endif
