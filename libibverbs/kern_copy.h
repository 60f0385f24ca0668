/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Copies between the public structs and the kernel's layouts of them:
 * the address-vector conversions and QP field lists the command layer
 * shares, and the copies of kern_copy.c, exported because librdmacm
 * imports them but declared in no installed header, as in rdma-core 44.
 */
#ifndef IBV_KERN_COPY_H
#define IBV_KERN_COPY_H

#include <string.h>

#include <infiniband/verbs.h>

struct ib_uverbs_qp_attr;
struct ib_uverbs_ah_attr;
struct ib_user_path_rec;
struct ibv_sa_path_rec;

void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst,
				struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst,
				struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst,
				 struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst,
			       struct ibv_sa_path_rec *src);

/*
 * An address vector between struct ibv_ah_attr (@attr) and either of
 * the kernel's layouts of it: struct ib_uverbs_ah_attr (CREATE_AH, and
 * the QP attributes the rdma_cm passes) and struct ib_uverbs_qp_dest
 * (QUERY_QP, MODIFY_QP). Both use the public field names and differ only
 * in where the GRH fields sit, so the kernel form is named twice: @kav
 * the struct, @kgrh its grh member, or the struct itself for a
 * qp_dest. The kernel form's reserved bytes are left as they are: a
 * request to the kernel starts zeroed.
 *
 * AV_FIELDS() lists each field once, as OP(public, kernel), for the two
 * directions below (SET_KERN and SET_PUB serve every such list); the
 * GID, an array, is copied apart.
 */
#define AV_FIELDS(OP, attr, kav, kgrh)                                    \
	OP((attr)->grh.flow_label, (kgrh)->flow_label),                   \
		OP((attr)->grh.sgid_index, (kgrh)->sgid_index),           \
		OP((attr)->grh.hop_limit, (kgrh)->hop_limit),             \
		OP((attr)->grh.traffic_class, (kgrh)->traffic_class),     \
		OP((attr)->dlid, (kav)->dlid), OP((attr)->sl, (kav)->sl), \
		OP((attr)->src_path_bits, (kav)->src_path_bits),          \
		OP((attr)->static_rate, (kav)->static_rate),              \
		OP((attr)->is_global, (kav)->is_global),                  \
		OP((attr)->port_num, (kav)->port_num)

#define SET_KERN(pub, kern) ((kern) = (pub))
#define SET_PUB(pub, kern) ((pub) = (kern))

/*
 * struct ibv_qp_cap, which every kernel QP struct that carries it (the
 * create request and answer, the query answer, struct ib_uverbs_qp_attr)
 * holds loose under the same names. OP(public, kernel), as above.
 * Each list is one comma expression, so it stands wherever a statement
 * may.
 */
#define QP_CAP_FIELDS(OP, cap, kqp)                           \
	OP((cap)->max_send_wr, (kqp)->max_send_wr),           \
		OP((cap)->max_recv_wr, (kqp)->max_recv_wr),   \
		OP((cap)->max_send_sge, (kqp)->max_send_sge), \
		OP((cap)->max_recv_sge, (kqp)->max_recv_sge), \
		OP((cap)->max_inline_data, (kqp)->max_inline_data)

/*
 * The QP attributes both of the kernel's answers about a QP carry under
 * the public names: QUERY_QP's and struct ib_uverbs_qp_attr, which the
 * rdma_cm passes. What only one of them has (qp_state the query,
 * en_sqd_async_notify the rdma_cm's) and the address vectors, whose
 * members differ in shape, the callers copy themselves.
 */
#define QP_ATTR_FIELDS(OP, attr, kqp)                                      \
	OP((attr)->cur_qp_state, (kqp)->cur_qp_state),                     \
		OP((attr)->path_mtu, (kqp)->path_mtu),                     \
		OP((attr)->path_mig_state, (kqp)->path_mig_state),         \
		OP((attr)->qkey, (kqp)->qkey),                             \
		OP((attr)->rq_psn, (kqp)->rq_psn),                         \
		OP((attr)->sq_psn, (kqp)->sq_psn),                         \
		OP((attr)->dest_qp_num, (kqp)->dest_qp_num),               \
		OP((attr)->qp_access_flags, (kqp)->qp_access_flags),       \
		OP((attr)->pkey_index, (kqp)->pkey_index),                 \
		OP((attr)->alt_pkey_index, (kqp)->alt_pkey_index),         \
		OP((attr)->sq_draining, (kqp)->sq_draining),               \
		OP((attr)->max_rd_atomic, (kqp)->max_rd_atomic),           \
		OP((attr)->max_dest_rd_atomic, (kqp)->max_dest_rd_atomic), \
		OP((attr)->min_rnr_timer, (kqp)->min_rnr_timer),           \
		OP((attr)->port_num, (kqp)->port_num),                     \
		OP((attr)->timeout, (kqp)->timeout),                       \
		OP((attr)->retry_cnt, (kqp)->retry_cnt),                   \
		OP((attr)->rnr_retry, (kqp)->rnr_retry),                   \
		OP((attr)->alt_port_num, (kqp)->alt_port_num),             \
		OP((attr)->alt_timeout, (kqp)->alt_timeout),               \
		QP_CAP_FIELDS(OP, &(attr)->cap, kqp)

#define AV_TO_KERN(kav, kgrh, attr)                        \
	do {                                               \
		memcpy((kgrh)->dgid, (attr)->grh.dgid.raw, \
		       sizeof((kgrh)->dgid));              \
		AV_FIELDS(SET_KERN, attr, kav, kgrh);      \
	} while (0)

#define AV_FROM_KERN(attr, kav, kgrh)                      \
	do {                                               \
		memcpy((attr)->grh.dgid.raw, (kgrh)->dgid, \
		       sizeof((kgrh)->dgid));              \
		AV_FIELDS(SET_PUB, attr, kav, kgrh);       \
	} while (0)

#endif
