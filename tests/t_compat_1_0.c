// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The @IBVERBS_1.0 tests' fixture (t_compat_1_0.h): the 1.0 functions
 * resolved from the library under test, the fake provider ops and the
 * 1.0 context opened on the test provider's device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <infiniband/driver.h>

#include "t_compat_1_0.h"
#include "t_util.h"

struct t_v0 v0;
struct t_rec rec;

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

void t_rec_reset(void)
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

struct ctx_1_0 *t_open_1_0(void)
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
	t_rec_reset();
	return ctx;
}

void t_close_1_0(struct ctx_1_0 *ctx)
{
	T_CHECK(v0.close_device(ctx) == 0);
	v0.free_device_list(list);
}
