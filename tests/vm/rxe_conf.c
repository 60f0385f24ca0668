// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: setup, helpers and main; see rxe_conf.h.
 *
 * Environment: IBV_VM_RXE, IBV_VM_RXE_GID_INDEX (tests/vm/run),
 * RXE_CONF_PROVIDER (the librxe .so that must be mapped: a pass on the
 * wrong provider proves nothing), RXE_CONF_WHICH (ours or debian),
 * RXE_CONF_ONLY (run one subject: ops, queues, err, ud, log, cm),
 * IBV_VM_RXE_ADDR (rxe0's address, where cm listens).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rxe_conf.h"

struct conf C;
static int failures;

static void __attribute__((format(printf, 3, 0)))
vline(const char *tag, const char *name, const char *fmt, va_list ap)
{
	printf("%s %s: ", tag, name);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

bool check(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(ok ? "ok" : "FAIL", name, fmt, ap);
	va_end(ap);
	if (!ok)
		failures++;
	return ok;
}

void note(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("note", name, fmt, ap);
	va_end(ap);
}

const char *st(enum ibv_wc_status s)
{
	return ibv_wc_status_str(s);
}

int buf_new(struct buf *b, size_t len)
{
	b->len = len;
	b->p = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!b->p)
		return ENOMEM;
	memset(b->p, 0, len);
	b->mr = ibv_reg_mr(C.pd, b->p, len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC |
				   IBV_ACCESS_MW_BIND);
	if (!b->mr) {
		free(b->p);
		return errno;
	}
	return 0;
}

void buf_free(struct buf *b)
{
	if (b->mr)
		ibv_dereg_mr(b->mr);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int side_new(struct side *s, const struct qp_opts *o, bool second)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = o->type ? o->type : IBV_QPT_RC,
		.cap = { .max_send_wr = o->send_wr ? o->send_wr : 16,
			 .max_recv_wr = o->recv_wr ? o->recv_wr : 16,
			 .max_send_sge = o->send_sge ? o->send_sge : 1,
			 .max_recv_sge = o->recv_sge ? o->recv_sge : 1,
			 .max_inline_data = o->inline_data },
		.srq = second ? o->srq : NULL,
		.pd = C.pd,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};

	memset(s, 0, sizeof(*s));
	s->cq = ibv_create_cq(C.ctx, o->cqe ? o->cqe : 64, NULL, NULL, 0);
	if (!s->cq)
		return errno;
	a.send_cq = a.recv_cq = s->cq;
	if (o->ex) {
		a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a.send_ops_flags = IBV_QP_EX_WITH_SEND |
				   IBV_QP_EX_WITH_SEND_WITH_IMM |
				   IBV_QP_EX_WITH_RDMA_WRITE |
				   IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
				   IBV_QP_EX_WITH_RDMA_READ |
				   IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				   IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
		if (a.qp_type == IBV_QPT_UD)
			a.send_ops_flags = IBV_QP_EX_WITH_SEND |
					   IBV_QP_EX_WITH_SEND_WITH_IMM;
		else
			a.send_ops_flags |= IBV_QP_EX_WITH_LOCAL_INV |
					    IBV_QP_EX_WITH_SEND_WITH_INV |
					    IBV_QP_EX_WITH_BIND_MW;
		a.send_ops_flags |= o->more_ops;
	}
	s->qp = ibv_create_qp_ex(C.ctx, &a);
	if (!s->qp) {
		int ret = errno;

		ibv_destroy_cq(s->cq);
		s->cq = NULL;
		return ret;
	}
	s->cap = a.cap;
	if (o->ex)
		s->qpx = ibv_qp_to_qp_ex(s->qp);
	return 0;
}

void side_free(struct side *s)
{
	if (s->qp)
		ibv_destroy_qp(s->qp);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	memset(s, 0, sizeof(*s));
}

int qp_connect(struct ibv_qp *qp, uint32_t dest, const struct path *p)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC | p->access,
	};
	int ret;

	ret = ibv_modify_qp(qp, &a,
			    IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				    IBV_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = C.gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = (uint8_t)C.gid_index;
	a.ah_attr.port_num = 1;
	ret = ibv_modify_qp(qp, &a,
			    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC |
				    IBV_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	a.qp_state = IBV_QPS_RTS;
	a.timeout = p->timeout;
	a.retry_cnt = p->retry_cnt;
	a.rnr_retry = p->rnr_retry;
	a.max_rd_atomic = 4;
	return ibv_modify_qp(qp, &a,
			     IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				     IBV_QP_MAX_QP_RD_ATOMIC);
}

int pair_new(struct side *a, struct side *b, const struct qp_opts *o,
	     const struct path *p)
{
	static const struct path def = { 14, 7, 7, 0 };
	int ret;

	ret = side_new(a, o, false);
	if (ret)
		return ret;
	ret = side_new(b, o, true);
	if (ret) {
		side_free(a);
		return ret;
	}
	if (!p)
		p = &def;
	ret = qp_connect(a->qp, b->qp->qp_num, p);
	if (!ret)
		ret = qp_connect(b->qp, a->qp->qp_num, p);
	if (ret)
		pair_free(a, b);
	return ret;
}

void pair_free(struct side *a, struct side *b)
{
	side_free(a);
	side_free(b);
}

int qp_to_error(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int poll_n(struct ibv_cq *cq, struct ibv_wc *wc, int n, int ms)
{
	long end = now_ms() + ms;
	int got = 0;

	while (got < n) {
		int r = ibv_poll_cq(cq, n - got, wc + got);

		if (r < 0)
			return got;
		got += r;
		if (!r && now_ms() > end)
			break;
	}
	return got;
}

int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int ms)
{
	return poll_n(cq, wc, 1, ms);
}

bool cq_quiet(struct ibv_cq *cq, int ms)
{
	struct ibv_wc wc;

	return poll_one(cq, &wc, ms) == 0;
}

bool async_wait(struct ibv_async_event *ev, int ms)
{
	struct pollfd pfd = { .fd = C.ctx->async_fd, .events = POLLIN };

	if (poll(&pfd, 1, ms) != 1)
		return false;
	if (ibv_get_async_event(C.ctx, ev))
		return false;
	ibv_ack_async_event(ev);
	return true;
}

int post_recv1(struct ibv_qp *qp, uint64_t wr_id, struct buf *b, size_t off,
	       uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)b->p + off, len, b->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, &wr, &bad);
}

int post_srq_recv1(struct ibv_srq *srq, uint64_t wr_id, struct buf *b,
		   size_t off, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)b->p + off, len, b->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id,
				  .sg_list = &sge,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

int post_send1(struct ibv_qp *qp, struct ibv_send_wr *wr, struct buf *b,
	       size_t off, uint32_t len)
{
	struct ibv_sge sge = { (uintptr_t)b->p + off, len, b->mr->lkey };
	struct ibv_send_wr *bad;

	wr->sg_list = &sge;
	wr->num_sge = 1;
	if (wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_BIND_MW)
		wr->num_sge = 0;
	return ibv_post_send(qp, wr, &bad);
}

/* The librxe this process mapped must be the one it was told to test. */
static bool mapped_provider(void)
{
	const char *want = getenv("RXE_CONF_PROVIDER");
	char rwant[PATH_MAX], line[PATH_MAX + 128], found[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/maps", "r");
	int count = 0;

	if (!want || !realpath(want, rwant))
		return check("provider", false,
			     "RXE_CONF_PROVIDER unset or "
			     "missing");
	if (!f)
		return check("provider", false, "no /proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/');

		if (!path || !strstr(path, "librxe"))
			continue;
		path[strcspn(path, "\n")] = 0;
		if (strcmp(path, found)) {
			count++;
			snprintf(found, sizeof(found), "%s", path);
		}
	}
	fclose(f);
	if (!check("provider", count == 1 && !strcmp(found, rwant),
		   "one librxe mapped, the expected one"))
		fprintf(stderr, "mapped %d librxe, last %s, want %s\n", count,
			found, rwant);
	return count == 1 && !strcmp(found, rwant);
}

static int setup(void)
{
	const char *name = getenv("IBV_VM_RXE");
	const char *gi = getenv("IBV_VM_RXE_GID_INDEX");
	const char *which = getenv("RXE_CONF_WHICH");
	struct ibv_device **list = ibv_get_device_list(NULL);

	if (!name || !gi || !which) {
		printf("SKIP: not in the test VM (IBV_VM_RXE, "
		       "IBV_VM_RXE_GID_INDEX, RXE_CONF_WHICH)\n");
		return 77;
	}
	C.ours = !strcmp(which, "ours");
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			C.ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!C.ctx) {
		check("open", false, "%s not opened", name);
		return 1;
	}
	C.gid_index = atoi(gi);
	C.pd = ibv_alloc_pd(C.ctx);
	if (!C.pd || ibv_query_gid(C.ctx, 1, C.gid_index, &C.gid) ||
	    ibv_query_device(C.ctx, &C.dev)) {
		check("setup", false, "PD, GID or device query failed");
		return 1;
	}
	return mapped_provider() ? 0 : 1;
}

int main(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} subjects[] = {
		{ "ops", conf_ops }, { "queues", conf_queues },
		{ "err", conf_err }, { "ud", conf_ud },
		{ "log", conf_log }, { "wr_flush", conf_flush },
#ifdef RXE_CONF_CM
		{ "cm", conf_cm },
#endif
	};
	const char *only = getenv("RXE_CONF_ONLY");
	int ret = setup();

	if (ret)
		return ret;
	for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++)
		if (!only || !strcmp(only, subjects[i].name))
			subjects[i].fn();
	ibv_dealloc_pd(C.pd);
	ibv_close_device(C.ctx);
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
