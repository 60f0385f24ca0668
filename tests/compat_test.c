// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The @IBVERBS_1.0 versions, called as a binary linked against libibverbs
 * 1.0 would: resolved with dlvsym(), on objects of the 1.0 layouts that
 * this file spells out again on its own (they are frozen ABI). The device
 * is the test provider's on a fake kernel; the test installs fake
 * provider ops on the real context behind the 1.0 one, records what they
 * receive, and checks what reaches the program. With IBV_TEST_REFERENCE=1
 * the same binary runs against Debian's libibverbs; the few checks of
 * what rdma-core 44 leaves undefined (or crashes on) are ours alone.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/driver.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "t_scenario.h"
#include "t_util.h"

/* The 1.0 ABI, as old binaries were compiled (members they may read). */
struct dev_1_0 {
	void *unused[2];
	struct ibv_device *real;
	void *ops[2];
};

struct ops_1_0 {
	void *unused1[7];
	int (*poll_cq)(void *cq, int n, struct ibv_wc *wc);
	int (*req_notify_cq)(void *cq, int solicited_only);
	void *unused2[7];
	int (*post_srq_recv)(void *srq, void *wr, void **bad_wr);
	void *unused3[4];
	int (*post_send)(void *qp, void *wr, void **bad_wr);
	int (*post_recv)(void *qp, void *wr, void **bad_wr);
	void *unused4[4];
};

struct ctx_1_0 {
	struct dev_1_0 *device;
	struct ops_1_0 ops;
	int cmd_fd, async_fd, num_comp_vectors;
	struct ibv_context *real;
};

/* The offsets old binaries were built with (LP64). */
_Static_assert(offsetof(struct ctx_1_0, ops.post_send) == 8 + 21 * 8, "");
_Static_assert(offsetof(struct ctx_1_0, real) == 240, "");

struct pd_1_0 {
	struct ctx_1_0 *context;
	uint32_t handle;
	struct ibv_pd *real;
};

struct mr_1_0 {
	struct ctx_1_0 *context;
	struct pd_1_0 *pd;
	uint32_t handle, lkey, rkey;
	struct ibv_mr *real;
};

struct cq_1_0 {
	struct ctx_1_0 *context;
	void *cq_context;
	uint32_t handle;
	int cqe;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t comp_events_completed, async_events_completed;
	struct ibv_cq *real;
};

struct srq_1_0 {
	struct ctx_1_0 *context;
	void *srq_context;
	struct pd_1_0 *pd;
	uint32_t handle;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_srq *real;
};

struct qp_1_0 {
	struct ctx_1_0 *context;
	void *qp_context;
	struct pd_1_0 *pd;
	struct cq_1_0 *send_cq, *recv_cq;
	struct srq_1_0 *srq;
	uint32_t handle, qp_num;
	enum ibv_qp_state state;
	enum ibv_qp_type qp_type;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_qp *real;
};

struct ah_1_0 {
	struct ctx_1_0 *context;
	struct pd_1_0 *pd;
	uint32_t handle;
	struct ibv_ah *real;
};

struct qp_init_attr_1_0 {
	void *qp_context;
	struct cq_1_0 *send_cq, *recv_cq;
	struct srq_1_0 *srq;
	struct ibv_qp_cap cap;
	enum ibv_qp_type qp_type;
	int sq_sig_all;
};

struct send_wr_1_0 {
	struct send_wr_1_0 *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
	enum ibv_wr_opcode opcode;
	int send_flags;
	__be32 imm_data;
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr, compare_add, swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct ah_1_0 *ah;
			uint32_t remote_qpn, remote_qkey;
		} ud;
	} wr;
};

struct recv_wr_1_0 {
	struct recv_wr_1_0 *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
};

/* The 1.0 functions, from the library under test. */
static struct {
	struct dev_1_0 **(*get_device_list)(int *n);
	void (*free_device_list)(struct dev_1_0 **list);
	struct ctx_1_0 *(*open_device)(struct dev_1_0 *dev);
	int (*close_device)(struct ctx_1_0 *ctx);
	int (*query_device)(struct ctx_1_0 *ctx, struct ibv_device_attr *a);
	int (*query_port)(struct ctx_1_0 *ctx, uint8_t port, void *attr);
	int (*query_gid)(struct ctx_1_0 *ctx, uint8_t port, int i,
			 union ibv_gid *gid);
	int (*query_pkey)(struct ctx_1_0 *ctx, uint8_t port, int i,
			  __be16 *pkey);
	struct pd_1_0 *(*alloc_pd)(struct ctx_1_0 *ctx);
	int (*dealloc_pd)(struct pd_1_0 *pd);
	struct mr_1_0 *(*reg_mr)(struct pd_1_0 *pd, void *addr, size_t len,
				 int access);
	int (*dereg_mr)(struct mr_1_0 *mr);
	struct cq_1_0 *(*create_cq)(struct ctx_1_0 *ctx, int cqe, void *cq_ctx,
				    struct ibv_comp_channel *ch, int vector);
	int (*resize_cq)(struct cq_1_0 *cq, int cqe);
	int (*destroy_cq)(struct cq_1_0 *cq);
	int (*get_cq_event)(struct ibv_comp_channel *ch, struct cq_1_0 **cq,
			    void **cq_ctx);
	void (*ack_cq_events)(struct cq_1_0 *cq, unsigned int n);
	struct srq_1_0 *(*create_srq)(struct pd_1_0 *pd,
				      struct ibv_srq_init_attr *attr);
	int (*modify_srq)(struct srq_1_0 *srq, struct ibv_srq_attr *attr,
			  int mask);
	int (*query_srq)(struct srq_1_0 *srq, struct ibv_srq_attr *attr);
	int (*destroy_srq)(struct srq_1_0 *srq);
	struct qp_1_0 *(*create_qp)(struct pd_1_0 *pd,
				    struct qp_init_attr_1_0 *attr);
	int (*query_qp)(struct qp_1_0 *qp, struct ibv_qp_attr *attr, int mask,
			struct qp_init_attr_1_0 *init);
	int (*modify_qp)(struct qp_1_0 *qp, struct ibv_qp_attr *attr, int mask);
	int (*destroy_qp)(struct qp_1_0 *qp);
	int (*attach_mcast)(struct qp_1_0 *qp, union ibv_gid *gid,
			    uint16_t lid);
	int (*detach_mcast)(struct qp_1_0 *qp, union ibv_gid *gid,
			    uint16_t lid);
	struct ah_1_0 *(*create_ah)(struct pd_1_0 *pd, struct ibv_ah_attr *a);
	int (*destroy_ah)(struct ah_1_0 *ah);
	int (*get_async_event)(struct ctx_1_0 *ctx, struct ibv_async_event *e);
	void (*ack_async_event)(struct ibv_async_event *e);
} v0;

#define RESOLVE(h, name)                                                     \
	do {                                                                 \
		*(void **)&v0.name = dlvsym(h, "ibv_" #name, "IBVERBS_1.0"); \
		T_CHECK(v0.name);                                            \
	} while (0)

static void resolve_1_0(void)
{
	void *h = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);

	T_CHECK(h);
	RESOLVE(h, get_device_list);
	RESOLVE(h, free_device_list);
	RESOLVE(h, open_device);
	RESOLVE(h, close_device);
	RESOLVE(h, query_device);
	RESOLVE(h, query_port);
	RESOLVE(h, query_gid);
	RESOLVE(h, query_pkey);
	RESOLVE(h, alloc_pd);
	RESOLVE(h, dealloc_pd);
	RESOLVE(h, reg_mr);
	RESOLVE(h, dereg_mr);
	RESOLVE(h, create_cq);
	RESOLVE(h, resize_cq);
	RESOLVE(h, destroy_cq);
	RESOLVE(h, get_cq_event);
	RESOLVE(h, ack_cq_events);
	RESOLVE(h, create_srq);
	RESOLVE(h, modify_srq);
	RESOLVE(h, query_srq);
	RESOLVE(h, destroy_srq);
	RESOLVE(h, create_qp);
	RESOLVE(h, query_qp);
	RESOLVE(h, modify_qp);
	RESOLVE(h, destroy_qp);
	RESOLVE(h, attach_mcast);
	RESOLVE(h, detach_mcast);
	RESOLVE(h, create_ah);
	RESOLVE(h, destroy_ah);
	RESOLVE(h, get_async_event);
	RESOLVE(h, ack_async_event);
	/* A distinct function, not the 1.1 one under a second name. */
	T_CHECK((void *)v0.open_device !=
		dlvsym(h, "ibv_open_device", "IBVERBS_1.1"));
	dlclose(h);
}

/* What the fake provider ops received. */
#define MAX_REC 32
static struct {
	struct ibv_send_wr send[MAX_REC];
	struct ibv_recv_wr recv[MAX_REC];
	int nsend, nrecv, post_calls;
	int fail_at; /* the request a post op refuses, or -1 */
	int destroy_err; /* what destroy_qp returns once */
	void *obj; /* the object of the last poll, notify or modify */
	int arg; /* and its number argument */
	size_t attr_size;
	uint16_t lid;
} rec;

static struct ibv_pd *fake_alloc_pd(struct ibv_context *ctx)
{
	struct ibv_pd *pd = calloc(1, sizeof(*pd));

	pd->context = ctx;
	pd->handle = 11;
	return pd;
}

static int fake_dealloc_pd(struct ibv_pd *pd)
{
	free(pd);
	return 0;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
				  uint64_t iova, int access)
{
	struct verbs_mr *mr = calloc(1, sizeof(*mr));

	mr->ibv_mr.handle = 12;
	mr->ibv_mr.lkey = 0x111;
	mr->ibv_mr.rkey = 0x222;
	mr->access = access;
	rec.arg = access;
	rec.obj = (void *)(uintptr_t)iova;
	return &mr->ibv_mr;
}

static int fake_dereg_mr(struct verbs_mr *vmr)
{
	free(vmr);
	return 0;
}

/* Refuses negative sizes; rounds the others up, as hardware does. */
static struct ibv_cq *fake_create_cq(struct ibv_context *ctx, int cqe,
				     struct ibv_comp_channel *ch, int vector)
{
	struct ibv_cq *cq;

	if (cqe < 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	cq->context = ctx;
	cq->handle = 13;
	cq->cqe = cqe * 2;
	return cq;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	rec.obj = cq;
	rec.arg = n;
	return n - 1;
}

static int fake_req_notify_cq(struct ibv_cq *cq, int solicited)
{
	rec.obj = cq;
	rec.arg = solicited;
	return 0;
}

static int fake_resize_cq(struct ibv_cq *cq, int cqe)
{
	cq->cqe = cqe;
	return 0;
}

static int fake_destroy_cq(struct ibv_cq *cq)
{
	free(cq);
	return 0;
}

static void fake_cq_event(struct ibv_cq *cq)
{
}

static struct ibv_srq *fake_create_srq(struct ibv_pd *pd,
				       struct ibv_srq_init_attr *attr)
{
	struct ibv_srq *srq = calloc(1, sizeof(*srq));

	srq->handle = 14;
	return srq;
}

static int fake_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			   int mask)
{
	rec.obj = srq;
	rec.arg = mask;
	return 0;
}

static int fake_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	attr->max_wr = 55;
	return 0;
}

static int fake_destroy_srq(struct ibv_srq *srq)
{
	free(srq);
	return 0;
}

/* What ibv_cmd_create_qp() would fill, and capabilities granted. */
static struct ibv_qp *fake_create_qp(struct ibv_pd *pd,
				     struct ibv_qp_init_attr *attr)
{
	struct ibv_qp *qp = calloc(1, sizeof(*qp));

	qp->context = pd->context;
	qp->qp_context = attr->qp_context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->srq = attr->srq;
	qp->qp_type = attr->qp_type;
	qp->handle = 15;
	qp->qp_num = 0x99;
	attr->cap.max_send_wr = 128;
	return qp;
}

static int fake_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
			 struct ibv_qp_init_attr *init)
{
	attr->qp_state = IBV_QPS_RTS;
	init->qp_context = qp->qp_context;
	init->send_cq = qp->send_cq;
	init->recv_cq = qp->recv_cq;
	init->srq = qp->srq;
	init->qp_type = qp->qp_type;
	init->cap.max_recv_wr = 33;
	init->sq_sig_all = 1;
	return 0;
}

static int fake_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	rec.obj = qp;
	rec.arg = mask;
	return 0;
}

static int fake_destroy_qp(struct ibv_qp *qp)
{
	int err = rec.destroy_err;

	rec.destroy_err = 0;
	if (!err)
		free(qp);
	return err;
}

static int fake_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			     uint16_t lid)
{
	rec.obj = qp;
	rec.lid = lid;
	return 0;
}

static int fake_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
			     uint16_t lid)
{
	rec.lid = lid + 1;
	return 0;
}

static struct ibv_ah *fake_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
	struct ibv_ah *ah = calloc(1, sizeof(*ah));

	ah->handle = 16;
	return ah;
}

static int fake_destroy_ah(struct ibv_ah *ah)
{
	free(ah);
	return 0;
}

/* Both post ops record every request, in order, until rec.fail_at. */
static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	rec.post_calls++;
	for (; wr; wr = wr->next) {
		rec.send[rec.nsend] = *wr;
		if (rec.nsend++ == rec.fail_at) {
			*bad = wr;
			return EINVAL;
		}
	}
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	rec.obj = qp;
	for (; wr; wr = wr->next) {
		rec.recv[rec.nrecv] = *wr;
		if (rec.nrecv++ == rec.fail_at) {
			*bad = wr;
			return ENOMEM;
		}
	}
	return 0;
}

static int fake_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			      struct ibv_recv_wr **bad)
{
	return fake_post_recv((struct ibv_qp *)srq, wr, bad);
}

static int fake_query_device_ex(struct ibv_context *ctx,
				const struct ibv_query_device_ex_input *input,
				struct ibv_device_attr_ex *attr, size_t size)
{
	rec.attr_size = size;
	memset(attr, 0, size);
	attr->orig_attr.max_qp = 77;
	return 0;
}

static const struct verbs_context_ops fake_ops = {
	.alloc_pd = fake_alloc_pd,
	.attach_mcast = fake_attach_mcast,
	.cq_event = fake_cq_event,
	.create_ah = fake_create_ah,
	.create_cq = fake_create_cq,
	.create_qp = fake_create_qp,
	.create_srq = fake_create_srq,
	.dealloc_pd = fake_dealloc_pd,
	.dereg_mr = fake_dereg_mr,
	.destroy_ah = fake_destroy_ah,
	.destroy_cq = fake_destroy_cq,
	.destroy_qp = fake_destroy_qp,
	.destroy_srq = fake_destroy_srq,
	.detach_mcast = fake_detach_mcast,
	.modify_qp = fake_modify_qp,
	.modify_srq = fake_modify_srq,
	.poll_cq = fake_poll_cq,
	.post_recv = fake_post_recv,
	.post_send = fake_post_send,
	.post_srq_recv = fake_post_srq_recv,
	.query_device_ex = fake_query_device_ex,
	.query_qp = fake_query_qp,
	.query_srq = fake_query_srq,
	.reg_mr = fake_reg_mr,
	.req_notify_cq = fake_req_notify_cq,
	.resize_cq = fake_resize_cq,
};

static void rec_reset(void)
{
	memset(&rec, 0, sizeof(rec));
	rec.fail_at = -1;
}

static char *root;

/* A port with a GID and a P_Key in sysfs, for the sysfs-backed queries. */
static void add_port_files(void)
{
	char dir[4200];

	snprintf(dir, sizeof(dir), "%s/class/infiniband/tprov0/ports", root);
	T_CHECK(!mkdir(dir, 0755));
	strcat(dir, "/1");
	T_CHECK(!mkdir(dir, 0755));
	strcat(dir, "/gids");
	T_CHECK(!mkdir(dir, 0755));
	strcat(dir, "/0");
	t_write(dir, "fe80:0000:0000:0000:0002:c903:0000:1234\n");
	snprintf(dir, sizeof(dir), "%s/class/infiniband/tprov0/ports/1/pkeys",
		 root);
	T_CHECK(!mkdir(dir, 0755));
	strcat(dir, "/0");
	t_write(dir, "0xffff\n");
}

/* tprov0 on 1:3 (/dev/null, which opens), its 1.0 handle, its context. */
static struct dev_1_0 **list;

static struct ctx_1_0 *open_1_0(void)
{
	struct ctx_1_0 *ctx;
	int n = 0;

	root = t_fake_kernel(true);
	if (!root)
		return NULL;
	t_sysfs_add(root, &((struct t_dev){ .ibdev = "tprov0",
					    .uverbs = 0,
					    .maj = 1,
					    .min = 3,
					    .abi = 1 }));
	add_port_files();
	resolve_1_0();
	list = v0.get_device_list(&n);
	T_CHECK(list && n == 1);
	ctx = v0.open_device(list[0]);
	T_CHECK(ctx);
	T_CHECK(ctx->device == list[0]);
	T_CHECK(ctx->real && ctx->real->device == list[0]->real);
	T_CHECK(ctx->ops.poll_cq && ctx->ops.req_notify_cq);
	T_CHECK(ctx->ops.post_send && ctx->ops.post_recv &&
		ctx->ops.post_srq_recv);
	verbs_set_ops(verbs_get_ctx(ctx->real), &fake_ops);
	rec_reset();
	return ctx;
}

static void close_1_0(struct ctx_1_0 *ctx)
{
	T_CHECK(v0.close_device(ctx) == 0);
	v0.free_device_list(list);
}

static int sc_queries(void *arg)
{
	struct ctx_1_0 *ctx = open_1_0();
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
	close_1_0(ctx);
	return 0;
}

/* Closing the 1.0 context closes the provider's. */
static int sc_open_close(void *arg)
{
	struct ctx_1_0 *ctx = open_1_0();
	char path[4200];
	_Atomic int *live;
	void *h;

	if (!ctx)
		return T_SKIP;
	snprintf(path, sizeof(path), "%s-rdmav34.so", t_testprov());
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	T_CHECK(h);
	live = dlsym(h, "testprov_live_contexts");
	T_CHECK(live && *live == 1);
	/* Ours copies the descriptors; rdma-core 44 leaves them unset. */
	if (!t_reference())
		T_CHECK(ctx->cmd_fd == ctx->real->cmd_fd &&
			ctx->async_fd == ctx->real->async_fd &&
			ctx->num_comp_vectors == 1);
	close_1_0(ctx);
	T_CHECK(*live == 0);
	return 0;
}

static struct pd_1_0 *check_pd(struct ctx_1_0 *ctx)
{
	struct pd_1_0 *pd = v0.alloc_pd(ctx);

	T_CHECK(pd && pd->context == ctx);
	T_CHECK(pd->real && pd->real->context == ctx->real);
	if (!t_reference())
		T_CHECK(pd->handle == 11);
	return pd;
}

static void check_mr(struct pd_1_0 *pd)
{
	static char buf[4096];
	struct mr_1_0 *mr;

	mr = v0.reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(mr && mr->context == pd->context && mr->pd == pd);
	T_CHECK(mr->lkey == 0x111 && mr->rkey == 0x222);
	T_CHECK(mr->real->pd == pd->real && mr->real->addr == buf &&
		mr->real->length == sizeof(buf));
	/* The address is the IOVA; the access flags pass unchanged. */
	T_CHECK(rec.obj == (void *)buf && rec.arg == IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(v0.dereg_mr(mr) == 0);
}

/* A CQ, SRQ, QP and AH through the 1.0 functions, and their layouts. */
static int sc_objects(void *arg)
{
	struct ctx_1_0 *ctx = open_1_0();
	struct qp_init_attr_1_0 ia = { 0 }, qia = { 0 };
	struct ibv_srq_init_attr sia = { .srq_context = &sia };
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_INIT };
	struct ibv_ah_attr aa = { .dlid = 1, .port_num = 1 };
	struct ibv_srq_attr sa = { 0 };
	union ibv_gid mgid = { 0 };
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct srq_1_0 *srq;
	struct qp_1_0 *qp;
	struct ah_1_0 *ah;

	if (!ctx)
		return T_SKIP;
	pd = check_pd(ctx);
	check_mr(pd);

	cq = v0.create_cq(ctx, 10, &ia, NULL, 0);
	T_CHECK(cq && cq->context == ctx && cq->cq_context == &ia);
	/* The size asked for, as rdma-core 44 keeps it. */
	T_CHECK(cq->cqe == 10 && cq->real->cqe == 20);
	/* The real CQ points back at the wrapper, for the event calls. */
	T_CHECK(cq->real->cq_context == cq && cq->real->context == ctx->real);
	T_CHECK(v0.resize_cq(cq, 40) == 0 && cq->real->cqe == 40);
	errno = 0;
	T_CHECK(v0.create_cq(ctx, -1, NULL, NULL, 0) == NULL &&
		errno == EINVAL);

	srq = v0.create_srq(pd, &sia);
	T_CHECK(srq && srq->context == ctx && srq->pd == pd);
	T_CHECK(srq->srq_context == &sia && srq->real->srq_context == srq);
	T_CHECK(srq->real->pd == pd->real);
	T_CHECK(v0.modify_srq(srq, &sa, IBV_SRQ_LIMIT) == 0);
	T_CHECK(rec.obj == srq->real && rec.arg == IBV_SRQ_LIMIT);
	T_CHECK(v0.query_srq(srq, &sa) == 0 && sa.max_wr == 55);

	ia = (struct qp_init_attr_1_0){ .qp_context = &qa,
					.send_cq = cq,
					.recv_cq = cq,
					.srq = srq,
					.cap.max_send_wr = 4,
					.qp_type = IBV_QPT_RC };
	qp = v0.create_qp(pd, &ia);
	T_CHECK(qp && qp->context == ctx && qp->pd == pd);
	T_CHECK(qp->qp_context == &qa && qp->real->qp_context == qp);
	T_CHECK(qp->send_cq == cq && qp->recv_cq == cq && qp->srq == srq);
	T_CHECK(qp->qp_num == 0x99 && qp->qp_type == IBV_QPT_RC);
	T_CHECK(qp->real->send_cq == cq->real && qp->real->srq == srq->real);
	/* What the provider granted goes back to the caller. */
	T_CHECK(ia.cap.max_send_wr == 128);

	T_CHECK(v0.query_qp(qp, &qa, IBV_QP_STATE, &qia) == 0);
	T_CHECK(qia.qp_context == &qa && qia.send_cq == cq &&
		qia.recv_cq == cq && qia.srq == srq);
	T_CHECK(qia.cap.max_recv_wr == 33 && qia.sq_sig_all == 1);
	T_CHECK(qia.qp_type == IBV_QPT_RC && qp->real->state == IBV_QPS_RTS);
	qa.qp_state = IBV_QPS_INIT;
	T_CHECK(v0.modify_qp(qp, &qa, IBV_QP_STATE) == 0);
	T_CHECK(rec.obj == qp->real && qp->real->state == IBV_QPS_INIT);
	T_CHECK(v0.attach_mcast(qp, &mgid, 0xc001) == 0 && rec.lid == 0xc001);
	T_CHECK(v0.detach_mcast(qp, &mgid, 0xc001) == 0 && rec.lid == 0xc002);

	ah = v0.create_ah(pd, &aa);
	T_CHECK(ah && ah->context == ctx && ah->pd == pd);
	T_CHECK(ah->real->pd == pd->real && ah->real->context == ctx->real);
	T_CHECK(v0.destroy_ah(ah) == 0);

	/* A destroy the provider refuses leaves the wrapper usable. */
	rec.destroy_err = EBUSY;
	T_CHECK(v0.destroy_qp(qp) == EBUSY);
	T_CHECK(qp->real->qp_num == 0x99);
	T_CHECK(v0.destroy_qp(qp) == 0);
	T_CHECK(v0.destroy_srq(srq) == 0);
	T_CHECK(v0.destroy_cq(cq) == 0);
	T_CHECK(v0.dealloc_pd(pd) == 0);
	close_1_0(ctx);
	return 0;
}

/* A QP without an SRQ queries as one (rdma-core 44 crashes here). */
static int sc_query_no_srq(void *arg)
{
	struct ctx_1_0 *ctx;
	struct qp_init_attr_1_0 ia = { 0 }, qia = { .srq = (void *)&ia };
	struct ibv_qp_attr qa;
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct qp_1_0 *qp;

	if (t_reference())
		return T_SKIP;
	ctx = open_1_0();
	if (!ctx)
		return T_SKIP;
	pd = v0.alloc_pd(ctx);
	cq = v0.create_cq(ctx, 1, NULL, NULL, 0);
	ia = (struct qp_init_attr_1_0){ .send_cq = cq,
					.recv_cq = cq,
					.qp_type = IBV_QPT_UC };
	qp = v0.create_qp(pd, &ia);
	T_CHECK(qp && qp->srq == NULL && qp->real->srq == NULL);
	T_CHECK(v0.query_qp(qp, &qa, IBV_QP_STATE, &qia) == 0);
	T_CHECK(qia.srq == NULL && qia.send_cq == cq);
	T_CHECK(v0.destroy_qp(qp) == 0 && v0.destroy_cq(cq) == 0);
	T_CHECK(v0.dealloc_pd(pd) == 0);
	close_1_0(ctx);
	return 0;
}

/* Old WRs reach the provider field by field in the current layout. */
static void check_send_translation(struct qp_1_0 *qp)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 64, .lkey = 7 };
	struct send_wr_1_0 w[2] = {
		{ .next = &w[1],
		  .wr_id = 0xaa,
		  .sg_list = &sge,
		  .num_sge = 1,
		  .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		  .send_flags = IBV_SEND_SIGNALED,
		  .imm_data = htobe32(0x1234),
		  .wr.rdma = { .remote_addr = 0xdead0000, .rkey = 0x55 } },
		{ .wr_id = 0xbb,
		  .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		  .wr.atomic = { .remote_addr = 0xbeef0000,
				 .compare_add = 3,
				 .swap = 4,
				 .rkey = 0x66 } },
	};
	struct ibv_send_wr *r = rec.send;
	void *bad = NULL;

	T_CHECK(qp->context->ops.post_send(qp, w, &bad) == 0);
	T_CHECK(rec.nsend == 2 && bad == NULL);
	T_CHECK(r[0].wr_id == 0xaa && r[0].sg_list == &sge &&
		r[0].num_sge == 1);
	T_CHECK(r[0].opcode == IBV_WR_RDMA_WRITE_WITH_IMM &&
		r[0].send_flags == IBV_SEND_SIGNALED);
	T_CHECK(r[0].imm_data == htobe32(0x1234));
	T_CHECK(r[0].wr.rdma.remote_addr == 0xdead0000 &&
		r[0].wr.rdma.rkey == 0x55);
	T_CHECK(r[1].wr_id == 0xbb && r[1].num_sge == 0 &&
		r[1].opcode == IBV_WR_ATOMIC_CMP_AND_SWP);
	T_CHECK(r[1].wr.atomic.remote_addr == 0xbeef0000 &&
		r[1].wr.atomic.compare_add == 3 && r[1].wr.atomic.swap == 4 &&
		r[1].wr.atomic.rkey == 0x66);
	/* Members the 1.0 layout lacks: zero in ours, unset in rdma-core 44. */
	if (!t_reference())
		T_CHECK(r[0].qp_type.xrc.remote_srqn == 0 &&
			r[0].bind_mw.mw == NULL);
}

/* The provider's bad request comes back as the program's. */
static void check_send_failure(struct qp_1_0 *qp)
{
	struct send_wr_1_0 w[20];
	void *bad = NULL;
	int i;

	memset(w, 0, sizeof(w));
	for (i = 0; i < 20; i++) {
		w[i].wr_id = i;
		w[i].next = i < 19 ? &w[i + 1] : NULL;
	}
	rec_reset();
	rec.fail_at = 18;
	T_CHECK(qp->context->ops.post_send(qp, w, &bad) == EINVAL);
	T_CHECK(bad == &w[18] && rec.nsend == 19);
	for (i = 0; i < 19; i++)
		T_CHECK(rec.send[i].wr_id == (uint64_t)i);
	rec_reset();
	rec.fail_at = 0;
	T_CHECK(qp->context->ops.post_send(qp, &w[5], &bad) == EINVAL);
	T_CHECK(bad == &w[5]);
}

/* A UD request names the 1.0 AH; the provider gets the real one. */
static void check_send_ud(struct qp_1_0 *qp, struct ah_1_0 *ah)
{
	struct send_wr_1_0 w = {
		.wr_id = 9,
		.opcode = IBV_WR_SEND,
		.wr.ud = { .ah = ah, .remote_qpn = 0x77, .remote_qkey = 0x11 },
	};
	void *bad = NULL;

	rec_reset();
	T_CHECK(qp->context->ops.post_send(qp, &w, &bad) == 0);
	T_CHECK(rec.nsend == 1 && rec.send[0].wr.ud.ah == ah->real);
	T_CHECK(rec.send[0].wr.ud.remote_qpn == 0x77 &&
		rec.send[0].wr.ud.remote_qkey == 0x11);
}

static void check_recv(struct qp_1_0 *qp, struct srq_1_0 *srq)
{
	struct ibv_sge sge = { .addr = 0x2000, .length = 8 };
	struct recv_wr_1_0 w[3] = {
		{ .next = &w[1], .wr_id = 1, .sg_list = &sge, .num_sge = 1 },
		{ .next = &w[2], .wr_id = 2 },
		{ .wr_id = 3 },
	};
	void *bad = NULL;

	rec_reset();
	T_CHECK(qp->context->ops.post_recv(qp, w, &bad) == 0);
	T_CHECK(rec.obj == qp->real && rec.nrecv == 3);
	T_CHECK(rec.recv[0].wr_id == 1 && rec.recv[0].sg_list == &sge &&
		rec.recv[0].num_sge == 1);
	T_CHECK(rec.recv[2].wr_id == 3 && rec.recv[2].next == NULL);
	rec_reset();
	rec.fail_at = 1;
	T_CHECK(srq->context->ops.post_srq_recv(srq, w, &bad) == ENOMEM);
	T_CHECK(rec.obj == srq->real && bad == &w[1]);
}

static void check_poll_notify(struct cq_1_0 *cq)
{
	struct ibv_wc wc[3];

	T_CHECK(cq->context->ops.poll_cq(cq, 3, wc) == 2);
	T_CHECK(rec.obj == cq->real && rec.arg == 3);
	T_CHECK(cq->context->ops.req_notify_cq(cq, 1) == 0);
	T_CHECK(rec.obj == cq->real && rec.arg == 1);
}

/* The 1.0 context's ops call the provider's, with translated requests. */
static int sc_ops(void *arg)
{
	struct ctx_1_0 *ctx = open_1_0();
	struct ibv_srq_init_attr sia = { 0 };
	struct ibv_ah_attr aa = { .dlid = 1, .port_num = 1 };
	struct qp_init_attr_1_0 ia;
	struct pd_1_0 *pd;
	struct cq_1_0 *cq;
	struct srq_1_0 *srq;
	struct qp_1_0 *qp, *ud;
	struct ah_1_0 *ah;

	if (!ctx)
		return T_SKIP;
	pd = v0.alloc_pd(ctx);
	cq = v0.create_cq(ctx, 4, NULL, NULL, 0);
	srq = v0.create_srq(pd, &sia);
	ah = v0.create_ah(pd, &aa);
	ia = (struct qp_init_attr_1_0){ .send_cq = cq,
					.recv_cq = cq,
					.qp_type = IBV_QPT_RC };
	qp = v0.create_qp(pd, &ia);
	ia.qp_type = IBV_QPT_UD;
	ud = v0.create_qp(pd, &ia);
	T_CHECK(pd && cq && srq && ah && qp && ud);
	check_poll_notify(cq);
	check_send_translation(qp);
	check_send_failure(qp);
	check_send_ud(ud, ah);
	check_recv(qp, srq);
	T_CHECK(!v0.destroy_qp(ud) && !v0.destroy_qp(qp));
	T_CHECK(!v0.destroy_ah(ah) && !v0.destroy_srq(srq));
	T_CHECK(!v0.destroy_cq(cq) && !v0.dealloc_pd(pd));
	close_1_0(ctx);
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
	struct ctx_1_0 *ctx = open_1_0();
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
	close_1_0(ctx);
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
static void test_objects(void **s)
{
	t_scenario(sc_objects, NULL);
}
static void test_query_no_srq(void **s)
{
	t_scenario(sc_query_no_srq, NULL);
}
static void test_ops(void **s)
{
	t_scenario(sc_ops, NULL);
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
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_query_no_srq),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
