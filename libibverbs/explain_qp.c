// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a queue pair was not created or not modified (explain.h): its
 * capabilities against the device's limits, its type against the
 * device's transport, and a modify's attribute mask against the QP state
 * machine, with the address vector checked by explain_ah.c. What the
 * limits leave unexplained, verbs_qp.c finds by creating the QP again
 * (its probe); this file only words what it found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "explain_ah.h"
#include "explain_line.h"
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

bool explain_create_qp(struct ibv_context *ctx,
		       const struct ibv_qp_init_attr_ex *attr,
		       struct explain_qp_probe *probe)
{
	int saved;
	struct ibv_device_attr_ex ex;
	const struct ibv_device_attr *a = &ex.orig_attr;
	const struct ibv_qp_cap *cap = &attr->cap;
	bool unexplained = false;
	struct line l;

	if (!explain_enabled())
		return false;
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
	if (!l.clauses && saved == EINVAL) {
		/* The caller probes, then explain_create_qp_refused(). */
		probe->max_sge = a->max_sge;
		probe->max_qp_wr = a->max_qp_wr;
		unexplained = true;
	} else {
		line_emit(ctx, "create_qp", &l);
	}
out:
	errno = saved;
	return unexplained;
}

void explain_create_qp_refused(struct ibv_context *ctx,
			       const struct explain_qp_probe *probe)
{
	struct line l;

	line_start(&l);
	line_clause(&l);
	line_add(&l, "%s %u is refused (%u is taken)", probe->name,
		 probe->asked, probe->taken);
	if (probe->limit == EXPLAIN_QP_MAX_SGE)
		line_add(&l, ", though the device reports max_sge %d",
			 probe->max_sge);
	else if (probe->limit == EXPLAIN_QP_MAX_QP_WR)
		line_add(&l, ", though the device reports max_qp_wr %d",
			 probe->max_qp_wr);
	else
		line_add(&l, ", a limit the device does not report");
	line_emit(ctx, "create_qp", &l);
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
		explain_av(&l, qp->context, &attr->ah_attr);
	snprintf(obj, sizeof(obj), " qp 0x%x", qp->qp_num);
	line_emit_obj(qp->context, "modify_qp", obj, &l);
out:
	errno = saved;
}
#undef B
