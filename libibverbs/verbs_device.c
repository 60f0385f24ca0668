// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of the device object: device and port queries (the
 * port's effective speed among them), the library's own query_port
 * slot, P_Keys and the GID table.
 *
 * P_Keys come from sysfs, as in rdma-core 44: the kernel has no command
 * for them. GIDs come from the kernel's DEVICE/QUERY_GID_ENTRY and
 * QUERY_GID_TABLE methods (cmd_device.c); kernels before 5.10 lack them,
 * and then the entries are read from sysfs under the device's
 * ibdev_path: ports/<p>/gids/<i>, ports/<p>/gid_attrs/types/<i> and
 * ports/<p>/gid_attrs/ndevs/<i>, with rdma-core 44's rules for what a
 * missing file means. The fallback takes no flags.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>

#include "cmd_device.h"
#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "ops.h"
#include "verbs_device.h"

/* verbs.h turns calls into the inline ___ibv_query_port(); define the real one. */
#undef ibv_query_port

/*
 * The verbs_context slot takes the caller's idea of the structure size,
 * since an application built against older headers has a shorter
 * struct ibv_port_attr; the provider always fills the full one.
 */
int verbs_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr, size_t attr_len)
{
	struct ibv_port_attr full;
	int ret;

	if (attr_len >= sizeof(full)) {
		memset(attr, 0, attr_len);
		return get_ops(ctx)->query_port(ctx, port, attr);
	}
	memset(&full, 0, sizeof(full));
	ret = get_ops(ctx)->query_port(ctx, port, &full);
	if (!ret)
		memcpy(attr, &full, attr_len);
	return ret;
}

/*
 * struct ibv_port_attr as it was before port_cap_flags2 was added; the
 * exported symbol keeps that size for binaries that call it directly.
 * Programs built against current headers call the verbs_context slot
 * (via the ibv_query_port macro) with their own structure size instead.
 */
struct _compat_ibv_port_attr {
	char bytes[48];
};

/**
 * ibv_query_port - query the attributes of a port
 * @context: an open device
 * @port_num: the port, from 1
 * @port_attr: filled in; the pre-1.1 48-byte layout
 *
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_query_port, "IBVERBS_1.1");
int ibv_query_port(struct ibv_context *context, uint8_t port_num,
		   struct _compat_ibv_port_attr *port_attr)
{
	if (!context || !port_attr)
		return EINVAL;
	return verbs_query_port(context, port_num,
				(struct ibv_port_attr *)port_attr,
				sizeof(*port_attr));
}

/**
 * ibv_query_port_speed - a port's effective speed (rdma-core 65)
 * @context: an open device
 * @port_num: the port, from 1
 * @port_speed: the speed in units of 100 Mb/s
 *
 * The provider asks the kernel (DEVICE/QUERY_PORT_SPEED), which knows
 * the speed of an aggregated link as well. Returns 0 or a positive errno
 * value: EINVAL for a NULL argument (as ibv_query_port() here; rdma-core
 * 65 would crash on a NULL context and let the kernel answer EFAULT for
 * a NULL result), EOPNOTSUPP where the provider or the kernel cannot
 * tell, a kernel without the method included (rdma-core 65 passes on
 * its ENOTTY or EPROTONOSUPPORT from the providers that ask it).
 */
IBV_EXPORT int ibv_query_port_speed(struct ibv_context *context,
				    uint32_t port_num, uint64_t *port_speed)
{
	const struct verbs_context_ops *ops;
	int ret;

	if (!context || !port_speed)
		return EINVAL;
	ops = get_ops(context);
	ret = ops->query_port_speed(context, port_num, port_speed);
	if (!ret)
		return 0;
	/* A kernel without the method has no speed to give either. */
	if (ret == ENOTTY || ret == EPROTONOSUPPORT)
		ret = EOPNOTSUPP;
	explain_query_port_speed(context, port_num, ret,
				 ops->query_port_speed !=
					 verbs_dummy_ops.query_port_speed);
	return ret;
}

/**
 * ibv_query_device - query a device's base attributes
 * @context: an open device
 * @device_attr: filled in
 *
 * Providers implement only the extended query; asked for the size of
 * the base structure, they fill that much. Returns 0 or a positive
 * errno value.
 */
VERBS_DEFAULT_VERSION(ibv_query_device, "IBVERBS_1.1");
int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	struct ibv_device_attr_ex *ex;

	if (!context || !device_attr)
		return EINVAL;
	/* orig_attr is the first member: only its bytes are written. */
	ex = (struct ibv_device_attr_ex *)device_attr;
	return get_ops(context)->query_device_ex(context, NULL, ex,
						 sizeof(*device_attr));
}

/**
 * ibv_query_pkey - read one entry of a port's P_Key table
 * @context: an open device
 * @port_num: the port, from 1
 * @index: the entry
 * @pkey: the P_Key, in network byte order
 *
 * Returns 0, or -1 with errno set (sysfs has no such entry).
 */
VERBS_DEFAULT_VERSION(ibv_query_pkey, "IBVERBS_1.1");
int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
		   __be16 *pkey)
{
	struct verbs_device *vdev;
	char buf[8];

	if (!context || !pkey) {
		errno = EINVAL;
		return -1;
	}
	vdev = verbs_get_device(context->device);
	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), vdev->sysfs,
				      "ports/%d/pkeys/%d", port_num, index) < 0)
		return -1;
	if (parse_pkey(buf, pkey)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* A P_Key table entry, "0xffff"; in network byte order. */
int parse_pkey(const char *buf, __be16 *pkey)
{
	unsigned int val;

	if (sscanf(buf, "%x", &val) != 1 || val > UINT16_MAX)
		return EINVAL;
	*pkey = htobe16(val);
	return 0;
}

/**
 * ibv_get_pkey_index - find a P_Key in a port's table
 * @context: an open device
 * @port_num: the port, from 1
 * @pkey: the P_Key, in network byte order
 *
 * Returns its index, or -1 with errno set once the table ends without it.
 */
IBV_EXPORT int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num,
				  __be16 pkey)
{
	__be16 entry;
	int i;

	/* The table's length is not asked: the first missing entry ends it. */
	for (i = 0;; i++) {
		if (ibv_query_pkey(context, port_num, i, &entry))
			return -1;
		if (entry == pkey)
			return i;
	}
}

/* What to read from sysfs when the kernel lacks the GID methods. */
#define GID_ALL                                                 \
	(VERBS_QUERY_GID_ATTR_GID | VERBS_QUERY_GID_ATTR_TYPE | \
	 VERBS_QUERY_GID_ATTR_NDEV_IFINDEX)

static bool gid_is_zero(const union ibv_gid *gid)
{
	static const union ibv_gid zero;

	return !memcmp(gid, &zero, sizeof(zero));
}

static struct verbs_sysfs_dev *sysfs_of(struct ibv_context *ctx)
{
	return verbs_get_device(ctx->device)->sysfs;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The kernel's text of a GID, "fe80:0000:...": eight groups of four hex
 * digits, colons between them, nothing else. Every byte looked at is
 * inside the string read (a short or odd file is EINVAL; rdma-core 44
 * reads past its end).
 */
int parse_gid(const char *text, union ibv_gid *gid)
{
	if (strlen(text) != 8 * 5 - 1)
		return EINVAL;
	for (int i = 0; i < 16; i++) {
		const char *p = text + i / 2 * 5 + i % 2 * 2;
		int hi = hex_digit(p[0]), lo = hex_digit(p[1]);

		if (hi < 0 || lo < 0)
			return EINVAL;
		gid->raw[i] = hi << 4 | lo;
	}
	for (int i = 1; i < 8; i++)
		if (text[i * 5 - 1] != ':')
			return EINVAL;
	return 0;
}

static int sysfs_gid(struct ibv_context *ctx, uint32_t port, uint32_t index,
		     union ibv_gid *gid)
{
	char buf[41];

	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sysfs_of(ctx),
				      "ports/%u/gids/%u", port, index) < 0)
		return EINVAL;
	return parse_gid(buf, gid);
}

/*
 * Without a gid_attrs directory the kernel predates RoCE v2: every GID
 * is IB or RoCE v1. IB ports have the directory but answer EINVAL when
 * the type file is read.
 */
static int sysfs_no_type(struct ibv_context *ctx, uint32_t port,
			 enum ibv_gid_type_sysfs *type)
{
	char path[IBV_SYSFS_PATH_MAX + 32];
	DIR *dir;

	if (errno == EINVAL) {
		*type = IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/ports/%u/gid_attrs",
		 sysfs_of(ctx)->ibdev_path, port);
	dir = opendir(path);
	if (dir) {
		closedir(dir);
		return EINVAL;
	}
	if (errno != ENOENT)
		return EINVAL;
	*type = IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
	return 0;
}

static int sysfs_gid_type(struct ibv_context *ctx, uint32_t port,
			  uint32_t index, enum ibv_gid_type_sysfs *type)
{
	char buf[11];

	errno = 0;
	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sysfs_of(ctx),
				      "ports/%u/gid_attrs/types/%u", port,
				      index) <= 0)
		return sysfs_no_type(ctx, port, type);
	return parse_gid_type(buf, type);
}

/* What gid_attrs/types/N says. */
int parse_gid_type(const char *buf, enum ibv_gid_type_sysfs *type)
{
	if (!strcmp(buf, "IB/RoCE v1"))
		*type = IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
	else if (!strcmp(buf, "RoCE v2"))
		*type = IBV_GID_TYPE_SYSFS_ROCE_V2;
	else
		return EINVAL;
	return 0;
}

/* No netdev file (IB) is no netdev: index 0. */
static int sysfs_ndev(struct ibv_context *ctx, uint32_t port, uint32_t index,
		      uint32_t *ifindex)
{
	char name[IF_NAMESIZE];

	*ifindex = 0;
	if (ibv_read_ibdev_sysfs_file(name, sizeof(name), sysfs_of(ctx),
				      "ports/%u/gid_attrs/ndevs/%u", port,
				      index) <= 0)
		return 0;
	*ifindex = if_nametoindex(name);
	return *ifindex ? 0 : errno;
}

/* A v1 GID is IB on an IB port and RoCE v1 on Ethernet. */
static int v1_type(struct ibv_context *ctx, uint32_t port, int link_layer,
		   uint32_t *gid_type)
{
	struct ibv_port_attr pa;
	int ret;

	if (link_layer < 0) {
		ret = verbs_query_port(ctx, port, &pa, sizeof(pa));
		if (ret)
			return ret;
		link_layer = pa.link_layer;
	}
	*gid_type = link_layer == IBV_LINK_LAYER_ETHERNET ?
			    IBV_GID_TYPE_ROCE_V1 :
			    IBV_GID_TYPE_IB;
	return 0;
}

/*
 * One entry from sysfs, the parts @mask asks for; @link_layer is the
 * port's when the caller knows it, -1 otherwise.
 */
static int sysfs_gid_entry(struct ibv_context *ctx, uint32_t port,
			   uint32_t index, struct ibv_gid_entry *entry,
			   uint32_t mask, int link_layer)
{
	enum ibv_gid_type_sysfs type;

	entry->gid_index = index;
	entry->port_num = port;
	if ((mask & VERBS_QUERY_GID_ATTR_GID) &&
	    sysfs_gid(ctx, port, index, &entry->gid))
		return EINVAL;
	if (mask & VERBS_QUERY_GID_ATTR_TYPE) {
		if (sysfs_gid_type(ctx, port, index, &type))
			return EINVAL;
		if (type == IBV_GID_TYPE_SYSFS_ROCE_V2)
			entry->gid_type = IBV_GID_TYPE_ROCE_V2;
		else if (v1_type(ctx, port, link_layer, &entry->gid_type))
			return EINVAL;
	}
	if (mask & VERBS_QUERY_GID_ATTR_NDEV_IFINDEX)
		return sysfs_ndev(ctx, port, index, &entry->ndev_ifindex);
	return 0;
}

/* One entry, from the kernel or else the @mask parts of it from sysfs. */
static int query_gid_entry(struct ibv_context *ctx, uint32_t port,
			   uint32_t index, struct ibv_gid_entry *entry,
			   uint32_t flags, size_t entry_size, uint32_t mask)
{
	int ret;

	if (!cmd_query_gid_entry(ctx, port, index, entry, flags, entry_size,
				 &ret))
		return ret;
	if (flags)
		return EOPNOTSUPP;
	ret = sysfs_gid_entry(ctx, port, index, entry, mask, -1);
	if (ret)
		return ret;
	/* An empty slot reads as zeroes; the kernel method says ENODATA. */
	if ((mask & VERBS_QUERY_GID_ATTR_GID) && gid_is_zero(&entry->gid))
		return ENODATA;
	return 0;
}

/**
 * _ibv_query_gid_ex - one entry of a port's GID table
 * @context: an open device
 * @port_num: the port, from 1
 * @gid_index: the entry
 * @entry: filled in, @entry_size bytes
 * @flags: none defined yet
 * @entry_size: sizeof(struct ibv_gid_entry) as the caller knows it
 *
 * Returns 0, ENODATA for an empty entry, or another positive errno value.
 */
IBV_EXPORT int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
				 uint32_t gid_index,
				 struct ibv_gid_entry *entry, uint32_t flags,
				 size_t entry_size)
{
	return query_gid_entry(context, port_num, gid_index, entry, flags,
			       entry_size, GID_ALL);
}

/**
 * ibv_query_gid - the GID at one index of a port's table
 * @context: an open device
 * @port_num: the port, from 1
 * @index: the entry
 * @gid: the GID; all zeroes for an empty entry
 *
 * Returns 0, or -1 with errno as the failing step left it.
 */
VERBS_DEFAULT_VERSION(ibv_query_gid, "IBVERBS_1.1");
int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid)
{
	struct ibv_gid_entry entry = {};
	int ret;

	ret = query_gid_entry(context, port_num, index, &entry, 0,
			      sizeof(entry), VERBS_QUERY_GID_ATTR_GID);
	/*
	 * Older libraries gave an empty entry as a zero GID, not an error.
	 * rdma-core 44 returns -1 without setting errno: after the kernel
	 * method that is its errno, from sysfs the file's (ENOENT past the
	 * table), which callers see and tests/vm/verbs_diff compares.
	 */
	if (ret && ret != ENODATA)
		return -1;
	memcpy(gid, ret ? &(union ibv_gid){} : &entry.gid, sizeof(*gid));
	return 0;
}

/**
 * ibv_query_gid_type - the sysfs-style type of one GID entry
 * @context: an open device
 * @port_num: the port, from 1
 * @index: the entry
 * @type: IB/RoCE v1 or RoCE v2; an empty entry reads as v1
 *
 * Returns 0, or -1 with errno set.
 */
IBV_EXPORT int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num,
				  unsigned int index,
				  enum ibv_gid_type_sysfs *type)
{
	struct ibv_gid_entry entry = {};
	int ret;

	ret = query_gid_entry(context, port_num, index, &entry, 0,
			      sizeof(entry), VERBS_QUERY_GID_ATTR_TYPE);
	if (ret && ret != ENODATA) {
		errno = ret;
		return -1;
	}
	*type = !ret && entry.gid_type == IBV_GID_TYPE_ROCE_V2 ?
			IBV_GID_TYPE_SYSFS_ROCE_V2 :
			IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_query_gid_type);

/* Where the table walk puts the entry it reads. */
struct gid_walk {
	uint8_t *next; /* the caller's array */
	size_t entry_size;
	size_t max, n;
	struct ibv_gid_entry spare; /* past the end of the array */
};

/*
 * Reads every entry of @port. The array takes the non-empty ones; once
 * full, further entries are still read, and one more non-empty entry
 * is EINVAL (the caller's array is too small).
 */
static int walk_port(struct ibv_context *ctx, uint32_t port, struct gid_walk *w)
{
	struct ibv_port_attr pa;
	struct ibv_gid_entry *e;
	int i, ret;

	ret = verbs_query_port(ctx, port, &pa, sizeof(pa));
	if (ret)
		return ret;
	for (i = 0; i < pa.gid_tbl_len; i++) {
		e = w->n < w->max ? (struct ibv_gid_entry *)w->next : &w->spare;
		ret = sysfs_gid_entry(ctx, port, i, e, GID_ALL, pa.link_layer);
		if (ret)
			return ret;
		if (gid_is_zero(&e->gid))
			continue;
		if (w->n == w->max)
			return EINVAL;
		w->n++;
		w->next += w->entry_size;
	}
	return 0;
}

static int sysfs_gid_table(struct ibv_context *ctx,
			   struct ibv_gid_entry *entries, size_t max_entries,
			   size_t entry_size, uint64_t *num_entries)
{
	struct gid_walk w = { .next = (uint8_t *)entries,
			      .entry_size = entry_size,
			      .max = max_entries };
	struct ibv_device_attr da = {};
	uint32_t port;
	int ret;

	ret = ibv_query_device(ctx, &da);
	for (port = 1; !ret && port <= da.phys_port_cnt; port++)
		ret = walk_port(ctx, port, &w);
	*num_entries = w.n;
	return ret;
}

/**
 * _ibv_query_gid_table - every non-empty entry of every port's GID table
 * @context: an open device
 * @entries: the array to fill
 * @max_entries: its length
 * @flags: none defined yet
 * @entry_size: sizeof(struct ibv_gid_entry) as the caller knows it
 *
 * Returns the number of entries filled, or a negative errno value.
 */
IBV_EXPORT ssize_t _ibv_query_gid_table(struct ibv_context *context,
					struct ibv_gid_entry *entries,
					size_t max_entries, uint32_t flags,
					size_t entry_size)
{
	uint64_t num = 0;
	int ret;

	if (cmd_query_gid_table(context, entries, max_entries, flags,
				entry_size, &num, &ret)) {
		if (flags)
			return -EOPNOTSUPP;
		ret = sysfs_gid_table(context, entries, max_entries, entry_size,
				      &num);
	}
	return ret ? -ret : (ssize_t)num;
}
