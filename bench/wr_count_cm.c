// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wr_count on siw: an iWARP QP reaches RTS only through a connection,
 * so a and b are the two ends of an rdma_cm connection in this process
 * (a listener and a client on the device's address, one event channel).
 *
 * librdmacm (Debian's librdmacm1) is loaded with dlopen(): its header is
 * not installed here. The few types below are the parts of its
 * interface (<rdma/rdma_cma.h> of rdma-core) that this file touches; the
 * structs are declared only up to the last field read, so their size is
 * never assumed. librdmacm uses whichever libibverbs.so.1 the process
 * already has, so the core under test serves its QPs too.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bench_util.h"
#include "wr_count.h"

#define CM_PS_TCP 0x0106 /* enum rdma_port_space: RDMA_PS_TCP */

enum cm_event_type {
	CM_ADDR_RESOLVED = 0,
	CM_ROUTE_RESOLVED = 2,
	CM_CONNECT_REQUEST = 4,
	CM_ESTABLISHED = 9,
};

struct cm_channel;

/* The first members of struct rdma_cm_id. */
struct cm_id {
	struct ibv_context *verbs;
	struct cm_channel *channel;
	void *context;
	struct ibv_qp *qp;
};

/* The first members of struct rdma_cm_event. */
struct cm_event {
	struct cm_id *id;
	struct cm_id *listen_id;
	int event; /* enum rdma_cm_event_type */
	int status;
};

/* struct rdma_conn_param, whole. */
struct cm_conn_param {
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

static struct {
	struct cm_channel *(*create_event_channel)(void);
	int (*create_id)(struct cm_channel *, struct cm_id **, void *, int);
	int (*bind_addr)(struct cm_id *, struct sockaddr *);
	int (*listen)(struct cm_id *, int);
	int (*resolve_addr)(struct cm_id *, struct sockaddr *,
			    struct sockaddr *, int);
	int (*resolve_route)(struct cm_id *, int);
	int (*connect)(struct cm_id *, struct cm_conn_param *);
	int (*accept)(struct cm_id *, struct cm_conn_param *);
	int (*get_cm_event)(struct cm_channel *, struct cm_event **);
	int (*ack_cm_event)(struct cm_event *);
	int (*create_qp)(struct cm_id *, struct ibv_pd *,
			 struct ibv_qp_init_attr *);
} cm;

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p)
		die("librdmacm.so.1 has no %s", name);
	return p;
}

static void load_rdmacm(void)
{
	void *h = dlopen("librdmacm.so.1", RTLD_NOW);

	if (!h)
		skip("siw needs librdmacm.so.1: %s", dlerror());
	cm.create_event_channel = sym(h, "rdma_create_event_channel");
	cm.create_id = sym(h, "rdma_create_id");
	cm.bind_addr = sym(h, "rdma_bind_addr");
	cm.listen = sym(h, "rdma_listen");
	cm.resolve_addr = sym(h, "rdma_resolve_addr");
	cm.resolve_route = sym(h, "rdma_resolve_route");
	cm.connect = sym(h, "rdma_connect");
	cm.accept = sym(h, "rdma_accept");
	cm.get_cm_event = sym(h, "rdma_get_cm_event");
	cm.ack_cm_event = sym(h, "rdma_ack_cm_event");
	cm.create_qp = sym(h, "rdma_create_qp");
}

static void check(int ret, const char *what)
{
	if (ret)
		die("%s failed", what);
}

/* The first QP's side: resources on the context rdma_cm chose, then a. */
static void client_qp(struct wrc *w, struct cm_id *id, const char *dev)
{
	struct cm_conn_param p = { .responder_resources = 1,
				   .initiator_depth = 1,
				   .retry_count = 7,
				   .rnr_retry_count = 7 };

	if (strcmp(ibv_get_device_name(id->verbs->device), dev))
		die("rdma_cm chose %s, not %s",
		    ibv_get_device_name(id->verbs->device), dev);
	w->ctx = id->verbs;
	wrc_resources(w);
	w->attr.send_cq = w->attr.recv_cq = w->cq_a;
	check(cm.create_qp(id, w->pd, &w->attr), "rdma_create_qp (a)");
	w->a = id->qp;
	check(cm.connect(id, &p), "rdma_connect");
}

static void server_qp(struct wrc *w, struct cm_id *id)
{
	struct cm_conn_param p = { .responder_resources = 1,
				   .initiator_depth = 1 };

	if (id->verbs != w->ctx)
		die("the two ends of the connection are on two contexts");
	w->attr.send_cq = w->attr.recv_cq = w->cq_b;
	check(cm.create_qp(id, w->pd, &w->attr), "rdma_create_qp (b)");
	w->b = id->qp;
	check(cm.accept(id, &p), "rdma_accept");
}

void wrc_connect_cm(struct wrc *w, const char *dev, const char *addr)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(19999) };
	struct cm_id *listener, *client;
	struct cm_channel *ch;
	struct cm_event *ev;
	int established = 0;

	load_rdmacm();
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		die("not an IPv4 address: %s", addr);
	ch = cm.create_event_channel();
	if (!ch)
		die("rdma_create_event_channel failed");
	check(cm.create_id(ch, &listener, NULL, CM_PS_TCP), "rdma_create_id");
	check(cm.bind_addr(listener, (struct sockaddr *)&sin),
	      "rdma_bind_addr");
	check(cm.listen(listener, 1), "rdma_listen");
	check(cm.create_id(ch, &client, NULL, CM_PS_TCP), "rdma_create_id");
	check(cm.resolve_addr(client, NULL, (struct sockaddr *)&sin, 5000),
	      "rdma_resolve_addr");
	while (established < 2) {
		check(cm.get_cm_event(ch, &ev), "rdma_get_cm_event");
		if (ev->status)
			die("rdma_cm event %d: status %d", ev->event,
			    ev->status);
		switch (ev->event) {
		case CM_ADDR_RESOLVED:
			check(cm.resolve_route(client, 5000),
			      "rdma_resolve_route");
			break;
		case CM_ROUTE_RESOLVED:
			client_qp(w, client, dev);
			break;
		case CM_CONNECT_REQUEST:
			server_qp(w, ev->id);
			break;
		case CM_ESTABLISHED:
			established++;
			break;
		default:
			die("unexpected rdma_cm event %d", ev->event);
		}
		cm.ack_cm_event(ev);
	}
}
