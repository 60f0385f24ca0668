// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device discovery over the fake RDMA netlink (t_rdma_nl.h), with the
 * test provider and the fake sysfs tree beside it: a listing of many
 * devices, a name the dump gives twice, devices that come and go, a
 * device without its node. device_list.c makes the records of every new
 * device before it asks the kernel about any; these scenarios check the
 * outcome of that order, and the order itself through where libnl's
 * receive buffer stays. The GET_CHARDEV requests of a cold listing go
 * many to a send: a refused one and lost replies must not cost a device.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_netlink.h>

#include "t_rdma_nl.h"
#include "t_scenario.h"
#include "t_util.h"

#define MANY 64
#define LOTS 256
/* Requests per send (libibverbs/rdma_nl.h's RDMA_NL_BATCH). */
#define BATCH 32

static char *root;
static char names[LOTS][16], chardevs[LOTS][16];

/* tprov<n> on netlink (index @index) and, with its node, in sysfs. */
static void add_nl_device(unsigned int n, uint32_t index, bool node,
			  bool no_chardev)
{
	struct t_nl_dev nl = { .index = index,
			       .name = names[n],
			       .node_type = 1,
			       .node_guid = 0x0002c90300000000ull | n,
			       .ports = 1,
			       .maj = 231,
			       .min = n,
			       .chardev = chardevs[n],
			       .abi = 1,
			       .no_chardev = no_chardev };
	struct t_dev sys = { .ibdev = names[n],
			     .uverbs = (int)n,
			     .maj = 231,
			     .min = n,
			     .abi = 1,
			     .no_node = !node };

	snprintf(names[n], sizeof(names[n]), "tprov%u", n);
	snprintf(chardevs[n], sizeof(chardevs[n]), "uverbs%u", n);
	t_sysfs_add(root, &sys);
	t_nl_add(&nl);
}

static void add_device(unsigned int n, uint32_t index, bool node)
{
	add_nl_device(n, index, node, false);
}

/* Whether listed device tprov<n> has its own uverbs node and index. */
static bool right(struct ibv_device **list, unsigned int n)
{
	struct ibv_device *dev = t_find(list, names[n]);

	return dev && !strcmp(dev->dev_name, chardevs[n]) &&
	       ibv_get_device_index(dev) == (int)n + 1;
}

static void write_file(const char *dir, const char *file, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * Where a kernel without GET_CHARDEV shows tprov<n>'s uverbs node: its
 * device's infiniband_verbs/uverbs<n>, with dev and abi_version.
 */
static void uverbs_below(unsigned int n)
{
	char dir[4096], dev[32];

	snprintf(dir, sizeof(dir),
		 "%s/class/infiniband/%s/device/infiniband_verbs", root,
		 names[n]);
	mkdir(dir, 0755);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s",
		 chardevs[n]);
	mkdir(dir, 0755);
	snprintf(dev, sizeof(dev), "231:%u\n", n);
	write_file(dir, "dev", dev);
	write_file(dir, "abi_version", "1\n");
}

static bool setup(void)
{
	root = t_fake_kernel(true);
	if (!root)
		return false;
	t_nl_enable();
	return true;
}

static unsigned int chardev_requests(void)
{
	return t_nl_requests(RDMA_NLDEV_CMD_GET_CHARDEV);
}

/*
 * A cold listing asks GET_CHARDEV once per device, and libnl's receive
 * buffer keeps its place: no record is made between two replies. A warm
 * listing asks nothing more of known devices.
 */
static int sc_many(void *arg)
{
	struct ibv_device **l1, **l2;
	unsigned int n;

	if (!setup())
		return T_SKIP;
	for (n = 0; n < MANY; n++)
		add_device(n, n + 1, true);
	l1 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l1) == MANY);
	for (n = 0; n < MANY; n++)
		T_CHECK(t_find(l1, names[n]));
	T_CHECK(chardev_requests() == MANY);
	/*
	 * A handful of places (while the dump's entries grow their array),
	 * not one per device.
	 */
	T_CHECK(t_nl_recv_moves() < MANY / 4);
	T_CHECK(ibv_get_device_index(t_find(l1, "tprov7")) == 8);

	l2 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l2) == MANY);
	T_CHECK(t_find(l2, "tprov7") == t_find(l1, "tprov7"));
	T_CHECK(chardev_requests() == MANY);
	ibv_free_device_list(l1);
	ibv_free_device_list(l2);
	return 0;
}

/* A dump that names a device twice: the first entry stands. */
static int sc_twice(void *arg)
{
	struct ibv_device **list;

	if (!setup())
		return T_SKIP;
	add_device(0, 1, true);
	add_device(1, 2, true);
	/* A second tprov0, with index 3 and the node of uverbs2. */
	add_device(2, 3, true);
	snprintf(names[2], sizeof(names[2]), "tprov0");
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 2);
	T_CHECK(!strcmp(t_find(list, "tprov0")->dev_name, "uverbs0"));
	T_CHECK(ibv_get_device_index(t_find(list, "tprov0")) == 1);
	T_CHECK(chardev_requests() == 2);
	ibv_free_device_list(list);
	return 0;
}

/*
 * New devices among known ones: only they are read, the others keep
 * their identity. A device without its node is left out, and read again
 * by the next listing, which finds it.
 */
static int sc_come_and_go(void *arg)
{
	struct ibv_device **l1, **l2, **l3;

	if (!setup())
		return T_SKIP;
	add_device(0, 1, true);
	add_device(1, 2, false);
	add_device(2, 3, true);
	l1 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l1) == 2);
	T_CHECK(!t_find(l1, "tprov1"));
	T_CHECK(chardev_requests() == 3);

	t_mknod("uverbs1", 231, 1);
	add_device(3, 4, true);
	l2 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l2) == 4);
	T_CHECK(t_find(l2, "tprov0") == t_find(l1, "tprov0"));
	T_CHECK(t_find(l2, "tprov2") == t_find(l1, "tprov2"));
	T_CHECK(t_find(l2, "tprov1") && t_find(l2, "tprov3"));
	/* tprov1 again, and tprov3. */
	T_CHECK(chardev_requests() == 5);

	l3 = ibv_get_device_list(NULL);
	T_CHECK(t_count(l3) == 4);
	T_CHECK(chardev_requests() == 5);
	ibv_free_device_list(l1);
	ibv_free_device_list(l2);
	ibv_free_device_list(l3);
	return 0;
}

/*
 * A cold listing of many devices: each has its own node, though the
 * replies of a send come together, and the sends are a few per batch.
 */
static int sc_batched(void *arg)
{
	struct ibv_device **list;
	unsigned int n, sends;

	if (!setup())
		return T_SKIP;
	for (n = 0; n < LOTS; n++)
		add_device(n, n + 1, true);
	sends = t_nl_sends();
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == LOTS);
	for (n = 0; n < LOTS; n++)
		T_CHECK(right(list, n));
	T_CHECK(chardev_requests() == LOTS);
	/* The dump, then the batches. */
	T_CHECK(t_nl_sends() - sends <= 1 + LOTS / BATCH + 1);
	ibv_free_device_list(list);
	return 0;
}

/*
 * Refused in the middle of a batch: the others keep their own answers,
 * and the refused device is looked for in sysfs, as when asked alone.
 * Of two refused, the one sysfs shows is listed, the other is not.
 */
static int sc_refused(void *arg)
{
	struct ibv_device **list;
	unsigned int n;

	if (!setup())
		return T_SKIP;
	for (n = 0; n < MANY; n++)
		add_nl_device(n, n + 1, true, n == 10 || n == 40);
	uverbs_below(10);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == MANY - 1);
	for (n = 0; n < MANY; n++)
		T_CHECK(n == 40 ? !t_find(list, names[n]) : right(list, n));
	T_CHECK(chardev_requests() == MANY);
	T_CHECK(t_nl_sends() <= 1 + MANY / BATCH + 1);
	ibv_free_device_list(list);
	return 0;
}

struct loss {
	unsigned int after, count;
};

/*
 * Replies the kernel dropped (a full receive buffer): their devices are
 * asked again alone, and every device is listed with its own node.
 */
static int sc_lost(void *arg)
{
	const struct loss *loss = arg;
	struct ibv_device **list;
	unsigned int n;

	if (!setup())
		return T_SKIP;
	for (n = 0; n < LOTS; n++)
		add_device(n, n + 1, true);
	t_nl_lose_chardev_replies(loss->after, loss->count);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == LOTS);
	for (n = 0; n < LOTS; n++)
		T_CHECK(right(list, n));
	T_CHECK(chardev_requests() == LOTS + loss->count);
	T_CHECK(t_nl_sends() <= 1 + LOTS / BATCH + 1 + loss->count);
	ibv_free_device_list(list);
	return 0;
}

/*
 * Devices are listed in the kernel's order, however the providers came to
 * match them (loaded as devices need them, matched in the list's hash
 * order); one that appears later comes after them, whatever its index.
 */
static int sc_order(void *arg)
{
	struct ibv_device **list;
	unsigned int n;

	if (!setup())
		return T_SKIP;
	for (n = 0; n < MANY - 1; n++)
		add_device(n, n + 10, true);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == MANY - 1);
	for (n = 0; n < MANY - 1; n++)
		T_CHECK(!strcmp(list[n]->name, names[n]));
	ibv_free_device_list(list);
	add_device(MANY - 1, 1, true);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == MANY);
	for (n = 0; n < MANY; n++)
		T_CHECK(!strcmp(list[n]->name, names[n]));
	ibv_free_device_list(list);
	return 0;
}

static void test_order(void **s)
{
	t_scenario(sc_order, NULL);
}

static void test_batched(void **s)
{
	t_scenario(sc_batched, NULL);
}

static void test_refused(void **s)
{
	t_scenario(sc_refused, NULL);
}

/* Some replies of a batch, then all of one. */
static void test_lost(void **s)
{
	struct loss some = { .after = 40, .count = 8 },
		    all = { .after = 2 * BATCH, .count = BATCH };

	t_scenario(sc_lost, &some);
	t_scenario(sc_lost, &all);
}

static void test_many(void **s)
{
	t_scenario(sc_many, NULL);
}

static void test_twice(void **s)
{
	t_scenario(sc_twice, NULL);
}

static void test_come_and_go(void **s)
{
	t_scenario(sc_come_and_go, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_twice),
		cmocka_unit_test(test_come_and_go),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_batched),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
