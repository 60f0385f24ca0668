// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The text of sysfs attributes, as the library reads and parses it. The
 * input is what one read() of an attribute returns; every parser gets it,
 * through a buffer of the size its caller reads with, so one input
 * exercises abi_version and node_type (numbers), dev ("231:192"), ibdev
 * (a device name and the paths built from it), node_guid, the port
 * attributes (P_Keys, GIDs, GID types) and a modalias matched against
 * provider tables.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* First: it defines what <rdma/ib_user_ioctl_verbs.h> would otherwise. */
#include <infiniband/driver.h>

#include <rdma/ib_user_ioctl_verbs.h>

#include "libibverbs/device_list.h"
#include "libibverbs/discover.h"
#include "libibverbs/drivers.h"
#include "libibverbs/sysfs.h"
#include "libibverbs/verbs_device.h"

/* The kinds of entry a provider's table has, with real-looking values. */
static const struct verbs_match_ent table[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_MLX5),
	VERBS_PCI_MATCH(0x15b3, 0x1017, NULL),
	VERBS_PCI_MATCH(0x8086, 0x1592, NULL),
	VERBS_MODALIAS_MATCH("vmbus:3daf2e8ca732094bab99bd1f1c86b501", NULL),
	VERBS_MODALIAS_MATCH("of:N*T*Ccavium,octeontx2*", NULL),
	VERBS_NAME_MATCH("rxe", NULL),
	VERBS_NAME_MATCH("siw", NULL),
	{},
};

/*
 * @data as one read() into a buffer of @size bytes leaves it, in a heap
 * block of exactly that size so that ASan catches a parser reading on.
 * NULL where the library would refuse the read (EOVERFLOW) or for an
 * empty file, which every caller refuses before parsing.
 */
static char *attr(const uint8_t *data, size_t len, size_t size)
{
	char *buf = malloc(size);
	size_t n = len < size ? len : size;

	if (!buf)
		return NULL;
	memcpy(buf, data, n);
	if (sysfs_attr_text(buf, n, size) <= 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* abi_version (class/infiniband_verbs and a uverbs device) and node_type. */
static void numbers(const uint8_t *data, size_t len)
{
	char *buf = attr(data, len, 32);
	uint64_t v;

	if (!buf)
		return;
	if (!sysfs_parse_u64(buf, 10, &v))
		(void)decode_node_type(v);
	free(buf);
}

static void dev(const uint8_t *data, size_t len)
{
	char *buf = attr(data, len, 32);
	dev_t d;

	if (buf)
		(void)parse_dev_text(buf, &d);
	free(buf);
}

/* ibdev, and the name a provider's name table is matched with. */
static void ibdev(const uint8_t *data, size_t len)
{
	char *buf = attr(data, len, IBV_SYSFS_NAME_MAX);
	struct verbs_sysfs_dev *sd = calloc(1, sizeof(*sd));

	if (buf && sd && !set_ibdev(sd, buf)) {
		/* A modalias read already and found empty: names only. */
		sd->flags = VSYSFS_READ_MODALIAS;
		(void)match_table(table, sd);
	}
	free(sd);
	free(buf);
}

static void node_guid(const uint8_t *data, size_t len)
{
	char *buf = attr(data, len, 32);
	uint64_t guid;

	if (buf)
		(void)parse_node_guid(buf, &guid);
	free(buf);
}

static void port_attrs(const uint8_t *data, size_t len)
{
	enum ibv_gid_type_sysfs type;
	union ibv_gid gid;
	__be16 pkey;
	char *buf;

	buf = attr(data, len, 8);
	if (buf)
		(void)parse_pkey(buf, &pkey);
	free(buf);
	buf = attr(data, len, 41);
	if (buf)
		(void)parse_gid(buf, &gid);
	free(buf);
	buf = attr(data, len, 11);
	if (buf)
		(void)parse_gid_type(buf, &type);
	free(buf);
}

/* device/modalias, read straight into struct verbs_sysfs_dev. */
static void modalias(const uint8_t *data, size_t len)
{
	struct verbs_sysfs_dev *sd = calloc(1, sizeof(*sd));
	size_t n;

	if (!sd)
		return;
	n = len < sizeof(sd->modalias) ? len : sizeof(sd->modalias);
	memcpy(sd->modalias, data, n);
	if (sysfs_attr_text(sd->modalias, n, sizeof(sd->modalias)) > 0) {
		strcpy(sd->ibdev_name, "mlx5_0");
		sd->flags = VSYSFS_READ_MODALIAS;
		(void)match_table(table, sd);
	}
	free(sd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	numbers(data, size);
	dev(data, size);
	ibdev(data, size);
	node_guid(data, size);
	port_attrs(data, size);
	modalias(data, size);
	return 0;
}
