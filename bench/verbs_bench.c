// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_bench - the control path and the data path of our library against
 * Debian's rdma-core 44, side by side in one boot of the test VM, both
 * driving Debian's own rxe provider on rxe0:
 *
 *   open+close, query device/port/GID, alloc+dealloc PD, reg+dereg MR of
 *   4 KiB, 1 MiB and 64 MiB (without and with RDMAV_FORK_SAFE=1), create+
 *   destroy CQ and QP, modify QP RESET->INIT->RTR->RTS->RESET, and on an
 *   RC QP looped back on rxe0: RDMA WRITE and SEND message rate and a SEND
 *   ping-pong between two QPs.
 *
 * Each library lives in a worker process of its own (this program again,
 * with --worker), which dlopen()s it by path with LD_LIBRARY_PATH pointing
 * at its directory, so that the provider binds to the same copy. One
 * process with both libraries (dlmopen) is not an option: a provider must
 * resolve verbs_register_driver_34 and ibv_cmd_* in the namespace of the
 * library that loads it, and libnl and the providers' constructors do not
 * take kindly to being loaded twice. The parent sends a worker "run line L
 * for N iterations" over a pipe and reads back the elapsed time
 * (CLOCK_MONOTONIC, taken in the worker); only one worker runs at a time,
 * the other waits in read().
 *
 * Per line the parent sizes N on ours so that a batch lasts --batch-ms,
 * then runs --batches pairs of batches. Every pair gets two fresh workers
 * (under TCG a process can be up to 2x slower than another on the same
 * short call, for its whole life, whatever the library): both warm up,
 * then run one timed batch each, back to back, the library that goes
 * first alternating. The pair's ratio is rdma-core's time over ours
 * (above 1: ours is faster); the line's ratio is the median of those, so
 * a slow phase of a shared host hits both sides of a pair and drops out.
 *
 * usage: verbs_bench [options] OURS_LIB REF_LIB   (paths of libibverbs.so.1)
 *
 * Exit status: 0 when every line ran (whatever the speed), 1 when a verb
 * failed, 2 on bad usage, 77 when there is no rxe device (outside the VM).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "bench_util.h"
#include "rc_connect.h"
#include "verbs_lookup.h"

#define TARGET_RATIO 0.95
#define MAX_BATCHES 31
#define BIG_BUF (64UL << 20)
#define TRAFFIC_BUF (64UL << 10)
#define MSG_SIZE 64
#define SQ_DEPTH 32
#define RQ_DEPTH 64
#define CQ_DEPTH 256

/*
 * The verbs come from the table the VM's verbs_diff uses, at v44's default
 * versions. Functions the header implements inline (post, poll,
 * query_port through verbs_context) need no lookup: they reach the
 * provider or the core through the context, as in any application.
 */
static struct verbs_v44 v;

/* ------------------------------------------------------------------ */
/* Worker: the objects a library's process keeps between batches      */

struct traffic {
	struct ibv_mr *mr;
	struct ibv_cq *cq[3];
	struct ibv_qp *qp[3]; /* 0: looped to itself; 1 <-> 2: ping-pong */
	bool ready;
};

struct wk {
	struct ibv_device *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *mqp; /* the QP that the modify line cycles */
	char *big; /* BIG_BUF reserved, the first @touched bytes written */
	size_t touched;
	char *small;
	union ibv_gid gid;
	int gid_index;
	struct traffic t;
	char why[160]; /* what failed, for the parent */
};

/* Record the first failure; returns @err (positive errno) for chaining. */
static int fail(struct wk *w, int err, const char *what)
{
	if (!w->why[0])
		snprintf(w->why, sizeof(w->why), "%s: %s", what,
			 strerror(err ? err : EIO));
	return err ? err : EIO;
}

static int run_open_close(struct wk *w, unsigned int n)
{
	struct ibv_context *c;

	while (n--) {
		c = v.ibv_open_device(w->dev);
		if (!c)
			return fail(w, errno, "ibv_open_device");
		if (v.ibv_close_device(c))
			return fail(w, errno, "ibv_close_device");
	}
	return 0;
}

static int run_query_device(struct wk *w, unsigned int n)
{
	struct ibv_device_attr a;
	int ret;

	while (n--) {
		ret = v.ibv_query_device(w->ctx, &a);
		if (ret)
			return fail(w, ret, "ibv_query_device");
	}
	return 0;
}

/* What the header's inline ibv_query_port() compiles to in applications. */
static int run_query_port(struct wk *w, unsigned int n)
{
	struct verbs_context *vc = verbs_get_ctx_op(w->ctx, query_port);
	struct ibv_port_attr a;
	int ret;

	if (!vc)
		return fail(w, ENOSYS, "verbs_context query_port");
	while (n--) {
		ret = vc->query_port(w->ctx, 1, &a, sizeof(a));
		if (ret)
			return fail(w, ret, "query_port");
	}
	return 0;
}

static int run_query_gid(struct wk *w, unsigned int n)
{
	union ibv_gid g;

	while (n--)
		if (v.ibv_query_gid(w->ctx, 1, w->gid_index, &g))
			return fail(w, errno, "ibv_query_gid");
	return 0;
}

static int run_pd(struct wk *w, unsigned int n)
{
	struct ibv_pd *pd;
	int ret;

	while (n--) {
		pd = v.ibv_alloc_pd(w->ctx);
		if (!pd)
			return fail(w, errno, "ibv_alloc_pd");
		ret = v.ibv_dealloc_pd(pd);
		if (ret)
			return fail(w, ret, "ibv_dealloc_pd");
	}
	return 0;
}

static int reg_loop(struct wk *w, size_t len, unsigned int n)
{
	struct ibv_mr *mr;
	int ret;

	/* Fault the pages in once, so no batch pays for it. */
	if (w->touched < len) {
		memset(w->big + w->touched, 1, len - w->touched);
		w->touched = len;
	}
	while (n--) {
		mr = v.ibv_reg_mr(w->pd, w->big, len,
				  IBV_ACCESS_LOCAL_WRITE |
					  IBV_ACCESS_REMOTE_WRITE);
		if (!mr)
			return fail(w, errno, "ibv_reg_mr");
		ret = v.ibv_dereg_mr(mr);
		if (ret)
			return fail(w, ret, "ibv_dereg_mr");
	}
	return 0;
}

static int run_mr_4k(struct wk *w, unsigned int n)
{
	return reg_loop(w, 4096, n);
}

static int run_mr_1m(struct wk *w, unsigned int n)
{
	return reg_loop(w, 1UL << 20, n);
}

static int run_mr_64m(struct wk *w, unsigned int n)
{
	return reg_loop(w, BIG_BUF, n);
}

static int run_cq(struct wk *w, unsigned int n)
{
	struct ibv_cq *cq;
	int ret;

	while (n--) {
		cq = v.ibv_create_cq(w->ctx, 64, NULL, NULL, 0);
		if (!cq)
			return fail(w, errno, "ibv_create_cq");
		ret = v.ibv_destroy_cq(cq);
		if (ret)
			return fail(w, ret, "ibv_destroy_cq");
	}
	return 0;
}

static struct ibv_qp *new_qp(struct wk *w, struct ibv_cq *cq)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SQ_DEPTH,
			 .max_recv_wr = RQ_DEPTH,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return v.ibv_create_qp(w->pd, &ia);
}

static int run_qp(struct wk *w, unsigned int n)
{
	struct ibv_qp *qp;
	int ret;

	while (n--) {
		qp = new_qp(w, w->cq);
		if (!qp)
			return fail(w, errno, "ibv_create_qp");
		ret = v.ibv_destroy_qp(qp);
		if (ret)
			return fail(w, ret, "ibv_destroy_qp");
	}
	return 0;
}

/* RESET -> INIT -> RTR -> RTS, the remote end being @dest_qpn on our GID. */
static int connect_qp(struct wk *w, struct ibv_qp *qp, uint32_t dest_qpn)
{
	const char *failed;
	int ret = rc_connect(v.ibv_modify_qp, qp, &w->gid, w->gid_index,
			     dest_qpn, &failed);

	return ret ? fail(w, ret, failed) : 0;
}

/* One iteration: RESET -> INIT -> RTR -> RTS, then back to RESET. */
static int run_modify(struct wk *w, unsigned int n)
{
	struct ibv_qp_attr reset = { .qp_state = IBV_QPS_RESET };
	int ret;

	if (!w->mqp) {
		w->mqp = new_qp(w, w->cq);
		if (!w->mqp)
			return fail(w, errno, "ibv_create_qp");
	}
	while (n--) {
		ret = connect_qp(w, w->mqp, w->mqp->qp_num);
		if (ret)
			return ret;
		ret = v.ibv_modify_qp(w->mqp, &reset, IBV_QP_STATE);
		if (ret)
			return fail(w, ret, "modify_qp RESET");
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Worker: traffic on rxe0, looped back                               */

static int post_recv(struct wk *w, struct ibv_qp *qp, unsigned int k)
{
	struct ibv_sge sge = { (uintptr_t)w->small + TRAFFIC_BUF / 2, MSG_SIZE,
			       w->t.mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int ret = 0;

	while (k-- && !ret)
		ret = ibv_post_recv(qp, &wr, &bad);
	return ret ? fail(w, ret, "ibv_post_recv") : 0;
}

static int post_one(struct wk *w, struct ibv_qp *qp, enum ibv_wr_opcode op)
{
	struct ibv_sge sge = { (uintptr_t)w->small, MSG_SIZE, w->t.mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	wr.wr.rdma.remote_addr = (uintptr_t)w->small + TRAFFIC_BUF / 4;
	wr.wr.rdma.rkey = w->t.mr->rkey;
	ret = ibv_post_send(qp, &wr, &bad);
	return ret ? fail(w, ret, "ibv_post_send") : 0;
}

static int build_traffic(struct wk *w)
{
	struct traffic *t = &w->t;
	int i;

	t->mr = v.ibv_reg_mr(w->pd, w->small, TRAFFIC_BUF,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!t->mr)
		return fail(w, errno, "ibv_reg_mr (traffic)");
	for (i = 0; i < 3; i++) {
		t->cq[i] = v.ibv_create_cq(w->ctx, CQ_DEPTH, NULL, NULL, 0);
		if (!t->cq[i])
			return fail(w, errno, "ibv_create_cq (traffic)");
		t->qp[i] = new_qp(w, t->cq[i]);
		if (!t->qp[i])
			return fail(w, errno, "ibv_create_qp (traffic)");
	}
	return connect_qp(w, t->qp[0], t->qp[0]->qp_num)	 ?:
		       connect_qp(w, t->qp[1], t->qp[2]->qp_num) ?:
		       connect_qp(w, t->qp[2], t->qp[1]->qp_num) ?:
		       post_recv(w, t->qp[0], RQ_DEPTH)		 ?:
		       post_recv(w, t->qp[1], RQ_DEPTH)		 ?:
		       post_recv(w, t->qp[2], RQ_DEPTH);
}

static int ensure_traffic(struct wk *w)
{
	int ret;

	if (w->t.ready)
		return 0;
	ret = build_traffic(w);
	w->t.ready = !ret;
	return ret;
}

/* Counts of what a batch on one QP has seen complete. */
struct flow {
	unsigned int sent, send_done, recv_done;
};

/* Poll @cq once; receives are posted again at once. */
static int reap(struct wk *w, int q, struct flow *f)
{
	struct ibv_wc wc[16];
	int i, n = ibv_poll_cq(w->t.cq[q], 16, wc);

	if (n < 0)
		return fail(w, EIO, "ibv_poll_cq");
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			snprintf(w->why, sizeof(w->why), "completion: %s",
				 v.ibv_wc_status_str(wc[i].status));
			return EIO;
		}
		if (wc[i].opcode & IBV_WC_RECV) {
			f->recv_done++;
			if (post_recv(w, w->t.qp[q], 1))
				return EIO;
		} else {
			f->send_done++;
		}
	}
	return 0;
}

/*
 * @n messages on the QP looped to itself, up to SQ_DEPTH in flight. A
 * SEND needs a receive: never more sends outstanding than the receive
 * queue holds (it is refilled as receives complete).
 */
static int run_rate(struct wk *w, unsigned int n, enum ibv_wr_opcode op)
{
	bool send = op == IBV_WR_SEND;
	struct flow f = { 0 };
	int ret = ensure_traffic(w);

	while (!ret && (f.send_done < n || (send && f.recv_done < n))) {
		while (!ret && f.sent < n && f.sent - f.send_done < SQ_DEPTH &&
		       (!send || f.sent - f.recv_done < RQ_DEPTH)) {
			ret = post_one(w, w->t.qp[0], op);
			f.sent++;
		}
		ret = ret ?: reap(w, 0, &f);
	}
	return ret;
}

static int run_write_rate(struct wk *w, unsigned int n)
{
	return run_rate(w, n, IBV_WR_RDMA_WRITE);
}

static int run_send_rate(struct wk *w, unsigned int n)
{
	return run_rate(w, n, IBV_WR_SEND);
}

/* Send from QP @from and poll until its peer has received it. */
static int hop(struct wk *w, int from, struct flow *f)
{
	int to = 3 - from, ret;
	unsigned int want = f[to].recv_done + 1;

	ret = post_one(w, w->t.qp[from], IBV_WR_SEND);
	f[from].sent++;
	while (!ret && f[to].recv_done < want)
		ret = reap(w, to, &f[to]);
	return ret;
}

/* @n round trips 1 -> 2 -> 1, then the send completions are collected. */
static int run_pingpong(struct wk *w, unsigned int n)
{
	struct flow f[3] = { { 0 } };
	int ret = ensure_traffic(w);

	while (!ret && n--)
		ret = hop(w, 1, f) ?: hop(w, 2, f);
	while (!ret &&
	       (f[1].send_done < f[1].sent || f[2].send_done < f[2].sent))
		ret = reap(w, 1, &f[1]) ?: reap(w, 2, &f[2]);
	return ret;
}

/* ------------------------------------------------------------------ */
/* The lines                                                          */

enum unit { U_OP, U_MSG, U_RTT };

struct line {
	const char *label;
	int (*run)(struct wk *w, unsigned int n);
	enum unit unit;
	bool fork_safe;
};

static const struct line lines[] = {
	{ "open+close device", run_open_close, U_OP, false },
	{ "query device", run_query_device, U_OP, false },
	{ "query port", run_query_port, U_OP, false },
	{ "query GID", run_query_gid, U_OP, false },
	{ "alloc+dealloc PD", run_pd, U_OP, false },
	{ "reg+dereg MR 4 KiB", run_mr_4k, U_OP, false },
	{ "reg+dereg MR 1 MiB", run_mr_1m, U_OP, false },
	{ "reg+dereg MR 64 MiB", run_mr_64m, U_OP, false },
	{ "create+destroy CQ", run_cq, U_OP, false },
	{ "create+destroy QP", run_qp, U_OP, false },
	{ "modify QP to RTS (+RESET)", run_modify, U_OP, false },
	{ "RDMA WRITE 64 B rate", run_write_rate, U_MSG, false },
	{ "SEND 64 B rate", run_send_rate, U_MSG, false },
	{ "SEND ping-pong 64 B", run_pingpong, U_RTT, false },
	{ "reg+dereg MR 4 KiB fork-safe", run_mr_4k, U_OP, true },
	{ "reg+dereg MR 1 MiB fork-safe", run_mr_1m, U_OP, true },
	{ "reg+dereg MR 64 MiB fork-safe", run_mr_64m, U_OP, true },
};

#define NUM_LINES (sizeof(lines) / sizeof(lines[0]))

/* ------------------------------------------------------------------ */
/* Worker: start-up and the request loop                               */

struct request {
	unsigned int line;
	unsigned int iters;
};

struct reply {
	int err;
	double ns;
	char msg[200];
};

static void *load_lib(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	const char *missing;

	if (!h)
		die("dlopen %s: %s", path, dlerror());
	missing = verbs_lookup(h, &v);
	if (missing)
		die("%s lacks %s", path, missing);
	return h;
}

/*
 * Exactly one libibverbs, the requested one, must be mapped, and the rxe
 * provider with it; @prov receives the provider's path.
 */
static void check_maps(const char *lib, char *prov, size_t len)
{
	char want[PATH_MAX], line[PATH_MAX + 128], *p, *real;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f || !realpath(lib, want))
		die("cannot check the mappings: %s", strerror(errno));
	prov[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		if (strstr(p, "/librxe-rdmav"))
			snprintf(prov, len, "%s", p);
		if (!strstr(p, "/libibverbs.so"))
			continue;
		real = realpath(p, NULL);
		if (!real || strcmp(real, want))
			die("%s is mapped next to %s", p, want);
		free(real);
	}
	fclose(f);
	if (!prov[0])
		die("the rxe provider is not loaded");
}

static char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu: %s", len, strerror(errno));
	return p;
}

static void open_dev(struct wk *w, const char *name)
{
	struct ibv_device **list = v.ibv_get_device_list(NULL);
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(v.ibv_get_device_name(list[i]), name))
			w->dev = list[i];
	if (!w->dev)
		die("no device %s", name);
	/* The list is kept: w->dev must stay valid. */
	w->ctx = v.ibv_open_device(w->dev);
	w->pd = w->ctx ? v.ibv_alloc_pd(w->ctx) : NULL;
	w->cq = w->pd ? v.ibv_create_cq(w->ctx, 64, NULL, NULL, 0) : NULL;
	if (!w->cq)
		die("opening %s: %s", name, strerror(errno));
	if (v.ibv_query_gid(w->ctx, 1, w->gid_index, &w->gid))
		die("ibv_query_gid %d: %s", w->gid_index, strerror(errno));
}

/* "dc" in the VmFlags of the mapping at @addr: MADV_DONTFORK is set. */
static bool dontfork_set(const void *addr)
{
	char line[512];
	uintptr_t lo, hi, a = (uintptr_t)addr;
	bool in = false, dc = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8))
			dc = strstr(line, " dc") != NULL;
	}
	if (f)
		fclose(f);
	return dc;
}

/* Whether a registration marks its pages: the fork tracker is on. */
static bool tracker_on(struct wk *w)
{
	struct ibv_mr *mr =
		v.ibv_reg_mr(w->pd, w->small, 4096, IBV_ACCESS_LOCAL_WRITE);
	bool on;

	if (!mr)
		die("ibv_reg_mr: %s", strerror(errno));
	on = dontfork_set(w->small);
	v.ibv_dereg_mr(mr);
	return on;
}

static void serve(struct wk *w, int in, int out)
{
	struct request rq;
	struct reply rp;
	double t;

	while (read(in, &rq, sizeof(rq)) == sizeof(rq)) {
		memset(&rp, 0, sizeof(rp));
		w->why[0] = 0;
		if (rq.line >= NUM_LINES)
			die("bad request");
		t = now_ns();
		rp.err = lines[rq.line].run(w, rq.iters);
		rp.ns = now_ns() - t;
		snprintf(rp.msg, sizeof(rp.msg), "%s", w->why);
		if (write(out, &rp, sizeof(rp)) != sizeof(rp))
			die("reply: %s", strerror(errno));
	}
}

/* argv: library, device, GID index, fork-safe flag, request fd, reply fd */
static int worker_main(char **argv)
{
	static struct wk w;
	struct reply hello = { 0 };
	char prov[PATH_MAX];
	bool fork_safe = atoi(argv[3]);

	w.gid_index = atoi(argv[2]);
	w.big = map_anon(BIG_BUF);
	w.small = map_anon(TRAFFIC_BUF);
	memset(w.small, 1, TRAFFIC_BUF);
	load_lib(argv[0]);
	open_dev(&w, argv[1]);
	check_maps(argv[0], prov, sizeof(prov));
	if (tracker_on(&w) != fork_safe)
		die("the fork tracker is %s, expected %s",
		    fork_safe ? "off" : "on", fork_safe ? "on" : "off");
	/* The provider's path, cut to the message if it must be. */
	memcpy(hello.msg, prov, strnlen(prov, sizeof(hello.msg) - 1));
	if (write(atoi(argv[5]), &hello, sizeof(hello)) != sizeof(hello))
		die("hello: %s", strerror(errno));
	serve(&w, atoi(argv[4]), atoi(argv[5]));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parent                                                             */

struct config {
	const char *lib[2];
	const char *dev;
	const char *gid_index;
	unsigned int batches;
	double batch_ns;
	const char *only;
};

struct worker {
	pid_t pid;
	int to, from;
};

/*
 * Workers run on one CPU, so that none migrates mid-batch. The address
 * space stays randomised: under TCG a process's speed depends on where
 * things land (up to 2x on a short system call, the same library against
 * itself), and fresh layouts per batch make that noise the medians remove
 * rather than a bias that a fixed layout would keep for a whole line.
 */
static void exec_worker(const struct config *cf, int id, bool fork_safe, int in,
			int out)
{
	char dir[PATH_MAX], self[PATH_MAX], fi[16], fo[16];
	ssize_t len;

	snprintf(dir, sizeof(dir), "%s", cf->lib[id]);
	*strrchr(dir, '/') = 0;
	setenv("LD_LIBRARY_PATH", dir, 1);
	if (fork_safe)
		setenv("RDMAV_FORK_SAFE", "1", 1);
	else
		unsetenv("RDMAV_FORK_SAFE");
	unsetenv("IBV_FORK_SAFE");
	pin_last_cpu();
	snprintf(fi, sizeof(fi), "%d", in);
	snprintf(fo, sizeof(fo), "%d", out);
	/* By name: under valgrind, /proc/self/exe is valgrind itself. */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		_exit(127);
	self[len] = 0;
	execl(self, "verbs_bench", "--worker", cf->lib[id], cf->dev,
	      cf->gid_index, fork_safe ? "1" : "0", fi, fo, (char *)NULL);
	_exit(127);
}

static bool get_reply(struct worker *wk, struct reply *rp)
{
	return read(wk->from, rp, sizeof(*rp)) == sizeof(*rp);
}

static void start_worker(const struct config *cf, int id, bool fork_safe,
			 struct worker *wk, bool verbose)
{
	int req[2], rep[2];
	struct reply hello;

	if (pipe2(req, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	wk->pid = fork();
	if (wk->pid < 0)
		die("fork: %s", strerror(errno));
	if (!wk->pid) {
		/* The child's ends must survive the exec. */
		fcntl(req[0], F_SETFD, 0);
		fcntl(rep[1], F_SETFD, 0);
		exec_worker(cf, id, fork_safe, req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	wk->to = req[1];
	wk->from = rep[0];
	if (!get_reply(wk, &hello))
		die("the %s worker did not start", lib_label[id]);
	if (verbose)
		printf("  %-12s %s%s, provider %s\n", lib_label[id],
		       cf->lib[id], fork_safe ? " (RDMAV_FORK_SAFE=1)" : "",
		       hello.msg);
}

static void stop_worker(struct worker *wk)
{
	int status;

	if (!wk->pid)
		return;
	close(wk->to);
	close(wk->from);
	if (waitpid(wk->pid, &status, 0) != wk->pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("a worker ended badly");
	wk->pid = 0;
}

/* One batch: nanoseconds per iteration, or a negative value on failure. */
static double batch(struct worker *wk, unsigned int line, unsigned int n,
		    char *why, size_t len)
{
	struct request rq = { line, n };
	struct reply rp;

	if (write(wk->to, &rq, sizeof(rq)) != sizeof(rq) || !get_reply(wk, &rp))
		die("lost a worker");
	if (rp.err) {
		snprintf(why, len, "%s", rp.msg);
		return -1;
	}
	return rp.ns / n;
}

struct result {
	double t[2]; /* median ns per iteration, per library */
	double ratio, lo, hi; /* median, min and max of the pair ratios */
	unsigned int iters;
	char why[200];
};

/* A fresh pair of workers for @l, library @first started first. */
static void start_pair(const struct config *cf, const struct line *l,
		       struct worker *wk, int first, bool verbose)
{
	start_worker(cf, first, l->fork_safe, &wk[first], verbose);
	start_worker(cf, !first, l->fork_safe, &wk[!first], verbose);
}

static void stop_pair(struct worker *wk)
{
	stop_worker(&wk[0]);
	stop_worker(&wk[1]);
}

/*
 * Size a batch on ours (the first batches are the warm-up of the objects
 * and of the provider) so that it lasts about --batch-ms.
 */
static unsigned int calibrate(const struct config *cf, unsigned int line,
			      struct result *r, bool verbose)
{
	struct worker wk[2] = { { 0 } };
	unsigned int n = 1, k;
	double t, t3;

	start_pair(cf, &lines[line], wk, 0, verbose);
	/* The line's setup (QPs, connections, first faults) is not timed. */
	t = batch(&wk[0], line, 1, r->why, sizeof(r->why));
	while (t >= 0) {
		t = batch(&wk[0], line, n, r->why, sizeof(r->why));
		if (t < 0 || t * n >= cf->batch_ns / 2 || n >= 1u << 24)
			break;
		n = t * n < cf->batch_ns / 64 ? n * 8 : n * 2;
	}
	/*
	 * A stall of the shared host may have ended the doubling early: the
	 * fastest of three more batches of that size sets the size.
	 */
	for (k = 0; k < 3 && t >= 0; k++) {
		t3 = batch(&wk[0], line, n, r->why, sizeof(r->why));
		t = t3 < 0 || t3 < t ? t3 : t;
	}
	stop_pair(wk);
	if (t < 0)
		return 0;
	return cf->batch_ns / t > 1 ? cf->batch_ns / t : 1;
}

/*
 * Batch pair @b on fresh workers: both warm up (a quarter batch: lazy
 * binding, first faults, the provider's first calls), then the timed
 * batches run back to back, the library that goes first alternating.
 */
static bool batch_pair(const struct config *cf, unsigned int line,
		       unsigned int b, struct result *r, double *t)
{
	struct worker wk[2] = { { 0 } };
	unsigned int k, id, warm = r->iters / 4 ? r->iters / 4 : 1;
	bool ok = true;

	start_pair(cf, &lines[line], wk, b % 2, false);
	for (k = 0; k < 2 && ok; k++)
		ok = batch(&wk[k], line, warm, r->why, sizeof(r->why)) >= 0;
	for (k = 0; k < 2 && ok; k++) {
		id = (k + b) % 2;
		t[id] = batch(&wk[id], line, r->iters, r->why, sizeof(r->why));
		ok = t[id] >= 0;
	}
	stop_pair(wk);
	return ok;
}

static bool measure(const struct config *cf, unsigned int line,
		    struct result *r, bool verbose)
{
	double t[2][MAX_BATCHES], ratio[MAX_BATCHES], pair[2];
	unsigned int b;

	r->iters = calibrate(cf, line, r, verbose);
	if (!r->iters)
		return false;
	for (b = 0; b < cf->batches; b++) {
		if (!batch_pair(cf, line, b, r, pair))
			return false;
		t[0][b] = pair[0];
		t[1][b] = pair[1];
		ratio[b] = pair[1] / pair[0];
	}
	r->t[0] = median(t[0], cf->batches);
	r->t[1] = median(t[1], cf->batches);
	r->ratio = median(ratio, cf->batches); /* sorts @ratio */
	r->lo = ratio[0];
	r->hi = ratio[cf->batches - 1];
	return true;
}

/* A time per iteration in the line's unit. */
static void fmt_value(char *buf, size_t len, enum unit u, double ns)
{
	if (u == U_MSG)
		snprintf(buf, len, "%.1f k/s", 1e6 / ns);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static void print_header(void)
{
	printf("\n%-31s %12s %12s %7s %13s %6s  %s\n", "line", "ours",
	       "rdma-core", "ratio", "pair range", "iters", "verdict");
}

static void print_line(const struct line *l, const struct result *r, bool ok)
{
	char a[32], b[32];

	if (!ok) {
		printf("%-31s ERROR: %s\n", l->label, r->why);
		return;
	}
	fmt_value(a, sizeof(a), l->unit, r->t[0]);
	fmt_value(b, sizeof(b), l->unit, r->t[1]);
	printf("%-31s %12s %12s %6.2fx %5.2f-%-5.2f %7u  %s\n", l->label, a, b,
	       r->ratio, r->lo, r->hi, r->iters,
	       r->ratio >= TARGET_RATIO ? "PASS" : "BELOW");
	fflush(stdout);
}

static bool selected(const struct config *cf, const struct line *l)
{
	return !cf->only || strstr(l->label, cf->only);
}

static int parent_main(const struct config *cf)
{
	unsigned int i, below = 0, errors = 0;
	int mode = -1;
	struct result r;
	bool ok, fresh;

	printf("verbs_bench: device %s, per line %u pairs of batches of ~%.0f ms, each pair on a fresh worker per library\n",
	       cf->dev, cf->batches, cf->batch_ns / 1e6);
	printf("ratio = rdma-core time / ours (above 1: ours faster), median over the batch pairs\n");
	for (i = 0; i < NUM_LINES; i++) {
		if (!selected(cf, &lines[i]))
			continue;
		fresh = mode != lines[i].fork_safe;
		mode = lines[i].fork_safe;
		memset(&r, 0, sizeof(r));
		ok = measure(cf, i, &r, fresh);
		if (fresh)
			print_header();
		print_line(&lines[i], &r, ok);
		errors += !ok;
		below += ok && r.ratio < TARGET_RATIO;
	}
	printf("\nverbs_bench: %u line(s) below %.2fx, %u error(s)\n", below,
	       TARGET_RATIO, errors);
	return errors ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: verbs_bench [--batches N] [--batch-ms MS] [--device NAME] [--only TEXT] OURS_LIB REF_LIB\n"
		"       (paths of the two libibverbs.so.1; run inside tests/vm/run)\n");
	exit(2);
}

static void parse(int argc, char **argv, struct config *cf)
{
	static const struct option opts[] = {
		{ "batches", required_argument, NULL, 'b' },
		{ "batch-ms", required_argument, NULL, 'm' },
		{ "device", required_argument, NULL, 'd' },
		{ "only", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "b:m:d:o:", opts, NULL)) != -1) {
		if (c == 'b')
			cf->batches = strtoul(optarg, NULL, 0);
		else if (c == 'm')
			cf->batch_ns = strtod(optarg, NULL) * 1e6;
		else if (c == 'd')
			cf->dev = optarg;
		else if (c == 'o')
			cf->only = optarg;
		else
			usage();
	}
	if (argc - optind != 2 || !cf->batches || cf->batches > MAX_BATCHES ||
	    !(cf->batch_ns > 0))
		usage();
	cf->lib[0] = argv[optind];
	cf->lib[1] = argv[optind + 1];
}

int main(int argc, char **argv)
{
	struct config cf = { .batches = 11, .batch_ns = 40e6 };
	const char *gi = getenv("IBV_VM_RXE_GID_INDEX");
	int id;

	if (argc == 8 && !strcmp(argv[1], "--worker"))
		return worker_main(argv + 2);
	cf.dev = getenv("IBV_VM_RXE");
	cf.gid_index = gi ? gi : "1";
	parse(argc, argv, &cf);
	if (!cf.dev)
		skip("no rxe device (run it in the VM: tests/vm/run)");
	for (id = 0; id < NUM_LIBS; id++)
		if (access(cf.lib[id], R_OK) || !strchr(cf.lib[id], '/'))
			skip("%s library %s: %s", lib_label[id], cf.lib[id],
			     strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	return parent_main(&cf);
}
