/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which uverbs devices the kernel has (discover.c): a scan over netlink,
 * or over class/infiniband_verbs where netlink is absent, and the
 * details of a device the device list has not seen before.
 */
#ifndef IBV_DISCOVER_H
#define IBV_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "driver.h"

/* Why a scan produced no usable device, for the diagnostic message. */
struct discovery_stats {
	unsigned int found;
	unsigned int no_provider;
	unsigned int no_cdev;
	unsigned int abi_refused;
	unsigned int failed;
	bool unmatched; /* some device still has no provider */
	bool out_of_memory; /* a device was left out for want of memory */
};

enum scan_mode { SCAN_NETLINK, SCAN_SYSFS };

/* What a batched GET_CHARDEV brought for a netlink entry. */
enum scan_chardev {
	CHARDEV_UNASKED, /* or its reply lost: ask alone */
	CHARDEV_ANSWERED, /* the reply is in the record */
	CHARDEV_REFUSED, /* the kernel's error: look in sysfs */
};

/* A device seen by one scan, before the core knows whether it changed. */
struct scan_entry {
	char name[IBV_SYSFS_NAME_MAX]; /* ibdev name (netlink) or uverbsN */
	uint64_t ident; /* ibdev index (netlink) or inode (sysfs) */
	uint64_t node_guid;
	uint32_t num_ports;
	enum ibv_node_type node_type;
	bool racy; /* sysfs: identity must be confirmed by reading */
	void *blank; /* the device list's new record for it, not read yet */
	struct verbs_sysfs_dev *record; /* that record's sysfs part */
	enum scan_chardev chardev;
};

struct nl_sock;

struct scan {
	enum scan_mode mode;
	struct scan_entry *ent;
	size_t n, cap;
	int dirfd; /* sysfs: class/infiniband_verbs */
	int ibfd; /* class/infiniband, opened when first needed */
	int devfd; /* /dev/infiniband, opened when first needed */
	struct nl_sock *nl;
};

int scan_devices(struct scan *scan);
void scan_release(struct scan *scan);
int scan_fill(struct scan *scan, const struct scan_entry *ent,
	      struct verbs_sysfs_dev *sysfs_dev);
/*
 * Netlink: asks the character device of every entry with a record, many
 * requests to a send, before scan_fill() reads them one by one.
 */
void scan_prefetch_chardevs(struct scan *scan);
int uverbs_path(const struct verbs_sysfs_dev *sysfs_dev,
		char path[IBV_SYSFS_PATH_MAX]);
bool cdev_matches(struct scan *scan, const struct verbs_sysfs_dev *sysfs_dev);
int open_cdev(const char *devname, dev_t cdev);
extern int abi_ver;

/* The kernel's node type as the public enum; IBV_NODE_UNKNOWN if odd. */
enum ibv_node_type decode_node_type(uint64_t knode);

/*
 * The parsers of what the kernel says, apart from where it is read, so
 * that fuzz/ feeds them: a dev file's "MAJOR:MINOR", an ibdev name, one
 * reply of the NLDEV dump (@arg a struct scan) and of GET_CHARDEV (@arg
 * a struct verbs_sysfs_dev).
 */
int parse_dev_text(const char *buf, dev_t *out);
int set_ibdev(struct verbs_sysfs_dev *sd, const char *name);
struct nl_msg;
int nl_dev_cb(struct nl_msg *msg, void *arg);
int nl_chardev_cb(struct nl_msg *msg, void *arg);

#endif
