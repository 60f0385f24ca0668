// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a completion counter verb failed (explain.h): an argument left
 * NULL, a caps struct smaller than the library's, mask bits no release
 * defines, attach ops the device does not report, a counter of another
 * context, a QP past INIT.
 */
#include <errno.h>
#include <stdint.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "explain_line.h"

/* Every op bit the verbs define: they run from SEND up to this one. */
#define OPS_DEFINED \
	((uint32_t)IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE * 2 - 1)

void explain_comp_cntr_null(struct ibv_context *ctx, const char *verb,
			    const char *what)
{
	explain_one(ctx, verb, "%s is NULL", what);
}

void explain_query_comp_cntr_caps(struct ibv_context *ctx, size_t caps_size,
				  int err)
{
	if (err == EINVAL && caps_size < sizeof(struct ibv_comp_cntr_caps))
		explain_one(ctx, "query_comp_cntr_caps",
			    "caps_size %zu < %zu, this library's struct",
			    caps_size, sizeof(struct ibv_comp_cntr_caps));
}

/* A clause for @mask's bits outside @known, named @what. */
static void unknown_bits(struct line *l, const char *what, uint32_t mask,
			 uint32_t known)
{
	if (!(mask & ~known))
		return;
	line_clause(l);
	line_add(l, "%s 0x%x has bits no release defines (0x%x)", what, mask,
		 mask & ~known);
}

void explain_create_comp_cntr(struct ibv_context *ctx,
			      const struct ibv_comp_cntr_init_attr *attr)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	unknown_bits(&l, "comp_mask", attr->comp_mask, 0);
	unknown_bits(&l, "flags", attr->flags, 0);
	if ((uint32_t)attr->type > IBV_COMP_CNTR_TYPE_BYTES) {
		line_clause(&l);
		line_add(&l, "type %u is neither WRS nor BYTES",
			 (unsigned int)attr->type);
	}
	line_emit(ctx, "create_comp_cntr", &l);
	errno = saved;
}

/* The attach ops asked for that the device does not report. */
static void unsupported_ops(struct line *l, struct ibv_context *ctx,
			    uint32_t op_mask)
{
	struct ibv_comp_cntr_caps caps = { 0 };
	uint32_t missing;

	if (get_ops(ctx)->query_comp_cntr_caps(ctx, &caps, sizeof(caps)))
		return;
	missing = op_mask & OPS_DEFINED & ~caps.supported_qp_attach_ops;
	if (!missing)
		return;
	line_clause(l);
	line_add(l,
		 "op_mask 0x%x asks for ops 0x%x the device does not "
		 "count (supported_qp_attach_ops 0x%x)",
		 op_mask, missing, caps.supported_qp_attach_ops);
}

void explain_qp_attach_comp_cntr(
	struct ibv_qp *qp, const struct ibv_comp_cntr *comp_cntr,
	const struct ibv_qp_attach_comp_cntr_attr *attr, int err)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	if (comp_cntr->context != qp->context) {
		line_clause(&l);
		line_add(&l, "the counter belongs to another context");
	}
	unknown_bits(&l, "comp_mask", attr->comp_mask, 0);
	unknown_bits(&l, "op_mask", attr->op_mask, OPS_DEFINED);
	/*
	 * The ops the device counts, where the kernel has the methods and
	 * refused what was asked (EOPNOTSUPP): asking a kernel without them
	 * would only log its own refusal.
	 */
	if (err == EOPNOTSUPP && comp_cntr->context == qp->context)
		unsupported_ops(&l, qp->context, attr->op_mask);
	/* The kernel attaches only before the QP is ready to receive. */
	if (err == EINVAL && qp->state != IBV_QPS_RESET &&
	    qp->state != IBV_QPS_INIT) {
		line_clause(&l);
		line_add(&l,
			 "the QP's state is %d, not RESET (%d) or INIT (%d)",
			 (int)qp->state, IBV_QPS_RESET, IBV_QPS_INIT);
	}
	line_emit(qp->context, "qp_attach_comp_cntr", &l);
	errno = saved;
}
