// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Finding the kernel's uverbs devices: netlink first, sysfs when the
 * kernel has no RDMA netlink. A scan only lists devices with a cheap
 * identity; the expensive details are read by scan_fill() for the devices
 * the caller does not know yet.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/rdma_netlink.h>

#include "config.h"
#include "discover.h"
#include "driver.h"
#include "kernel-headers/kabi_netlink.h"
#include "log.h"
#include "rdma_nl.h"
#include "sysfs.h"
#include "util.h"

/* The uverbs ABI of the kernel, 0 until known; netlink implies 6. */
int abi_ver;

/*
 * Timestamps of directories are coarse (a scheduler tick); a change made
 * within this window of the previous scan may leave them equal.
 */
#define RACY_WINDOW_NS (50 * 1000 * 1000LL)

static struct {
	bool valid;
	ino_t ino;
	struct timespec mtime;
	struct timespec when;
	bool racy;
} last_sysfs;

/* A zeroed new entry at the end of the scan; the array grows by doubling. */
static int scan_add(struct scan *scan, struct scan_entry **out)
{
	if (scan->n == scan->cap) {
		size_t cap = scan->cap ? scan->cap * 2 : 16;
		struct scan_entry *e = realloc(scan->ent, cap * sizeof(*e));

		if (!e)
			return ENOMEM;
		scan->ent = e;
		scan->cap = cap;
	}
	*out = &scan->ent[scan->n++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/*
 * Names are NLA_STRING, not the kernel's NLA_NUL_STRING: libnl checks
 * that an NLA_STRING ends in a NUL but takes an NLA_NUL_STRING as it
 * comes, and nla_get_string() on one without a NUL reads past the reply.
 */
static struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_NODE_GUID] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_PORT_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_CHARDEV] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] = { .type = NLA_U32 },
};

/*
 * The kernel's node type (RDMA_NODE_*, 1..7) as the verbs enum. Anything
 * else is a kernel newer than this code or a corrupt tree; it must not
 * leak into ibv_device.node_type as a value the enum does not define.
 */
enum ibv_node_type decode_node_type(uint64_t knode)
{
	switch (knode) {
	case RDMA_NODE_IB_CA:
		return IBV_NODE_CA;
	case RDMA_NODE_IB_SWITCH:
		return IBV_NODE_SWITCH;
	case RDMA_NODE_IB_ROUTER:
		return IBV_NODE_ROUTER;
	case RDMA_NODE_RNIC:
		return IBV_NODE_RNIC;
	case RDMA_NODE_USNIC:
		return IBV_NODE_USNIC;
	case RDMA_NODE_USNIC_UDP:
		return IBV_NODE_USNIC_UDP;
	case RDMA_NODE_UNSPECIFIED:
		return IBV_NODE_UNSPECIFIED;
	default:
		return IBV_NODE_UNKNOWN;
	}
}

static int nl_parse(struct nl_msg *msg, struct nlattr **tb)
{
	return nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1,
			   nldev_policy);
}

/*
 * One device of the NLDEV dump. A reply that lacks what every kernel with
 * RDMA netlink sends is skipped rather than trusted; PORT_INDEX carries
 * the number of ports in this reply.
 */
int nl_dev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {};
	struct scan *scan = arg;
	struct scan_entry *e;
	const char *name;

	if (nl_parse(msg, tb) || !tb[RDMA_NLDEV_ATTR_DEV_NAME] ||
	    !tb[RDMA_NLDEV_ATTR_DEV_INDEX] ||
	    !tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] ||
	    !tb[RDMA_NLDEV_ATTR_NODE_GUID] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return NL_SKIP;
	if (scan_add(scan, &e))
		return NL_STOP;
	name = nla_get_string(tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (str_copy(e->name, sizeof(e->name), name)) {
		ibv_log_warn("skipping device %s: its name is over %d bytes",
			     name, IBV_SYSFS_NAME_MAX - 1);
		scan->n--;
		return NL_SKIP;
	}
	e->ident = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	e->node_type =
		decode_node_type(nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]));
	e->node_guid = nla_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]);
	e->num_ports = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	return NL_OK;
}

/*
 * The netlink scan: one dump lists every device with its kernel index.
 * Any failure leaves the scan empty so the caller falls back to sysfs.
 * Netlink came with uverbs ABI 6, so its presence settles the global ABI.
 */
static int scan_netlink(struct scan *scan)
{
	int ret;

	scan->nl = rdma_nl_open();
	if (!scan->nl)
		return errno;
	ret = rdma_nl_request(scan->nl,
			      rdma_nl_msg(RDMA_NLDEV_CMD_GET, NLM_F_DUMP),
			      nl_dev_cb, scan);
	if (ret) {
		rdma_nl_close(scan->nl);
		scan->nl = NULL;
		scan->n = 0;
		return ret;
	}
	scan->mode = SCAN_NETLINK;
	abi_ver = 6;
	return 0;
}

static bool ts_equal(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static long long ts_diff_ns(const struct timespec *a, const struct timespec *b)
{
	return (a->tv_sec - b->tv_sec) * 1000000000LL +
	       (a->tv_nsec - b->tv_nsec);
}

/*
 * Entries of class/infiniband_verbs are trusted by name and inode number
 * while the directory is unchanged. After a change, an entry whose ctime
 * is near or after the previous scan may be a new device that reused a
 * freed inode number, so the caller re-reads it.
 */
static void mark_racy(struct scan *scan, bool dir_changed)
{
	struct stat st;
	size_t i;

	for (i = 0; i < scan->n; i++) {
		struct scan_entry *e = &scan->ent[i];

		if (!last_sysfs.valid)
			continue;
		if (!dir_changed && !last_sysfs.racy)
			continue;
		if (fstatat(scan->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW)) {
			e->racy = true;
			continue;
		}
		e->racy = ts_diff_ns(&st.st_ctim, &last_sysfs.when) >
			  -RACY_WINDOW_NS;
	}
}

/* Skips dot entries, attributes and names too long for a uverbs device. */
static bool uverbs_entry(const struct dirent64 *d)
{
	if (d->d_name[0] == '.' || d->d_type == DT_REG ||
	    !strcmp(d->d_name, "abi_version"))
		return false;
	if (strlen(d->d_name) < IBV_SYSFS_NAME_MAX)
		return true;
	ibv_log_warn("skipping %s: its name is over %d bytes", d->d_name,
		     IBV_SYSFS_NAME_MAX - 1);
	return false;
}

/*
 * Lists class/infiniband_verbs with getdents64() into one large buffer,
 * without a DIR stream's allocation; the inode numbers that come with the
 * entries serve as their cheap identity.
 */
static int read_class_dir(struct scan *scan)
{
	char buf[32768] __attribute__((aligned(8)));
	struct scan_entry *e;
	ssize_t len, off;

	while ((len = getdents64(scan->dirfd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (!uverbs_entry(d))
				continue;
			if (scan_add(scan, &e))
				return ENOMEM;
			strcpy(e->name, d->d_name);
			e->ident = d->d_ino;
		}
	}
	return len < 0 ? errno : 0;
}

/*
 * The sysfs scan. Besides listing the entries it remembers the
 * directory's identity and timestamp, so that the next scan can trust
 * every known entry of an unchanged directory (see mark_racy()).
 */
static int scan_sysfs(struct scan *scan)
{
	char path[IBV_SYSFS_PATH_MAX + 32];
	struct timespec now;
	struct stat st;
	bool changed;
	int ret;

	if (str_join(path, sizeof(path), ibv_get_sysfs_path(),
		     "/class/infiniband_verbs", ""))
		return ENAMETOOLONG;
	scan->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (scan->dirfd < 0)
		return errno == ENOENT || errno == ENOTDIR ? ENOSYS : errno;
	scan->mode = SCAN_SYSFS;
	clock_gettime(CLOCK_REALTIME, &now);
	if (fstat(scan->dirfd, &st))
		return errno;
	ret = read_class_dir(scan);
	if (ret)
		return ret;
	changed = !last_sysfs.valid || st.st_ino != last_sysfs.ino ||
		  !ts_equal(&st.st_mtim, &last_sysfs.mtime);
	mark_racy(scan, changed);
	last_sysfs.valid = true;
	last_sysfs.ino = st.st_ino;
	last_sysfs.mtime = st.st_mtim;
	last_sysfs.when = now;
	last_sysfs.racy = ts_diff_ns(&now, &st.st_mtim) < RACY_WINDOW_NS;
	return 0;
}

/* Lists the devices the kernel has now. ENOSYS: no RDMA support at all. */
int scan_devices(struct scan *scan)
{
	int ret;

	memset(scan, 0, sizeof(*scan));
	scan->dirfd = scan->ibfd = scan->devfd = -1;
	ret = sysfs_root_check();
	if (ret)
		return ret;
	if (!scan_netlink(scan))
		return 0;
	return scan_sysfs(scan);
}

void scan_release(struct scan *scan)
{
	if (scan->dirfd >= 0)
		close(scan->dirfd);
	if (scan->ibfd >= 0)
		close(scan->ibfd);
	if (scan->devfd >= 0)
		close(scan->devfd);
	rdma_nl_close(scan->nl);
	free(scan->ent);
	memset(scan, 0, sizeof(*scan));
	scan->dirfd = scan->ibfd = scan->devfd = -1;
}

/* The kernel sends a dev_t in its "huge" encoding, not glibc's. */
static dev_t decode_huge_dev(uint64_t v)
{
	return makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
}

int nl_chardev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {};
	struct verbs_sysfs_dev *sd = arg;
	const char *name;

	if (nl_parse(msg, tb) || !tb[RDMA_NLDEV_ATTR_CHARDEV] ||
	    !tb[RDMA_NLDEV_ATTR_CHARDEV_ABI] ||
	    !tb[RDMA_NLDEV_ATTR_CHARDEV_NAME])
		return NL_SKIP;
	name = nla_get_string(tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]);
	if (str_copy(sd->sysfs_name, sizeof(sd->sysfs_name), name)) {
		ibv_log_warn(
			"ignoring uverbs device %s of %s: its name is over %d bytes",
			name, sd->ibdev_name, IBV_SYSFS_NAME_MAX - 1);
		return NL_SKIP;
	}
	sd->sysfs_cdev =
		decode_huge_dev(nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV]));
	sd->abi_ver = (uint32_t)nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	if (tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID])
		sd->driver_id =
			nla_get_u32(tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]);
	return NL_OK;
}

/* "MAJOR:MINOR", as the kernel prints a dev_t. */
/* Decimal digits only (no sign, no blank), up to @max; the end in *@end. */
static bool dec_number(const char *s, char **end, unsigned long max,
		       unsigned long *v)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoul(s, end, 10);
	return !errno && *v <= max;
}

/* "MAJ:MIN" as the kernel prints a device number, nothing else. */
int parse_dev_text(const char *buf, dev_t *out)
{
	unsigned long maj, min;
	char *end;

	if (!dec_number(buf, &end, 0xfff, &maj) || *end != ':' ||
	    !dec_number(end + 1, &end, 0xfffff, &min) || *end != '\0')
		return EINVAL;
	*out = makedev(maj, min);
	return 0;
}

static int parse_dev_t(int dirfd, const char *file, dev_t *out)
{
	char buf[32];

	if (ibv_read_sysfs_file_at(dirfd, file, buf, sizeof(buf)) <= 0)
		return ENOENT;
	return parse_dev_text(buf, out);
}

/*
 * Reads dev and abi_version of the uverbs directory @dir below @dirfd
 * ("" for @dirfd itself); relative paths spare opening the directory.
 */
static int read_uverbs_dir(int dirfd, const char *dir,
			   struct verbs_sysfs_dev *sd)
{
	char path[IBV_SYSFS_NAME_MAX + 16];
	const char *sep = *dir ? "/" : "";
	uint64_t v;
	int ret;

	if (str_join(path, sizeof(path), dir, sep, "dev"))
		return ENAMETOOLONG;
	ret = parse_dev_t(dirfd, path, &sd->sysfs_cdev);
	if (ret)
		return ret;
	if (str_join(path, sizeof(path), dir, sep, "abi_version"))
		return ENAMETOOLONG;
	if (!sysfs_read_u64(dirfd, path, 10, &v))
		sd->abi_ver = (uint32_t)v;
	return 0;
}

/* Without GET_CHARDEV, the uverbs node is found below the ib device. */
static int chardev_from_sysfs(struct verbs_sysfs_dev *sd)
{
	char path[IBV_SYSFS_PATH_MAX + 64];
	struct dirent *d;
	int ret = ENOENT;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/device/infiniband_verbs",
		 sd->ibdev_path);
	dir = opendir(path);
	if (!dir)
		return ENOENT;
	while ((d = readdir(dir))) {
		int fd;

		if (d->d_name[0] == '.' ||
		    strlen(d->d_name) >= sizeof(sd->sysfs_name))
			continue;
		fd = openat(dirfd(dir), d->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		strcpy(sd->sysfs_name, d->d_name);
		ret = read_uverbs_dir(fd, "", sd);
		close(fd);
		break;
	}
	closedir(dir);
	return ret;
}

/*
 * struct ibv_device holds the sysfs paths of a device in 256 bytes. One
 * that does not fit is refused, and the device skipped: a path cut short
 * or left empty would send every later read elsewhere.
 */
static int device_path(char path[IBV_SYSFS_PATH_MAX], const char *dir,
		       const char *name)
{
	const char *root = ibv_get_sysfs_path();

	if (!str_join(path, IBV_SYSFS_PATH_MAX, root, dir, name))
		return 0;
	ibv_log_warn(
		"skipping device %s: its sysfs path %s%s%s would be over %d bytes",
		name, root, dir, name, IBV_SYSFS_PATH_MAX - 1);
	return ENAMETOOLONG;
}

/* The ib device's name and path, from netlink or from sysfs's ibdev. */
int set_ibdev(struct verbs_sysfs_dev *sd, const char *name)
{
	if (str_copy(sd->ibdev_name, sizeof(sd->ibdev_name), name) ||
	    device_path(sd->ibdev_path, "/class/infiniband/", name))
		return ENAMETOOLONG;
	return 0;
}

/* The dev_path of struct ibv_device, built by one function for all users. */
int uverbs_path(const struct verbs_sysfs_dev *sd, char path[IBV_SYSFS_PATH_MAX])
{
	return device_path(path, "/class/infiniband_verbs/", sd->sysfs_name);
}

/* What the dump told of a netlink device. */
static int nl_identity(const struct scan_entry *e, struct verbs_sysfs_dev *sd)
{
	if (set_ibdev(sd, e->name))
		return ENAMETOOLONG;
	sd->ibdev_idx = (int)e->ident;
	sd->node_guid = e->node_guid;
	sd->flags |= VSYSFS_READ_NODE_GUID;
	sd->node_type = e->node_type;
	sd->num_ports = e->num_ports;
	return 0;
}

/* GET_CHARDEV of @e's uverbs node; NULL when memory is short. */
static struct nl_msg *chardev_request(const struct scan_entry *e)
{
	struct nl_msg *msg = rdma_nl_msg(RDMA_NLDEV_CMD_GET_CHARDEV, 0);

	if (msg &&
	    (nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)e->ident) ||
	     nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs"))) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int prefetch_cb(struct nl_msg *msg, void *arg)
{
	struct scan_entry *e = arg;

	return nl_chardev_cb(msg, e->record);
}

static void prefetch_done(void *arg, int err)
{
	struct scan_entry *e = arg;

	e->chardev = err ? CHARDEV_REFUSED : CHARDEV_ANSWERED;
}

/*
 * A cold listing would pay a send and a receive per device; batched, the
 * kernel answers RDMA_NL_BATCH requests per send. The records are fresh
 * (zeroed), and take their identity now, as the replies fill them.
 */
void scan_prefetch_chardevs(struct scan *scan)
{
	struct rdma_nl_batch *b;
	size_t i;

	if (scan->mode != SCAN_NETLINK)
		return;
	b = rdma_nl_batch_new(scan->nl, prefetch_cb, prefetch_done);
	if (!b)
		return;
	for (i = 0; i < scan->n; i++) {
		struct scan_entry *e = &scan->ent[i];

		if (e->record && !nl_identity(e, e->record))
			rdma_nl_batch_add(b, chardev_request(e), e);
	}
	rdma_nl_batch_run(b);
	rdma_nl_batch_free(b);
}

/*
 * Details of a netlink device: most came with the dump; the character
 * device needs a GET_CHARDEV request (batched beforehand, or alone here),
 * or a look below the device in sysfs on kernels that lack it.
 */
static int fill_netlink(struct scan *scan, const struct scan_entry *e,
			struct verbs_sysfs_dev *sd)
{
	int ret = 0;

	if (e->chardev == CHARDEV_REFUSED)
		ret = ENODEV;
	if (e->chardev == CHARDEV_UNASKED) {
		memset(sd, 0, sizeof(*sd));
		if (nl_identity(e, sd))
			return ENAMETOOLONG;
		ret = rdma_nl_request(scan->nl, chardev_request(e),
				      nl_chardev_cb, sd);
	}
	if (ret || !sd->sysfs_name[0])
		return chardev_from_sysfs(sd);
	return 0;
}

/* Opens @path once per scan and keeps it in @fd; -1 if it cannot. */
static int scan_dir(int *fd, const char *a, const char *b)
{
	char path[IBV_SYSFS_PATH_MAX + 32];

	if (*fd < 0 && !str_join(path, sizeof(path), a, b, ""))
		*fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *fd;
}

/*
 * Details of a sysfs device, read relative to directories opened once per
 * scan. The ib directory's timestamp becomes time_created, which tells a
 * device apart from a newer one that reused its uverbs name.
 */
static int fill_sysfs(struct scan *scan, const struct scan_entry *e,
		      struct verbs_sysfs_dev *sd)
{
	char buf[IBV_SYSFS_NAME_MAX + 16], path[IBV_SYSFS_NAME_MAX + 16];
	struct stat st;
	uint64_t v;
	int fd, ret;

	if (str_copy(sd->sysfs_name, sizeof(sd->sysfs_name), e->name) ||
	    str_join(path, sizeof(path), e->name, "/ibdev", ""))
		return ENAMETOOLONG;
	sd->ibdev_idx = -1;
	if (ibv_read_sysfs_file_at(scan->dirfd, path, buf,
				   IBV_SYSFS_NAME_MAX) <= 0)
		return ENOENT;
	ret = read_uverbs_dir(scan->dirfd, e->name, sd);
	if (ret)
		return ret;
	if (set_ibdev(sd, buf))
		return ENAMETOOLONG;
	/* Paths relative to class/infiniband save the kernel a path walk. */
	fd = scan_dir(&scan->ibfd, ibv_get_sysfs_path(), "/class/infiniband");
	if (fd < 0 || fstatat(fd, buf, &st, 0))
		return ENOENT;
	sd->time_created = st.st_mtim;
	strcat(buf, "/node_type");
	if (sysfs_read_u64(fd, buf, 10, &v))
		v = 0; /* unreadable: decoded as unknown */
	sd->node_type = decode_node_type(v);
	return 0;
}

/* The global ABI is checked once, when sysfs shows a first device. */
static int check_global_abi(struct scan *scan)
{
	uint64_t v;

	if (abi_ver)
		return 0;
	if (sysfs_read_u64(scan->dirfd, "abi_version", 10, &v)) {
		ibv_log_err("cannot read the kernel's uverbs ABI version");
		return ENOSYS;
	}
	if (v < IB_USER_VERBS_MIN_ABI_VERSION ||
	    v > IB_USER_VERBS_MAX_ABI_VERSION) {
		ibv_log_err("kernel uverbs ABI %llu is not supported (%d..%d)",
			    (unsigned long long)v,
			    IB_USER_VERBS_MIN_ABI_VERSION,
			    IB_USER_VERBS_MAX_ABI_VERSION);
		return ENOSYS;
	}
	abi_ver = (int)v;
	return 0;
}

/* Reads everything the core and providers need to know about @e. */
int scan_fill(struct scan *scan, const struct scan_entry *e,
	      struct verbs_sysfs_dev *sd)
{
	char dev_path[IBV_SYSFS_PATH_MAX];
	int ret;

	if (scan->mode == SCAN_NETLINK) {
		ret = fill_netlink(scan, e, sd);
	} else {
		memset(sd, 0, sizeof(*sd));
		ret = check_global_abi(scan);
		if (!ret)
			ret = fill_sysfs(scan, e, sd);
	}
	/* Refused here, not when make_device() builds it for the provider. */
	return ret ? ret : uverbs_path(sd, dev_path);
}

static bool is_cdev(const char *path, dev_t cdev)
{
	struct stat st;

	return !stat(path, &st) && S_ISCHR(st.st_mode) && st.st_rdev == cdev;
}

/*
 * True when a device node for @sd exists, under its name or udev's alias.
 * The kernel reads the name from the stack, not from @sd: the records of
 * a cold listing are pages no system call has read yet, and under a
 * hypervisor that shadows page tables the kernel's first touch of each
 * such page is a fault of its own (about one every four devices).
 */
bool cdev_matches(struct scan *scan, const struct verbs_sysfs_dev *sd)
{
	char path[IBV_SYSFS_NAME_MAX + 32], name[IBV_SYSFS_NAME_MAX];
	struct stat st;
	int fd;

	memcpy(name, sd->sysfs_name, sizeof(name));
	fd = scan_dir(&scan->devfd, RDMA_CDEV_DIR, "");
	if (fd >= 0 && !fstatat(fd, name, &st, 0) && S_ISCHR(st.st_mode) &&
	    st.st_rdev == sd->sysfs_cdev)
		return true;
	snprintf(path, sizeof(path), "/dev/char/%u:%u", major(sd->sysfs_cdev),
		 minor(sd->sysfs_cdev));
	return is_cdev(path, sd->sysfs_cdev);
}

/* Opens @path and accepts it only if it is the character device @cdev. */
static int open_checked(const char *path, dev_t cdev)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != cdev) {
		close(fd);
		errno = ENODEV;
		return -1;
	}
	return fd;
}

/*
 * Opens the uverbs node and verifies it is the device sysfs described, so a
 * stale or foreign node under the expected name is never used.
 */
int open_cdev(const char *devname, dev_t cdev)
{
	char path[IBV_SYSFS_NAME_MAX + 32];
	int fd, err;

	snprintf(path, sizeof(path), RDMA_CDEV_DIR "/%s", devname);
	fd = open_checked(path, cdev);
	if (fd >= 0)
		return fd;
	err = errno;
	snprintf(path, sizeof(path), "/dev/char/%u:%u", major(cdev),
		 minor(cdev));
	fd = open_checked(path, cdev);
	if (fd < 0)
		errno = err == ENOENT ? ENODEV : err;
	return fd;
}
