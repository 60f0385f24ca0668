/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pairs of connected QPs the siw tests in the VM build through the
 * connection manager (rdma_cm_decl.h), both ends in one process on
 * siw0's own address. Nothing in it is siw's: rxe_conf_cm.c connects
 * its pair on rxe0's address with it.
 */
#ifndef SIW_CM_H
#define SIW_CM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>

#include "rdma_cm_decl.h"

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
