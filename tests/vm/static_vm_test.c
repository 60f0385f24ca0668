// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A client linked statically, libibverbs.a with the providers that
 * RDMA_STATIC_PROVIDERS (set by the build: "all", or "rxe,siw") pulls in,
 * run in the test VM with no plug-in to load: the build's providers are
 * the only ones it has, yet it must find rxe0 and siw0 and drive them.
 *
 * On each device: open, query, PD, MR, CQ, an RC QP to RTS looped back to
 * itself (on rxe0; siw connects through rdma_cm, so its QP stops at INIT),
 * and on rxe0 an RDMA WRITE whose bytes are checked. At the end
 * /proc/self/maps must show no libibverbs.so and no provider plug-in:
 * whatever ran came from the executable.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "rc_connect.h"

static int failures;

#define CHECK(cond, ...)                 \
	do {                             \
		if (cond) {              \
			printf("ok   "); \
		} else {                 \
			printf("FAIL "); \
			failures++;      \
		}                        \
		printf(__VA_ARGS__);     \
		printf("\n");            \
	} while (0)

static struct ibv_device *find(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

static int wait_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	for (long i = 0; i < 100000000; i++) {
		int n = ibv_poll_cq(cq, 1, wc);

		if (n)
			return n;
	}
	return 0;
}

/* An RDMA WRITE from one half of @buf to the other, on @qp looped back. */
static void write_loopback(const char *dev, struct ibv_qp *qp,
			   struct ibv_cq *cq, struct ibv_mr *mr, char *buf)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf,
			       .length = 64,
			       .lkey = mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 7,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad = NULL;
	struct ibv_wc wc = {};
	int rc;

	memset(buf, 0x5a, 64);
	memset(buf + 64, 0, 64);
	wr.wr.rdma.remote_addr = (uintptr_t)(buf + 64);
	wr.wr.rdma.rkey = mr->rkey;
	rc = ibv_post_send(qp, &wr, &bad);
	CHECK(!rc, "%s post RDMA WRITE: %s", dev, strerror(rc));
	if (rc)
		return;
	rc = wait_wc(cq, &wc);
	CHECK(rc == 1 && wc.status == IBV_WC_SUCCESS && wc.wr_id == 7 &&
		      wc.opcode == IBV_WC_RDMA_WRITE,
	      "%s RDMA WRITE completion: n=%d status=%s wr_id=%llu", dev, rc,
	      ibv_wc_status_str(wc.status), (unsigned long long)wc.wr_id);
	CHECK(!memcmp(buf, buf + 64, 64), "%s RDMA WRITE moved the bytes", dev);
}

static void drive(struct ibv_device *device, const char *name, bool connect,
		  int gid_index)
{
	struct ibv_qp_init_attr init = { .qp_type = IBV_QPT_RC,
					 .cap = { .max_send_wr = 4,
						  .max_recv_wr = 4,
						  .max_send_sge = 1,
						  .max_recv_sge = 1 } };
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;
	static char buf[128];
	union ibv_gid gid;
	const char *failed = "";
	int rc;

	ctx = ibv_open_device(device);
	CHECK(ctx, "%s open: %s", name, ctx ? "ok" : strerror(errno));
	if (!ctx)
		return;
	rc = ibv_query_device(ctx, &attr);
	CHECK(!rc && attr.max_qp > 0, "%s query_device: rc=%d max_qp=%d", name,
	      rc, rc ? 0 : attr.max_qp);
	pd = ibv_alloc_pd(ctx);
	CHECK(pd, "%s alloc_pd", name);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf),
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) :
		  NULL;
	CHECK(mr, "%s reg_mr", name);
	cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	CHECK(cq, "%s create_cq", name);
	if (!pd || !mr || !cq)
		goto out;
	init.send_cq = init.recv_cq = cq;
	qp = ibv_create_qp(pd, &init);
	CHECK(qp, "%s create_qp RC: %s", name, qp ? "ok" : strerror(errno));
	if (!qp)
		goto out;
	if (!connect) {
		rc = rc_to_init(ibv_modify_qp, qp);
		CHECK(!rc, "%s modify_qp INIT: %s", name, strerror(rc));
		goto out;
	}
	rc = ibv_query_gid(ctx, 1, gid_index, &gid);
	CHECK(!rc, "%s query_gid %d", name, gid_index);
	rc = rc ? rc :
		  rc_connect(ibv_modify_qp, qp, &gid, gid_index, qp->qp_num,
			     &failed);
	CHECK(!rc, "%s connect to itself: %s %s", name, failed, strerror(rc));
	if (!rc)
		write_loopback(name, qp, cq, mr, buf);
out:
	if (qp)
		CHECK(!ibv_destroy_qp(qp), "%s destroy_qp", name);
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "%s destroy_cq", name);
	if (mr)
		CHECK(!ibv_dereg_mr(mr), "%s dereg_mr", name);
	if (pd)
		CHECK(!ibv_dealloc_pd(pd), "%s dealloc_pd", name);
	CHECK(!ibv_close_device(ctx), "%s close", name);
}

/* No shared verbs library and no plug-in may be mapped. */
static void check_maps(void)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	CHECK(f, "open /proc/self/maps");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "libibverbs.so") && !strstr(line, "-rdmav"))
			continue;
		printf("     mapped: %s", strchr(line, '/'));
		found++;
	}
	fclose(f);
	CHECK(!found, "no libibverbs.so and no provider plug-in mapped");
}

int main(void)
{
	const char *rxe = getenv("IBV_VM_RXE"), *siw = getenv("IBV_VM_SIW");
	const char *gidx = getenv("IBV_VM_RXE_GID_INDEX");
	struct ibv_device **list, *dev;
	int n = 0;

	if (!rxe || !siw || !gidx) {
		printf("SKIP: runs in the test VM (tests/vm/run)\n");
		return 77;
	}
	printf("static client, RDMA_STATIC_PROVIDERS=%s\n",
	       RDMA_STATIC_PROVIDERS_NAMES);
	list = ibv_get_device_list(&n);
	CHECK(list, "ibv_get_device_list: %d device(s)", n);
	if (!list)
		return 1;
	dev = find(list, rxe);
	CHECK(dev, "%s found", rxe);
	if (dev)
		drive(dev, rxe, true, atoi(gidx));
	dev = find(list, siw);
	CHECK(dev, "%s found", siw);
	if (dev)
		drive(dev, siw, false, 0);
	ibv_free_device_list(list);
	check_maps();
	printf("%s\n", failures ? "static_vm_test: FAILED" :
				  "static_vm_test: all checks passed");
	return failures ? 1 : 0;
}
