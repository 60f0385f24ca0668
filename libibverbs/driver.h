/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The private interface between the verbs core and its providers, version
 * IBVERBS_PRIVATE_<N>. The core serves every provider ABI of
 * releases/table at once (IBV_FOR_EACH_PABI, from <infiniband/releases.h>):
 * Debian's binary providers of each release (lib*-rdmav<N>.so) load into
 * it, so every structure here keeps the member order and layout of their
 * private headers. A provider is built for one ABI: VERBS_PROVIDER_ABI,
 * the newest (IBVERBS_PRIVATE_ABI) unless its build says otherwise; this
 * header then gives it that ABI's layouts, and the newest signatures of
 * every function whatever the ABI, so that one source serves them all
 * (our rxe and siw are built once per ABI). tests/driver_abi_test.c
 * checks the size and every member offset of each structure, per ABI
 * (and of struct verbs_context and cmd_ioctl.h's command buffer), against
 * the reference's x86_64 numbers, together with the main constants and
 * the registration symbols' names. Not installed.
 */
#ifndef IBV_DRIVER_H
#define IBV_DRIVER_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include <infiniband/releases.h>

#ifndef VERBS_PROVIDER_ABI
#define VERBS_PROVIDER_ABI IBVERBS_PRIVATE_ABI
#endif

#include <infiniband/verbs.h>
#include "cmd_ioctl.h"
#include "kern-abi.h"
#include "list.h"

struct verbs_device;

/* Log levels of __verbs_log(); VERBS_LOG_LEVEL selects the threshold. */
enum {
	VERBS_LOG_LEVEL_NONE,
	VERBS_LOG_ERR,
	VERBS_LOG_WARN,
	VERBS_LOG_INFO,
	VERBS_LOG_DEBUG,
};

void __verbs_log(struct verbs_context *ctx, uint32_t level, const char *fmt,
		 ...) __attribute__((format(printf, 3, 4)));

#define verbs_log(ctx, level, fmt, ...)                              \
	__verbs_log(ctx, level, "%s: %s:%d: " fmt,                   \
		    (ctx)->context.device->name, __func__, __LINE__, \
		    ##__VA_ARGS__)
#define verbs_err(ctx, fmt, ...) \
	verbs_log(ctx, VERBS_LOG_ERR, fmt, ##__VA_ARGS__)
#define verbs_warn(ctx, fmt, ...) \
	verbs_log(ctx, VERBS_LOG_WARN, fmt, ##__VA_ARGS__)
#define verbs_info(ctx, fmt, ...) \
	verbs_log(ctx, VERBS_LOG_INFO, fmt, ##__VA_ARGS__)
#define verbs_debug(ctx, fmt, ...) \
	verbs_log(ctx, VERBS_LOG_DEBUG, fmt, ##__VA_ARGS__)

enum verbs_xrcd_mask {
	VERBS_XRCD_HANDLE = 1 << 0,
	VERBS_XRCD_RESERVED = 1 << 1,
};

enum create_cq_cmd_flags {
	CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX = 1 << 0,
	/* The CQ's queue is prov_attr's memory, or its dma-buf range. */
	CREATE_CQ_CMD_FLAGS_WITH_MEM_VA = 1 << 1,
	CREATE_CQ_CMD_FLAGS_WITH_MEM_DMABUF = 1 << 2,
};

/*
 * What a provider hands ibv_cmd_create_cq_ex() besides its command: the
 * buffer of the CQ's queue, when the provider allocated it itself
 * (CREATE_CQ_CMD_FLAGS_WITH_MEM_*).
 */
struct verbs_create_cq_prov_attr {
	struct {
		uint64_t length;
		union {
			uint8_t *ptr;
			struct {
				uint64_t offset;
				int fd;
			} dmabuf;
		};
	} buffer;
};

/*
 * A buffer from the provider's alloc_buf op: its memory, and the dma-buf
 * behind it (-1 for plain memory). Public code sees it as an opaque
 * struct ibv_buf.
 */
struct ibv_buf {
	void *addr;
	size_t size;
	struct ibv_pd *pd;
	int dmabuf_fd;
};

static inline void ibv_buf_init(struct ibv_buf *buf, struct ibv_pd *pd,
				void *addr, size_t size)
{
	buf->addr = addr;
	buf->size = size;
	buf->pd = pd;
	buf->dmabuf_fd = -1;
}

static inline void ibv_buf_init_dmabuf(struct ibv_buf *buf, struct ibv_pd *pd,
				       void *addr, size_t size, int fd)
{
	ibv_buf_init(buf, pd, addr, size);
	buf->dmabuf_fd = fd;
}

/*
 * Hands the kernel a queue that lives in a dma-buf backed @buf, as the
 * attribute @attr_id of a provider's command buffer: the range of
 * @length bytes (0: the buffer's size) at @addr (NULL: its start),
 * described in @storage by its offset into the dma-buf. @storage must
 * live until the command is sent. The kernel learns of
 * such a queue only by ioctl, so the command loses its write() fallback.
 * Plain memory (or no @buf) adds nothing: the kernel finds it by the
 * address the provider sends as always.
 */
static inline void fill_attr_in_buf_umem(struct ibv_command_buffer *cmdb,
					 uint16_t attr_id,
					 struct ib_uverbs_buffer_desc *storage,
					 struct ibv_buf *buf, void *addr,
					 size_t length)
{
	if (!buf || buf->dmabuf_fd == -1)
		return;
	memset(storage, 0, sizeof(*storage));
	storage->type = IB_UVERBS_BUFFER_TYPE_DMABUF;
	storage->fd = buf->dmabuf_fd;
	if (addr)
		storage->addr = (uintptr_t)addr - (uintptr_t)buf->addr;
	storage->length = length ? length : buf->size;
	fill_attr_in_ptr(cmdb, attr_id, storage);
	cmdb->fallback_ioctl_only = 1;
}

struct verbs_xrcd {
	struct ibv_xrcd xrcd;
	uint32_t comp_mask;
	uint32_t handle;
};

struct verbs_srq {
	struct ibv_srq srq;
	enum ibv_srq_type srq_type;
	struct verbs_xrcd *xrcd;
	struct ibv_cq *cq;
	uint32_t srq_num;
};

enum verbs_qp_mask {
	VERBS_QP_XRCD = 1 << 0,
	VERBS_QP_EX = 1 << 1,
};

enum ibv_gid_type_sysfs {
	IBV_GID_TYPE_SYSFS_IB_ROCE_V1,
	IBV_GID_TYPE_SYSFS_ROCE_V2,
};

enum verbs_query_gid_attr_mask {
	VERBS_QUERY_GID_ATTR_GID = 1 << 0,
	VERBS_QUERY_GID_ATTR_TYPE = 1 << 1,
	VERBS_QUERY_GID_ATTR_NDEV_IFINDEX = 1 << 2,
};

enum ibv_mr_type {
	IBV_MR_TYPE_MR,
	IBV_MR_TYPE_NULL_MR,
	IBV_MR_TYPE_IMPORTED_MR,
	IBV_MR_TYPE_DMABUF_MR,
};

struct verbs_mr {
	struct ibv_mr ibv_mr;
	enum ibv_mr_type mr_type;
	int access;
};

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	struct verbs_xrcd *xrcd;
};

/*
 * struct ibv_qp_ex grew by wr_flush after rdma-core 44, which moved
 * comp_mask and xrcd above by one slot under the same provider ABI
 * name. A core of before reads comp_mask where wr_flush now is (and
 * xrcd where comp_mask is). A provider that runs under cores of either
 * kind asks the core which it is: a QP marked extended only at the old
 * place is taken for extended by an old core alone. Ours follows the
 * layout the provider was built with (PROVIDER_DRIVER's note), so it
 * answers as the headers the provider was compiled against.
 */
static inline bool verbs_core_before_wr_flush(struct ibv_context *ctx)
{
	const uint32_t mark = VERBS_QP_EX;
	struct verbs_qp probe;

	memset(&probe, 0, sizeof(probe));
	probe.qp.context = ctx;
	memcpy((char *)&probe.qp_ex + offsetof(struct ibv_qp_ex, wr_flush),
	       &mark, sizeof(mark));
	return ibv_qp_to_qp_ex(&probe.qp) != NULL;
}

/*
 * Where the core keeps @qp's comp_mask (a uint32_t; xrcd is the pointer
 * 8 bytes above it), after verbs_core_before_wr_flush() said @before.
 * Read and write it with memcpy().
 */
static inline void *verbs_qp_comp_mask_at(struct verbs_qp *qp, bool before)
{
	if (before)
		return (char *)&qp->qp_ex +
		       offsetof(struct ibv_qp_ex, wr_flush);
	return &qp->comp_mask;
}

struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

enum ibv_flow_action_type {
	IBV_FLOW_ACTION_UNSPECIFIED,
	IBV_FLOW_ACTION_ESP = 1,
};

struct verbs_flow_action {
	struct ibv_flow_action action;
	uint32_t handle;
	enum ibv_flow_action_type type;
};

struct verbs_dm {
	struct ibv_dm dm;
	uint32_t handle;
};

struct verbs_counters {
	struct ibv_counters counters;
	uint32_t handle;
};

struct verbs_dmah {
	struct ibv_dmah dmah;
	uint32_t handle;
};

static inline struct verbs_dmah *verbs_get_dmah(struct ibv_dmah *dmah)
{
	return container_of(dmah, struct verbs_dmah, dmah);
}

/*
 * Device matching. A provider lists the devices it drives in a table ended
 * by an all-zero entry; the core tries driver ids, then the name pattern,
 * then the device's modalias.
 */
enum {
	VERBS_MATCH_SENTINEL = 0,
	VERBS_MATCH_PCI = 1,
	VERBS_MATCH_MODALIAS = 2,
	VERBS_MATCH_DRIVER_ID = 3,
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

#define VERBS_DRIVER_ID(_id)                                         \
	{                                                            \
		.u.driver_id = (_id), .kind = VERBS_MATCH_DRIVER_ID, \
	}
#define VERBS_PCI_MATCH(_vendor, _device, _data)                     \
	{                                                            \
		.driver_data = (void *)(_data), .vendor = (_vendor), \
		.device = (_device), .kind = VERBS_MATCH_PCI,        \
	}
#define VERBS_MODALIAS_MATCH(_glob, _data)                             \
	{                                                              \
		.driver_data = (void *)(_data), .u.modalias = (_glob), \
		.kind = VERBS_MATCH_MODALIAS,                          \
	}
/* Name matching is a modalias glob on the synthetic "rdma_device:N<name>". */
#define VERBS_NAME_MATCH(_prefix, _data)                    \
	{                                                   \
		.driver_data = (void *)(_data),             \
		.u.modalias = "rdma_device:*N" _prefix "*", \
		.kind = VERBS_MATCH_MODALIAS,               \
	}

enum {
	VSYSFS_READ_MODALIAS = 1 << 0,
	VSYSFS_READ_NODE_GUID = 1 << 1,
};

/* One kernel uverbs device as discovered, handed to the provider. */
struct verbs_sysfs_dev {
	struct list_node entry;
	void *provider_data;
	const struct verbs_match_ent *match;
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;
	enum ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;
	struct timespec time_created;
};

struct verbs_device_ops {
	const char *name;

	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;

	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);

	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);

	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

struct verbs_device {
	struct ibv_device device; /* first: the public handle points here */
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

/*
 * Every operation a provider may implement, sorted by name: the order is
 * ABI, that of the provider ABI the provider is built for.
 * X(abi, ret, name, params) once per member, abi being the provider ABI
 * that added it, or ALL for the members of every provider ABI this core
 * serves. Providers fill the struct with designated initializers; the
 * core copies it member by member and lays out each older ABI's struct
 * from the same list (compat_pabi.c).
 */
/* clang-format off */
#define VERBS_CONTEXT_OPS(X)                                                  \
	X(ALL, int, advise_mr, (struct ibv_pd *pd,                            \
	  enum ibv_advise_mr_advice advice, uint32_t flags,                   \
	  struct ibv_sge *sg_list, uint32_t num_sges))                        \
	X(65, void *, alloc_buf, (struct ibv_pd *pd, size_t size,             \
	  struct ibv_buf **buf))                                              \
	X(ALL, struct ibv_dm *, alloc_dm, (struct ibv_context *context,       \
	  struct ibv_alloc_dm_attr *attr))                                    \
	X(65, struct ibv_dmah *, alloc_dmah, (struct ibv_context *context,    \
	  struct ibv_dmah_init_attr *attr))                                   \
	X(ALL, struct ibv_mw *, alloc_mw, (struct ibv_pd *pd,                 \
	  enum ibv_mw_type type))                                             \
	X(ALL, struct ibv_mr *, alloc_null_mr, (struct ibv_pd *pd))           \
	X(ALL, struct ibv_pd *, alloc_parent_domain, (                        \
	  struct ibv_context *context,                                        \
	  struct ibv_parent_domain_init_attr *attr))                          \
	X(ALL, struct ibv_pd *, alloc_pd, (struct ibv_context *context))      \
	X(ALL, struct ibv_td *, alloc_td, (struct ibv_context *context,       \
	  struct ibv_td_init_attr *init_attr))                                \
	X(ALL, void, async_event, (struct ibv_context *context,               \
	  struct ibv_async_event *event))                                     \
	X(ALL, int, attach_counters_point_flow, (                             \
	  struct ibv_counters *counters,                                      \
	  struct ibv_counter_attach_attr *attr, struct ibv_flow *flow))       \
	X(ALL, int, attach_mcast, (struct ibv_qp *qp,                         \
	  const union ibv_gid *gid, uint16_t lid))                            \
	X(ALL, int, bind_mw, (struct ibv_qp *qp, struct ibv_mw *mw,           \
	  struct ibv_mw_bind *mw_bind))                                       \
	X(ALL, int, close_xrcd, (struct ibv_xrcd *xrcd))                      \
	X(ALL, void, cq_event, (struct ibv_cq *cq))                           \
	X(ALL, struct ibv_ah *, create_ah, (struct ibv_pd *pd,                \
	  struct ibv_ah_attr *attr))                                          \
	X(65, struct ibv_comp_cntr *, create_comp_cntr, (                     \
	  struct ibv_context *context,                                        \
	  struct ibv_comp_cntr_init_attr *attr))                              \
	X(ALL, struct ibv_counters *, create_counters, (                      \
	  struct ibv_context *context,                                        \
	  struct ibv_counters_init_attr *init_attr))                          \
	X(ALL, struct ibv_cq *, create_cq, (struct ibv_context *context,      \
	  int cqe, struct ibv_comp_channel *channel, int comp_vector))        \
	X(ALL, struct ibv_cq_ex *, create_cq_ex, (                            \
	  struct ibv_context *context,                                        \
	  struct ibv_cq_init_attr_ex *init_attr))                             \
	X(ALL, struct ibv_flow *, create_flow, (struct ibv_qp *qp,            \
	  struct ibv_flow_attr *flow_attr))                                   \
	X(ALL, struct ibv_flow_action *, create_flow_action_esp, (            \
	  struct ibv_context *context,                                        \
	  struct ibv_flow_action_esp_attr *attr))                             \
	X(ALL, struct ibv_qp *, create_qp, (struct ibv_pd *pd,                \
	  struct ibv_qp_init_attr *attr))                                     \
	X(ALL, struct ibv_qp *, create_qp_ex, (struct ibv_context *context,   \
	  struct ibv_qp_init_attr_ex *qp_init_attr_ex))                       \
	X(ALL, struct ibv_rwq_ind_table *, create_rwq_ind_table, (            \
	  struct ibv_context *context,                                        \
	  struct ibv_rwq_ind_table_init_attr *init_attr))                     \
	X(ALL, struct ibv_srq *, create_srq, (struct ibv_pd *pd,              \
	  struct ibv_srq_init_attr *srq_init_attr))                           \
	X(ALL, struct ibv_srq *, create_srq_ex, (                             \
	  struct ibv_context *context,                                        \
	  struct ibv_srq_init_attr_ex *srq_init_attr_ex))                     \
	X(ALL, struct ibv_wq *, create_wq, (struct ibv_context *context,      \
	  struct ibv_wq_init_attr *wq_init_attr))                             \
	X(65, int, dealloc_dmah, (struct ibv_dmah *dmah))                     \
	X(ALL, int, dealloc_mw, (struct ibv_mw *mw))                          \
	X(ALL, int, dealloc_pd, (struct ibv_pd *pd))                          \
	X(ALL, int, dealloc_td, (struct ibv_td *td))                          \
	X(ALL, int, dereg_mr, (struct verbs_mr *vmr))                         \
	X(ALL, int, destroy_ah, (struct ibv_ah *ah))                          \
	X(65, int, destroy_comp_cntr, (struct ibv_comp_cntr *comp_cntr))      \
	X(ALL, int, destroy_counters, (struct ibv_counters *counters))        \
	X(ALL, int, destroy_cq, (struct ibv_cq *cq))                          \
	X(ALL, int, destroy_flow, (struct ibv_flow *flow))                    \
	X(ALL, int, destroy_flow_action, (struct ibv_flow_action *action))    \
	X(ALL, int, destroy_qp, (struct ibv_qp *qp))                          \
	X(ALL, int, destroy_rwq_ind_table, (                                  \
	  struct ibv_rwq_ind_table *rwq_ind_table))                           \
	X(ALL, int, destroy_srq, (struct ibv_srq *srq))                       \
	X(ALL, int, destroy_wq, (struct ibv_wq *wq))                          \
	X(ALL, int, detach_mcast, (struct ibv_qp *qp,                         \
	  const union ibv_gid *gid, uint16_t lid))                            \
	X(65, int, dm_export_dmabuf_fd, (struct ibv_dm *dm))                  \
	X(65, void, free_buf, (struct ibv_buf *buf))                          \
	X(ALL, void, free_context, (struct ibv_context *context))             \
	X(ALL, int, free_dm, (struct ibv_dm *dm))                             \
	X(ALL, int, get_srq_num, (struct ibv_srq *srq, uint32_t *srq_num))    \
	X(ALL, struct ibv_dm *, import_dm, (struct ibv_context *context,      \
	  uint32_t dm_handle))                                                \
	X(ALL, struct ibv_mr *, import_mr, (struct ibv_pd *pd,                \
	  uint32_t mr_handle))                                                \
	X(ALL, struct ibv_pd *, import_pd, (struct ibv_context *context,      \
	  uint32_t pd_handle))                                                \
	X(65, int, inc_comp_cntr, (struct ibv_comp_cntr *comp_cntr,           \
	  uint64_t amount))                                                   \
	X(65, int, inc_err_comp_cntr, (struct ibv_comp_cntr *comp_cntr,       \
	  uint64_t amount))                                                   \
	X(ALL, int, modify_cq, (struct ibv_cq *cq,                            \
	  struct ibv_modify_cq_attr *attr))                                   \
	X(ALL, int, modify_flow_action_esp, (                                 \
	  struct ibv_flow_action *action,                                     \
	  struct ibv_flow_action_esp_attr *attr))                             \
	X(ALL, int, modify_qp, (struct ibv_qp *qp,                            \
	  struct ibv_qp_attr *attr, int attr_mask))                           \
	X(ALL, int, modify_qp_rate_limit, (struct ibv_qp *qp,                 \
	  struct ibv_qp_rate_limit_attr *attr))                               \
	X(ALL, int, modify_srq, (struct ibv_srq *srq,                         \
	  struct ibv_srq_attr *srq_attr, int srq_attr_mask))                  \
	X(ALL, int, modify_wq, (struct ibv_wq *wq,                            \
	  struct ibv_wq_attr *wq_attr))                                       \
	X(ALL, struct ibv_qp *, open_qp, (struct ibv_context *context,        \
	  struct ibv_qp_open_attr *attr))                                     \
	X(ALL, struct ibv_xrcd *, open_xrcd, (struct ibv_context *context,    \
	  struct ibv_xrcd_init_attr *xrcd_init_attr))                         \
	X(ALL, int, poll_cq, (struct ibv_cq *cq, int num_entries,             \
	  struct ibv_wc *wc))                                                 \
	X(ALL, int, post_recv, (struct ibv_qp *qp, struct ibv_recv_wr *wr,    \
	  struct ibv_recv_wr **bad_wr))                                       \
	X(ALL, int, post_send, (struct ibv_qp *qp, struct ibv_send_wr *wr,    \
	  struct ibv_send_wr **bad_wr))                                       \
	X(ALL, int, post_srq_ops, (struct ibv_srq *srq,                       \
	  struct ibv_ops_wr *op, struct ibv_ops_wr **bad_op))                 \
	X(ALL, int, post_srq_recv, (struct ibv_srq *srq,                      \
	  struct ibv_recv_wr *recv_wr, struct ibv_recv_wr **bad_recv_wr))     \
	X(65, int, qp_attach_comp_cntr, (struct ibv_qp *qp,                   \
	  struct ibv_comp_cntr *comp_cntr,                                    \
	  struct ibv_qp_attach_comp_cntr_attr *attr))                         \
	X(65, int, query_comp_cntr_caps, (struct ibv_context *context,        \
	  struct ibv_comp_cntr_caps *caps, size_t caps_size))                 \
	X(ALL, int, query_device_ex, (struct ibv_context *context,            \
	  const struct ibv_query_device_ex_input *input,                      \
	  struct ibv_device_attr_ex *attr, size_t attr_size))                 \
	X(ALL, int, query_ece, (struct ibv_qp *qp, struct ibv_ece *ece))      \
	X(ALL, int, query_port, (struct ibv_context *context,                 \
	  uint8_t port_num, struct ibv_port_attr *port_attr))                 \
	X(65, int, query_port_speed, (struct ibv_context *context,            \
	  uint32_t port_num, uint64_t *speed))                                \
	X(ALL, int, query_qp, (struct ibv_qp *qp, struct ibv_qp_attr *attr,   \
	  int attr_mask, struct ibv_qp_init_attr *init_attr))                 \
	X(ALL, int, query_qp_data_in_order, (struct ibv_qp *qp,               \
	  enum ibv_wr_opcode op, uint32_t flags))                             \
	X(ALL, int, query_rt_values, (struct ibv_context *context,            \
	  struct ibv_values_ex *values))                                      \
	X(ALL, int, query_srq, (struct ibv_srq *srq,                          \
	  struct ibv_srq_attr *srq_attr))                                     \
	X(65, int, read_comp_cntr, (struct ibv_comp_cntr *comp_cntr,          \
	  uint64_t *value))                                                   \
	X(ALL, int, read_counters, (struct ibv_counters *counters,            \
	  uint64_t *counters_value, uint32_t ncounters, uint32_t flags))      \
	X(65, int, read_err_comp_cntr, (struct ibv_comp_cntr *comp_cntr,      \
	  uint64_t *value))                                                   \
	X(ALL, struct ibv_mr *, reg_dm_mr, (struct ibv_pd *pd,                \
	  struct ibv_dm *dm, uint64_t dm_offset, size_t length,               \
	  unsigned int access))                                               \
	X(ALL, struct ibv_mr *, reg_dmabuf_mr, (struct ibv_pd *pd,            \
	  uint64_t offset, size_t length, uint64_t iova, int fd,              \
	  int access))                                                        \
	X(ALL, struct ibv_mr *, reg_mr, (struct ibv_pd *pd, void *addr,       \
	  size_t length, uint64_t hca_va, int access))                        \
	X(65, struct ibv_mr *, reg_mr_ex, (struct ibv_pd *pd,                 \
	  struct ibv_mr_init_attr *mr_init_attr))                             \
	X(ALL, int, req_notify_cq, (struct ibv_cq *cq, int solicited_only))   \
	X(ALL, int, rereg_mr, (struct verbs_mr *vmr, int flags,               \
	  struct ibv_pd *pd, void *addr, size_t length, int access))          \
	X(ALL, int, resize_cq, (struct ibv_cq *cq, int cqe))                  \
	X(65, int, set_comp_cntr, (struct ibv_comp_cntr *comp_cntr,           \
	  uint64_t value))                                                    \
	X(ALL, int, set_ece, (struct ibv_qp *qp, struct ibv_ece *ece))        \
	X(65, int, set_err_comp_cntr, (struct ibv_comp_cntr *comp_cntr,       \
	  uint64_t value))                                                    \
	X(ALL, void, unimport_dm, (struct ibv_dm *dm))                        \
	X(ALL, void, unimport_mr, (struct ibv_mr *mr))                        \
	X(ALL, void, unimport_pd, (struct ibv_pd *pd))
/* clang-format on */

#define VERBS_OP_IN_ALL(member) member
#if VERBS_PROVIDER_ABI >= 65
#define VERBS_OP_IN_65(member) member
#else
#define VERBS_OP_IN_65(member)
#endif
#define VERBS_OP_MEMBER(abi, ret, name, params) \
	VERBS_OP_IN_##abi(ret(*name) params;)

struct verbs_context_ops {
	VERBS_CONTEXT_OPS(VERBS_OP_MEMBER)
};

static inline struct verbs_device *
verbs_get_device(const struct ibv_device *dev)
{
	return container_of(dev, struct verbs_device, device);
}

static inline struct verbs_mr *verbs_get_mr(struct ibv_mr *mr)
{
	return container_of(mr, struct verbs_mr, ibv_mr);
}

/*
 * The private ABI number is part of the registration symbol's name, so a
 * provider built for another private ABI fails to link or load even where
 * symbol versioning is not in effect. The core defines one per ABI.
 */
#define __verbs_register_name(abi) verbs_register_driver_##abi
#define _verbs_register_name(abi) __verbs_register_name(abi)
#define verbs_register_driver _verbs_register_name(VERBS_PROVIDER_ABI)

void verbs_register_driver(const struct verbs_device_ops *ops);

/*
 * The layouts this header gives a provider where releases sharing one
 * private ABI number differ (provider_release.c): an ELF note in every
 * provider built with it, which the core reads when the provider
 * registers. Debian's providers carry none; the core finds their release
 * another way.
 */
#define VERBS_LAYOUT_NOTE_NAME "ibverbs-ng"
#define VERBS_LAYOUT_NOTE_TYPE 1
/* ibv_cmd_reg_dmabuf_mr() below takes the provider's command buffer. */
#define VERBS_DMABUF_MR_ARGS 8

struct verbs_layout_note_desc {
	uint16_t qp_ex_size; /* sizeof(struct ibv_qp_ex) */
	uint8_t dmabuf_args; /* VERBS_DMABUF_MR_ARGS */
	uint8_t reserved;
};

struct verbs_layout_note {
	uint32_t namesz;
	uint32_t descsz;
	uint32_t type;
	char name[12];
	struct verbs_layout_note_desc desc;
};

#define _verbs_stringify(x) #x
/*
 * Declares the provider: a global verbs_provider_<name> for static links
 * (referenced by the RDMA_STATIC_PROVIDERS hook of verbs.h), the note of
 * its layouts, and a constructor registering it when the object is loaded.
 */
#define PROVIDER_DRIVER(provider_name, drv_struct)                          \
	extern const struct verbs_device_ops verbs_provider_##provider_name \
		__attribute__((alias(_verbs_stringify(drv_struct))));       \
	static const struct verbs_layout_note provider_name##_layout_note   \
		__attribute__((used, aligned(4),                            \
			       section(".note.ibverbs-ng"))) = {            \
			.namesz = sizeof(VERBS_LAYOUT_NOTE_NAME),           \
			.descsz = sizeof(struct verbs_layout_note_desc),    \
			.type = VERBS_LAYOUT_NOTE_TYPE,                     \
			.name = VERBS_LAYOUT_NOTE_NAME,                     \
			.desc = { sizeof(struct ibv_qp_ex),                 \
				  VERBS_DMABUF_MR_ARGS, 0 },                \
		};                                                          \
	static __attribute__((                                              \
		constructor)) void provider_name##_register_driver(void)    \
	{                                                                   \
		verbs_register_driver(&drv_struct);                         \
	}

void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);

/*
 * Allocates the provider's context structure, which embeds a struct
 * verbs_context as member @ctx_memb, and initialises the core part.
 */
#define verbs_init_and_alloc_context(ibdev, cmd_fd, drv_ctx_ptr, ctx_memb, \
				     driver_id)                            \
	((__typeof__(drv_ctx_ptr))_verbs_init_and_alloc_context(           \
		ibdev, cmd_fd, sizeof(*drv_ctx_ptr),                       \
		&((__typeof__(drv_ctx_ptr))NULL)->ctx_memb, (driver_id)))

void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);
struct ibv_context *verbs_open_device(struct ibv_device *device,
				      void *private_data);

/*
 * The command layer (cmd_<object>.c): what providers call to have the
 * kernel create, change or destroy an object. Functions that take a
 * request struct ibv_<cmd> (kern-abi.h) and a response read the
 * provider's own data behind the core part of both: @cmd_size and
 * @resp_size cover the whole. Those that take a struct
 * ibv_command_buffer link attach it to their own ioctl.
 *
 * The errno rule: each returns 0 or a positive errno value, and on
 * failure leaves that same value in errno, whether the kernel failed
 * the command or the library refused it before sending anything
 * (unknown comp_mask or attr_mask bits, a missing attribute, a request
 * the write() header cannot count). A provider may test the result and
 * return NULL from its verb with errno as it is. rdma-core 44 does so
 * for every kernel failure and for some of its own checks; its other
 * checks leave errno as it was (driver_cmd_diff_test lists them), which
 * no caller could rely on. The one exception in form is
 * ibv_cmd_poll_cq(): a count, or -1 with errno set.
 */
/*
 * @fd_arr (may be NULL): file descriptors the provider hands the kernel
 * with the context, where its driver takes some.
 */
#if VERBS_PROVIDER_ABI >= 65
int ibv_cmd_get_context(struct verbs_context *context,
			struct ibv_get_context *cmd, size_t cmd_size,
			struct ibv_fd_arr *fd_arr,
			struct ib_uverbs_get_context_resp *resp,
			size_t resp_size);
#endif
int ibv_cmd_query_context(struct ibv_context *ctx,
			  struct ibv_command_buffer *driver);
int ibv_cmd_query_device_any(struct ibv_context *context,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     struct ib_uverbs_ex_query_device_resp *resp,
			     size_t *resp_size);
int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr,
		       struct ibv_query_port *cmd, size_t cmd_size);
int ibv_cmd_query_port_speed(struct ibv_context *context, uint32_t port_num,
			     uint64_t *speed);

int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd,
		     struct ibv_alloc_pd *cmd, size_t cmd_size,
		     struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
int ibv_cmd_open_xrcd(struct ibv_context *context, struct verbs_xrcd *xrcd,
		      int vxrcd_size, struct ibv_xrcd_init_attr *attr,
		      struct ibv_open_xrcd *cmd, size_t cmd_size,
		      struct ib_uverbs_open_xrcd_resp *resp, size_t resp_size);
int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd);
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   struct ibv_reg_mr *cmd, size_t cmd_size,
		   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size);
int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr,
		     size_t length, uint64_t hca_va, int access,
		     struct ibv_pd *pd, struct ibv_rereg_mr *cmd, size_t cmd_sz,
		     struct ib_uverbs_rereg_mr_resp *resp, size_t resp_sz);
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr,
		      struct ibv_mr_init_attr *mr_init_attr);
int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr,
		     uint32_t mr_handle);
int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
		      uint32_t flags, struct ibv_sge *sg_list,
		      uint32_t num_sge);
/*
 * @driver (may be NULL) carries the provider's own attributes. Providers of
 * the releases whose table row says 7 arguments pass none; the core then
 * never reads it (provider_release.c).
 */
int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
			  uint64_t iova, int fd, int access,
			  struct verbs_mr *vmr,
			  struct ibv_command_buffer *driver);
int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
		     struct ibv_mw *mw, struct ibv_alloc_mw *cmd,
		     size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp,
		     size_t resp_size);
int ibv_cmd_dealloc_mw(struct ibv_mw *mw);
int ibv_cmd_alloc_dm(struct ibv_context *ctx,
		     const struct ibv_alloc_dm_attr *dm_attr,
		     struct verbs_dm *dm, struct ibv_command_buffer *link);
int ibv_cmd_free_dm(struct verbs_dm *dm);
int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset,
		      size_t length, unsigned int access, struct verbs_mr *vmr,
		      struct ibv_command_buffer *link);

int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct ibv_cq *cq, struct ibv_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp,
		      size_t resp_size);
/* @prov_attr (may be NULL) goes with the CREATE_CQ_CMD_FLAGS_WITH_MEM_*. */
#if VERBS_PROVIDER_ABI >= 65
int ibv_cmd_create_cq_ex(struct ibv_context *context,
			 const struct ibv_cq_init_attr_ex *cq_attr,
			 struct verbs_create_cq_prov_attr *prov_attr,
			 struct verbs_cq *cq, struct ibv_create_cq_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_create_cq_resp *resp,
			 size_t resp_size, uint32_t cmd_flags);
int ibv_cmd_create_cq_ex2(struct ibv_context *context,
			  const struct ibv_cq_init_attr_ex *cq_attr,
			  struct verbs_create_cq_prov_attr *prov_attr,
			  struct verbs_cq *cq, struct ibv_create_cq_ex *cmd,
			  size_t cmd_size,
			  struct ib_uverbs_ex_create_cq_resp *resp,
			  size_t resp_size, uint32_t cmd_flags,
			  struct ibv_command_buffer *driver);
#endif
int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc);
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp,
		      size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr,
		      struct ibv_modify_cq *cmd, size_t cmd_size);

int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq,
		       struct ibv_srq_init_attr *attr,
		       struct ibv_create_srq *cmd, size_t cmd_size,
		       struct ib_uverbs_create_srq_resp *resp,
		       size_t resp_size);
int ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq,
			  struct ibv_srq_init_attr_ex *attr_ex,
			  struct ibv_create_xsrq *cmd, size_t cmd_size,
			  struct ib_uverbs_create_srq_resp *resp,
			  size_t resp_size);
int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask, struct ibv_modify_srq *cmd,
		       size_t cmd_size);
int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		      struct ibv_query_srq *cmd, size_t cmd_size);
int ibv_cmd_destroy_srq(struct ibv_srq *srq);

int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
		      struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd,
		      size_t cmd_size, struct ib_uverbs_create_qp_resp *resp,
		      size_t resp_size);
int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *attr_ex,
			 struct ibv_create_qp *cmd, size_t cmd_size,
			 struct ib_uverbs_create_qp_resp *resp,
			 size_t resp_size);
/* @driver (may be NULL): the provider's own attributes, by ioctl. */
#if VERBS_PROVIDER_ABI >= 65
int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp,
			  struct ibv_qp_init_attr_ex *qp_attr,
			  struct ibv_create_qp_ex *cmd, size_t cmd_size,
			  struct ib_uverbs_ex_create_qp_resp *resp,
			  size_t resp_size, struct ibv_command_buffer *driver);
#endif
int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp,
		    int vqp_sz, struct ibv_qp_open_attr *attr,
		    struct ibv_open_qp *cmd, size_t cmd_size,
		    struct ib_uverbs_create_qp_resp *resp, size_t resp_size);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr,
		     int attr_mask, struct ibv_qp_init_attr *qp_init_attr,
		     struct ibv_query_qp *cmd, size_t cmd_size);
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, struct ibv_modify_qp *cmd,
		      size_t cmd_size);
int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask, struct ibv_modify_qp_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_modify_qp_resp *resp,
			 size_t resp_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);
int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr);
int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);
int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad_wr);
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr,
		      struct ib_uverbs_create_ah_resp *resp, size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);
int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);
int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			 uint16_t lid);

int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id,
			struct ibv_flow_attr *flow_attr, void *ucmd,
			size_t ucmd_size);
int ibv_cmd_destroy_flow(struct ibv_flow *flow_id);
int ibv_cmd_create_flow_action_esp(struct ibv_context *ctx,
				   struct ibv_flow_action_esp_attr *attr,
				   struct verbs_flow_action *flow_action,
				   struct ibv_command_buffer *driver);
int ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action,
				   struct ibv_flow_action_esp_attr *attr,
				   struct ibv_command_buffer *driver);
int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action);
int ibv_cmd_create_wq(struct ibv_context *context,
		      struct ibv_wq_init_attr *wq_init_attr, struct ibv_wq *wq,
		      struct ibv_create_wq *cmd, size_t cmd_size,
		      struct ib_uverbs_ex_create_wq_resp *resp,
		      size_t resp_size);
int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr,
		      struct ibv_modify_wq *cmd, size_t cmd_size);
int ibv_cmd_destroy_wq(struct ibv_wq *wq);
int ibv_cmd_create_rwq_ind_table(
	struct ibv_context *context,
	struct ibv_rwq_ind_table_init_attr *init_attr,
	struct ibv_rwq_ind_table *rwq_ind_table,
	struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size);
int ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table);
int ibv_cmd_create_counters(struct ibv_context *context,
			    struct ibv_counters_init_attr *init_attr,
			    struct verbs_counters *vcounters,
			    struct ibv_command_buffer *link);
int ibv_cmd_destroy_counters(struct verbs_counters *vcounters);
int ibv_cmd_read_counters(struct verbs_counters *vcounters,
			  uint64_t *counters_value, uint32_t ncounters,
			  uint32_t flags, struct ibv_command_buffer *link);

/* A dma-buf file descriptor for the mmap() offset @pg_off of @ctx's file. */
int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t pg_off);
int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *st,
		       struct ibv_dmah_init_attr *attr);
int ibv_cmd_free_dmah(struct verbs_dmah *dmah);

int ibv_cmd_query_comp_cntr_caps(struct ibv_context *context,
				 struct ibv_comp_cntr_caps *caps,
				 size_t caps_size);
int ibv_cmd_create_comp_cntr(struct ibv_context *context,
			     struct ibv_comp_cntr *comp_cntr,
			     struct ibv_command_buffer *link);
int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr);
int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value);
int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value);
int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount);
int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value);
int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
			       uint64_t *value);
int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp,
				struct ibv_comp_cntr *comp_cntr,
				struct ibv_qp_attach_comp_cntr_attr *attr);

/*
 * Core set-up of a CQ a provider created through ibv_cmd_create_cq_ex():
 * context, channel reference, counters, lock and condition.
 */
void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context,
		   struct ibv_comp_channel *channel, void *cq_context);

/* The type of a GID table entry, read from sysfs. */
int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num,
		       unsigned int index, enum ibv_gid_type_sysfs *type);

const char *ibv_get_sysfs_path(void);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf,
			size_t size);
int ibv_read_ibdev_sysfs_file(char *buf, size_t size,
			      struct verbs_sysfs_dev *sysfs_dev,
			      const char *fnfmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Keep queue buffers out of fork() children while fork protection is on
 * (exported at IBVERBS_1.1; see ibv_dontfork_range(3)).
 */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

#if VERBS_PROVIDER_ABI != IBVERBS_PRIVATE_ABI
/*
 * A provider built for an older provider ABI binds every function of the
 * core it calls to that ABI's version node (name@IBVERBS_PRIVATE_<N>):
 * the library it links against serves the newest ABI by default, the
 * cores of its own release only the older one. A .symver of a name the
 * file does not use leaves no trace.
 */
#define __verbs_xstr(x) #x
#define _verbs_xstr(x) __verbs_xstr(x)
#define __verbs_pabi_names(abi) IBV_PRIVATE_NAMES_##abi
#define _verbs_pabi_names(abi) __verbs_pabi_names(abi)
#define VERBS_BIND_TO_PABI(name)    \
	".symver " #name ", " #name \
	"@IBVERBS_PRIVATE_" _verbs_xstr(VERBS_PROVIDER_ABI) "\n"
__asm__(_verbs_pabi_names(VERBS_PROVIDER_ABI)(VERBS_BIND_TO_PABI));
#endif

#if VERBS_PROVIDER_ABI < 65
/*
 * Built for provider ABI 34, a provider runs under the cores of that ABI
 * (rdma-core 44 to 56.1, and this one), whose versions of these four
 * functions take fewer arguments. The provider's source calls them with
 * the arguments above all the same; what ABI 34 cannot carry fails with
 * EOPNOTSUPP before anything is sent.
 *
 * The old functions are declared under names of their own, labelled with
 * the real symbol; the wrappers are reached through macros. A static
 * function named like the symbol would share its assembler name, and a
 * compiler may then bind the call inside the wrapper to the wrapper
 * itself (clang does).
 */
int verbs_abi34_cmd_get_context(struct verbs_context *context,
				struct ibv_get_context *cmd, size_t cmd_size,
				struct ib_uverbs_get_context_resp *resp,
				size_t resp_size) __asm__("ibv_cmd_get_context");
int verbs_abi34_cmd_create_cq_ex(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags) __asm__("ibv_cmd_create_cq_ex");
int verbs_abi34_cmd_create_cq_ex2(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags,
	struct ibv_command_buffer *driver) __asm__("ibv_cmd_create_cq_ex2");
int verbs_abi34_cmd_create_qp_ex2(
	struct ibv_context *context, struct verbs_qp *qp,
	struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd,
	size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp,
	size_t resp_size) __asm__("ibv_cmd_create_qp_ex2");

static inline int verbs_abi34_refuse(void)
{
	errno = EOPNOTSUPP;
	return EOPNOTSUPP;
}

static inline int verbs_abi34_call_get_context(
	struct verbs_context *context, struct ibv_get_context *cmd,
	size_t cmd_size, struct ibv_fd_arr *fd_arr,
	struct ib_uverbs_get_context_resp *resp, size_t resp_size)
{
	if (fd_arr && fd_arr->count)
		return verbs_abi34_refuse();
	return verbs_abi34_cmd_get_context(context, cmd, cmd_size, resp,
					   resp_size);
}

static inline int verbs_abi34_call_create_cq_ex(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq,
	struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags)
{
	if (prov_attr || (cmd_flags & ~CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX))
		return verbs_abi34_refuse();
	return verbs_abi34_cmd_create_cq_ex(context, cq_attr, cq, cmd, cmd_size,
					    resp, resp_size, cmd_flags);
}

static inline int verbs_abi34_call_create_cq_ex2(
	struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
	struct verbs_create_cq_prov_attr *prov_attr, struct verbs_cq *cq,
	struct ibv_create_cq_ex *cmd, size_t cmd_size,
	struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size,
	uint32_t cmd_flags, struct ibv_command_buffer *driver)
{
	if (prov_attr || (cmd_flags & ~CREATE_CQ_CMD_FLAGS_TS_IGNORED_EX))
		return verbs_abi34_refuse();
	return verbs_abi34_cmd_create_cq_ex2(context, cq_attr, cq, cmd,
					     cmd_size, resp, resp_size,
					     cmd_flags, driver);
}

static inline int verbs_abi34_call_create_qp_ex2(
	struct ibv_context *context, struct verbs_qp *qp,
	struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd,
	size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp,
	size_t resp_size, struct ibv_command_buffer *driver)
{
	if (driver)
		return verbs_abi34_refuse();
	return verbs_abi34_cmd_create_qp_ex2(context, qp, qp_attr, cmd,
					     cmd_size, resp, resp_size);
}

#define ibv_cmd_get_context verbs_abi34_call_get_context
#define ibv_cmd_create_cq_ex verbs_abi34_call_create_cq_ex
#define ibv_cmd_create_cq_ex2 verbs_abi34_call_create_cq_ex2
#define ibv_cmd_create_qp_ex2 verbs_abi34_call_create_qp_ex2
#endif

/* Set from RDMAV_ALLOW_DISASSOC_DESTROY at library initialisation. */
extern bool verbs_allow_disassociate_destroy;

static inline bool check_comp_mask(uint64_t input, uint64_t supported)
{
	return (input & ~supported) == 0;
}

#endif
