// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of queue pairs: create, query, modify, destroy, the
 * enhanced connection establishment data, and multicast membership. Like
 * rdma-core 44 they do not check their arguments; they keep the few core
 * fields the provider does not (a QP's state after a modify or query).
 */
#include <errno.h>
#include <pthread.h>

#include "context.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "verbs_qp.h"

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

		explain_create_qp(pd->context, pd, &ex);
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
		explain_create_qp(context, NULL, attr);
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

	if (vqp->comp_mask & VERBS_QP_EX)
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
