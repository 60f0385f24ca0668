/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The part of librdmacm 1's public interface that the programs of the VM
 * tier and the benches use (siw is iWARP: its QPs connect only through
 * the connection manager). librdmacm is installed (rdmacm-utils needs
 * it) but its headers are not, so it is declared here, as rdma_cma(7)
 * and <rdma/rdma_cma.h> of librdmacm 1 define it: the leading members of
 * struct rdma_cm_id and struct rdma_cm_event (the library allocates
 * them), the connection parameters, the event numbers and the calls.
 * A program that loads the library with dlopen() types its pointers
 * with __typeof__ of these declarations.
 */
#ifndef RDMA_CM_DECL_H
#define RDMA_CM_DECL_H

#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>

struct rdma_event_channel;

/* Only the leading members: the library allocates the object. */
struct rdma_cm_id {
	struct ibv_context *verbs;
	struct rdma_event_channel *channel;
	void *context;
	struct ibv_qp *qp;
};

struct rdma_cm_event {
	struct rdma_cm_id *id;
	struct rdma_cm_id *listen_id;
	int event;
	int status;
};

struct rdma_conn_param {
	const void *private_data;
	uint8_t private_data_len;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t flow_control;
	uint8_t retry_count;
	uint8_t rnr_retry_count;
	uint8_t srq;
	uint32_t qp_num;
};

enum {
	CM_ADDR_RESOLVED = 0,
	CM_ROUTE_RESOLVED = 2,
	CM_CONNECT_REQUEST = 4,
	CM_ESTABLISHED = 9,
	CM_DISCONNECTED = 10,
	CM_PS_TCP = 0x0106,
};

struct rdma_event_channel *rdma_create_event_channel(void);
void rdma_destroy_event_channel(struct rdma_event_channel *channel);
int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id,
		   void *context, int ps);
int rdma_destroy_id(struct rdma_cm_id *id);
int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);
int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src,
		      struct sockaddr *dst, int timeout_ms);
int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms);
int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_qp_init_attr *attr);
void rdma_destroy_qp(struct rdma_cm_id *id);
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *param);
int rdma_listen(struct rdma_cm_id *id, int backlog);
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *param);
int rdma_disconnect(struct rdma_cm_id *id);
int rdma_get_cm_event(struct rdma_event_channel *channel,
		      struct rdma_cm_event **event);
int rdma_ack_cm_event(struct rdma_cm_event *event);

#endif
