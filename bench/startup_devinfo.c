// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * startup_devinfo -d DEV: opens DEV, queries it and its port 1, prints a
 * few of the answers and closes it, for the static rows of bench/startup.
 * Built from this one file against our libibverbs.a and against
 * rdma-core 44's, as startup_devices.c is; the fields printed are those
 * both cores fill from the kernel's answer, so that the two builds print
 * the same lines.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

static struct ibv_device *find(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

static void print_device(const char *name, const struct ibv_device_attr *a)
{
	printf("%s: node_guid %016" PRIx64 " vendor 0x%x part %u hw %u\n", name,
	       be64toh(a->node_guid), a->vendor_id, a->vendor_part_id,
	       a->hw_ver);
	printf("%s: ports %u max_qp %d max_cq %d max_mr %d max_pd %d\n", name,
	       a->phys_port_cnt, a->max_qp, a->max_cq, a->max_mr, a->max_pd);
}

static void print_port(const char *name, const struct ibv_port_attr *p)
{
	printf("%s: port 1 %s max_mtu %d active_mtu %d lid %u link_layer %u\n",
	       name, ibv_port_state_str(p->state), p->max_mtu, p->active_mtu,
	       p->lid, p->link_layer);
}

/* Opens @dev, prints what the two queries answer: 0, or 1 on a failure. */
static int query(struct ibv_device *dev, const char *name)
{
	struct ibv_device_attr attr;
	struct ibv_port_attr port;
	struct ibv_context *ctx;
	int ret;

	ctx = ibv_open_device(dev);
	if (!ctx) {
		perror("startup_devinfo: ibv_open_device");
		return 1;
	}
	ret = ibv_query_device(ctx, &attr);
	if (!ret) {
		print_device(name, &attr);
		ret = ibv_query_port(ctx, 1, &port);
		if (!ret)
			print_port(name, &port);
	}
	if (ret)
		fprintf(stderr, "startup_devinfo: query %s: %s\n", name,
			strerror(ret));
	if (ibv_close_device(ctx))
		ret = 1;
	return !!ret;
}

int main(int argc, char **argv)
{
	struct ibv_device **list, *dev;
	int ret;

	if (argc != 3 || strcmp(argv[1], "-d")) {
		fprintf(stderr, "usage: startup_devinfo -d DEV\n");
		return 2;
	}
	/* The static providers are registered by this call (verbs.h). */
	list = ibv_get_device_list(NULL);
	if (!list) {
		perror("startup_devinfo: ibv_get_device_list");
		return 1;
	}
	dev = find(list, argv[2]);
	if (dev) {
		ret = query(dev, argv[2]);
	} else {
		fprintf(stderr, "startup_devinfo: no device %s\n", argv[2]);
		ret = 1;
	}
	ibv_free_device_list(list);
	return ret;
}
