// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failures that explain themselves: the one place that words why a verb
 * failed (explain.h). The public verbs call it on their error path; the
 * transport (kcmd.c) and the command router (cmd.c) call it when the
 * kernel lacks an ioctl method and nothing can be sent instead. errno and
 * the verb's result stay what rdma-core 44 gives; only the log gains a
 * line, at VERBS_LOG_LEVEL 3 (info) and up.
 *
 * An explanation compares the request with what the device reports. It
 * asks through the context's private op table (query_device_ex,
 * query_port) and reads GIDs from sysfs, never through the public query
 * verbs, because those verbs are among its callers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "explain_line.h"
#include "log.h"
#include "util.h"

static const char *const qp_type_names[] = {
	[IBV_QPT_RC] = "RC",
	[IBV_QPT_UC] = "UC",
	[IBV_QPT_UD] = "UD",
	[IBV_QPT_RAW_PACKET] = "RAW_PACKET",
	[IBV_QPT_XRC_SEND] = "XRC_SEND",
	[IBV_QPT_XRC_RECV] = "XRC_RECV",
};

static const char *qp_type_name(enum ibv_qp_type type)
{
	if ((size_t)type < ARRAY_SIZE(qp_type_names) && qp_type_names[type])
		return qp_type_names[type];
	return type == IBV_QPT_DRIVER ? "DRIVER" : "unknown";
}

/* What the device's transport and capability flags rule out. */
static void qp_type_check(struct line *l, struct ibv_context *ctx,
			  enum ibv_qp_type type,
			  const struct ibv_device_attr *a)
{
	bool xrc = type == IBV_QPT_XRC_SEND || type == IBV_QPT_XRC_RECV;

	/* iWARP defines reliable connections only. */
	if (ctx->device->transport_type == IBV_TRANSPORT_IWARP &&
	    type != IBV_QPT_RC && type != IBV_QPT_DRIVER) {
		line_clause(l);
		line_add(l, "qp_type %s is not supported by an iWARP device",
			 qp_type_name(type));
	}
	if (xrc && !(a->device_cap_flags & IBV_DEVICE_XRC)) {
		line_clause(l);
		line_add(
			l,
			"qp_type %s needs IBV_DEVICE_XRC, which the device lacks",
			qp_type_name(type));
	}
}

/* The QP of @attr again, with @cap: the provider's answer, or NULL. */
static struct ibv_qp *create_again(struct ibv_context *ctx, struct ibv_pd *pd,
				   const struct ibv_qp_init_attr_ex *attr,
				   const struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr_ex ex = *attr;
	struct ibv_qp_init_attr a = {
		.qp_context = attr->qp_context,
		.send_cq = attr->send_cq,
		.recv_cq = attr->recv_cq,
		.srq = attr->srq,
		.cap = *cap,
		.qp_type = attr->qp_type,
		.sq_sig_all = attr->sq_sig_all,
	};

	if (pd)
		return get_ops(ctx)->create_qp(pd, &a);
	ex.cap = *cap;
	return get_ops(ctx)->create_qp_ex(ctx, &ex);
}

/*
 * Each capability in turn lowered to what any device takes, the others
 * as asked: the first whose lowering lets the QP be created is the one
 * refused. A QP so created is destroyed at once.
 */
static void probe_caps(struct line *l, struct ibv_context *ctx,
		       struct ibv_pd *pd,
		       const struct ibv_qp_init_attr_ex *attr,
		       const struct ibv_device_attr *a)
{
	enum { NO_LIMIT, MAX_SGE, MAX_QP_WR }; /* what the device reports */
	static const struct {
		const char *name;
		size_t off;
		uint32_t low;
		int limit;
		bool recv; /* unused with an SRQ */
	} caps[] = {
		{ "max_inline_data",
		  offsetof(struct ibv_qp_cap, max_inline_data), 0, NO_LIMIT,
		  false },
		{ "max_send_sge", offsetof(struct ibv_qp_cap, max_send_sge), 1,
		  MAX_SGE, false },
		{ "max_recv_sge", offsetof(struct ibv_qp_cap, max_recv_sge), 1,
		  MAX_SGE, true },
		{ "max_send_wr", offsetof(struct ibv_qp_cap, max_send_wr), 1,
		  MAX_QP_WR, false },
		{ "max_recv_wr", offsetof(struct ibv_qp_cap, max_recv_wr), 1,
		  MAX_QP_WR, true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		struct ibv_qp_cap cap = attr->cap;
		uint32_t *field = (uint32_t *)((char *)&cap + caps[i].off);
		uint32_t asked = *field;
		struct ibv_qp *qp;

		if (asked <= caps[i].low || (caps[i].recv && attr->srq))
			continue;
		*field = caps[i].low;
		qp = create_again(ctx, pd, attr, &cap);
		if (!qp)
			continue;
		get_ops(ctx)->destroy_qp(qp);
		line_clause(l);
		line_add(l, "%s %u is refused (%u is taken)", caps[i].name,
			 asked, caps[i].low);
		if (caps[i].limit == MAX_SGE)
			line_add(l, ", though the device reports max_sge %d",
				 a->max_sge);
		else if (caps[i].limit == MAX_QP_WR)
			line_add(l, ", though the device reports max_qp_wr %d",
				 a->max_qp_wr);
		else
			line_add(l, ", a limit the device does not report");
		return;
	}
}

void explain_create_qp(struct ibv_context *ctx, struct ibv_pd *pd,
		       const struct ibv_qp_init_attr_ex *attr)
{
	int saved;
	struct ibv_device_attr_ex ex;
	const struct ibv_device_attr *a = &ex.orig_attr;
	const struct ibv_qp_cap *cap = &attr->cap;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	if (!explain_device_attr(ctx, &ex))
		goto out;
	line_start(&l);
	line_over(&l, "max_send_wr", cap->max_send_wr, "max_qp_wr",
		  a->max_qp_wr);
	line_over(&l, "max_send_sge", cap->max_send_sge, "max_sge", a->max_sge);
	/* With an SRQ the receive capabilities are not used. */
	if (!attr->srq) {
		line_over(&l, "max_recv_wr", cap->max_recv_wr, "max_qp_wr",
			  a->max_qp_wr);
		line_over(&l, "max_recv_sge", cap->max_recv_sge, "max_sge",
			  a->max_sge);
	}
	qp_type_check(&l, ctx, attr->qp_type, a);
	if (!l.clauses && saved == EINVAL)
		probe_caps(&l, ctx, pd, attr, a);
	line_emit(ctx, "create_qp", &l);
out:
	errno = saved;
}

void explain_create_srq(struct ibv_context *ctx,
			const struct ibv_srq_attr *attr)
{
	int saved;
	struct ibv_device_attr_ex ex;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	if (!explain_device_attr(ctx, &ex))
		goto out;
	line_start(&l);
	line_over(&l, "max_wr", attr->max_wr, "max_srq_wr",
		  ex.orig_attr.max_srq_wr);
	line_over(&l, "max_sge", attr->max_sge, "max_srq_sge",
		  ex.orig_attr.max_srq_sge);
	line_emit(ctx, "create_srq", &l);
out:
	errno = saved;
}

void explain_create_cq(struct ibv_context *ctx, uint32_t cqe,
		       uint32_t comp_vector)
{
	int saved;
	struct ibv_device_attr_ex ex;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	if (explain_device_attr(ctx, &ex))
		line_over(&l, "cqe", cqe, "max_cqe", ex.orig_attr.max_cqe);
	/* Vectors count from 0: the last one is num_comp_vectors - 1. */
	if (comp_vector >= (uint32_t)ctx->num_comp_vectors) {
		line_clause(&l);
		line_add(&l, "comp_vector %u >= num_comp_vectors %d",
			 comp_vector, ctx->num_comp_vectors);
	}
	line_emit(ctx, "create_cq", &l);
	errno = saved;
}

/*
 * The GID at @index of @port, from sysfs: "empty" is the all-zero GID the
 * kernel shows for an unused entry; false when sysfs has no answer.
 */
static bool gid_empty(struct ibv_context *ctx, uint8_t port, unsigned int index,
		      bool *empty)
{
	struct verbs_sysfs_dev *sysfs = verbs_get_device(ctx->device)->sysfs;
	char buf[64];
	const char *p;

	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sysfs,
				      "ports/%u/gids/%u", port, index) < 0)
		return false;
	for (p = buf; *p == '0' || *p == ':'; p++)
		;
	*empty = *p == '\0';
	return true;
}

/* The GRH's source GID index against @port's table. */
static void check_sgid(struct line *l, struct ibv_context *ctx, uint8_t port,
		       const struct ibv_port_attr *pa, uint8_t index)
{
	bool empty;

	if (index >= pa->gid_tbl_len) {
		line_clause(l);
		line_add(l, "sgid_index %u is beyond port %u's GID table of %d",
			 index, port, pa->gid_tbl_len);
		return;
	}
	if (gid_empty(ctx, port, index, &empty) && empty) {
		line_clause(l);
		line_add(l, "sgid_index %u of port %u is an empty GID entry",
			 index, port);
	}
}

/*
 * What an address vector needs of its port: that it exists and is
 * active, and, with a GRH, a source GID that exists; RoCE needs the GRH.
 */
static void check_av(struct line *l, struct ibv_context *ctx,
		     const struct ibv_ah_attr *av)
{
	struct ibv_port_attr pa;

	memset(&pa, 0, sizeof(pa));
	if (get_ops(ctx)->query_port(ctx, av->port_num, &pa)) {
		line_clause(l);
		line_add(l, "port_num %u is not a port of the device",
			 av->port_num);
		return;
	}
	if (pa.state != IBV_PORT_ACTIVE) {
		line_clause(l);
		line_add(l, "port %u is %s", av->port_num,
			 ibv_port_state_str(pa.state));
	}
	if (av->is_global)
		check_sgid(l, ctx, av->port_num, &pa, av->grh.sgid_index);
	else if (pa.link_layer == IBV_LINK_LAYER_ETHERNET) {
		line_clause(l);
		line_add(l, "port %u is Ethernet (RoCE): is_global must be set",
			 av->port_num);
	}
}

void explain_create_ah(struct ibv_context *ctx, const struct ibv_ah_attr *attr)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	check_av(&l, ctx, attr);
	line_emit(ctx, "create_ah", &l);
	errno = saved;
}

void explain_init_ah_from_wc(struct ibv_context *ctx, uint8_t port_num)
{
	int saved;
	struct ibv_port_attr pa;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	memset(&pa, 0, sizeof(pa));
	line_clause(&l);
	if (get_ops(ctx)->query_port(ctx, port_num, &pa))
		line_add(&l, "port_num %u is not a port of the device",
			 port_num);
	else if (pa.state != IBV_PORT_ACTIVE)
		line_add(&l, "port %u is %s", port_num,
			 ibv_port_state_str(pa.state));
	else
		l.clauses = 0;
	line_emit(ctx, "init_ah_from_wc", &l);
	errno = saved;
}

/*
 * The attribute-mask table of the IB specification's QP state machine,
 * as the kernel enforces it (ib_modify_qp_is_ok()): for each transition
 * that exists, per QP type, the bits it requires and the bits it also
 * allows. IBV_QP_STATE is always allowed. Types are slots of T_*.
 */
enum { T_RC, T_UC, T_UD, T_RAW, T_XSEND, T_XRECV, T_NR };

struct transition {
	bool valid;
	uint32_t req[T_NR];
	uint32_t opt[T_NR];
};

#define B(x) IBV_QP_##x
/* Connected types at INIT: where, and what the peer may do. */
#define CONN_INIT (B(PKEY_INDEX) | B(PORT) | B(ACCESS_FLAGS))
#define UD_INIT (B(PKEY_INDEX) | B(PORT) | B(QKEY))
/* INIT->RTR: the remote end; RC also its responder resources. */
#define UC_RTR (B(AV) | B(PATH_MTU) | B(DEST_QPN) | B(RQ_PSN))
#define RC_RTR (UC_RTR | B(MAX_DEST_RD_ATOMIC) | B(MIN_RNR_TIMER))
#define RTR_OPT (B(ALT_PATH) | B(ACCESS_FLAGS) | B(PKEY_INDEX))
/* RTR->RTS: the requester's side. */
#define RC_RTS                                                  \
	(B(TIMEOUT) | B(RETRY_CNT) | B(RNR_RETRY) | B(SQ_PSN) | \
	 B(MAX_QP_RD_ATOMIC))
/* What may change on the way into RTS and while there. */
#define UD_RTS_OPT (B(CUR_STATE) | B(QKEY))
#define UC_RTS_OPT \
	(B(CUR_STATE) | B(ALT_PATH) | B(ACCESS_FLAGS) | B(PATH_MIG_STATE))
#define RC_RTS_OPT (UC_RTS_OPT | B(MIN_RNR_TIMER))
/* SQD->SQD: the path may be rebuilt while the send queue is drained. */
#define UC_SQD_OPT                                               \
	(B(AV) | B(ALT_PATH) | B(ACCESS_FLAGS) | B(PKEY_INDEX) | \
	 B(PATH_MIG_STATE))
#define XSEND_SQD_OPT                                                      \
	(UC_SQD_OPT | B(PORT) | B(TIMEOUT) | B(RETRY_CNT) | B(RNR_RETRY) | \
	 B(MAX_QP_RD_ATOMIC))
#define RC_SQD_OPT (XSEND_SQD_OPT | B(MAX_DEST_RD_ATOMIC) | B(MIN_RNR_TIMER))
#define XRECV_SQD_OPT                                                \
	(UC_SQD_OPT | B(PORT) | B(TIMEOUT) | B(MAX_DEST_RD_ATOMIC) | \
	 B(MIN_RNR_TIMER))

/* Designators: the optional bits into RTS (and at RTS); INIT's bits. */
#define TO_RTS_OPT                                                     \
	[T_RC] = RC_RTS_OPT, [T_UC] = UC_RTS_OPT, [T_UD] = UD_RTS_OPT, \
	[T_XSEND] = UC_RTS_OPT, [T_XRECV] = RC_RTS_OPT
#define INIT_SET                                                  \
	[T_RC] = CONN_INIT, [T_UC] = CONN_INIT, [T_UD] = UD_INIT, \
	[T_XSEND] = CONN_INIT, [T_XRECV] = CONN_INIT

/* Raw packet QPs need a port, and may only set a rate limit at RTS. */
static const struct transition transitions[IBV_QPS_ERR + 1][IBV_QPS_ERR + 1] = {
	[IBV_QPS_RESET] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_INIT] = {
			.valid = true,
			.req = { INIT_SET, [T_RAW] = B(PORT) },
		},
	},
	[IBV_QPS_INIT] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
		[IBV_QPS_INIT] = { .valid = true, .opt = { INIT_SET } },
		[IBV_QPS_RTR] = {
			.valid = true,
			.req = { [T_RC] = RC_RTR, [T_UC] = UC_RTR,
				 [T_XSEND] = UC_RTR, [T_XRECV] = RC_RTR },
			.opt = { [T_RC] = RTR_OPT, [T_UC] = RTR_OPT,
				 [T_UD] = B(PKEY_INDEX) | B(QKEY),
				 [T_XSEND] = RTR_OPT, [T_XRECV] = RTR_OPT },
		},
	},
	[IBV_QPS_RTR] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
		[IBV_QPS_RTS] = {
			.valid = true,
			.req = { [T_RC] = RC_RTS, [T_UC] = B(SQ_PSN),
				 [T_UD] = B(SQ_PSN), [T_XSEND] = RC_RTS,
				 [T_XRECV] = B(TIMEOUT) | B(SQ_PSN) },
			.opt = { TO_RTS_OPT, [T_RAW] = B(RATE_LIMIT) },
		},
	},
	[IBV_QPS_RTS] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
		[IBV_QPS_RTS] = {
			.valid = true,
			.opt = { TO_RTS_OPT, [T_RAW] = B(RATE_LIMIT) },
		},
		[IBV_QPS_SQD] = {
			.valid = true,
			.opt = { [T_RC] = B(EN_SQD_ASYNC_NOTIFY),
				 [T_UC] = B(EN_SQD_ASYNC_NOTIFY),
				 [T_UD] = B(EN_SQD_ASYNC_NOTIFY),
				 [T_XSEND] = B(EN_SQD_ASYNC_NOTIFY),
				 [T_XRECV] = B(EN_SQD_ASYNC_NOTIFY) },
		},
	},
	[IBV_QPS_SQD] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
		[IBV_QPS_RTS] = { .valid = true, .opt = { TO_RTS_OPT } },
		[IBV_QPS_SQD] = {
			.valid = true,
			.opt = { [T_RC] = RC_SQD_OPT, [T_UC] = UC_SQD_OPT,
				 [T_UD] = B(PKEY_INDEX) | B(QKEY),
				 [T_XSEND] = XSEND_SQD_OPT,
				 [T_XRECV] = XRECV_SQD_OPT },
		},
	},
	[IBV_QPS_SQE] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
		[IBV_QPS_RTS] = {
			.valid = true,
			.opt = { [T_UC] = B(CUR_STATE) | B(ACCESS_FLAGS),
				 [T_UD] = UD_RTS_OPT },
		},
	},
	[IBV_QPS_ERR] = {
		[IBV_QPS_RESET] = { .valid = true },
		[IBV_QPS_ERR] = { .valid = true },
	},
};

static int type_slot(enum ibv_qp_type type)
{
	switch (type) {
	case IBV_QPT_RC:
		return T_RC;
	case IBV_QPT_UC:
		return T_UC;
	case IBV_QPT_UD:
		return T_UD;
	case IBV_QPT_RAW_PACKET:
		return T_RAW;
	case IBV_QPT_XRC_SEND:
		return T_XSEND;
	case IBV_QPT_XRC_RECV:
		return T_XRECV;
	default:
		return -1;
	}
}

static const char *const state_names[] = {
	[IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT",
	[IBV_QPS_RTR] = "RTR",	   [IBV_QPS_RTS] = "RTS",
	[IBV_QPS_SQD] = "SQD",	   [IBV_QPS_SQE] = "SQE",
	[IBV_QPS_ERR] = "ERR",
};

static const char *const mask_names[] = {
	"IBV_QP_STATE",
	"IBV_QP_CUR_STATE",
	"IBV_QP_EN_SQD_ASYNC_NOTIFY",
	"IBV_QP_ACCESS_FLAGS",
	"IBV_QP_PKEY_INDEX",
	"IBV_QP_PORT",
	"IBV_QP_QKEY",
	"IBV_QP_AV",
	"IBV_QP_PATH_MTU",
	"IBV_QP_TIMEOUT",
	"IBV_QP_RETRY_CNT",
	"IBV_QP_RNR_RETRY",
	"IBV_QP_RQ_PSN",
	"IBV_QP_MAX_QP_RD_ATOMIC",
	"IBV_QP_ALT_PATH",
	"IBV_QP_MIN_RNR_TIMER",
	"IBV_QP_SQ_PSN",
	"IBV_QP_MAX_DEST_RD_ATOMIC",
	"IBV_QP_PATH_MIG_STATE",
	"IBV_QP_CAP",
	"IBV_QP_DEST_QPN",
	[25] = "IBV_QP_RATE_LIMIT",
};

/* "IBV_QP_AV, IBV_QP_DEST_QPN": the names of @bits, lowest first. */
static void add_bits(struct line *l, uint32_t bits)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < 32; i++) {
		if (!(bits & (1u << i)))
			continue;
		if (i < ARRAY_SIZE(mask_names) && mask_names[i])
			line_add(l, "%s%s", sep, mask_names[i]);
		else
			line_add(l, "%sbit %u", sep, i);
		sep = ", ";
	}
}

/* The mask against the table; true if the transition exists. */
static bool check_mask(struct line *l, enum ibv_qp_state cur,
		       enum ibv_qp_state next, enum ibv_qp_type type,
		       uint32_t mask)
{
	const struct transition *t = &transitions[cur][next];
	int slot = type_slot(type);
	uint32_t req, opt, lacks, extra;

	if (!t->valid) {
		line_clause(l);
		line_add(l, "%s->%s is not a transition", state_names[cur],
			 state_names[next]);
		return false;
	}
	if (slot < 0)
		return true;
	req = t->req[slot];
	opt = t->opt[slot];
	lacks = req & ~mask;
	extra = mask & ~(req | opt | B(STATE));
	if (!lacks && !extra)
		return true;
	line_clause(l);
	line_add(l, "%s->%s for %s ", state_names[cur], state_names[next],
		 qp_type_name(type));
	if (lacks) {
		line_add(l, "lacks ");
		add_bits(l, lacks);
	}
	if (extra) {
		line_add(l, "%sdoes not allow ", lacks ? "; " : "");
		add_bits(l, extra);
	}
	return true;
}

void explain_modify_qp(struct ibv_qp *qp, const struct ibv_qp_attr *attr,
		       int mask)
{
	int saved;
	enum ibv_qp_state cur, next;
	struct line l;
	char obj[24];

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	/* As the kernel decides: the caller's claim, else what we know. */
	cur = mask & IBV_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IBV_QP_STATE ? attr->qp_state : cur;
	if ((unsigned int)cur > IBV_QPS_ERR || (unsigned int)next > IBV_QPS_ERR)
		goto out;
	if (check_mask(&l, cur, next, qp->qp_type, (uint32_t)mask) &&
	    (mask & IBV_QP_AV))
		check_av(&l, qp->context, &attr->ah_attr);
	snprintf(obj, sizeof(obj), " qp 0x%x", qp->qp_num);
	line_emit_obj(qp->context, "modify_qp", obj, &l);
out:
	errno = saved;
}
#undef B
/* The core ioctl methods, each with the verb that sends it. */
struct method {
	uint16_t object, method;
	const char *name, *verb;
};

#define METHOD(obj, m, verb)                                     \
	{                                                        \
		UVERBS_OBJECT_##obj, UVERBS_METHOD_##m, #m, verb \
	}
static const struct method methods[] = {
	METHOD(DEVICE, INVOKE_WRITE, "write_command"),
	METHOD(DEVICE, INFO_HANDLES, "info_handles"),
	METHOD(DEVICE, QUERY_PORT, "query_port"),
	METHOD(DEVICE, GET_CONTEXT, "open_device"),
	METHOD(DEVICE, QUERY_CONTEXT, "import_device"),
	METHOD(DEVICE, QUERY_GID_TABLE, "query_gid_table"),
	METHOD(DEVICE, QUERY_GID_ENTRY, "query_gid_ex"),
	METHOD(PD, PD_DESTROY, "dealloc_pd"),
	METHOD(CQ, CQ_CREATE, "create_cq"),
	METHOD(CQ, CQ_DESTROY, "destroy_cq"),
	METHOD(QP, QP_CREATE, "create_qp"),
	METHOD(QP, QP_DESTROY, "destroy_qp"),
	METHOD(SRQ, SRQ_CREATE, "create_srq"),
	METHOD(SRQ, SRQ_DESTROY, "destroy_srq"),
	METHOD(AH, AH_DESTROY, "destroy_ah"),
	METHOD(MR, DM_MR_REG, "reg_dm_mr"),
	METHOD(MR, MR_DESTROY, "dereg_mr"),
	METHOD(MR, ADVISE_MR, "advise_mr"),
	METHOD(MR, QUERY_MR, "query_mr"),
	METHOD(MR, REG_DMABUF_MR, "reg_dmabuf_mr"),
	METHOD(MW, MW_DESTROY, "dealloc_mw"),
	METHOD(FLOW, FLOW_DESTROY, "destroy_flow"),
	METHOD(XRCD, XRCD_DESTROY, "close_xrcd"),
	METHOD(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY, "destroy_rwq_ind_table"),
	METHOD(WQ, WQ_CREATE, "create_wq"),
	METHOD(WQ, WQ_DESTROY, "destroy_wq"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_CREATE, "create_flow_action_esp"),
	METHOD(FLOW_ACTION, FLOW_ACTION_DESTROY, "destroy_flow_action"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_MODIFY, "modify_flow_action_esp"),
	METHOD(DM, DM_ALLOC, "alloc_dm"),
	METHOD(DM, DM_FREE, "free_dm"),
	METHOD(COUNTERS, COUNTERS_CREATE, "create_counters"),
	METHOD(COUNTERS, COUNTERS_DESTROY, "destroy_counters"),
	METHOD(COUNTERS, COUNTERS_READ, "read_counters"),
	METHOD(ASYNC_EVENT, ASYNC_EVENT_ALLOC, "open_device"),
};
#undef METHOD

static const char *const object_names[] = {
	[UVERBS_OBJECT_DEVICE] = "DEVICE",
	[UVERBS_OBJECT_PD] = "PD",
	[UVERBS_OBJECT_COMP_CHANNEL] = "COMP_CHANNEL",
	[UVERBS_OBJECT_CQ] = "CQ",
	[UVERBS_OBJECT_QP] = "QP",
	[UVERBS_OBJECT_SRQ] = "SRQ",
	[UVERBS_OBJECT_AH] = "AH",
	[UVERBS_OBJECT_MR] = "MR",
	[UVERBS_OBJECT_MW] = "MW",
	[UVERBS_OBJECT_FLOW] = "FLOW",
	[UVERBS_OBJECT_XRCD] = "XRCD",
	[UVERBS_OBJECT_RWQ_IND_TBL] = "RWQ_IND_TBL",
	[UVERBS_OBJECT_WQ] = "WQ",
	[UVERBS_OBJECT_FLOW_ACTION] = "FLOW_ACTION",
	[UVERBS_OBJECT_DM] = "DM",
	[UVERBS_OBJECT_COUNTERS] = "COUNTERS",
	[UVERBS_OBJECT_ASYNC_EVENT] = "ASYNC_EVENT",
};

static const struct method *find_method(uint16_t object, uint16_t method)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(methods); i++)
		if (methods[i].object == object && methods[i].method == method)
			return &methods[i];
	return NULL;
}

/*
 * "COUNTERS/CREATE": the method's name without its object's prefix
 * (UVERBS_METHOD_COUNTERS_CREATE); numbers for a driver's own methods.
 */
static void add_method(struct line *l, uint16_t object, uint16_t method,
		       const struct method *m)
{
	const char *oname = NULL, *mname;
	size_t olen;

	if (object < ARRAY_SIZE(object_names))
		oname = object_names[object];
	if (!m || !oname) {
		line_add(l, "0x%x/0x%x", object, method);
		return;
	}
	olen = strlen(oname);
	mname = m->name;
	if (!strncmp(mname, oname, olen) && mname[olen] == '_')
		mname += olen + 1;
	line_add(l, "%s/%s", oname, mname);
}

void explain_no_method(struct ibv_context *ctx, uint16_t object_id,
		       uint16_t method_id)
{
	int saved;
	const struct method *m;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	m = find_method(object_id, method_id);
	line_clause(&l);
	if (atomic_load_explicit(&get_priv(ctx)->no_ioctl,
				 memory_order_relaxed))
		line_add(&l, "the kernel has no ioctl interface, needed for ");
	else
		line_add(&l, "the kernel has no ioctl method ");
	add_method(&l, object_id, method_id, m);
	line_emit(ctx, m ? m->verb : "ioctl", &l);
	errno = saved;
}
