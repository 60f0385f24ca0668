/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Why a verb failed, in one line: the entry points of the explanation
 * layer, whose files are cut by object like the verbs (explain_qp.c,
 * explain_cq.c, explain_srq.c, explain_ah.c, explain_mr.c,
 * explain_comp_cntr.c, explain_port.c), beside
 * explain_open.c (a device that cannot be opened), explain_ioctl.c (a
 * method the kernel lacks) and explain_busy.c (an object still in use).
 * A leaf header (libibverbs/README.md): one header for the whole
 * layer, as driver.h is for the commands. Library-internal.
 *
 * A public verb calls one of these on its error path only, after the
 * provider has failed; each returns at once unless VERBS_LOG_LEVEL is at
 * least EXPLAIN_LEVEL (3, info, explain_line.h), and none changes errno.
 * errno and the verb's result stay what rdma-core 44 gives; only the log
 * gains a line. An explanation may ask the provider about the device,
 * its ports and sysfs about its GIDs, always through the context's
 * private op table and never through the public query verbs, which are
 * among its callers: that costs nothing on the data path and nothing in
 * a quiet run.
 *
 * Every line reads "<verb> on <device>: <cause>[; <cause>...]" and is
 * written only when a cause was found: a line always names a fact the
 * caller can check, never a guess.
 */
#ifndef IBV_EXPLAIN_H
#define IBV_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * create_qp: each capability over its device limit, a type the device
 * lacks. True when none of those explains an EINVAL: the caller may then
 * find the capability the provider or kernel refuses although the device
 * reports no limit it breaks (the inline size, for one) by creating the
 * QP again with one capability lowered at a time (verbs_qp.c's probe),
 * and have explain_create_qp_refused() word what it found; @probe holds
 * the device's limits for that. False, with nothing to do, otherwise.
 */
enum explain_qp_limit {
	EXPLAIN_QP_NO_LIMIT, /* a capability the device reports no limit for */
	EXPLAIN_QP_MAX_SGE,
	EXPLAIN_QP_MAX_QP_WR,
};
struct explain_qp_probe {
	int max_sge, max_qp_wr; /* the device's, from explain_create_qp() */
	const char *name; /* the refused capability, as the struct names it */
	uint32_t asked, taken; /* its value, and the lower one taken */
	enum explain_qp_limit limit; /* the device limit that covers it */
};
bool explain_create_qp(struct ibv_context *ctx,
		       const struct ibv_qp_init_attr_ex *attr,
		       struct explain_qp_probe *probe);
void explain_create_qp_refused(struct ibv_context *ctx,
			       const struct explain_qp_probe *probe);
/* create_srq: max_wr and max_sge over the device's SRQ limits. */
void explain_create_srq(struct ibv_context *ctx,
			const struct ibv_srq_attr *attr);
/* create_cq: cqe over max_cqe, a completion vector the context lacks. */
void explain_create_cq(struct ibv_context *ctx, uint32_t cqe,
		       uint32_t comp_vector);
/*
 * modify_qp: the transition against the IB specification's table of
 * required and allowed attribute-mask bits; with an AV, its port and GID.
 */
void explain_modify_qp(struct ibv_qp *qp, const struct ibv_qp_attr *attr,
		       int mask);
/* create_ah: the AV's port and GID index. */
void explain_create_ah(struct ibv_context *ctx, const struct ibv_ah_attr *attr);
/* init_ah_from_wc: the port the packet arrived on. */
void explain_init_ah_from_wc(struct ibv_context *ctx, uint8_t port_num);
/*
 * reg_mr, reg_dmabuf_mr, rereg_mr (@verb): after EINVAL or EOPNOTSUPP,
 * @access against the combinations the verbs forbid and the device's
 * on-demand paging; after ENOMEM and its kin, the @length bytes at @addr
 * against RLIMIT_MEMLOCK (no @addr: nothing pinned by the caller's
 * pages, as for a dma-buf).
 */
void explain_reg_mr(struct ibv_context *ctx, const char *verb, const void *addr,
		    size_t length, unsigned int access);
/*
 * ibv_reg_mr_ex(): unknown comp_mask bits, a comp_mask that is no form
 * of registration (EINVAL), then what explain_reg_mr() words. And a
 * buffer of ibv_alloc_buf() that cannot be registered so, with @why.
 */
void explain_reg_mr_ex(struct ibv_context *ctx,
		       const struct ibv_mr_init_attr *in);
void explain_reg_buf_mr(struct ibv_context *ctx, const char *why);
/* ibv_alloc_dmah(): comp_mask bits outside @known. */
void explain_alloc_dmah(struct ibv_context *ctx, uint32_t comp_mask,
			uint32_t known);
/*
 * ibv_query_port_speed() (explain_port.c): after @err, a provider
 * without the operation (@provider_op false), a port the device lacks;
 * and, from the command, a kernel whose driver refused the method with
 * EOPNOTSUPP.
 */
void explain_query_port_speed(struct ibv_context *ctx, uint32_t port_num,
			      int err, bool provider_op);
void explain_port_speed_refused(struct ibv_context *ctx, uint32_t port_num);
/*
 * open_device: opening @what (the uverbs node, the async event file)
 * failed with @err: descriptors against RLIMIT_NOFILE or the system's
 * table, permission (explain_open.c). errno is left @err.
 */
void explain_open_device(struct ibv_device *device, const char *what, int err);

/*
 * A buffer verb (@verb) the library refused before the provider saw it,
 * or whose default allocator failed, for the reason @why.
 */
void explain_buf(struct ibv_context *ctx, const char *verb, const char *why);
/*
 * export_buf_dmabuf_fd: no new descriptor for the buffer's dma-buf @fd,
 * for the reason errno holds (ENODATA: plain memory; EBADF; EMFILE).
 */
void explain_export_buf(struct ibv_context *ctx, int fd);

/* What explain_busy() is about. */
enum explain_kind {
	EXPLAIN_PD, /* @obj: unused, the PD's context is @ctx */
	EXPLAIN_CQ, /* @obj: the struct ibv_cq */
	EXPLAIN_SRQ, /* @obj: the struct ibv_srq */
	EXPLAIN_COMP_CHANNEL, /* @obj: an int, its CQs */
};

/*
 * A destroy that failed with EBUSY: what still uses the object, from the
 * kernel's resource tracking (RDMA netlink), a channel's CQs from its
 * count (explain_busy.c).
 */
void explain_busy(struct ibv_context *ctx, enum explain_kind kind, void *obj);
/* One reply of a resource dump, parsed as explain_busy() does (fuzz/). */
struct nl_msg;
size_t explain_busy_parse(struct nl_msg *msg, unsigned int kind);

/*
 * Completion counters (explain_comp_cntr.c): an argument @what of @verb
 * left NULL; a caps struct smaller than ours (@err the failure); mask
 * bits no release defines, a type unknown; attach ops the device does
 * not count, a counter of another context, a QP past INIT.
 */
void explain_comp_cntr_null(struct ibv_context *ctx, const char *verb,
			    const char *what);
void explain_query_comp_cntr_caps(struct ibv_context *ctx, size_t caps_size,
				  int err);
void explain_create_comp_cntr(struct ibv_context *ctx,
			      const struct ibv_comp_cntr_init_attr *attr);
void explain_qp_attach_comp_cntr(
	struct ibv_qp *qp, const struct ibv_comp_cntr *comp_cntr,
	const struct ibv_qp_attach_comp_cntr_attr *attr, int err);

/*
 * An ioctl method the kernel refused (ENOTTY: no ioctl at all;
 * EPROTONOSUPPORT: not this method) with no write() form to fall back to.
 */
void explain_no_method(struct ibv_context *ctx, uint16_t object_id,
		       uint16_t method_id);

#endif
