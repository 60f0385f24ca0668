// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The device list, and nothing else: opening a device is context.c's.
 * Every ibv_get_device_list() asks the kernel which
 * devices exist, but only devices the library has not seen before (or
 * whose identity changed) are read in detail and matched to a provider;
 * known devices cost a hash lookup. Devices are reference counted: the
 * list, each returned array and each open context hold one reference.
 */
#include <stdio.h>
#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "device_list.h"
#include "discover.h"
#include "driver.h"
#include "drivers.h"
#include "export.h"
#include "init.h"
#include "log.h"

enum entry_state {
	ENT_READY, /* matched; vdev is set */
	ENT_NO_PROVIDER,
	ENT_ABI_REFUSED,
	ENT_BLANK, /* new in this scan, not read yet (see claim()) */
};

/* What the library remembers about one device the kernel listed. */
struct dev_entry {
	enum scan_mode mode;
	char name[IBV_SYSFS_NAME_MAX];
	uint64_t ident;
	enum entry_state state;
	unsigned int seen; /* scan generation that last listed it */
	unsigned int drv_gen; /* registry generation of a failed match */
	bool warned;
	struct verbs_sysfs_dev *sysfs; /* owned by vdev once READY */
	struct verbs_device *vdev;
	struct dev_entry *hnext;
};

/*
 * A device's sysfs record as the list allocates it, with the device's
 * place: records are numbered in the order the kernel listed their
 * devices, each listing's new ones after all before them.
 */
struct listed_sysfs {
	struct verbs_sysfs_dev sd;
	uint64_t order;
};

static pthread_mutex_t dev_list_lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * READY devices in the order they were discovered, via verbs_device.entry,
 * whatever the order they were matched in: rdma-core lists them so, and a
 * program that takes the first device must get the same one from both.
 */
static struct list_head device_list = LIST_HEAD_INIT(device_list);
static uint64_t last_order;
static struct dev_entry **htab;
static size_t htab_size, htab_count;
static unsigned int scan_gen;
/* The provider registry's generation, read once per refresh. */
static unsigned int drv_gen;

static size_t hash_name(enum scan_mode mode, const char *s)
{
	uint32_t h = 2166136261u ^ (uint32_t)mode;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & (htab_size - 1);
}

static struct dev_entry *lookup(enum scan_mode mode, const char *name)
{
	struct dev_entry *e;

	if (!htab_size)
		return NULL;
	for (e = htab[hash_name(mode, name)]; e; e = e->hnext)
		if (e->mode == mode && !strcmp(e->name, name))
			return e;
	return NULL;
}

static int grow_table(void)
{
	size_t old = htab_size, i;
	struct dev_entry **t = htab, *e, *n;

	if (htab_count < htab_size)
		return 0;
	htab_size = old ? old * 2 : 64;
	htab = calloc(htab_size, sizeof(*htab));
	if (!htab) {
		htab = t;
		htab_size = old;
		return ENOMEM;
	}
	for (i = 0; i < old; i++)
		for (e = t[i]; e; e = n) {
			size_t b = hash_name(e->mode, e->name);

			n = e->hnext;
			e->hnext = htab[b];
			htab[b] = e;
		}
	free(t);
	return 0;
}

static void unhash(struct dev_entry *ent)
{
	struct dev_entry **p = &htab[hash_name(ent->mode, ent->name)];

	while (*p != ent)
		p = &(*p)->hnext;
	*p = ent->hnext;
	htab_count--;
}

void verbs_device_release(struct verbs_device *vdev)
{
	struct verbs_sysfs_dev *sysfs;

	sysfs = vdev->sysfs;
	vdev->ops->uninit_device(vdev);
	free(sysfs);
}

static void drop_entry(struct dev_entry *ent)
{
	unhash(ent);
	if (ent->vdev) {
		list_del(&ent->vdev->entry);
		verbs_device_put(ent->vdev);
	} else {
		free(ent->sysfs);
	}
	free(ent);
}

static enum ibv_transport_type transport_of(enum ibv_node_type t)
{
	switch (t) {
	case IBV_NODE_CA:
	case IBV_NODE_SWITCH:
	case IBV_NODE_ROUTER:
		return IBV_TRANSPORT_IB;
	case IBV_NODE_RNIC:
		return IBV_TRANSPORT_IWARP;
	case IBV_NODE_USNIC:
		return IBV_TRANSPORT_USNIC;
	case IBV_NODE_USNIC_UDP:
		return IBV_TRANSPORT_USNIC_UDP;
	case IBV_NODE_UNSPECIFIED:
		return IBV_TRANSPORT_UNSPECIFIED;
	default:
		return IBV_TRANSPORT_UNKNOWN;
	}
}

/* Copies between arrays of one size, so nothing can be cut short. */
#define copy_exact(dst, src)                                             \
	do {                                                             \
		static_assert(sizeof(dst) == sizeof(src), #dst " size"); \
		memcpy(dst, src, sizeof(dst));                           \
	} while (0)

static uint64_t order_of(const struct verbs_device *vdev)
{
	return container_of(vdev->sysfs, struct listed_sysfs, sd)->order;
}

/*
 * Places a new device among the listed ones by its discovery order. The
 * providers may match devices in another order (they are loaded as the
 * devices need them), so the place is looked for from the end: devices
 * are mostly made in order, and a listing's are after all others.
 */
static void list_in_order(struct verbs_device *vdev)
{
	struct list_node *pos = device_list.n.prev;
	uint64_t order = order_of(vdev);

	while (pos != &device_list.n &&
	       order_of(list_entry(pos, struct verbs_device, entry)) > order)
		pos = pos->prev;
	list_add_after(pos, &vdev->entry);
}

static int make_device(struct dev_entry *ent,
		       const struct verbs_device_ops *ops)
{
	struct verbs_sysfs_dev *sd = ent->sysfs;
	char dev_path[IBV_SYSFS_PATH_MAX];
	struct verbs_device *vdev;
	struct ibv_device *dev;

	/* scan_fill() has already skipped a device whose path is too long. */
	if (uverbs_path(sd, dev_path))
		return ENAMETOOLONG;
	vdev = ops->alloc_device(sd);
	if (!vdev)
		return errno ? errno : ENOMEM;
	dev = &vdev->device;
	vdev->ops = ops;
	atomic_init(&vdev->refcount, 1);
	vdev->sysfs = sd;
	dev->node_type = sd->node_type;
	dev->transport_type = transport_of(sd->node_type);
	copy_exact(dev->name, sd->ibdev_name);
	copy_exact(dev->dev_name, sd->sysfs_name);
	copy_exact(dev->dev_path, dev_path);
	copy_exact(dev->ibdev_path, sd->ibdev_path);
	ent->vdev = vdev;
	ent->state = ENT_READY;
	list_in_order(vdev);
	return 0;
}

/* Matches an entry against the registered providers; no I/O when known. */
static void try_match(struct dev_entry *ent, struct discovery_stats *st)
{
	const struct verbs_device_ops *ops;
	bool abi_refused;
	int ret;

	ent->drv_gen = drv_gen;
	ops = match_driver(ent->sysfs, &abi_refused);
	if (!ops) {
		ent->state = abi_refused ? ENT_ABI_REFUSED : ENT_NO_PROVIDER;
		return;
	}
	ret = make_device(ent, ops);
	if (ret) {
		ibv_log_warn("provider %s failed to set up device %s",
			     ops->name, ent->sysfs->ibdev_name);
		st->failed++;
		ent->state = ENT_NO_PROVIDER;
		/* Memory may come back: the next listing tries again. */
		if (ret == ENOMEM) {
			st->out_of_memory = true;
			ent->drv_gen--;
		}
	}
}

/*
 * A hashed record for a device not seen before, blank until fill_blank()
 * reads it, and without its sysfs record until give_sysfs(); NULL when
 * memory is short.
 */
static struct dev_entry *blank_entry(struct scan *scan,
				     const struct scan_entry *se)
{
	struct dev_entry *ent;
	size_t b;

	if (grow_table())
		return NULL;
	ent = calloc(1, sizeof(*ent));
	if (!ent)
		return NULL;
	ent->state = ENT_BLANK;
	ent->mode = scan->mode;
	copy_exact(ent->name, se->name);
	ent->ident = se->ident;
	ent->seen = scan_gen;
	b = hash_name(ent->mode, ent->name);
	ent->hnext = htab[b];
	htab[b] = ent;
	htab_count++;
	return ent;
}

/*
 * The sysfs record of a blank entry. These come after all the entries,
 * which then lie side by side: a listing walks every entry several
 * times, and each walk takes a few pages, not one per device.
 */
static void give_sysfs(struct scan_entry *se, struct discovery_stats *st)
{
	struct dev_entry *ent = se->blank;
	struct listed_sysfs *rec;

	if (!ent)
		return;
	rec = calloc(1, sizeof(*rec));
	ent->sysfs = rec ? &rec->sd : NULL;
	se->record = ent->sysfs;
	if (rec) {
		/* give_sysfs() is called in the scan's order. */
		rec->order = ++last_order;
		return;
	}
	drop_entry(ent);
	se->blank = NULL;
	st->out_of_memory = true;
}

/* Reads a blank record and matches it; failures are retried next call. */
static void fill_blank(struct scan *scan, const struct scan_entry *se,
		       struct discovery_stats *st)
{
	struct dev_entry *ent = se->blank;

	if (!ent)
		return;
	if (scan_fill(scan, se, ent->sysfs)) {
		ibv_log_info(
			"skipping %s: its sysfs or netlink data is incomplete",
			se->name);
		st->failed++;
		drop_entry(ent);
		return;
	}
	if (!cdev_matches(scan, ent->sysfs)) {
		ibv_log_info("skipping %s: no character device " RDMA_CDEV_DIR
			     "/%s with the expected number",
			     ent->sysfs->ibdev_name, ent->sysfs->sysfs_name);
		st->no_cdev++;
		drop_entry(ent);
		return;
	}
	try_match(ent, st);
}

/* A racy sysfs entry: same device only if its details read the same. */
static bool still_same(struct scan *scan, const struct scan_entry *se,
		       struct dev_entry *ent)
{
	struct verbs_sysfs_dev now;

	if (scan_fill(scan, se, &now))
		return false;
	return !strcmp(now.ibdev_name, ent->sysfs->ibdev_name) &&
	       now.sysfs_cdev == ent->sysfs->sysfs_cdev &&
	       now.time_created.tv_sec == ent->sysfs->time_created.tv_sec &&
	       now.time_created.tv_nsec == ent->sysfs->time_created.tv_nsec;
}

/*
 * The first pass over a scan: a known device is marked seen, a new one
 * (or one whose identity changed) gets a blank record, which @se keeps
 * for the second. Returns whether it made one.
 *
 * Every new record is made before any is read (scan_prefetch_chardevs()
 * asks the kernel about them in batches, then fill_blank()), so
 * that no record is allocated between two netlink requests a device
 * asks alone (a lost reply, see discover.c): libnl takes a receive
 * buffer from the heap for each reply and frees it, and with records made
 * in between, that buffer moved up the heap by a record at each device,
 * the kernel writing each reply into memory not touched before.
 */
static bool claim(struct scan *scan, struct scan_entry *se,
		  struct discovery_stats *st)
{
	struct dev_entry *ent = lookup(scan->mode, se->name);

	/* A name listed twice in one scan: the first stands. */
	if (ent && ent->state == ENT_BLANK)
		return false;
	if (ent && ent->ident == se->ident &&
	    (!se->racy || still_same(scan, se, ent))) {
		ent->seen = scan_gen;
		return false;
	}
	if (ent)
		drop_entry(ent);
	se->blank = blank_entry(scan, se);
	if (se->blank)
		return true;
	st->out_of_memory = true;
	return false;
}

static void for_each_entry(void (*fn)(struct dev_entry *, void *), void *arg)
{
	struct dev_entry *e, *n;
	size_t i;

	for (i = 0; i < htab_size; i++)
		for (e = htab[i]; e; e = n) {
			n = e->hnext;
			fn(e, arg);
		}
}

static void drop_any(struct dev_entry *ent, void *arg)
{
	drop_entry(ent);
}

static void rematch(struct dev_entry *ent, void *arg)
{
	if (ent->state != ENT_READY && ent->drv_gen != drv_gen)
		try_match(ent, arg);
}

/* Forgets devices the scan did not list, and retries unmatched ones. */
static void settle(struct dev_entry *ent, void *arg)
{
	struct discovery_stats *st = arg;

	if (ent->seen != scan_gen) {
		drop_entry(ent);
		return;
	}
	rematch(ent, st);
	st->unmatched |= ent->state != ENT_READY;
}

/* Loads the providers the rules name for an unmatched device. */
static void load_named(struct dev_entry *ent, void *arg)
{
	struct discovery_stats *st = arg;

	if (ent->state != ENT_READY && load_drivers_for(ent->sysfs) == ENOMEM)
		st->out_of_memory = true;
}

/* Tries the unmatched devices again, noting whether any still is. */
static void rematch_again(struct dev_entry *ent, void *arg)
{
	struct discovery_stats *st = arg;

	rematch(ent, st);
	st->unmatched |= ent->state != ENT_READY;
}

/*
 * After a load: whether some device still needs a provider. A device
 * left out for want of memory fails the call, and the next one tries it
 * again: it is no reason to load more.
 */
static bool still_unmatched(struct discovery_stats *st, int ret)
{
	if (ret == ENOMEM)
		st->out_of_memory = true;
	drv_gen = drivers_generation();
	st->unmatched = false;
	for_each_entry(rematch_again, st);
	return st->unmatched && !st->out_of_memory;
}

/*
 * Providers are loaded only when some device still needs one: first
 * those the user named in RDMAV_DRIVERS, then those the kernel's word on
 * each unmatched device points to (drivers.c), and only then every other
 * configured provider, so that no device any provider would take goes
 * without.
 */
static void load_providers(struct discovery_stats *st)
{
	if (!still_unmatched(st, load_drivers_env()))
		return;
	for_each_entry(load_named, st);
	if (!still_unmatched(st, 0))
		return;
	still_unmatched(st, load_drivers());
}

/* Counts what stays unmatched, warning once per device if asked to. */
static void count_unmatched(struct dev_entry *ent, void *arg)
{
	struct discovery_stats *st = arg;

	if (ent->state == ENT_ABI_REFUSED)
		st->abi_refused++;
	if (ent->state != ENT_NO_PROVIDER)
		return;
	st->no_provider++;
	if (ent->warned)
		return;
	ent->warned = true;
	ibv_warn_user("no userspace provider found for device %s (%s)",
		      ent->sysfs->ibdev_name, ent->sysfs->sysfs_name);
}

/* Explains, when asked to, why the caller gets no device. */
static void explain_empty(const struct discovery_stats *st)
{
	if (!st->found)
		ibv_log_info("no RDMA device: the kernel lists none");
	if (st->no_provider)
		ibv_log_info("%u device(s) have no matching provider",
			     st->no_provider);
	if (st->abi_refused)
		ibv_log_info(
			"%u device(s) refused: kernel ABI outside the provider's range",
			st->abi_refused);
	if (st->no_cdev)
		ibv_log_info("%u device(s) have no accessible character device",
			     st->no_cdev);
	if (st->failed)
		ibv_log_info("%u device(s) could not be read or set up",
			     st->failed);
}

static int refresh(struct discovery_stats *st)
{
	size_t i, blanks = 0;
	struct scan scan;
	int ret;

	ret = scan_devices(&scan);
	if (ret) {
		scan_release(&scan);
		if (ret == ENOSYS)
			ibv_log_info(
				"no RDMA support in the kernel: no RDMA netlink and no %s/class/infiniband_verbs",
				ibv_get_sysfs_path());
		return ret;
	}
	scan_gen++;
	drv_gen = drivers_generation();
	st->found = scan.n;
	for (i = 0; i < scan.n; i++)
		blanks += claim(&scan, &scan.ent[i], st);
	for (i = 0; blanks && i < scan.n; i++)
		give_sysfs(&scan.ent[i], st);
	if (blanks)
		scan_prefetch_chardevs(&scan);
	for (i = 0; blanks && i < scan.n; i++)
		fill_blank(&scan, &scan.ent[i], st);
	scan_release(&scan);
	for_each_entry(settle, st);
	if (st->unmatched && !drivers_loaded() && !st->out_of_memory)
		load_providers(st);
	for_each_entry(count_unmatched, st);
	return 0;
}

static struct ibv_device **build_list(int *num)
{
	struct ibv_device **list;
	struct verbs_device *vdev;
	size_t n = 0;

	list_for_each(&device_list, vdev, entry)
		n++;
	list = calloc(n + 1, sizeof(*list));
	if (!list)
		return NULL;
	n = 0;
	list_for_each(&device_list, vdev, entry) {
		atomic_fetch_add(&vdev->refcount, 1);
		list[n++] = &vdev->device;
	}
	if (num)
		*num = (int)n;
	return list;
}

/**
 * ibv_get_device_list - list the RDMA devices usable now
 * @num_devices: optional; receives the length of the array
 *
 * Returns a NULL-terminated array to release with ibv_free_device_list(),
 * or NULL with errno set (ENOSYS when the kernel has no RDMA support).
 */
VERBS_DEFAULT_VERSION(ibv_get_device_list, "IBVERBS_1.1");
struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct discovery_stats st = {};
	struct ibv_device **list = NULL;
	int ret;

	if (num_devices)
		*num_devices = 0;
	pthread_mutex_lock(&dev_list_lock);
	ret = ibverbs_init();
	if (!ret)
		ret = refresh(&st);
	/* A device left out for want of memory: no list that lacks it. */
	if (!ret && st.out_of_memory)
		ret = ENOMEM;
	if (ret == ENOSYS)
		for_each_entry(drop_any, NULL); /* RDMA left the kernel */
	if (!ret) {
		list = build_list(num_devices);
		if (!list)
			ret = ENOMEM;
		else if (!list[0])
			explain_empty(&st);
	}
	pthread_mutex_unlock(&dev_list_lock);
	if (ret)
		errno = ret;
	return list;
}

/**
 * ibv_free_device_list - release an array from ibv_get_device_list()
 * @list: the array; devices that are open stay valid
 */
VERBS_DEFAULT_VERSION(ibv_free_device_list, "IBVERBS_1.1");
void ibv_free_device_list(struct ibv_device **list)
{
	struct ibv_device **d;

	if (!list)
		return;
	for (d = list; *d; d++)
		verbs_device_put(verbs_get_device(*d));
	free(list);
}

VERBS_DEFAULT_VERSION(ibv_get_device_name, "IBVERBS_1.1");
const char *ibv_get_device_name(struct ibv_device *device)
{
	if (!device) {
		errno = EINVAL;
		return NULL;
	}
	return device->name;
}

int parse_node_guid(const char *s, uint64_t *guid)
{
	unsigned int w[4];
	char tail;

	if (sscanf(s, "%4x:%4x:%4x:%4x%c", &w[0], &w[1], &w[2], &w[3], &tail) !=
	    4)
		return EINVAL;
	*guid = (uint64_t)w[0] << 48 | (uint64_t)w[1] << 32 |
		(uint64_t)w[2] << 16 | w[3];
	return 0;
}

/**
 * ibv_get_device_guid - the device's node GUID, in network byte order
 * @device: the device
 *
 * Returns 0 when the GUID cannot be read.
 */
VERBS_DEFAULT_VERSION(ibv_get_device_guid, "IBVERBS_1.1");
__be64 ibv_get_device_guid(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sd;
	char buf[32];
	uint64_t guid = 0;

	if (!device) {
		errno = EINVAL;
		return 0;
	}
	sd = verbs_get_device(device)->sysfs;
	if (!sd)
		return 0;
	pthread_mutex_lock(&dev_list_lock);
	if (!(sd->flags & VSYSFS_READ_NODE_GUID) &&
	    ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sd, "node_guid") > 0 &&
	    !parse_node_guid(buf, &guid)) {
		sd->node_guid = guid;
		sd->flags |= VSYSFS_READ_NODE_GUID;
	}
	guid = sd->flags & VSYSFS_READ_NODE_GUID ? sd->node_guid : 0;
	pthread_mutex_unlock(&dev_list_lock);
	return htobe64(guid);
}

/**
 * ibv_get_device_index - the kernel's index of the device
 * @device: the device
 *
 * Returns -1 when the index is not known, as with sysfs discovery.
 */
IBV_EXPORT int ibv_get_device_index(struct ibv_device *device)
{
	struct verbs_sysfs_dev *sd;

	if (!device) {
		errno = EINVAL;
		return -1;
	}
	sd = verbs_get_device(device)->sysfs;
	return sd ? sd->ibdev_idx : -1;
}
