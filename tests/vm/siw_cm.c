// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Connected siw QP pairs through rdma_cm, both ends in one process on
 * one event channel: see siw_cm.h.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "siw_cm.h"

#define CM_TIMEOUT_MS 5000

/* The next event on @b's channel, which must be @type; NULL if not. */
static struct rdma_cm_event *cm_expect(struct cm_base *b, int type)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(b->ch, &ev)) {
		perror("rdma_get_cm_event");
		return NULL;
	}
	if (ev->event != type) {
		fprintf(stderr, "rdma_cm: event %d (status %d), wanted %d\n",
			ev->event, ev->status, type);
		rdma_ack_cm_event(ev);
		return NULL;
	}
	return ev;
}

static int cm_addr(struct sockaddr_storage *ss, const char *text, uint16_t port)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, text, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		return 0;
	}
	if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		return 0;
	}
	fprintf(stderr, "rdma_cm: bad address %s\n", text);
	return -1;
}

int cm_base_init(struct cm_base *b, const char *addr, uint16_t port)
{
	memset(b, 0, sizeof(*b));
	if (cm_addr(&b->addr, addr, port))
		return -1;
	b->ch = rdma_create_event_channel();
	if (!b->ch) {
		perror("rdma_create_event_channel");
		return -1;
	}
	if (rdma_create_id(b->ch, &b->listener, NULL, CM_PS_TCP) ||
	    rdma_bind_addr(b->listener, (struct sockaddr *)&b->addr) ||
	    rdma_listen(b->listener, 8)) {
		perror("rdma_cm listen");
		return -1;
	}
	b->ctx = b->listener->verbs;
	if (!b->ctx) {
		fprintf(stderr, "rdma_cm: the listener has no device\n");
		return -1;
	}
	b->pd = ibv_alloc_pd(b->ctx);
	if (!b->pd) {
		perror("ibv_alloc_pd");
		return -1;
	}
	return 0;
}

void cm_base_fini(struct cm_base *b)
{
	if (b->pd)
		ibv_dealloc_pd(b->pd);
	if (b->listener)
		rdma_destroy_id(b->listener);
	if (b->ch)
		rdma_destroy_event_channel(b->ch);
}

int cm_pair_prepare(struct cm_base *b, struct cm_pair *p,
		    struct ibv_qp_init_attr *cattr)
{
	void (*hook)(struct ibv_qp *, void *) = p->before_accept;
	void *arg = p->arg;
	struct rdma_cm_event *ev;

	memset(p, 0, sizeof(*p));
	p->before_accept = hook;
	p->arg = arg;
	if (rdma_create_id(b->ch, &p->cid, NULL, CM_PS_TCP) ||
	    rdma_resolve_addr(p->cid, NULL, (struct sockaddr *)&b->addr,
			      CM_TIMEOUT_MS)) {
		perror("rdma_resolve_addr");
		return -1;
	}
	ev = cm_expect(b, CM_ADDR_RESOLVED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(p->cid, CM_TIMEOUT_MS)) {
		perror("rdma_resolve_route");
		return -1;
	}
	ev = cm_expect(b, CM_ROUTE_RESOLVED);
	if (!ev)
		return -1;
	rdma_ack_cm_event(ev);
	if (p->cid->verbs != b->ctx) {
		fprintf(stderr, "rdma_cm: the two ends have two contexts\n");
		return -1;
	}
	if (rdma_create_qp(p->cid, b->pd, cattr)) {
		perror("rdma_create_qp (active)");
		return -1;
	}
	p->c = p->cid->qp;
	return 0;
}

int cm_pair_connect(struct cm_base *b, struct cm_pair *p,
		    struct ibv_qp_init_attr *sattr)
{
	struct rdma_conn_param param = {
		.responder_resources = 4,
		.initiator_depth = 4,
	};
	struct rdma_cm_event *ev;
	int established = 0;

	if (rdma_connect(p->cid, &param)) {
		perror("rdma_connect");
		return -1;
	}
	ev = cm_expect(b, CM_CONNECT_REQUEST);
	if (!ev)
		return -1;
	p->sid = ev->id;
	rdma_ack_cm_event(ev);
	if (rdma_create_qp(p->sid, b->pd, sattr)) {
		perror("rdma_create_qp (passive)");
		return -1;
	}
	p->s = p->sid->qp;
	if (p->before_accept)
		p->before_accept(p->s, p->arg);
	if (rdma_accept(p->sid, &param)) {
		perror("rdma_accept");
		return -1;
	}
	/* One ESTABLISHED for each end, in either order. */
	while (established < 2) {
		ev = cm_expect(b, CM_ESTABLISHED);
		if (!ev)
			return -1;
		rdma_ack_cm_event(ev);
		established++;
	}
	return 0;
}

int cm_pair_disconnect(struct cm_base *b, struct cm_pair *p,
		       struct rdma_cm_id *from)
{
	struct rdma_cm_event *ev;

	if (rdma_disconnect(from)) {
		perror("rdma_disconnect");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		ev = cm_expect(b, CM_DISCONNECTED);
		if (!ev)
			return -1;
		rdma_ack_cm_event(ev);
	}
	(void)p;
	return 0;
}

void cm_pair_destroy(struct cm_pair *p)
{
	if (p->sid) {
		if (p->s)
			rdma_destroy_qp(p->sid);
		rdma_destroy_id(p->sid);
	}
	if (p->cid) {
		if (p->c)
			rdma_destroy_qp(p->cid);
		rdma_destroy_id(p->cid);
	}
	memset(p, 0, sizeof(*p));
}
