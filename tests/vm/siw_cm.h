/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The few rdma_cm calls the siw tests in the VM connect with (siw is
 * iWARP: its QPs connect only through the connection manager), and the
 * pairs of connected QPs they build, both ends in one process on siw0's
 * own address.
 *
 * librdmacm is installed (rdmacm-utils needs it) but its headers are
 * not, so the part of its public interface these tests use is declared
 * here: the leading members of struct rdma_cm_id and struct
 * rdma_cm_event, the connection parameters and the event numbers, as
 * rdma_cma(7) and <rdma/rdma_cma.h> of librdmacm 1 define them.
 */
#ifndef SIW_CM_H
#define SIW_CM_H

#include <stdbool.h>
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

/* The listener on siw0's address, and what every pair shares. */
struct cm_base {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listener;
	struct ibv_context *ctx; /* librdmacm's context of siw0 */
	struct ibv_pd *pd;
	struct sockaddr_storage addr;
};

/* A connected pair: c (the active side) and s (the passive side). */
struct cm_pair {
	struct rdma_cm_id *cid, *sid;
	struct ibv_qp *c, *s;
	/* Called on the passive QP before it accepts, if set. */
	void (*before_accept)(struct ibv_qp *s, void *arg);
	void *arg;
};

/* Listens on @addr (IPv4 or IPv6 text) at @port; 0 or -1 (printed). */
int cm_base_init(struct cm_base *b, const char *addr, uint16_t port);
void cm_base_fini(struct cm_base *b);

/*
 * Resolves a new active id towards the listener and creates its QP from
 * @cattr (the QP is in INIT then: not yet connected). 0 or -1. Clears
 * @p but for before_accept and arg.
 */
int cm_pair_prepare(struct cm_base *b, struct cm_pair *p,
		    struct ibv_qp_init_attr *cattr);

/*
 * Connects the prepared pair: the passive QP is created from @sattr
 * when the request arrives (then p->before_accept runs). Both sides ESTABLISHED: 0, else -1.
 */
int cm_pair_connect(struct cm_base *b, struct cm_pair *p,
		    struct ibv_qp_init_attr *sattr);

/* Disconnects from @from (p->cid or p->sid); both sides DISCONNECTED. */
int cm_pair_disconnect(struct cm_base *b, struct cm_pair *p,
		       struct rdma_cm_id *from);

void cm_pair_destroy(struct cm_pair *p);

#endif
