// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the generic steps every persona is taken through
 * (t_drive.h), each through the public verbs as an application calls
 * them, each noting in the trace what the provider reported. A step that
 * fails ends the drive: what comes after it needs its object. After the
 * steps, the verbs several personas take beyond them, for their dv hooks.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_drive.h"

struct drive {
	const struct t_persona *p;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_cq_ex *cq_ex;
	struct ibv_qp *qp, *qp_ex, *ud;
	struct ibv_srq *srq;
	struct ibv_ah *ah;
	void *buf;
};

static bool wants(const struct drive *d, unsigned int step)
{
	return d->p->steps & step;
}

/* NULL is a failure, noted with errno; false ends the drive. */
static bool made(const char *what, const void *obj)
{
	if (!obj)
		t_uv_note("%s failed errno=%d", what, errno);
	return obj;
}

static bool step_query(struct drive *d)
{
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port;
	int ret;

	memset(&attr, 0, sizeof(attr));
	ret = ibv_query_device_ex(d->ctx, NULL, &attr);
	t_uv_note("query_device_ex ret=%d fw_ver=%.64s", ret,
		  attr.orig_attr.fw_ver);
	if (ret)
		return false;
	memset(attr.orig_attr.fw_ver, 0, sizeof(attr.orig_attr.fw_ver));
	t_uv_dump("device_attr_ex", &attr, sizeof(attr));
	memset(&port, 0, sizeof(port));
	ret = ibv_query_port(d->ctx, 1, &port);
	t_uv_note("query_port ret=%d", ret);
	/*
	 * The bytes every release has: active_speed_ex came with 56.1,
	 * so under 44.0's core it is our library's answer alone
	 * (cmd_device_test tests it).
	 */
	t_uv_dump("port_attr", &port,
		  offsetof(struct ibv_port_attr, active_speed_ex));
	return !ret;
}

static bool step_pd_mr(struct drive *d)
{
	if (wants(d, T_STEP_PD) &&
	    !made("alloc_pd", d->pd = ibv_alloc_pd(d->ctx)))
		return false;
	if (!wants(d, T_STEP_MR))
		return true;
	d->buf = aligned_alloc(4096, 4 * 4096);
	t_uv_name("buf", d->buf, 4 * 4096);
	d->mr = ibv_reg_mr(d->pd, d->buf, 4 * 4096,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);
	if (!made("reg_mr", d->mr))
		return false;
	t_uv_note("mr lkey=%x rkey=%x length=%zu", d->mr->lkey, d->mr->rkey,
		  d->mr->length);
	return true;
}

static bool step_cqs(struct drive *d)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = 32,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM,
	};

	if (wants(d, T_STEP_CQ)) {
		d->cq = ibv_create_cq(d->ctx, 16, NULL, NULL, 0);
		if (!made("create_cq", d->cq))
			return false;
		t_uv_note("cq cqe=%d", d->cq->cqe);
	}
	if (wants(d, T_STEP_CQ_EX)) {
		d->cq_ex = ibv_create_cq_ex(d->ctx, &attr);
		if (!made("create_cq_ex", d->cq_ex))
			return false;
		t_uv_note("cq_ex cqe=%d", d->cq_ex->cqe);
	}
	return true;
}

static void note_qp(const char *what, struct ibv_qp *qp,
		    const struct ibv_qp_init_attr *init)
{
	t_uv_note("%s qp_num=%x state=%d cap=%u/%u/%u/%u/%u", what, qp->qp_num,
		  qp->state, init->cap.max_send_wr, init->cap.max_recv_wr,
		  init->cap.max_send_sge, init->cap.max_recv_sge,
		  init->cap.max_inline_data);
}

static struct ibv_qp *create_qp(struct drive *d, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr init = t_qp_init(d->cq, type, 16, 1);
	struct ibv_qp *qp = ibv_create_qp(d->pd, &init);

	if (made(type == IBV_QPT_UD ? "create_qp(UD)" : "create_qp", qp))
		note_qp("qp", qp, &init);
	return qp;
}

static bool step_qp_ex(struct drive *d)
{
	struct ibv_qp_init_attr_ex init =
		t_qp_init_ex(d->pd, d->cq, IBV_QPT_RC, 8, 2,
			     IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE);

	d->qp_ex = ibv_create_qp_ex(d->ctx, &init);
	if (!made("create_qp_ex", d->qp_ex))
		return false;
	note_qp("qp_ex", d->qp_ex, (struct ibv_qp_init_attr *)&init);
	return true;
}

/*
 * On an Ethernet port a peer is an IP address: a GRH to the IPv4-mapped
 * GID of 192.0.2.@host (TEST-NET-1), hop limit 64. An InfiniBand port
 * reaches it by the LID alone.
 */
static void roce_dest(const struct drive *d, struct ibv_ah_attr *ah,
		      uint8_t host)
{
	if (d->p->link_layer != IBV_LINK_LAYER_ETHERNET)
		return;
	ah->is_global = 1;
	ah->grh.hop_limit = 64;
	ah->grh.dgid.raw[10] = 0xff;
	ah->grh.dgid.raw[11] = 0xff;
	ah->grh.dgid.raw[12] = 192;
	ah->grh.dgid.raw[14] = 2;
	ah->grh.dgid.raw[15] = host;
}

/* The RC QP to RTS, as a connection manager would take it. */
static bool step_modify(struct drive *d)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};
	int ret;

	ret = ibv_modify_qp(d->qp, &a,
			    IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				    IBV_QP_ACCESS_FLAGS);
	t_uv_note("modify_qp INIT ret=%d", ret);
	if (ret)
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = d->qp->qp_num;
	a.rq_psn = 0x123;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.dlid = 1;
	a.ah_attr.port_num = 1;
	roce_dest(d, &a.ah_attr, 1);
	ret = ibv_modify_qp(d->qp, &a,
			    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC |
				    IBV_QP_MIN_RNR_TIMER);
	t_uv_note("modify_qp RTR ret=%d", ret);
	if (ret)
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0x456;
	a.max_rd_atomic = 1;
	ret = ibv_modify_qp(d->qp, &a,
			    IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				    IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				    IBV_QP_MAX_QP_RD_ATOMIC);
	t_uv_note("modify_qp RTS ret=%d state=%d", ret, d->qp->state);
	return !ret;
}

static bool step_srq_ah(struct drive *d)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 32,
						  .max_sge = 1 } };
	struct ibv_ah_attr aa = { .dlid = 2, .port_num = 1 };

	if (wants(d, T_STEP_SRQ)) {
		d->srq = ibv_create_srq(d->pd, &sa);
		if (!made("create_srq", d->srq))
			return false;
		t_uv_note("srq max_wr=%u max_sge=%u", sa.attr.max_wr,
			  sa.attr.max_sge);
	}
	if (!wants(d, T_STEP_AH))
		return true;
	roce_dest(d, &aa, 2);
	d->ah = ibv_create_ah(d->pd, &aa);
	return made("create_ah", d->ah);
}

static bool run_steps(struct drive *d)
{
	if (wants(d, T_STEP_QUERY) && !step_query(d))
		return false;
	if (!step_pd_mr(d) || !step_cqs(d))
		return false;
	if (wants(d, T_STEP_QP) && !(d->qp = create_qp(d, IBV_QPT_RC)))
		return false;
	if (wants(d, T_STEP_UD) && !(d->ud = create_qp(d, IBV_QPT_UD)))
		return false;
	if (wants(d, T_STEP_QP_EX) && !step_qp_ex(d))
		return false;
	if (wants(d, T_STEP_MODIFY) && !step_modify(d))
		return false;
	return step_srq_ah(d);
}

#define DESTROY(fn, obj)                                   \
	do {                                               \
		if (obj)                                   \
			t_uv_note(#fn " ret=%d", fn(obj)); \
	} while (0)

static void tear_down(struct drive *d)
{
	DESTROY(ibv_destroy_ah, d->ah);
	DESTROY(ibv_destroy_srq, d->srq);
	DESTROY(ibv_destroy_qp, d->qp_ex);
	DESTROY(ibv_destroy_qp, d->ud);
	DESTROY(ibv_destroy_qp, d->qp);
	if (d->cq_ex)
		t_uv_note("ibv_destroy_cq(ex) ret=%d",
			  ibv_destroy_cq(ibv_cq_ex_to_cq(d->cq_ex)));
	DESTROY(ibv_destroy_cq, d->cq);
	DESTROY(ibv_dereg_mr, d->mr);
	DESTROY(ibv_dealloc_pd, d->pd);
	free(d->buf);
}

static struct ibv_device *find(struct ibv_device **list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

void t_drive(const struct t_persona *p)
{
	struct drive d = { .p = p };
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_device *dev = find(list, p->ibdev);

	if (!dev) {
		t_uv_note("no device %s (errno=%d)", p->ibdev, errno);
		ibv_free_device_list(list);
		return;
	}
	d.ctx = ibv_open_device(dev);
	/*
	 * A provider that fails to open leaves errno as the core's last
	 * system call left it, which is no result of the provider's.
	 */
	if (!d.ctx)
		t_uv_note("open_device failed");
	if (d.ctx) {
		run_steps(&d);
		if (p->dv)
			p->dv(&(struct t_objs){ .ctx = d.ctx,
						.pd = d.pd,
						.cq = d.cq,
						.qp = d.qp,
						.ud = d.ud });
		tear_down(&d);
		t_uv_note("close_device ret=%d", ibv_close_device(d.ctx));
	}
	ibv_free_device_list(list);
}

/* For the personas' own verbs. */

bool t_note_made(const char *what, const void *obj)
{
	if (obj)
		t_uv_note("%s ok", what);
	else
		t_uv_note("%s failed errno=%d", what, errno);
	return obj;
}

void *t_dv_sym(const char *lib, const char *name)
{
	char path[4096];
	void *h, *sym;

	snprintf(path, sizeof(path), "%s/%s", getenv("IBV_REFERENCE_LIBDIR"),
		 lib);
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (!h) {
		t_uv_note("dlopen %s failed", lib);
		return NULL;
	}
	sym = dlsym(h, name);
	dlclose(h);
	return sym;
}

struct ibv_qp_init_attr t_qp_init(struct ibv_cq *cq, enum ibv_qp_type type,
				  uint32_t wr, uint32_t sge)
{
	return (struct ibv_qp_init_attr){
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = wr,
			 .max_recv_wr = wr,
			 .max_send_sge = sge,
			 .max_recv_sge = sge },
		.qp_type = type,
	};
}

struct ibv_qp_init_attr_ex t_qp_init_ex(struct ibv_pd *pd, struct ibv_cq *cq,
					enum ibv_qp_type type, uint32_t wr,
					uint32_t sge, uint64_t send_ops)
{
	struct ibv_qp_init_attr base = t_qp_init(cq, type, wr, sge);

	return (struct ibv_qp_init_attr_ex){
		.send_cq = base.send_cq,
		.recv_cq = base.recv_cq,
		.cap = base.cap,
		.qp_type = base.qp_type,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     (send_ops ? IBV_QP_INIT_ATTR_SEND_OPS_FLAGS : 0),
		.pd = pd,
		.send_ops_flags = send_ops,
	};
}

void t_post_send_recv(struct ibv_qp *qp)
{
	char buf[64] = { 0 };
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 8 };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr swr = { .wr_id = 2,
				   .sg_list = &sge,
				   .num_sge = 1,
				   .opcode = IBV_WR_SEND },
			   *bad_s;
	struct ibv_recv_wr *bad_r;

	t_uv_name("wr_buf", buf, sizeof(buf));
	t_uv_note("post_recv ret=%d", ibv_post_recv(qp, &rwr, &bad_r));
	t_uv_note("post_send ret=%d", ibv_post_send(qp, &swr, &bad_s));
	t_uv_unname(buf);
}

void t_poll(struct ibv_cq *cq)
{
	struct ibv_wc wc[2];

	t_uv_note("poll_cq ret=%d", ibv_poll_cq(cq, 2, wc));
}

void t_data_path(const struct t_objs *o)
{
	t_post_send_recv(o->qp);
	t_uv_note("req_notify_cq ret=%d", ibv_req_notify_cq(o->cq, 0));
	t_poll(o->cq);
}

void t_refuse_ex(const struct t_objs *o)
{
	struct ibv_cq_init_attr_ex ca = { .cqe = 8 };
	struct ibv_qp_init_attr_ex qa = t_qp_init_ex(o->pd, o->cq, IBV_QPT_RC,
						     4, 1, IBV_QP_EX_WITH_SEND);
	struct ibv_cq_ex *cq;
	struct ibv_qp *qp;

	errno = 0;
	cq = ibv_create_cq_ex(o->ctx, &ca);
	t_uv_note("create_cq_ex %s errno=%d", cq ? "made" : "refused", errno);
	if (cq)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	errno = 0;
	qp = ibv_create_qp_ex(o->ctx, &qa);
	t_uv_note("create_qp_ex %s errno=%d", qp ? "made" : "refused", errno);
	if (qp)
		ibv_destroy_qp(qp);
}

void t_query_qp(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	memset(&init, 0, sizeof(init));
	ret = ibv_query_qp(qp, &attr, IBV_QP_STATE | IBV_QP_CAP, &init);
	t_uv_note("query_qp ret=%d state=%d cap=%u/%u/%u/%u/%u", ret,
		  attr.qp_state, init.cap.max_send_wr, init.cap.max_recv_wr,
		  init.cap.max_send_sge, init.cap.max_recv_sge,
		  init.cap.max_inline_data);
}

void t_grow_srq(struct ibv_pd *pd)
{
	struct ibv_srq_init_attr init = { .attr = { .max_wr = 16,
						    .max_sge = 1 } };
	struct ibv_srq_attr attr = { .max_wr = 48 };
	struct ibv_srq *srq = ibv_create_srq(pd, &init);
	int ret;

	if (!srq)
		return;
	t_uv_note("modify_srq ret=%d",
		  ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR));
	memset(&attr, 0, sizeof(attr));
	ret = ibv_query_srq(srq, &attr);
	t_uv_note("query_srq ret=%d max_wr=%u", ret, attr.max_wr);
	t_uv_note("destroy_srq ret=%d", ibv_destroy_srq(srq));
}

struct ibv_xrcd *t_xrcd(struct ibv_context *ctx)
{
	struct ibv_xrcd_init_attr attr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};

	return ibv_open_xrcd(ctx, &attr);
}

struct ibv_srq *t_xrc_srq(const struct t_objs *o, struct ibv_xrcd *xrcd)
{
	struct ibv_srq_init_attr_ex attr = {
		.attr = { .max_wr = 16, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = o->pd,
		.xrcd = xrcd,
		.cq = o->cq,
	};

	return ibv_create_srq_ex(o->ctx, &attr);
}

struct ibv_flow *t_tcp_flow(struct ibv_qp *qp,
			    const struct ibv_flow_eth_filter *val,
			    const struct ibv_flow_eth_filter *mask,
			    uint32_t dst_ip)
{
	struct {
		struct ibv_flow_attr attr;
		struct ibv_flow_spec_eth eth;
		struct ibv_flow_spec_ipv4 ip;
		struct ibv_flow_spec_tcp_udp tcp;
	} rule = {
		.attr = { .type = IBV_FLOW_ATTR_NORMAL,
			  .size = sizeof(rule),
			  .num_of_specs = 3,
			  .port = 1 },
		.eth = { .type = IBV_FLOW_SPEC_ETH,
			 .size = sizeof(rule.eth),
			 .val = *val,
			 .mask = *mask },
		.ip = { .type = IBV_FLOW_SPEC_IPV4,
			.size = sizeof(rule.ip),
			.val.dst_ip = dst_ip,
			.mask.dst_ip = 0xffffffff },
		.tcp = { .type = IBV_FLOW_SPEC_TCP,
			 .size = sizeof(rule.tcp),
			 .val.dst_port = 0x5000,
			 .mask.dst_port = 0xffff },
	};

	return ibv_create_flow(qp, &rule.attr);
}

struct ibv_qp *t_rss_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			struct ibv_rwq_ind_table *tbl, uint8_t *key)
{
	struct ibv_qp_init_attr_ex attr = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE |
			     IBV_QP_INIT_ATTR_RX_HASH,
		.pd = pd,
		.rwq_ind_tbl = tbl,
		.rx_hash_conf = { .rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ,
				  .rx_hash_key_len = T_RSS_KEY_LEN,
				  .rx_hash_key = key,
				  .rx_hash_fields_mask = IBV_RX_HASH_SRC_IPV4 |
							 IBV_RX_HASH_DST_IPV4 },
	};

	return ibv_create_qp_ex(ctx, &attr);
}
