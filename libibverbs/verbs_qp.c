// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of queue pairs: create, query, modify, destroy, the
 * enhanced connection establishment data, and multicast membership. Like
 * rdma-core 44 they do not check their arguments; they keep the few core
 * fields the provider does not (a QP's state after a modify or query).
 * A failed creation is explained (explain_qp.c); where the device's
 * limits do not explain an EINVAL, the error path here creates the QP
 * again with one capability lowered at a time to find the one refused.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "util.h"
#include "verbs_qp.h"

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
 * After an EINVAL that the device's limits leave unexplained, each
 * capability in turn lowered to what any device takes, the others as
 * asked: the first whose lowering lets the QP be created is the one
 * refused, and explain_create_qp_refused() says so. A QP so created is
 * destroyed at once.
 */
static void probe_caps(struct ibv_context *ctx, struct ibv_pd *pd,
		       const struct ibv_qp_init_attr_ex *attr,
		       struct explain_qp_probe *p)
{
	static const struct {
		const char *name;
		size_t off;
		uint32_t low;
		enum explain_qp_limit limit;
		bool recv; /* unused with an SRQ */
	} caps[] = {
		{ "max_inline_data",
		  offsetof(struct ibv_qp_cap, max_inline_data), 0,
		  EXPLAIN_QP_NO_LIMIT, false },
		{ "max_send_sge", offsetof(struct ibv_qp_cap, max_send_sge), 1,
		  EXPLAIN_QP_MAX_SGE, false },
		{ "max_recv_sge", offsetof(struct ibv_qp_cap, max_recv_sge), 1,
		  EXPLAIN_QP_MAX_SGE, true },
		{ "max_send_wr", offsetof(struct ibv_qp_cap, max_send_wr), 1,
		  EXPLAIN_QP_MAX_QP_WR, false },
		{ "max_recv_wr", offsetof(struct ibv_qp_cap, max_recv_wr), 1,
		  EXPLAIN_QP_MAX_QP_WR, true },
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
		p->name = caps[i].name;
		p->asked = asked;
		p->taken = caps[i].low;
		p->limit = caps[i].limit;
		explain_create_qp_refused(ctx, p);
		return;
	}
}

/* A failed creation explained, errno kept; @pd as for create_again(). */
static void explain_failure(struct ibv_context *ctx, struct ibv_pd *pd,
			    const struct ibv_qp_init_attr_ex *attr)
{
	struct explain_qp_probe probe;
	int saved = errno;

	if (explain_create_qp(ctx, attr, &probe))
		probe_caps(ctx, pd, attr, &probe);
	errno = saved;
}

/**
 * ibv_create_qp - create a queue pair on @pd
 * Returns the QP, or NULL with errno set.
 */
VERBS_DEFAULT_VERSION(ibv_create_qp, "IBVERBS_1.1");
struct ibv_qp *ibv_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr)
{
	/* The provider and ibv_cmd_create_qp() set every field. */
	struct ibv_qp *qp = get_ops(pd->context)->create_qp(pd, qp_init_attr);

	if (!qp) {
		struct ibv_qp_init_attr_ex ex = {
			.qp_context = qp_init_attr->qp_context,
			.send_cq = qp_init_attr->send_cq,
			.recv_cq = qp_init_attr->recv_cq,
			.srq = qp_init_attr->srq,
			.cap = qp_init_attr->cap,
			.qp_type = qp_init_attr->qp_type,
			.sq_sig_all = qp_init_attr->sq_sig_all,
		};

		explain_failure(pd->context, pd, &ex);
	}
	return qp;
}

/*
 * The library's create_qp_ex, which context.c puts in every context's
 * slot for the inline ibv_create_qp_ex(): the provider's, explained.
 */
struct ibv_qp *verbs_create_qp_ex(struct ibv_context *context,
				  struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp *qp = get_ops(context)->create_qp_ex(context, attr);

	if (!qp)
		explain_failure(context, NULL, attr);
	return qp;
}

/**
 * ibv_query_qp - read @attr_mask attributes of @qp
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_query_qp, "IBVERBS_1.1");
int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
		 struct ibv_qp_init_attr *init_attr)
{
	int ret =
		get_ops(qp->context)->query_qp(qp, attr, attr_mask, init_attr);

	if (ret)
		return ret;
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

/**
 * ibv_modify_qp - change the @attr_mask attributes of @qp
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_modify_qp, "IBVERBS_1.1");
int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	int ret = get_ops(qp->context)->modify_qp(qp, attr, attr_mask);

	if (ret) {
		explain_modify_qp(qp, attr, attr_mask);
		return ret;
	}
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

/**
 * ibv_destroy_qp - destroy @qp
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_destroy_qp, "IBVERBS_1.1");
int ibv_destroy_qp(struct ibv_qp *qp)
{
	return get_ops(qp->context)->destroy_qp(qp);
}

/**
 * ibv_qp_to_qp_ex - the extended QP behind @qp
 * Returns NULL unless the provider created @qp with the work request API.
 */
IBV_EXPORT struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct verbs_qp *vqp = (struct verbs_qp *)qp;

	/* Where comp_mask is depends on the provider's release. */
	if (vqp_tail(qp->context, vqp)->comp_mask & VERBS_QP_EX)
		return &vqp->qp_ex;
	return NULL;
}

/**
 * ibv_query_ece - read the ECE options @qp is using
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	return get_ops(qp->context)->query_ece(qp, ece);
}

/**
 * ibv_set_ece - ask for the ECE options in @ece on @qp
 * Returns 0 or a positive errno value; EOPNOTSUPP without a vendor.
 */
IBV_EXPORT int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	if (!ece->vendor_id) {
		errno = EOPNOTSUPP;
		return EOPNOTSUPP;
	}
	return get_ops(qp->context)->set_ece(qp, ece);
}

/**
 * ibv_query_qp_data_in_order - whether @op's data lands in order
 * @flags: 0, or IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS
 *
 * With @flags 0, returns 1 if whole messages land in order, else 0 (also
 * for unknown flags); with RETURN_CAPS, the enum
 * ibv_query_qp_data_in_order_caps bits that hold, as rdma-core 56.1 does.
 */
IBV_EXPORT int ibv_query_qp_data_in_order(struct ibv_qp *qp,
					  enum ibv_wr_opcode op, uint32_t flags)
{
#if defined(__i386__) || defined(__x86_64__)
	int caps;

	if (flags & ~IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS)
		return 0;
	caps = get_ops(qp->context)->query_qp_data_in_order(qp, op, flags);
	/*
	 * A provider built for rdma-core 44 answers 0 or 1 (whole messages);
	 * whole messages in order imply every aligned 128-byte piece too.
	 */
	if (caps & IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG)
		caps |= IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES;
	if (!flags)
		return caps & IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG;
	return caps;
#else
	/* Elsewhere the CPU may see DMA writes out of order: never promise. */
	(void)qp;
	(void)op;
	(void)flags;
	return 0;
#endif
}

/**
 * ibv_attach_mcast - join @qp to the multicast group @gid, @lid
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_attach_mcast, "IBVERBS_1.1");
int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return get_ops(qp->context)->attach_mcast(qp, gid, lid);
}

/**
 * ibv_detach_mcast - take @qp out of the multicast group @gid, @lid
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_detach_mcast, "IBVERBS_1.1");
int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return get_ops(qp->context)->detach_mcast(qp, gid, lid);
}
