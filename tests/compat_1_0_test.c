// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The @IBVERBS_1.0 versions of compat_1_0.c, called as a binary linked
 * against libibverbs 1.0 would (t_compat_1_0.h): the 1.0 context opened
 * and closed, the device queries, and the completion and asynchronous
 * events that name 1.0 objects. With IBV_TEST_REFERENCE=1 the same binary
 * runs against Debian's libibverbs; the few checks of what rdma-core 44
 * leaves undefined are ours alone.
 */
#include "config.h"
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/driver.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "t_compat_1_0.h"
#include "t_scenario.h"
#include "t_util.h"

static int sc_queries(void *arg)
{
	struct ctx_1_0 *ctx = t_open_1_0();
	struct ibv_device_attr da;
	unsigned char port[64];
	union ibv_gid gid;
	uint16_t lid;
	__be16 pkey;

	if (!ctx)
		return T_SKIP;
	T_CHECK(v0.query_device(ctx, &da) == 0);
	T_CHECK(da.max_qp == 77 && rec.attr_size == sizeof(da));

	memset(port, 0xa5, sizeof(port));
	T_CHECK(v0.query_port(ctx, 1, port) == 0);
	memcpy(&lid, port + offsetof(struct ibv_port_attr, lid), sizeof(lid));
	T_CHECK(lid == 0x1234);
	T_CHECK(port[offsetof(struct ibv_port_attr, state)] == IBV_PORT_ACTIVE);
	/* Ours fills the 48-byte structure of old binaries, and no more. */
	if (!t_reference())
		T_CHECK(port[48] == 0xa5);
	T_CHECK(v0.query_port(ctx, 2, port) == EINVAL);

	T_CHECK(v0.query_gid(ctx, 1, 0, &gid) == 0);
	T_CHECK(be64toh(gid.global.subnet_prefix) == 0xfe80000000000000ULL);
	T_CHECK(be64toh(gid.global.interface_id) == 0x0002c90300001234ULL);
	T_CHECK(v0.query_pkey(ctx, 1, 0, &pkey) == 0);
	T_CHECK(pkey == htobe16(0xffff));
	T_CHECK(v0.query_pkey(ctx, 1, 5, &pkey) == -1);
	t_close_1_0(ctx);
	return 0;
}

/* Closing the 1.0 context closes the provider's. */
static int sc_open_close(void *arg)
{
	struct ctx_1_0 *ctx = t_open_1_0();
	char path[4200];
	_Atomic int *live;
	void *h;

	if (!ctx)
		return T_SKIP;
	snprintf(path, sizeof(path), "%s%s", t_testprov(), t_plugin_suffix());
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	T_CHECK(h);
	live = dlsym(h, "testprov_live_contexts");
	T_CHECK(live && *live == 1);
	/* Ours copies the descriptors; rdma-core 44 leaves them unset. */
	if (!t_reference())
		T_CHECK(ctx->cmd_fd == ctx->real->cmd_fd &&
			ctx->async_fd == ctx->real->async_fd &&
			ctx->num_comp_vectors == 1);
	t_close_1_0(ctx);
	T_CHECK(*live == 0);
	return 0;
}

/* One asynchronous event record on the context's event file. */
static void put_async(int fd, void *element, enum ibv_event_type type)
{
	struct ib_uverbs_async_event_desc d = {
		.element = (uintptr_t)element,
		.event_type = type,
	};

	T_CHECK(write(fd, &d, sizeof(d)) == sizeof(d));
}

/* An event names the library's object; the program gets its 1.0 one. */
static void check_async(struct ctx_1_0 *ctx, int fd, enum ibv_event_type type,
			void *obj_1_0, void *real, uint32_t *acked)
{
	struct ibv_async_event ev;

	put_async(fd, real, type);
	T_CHECK(v0.get_async_event(ctx, &ev) == 0);
	T_CHECK(ev.event_type == type && (void *)ev.element.cq == obj_1_0);
	v0.ack_async_event(&ev);
	T_CHECK(*acked == 1);
	/* The program's event still names its object. */
	T_CHECK((void *)ev.element.cq == obj_1_0);
}

static int sc_events(void *arg)
{
	struct ctx_1_0 *ctx = t_open_1_0();
	struct ibv_srq_init_attr sia = { 0 };
	struct ibv_comp_channel ch = { 0 };
	struct qp_init_attr_1_0 ia;
	struct ibv_async_event ev;
	struct cq_1_0 *cq, *got;
	struct ib_uverbs_comp_event_desc cd;
	struct srq_1_0 *srq;
	struct qp_1_0 *qp;
	struct pd_1_0 *pd;
	int async[2], comp[2];
	void *cq_ctx;

	if (!ctx)
		return T_SKIP;
	/* Pipes stand in for the kernel's event files. */
	T_CHECK(!pipe(async) && !pipe(comp));
	T_CHECK(dup2(async[0], ctx->real->async_fd) == ctx->real->async_fd);
	ch = (struct ibv_comp_channel){ .context = ctx->real, .fd = comp[0] };
	pd = v0.alloc_pd(ctx);
	cq = v0.create_cq(ctx, 4, &ia, &ch, 0);
	T_CHECK(cq && ch.refcnt == 1);
	srq = v0.create_srq(pd, &sia);
	ia = (struct qp_init_attr_1_0){ .send_cq = cq,
					.recv_cq = cq,
					.qp_type = IBV_QPT_RC };
	qp = v0.create_qp(pd, &ia);
	T_CHECK(srq && qp);

	cd.cq_handle = (uintptr_t)cq->real;
	T_CHECK(write(comp[1], &cd, sizeof(cd)) == sizeof(cd));
	T_CHECK(v0.get_cq_event(&ch, &got, &cq_ctx) == 0);
	T_CHECK(got == cq && cq_ctx == &ia);
	v0.ack_cq_events(cq, 1);
	T_CHECK(cq->real->comp_events_completed == 1);

	check_async(ctx, async[1], IBV_EVENT_CQ_ERR, cq, cq->real,
		    &cq->real->async_events_completed);
	check_async(ctx, async[1], IBV_EVENT_COMM_EST, qp, qp->real,
		    &qp->real->events_completed);
	check_async(ctx, async[1], IBV_EVENT_SRQ_LIMIT_REACHED, srq, srq->real,
		    &srq->real->events_completed);
	/* A port event passes through. */
	put_async(async[1], (void *)1, IBV_EVENT_PORT_ACTIVE);
	T_CHECK(v0.get_async_event(ctx, &ev) == 0);
	T_CHECK(ev.event_type == IBV_EVENT_PORT_ACTIVE &&
		ev.element.port_num == 1);
	v0.ack_async_event(&ev);

	T_CHECK(!v0.destroy_qp(qp) && !v0.destroy_srq(srq));
	T_CHECK(!v0.destroy_cq(cq) && ch.refcnt == 0);
	T_CHECK(!v0.dealloc_pd(pd));
	t_close_1_0(ctx);
	return 0;
}

static void test_open_close(void **s)
{
	t_scenario(sc_open_close, NULL);
}
static void test_queries(void **s)
{
	t_scenario(sc_queries, NULL);
}
static void test_events(void **s)
{
	t_scenario(sc_events, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_close),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
