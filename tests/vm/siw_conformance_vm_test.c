// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * siw's data path where the kernel judges: siw0 in the test VM, QPs
 * connected through rdma_cm to siw0's own address (IBV_VM_SIW_ADDR).
 *
 *   siw_conformance_vm_test EXPECTED_LIBSIW ours|debian
 *
 * EXPECTED_LIBSIW is the provider that must be mapped (checked in
 * /proc/self/maps, so a pass on the wrong provider fails); the second
 * argument names it for the few checks where Debian's libsiw 44 and ours
 * answer differently on purpose (each pinned below, with the reason).
 * Every check prints one line, "ok NAME" or "FAIL NAME: ...", and any
 * FAIL fails the program. Exits 77 outside the VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rdma/siw-abi.h>

#include "siw_cm.h"
#include "siw_conformance.h"

struct t_state t;

void check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	t.failed++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int poll_wc(struct ibv_cq *cq, int n, struct ibv_wc *wc, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	int got = 0;

	while (got < n) {
		int r = ibv_poll_cq(cq, n - got, wc + got);

		if (r < 0)
			return r;
		got += r;
		if (got < n && now_ms() > end)
			break;
	}
	return got;
}

int async_event(enum ibv_event_type type, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	struct ibv_async_event ev;
	int fd = t.b.ctx->async_fd;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = end - now_ms();

		if (left < 0 || poll(&pfd, 1, (int)left) <= 0)
			return 0;
		if (ibv_get_async_event(t.b.ctx, &ev))
			continue;
		ibv_ack_async_event(&ev);
		if (ev.event_type == type)
			return 1;
		printf("  (async event %d seen)\n", ev.event_type);
	}
}

struct ibv_mr *buf_mr(size_t len, char fill)
{
	char *p = malloc(len);
	struct ibv_mr *mr;

	if (!p)
		return NULL;
	memset(p, fill, len);
	mr = ibv_reg_mr(t.b.pd, p, len,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ);
	if (!mr)
		free(p);
	return mr;
}

void buf_free(struct ibv_mr *mr)
{
	void *p = mr->addr;

	ibv_dereg_mr(mr);
	free(p);
}

int post_recv(struct ibv_qp *qp, uint64_t id, struct ibv_sge *sge, int n)
{
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
	      struct ibv_send_wr **bad)
{
	*bad = NULL;
	return ibv_post_send(qp, wr, bad);
}

struct ibv_sge sge_of(struct ibv_mr *mr, size_t off, uint32_t len)
{
	return (struct ibv_sge){ .addr = (uintptr_t)mr->addr + off,
				 .length = len,
				 .lkey = mr->lkey };
}

/* The QP attributes most pairs use, on CQs @scq / @rcq. */
struct ibv_qp_init_attr qp_attr(struct ibv_cq *scq, struct ibv_cq *rcq,
				uint32_t depth, uint32_t sge)
{
	return (struct ibv_qp_init_attr){
		.send_cq = scq,
		.recv_cq = rcq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = depth,
			 .max_recv_wr = depth,
			 .max_send_sge = sge,
			 .max_recv_sge = sge,
			 .max_inline_data = SIW_MAX_INLINE },
	};
}

int pair_up(struct cm_pair *p, struct ibv_qp_init_attr *ca,
	    struct ibv_qp_init_attr *sa)
{
	if (cm_pair_prepare(&t.b, p, ca) || cm_pair_connect(&t.b, p, sa)) {
		check(false, "connect", "rdma_cm could not connect a pair");
		return -1;
	}
	return 0;
}

struct ibv_send_wr send_wr(uint64_t id, struct ibv_sge *sg, int n,
			   enum ibv_wr_opcode op, unsigned flags)
{
	return (struct ibv_send_wr){ .wr_id = id,
				     .sg_list = sg,
				     .num_sge = n,
				     .opcode = op,
				     .send_flags = flags };
}

void set_remote(struct ibv_send_wr *wr, struct ibv_mr *mr, size_t off)
{
	wr->wr.rdma.remote_addr = (uintptr_t)mr->addr + off;
	wr->wr.rdma.rkey = mr->rkey;
}

int rig_make(struct rig *r, int scqe, int rcqe, uint32_t depth, uint32_t sge,
	     char seed)
{
	r->scq = ibv_create_cq(t.b.ctx, scqe, NULL, NULL, 0);
	r->rcq = rcqe ? ibv_create_cq(t.b.ctx, rcqe, NULL, r->ch, 0) : r->scq;
	r->a = qp_attr(r->scq, r->rcq, depth, sge);
	r->m = buf_mr(4096, seed);
	return r->scq && r->rcq && r->m ? 0 : -1;
}

int rig_up(struct rig *r, int scqe, int rcqe, uint32_t depth, uint32_t sge,
	   char seed)
{
	if (rig_make(r, scqe, rcqe, depth, sge, seed))
		return -1;
	return pair_up(&r->p, &r->a, &r->a);
}

void rig_down(struct rig *r)
{
	cm_pair_destroy(&r->p);
	if (r->scq)
		ibv_destroy_cq(r->scq);
	if (r->rcq && r->rcq != r->scq)
		ibv_destroy_cq(r->rcq);
	if (r->m)
		buf_free(r->m);
}

/* Every libsiw mapped is @want (a real path): which provider runs. */
static void check_mapped(const char *want)
{
	char line[PATH_MAX + 128], real[PATH_MAX];
	int found = 0, other = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!realpath(want, real))
		snprintf(real, sizeof(real), "%s", want);
	while (f && fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');

		if (!path || !strstr(path, "libsiw"))
			continue;
		path[strcspn(path, "\n")] = 0;
		if (!strcmp(path, real))
			found = 1;
		else
			other = 1;
	}
	if (f)
		fclose(f);
	check(found && !other, "provider_mapped", "%s mapped: %d, other: %d",
	      real, found, other);
}

int main(int argc, char **argv)
{
	const char *addr = getenv("IBV_VM_SIW_ADDR");

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3 ||
	    (strcmp(argv[2], "ours") && strcmp(argv[2], "debian"))) {
		fprintf(stderr, "usage: %s EXPECTED_LIBSIW ours|debian\n",
			argv[0]);
		return 2;
	}
	if (!addr) {
		printf("SKIP: not in the test VM (no IBV_VM_SIW_ADDR)\n");
		return 77;
	}
	t.ours = !strcmp(argv[2], "ours");
	if (cm_base_init(&t.b, addr, 7471)) {
		printf("FAIL setup: no rdma_cm listener on %s\n", addr);
		return 1;
	}
	check_mapped(argv[1]);
	t_opcodes();
	t_unsupported();
	t_limits();
	t_wrap();
	t_read_0sge();
	t_send_inv_inline();
	t_srq();
	t_overflow();
	t_flush();
	t_doorbell();
	t_fenced_read();
	t_solicited();
	cm_base_fini(&t.b);
	printf("%s: %d failed\n", t.failed ? "FAIL" : "PASS", t.failed);
	return t.failed ? 1 : 0;
}
