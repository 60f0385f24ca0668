// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wr_count on siw: an iWARP QP reaches RTS only through a connection,
 * so a and b are the two ends of an rdma_cm connection in this process
 * (a listener and a client on the device's address, one event channel).
 *
 * librdmacm (Debian's librdmacm1) is loaded with dlopen(): its header is
 * not installed here, so its interface comes from the VM tests'
 * declaration of it (tests/vm/rdma_cm_decl.h). librdmacm uses whichever
 * libibverbs.so.1 the process already has, so the core under test serves
 * its QPs too.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bench_util.h"
#include "rdma_cm_decl.h"
#include "wr_count.h"

/* librdmacm's calls, looked up at run time, typed by their declarations. */
static struct {
	__typeof__(rdma_create_event_channel) *create_event_channel;
	__typeof__(rdma_create_id) *create_id;
	__typeof__(rdma_bind_addr) *bind_addr;
	__typeof__(rdma_listen) *listen;
	__typeof__(rdma_resolve_addr) *resolve_addr;
	__typeof__(rdma_resolve_route) *resolve_route;
	__typeof__(rdma_connect) *connect;
	__typeof__(rdma_accept) *accept;
	__typeof__(rdma_get_cm_event) *get_cm_event;
	__typeof__(rdma_ack_cm_event) *ack_cm_event;
	__typeof__(rdma_create_qp) *create_qp;
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
static void client_qp(struct wrc *w, struct rdma_cm_id *id, const char *dev)
{
	struct rdma_conn_param p = { .responder_resources = 1,
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

static void server_qp(struct wrc *w, struct rdma_cm_id *id)
{
	struct rdma_conn_param p = { .responder_resources = 1,
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
	struct rdma_cm_id *listener, *client;
	struct rdma_event_channel *ch;
	struct rdma_cm_event *ev;
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
