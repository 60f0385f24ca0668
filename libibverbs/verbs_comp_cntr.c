// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of completion counters (rdma-core 65, IBVERBS_1.18): the
 * device's limits, create and destroy, set, add and read each of a
 * counter's two values, and the attachment to a QP. Each dispatches to
 * the provider's op (a provider without counters has the EOPNOTSUPP
 * dummies), as 65.0 does; the kernel commands behind the ops are
 * cmd_comp_cntr.c's.
 *
 * 65.0 follows a NULL argument into a crash; here it is EINVAL, and so is
 * a counter handed to a QP of another context, whose handle would name
 * some other counter there (or none). A comp_mask bit at creation is
 * EOPNOTSUPP: none is defined, and the core method takes no attribute a
 * provider could give it meaning with. A failure explains itself at
 * VERBS_LOG_LEVEL 3 (explain_comp_cntr.c).
 */
#include <errno.h>
#include <string.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "util.h"

/*
 * _ibv_query_comp_cntr_caps - the device's completion counter limits, for
 * the inline ibv_query_comp_cntr_caps()
 * @context: the context
 * @caps: zeroed over @caps_size, then filled by the provider
 * @caps_size: the caller's sizeof(*caps); the provider refuses one
 *             smaller than it knows (ibv_cmd_query_comp_cntr_caps():
 *             EINVAL), and a larger one reads 0 past what it fills
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int _ibv_query_comp_cntr_caps(struct ibv_context *context,
					 struct ibv_comp_cntr_caps *caps,
					 size_t caps_size)
{
	int ret;

	if (!context)
		return with_errno(EINVAL);
	if (!caps) {
		explain_comp_cntr_null(context, "query_comp_cntr_caps", "caps");
		return with_errno(EINVAL);
	}
	memset(caps, 0, caps_size);
	ret = get_ops(context)->query_comp_cntr_caps(context, caps, caps_size);
	if (ret)
		explain_query_comp_cntr_caps(context, caps_size, ret);
	return ret;
}

/**
 * ibv_create_comp_cntr - a new completion counter
 * @context: the context
 * @cc_attr: its type (work requests or bytes) and flags; comp_mask 0
 *
 * Returns the counter, or NULL with errno set.
 */
IBV_EXPORT struct ibv_comp_cntr *
ibv_create_comp_cntr(struct ibv_context *context,
		     struct ibv_comp_cntr_init_attr *cc_attr)
{
	struct ibv_comp_cntr *cc;

	if (!context) {
		errno = EINVAL;
		return NULL;
	}
	if (!cc_attr) {
		explain_comp_cntr_null(context, "create_comp_cntr", "cc_attr");
		errno = EINVAL;
		return NULL;
	}
	if (cc_attr->comp_mask) {
		errno = EOPNOTSUPP;
		explain_create_comp_cntr(context, cc_attr);
		return NULL;
	}
	cc = get_ops(context)->create_comp_cntr(context, cc_attr);
	if (!cc)
		explain_create_comp_cntr(context, cc_attr);
	return cc;
}

/* Destroys @comp_cntr, which no QP may still have; 0 or a positive errno. */
IBV_EXPORT int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)
{
	if (!comp_cntr)
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->destroy_comp_cntr(comp_cntr);
}

/*
 * The four updates and the two reads: 0 or a positive errno value each.
 * A counter's context is where its op lives.
 */
IBV_EXPORT int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				 uint64_t value)
{
	if (!comp_cntr)
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->set_comp_cntr(comp_cntr, value);
}

IBV_EXPORT int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				     uint64_t value)
{
	if (!comp_cntr)
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->set_err_comp_cntr(comp_cntr, value);
}

IBV_EXPORT int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				 uint64_t amount)
{
	if (!comp_cntr)
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->inc_comp_cntr(comp_cntr, amount);
}

IBV_EXPORT int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				     uint64_t amount)
{
	if (!comp_cntr)
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->inc_err_comp_cntr(comp_cntr, amount);
}

/* A read's arguments: both given. */
static bool read_args_ok(struct ibv_comp_cntr *comp_cntr, uint64_t *value,
			 const char *verb)
{
	if (!comp_cntr)
		return false;
	if (!value) {
		explain_comp_cntr_null(comp_cntr->context, verb, "value");
		return false;
	}
	return true;
}

IBV_EXPORT int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				  uint64_t *value)
{
	if (!read_args_ok(comp_cntr, value, "read_comp_cntr"))
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->read_comp_cntr(comp_cntr, value);
}

IBV_EXPORT int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr,
				      uint64_t *value)
{
	if (!read_args_ok(comp_cntr, value, "read_err_comp_cntr"))
		return with_errno(EINVAL);
	return get_ops(comp_cntr->context)->read_err_comp_cntr(comp_cntr, value);
}

/**
 * ibv_qp_attach_comp_cntr - count some of a QP's completions
 * @qp: the QP, in RESET or INIT
 * @comp_cntr: a counter of the same context
 * @attr: the operations counted (op_mask); comp_mask 0
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int
ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr,
			struct ibv_qp_attach_comp_cntr_attr *attr)
{
	int ret;

	if (!qp)
		return with_errno(EINVAL);
	if (!comp_cntr || !attr) {
		explain_comp_cntr_null(qp->context, "qp_attach_comp_cntr",
				       comp_cntr ? "attr" : "comp_cntr");
		return with_errno(EINVAL);
	}
	if (comp_cntr->context != qp->context) {
		explain_qp_attach_comp_cntr(qp, comp_cntr, attr, EINVAL);
		return with_errno(EINVAL);
	}
	ret = get_ops(qp->context)->qp_attach_comp_cntr(qp, comp_cntr, attr);
	if (ret)
		explain_qp_attach_comp_cntr(qp, comp_cntr, attr, ret);
	return ret;
}
