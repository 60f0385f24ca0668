/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The requests of the uverbs write() interface as rdma-core 44 lays them
 * out, published for providers as <infiniband/kern-abi.h>.
 *
 * A request is the 8-byte struct ib_uverbs_cmd_hdr (an extended command:
 * struct ex_hdr, 24 bytes) followed by the kernel's request struct for the
 * command, from the system's <rdma/ib_user_verbs.h>. A provider appends
 * its own driver data by embedding struct ibv_<cmd> first in a larger
 * struct, and its response struct embeds the kernel's ib_uverbs_*_resp
 * first; Debian's binary providers were compiled that way, so the size of
 * each struct here and where its kernel part starts are fixed.
 *
 * The kernel part is a union of the kernel's struct (core_payload) and an
 * untagged struct with the same members, so that cmd->core_payload.cqe
 * and cmd->cqe name the same bytes. The member lists repeat the kernel's;
 * kernel-headers/kabi_verbs.h checks every one of them against
 * <rdma/ib_user_verbs.h> at build time.
 *
 * The command numbers and the response structs are the kernel's and are
 * not repeated here. The comment above each request names its command
 * ("X" is IB_USER_VERBS_CMD_X, "EX X" is IB_USER_VERBS_EX_CMD_X) and, after
 * "->", the struct the kernel answers with.
 */
#ifndef IBV_KERN_ABI_H
#define IBV_KERN_ABI_H

#include <stddef.h>
#include <linux/types.h>
#include <rdma/ib_user_verbs.h>

/* The range of the global uverbs ABI version the write path speaks. */
#define IB_USER_VERBS_MIN_ABI_VERSION 3
#define IB_USER_VERBS_MAX_ABI_VERSION 6

/* The two headers of an extended command, in front of its request. */
struct ex_hdr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_ex_cmd_hdr ex_hdr;
};

/* Basic commands, in the order of their numbers. */

/* GET_CONTEXT -> ib_uverbs_get_context_resp */
struct ibv_get_context {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_get_context core_payload;
	};
};

/* QUERY_DEVICE -> ib_uverbs_query_device_resp */
struct ibv_query_device {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_query_device core_payload;
	};
};

/* QUERY_PORT -> ib_uverbs_query_port_resp */
struct ibv_query_port {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u8 port_num;
			__u8 reserved[7];
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_query_port core_payload;
	};
};

/* ALLOC_PD -> ib_uverbs_alloc_pd_resp */
struct ibv_alloc_pd {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_alloc_pd core_payload;
	};
};

/* DEALLOC_PD, no response */
struct ibv_dealloc_pd {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 pd_handle;
		};
		struct ib_uverbs_dealloc_pd core_payload;
	};
};

/* CREATE_AH -> ib_uverbs_create_ah_resp */
struct ibv_create_ah {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 reserved;
			struct ib_uverbs_ah_attr attr;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_create_ah core_payload;
	};
};

/* DESTROY_AH, no response */
struct ibv_destroy_ah {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 ah_handle;
		};
		struct ib_uverbs_destroy_ah core_payload;
	};
};

/* REG_MR -> ib_uverbs_reg_mr_resp */
struct ibv_reg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 start;
			__aligned_u64 length;
			__aligned_u64 hca_va;
			__u32 pd_handle;
			__u32 access_flags;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_reg_mr core_payload;
	};
};

/* REREG_MR -> ib_uverbs_rereg_mr_resp */
struct ibv_rereg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 mr_handle;
			__u32 flags;
			__aligned_u64 start;
			__aligned_u64 length;
			__aligned_u64 hca_va;
			__u32 pd_handle;
			__u32 access_flags;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_rereg_mr core_payload;
	};
};

/* DEREG_MR, no response */
struct ibv_dereg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 mr_handle;
		};
		struct ib_uverbs_dereg_mr core_payload;
	};
};

/* ALLOC_MW -> ib_uverbs_alloc_mw_resp */
struct ibv_alloc_mw {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 pd_handle;
			__u8 mw_type;
			__u8 reserved[3];
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_alloc_mw core_payload;
	};
};

/* DEALLOC_MW, no response */
struct ibv_dealloc_mw {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 mw_handle;
		};
		struct ib_uverbs_dealloc_mw core_payload;
	};
};

/* CREATE_COMP_CHANNEL -> ib_uverbs_create_comp_channel_resp */
struct ibv_create_comp_channel {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
		};
		struct ib_uverbs_create_comp_channel core_payload;
	};
};

/* CREATE_CQ -> ib_uverbs_create_cq_resp */
struct ibv_create_cq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 cqe;
			__u32 comp_vector;
			__s32 comp_channel;
			__u32 reserved;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_create_cq core_payload;
	};
};

/* RESIZE_CQ -> ib_uverbs_resize_cq_resp */
struct ibv_resize_cq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 cq_handle;
			__u32 cqe;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_resize_cq core_payload;
	};
};

/* DESTROY_CQ -> ib_uverbs_destroy_cq_resp */
struct ibv_destroy_cq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 cq_handle;
			__u32 reserved;
		};
		struct ib_uverbs_destroy_cq core_payload;
	};
};

/* POLL_CQ -> ib_uverbs_poll_cq_resp */
struct ibv_poll_cq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 cq_handle;
			__u32 ne;
		};
		struct ib_uverbs_poll_cq core_payload;
	};
};

/* REQ_NOTIFY_CQ, no response */
struct ibv_req_notify_cq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 cq_handle;
			__u32 solicited_only;
		};
		struct ib_uverbs_req_notify_cq core_payload;
	};
};

/* CREATE_QP -> ib_uverbs_create_qp_resp */
struct ibv_create_qp {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 send_cq_handle;
			__u32 recv_cq_handle;
			__u32 srq_handle;
			__u32 max_send_wr;
			__u32 max_recv_wr;
			__u32 max_send_sge;
			__u32 max_recv_sge;
			__u32 max_inline_data;
			__u8 sq_sig_all;
			__u8 qp_type;
			__u8 is_srq;
			__u8 reserved;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_create_qp core_payload;
	};
};

/* QUERY_QP -> ib_uverbs_query_qp_resp */
struct ibv_query_qp {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 qp_handle;
			__u32 attr_mask;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_query_qp core_payload;
	};
};

/* MODIFY_QP, no response */
struct ibv_modify_qp {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			struct ib_uverbs_qp_dest dest;
			struct ib_uverbs_qp_dest alt_dest;
			__u32 qp_handle;
			__u32 attr_mask;
			__u32 qkey;
			__u32 rq_psn;
			__u32 sq_psn;
			__u32 dest_qp_num;
			__u32 qp_access_flags;
			__u16 pkey_index;
			__u16 alt_pkey_index;
			__u8 qp_state;
			__u8 cur_qp_state;
			__u8 path_mtu;
			__u8 path_mig_state;
			__u8 en_sqd_async_notify;
			__u8 max_rd_atomic;
			__u8 max_dest_rd_atomic;
			__u8 min_rnr_timer;
			__u8 port_num;
			__u8 timeout;
			__u8 retry_cnt;
			__u8 rnr_retry;
			__u8 alt_port_num;
			__u8 alt_timeout;
			__u8 reserved[2];
			__aligned_u64 driver_data[0];
		};
		struct ib_uverbs_modify_qp core_payload;
	};
};

/* DESTROY_QP -> ib_uverbs_destroy_qp_resp */
struct ibv_destroy_qp {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 qp_handle;
			__u32 reserved;
		};
		struct ib_uverbs_destroy_qp core_payload;
	};
};

/* POST_SEND -> ib_uverbs_post_send_resp */
struct ibv_post_send {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 qp_handle;
			__u32 wr_count;
			__u32 sge_count;
			__u32 wqe_size;
			struct ib_uverbs_send_wr send_wr[];
		};
		struct ib_uverbs_post_send core_payload;
	};
};

/* POST_RECV -> ib_uverbs_post_recv_resp */
struct ibv_post_recv {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 qp_handle;
			__u32 wr_count;
			__u32 sge_count;
			__u32 wqe_size;
			struct ib_uverbs_recv_wr recv_wr[];
		};
		struct ib_uverbs_post_recv core_payload;
	};
};

/* ATTACH_MCAST, no response */
struct ibv_attach_mcast {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u8 gid[16];
			__u32 qp_handle;
			__u16 mlid;
			__u16 reserved;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_attach_mcast core_payload;
	};
};

/* DETACH_MCAST, no response */
struct ibv_detach_mcast {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u8 gid[16];
			__u32 qp_handle;
			__u16 mlid;
			__u16 reserved;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_detach_mcast core_payload;
	};
};

/* CREATE_SRQ -> ib_uverbs_create_srq_resp */
struct ibv_create_srq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 max_wr;
			__u32 max_sge;
			__u32 srq_limit;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_create_srq core_payload;
	};
};

/* MODIFY_SRQ, no response */
struct ibv_modify_srq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 srq_handle;
			__u32 attr_mask;
			__u32 max_wr;
			__u32 srq_limit;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_modify_srq core_payload;
	};
};

/* QUERY_SRQ -> ib_uverbs_query_srq_resp */
struct ibv_query_srq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 srq_handle;
			__u32 reserved;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_query_srq core_payload;
	};
};

/* DESTROY_SRQ -> ib_uverbs_destroy_srq_resp */
struct ibv_destroy_srq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 srq_handle;
			__u32 reserved;
		};
		struct ib_uverbs_destroy_srq core_payload;
	};
};

/* POST_SRQ_RECV -> ib_uverbs_post_srq_recv_resp */
struct ibv_post_srq_recv {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 srq_handle;
			__u32 wr_count;
			__u32 sge_count;
			__u32 wqe_size;
			struct ib_uverbs_recv_wr recv[];
		};
		struct ib_uverbs_post_srq_recv core_payload;
	};
};

/* OPEN_XRCD -> ib_uverbs_open_xrcd_resp */
struct ibv_open_xrcd {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__u32 fd;
			__u32 oflags;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_open_xrcd core_payload;
	};
};

/* CLOSE_XRCD, no response */
struct ibv_close_xrcd {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__u32 xrcd_handle;
		};
		struct ib_uverbs_close_xrcd core_payload;
	};
};

/* CREATE_XSRQ -> ib_uverbs_create_srq_resp */
struct ibv_create_xsrq {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 srq_type;
			__u32 pd_handle;
			__u32 max_wr;
			__u32 max_sge;
			__u32 srq_limit;
			__u32 max_num_tags;
			__u32 xrcd_handle;
			__u32 cq_handle;
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_create_xsrq core_payload;
	};
};

/* OPEN_QP -> ib_uverbs_create_qp_resp */
struct ibv_open_qp {
	struct ib_uverbs_cmd_hdr hdr;
	union {
		struct {
			__aligned_u64 response;
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 qpn;
			__u8 qp_type;
			__u8 reserved[7];
			__aligned_u64 driver_data[];
		};
		struct ib_uverbs_open_qp core_payload;
	};
};

/*
 * Extended commands: the command number is ORed with
 * IB_USER_VERBS_CMD_FLAG_EXTENDED, and hdr.ex_hdr says where the response
 * goes and how much driver data follows the request.
 */

/* EX QUERY_DEVICE -> ib_uverbs_ex_query_device_resp */
struct ibv_query_device_ex {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 reserved;
		};
		struct ib_uverbs_ex_query_device core_payload;
	};
};

/* EX CREATE_CQ -> ib_uverbs_ex_create_cq_resp */
struct ibv_create_cq_ex {
	struct ex_hdr hdr;
	union {
		struct {
			__aligned_u64 user_handle;
			__u32 cqe;
			__u32 comp_vector;
			__s32 comp_channel;
			__u32 comp_mask;
			__u32 flags;
			__u32 reserved;
		};
		struct ib_uverbs_ex_create_cq core_payload;
	};
};

/* EX CREATE_QP -> ib_uverbs_ex_create_qp_resp */
struct ibv_create_qp_ex {
	struct ex_hdr hdr;
	union {
		struct {
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 send_cq_handle;
			__u32 recv_cq_handle;
			__u32 srq_handle;
			__u32 max_send_wr;
			__u32 max_recv_wr;
			__u32 max_send_sge;
			__u32 max_recv_sge;
			__u32 max_inline_data;
			__u8 sq_sig_all;
			__u8 qp_type;
			__u8 is_srq;
			__u8 reserved;
			__u32 comp_mask;
			__u32 create_flags;
			__u32 rwq_ind_tbl_handle;
			__u32 source_qpn;
		};
		struct ib_uverbs_ex_create_qp core_payload;
	};
};

/* EX MODIFY_QP -> ib_uverbs_ex_modify_qp_resp */
struct ibv_modify_qp_ex {
	struct ex_hdr hdr;
	union {
		struct {
			struct ib_uverbs_modify_qp base;
			__u32 rate_limit;
			__u32 reserved;
		};
		struct ib_uverbs_ex_modify_qp core_payload;
	};
};

/* EX CREATE_FLOW -> ib_uverbs_create_flow_resp */
struct ibv_create_flow {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 qp_handle;
			struct ib_uverbs_flow_attr flow_attr;
		};
		struct ib_uverbs_create_flow core_payload;
	};
};

/* EX DESTROY_FLOW, no response */
struct ibv_destroy_flow {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 flow_handle;
		};
		struct ib_uverbs_destroy_flow core_payload;
	};
};

/* EX CREATE_WQ -> ib_uverbs_ex_create_wq_resp */
struct ibv_create_wq {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 wq_type;
			__aligned_u64 user_handle;
			__u32 pd_handle;
			__u32 cq_handle;
			__u32 max_wr;
			__u32 max_sge;
			__u32 create_flags;
			__u32 reserved;
		};
		struct ib_uverbs_ex_create_wq core_payload;
	};
};

/* EX MODIFY_WQ, no response */
struct ibv_modify_wq {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 attr_mask;
			__u32 wq_handle;
			__u32 wq_state;
			__u32 curr_wq_state;
			__u32 flags;
			__u32 flags_mask;
		};
		struct ib_uverbs_ex_modify_wq core_payload;
	};
};

/* EX DESTROY_WQ -> ib_uverbs_ex_destroy_wq_resp */
struct ibv_destroy_wq {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 wq_handle;
		};
		struct ib_uverbs_ex_destroy_wq core_payload;
	};
};

/* EX CREATE_RWQ_IND_TBL -> ib_uverbs_ex_create_rwq_ind_table_resp */
struct ibv_create_rwq_ind_table {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 log_ind_tbl_size;
			__u32 wq_handles[];
		};
		struct ib_uverbs_ex_create_rwq_ind_table core_payload;
	};
};

/* EX DESTROY_RWQ_IND_TBL, no response */
struct ibv_destroy_rwq_ind_table {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 comp_mask;
			__u32 ind_tbl_handle;
		};
		struct ib_uverbs_ex_destroy_rwq_ind_table core_payload;
	};
};

/* EX MODIFY_CQ, no response */
struct ibv_modify_cq {
	struct ex_hdr hdr;
	union {
		struct {
			__u32 cq_handle;
			__u32 attr_mask;
			struct ib_uverbs_cq_moderation attr;
			__u32 reserved;
		};
		struct ib_uverbs_ex_modify_cq core_payload;
	};
};

/*
 * The MODIFY_SRQ request of ABI 3 kernels, which still carried a max_sge
 * before srq_limit, and the shorter responses of ABI 3, 4 and 5 kernels.
 */
struct ib_uverbs_modify_srq_v3 {
	__u32 srq_handle;
	__u32 attr_mask;
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__u32 reserved;
};

enum {
	IB_USER_VERBS_CMD_MODIFY_SRQ_V3 = IB_USER_VERBS_CMD_MODIFY_SRQ,
};

/* MODIFY_SRQ_V3, no response */
struct ibv_modify_srq_v3 {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_srq_v3 core_payload;
};

struct ibv_create_qp_resp_v3 {
	__u32 qp_handle;
	__u32 qpn;
};

struct ibv_create_qp_resp_v4 {
	__u32 qp_handle;
	__u32 qpn;
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
};

struct ibv_create_srq_resp_v5 {
	__u32 srq_handle;
};

/*
 * Flow specifications as CREATE_FLOW carries them after its flow_attr.
 * The plain IPv4 spec predates the kernel's ipv4 spec with its extra
 * fields (ipv4_ext); both travel under the same type.
 */
struct ibv_kern_ipv4_filter {
	__u32 src_ip;
	__u32 dst_ip;
};

struct ibv_kern_spec_ipv4 {
	__u32 type;
	__u16 size;
	__u16 reserved;
	struct ibv_kern_ipv4_filter val;
	struct ibv_kern_ipv4_filter mask;
};

struct ibv_kern_spec {
	union {
		struct ib_uverbs_flow_spec_hdr hdr;
		struct ib_uverbs_flow_spec_eth eth;
		struct ibv_kern_spec_ipv4 ipv4;
		struct ib_uverbs_flow_spec_ipv4 ipv4_ext;
		struct ib_uverbs_flow_spec_esp esp;
		struct ib_uverbs_flow_spec_tcp_udp tcp_udp;
		struct ib_uverbs_flow_spec_ipv6 ipv6;
		struct ib_uverbs_flow_spec_gre gre;
		struct ib_uverbs_flow_spec_tunnel tunnel;
		struct ib_uverbs_flow_spec_mpls mpls;
		struct ib_uverbs_flow_spec_action_tag flow_tag;
		struct ib_uverbs_flow_spec_action_drop drop;
		struct ib_uverbs_flow_spec_action_handle handle;
		struct ib_uverbs_flow_spec_action_count flow_count;
	};
};

/*
 * The extended CREATE_QP request begins with the members of the basic
 * one from user_handle on. Returns the basic request those members would
 * belong to, for code that fills both from one place. Its response member
 * overlaps the extended header and must not be written.
 */
static inline struct ib_uverbs_create_qp *
ibv_create_qp_ex_to_reg(struct ibv_create_qp_ex *cmd_ex)
{
	return (struct ib_uverbs_create_qp
			*)((char *)&cmd_ex->user_handle -
			   offsetof(struct ib_uverbs_create_qp, user_handle));
}

#endif
