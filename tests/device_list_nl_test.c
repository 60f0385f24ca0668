// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device discovery over the fake RDMA netlink (t_rdma_nl.h), with the
 * test provider and the fake sysfs tree beside it: a listing of many
 * devices, a name the dump gives twice, devices that come and go, a
 * device without its node. device_list.c makes the records of every new
 * device before it asks the kernel about any; these scenarios check the
 * outcome of that order, and the order itself through where libnl's
 * receive buffer stays.
 */
#include <stdio.h>
#include <string.h>

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

static char *root;
static char names[MANY][16], chardevs[MANY][16];

/* tprov<n> on netlink (index @index) and, with its node, in sysfs. */
static void add_device(unsigned int n, uint32_t index, bool node)
{
	struct t_nl_dev nl = { .index = index,
			       .name = names[n],
			       .node_type = 1,
			       .node_guid = 0x0002c90300000000ull | n,
			       .ports = 1,
			       .maj = 231,
			       .min = n,
			       .chardev = chardevs[n],
			       .abi = 1 };
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
