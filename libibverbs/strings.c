// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Names of the verbs enums for messages: node types, port states, async
 * events, completion statuses and work request opcodes. The words are
 * part of the interface: tools print them and scripts match on them, so
 * they are rdma-core's, letter for letter. Any value without a name reads
 * "unknown" (but two opcodes, see below).
 */
#include <stddef.h>

#include <infiniband/verbs.h>

#include "export.h"
#include "util.h"

static const char unknown[] = "unknown";

/* @names[@val], or "unknown" when @val is outside the table or a gap. */
static const char *lookup(const char *const *names, size_t n, int val)
{
	if (val < 0 || (size_t)val >= n || !names[val])
		return unknown;
	return names[val];
}

static const char *const node_types[] = {
	[IBV_NODE_CA] = "InfiniBand channel adapter",
	[IBV_NODE_SWITCH] = "InfiniBand switch",
	[IBV_NODE_ROUTER] = "InfiniBand router",
	[IBV_NODE_RNIC] = "iWARP NIC",
	[IBV_NODE_USNIC] = "usNIC",
	[IBV_NODE_USNIC_UDP] = "usNIC UDP",
	[IBV_NODE_UNSPECIFIED] = "unspecified",
};

/**
 * ibv_node_type_str - name of a node type
 * @node_type: the node type of a device
 */
IBV_EXPORT const char *ibv_node_type_str(enum ibv_node_type node_type)
{
	return lookup(node_types, ARRAY_SIZE(node_types), node_type);
}

static const char *const port_states[] = {
	[IBV_PORT_NOP] = "no state change (NOP)",
	[IBV_PORT_DOWN] = "down",
	[IBV_PORT_INIT] = "init",
	[IBV_PORT_ARMED] = "armed",
	[IBV_PORT_ACTIVE] = "active",
	[IBV_PORT_ACTIVE_DEFER] = "active defer",
};

/**
 * ibv_port_state_str - name of a port's logical state
 * @port_state: the state, as ibv_query_port() reports it
 */
IBV_EXPORT const char *ibv_port_state_str(enum ibv_port_state port_state)
{
	return lookup(port_states, ARRAY_SIZE(port_states), port_state);
}

static const char *const event_types[] = {
	[IBV_EVENT_CQ_ERR] = "CQ error",
	[IBV_EVENT_QP_FATAL] = "local work queue catastrophic error",
	[IBV_EVENT_QP_REQ_ERR] = "invalid request local work queue error",
	[IBV_EVENT_QP_ACCESS_ERR] = "local access violation work queue error",
	[IBV_EVENT_COMM_EST] = "communication established",
	[IBV_EVENT_SQ_DRAINED] = "send queue drained",
	[IBV_EVENT_PATH_MIG] = "path migrated",
	[IBV_EVENT_PATH_MIG_ERR] = "path migration request error",
	[IBV_EVENT_DEVICE_FATAL] = "local catastrophic error",
	[IBV_EVENT_PORT_ACTIVE] = "port active",
	[IBV_EVENT_PORT_ERR] = "port error",
	[IBV_EVENT_LID_CHANGE] = "LID change",
	[IBV_EVENT_PKEY_CHANGE] = "P_Key change",
	[IBV_EVENT_SM_CHANGE] = "SM change",
	[IBV_EVENT_SRQ_ERR] = "SRQ catastrophic error",
	[IBV_EVENT_SRQ_LIMIT_REACHED] = "SRQ limit reached",
	[IBV_EVENT_QP_LAST_WQE_REACHED] = "last WQE reached",
	[IBV_EVENT_CLIENT_REREGISTER] = "client reregistration",
	[IBV_EVENT_GID_CHANGE] = "GID table change",
	[IBV_EVENT_WQ_FATAL] = "WQ fatal",
	[IBV_EVENT_DEVICE_SPEED_CHANGE] = "Device link speed change",
};

/**
 * ibv_event_type_str - name of an asynchronous event
 * @event: the event_type of a struct ibv_async_event
 */
IBV_EXPORT const char *ibv_event_type_str(enum ibv_event_type event)
{
	return lookup(event_types, ARRAY_SIZE(event_types), event);
}

static const char *const wc_statuses[] = {
	[IBV_WC_SUCCESS] = "success",
	[IBV_WC_LOC_LEN_ERR] = "local length error",
	[IBV_WC_LOC_QP_OP_ERR] = "local QP operation error",
	[IBV_WC_LOC_EEC_OP_ERR] = "local EE context operation error",
	[IBV_WC_LOC_PROT_ERR] = "local protection error",
	/* The one capitalised like a title; tools print it as is. */
	[IBV_WC_WR_FLUSH_ERR] = "Work Request Flushed Error",
	[IBV_WC_MW_BIND_ERR] = "memory management operation error",
	[IBV_WC_BAD_RESP_ERR] = "bad response error",
	[IBV_WC_LOC_ACCESS_ERR] = "local access error",
	[IBV_WC_REM_INV_REQ_ERR] = "remote invalid request error",
	[IBV_WC_REM_ACCESS_ERR] = "remote access error",
	[IBV_WC_REM_OP_ERR] = "remote operation error",
	[IBV_WC_RETRY_EXC_ERR] = "transport retry counter exceeded",
	[IBV_WC_RNR_RETRY_EXC_ERR] = "RNR retry counter exceeded",
	[IBV_WC_LOC_RDD_VIOL_ERR] = "local RDD violation error",
	[IBV_WC_REM_INV_RD_REQ_ERR] = "remote invalid RD request",
	[IBV_WC_REM_ABORT_ERR] = "aborted error",
	[IBV_WC_INV_EECN_ERR] = "invalid EE context number",
	[IBV_WC_INV_EEC_STATE_ERR] = "invalid EE context state",
	[IBV_WC_FATAL_ERR] = "fatal error",
	[IBV_WC_RESP_TIMEOUT_ERR] = "response timeout error",
	[IBV_WC_GENERAL_ERR] = "general error",
	[IBV_WC_TM_ERR] = "TM error",
	[IBV_WC_TM_RNDV_INCOMPLETE] = "TM software rendezvous",
};

/**
 * ibv_wc_status_str - name of a work completion status
 * @status: the status of a struct ibv_wc
 */
IBV_EXPORT const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	return lookup(wc_statuses, ARRAY_SIZE(wc_statuses), status);
}

/*
 * Work request opcodes, as rdma-core 56.1 names them. Its table ends at
 * IBV_WR_ATOMIC_WRITE and has no entry for 12 and 13, which no opcode
 * uses: those two read NULL there, not "unknown", and so they do here.
 */
static const char *const wr_opcodes[] = {
	[IBV_WR_RDMA_WRITE] = "rdma-write",
	[IBV_WR_RDMA_WRITE_WITH_IMM] = "rdma-write-with-imm",
	[IBV_WR_SEND] = "send",
	[IBV_WR_SEND_WITH_IMM] = "send-with-imm",
	[IBV_WR_RDMA_READ] = "rdma-read",
	[IBV_WR_ATOMIC_CMP_AND_SWP] = "atomic-cmp-and-swp",
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = "atomic-fetch-and-add",
	[IBV_WR_LOCAL_INV] = "local-inv",
	[IBV_WR_BIND_MW] = "bind-mw",
	[IBV_WR_SEND_WITH_INV] = "send-with-inv",
	[IBV_WR_TSO] = "tso",
	[IBV_WR_DRIVER1] = "driver1",
	[IBV_WR_FLUSH] = "flush",
	[IBV_WR_ATOMIC_WRITE] = "atomic-write",
};

/**
 * ibv_wr_opcode_str - name of a work request opcode
 * @opcode: the opcode of a struct ibv_send_wr
 *
 * Exported in the private node (IBVERBS_PRIVATE_34), where rdma-core 56.1
 * put it although verbs.h declares it for applications.
 */
IBV_EXPORT const char *ibv_wr_opcode_str(enum ibv_wr_opcode opcode)
{
	if ((unsigned int)opcode >= ARRAY_SIZE(wr_opcodes))
		return unknown;
	return wr_opcodes[opcode];
}
VERBS_PRIVATE_EXPORT(ibv_wr_opcode_str);
