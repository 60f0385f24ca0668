/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Compile-time checks of the uverbs write() ABI: the kernel's request and
 * response structs from the system's <rdma/ib_user_verbs.h>, and the
 * requests of <infiniband/kern-abi.h> built on them.
 *
 * Debian's binary providers embed these structs in their own, at the
 * sizes rdma-core 44 gave them, and the core writes through pointers to
 * them. A newer header that grows a request or a response must therefore
 * fail the build here, not silently write past a provider's struct. The
 * member checks also hold kern-abi.h's untagged copies of the kernel's
 * member lists to the kernel's own offsets and sizes.
 *
 * Every constant used is in Linux 6.1's headers, the oldest we build
 * with, so no fallbacks are needed yet; one would go here, under #ifndef.
 */
#ifndef IBV_KABI_VERBS_H
#define IBV_KABI_VERBS_H

#include <assert.h>
#include <stddef.h>
#include <rdma/ib_user_verbs.h>
#include <infiniband/kern-abi.h>

#define KABI_MEMBER_SIZE(type, m) sizeof(((struct type *)0)->m)

/* The headers in front of a basic and of an extended request. */
#define KABI_HDR 8
#define KABI_EX_HDR 24

#define KABI_SIZE(type, size) \
	static_assert(sizeof(struct type) == (size), #type " size")

/* A request: its whole size, and the kernel part right after the header. */
#define KABI_CMD(cmd, kstruct, hdr, size)                             \
	static_assert(sizeof(struct cmd) == (size) &&                 \
			      sizeof(struct cmd) ==                   \
				      (hdr) + sizeof(struct kstruct), \
		      #cmd " size");                                  \
	static_assert(offsetof(struct cmd, core_payload) == (hdr),    \
		      #cmd ".core_payload offset")

/* A member of a request's untagged copy, against the kernel's. */
#define KABI_MEMBER(cmd, kstruct, hdr, m)                                    \
	static_assert(offsetof(struct cmd, m) ==                             \
				      (hdr) + offsetof(struct kstruct, m) && \
			      KABI_MEMBER_SIZE(cmd, m) ==                    \
				      KABI_MEMBER_SIZE(kstruct, m),          \
		      #cmd "." #m)

/* A trailing flexible array has no size; only where it starts counts. */
#define KABI_FLEX(cmd, kstruct, hdr, m)                            \
	static_assert(offsetof(struct cmd, m) ==                   \
			      (hdr) + offsetof(struct kstruct, m), \
		      #cmd "." #m)

KABI_SIZE(ib_uverbs_cmd_hdr, 8);
static_assert(offsetof(struct ib_uverbs_cmd_hdr, in_words) == 4, "in_words");
static_assert(offsetof(struct ib_uverbs_cmd_hdr, out_words) == 6, "out_words");
KABI_SIZE(ib_uverbs_ex_cmd_hdr, 16);
static_assert(offsetof(struct ib_uverbs_ex_cmd_hdr, provider_in_words) == 8,
	      "provider_in_words");
static_assert(offsetof(struct ib_uverbs_ex_cmd_hdr, cmd_hdr_reserved) == 12,
	      "cmd_hdr_reserved");
KABI_SIZE(ex_hdr, KABI_EX_HDR);
static_assert(offsetof(struct ex_hdr, ex_hdr) == KABI_HDR, "ex_hdr.ex_hdr");

/* The command numbers the write path sends. */
static_assert(IB_USER_VERBS_CMD_FLAG_EXTENDED == 0x80000000u, "EXTENDED");
static_assert(IB_USER_VERBS_CMD_COMMAND_MASK == 0xff, "COMMAND_MASK");
#define KABI_CMD_NUM(name, n) \
	static_assert(IB_USER_VERBS_CMD_##name == (n), #name)
#define KABI_EX_CMD_NUM(name, n) \
	static_assert(IB_USER_VERBS_EX_CMD_##name == (n), "EX_" #name)

KABI_CMD_NUM(GET_CONTEXT, 0);
KABI_CMD_NUM(QUERY_DEVICE, 1);
KABI_CMD_NUM(QUERY_PORT, 2);
KABI_CMD_NUM(ALLOC_PD, 3);
KABI_CMD_NUM(DEALLOC_PD, 4);
KABI_CMD_NUM(CREATE_AH, 5);
KABI_CMD_NUM(DESTROY_AH, 8);
KABI_CMD_NUM(REG_MR, 9);
KABI_CMD_NUM(REREG_MR, 11);
KABI_CMD_NUM(DEREG_MR, 13);
KABI_CMD_NUM(ALLOC_MW, 14);
KABI_CMD_NUM(DEALLOC_MW, 16);
KABI_CMD_NUM(CREATE_COMP_CHANNEL, 17);
KABI_CMD_NUM(CREATE_CQ, 18);
KABI_CMD_NUM(RESIZE_CQ, 19);
KABI_CMD_NUM(DESTROY_CQ, 20);
KABI_CMD_NUM(POLL_CQ, 21);
KABI_CMD_NUM(REQ_NOTIFY_CQ, 23);
KABI_CMD_NUM(CREATE_QP, 24);
KABI_CMD_NUM(QUERY_QP, 25);
KABI_CMD_NUM(MODIFY_QP, 26);
KABI_CMD_NUM(DESTROY_QP, 27);
KABI_CMD_NUM(POST_SEND, 28);
KABI_CMD_NUM(POST_RECV, 29);
KABI_CMD_NUM(ATTACH_MCAST, 30);
KABI_CMD_NUM(DETACH_MCAST, 31);
KABI_CMD_NUM(CREATE_SRQ, 32);
KABI_CMD_NUM(MODIFY_SRQ, 33);
KABI_CMD_NUM(QUERY_SRQ, 34);
KABI_CMD_NUM(DESTROY_SRQ, 35);
KABI_CMD_NUM(POST_SRQ_RECV, 36);
KABI_CMD_NUM(OPEN_XRCD, 37);
KABI_CMD_NUM(CLOSE_XRCD, 38);
KABI_CMD_NUM(CREATE_XSRQ, 39);
KABI_CMD_NUM(OPEN_QP, 40);

KABI_EX_CMD_NUM(QUERY_DEVICE, 1);
KABI_EX_CMD_NUM(CREATE_CQ, 18);
KABI_EX_CMD_NUM(CREATE_QP, 24);
KABI_EX_CMD_NUM(MODIFY_QP, 26);
KABI_EX_CMD_NUM(CREATE_FLOW, 50);
KABI_EX_CMD_NUM(DESTROY_FLOW, 51);
KABI_EX_CMD_NUM(CREATE_WQ, 52);
KABI_EX_CMD_NUM(MODIFY_WQ, 53);
KABI_EX_CMD_NUM(DESTROY_WQ, 54);
KABI_EX_CMD_NUM(CREATE_RWQ_IND_TBL, 55);
KABI_EX_CMD_NUM(DESTROY_RWQ_IND_TBL, 56);
KABI_EX_CMD_NUM(MODIFY_CQ, 57);

/* The kernel request structs, as Linux 6.1 and rdma-core 44 have them. */
KABI_SIZE(ib_uverbs_get_context, 8);
KABI_SIZE(ib_uverbs_query_device, 8);
KABI_SIZE(ib_uverbs_query_port, 16);
KABI_SIZE(ib_uverbs_alloc_pd, 8);
KABI_SIZE(ib_uverbs_dealloc_pd, 4);
KABI_SIZE(ib_uverbs_create_ah, 56);
KABI_SIZE(ib_uverbs_destroy_ah, 4);
KABI_SIZE(ib_uverbs_reg_mr, 40);
KABI_SIZE(ib_uverbs_rereg_mr, 48);
KABI_SIZE(ib_uverbs_dereg_mr, 4);
KABI_SIZE(ib_uverbs_alloc_mw, 16);
KABI_SIZE(ib_uverbs_dealloc_mw, 4);
KABI_SIZE(ib_uverbs_create_comp_channel, 8);
KABI_SIZE(ib_uverbs_create_cq, 32);
KABI_SIZE(ib_uverbs_resize_cq, 16);
KABI_SIZE(ib_uverbs_destroy_cq, 16);
KABI_SIZE(ib_uverbs_poll_cq, 16);
KABI_SIZE(ib_uverbs_req_notify_cq, 8);
KABI_SIZE(ib_uverbs_create_qp, 56);
KABI_SIZE(ib_uverbs_query_qp, 16);
KABI_SIZE(ib_uverbs_modify_qp, 112);
KABI_SIZE(ib_uverbs_destroy_qp, 16);
KABI_SIZE(ib_uverbs_post_send, 24);
KABI_SIZE(ib_uverbs_post_recv, 24);
KABI_SIZE(ib_uverbs_attach_mcast, 24);
KABI_SIZE(ib_uverbs_detach_mcast, 24);
KABI_SIZE(ib_uverbs_create_srq, 32);
KABI_SIZE(ib_uverbs_modify_srq, 16);
KABI_SIZE(ib_uverbs_query_srq, 16);
KABI_SIZE(ib_uverbs_destroy_srq, 16);
KABI_SIZE(ib_uverbs_post_srq_recv, 24);
KABI_SIZE(ib_uverbs_open_xrcd, 16);
KABI_SIZE(ib_uverbs_close_xrcd, 4);
KABI_SIZE(ib_uverbs_create_xsrq, 48);
KABI_SIZE(ib_uverbs_open_qp, 32);
KABI_SIZE(ib_uverbs_ex_query_device, 8);
KABI_SIZE(ib_uverbs_ex_create_cq, 32);
KABI_SIZE(ib_uverbs_ex_create_qp, 64);
KABI_SIZE(ib_uverbs_ex_modify_qp, 120);
KABI_SIZE(ib_uverbs_create_flow, 24);
KABI_SIZE(ib_uverbs_destroy_flow, 8);
KABI_SIZE(ib_uverbs_ex_create_wq, 40);
KABI_SIZE(ib_uverbs_ex_modify_wq, 24);
KABI_SIZE(ib_uverbs_ex_destroy_wq, 8);
KABI_SIZE(ib_uverbs_ex_create_rwq_ind_table, 8);
KABI_SIZE(ib_uverbs_ex_destroy_rwq_ind_table, 8);
KABI_SIZE(ib_uverbs_ex_modify_cq, 16);

/* The responses, which providers embed first in their own. */
KABI_SIZE(ib_uverbs_alloc_mw_resp, 8);
KABI_SIZE(ib_uverbs_alloc_pd_resp, 4);
KABI_SIZE(ib_uverbs_create_ah_resp, 4);
KABI_SIZE(ib_uverbs_create_comp_channel_resp, 4);
KABI_SIZE(ib_uverbs_create_cq_resp, 8);
KABI_SIZE(ib_uverbs_create_flow_resp, 8);
KABI_SIZE(ib_uverbs_create_qp_resp, 32);
KABI_SIZE(ib_uverbs_create_srq_resp, 16);
KABI_SIZE(ib_uverbs_destroy_cq_resp, 8);
KABI_SIZE(ib_uverbs_destroy_qp_resp, 4);
KABI_SIZE(ib_uverbs_destroy_srq_resp, 4);
KABI_SIZE(ib_uverbs_ex_create_cq_resp, 16);
KABI_SIZE(ib_uverbs_ex_create_qp_resp, 40);
KABI_SIZE(ib_uverbs_ex_create_rwq_ind_table_resp, 16);
KABI_SIZE(ib_uverbs_ex_create_wq_resp, 24);
KABI_SIZE(ib_uverbs_ex_destroy_wq_resp, 16);
KABI_SIZE(ib_uverbs_ex_modify_qp_resp, 8);
KABI_SIZE(ib_uverbs_ex_query_device_resp, 304);
KABI_SIZE(ib_uverbs_get_context_resp, 8);
KABI_SIZE(ib_uverbs_open_xrcd_resp, 4);
KABI_SIZE(ib_uverbs_poll_cq_resp, 8);
KABI_SIZE(ib_uverbs_post_recv_resp, 4);
KABI_SIZE(ib_uverbs_post_send_resp, 4);
KABI_SIZE(ib_uverbs_post_srq_recv_resp, 4);
KABI_SIZE(ib_uverbs_query_device_resp, 176);
KABI_SIZE(ib_uverbs_query_port_resp, 40);
KABI_SIZE(ib_uverbs_query_qp_resp, 128);
KABI_SIZE(ib_uverbs_query_srq_resp, 16);
KABI_SIZE(ib_uverbs_reg_mr_resp, 12);
KABI_SIZE(ib_uverbs_rereg_mr_resp, 8);
KABI_SIZE(ib_uverbs_resize_cq_resp, 8);

/*
 * Each request of kern-abi.h: its size, where the kernel part starts, and
 * each member of the untagged copy against the kernel's struct.
 */
KABI_CMD(ibv_get_context, ib_uverbs_get_context, KABI_HDR, 16);
KABI_MEMBER(ibv_get_context, ib_uverbs_get_context, KABI_HDR, response);
KABI_FLEX(ibv_get_context, ib_uverbs_get_context, KABI_HDR, driver_data);

KABI_CMD(ibv_query_device, ib_uverbs_query_device, KABI_HDR, 16);
KABI_MEMBER(ibv_query_device, ib_uverbs_query_device, KABI_HDR, response);
KABI_FLEX(ibv_query_device, ib_uverbs_query_device, KABI_HDR, driver_data);

KABI_CMD(ibv_query_port, ib_uverbs_query_port, KABI_HDR, 24);
KABI_MEMBER(ibv_query_port, ib_uverbs_query_port, KABI_HDR, response);
KABI_MEMBER(ibv_query_port, ib_uverbs_query_port, KABI_HDR, port_num);
KABI_MEMBER(ibv_query_port, ib_uverbs_query_port, KABI_HDR, reserved);
KABI_FLEX(ibv_query_port, ib_uverbs_query_port, KABI_HDR, driver_data);

KABI_CMD(ibv_alloc_pd, ib_uverbs_alloc_pd, KABI_HDR, 16);
KABI_MEMBER(ibv_alloc_pd, ib_uverbs_alloc_pd, KABI_HDR, response);
KABI_FLEX(ibv_alloc_pd, ib_uverbs_alloc_pd, KABI_HDR, driver_data);

KABI_CMD(ibv_dealloc_pd, ib_uverbs_dealloc_pd, KABI_HDR, 12);
KABI_MEMBER(ibv_dealloc_pd, ib_uverbs_dealloc_pd, KABI_HDR, pd_handle);

KABI_CMD(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, 64);
KABI_MEMBER(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, response);
KABI_MEMBER(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, user_handle);
KABI_MEMBER(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, reserved);
KABI_MEMBER(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, attr);
KABI_FLEX(ibv_create_ah, ib_uverbs_create_ah, KABI_HDR, driver_data);

KABI_CMD(ibv_destroy_ah, ib_uverbs_destroy_ah, KABI_HDR, 12);
KABI_MEMBER(ibv_destroy_ah, ib_uverbs_destroy_ah, KABI_HDR, ah_handle);

KABI_CMD(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, 48);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, response);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, start);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, length);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, hca_va);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, access_flags);
KABI_FLEX(ibv_reg_mr, ib_uverbs_reg_mr, KABI_HDR, driver_data);

KABI_CMD(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, 56);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, response);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, mr_handle);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, flags);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, start);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, length);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, hca_va);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, access_flags);
KABI_FLEX(ibv_rereg_mr, ib_uverbs_rereg_mr, KABI_HDR, driver_data);

KABI_CMD(ibv_dereg_mr, ib_uverbs_dereg_mr, KABI_HDR, 12);
KABI_MEMBER(ibv_dereg_mr, ib_uverbs_dereg_mr, KABI_HDR, mr_handle);

KABI_CMD(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, 24);
KABI_MEMBER(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, response);
KABI_MEMBER(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, mw_type);
KABI_MEMBER(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, reserved);
KABI_FLEX(ibv_alloc_mw, ib_uverbs_alloc_mw, KABI_HDR, driver_data);

KABI_CMD(ibv_dealloc_mw, ib_uverbs_dealloc_mw, KABI_HDR, 12);
KABI_MEMBER(ibv_dealloc_mw, ib_uverbs_dealloc_mw, KABI_HDR, mw_handle);

KABI_CMD(ibv_create_comp_channel, ib_uverbs_create_comp_channel, KABI_HDR, 16);
KABI_MEMBER(ibv_create_comp_channel, ib_uverbs_create_comp_channel, KABI_HDR,
	    response);

KABI_CMD(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, 40);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, response);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, user_handle);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, cqe);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, comp_vector);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, comp_channel);
KABI_MEMBER(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, reserved);
KABI_FLEX(ibv_create_cq, ib_uverbs_create_cq, KABI_HDR, driver_data);

KABI_CMD(ibv_resize_cq, ib_uverbs_resize_cq, KABI_HDR, 24);
KABI_MEMBER(ibv_resize_cq, ib_uverbs_resize_cq, KABI_HDR, response);
KABI_MEMBER(ibv_resize_cq, ib_uverbs_resize_cq, KABI_HDR, cq_handle);
KABI_MEMBER(ibv_resize_cq, ib_uverbs_resize_cq, KABI_HDR, cqe);
KABI_FLEX(ibv_resize_cq, ib_uverbs_resize_cq, KABI_HDR, driver_data);

KABI_CMD(ibv_destroy_cq, ib_uverbs_destroy_cq, KABI_HDR, 24);
KABI_MEMBER(ibv_destroy_cq, ib_uverbs_destroy_cq, KABI_HDR, response);
KABI_MEMBER(ibv_destroy_cq, ib_uverbs_destroy_cq, KABI_HDR, cq_handle);
KABI_MEMBER(ibv_destroy_cq, ib_uverbs_destroy_cq, KABI_HDR, reserved);

KABI_CMD(ibv_poll_cq, ib_uverbs_poll_cq, KABI_HDR, 24);
KABI_MEMBER(ibv_poll_cq, ib_uverbs_poll_cq, KABI_HDR, response);
KABI_MEMBER(ibv_poll_cq, ib_uverbs_poll_cq, KABI_HDR, cq_handle);
KABI_MEMBER(ibv_poll_cq, ib_uverbs_poll_cq, KABI_HDR, ne);

KABI_CMD(ibv_req_notify_cq, ib_uverbs_req_notify_cq, KABI_HDR, 16);
KABI_MEMBER(ibv_req_notify_cq, ib_uverbs_req_notify_cq, KABI_HDR, cq_handle);
KABI_MEMBER(ibv_req_notify_cq, ib_uverbs_req_notify_cq, KABI_HDR,
	    solicited_only);

KABI_CMD(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, 64);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, response);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, user_handle);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, send_cq_handle);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, recv_cq_handle);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, srq_handle);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, max_send_wr);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, max_recv_wr);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, max_send_sge);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, max_recv_sge);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, max_inline_data);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, sq_sig_all);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, qp_type);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, is_srq);
KABI_MEMBER(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, reserved);
KABI_FLEX(ibv_create_qp, ib_uverbs_create_qp, KABI_HDR, driver_data);

KABI_CMD(ibv_query_qp, ib_uverbs_query_qp, KABI_HDR, 24);
KABI_MEMBER(ibv_query_qp, ib_uverbs_query_qp, KABI_HDR, response);
KABI_MEMBER(ibv_query_qp, ib_uverbs_query_qp, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_query_qp, ib_uverbs_query_qp, KABI_HDR, attr_mask);
KABI_FLEX(ibv_query_qp, ib_uverbs_query_qp, KABI_HDR, driver_data);

KABI_CMD(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, 120);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, dest);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, alt_dest);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, attr_mask);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, qkey);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, rq_psn);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, sq_psn);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, dest_qp_num);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, qp_access_flags);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, pkey_index);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, alt_pkey_index);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, qp_state);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, cur_qp_state);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, path_mtu);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, path_mig_state);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, en_sqd_async_notify);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, max_rd_atomic);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, max_dest_rd_atomic);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, min_rnr_timer);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, port_num);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, timeout);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, retry_cnt);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, rnr_retry);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, alt_port_num);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, alt_timeout);
KABI_MEMBER(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, reserved);
KABI_FLEX(ibv_modify_qp, ib_uverbs_modify_qp, KABI_HDR, driver_data);

KABI_CMD(ibv_destroy_qp, ib_uverbs_destroy_qp, KABI_HDR, 24);
KABI_MEMBER(ibv_destroy_qp, ib_uverbs_destroy_qp, KABI_HDR, response);
KABI_MEMBER(ibv_destroy_qp, ib_uverbs_destroy_qp, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_destroy_qp, ib_uverbs_destroy_qp, KABI_HDR, reserved);

KABI_CMD(ibv_post_send, ib_uverbs_post_send, KABI_HDR, 32);
KABI_MEMBER(ibv_post_send, ib_uverbs_post_send, KABI_HDR, response);
KABI_MEMBER(ibv_post_send, ib_uverbs_post_send, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_post_send, ib_uverbs_post_send, KABI_HDR, wr_count);
KABI_MEMBER(ibv_post_send, ib_uverbs_post_send, KABI_HDR, sge_count);
KABI_MEMBER(ibv_post_send, ib_uverbs_post_send, KABI_HDR, wqe_size);
KABI_FLEX(ibv_post_send, ib_uverbs_post_send, KABI_HDR, send_wr);

KABI_CMD(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, 32);
KABI_MEMBER(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, response);
KABI_MEMBER(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, wr_count);
KABI_MEMBER(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, sge_count);
KABI_MEMBER(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, wqe_size);
KABI_FLEX(ibv_post_recv, ib_uverbs_post_recv, KABI_HDR, recv_wr);

KABI_CMD(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, 32);
KABI_MEMBER(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, gid);
KABI_MEMBER(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, mlid);
KABI_MEMBER(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, reserved);
KABI_FLEX(ibv_attach_mcast, ib_uverbs_attach_mcast, KABI_HDR, driver_data);

KABI_CMD(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, 32);
KABI_MEMBER(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, gid);
KABI_MEMBER(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, qp_handle);
KABI_MEMBER(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, mlid);
KABI_MEMBER(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, reserved);
KABI_FLEX(ibv_detach_mcast, ib_uverbs_detach_mcast, KABI_HDR, driver_data);

KABI_CMD(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, 40);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, response);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, user_handle);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, max_wr);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, max_sge);
KABI_MEMBER(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, srq_limit);
KABI_FLEX(ibv_create_srq, ib_uverbs_create_srq, KABI_HDR, driver_data);

KABI_CMD(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, 24);
KABI_MEMBER(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, srq_handle);
KABI_MEMBER(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, attr_mask);
KABI_MEMBER(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, max_wr);
KABI_MEMBER(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, srq_limit);
KABI_FLEX(ibv_modify_srq, ib_uverbs_modify_srq, KABI_HDR, driver_data);

KABI_CMD(ibv_query_srq, ib_uverbs_query_srq, KABI_HDR, 24);
KABI_MEMBER(ibv_query_srq, ib_uverbs_query_srq, KABI_HDR, response);
KABI_MEMBER(ibv_query_srq, ib_uverbs_query_srq, KABI_HDR, srq_handle);
KABI_MEMBER(ibv_query_srq, ib_uverbs_query_srq, KABI_HDR, reserved);
KABI_FLEX(ibv_query_srq, ib_uverbs_query_srq, KABI_HDR, driver_data);

KABI_CMD(ibv_destroy_srq, ib_uverbs_destroy_srq, KABI_HDR, 24);
KABI_MEMBER(ibv_destroy_srq, ib_uverbs_destroy_srq, KABI_HDR, response);
KABI_MEMBER(ibv_destroy_srq, ib_uverbs_destroy_srq, KABI_HDR, srq_handle);
KABI_MEMBER(ibv_destroy_srq, ib_uverbs_destroy_srq, KABI_HDR, reserved);

KABI_CMD(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, 32);
KABI_MEMBER(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, response);
KABI_MEMBER(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, srq_handle);
KABI_MEMBER(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, wr_count);
KABI_MEMBER(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, sge_count);
KABI_MEMBER(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, wqe_size);
KABI_FLEX(ibv_post_srq_recv, ib_uverbs_post_srq_recv, KABI_HDR, recv);

KABI_CMD(ibv_open_xrcd, ib_uverbs_open_xrcd, KABI_HDR, 24);
KABI_MEMBER(ibv_open_xrcd, ib_uverbs_open_xrcd, KABI_HDR, response);
KABI_MEMBER(ibv_open_xrcd, ib_uverbs_open_xrcd, KABI_HDR, fd);
KABI_MEMBER(ibv_open_xrcd, ib_uverbs_open_xrcd, KABI_HDR, oflags);
KABI_FLEX(ibv_open_xrcd, ib_uverbs_open_xrcd, KABI_HDR, driver_data);

KABI_CMD(ibv_close_xrcd, ib_uverbs_close_xrcd, KABI_HDR, 12);
KABI_MEMBER(ibv_close_xrcd, ib_uverbs_close_xrcd, KABI_HDR, xrcd_handle);

KABI_CMD(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, 56);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, response);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, user_handle);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, srq_type);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, max_wr);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, max_sge);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, srq_limit);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, max_num_tags);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, xrcd_handle);
KABI_MEMBER(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, cq_handle);
KABI_FLEX(ibv_create_xsrq, ib_uverbs_create_xsrq, KABI_HDR, driver_data);

KABI_CMD(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, 40);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, response);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, user_handle);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, pd_handle);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, qpn);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, qp_type);
KABI_MEMBER(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, reserved);
KABI_FLEX(ibv_open_qp, ib_uverbs_open_qp, KABI_HDR, driver_data);

KABI_CMD(ibv_query_device_ex, ib_uverbs_ex_query_device, KABI_EX_HDR, 32);
KABI_MEMBER(ibv_query_device_ex, ib_uverbs_ex_query_device, KABI_EX_HDR,
	    comp_mask);
KABI_MEMBER(ibv_query_device_ex, ib_uverbs_ex_query_device, KABI_EX_HDR,
	    reserved);

KABI_CMD(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, 56);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, user_handle);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, cqe);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, comp_vector);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR,
	    comp_channel);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, flags);
KABI_MEMBER(ibv_create_cq_ex, ib_uverbs_ex_create_cq, KABI_EX_HDR, reserved);

KABI_CMD(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, 88);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, user_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, pd_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    send_cq_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    recv_cq_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, srq_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, max_send_wr);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, max_recv_wr);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    max_send_sge);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    max_recv_sge);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    max_inline_data);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, sq_sig_all);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, qp_type);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, is_srq);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, reserved);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    create_flags);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR,
	    rwq_ind_tbl_handle);
KABI_MEMBER(ibv_create_qp_ex, ib_uverbs_ex_create_qp, KABI_EX_HDR, source_qpn);

KABI_CMD(ibv_modify_qp_ex, ib_uverbs_ex_modify_qp, KABI_EX_HDR, 144);
KABI_MEMBER(ibv_modify_qp_ex, ib_uverbs_ex_modify_qp, KABI_EX_HDR, base);
KABI_MEMBER(ibv_modify_qp_ex, ib_uverbs_ex_modify_qp, KABI_EX_HDR, rate_limit);
KABI_MEMBER(ibv_modify_qp_ex, ib_uverbs_ex_modify_qp, KABI_EX_HDR, reserved);

KABI_CMD(ibv_create_flow, ib_uverbs_create_flow, KABI_EX_HDR, 48);
KABI_MEMBER(ibv_create_flow, ib_uverbs_create_flow, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_create_flow, ib_uverbs_create_flow, KABI_EX_HDR, qp_handle);
KABI_MEMBER(ibv_create_flow, ib_uverbs_create_flow, KABI_EX_HDR, flow_attr);

KABI_CMD(ibv_destroy_flow, ib_uverbs_destroy_flow, KABI_EX_HDR, 32);
KABI_MEMBER(ibv_destroy_flow, ib_uverbs_destroy_flow, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_destroy_flow, ib_uverbs_destroy_flow, KABI_EX_HDR, flow_handle);

KABI_CMD(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, 64);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, wq_type);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, user_handle);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, pd_handle);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, cq_handle);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, max_wr);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, max_sge);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, create_flags);
KABI_MEMBER(ibv_create_wq, ib_uverbs_ex_create_wq, KABI_EX_HDR, reserved);

KABI_CMD(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, 48);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, attr_mask);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, wq_handle);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, wq_state);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, curr_wq_state);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, flags);
KABI_MEMBER(ibv_modify_wq, ib_uverbs_ex_modify_wq, KABI_EX_HDR, flags_mask);

KABI_CMD(ibv_destroy_wq, ib_uverbs_ex_destroy_wq, KABI_EX_HDR, 32);
KABI_MEMBER(ibv_destroy_wq, ib_uverbs_ex_destroy_wq, KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_destroy_wq, ib_uverbs_ex_destroy_wq, KABI_EX_HDR, wq_handle);

KABI_CMD(ibv_create_rwq_ind_table, ib_uverbs_ex_create_rwq_ind_table,
	 KABI_EX_HDR, 32);
KABI_MEMBER(ibv_create_rwq_ind_table, ib_uverbs_ex_create_rwq_ind_table,
	    KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_create_rwq_ind_table, ib_uverbs_ex_create_rwq_ind_table,
	    KABI_EX_HDR, log_ind_tbl_size);
KABI_FLEX(ibv_create_rwq_ind_table, ib_uverbs_ex_create_rwq_ind_table,
	  KABI_EX_HDR, wq_handles);

KABI_CMD(ibv_destroy_rwq_ind_table, ib_uverbs_ex_destroy_rwq_ind_table,
	 KABI_EX_HDR, 32);
KABI_MEMBER(ibv_destroy_rwq_ind_table, ib_uverbs_ex_destroy_rwq_ind_table,
	    KABI_EX_HDR, comp_mask);
KABI_MEMBER(ibv_destroy_rwq_ind_table, ib_uverbs_ex_destroy_rwq_ind_table,
	    KABI_EX_HDR, ind_tbl_handle);

KABI_CMD(ibv_modify_cq, ib_uverbs_ex_modify_cq, KABI_EX_HDR, 40);
KABI_MEMBER(ibv_modify_cq, ib_uverbs_ex_modify_cq, KABI_EX_HDR, cq_handle);
KABI_MEMBER(ibv_modify_cq, ib_uverbs_ex_modify_cq, KABI_EX_HDR, attr_mask);
KABI_MEMBER(ibv_modify_cq, ib_uverbs_ex_modify_cq, KABI_EX_HDR, attr);
KABI_MEMBER(ibv_modify_cq, ib_uverbs_ex_modify_cq, KABI_EX_HDR, reserved);

/* The ABI 3 request keeps its own struct and size. */
KABI_SIZE(ib_uverbs_modify_srq_v3, 24);
KABI_SIZE(ibv_modify_srq_v3, KABI_HDR + 24);
static_assert(IB_USER_VERBS_CMD_MODIFY_SRQ_V3 == 33, "MODIFY_SRQ_V3");
KABI_SIZE(ibv_kern_spec_ipv4, 24);

#endif
