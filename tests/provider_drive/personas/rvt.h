/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * provider_drive_test: the personas of rdmavt's providers, libhfi1verbs
 * (Intel Omni-Path, hfi1) and libipathverbs (QLogic InfiniPath, qib).
 * Their kernel side is one, rdmavt, whichever device: each persona's
 * file names its device, rvt.c is the rest.
 *
 * rdmavt shares a CQ's ring and a QP's or SRQ's receive ring with the
 * provider (<rdma/rvt-abi.h>): each create answers with nothing but a
 * u64, the offset on the command file where the provider maps the
 * ring, offsets handed out upwards from one page. Rings start empty
 * (head = tail = 0), as the fake's zeroed pages are. Sends are the
 * core's POST_SEND command.
 */
#ifndef T_RVT_H
#define T_RVT_H

#include "t_drive.h"

/* A new or resized queue's ring; where a resized SRQ's went. */
int t_rvt_ring(struct t_uv_cmd *cmd);
int t_rvt_modify_srq(struct t_uv_cmd *cmd);
/* The data path, what the providers lack, and their further verbs. */
void t_rvt_dv(const struct t_objs *o);

/*
 * A persona of rdmavt's, but for its device. The providers have no
 * create_cq_ex or create_qp_ex: the core refuses the extended CQ and
 * QP, which would end the drive; t_rvt_dv() checks that both cores
 * refuse them alike. Sends are the core's POST_SEND, with what
 * rdma-core leaves unset masked.
 */
#define T_RVT_PERSONA \
	.abi = 2, .node_type = T_NODE_CA,                                   \
	.link_layer = IBV_LINK_LAYER_INFINIBAND,                            \
	.steps = T_STEPS_ALL & ~(T_STEP_UD | T_STEP_CQ_EX | T_STEP_QP_EX),  \
	.answers = {                                                        \
		[T_V_CREATE_CQ] = t_rvt_ring,                               \
		[T_V_RESIZE_CQ] = t_rvt_ring,                               \
		[T_V_CREATE_QP] = t_rvt_ring,                               \
		[T_V_CREATE_SRQ] = t_rvt_ring,                              \
		[T_V_MODIFY_SRQ] = t_rvt_modify_srq,                        \
	},                                                                  \
	.driver.mask_core_in = t_mask_post_send, .dv = t_rvt_dv

#endif
