// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Two rxe devices joined by a wire that loses packets and is then cut
 * (tests/vm/link builds it in the test VM: rxeA on vethA, rxeB on vethB,
 * traffic between them crossing the veth pair). One process drives both
 * ends through our library:
 *  - without loss, the traffic really crosses the wire: the veths count
 *    at least the packets rxe says it sent;
 *  - with netem dropping 10% of the packets each way, RC SENDs, RDMA
 *    WRITEs and RDMA READs of many sizes, most of several packets, all
 *    complete with IBV_WC_SUCCESS and every byte arrives, nothing past
 *    the end; netem's drop counts and rxe's retry counters show that
 *    packets were lost and sent again;
 *  - with the wire cut, a send completes with IBV_WC_RETRY_EXC_ERR once
 *    its small retry budget is spent, within seconds: nothing hangs;
 *  - with the wire back, a new QP pair moves data again.
 * Exits 77 outside the VM.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "rc_connect.h"
#include "t_util.h"
#include "t_vm.h"

/* A batch of work in flight: one slot of each end's buffer per request. */
#define SLOTS 16
/* The largest message, 16 path MTUs of 1024, and a guard band after it. */
#define MAX_MSG 16384
#define SLOT (MAX_MSG + 64)
#define GUARD 0xa5

/*
 * The ACK timeout of the QPs: 4.096 us x 2^12, about 17 ms, so a lost
 * tail packet costs little. At retry_cnt 7 rxe retries forever, which the
 * lossy phase wants; the cut needs a budget that runs out.
 */
#define TIMEOUT 12
#define RETRY_FOREVER 7
#define RETRY_CUT 2

struct end {
	const char *dev, *netdev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	unsigned char *buf;
	union ibv_gid gid;
	int gid_index;
};

/* QP a on rxeA talks to QP b on rxeB; each has its own CQ. */
struct pair {
	struct ibv_cq *acq, *bcq;
	struct ibv_qp *a, *b;
};

static struct end A, B;

static const unsigned int sizes[] = { 1,    63,	  1000, 1024,  1025,
				      2048, 4095, 5000, 12288, MAX_MSG };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned char *slot(struct end *e, int k)
{
	return e->buf + (size_t)k * SLOT;
}

/*
 * Byte @j of request @i: differs between requests and does not repeat
 * every 256 bytes, so a packet landing at the wrong offset shows.
 */
static unsigned char pattern(int i, size_t j)
{
	return (unsigned char)((i + 1) * 151 + j * 7 + (j >> 8) * 13);
}

static void fill(unsigned char *p, int i, size_t len)
{
	for (size_t j = 0; j < len; j++)
		p[j] = pattern(i, j);
}

/* Request @i's @len bytes at the start of @p, then the guard to SLOT. */
static bool intact(const unsigned char *p, int i, size_t len)
{
	for (size_t j = 0; j < SLOT; j++)
		if (p[j] != (j < len ? pattern(i, j) : GUARD))
			return false;
	return true;
}

static void open_end(struct end *e, const char *var)
{
	char name[64];

	e->dev = getenv(var);
	snprintf(name, sizeof(name), "%s_NETDEV", var);
	e->netdev = getenv(name);
	snprintf(name, sizeof(name), "%s_GID_INDEX", var);
	e->gid_index = atoi(getenv(name));
	e->ctx = t_vm_open(e->dev);
	T_CHECK(e->ctx);
	T_CHECK(!ibv_query_gid(e->ctx, 1, e->gid_index, &e->gid));
	e->pd = ibv_alloc_pd(e->ctx);
	T_CHECK(e->pd);
	e->buf = malloc((size_t)SLOTS * SLOT);
	T_CHECK(e->buf);
	e->mr = ibv_reg_mr(e->pd, e->buf, (size_t)SLOTS * SLOT,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);
	T_CHECK(e->mr);
}

static void close_end(struct end *e)
{
	T_CHECK(!ibv_dereg_mr(e->mr) && !ibv_dealloc_pd(e->pd));
	T_CHECK(!ibv_close_device(e->ctx));
	free(e->buf);
}

static void connected(int ret, const char *failed)
{
	if (ret)
		fprintf(stderr, "wire: %s failed: %s\n", failed, strerror(ret));
	T_CHECK(!ret);
}

static void make_pair(struct pair *p, uint8_t retry_cnt)
{
	struct ibv_qp_init_attr init = { .qp_type = IBV_QPT_RC,
					 .cap = { .max_send_wr = SLOTS,
						  .max_recv_wr = SLOTS,
						  .max_send_sge = 1,
						  .max_recv_sge = 1 } };
	/* rc_to_init() allows remote writes; b answers reads too. */
	struct ibv_qp_attr reads = { .qp_access_flags =
					     IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE |
					     IBV_ACCESS_REMOTE_READ };
	const char *failed = "";

	p->acq = ibv_create_cq(A.ctx, 2 * SLOTS, NULL, NULL, 0);
	p->bcq = ibv_create_cq(B.ctx, 2 * SLOTS, NULL, NULL, 0);
	T_CHECK(p->acq && p->bcq);
	init.send_cq = init.recv_cq = p->acq;
	p->a = ibv_create_qp(A.pd, &init);
	init.send_cq = init.recv_cq = p->bcq;
	p->b = ibv_create_qp(B.pd, &init);
	T_CHECK(p->a && p->b);
	connected(rc_to_init(ibv_modify_qp, p->a), "modify_qp INIT");
	connected(rc_to_init(ibv_modify_qp, p->b), "modify_qp INIT");
	connected(rc_to_rts_timed(ibv_modify_qp, p->a, &B.gid, A.gid_index,
				  p->b->qp_num, TIMEOUT, retry_cnt, &failed),
		  failed);
	connected(rc_to_rts_timed(ibv_modify_qp, p->b, &A.gid, B.gid_index,
				  p->a->qp_num, TIMEOUT, retry_cnt, &failed),
		  failed);
	connected(ibv_modify_qp(p->b, &reads, IBV_QP_ACCESS_FLAGS),
		  "modify_qp RTS access flags");
}

static void free_pair(struct pair *p)
{
	T_CHECK(!ibv_destroy_qp(p->a) && !ibv_destroy_qp(p->b));
	T_CHECK(!ibv_destroy_cq(p->acq) && !ibv_destroy_cq(p->bcq));
}

/*
 * Up to @n completions of @cq into @wc, until @deadline; returns how many
 * came. A missing completion is the test's failure, never a hang.
 */
static int reap(struct ibv_cq *cq, struct ibv_wc *wc, int n, double deadline)
{
	int got = 0;

	while (got < n && now() < deadline) {
		int ret = ibv_poll_cq(cq, n - got, wc + got);

		T_CHECK(ret >= 0);
		if (!ret)
			usleep(200);
		got += ret;
	}
	return got;
}

enum kind { SEND, WRITE, READ, KINDS };

static enum kind kind_of(int i)
{
	return (enum kind)(i % KINDS);
}

/* 10 sizes and 3 kinds: every 30 requests meet each pair once. */
static unsigned int size_of(int i)
{
	return sizes[(size_t)i % NSIZES];
}

/* Request @i in slot @k: a SEND (and its receive), a WRITE or a READ. */
static void post_one(struct pair *p, int i, int k)
{
	static const enum ibv_wr_opcode ops[] = { IBV_WR_SEND,
						  IBV_WR_RDMA_WRITE,
						  IBV_WR_RDMA_READ };
	struct ibv_sge s = { (uintptr_t)slot(&A, k), size_of(i), A.mr->lkey };
	struct ibv_sge r = { (uintptr_t)slot(&B, k), SLOT, B.mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = i, .sg_list = &r, .num_sge = 1 };
	struct ibv_send_wr swr = { .wr_id = i,
				   .sg_list = &s,
				   .num_sge = 1,
				   .opcode = ops[kind_of(i)],
				   .send_flags = IBV_SEND_SIGNALED };
	struct ibv_recv_wr *rbad;
	struct ibv_send_wr *sbad;

	/* The source holds the pattern, the destination only the guard. */
	fill(kind_of(i) == READ ? slot(&B, k) : slot(&A, k), i, size_of(i));
	memset(kind_of(i) == READ ? slot(&A, k) : slot(&B, k), GUARD, SLOT);
	swr.wr.rdma.remote_addr = (uintptr_t)slot(&B, k);
	swr.wr.rdma.rkey = B.mr->rkey;
	if (kind_of(i) == SEND)
		T_CHECK(!ibv_post_recv(p->b, &rwr, &rbad));
	T_CHECK(!ibv_post_send(p->a, &swr, &sbad));
}

static void check_send_wc(const struct ibv_wc *wc, int i)
{
	static const enum ibv_wc_opcode ops[] = { IBV_WC_SEND,
						  IBV_WC_RDMA_WRITE,
						  IBV_WC_RDMA_READ };

	if (wc->status != IBV_WC_SUCCESS)
		fprintf(stderr, "wire: request %d completed: %s\n", i,
			ibv_wc_status_str(wc->status));
	T_CHECK(wc->status == IBV_WC_SUCCESS);
	/* RC completes a QP's requests in the order they were posted. */
	T_CHECK(wc->wr_id == (uint64_t)i && wc->opcode == ops[kind_of(i)]);
}

static void check_recv_wc(const struct ibv_wc *wc, int i)
{
	T_CHECK(wc->status == IBV_WC_SUCCESS);
	T_CHECK(wc->wr_id == (uint64_t)i && wc->opcode == IBV_WC_RECV);
	T_CHECK(wc->byte_len == size_of(i));
}

/*
 * Requests @first..@first+@n-1 (n <= SLOTS) in flight together, each
 * completion checked and each destination compared byte by byte.
 */
static void batch(struct pair *p, int first, int n, double deadline)
{
	struct ibv_wc swc[SLOTS], rwc[SLOTS];
	int sends = 0, r = 0;

	for (int k = 0; k < n; k++) {
		post_one(p, first + k, k);
		sends += kind_of(first + k) == SEND;
	}
	T_CHECK(reap(p->acq, swc, n, deadline) == n);
	T_CHECK(reap(p->bcq, rwc, sends, deadline) == sends);
	for (int k = 0; k < n; k++) {
		int i = first + k;

		check_send_wc(&swc[k], i);
		if (kind_of(i) == SEND)
			check_recv_wc(&rwc[r++], i);
		if (!intact(kind_of(i) == READ ? slot(&A, k) : slot(&B, k), i,
			    size_of(i))) {
			fprintf(stderr, "wire: request %d: data differ\n", i);
			exit(1);
		}
	}
}

/* @count requests from @first, in batches, within @secs; returns bytes. */
static long traffic(struct pair *p, int first, int count, double secs)
{
	double deadline = now() + secs;
	long bytes = 0;

	for (int i = first; i < first + count; i += SLOTS) {
		int n = first + count - i < SLOTS ? first + count - i : SLOTS;

		batch(p, i, n, deadline);
	}
	for (int i = first; i < first + count; i++)
		bytes += size_of(i);
	return bytes;
}

/* The number in the sysfs file @path, or -1. */
static long sysfs_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long rxe_counter(const struct end *e, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", e->dev,
		 name);
	return sysfs_long(path);
}

static long net_stat(const struct end *e, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s",
		 e->netdev, name);
	return sysfs_long(path);
}

/*
 * netem on the egress of both veths, so that both directions lose
 * packets: @loss "10%" or "100%"; NULL removes it.
 */
static void set_loss(const char *loss)
{
	char cmd[256];

	/* One shell for both: each process costs under emulation. */
	if (loss)
		snprintf(cmd, sizeof(cmd),
			 "tc qdisc replace dev %s root netem loss %s && "
			 "tc qdisc replace dev %s root netem loss %s",
			 A.netdev, loss, B.netdev, loss);
	else
		snprintf(cmd, sizeof(cmd),
			 "tc qdisc del dev %s root && tc qdisc del dev %s root",
			 A.netdev, B.netdev);
	if (system(cmd) != 0) {
		fprintf(stderr, "wire: failed: %s\n", cmd);
		exit(1);
	}
}

/* The packets netem dropped on @e's veth so far, from `tc -s qdisc`. */
static long netem_dropped(const struct end *e)
{
	char cmd[128], line[512];
	long dropped = -1;
	const char *at;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "tc -s qdisc show dev %s root", e->netdev);
	f = popen(cmd, "r");
	T_CHECK(f);
	while (fgets(line, sizeof(line), f))
		if ((at = strstr(line, "(dropped ")))
			dropped = atol(at + strlen("(dropped "));
	T_CHECK(pclose(f) == 0 && dropped >= 0);
	return dropped;
}

/* The counters of rxe that a lost packet moves, before and after. */
static const char *const retry_counters[] = {
	"completer_retry_err", "rcvd_seq_err",	     "out_of_seq_request",
	"duplicate_request",   "retry_exceeded_err",
};
#define NRETRY (sizeof(retry_counters) / sizeof(retry_counters[0]))

struct retries {
	long a[NRETRY], b[NRETRY];
};

static void read_retries(struct retries *r)
{
	for (size_t k = 0; k < NRETRY; k++) {
		r->a[k] = rxe_counter(&A, retry_counters[k]);
		r->b[k] = rxe_counter(&B, retry_counters[k]);
		T_CHECK(r->a[k] >= 0 && r->b[k] >= 0);
	}
}

/* Prints what moved; returns the change of counter @name on rxeA. */
static long print_retries(const char *phase, const struct retries *was,
			  const char *name)
{
	struct retries is;
	long asked = -1;

	read_retries(&is);
	for (size_t k = 0; k < NRETRY; k++) {
		printf("%s: %s %s +%ld, %s +%ld\n", phase, retry_counters[k],
		       A.dev, is.a[k] - was->a[k], B.dev, is.b[k] - was->b[k]);
		if (!strcmp(retry_counters[k], name))
			asked = is.a[k] - was->a[k];
	}
	return asked;
}

/*
 * No loss yet: rxe must put its packets on the wire, not loop them back
 * (it would if both ends had one MAC) nor route them through lo.
 */
static void crosses_wire(void)
{
	long sent_a = rxe_counter(&A, "sent_pkts");
	long sent_b = rxe_counter(&B, "sent_pkts");
	long tx_a = net_stat(&A, "tx_packets"),
	     rx_b = net_stat(&B, "rx_packets");
	long tx_b = net_stat(&B, "tx_packets"),
	     rx_a = net_stat(&A, "rx_packets");
	double t0 = now();
	struct pair p;

	make_pair(&p, RETRY_FOREVER);
	traffic(&p, 0, 30, 30);
	free_pair(&p);
	t0 = now() - t0;
	sent_a = rxe_counter(&A, "sent_pkts") - sent_a;
	sent_b = rxe_counter(&B, "sent_pkts") - sent_b;
	tx_a = net_stat(&A, "tx_packets") - tx_a;
	rx_b = net_stat(&B, "rx_packets") - rx_b;
	tx_b = net_stat(&B, "tx_packets") - tx_b;
	rx_a = net_stat(&A, "rx_packets") - rx_a;
	printf("wire: 30 requests without loss in %.1f s; %s sent %ld packets, %s tx %ld, %s rx %ld\n",
	       t0, A.dev, sent_a, A.netdev, tx_a, B.netdev, rx_b);
	printf("wire: %s sent %ld packets, %s tx %ld, %s rx %ld\n", B.dev,
	       sent_b, B.netdev, tx_b, A.netdev, rx_a);
	T_CHECK(sent_a > 30 && tx_a >= sent_a && rx_b >= sent_a);
	T_CHECK(sent_b > 0 && tx_b >= sent_b && rx_a >= sent_b);
}

/* 10% loss each way: everything arrives, and the loss was real. */
static void lossy(void)
{
	const int count = 300;
	long drop_a, drop_b, bytes;
	struct retries was;
	struct pair p;
	double t0;

	set_loss("10%");
	drop_a = netem_dropped(&A);
	drop_b = netem_dropped(&B);
	read_retries(&was);
	make_pair(&p, RETRY_FOREVER);
	t0 = now();
	bytes = traffic(&p, 0, count, 60);
	printf("loss: netem loss 10%% on %s and %s: %d requests (SEND, RDMA WRITE, RDMA READ; 1 to %d bytes), %ld bytes in %.1f s: all IBV_WC_SUCCESS, every byte right\n",
	       A.netdev, B.netdev, count, MAX_MSG, bytes, now() - t0);
	free_pair(&p);
	drop_a = netem_dropped(&A) - drop_a;
	drop_b = netem_dropped(&B) - drop_b;
	printf("loss: netem dropped %ld packets on %s, %ld on %s\n", drop_a,
	       A.netdev, drop_b, B.netdev);
	T_CHECK(drop_a > 0 && drop_b > 0);
	T_CHECK(print_retries("loss", &was, "completer_retry_err") > 0);
}

/* The wire cut: a send fails once its retries are spent, within seconds. */
static void cut(void)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	struct ibv_wc wc;
	struct retries was;
	struct pair p;
	double t0;
	int got, recvs;

	make_pair(&p, RETRY_CUT);
	set_loss("100%");
	read_retries(&was);
	t0 = now();
	/* Request 9 is a SEND of 16 packets. */
	post_one(&p, 9, 0);
	got = reap(p.acq, &wc, 1, t0 + 5);
	printf("cut: netem loss 100%% on %s and %s: send (timeout %d, retry_cnt %d) completed in %.2f s: %s\n",
	       A.netdev, B.netdev, TIMEOUT, RETRY_CUT, now() - t0,
	       got ? ibv_wc_status_str(wc.status) : "no completion");
	T_CHECK(got == 1 && wc.status == IBV_WC_RETRY_EXC_ERR);
	T_CHECK(!ibv_query_qp(p.a, &attr, IBV_QP_STATE, &init));
	recvs = ibv_poll_cq(p.bcq, 1, &wc);
	printf("cut: %s's QP is in state %d (IBV_QPS_ERR %d); %s got %d receive completions\n",
	       A.dev, attr.qp_state, IBV_QPS_ERR, B.dev, recvs);
	T_CHECK(attr.qp_state == IBV_QPS_ERR && recvs == 0);
	T_CHECK(print_retries("cut", &was, "retry_exceeded_err") == 1);
	free_pair(&p);
}

/* The wire back: a new pair moves data. */
static void restored(void)
{
	double t0 = now();
	struct pair p;

	set_loss(NULL);
	make_pair(&p, RETRY_FOREVER);
	traffic(&p, 0, 30, 30);
	free_pair(&p);
	printf("restored: netem removed; a new pair's 30 requests completed in %.1f s, every byte right\n",
	       now() - t0);
}

int main(void)
{
	if (!getenv("IBV_VM") || !getenv("IBV_VM_WIRE_A") ||
	    !getenv("IBV_VM_WIRE_B")) {
		printf("runs in the test VM, after tests/vm/link built the wire\n");
		return 77;
	}
	/* stdout and stderr share one serial line: keep them in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	open_end(&A, "IBV_VM_WIRE_A");
	open_end(&B, "IBV_VM_WIRE_B");
	printf("wire: %s (%s) <-> %s (%s), RoCEv2 GID indexes %d and %d\n",
	       A.dev, A.netdev, B.dev, B.netdev, A.gid_index, B.gid_index);
	crosses_wire();
	lossy();
	cut();
	restored();
	close_end(&B);
	close_end(&A);
	printf("wire: ok\n");
	return 0;
}
