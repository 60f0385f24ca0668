// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the persona of libmana, the Microsoft Azure Network Adapter.
 *
 * libmana 44 serves raw Ethernet (DPDK): its CQs, receive WQs and send
 * QPs live in buffers the application allocates (manadv's allocators)
 * and hands the kernel by address; receive QPs are RSS QPs over an
 * indirection table of WQs, and a QP's port is its parent domain's
 * context. The context maps the doorbell page (offset 0); the kernel
 * answers with queue ids. Linux 6.1's headers lack <rdma/mana-abi.h>:
 * its layouts (Linux 6.2's uapi) are declared here. mana is matched by
 * its driver id alone, which only netlink gives.
 *
 * libmana of 56.1 and 65.0 serves RDMA too: a CQ made without the
 * allocators is the RNIC's, in the provider's own memory, whose id the
 * kernel answers, and an RC QP has four queues (send and receive, as
 * requester and as responder) that the kernel answers the ids of. So
 * the generic CQ, RC QP and modify steps run: 44.0's provider refuses
 * the CQ, which ends its steps there. The SRQ, UD and AH steps are left
 * out: the device has none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_drive.h"

/* <rdma/mana-abi.h> of Linux 6.2. */
struct mana_create_qp_resp {
	uint32_t sqid, cqid, tx_vp_offset, reserved;
};

struct mana_create_qp_rss {
	uint64_t rx_hash_fields_mask;
	uint8_t rx_hash_function, reserved[7];
	uint32_t rx_hash_key_len;
	uint8_t rx_hash_key[40];
	uint32_t port;
};

/* An RC QP's request and answer (Linux 6.10's uapi). */
#define MANA_RC_QUEUES 4
struct mana_create_rc_qp {
	uint64_t queue_buf[MANA_RC_QUEUES];
	uint32_t queue_size[MANA_RC_QUEUES];
};

struct mana_create_rc_qp_resp {
	uint32_t queue_id[MANA_RC_QUEUES];
};

struct mana_create_qp_rss_resp {
	uint64_t num_entries;
	struct {
		uint32_t cqid, wqid;
	} entries[64];
};

/* The provider's own library, where its direct verbs are. */
#define DV_LIB "libmana.so.1"

/* <infiniband/manadv.h> as rdma-core 44 installs it. */
struct dv_allocators {
	void *(*alloc)(size_t size, void *priv_data);
	void (*free)(void *ptr, void *priv_data);
	void *data;
};

struct dv_qp {
	void *sq_buf;
	uint32_t sq_count, sq_size, sq_id, tx_vp_offset;
	void *db_page;
};

struct dv_cq {
	void *buf;
	uint32_t count, cq_id;
};

struct dv_rwq {
	void *buf;
	uint32_t count, size, wq_id;
	void *db_page;
};

struct dv_obj {
	struct {
		struct ibv_qp *in;
		struct dv_qp *out;
	} qp;
	struct {
		struct ibv_cq *in;
		struct dv_cq *out;
	} cq;
	struct {
		struct ibv_wq *in;
		struct dv_rwq *out;
	} rwq;
};

enum {
	DV_CTX_ATTR_BUF_ALLOCATORS = 0,
	DV_OBJ_QP = 1 << 0,
	DV_OBJ_CQ = 1 << 1,
	DV_OBJ_RWQ = 1 << 2,
};

static int create_cq(struct t_uv_cmd *cmd)
{
	uint32_t cqid[2] = { 0x31, 0 };

	return t_drv_answer(cmd, cqid, sizeof(cqid));
}

/*
 * A receive QP is an RSS QP over WQs; a send QP has a queue of its own;
 * an RC QP four, told apart by their requests' lengths.
 */
static int create_qp(struct t_uv_cmd *cmd)
{
	if (cmd->drv_in_len == sizeof(struct mana_create_rc_qp)) {
		struct mana_create_rc_qp_resp r;

		for (unsigned int i = 0; i < MANA_RC_QUEUES; i++)
			r.queue_id[i] = 0x70 + i;
		t_drv_answer(cmd, &r, sizeof(r));
	} else if (cmd->drv_in_len >= sizeof(struct mana_create_qp_rss)) {
		struct mana_create_qp_rss_resp r = { .num_entries = 1 };

		r.entries[0].cqid = 0x31;
		r.entries[0].wqid = 0x51;
		t_drv_answer(cmd, &r, sizeof(r));
	} else {
		struct mana_create_qp_resp r = {
			.sqid = 0x61,
			.cqid = 0x32,
			.tx_vp_offset = 0x7,
		};

		t_drv_answer(cmd, &r, sizeof(r));
	}
	return 0;
}

/* The application's buffers, page-aligned and named in the trace. */
static void *buf_alloc(size_t size, void *data)
{
	unsigned int *n = data;
	char name[16];
	void *p = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);

	if (p) {
		memset(p, 0, size);
		snprintf(name, sizeof(name), "qbuf%u", (*n)++);
		t_uv_name(name, p, size);
	}
	return p;
}

static void buf_free(void *p, void *data)
{
	(void)data;
	t_uv_unname(p);
	free(p);
}

static bool set_allocators(struct ibv_context *ctx, unsigned int *count)
{
	int (*set)(struct ibv_context *, int, void *) =
		t_dv_sym(DV_LIB, "manadv_set_context_attr");
	struct dv_allocators a = { buf_alloc, buf_free, count };
	int ret;

	if (!set)
		return false;
	ret = set(ctx, DV_CTX_ATTR_BUF_ALLOCATORS, &a);
	t_uv_note("manadv_set_context_attr ret=%d", ret);
	return !ret;
}

/* What the provider made of the kernel's answers, as manadv shows it. */
static void dv_init_obj(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_wq *wq)
{
	int (*init_obj)(struct dv_obj *, uint64_t) =
		t_dv_sym(DV_LIB, "manadv_init_obj");
	struct dv_qp dqp;
	struct dv_cq dcq;
	struct dv_rwq drwq;
	struct dv_obj obj = { { qp, &dqp }, { cq, &dcq }, { wq, &drwq } };
	int ret;

	if (!init_obj)
		return;
	ret = init_obj(&obj, DV_OBJ_QP | DV_OBJ_CQ | DV_OBJ_RWQ);
	t_uv_note("manadv_init_obj ret=%d", ret);
	if (ret)
		return;
	t_uv_note("manadv qp sq_count=%u sq_size=%u sq_id=%x tx_vp_offset=%u",
		  dqp.sq_count, dqp.sq_size, dqp.sq_id, dqp.tx_vp_offset);
	t_uv_note("manadv cq count=%u cq_id=%x", dcq.count, dcq.cq_id);
	t_uv_note("manadv rwq count=%u size=%u wq_id=%x", drwq.count, drwq.size,
		  drwq.wq_id);
}

/* An RSS receive QP over one WQ, as DPDK makes it. */
static struct ibv_qp *rss_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			     struct ibv_rwq_ind_table *tbl)
{
	static uint8_t key[T_RSS_KEY_LEN] = { 0x2c, 0xc6, 0x81, 0xd1 };
	struct ibv_qp *qp = t_rss_qp(ctx, pd, tbl, key);

	t_uv_note("create_qp_ex(RSS) %s qp_num=%x errno=%d",
		  qp ? "ok" : "failed", qp ? qp->qp_num : 0, qp ? 0 : errno);
	return qp;
}

/* A send QP on @cq. */
static struct ibv_qp *send_qp(struct ibv_pd *pd, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 64, .max_send_sge = 1 },
		.qp_type = IBV_QPT_RAW_PACKET,
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &attr);

	t_uv_note("create_qp(RAW) %s qp_num=%x errno=%d", qp ? "ok" : "failed",
		  qp ? qp->qp_num : 0, qp ? 0 : errno);
	return qp;
}

static void rx_tx(const struct t_objs *o, struct ibv_cq *cq)
{
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ,
				       .max_wr = 64,
				       .max_sge = 1,
				       .pd = o->pd,
				       .cq = cq };
	struct ibv_wq_attr mod = { .attr_mask = IBV_WQ_ATTR_STATE,
				   .wq_state = IBV_WQS_RDY };
	struct ibv_rwq_ind_table_init_attr ta = { .log_ind_tbl_size = 0 };
	struct ibv_rwq_ind_table *tbl;
	struct ibv_qp *rx = NULL, *tx;
	struct ibv_wq *wq;

	wq = ibv_create_wq(o->ctx, &wa);
	t_uv_note("create_wq %s", wq ? "ok" : "failed");
	if (!wq)
		return;
	t_uv_note("modify_wq ret=%d", ibv_modify_wq(wq, &mod));
	ta.ind_tbl = &wq;
	tbl = ibv_create_rwq_ind_table(o->ctx, &ta);
	t_uv_note("create_rwq_ind_table %s", tbl ? "ok" : "failed");
	if (tbl)
		rx = rss_qp(o->ctx, o->pd, tbl);
	tx = send_qp(o->pd, cq);
	if (tx)
		dv_init_obj(tx, cq, wq);
	if (tx)
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(tx));
	if (rx)
		t_uv_note("destroy_qp ret=%d", ibv_destroy_qp(rx));
	if (tbl)
		t_uv_note("destroy_rwq_ind_table ret=%d",
			  ibv_destroy_rwq_ind_table(tbl));
	t_uv_note("destroy_wq ret=%d", ibv_destroy_wq(wq));
}

static void mana_dv(const struct t_objs *o)
{
	static unsigned int nbufs;
	struct ibv_parent_domain_init_attr pa = {
		.pd = o->pd,
		.comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT,
		.pd_context = (void *)1, /* the Ethernet port */
	};
	struct t_objs in_domain = *o;
	struct ibv_cq *cq;

	/* The RC QP of the steps, on the RNIC's CQ. */
	if (o->qp && o->cq)
		t_data_path(o);
	if (!o->pd || !set_allocators(o->ctx, &nbufs))
		return;
	/* libmana takes a QP's port from its parent domain's context. */
	in_domain.pd = ibv_alloc_parent_domain(o->ctx, &pa);
	t_uv_note("alloc_parent_domain %s", in_domain.pd ? "ok" : "failed");
	if (!in_domain.pd)
		return;
	cq = ibv_create_cq(o->ctx, 64, NULL, NULL, 0);
	t_uv_note("create_cq %s cqe=%d", cq ? "ok" : "failed",
		  cq ? cq->cqe : 0);
	if (cq) {
		rx_tx(&in_domain, cq);
		t_uv_note("destroy_cq ret=%d", ibv_destroy_cq(cq));
	}
	t_uv_note("dealloc_pd(parent) ret=%d", ibv_dealloc_pd(in_domain.pd));
}

const struct t_persona t_persona_mana = {
	.name = "mana",
	.ibdev = "mana_0",
	.driver_id = RDMA_DRIVER_MANA_,
	.abi = 1,
	.node_type = T_NODE_CA,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.steps = T_STEP_QUERY | T_STEP_PD | T_STEP_MR | T_STEP_CQ | T_STEP_QP |
		 T_STEP_MODIFY,
	.answers = {
		[T_V_CREATE_CQ] = create_cq,
		[T_V_CREATE_QP] = create_qp,
	},
	.dv = mana_dv,
};
