// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A device that goes away under its users, as a hardware driver's
 * removal or reset takes it (the kernel's disassociation; mlx5 does it,
 * rxe and siw make the kernel wait for their users instead). On the
 * fake kernel of t_uverbs.h, with our siw and rxe plugins: a context
 * with a PD, an MR, a CQ on an armed completion channel, an SRQ (siw)
 * and an RC QP in RTS (on rxe also an extended CQ, an extended QP and
 * an AH), events already handled on each, one thread blocked in
 * ibv_get_async_event() and one in ibv_get_cq_event(). Then
 * t_uv_disassociate(), and:
 *
 *  - the async thread gets IBV_EVENT_DEVICE_FATAL and then EIO, the CQ
 *    thread EIO, both within a deadline (a hang fails the case);
 *  - every verb fails with EIO, or does what the provider does without
 *    the kernel (polling, arming and posting receives touch only the
 *    shared pages, which now read zeroes): none crashes;
 *  - with RDMAV_ALLOW_DISASSOC_DESTROY every destroy returns 0 and frees,
 *    without waiting for events the kernel will never report, and
 *    closing the context gives back every file and mapping; without it
 *    every destroy returns EIO and leaves the object usable, and closing
 *    still closes the context's files;
 *  - once the device is back (t_uv_reset()), it opens again.
 *
 * The library reads the variable once, at its initialisation, so each
 * setting needs a process: main() runs each plugin in a child per
 * setting, which sets or clears the variable before its first verb.
 * Run on our core and, as disassoc_test_reference, on Debian's (with
 * our plugins under it).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* verbs.h before the kernel ABI headers: both define RDMA_UAPI_PTR. */
#include "t_siw_kernel.h"

#include "t_diffrun.h"
#include "t_rxe_kernel.h"
#include "t_util.h"
#include "t_uverbs.h"

/* What each child runs on: the plugin, and whether destroys may succeed. */
static bool on_rxe, allow;

/* How long a woken waiter may take to return, and the whole program. */
#define JOIN_SECONDS 5
#define WATCHDOG_SECONDS 30

struct objs {
	struct ibv_context *ctx;
	struct ibv_comp_channel *ch;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	/* rxe only */
	struct ibv_cq_ex *cq_ex;
	struct ibv_qp *qp_ex;
	struct ibv_ah *ah;
};

/*
 * Without the variable the objects outlive their context (the library
 * cannot free what the kernel did not let go): kept here, still
 * reachable, so that the leak checkers see the application's choice
 * rather than a leak of the library's. Volatile: never read, the stores
 * would otherwise be optimised away.
 */
static volatile struct objs kept[T_DIFFRUN_NKERNELS];
static unsigned int nkept;

static char buf[8192];

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A verb that must fail as the kernel's commands do: NULL and EIO. */
#define assert_eio_null(call)                 \
	do {                                  \
		errno = 0;                    \
		assert_null(call);            \
		assert_int_equal(errno, EIO); \
	} while (0)

/* INIT, RTR, RTS: what the fake needs is only that each step is asked. */
static void move_to_rts(struct ibv_qp *qp)
{
	const int init = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			 IBV_QP_ACCESS_FLAGS;
	const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	const int rts = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			IBV_QP_MAX_QP_RD_ATOMIC;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	assert_int_equal(ibv_modify_qp(qp, &a, init), 0);
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = 0x42,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1 },
	};
	assert_int_equal(ibv_modify_qp(qp, &a, rtr), 0);
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	assert_int_equal(ibv_modify_qp(qp, &a, rts), 0);
}

static const struct ibv_qp_cap caps = {
	.max_send_wr = 5,
	.max_recv_wr = 5,
	.max_send_sge = 1,
	.max_recv_sge = 1,
};

/* The extended CQ, QP and AH, which siw lacks. */
static void make_rxe_objs(struct objs *o)
{
	struct ibv_cq_init_attr_ex ca = {
		.cqe = 10,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = o->cq,
		.recv_cq = o->cq,
		.qp_type = IBV_QPT_RC,
		.cap = caps,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = o->pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND,
	};
	struct ibv_ah_attr aa = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .hop_limit = 64,
			 .dgid.raw = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 } },
	};

	o->cq_ex = ibv_create_cq_ex(o->ctx, &ca);
	assert_non_null(o->cq_ex);
	o->qp_ex = ibv_create_qp_ex(o->ctx, &qa);
	assert_non_null(o->qp_ex);
	/* Sends below RTS never reach the doorbell. */
	move_to_rts(o->qp_ex);
	o->ah = ibv_create_ah(o->pd, &aa);
	assert_non_null(o->ah);
}

static void make_objs(struct objs *o)
{
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 5, .max_sge = 1 } };
	struct ibv_qp_init_attr qi = { .qp_type = IBV_QPT_RC, .cap = caps };

	o->ctx = t_uv_open_only(NULL);
	assert_non_null(o->ctx);
	o->ch = ibv_create_comp_channel(o->ctx);
	assert_non_null(o->ch);
	o->pd = ibv_alloc_pd(o->ctx);
	assert_non_null(o->pd);
	o->mr = ibv_reg_mr(o->pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(o->mr);
	o->cq = ibv_create_cq(o->ctx, 10, NULL, o->ch, 0);
	assert_non_null(o->cq);
	assert_int_equal(ibv_req_notify_cq(o->cq, 0), 0);
	/*
	 * Not on rxe: the fake rxe kernel answers an SRQ's capacities with
	 * its pattern, which rxe then refuses to map a queue for.
	 */
	if (!on_rxe) {
		o->srq = ibv_create_srq(o->pd, &si);
		assert_non_null(o->srq);
	}
	qi.send_cq = qi.recv_cq = o->cq;
	o->qp = ibv_create_qp(o->pd, &qi);
	assert_non_null(o->qp);
	move_to_rts(o->qp);
	if (on_rxe)
		make_rxe_objs(o);
}

/* A thread blocked in one of the event reads. */
struct waiter {
	pthread_t thread;
	struct objs *o;
	atomic_bool started, returned;
	int ret, err; /* of the first read */
	enum ibv_event_type type; /* ... which was an async event */
	int ret2, err2; /* the async thread's second read */
};

static void *async_waiter(void *arg)
{
	struct waiter *w = arg;
	struct ibv_async_event ev;

	atomic_store(&w->started, true);
	w->ret = ibv_get_async_event(w->o->ctx, &ev);
	w->err = errno;
	atomic_store(&w->returned, true);
	if (w->ret)
		return NULL;
	w->type = ev.event_type;
	ibv_ack_async_event(&ev);
	/* After the fatal event, the file has nothing more: EIO at once. */
	w->ret2 = ibv_get_async_event(w->o->ctx, &ev);
	w->err2 = errno;
	if (!w->ret2)
		ibv_ack_async_event(&ev);
	return NULL;
}

static void *cq_waiter(void *arg)
{
	struct waiter *w = arg;
	struct ibv_cq *cq;
	void *cq_ctx;

	atomic_store(&w->started, true);
	w->ret = ibv_get_cq_event(w->o->ch, &cq, &cq_ctx);
	w->err = errno;
	atomic_store(&w->returned, true);
	if (!w->ret)
		ibv_ack_cq_events(cq, 1);
	return NULL;
}

static void start_waiter(struct waiter *w, struct objs *o, void *(*fn)(void *))
{
	*w = (struct waiter){ .o = o, .ret = 1, .ret2 = 1 };
	assert_int_equal(pthread_create(&w->thread, NULL, fn, w), 0);
}

/*
 * A waiter that has not returned 50 ms after it started is blocked in
 * its read (the fake's read() waits in poll() until the file has
 * something to say).
 */
static void assert_blocked(struct waiter *w)
{
	while (!atomic_load(&w->started))
		usleep(1000);
	usleep(50 * 1000);
	assert_false(atomic_load(&w->returned));
}

/* Joined within JOIN_SECONDS, or the case fails: a hang must not hide. */
static void join_in_time(struct waiter *w, const char *what)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += JOIN_SECONDS;
	if (pthread_timedjoin_np(w->thread, NULL, &deadline))
		fail_msg("%s still blocked %d s after disassociation", what,
			 JOIN_SECONDS);
}

/* The queries and creates: each a command, each EIO. */
static void commands_fail(struct objs *o)
{
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 5, .max_sge = 1 } };
	struct ibv_qp_init_attr qi = {
		.send_cq = o->cq,
		.recv_cq = o->cq,
		.qp_type = IBV_QPT_RC,
		.cap = caps,
	};
	struct ibv_qp_attr qa = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp_init_attr qinit;
	struct ibv_srq_attr sa = { .srq_limit = 1 };
	struct ibv_device_attr_ex dx;
	struct ibv_device_attr d;
	struct ibv_port_attr port;
	union ibv_gid gid;

	assert_int_equal(ibv_query_device(o->ctx, &d), EIO);
	assert_int_equal(ibv_query_device_ex(o->ctx, NULL, &dx), EIO);
	assert_int_equal(ibv_query_port(o->ctx, 1, &port), EIO);
	/*
	 * The GID comes from the kernel's method where there is one (EIO
	 * now), else from sysfs, which still has the device (a reset keeps
	 * it) but in the fake holds no GID table: no answer either way.
	 */
	errno = 0;
	assert_int_equal(ibv_query_gid(o->ctx, 1, 0, &gid), -1);
	assert_int_equal(errno, t_uv.kernel == T_UV_NO_IOCTL ? ENOENT : EIO);
	assert_eio_null(ibv_alloc_pd(o->ctx));
	assert_eio_null(ibv_reg_mr(o->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE));
	assert_eio_null(ibv_create_cq(o->ctx, 10, NULL, NULL, 0));
	if (!on_rxe)
		assert_eio_null(ibv_create_srq(o->pd, &si));
	assert_eio_null(ibv_create_qp(o->pd, &qi));
	/* CREATE_COMP_CHANNEL is a command like any other. */
	assert_eio_null(ibv_create_comp_channel(o->ctx));
	assert_int_equal(ibv_modify_qp(o->qp, &qa, IBV_QP_STATE), EIO);
	assert_int_equal(ibv_query_qp(o->qp, &qa, IBV_QP_STATE, &qinit), EIO);
	if (o->srq)
		assert_int_equal(ibv_modify_srq(o->srq, &sa, IBV_SRQ_LIMIT),
				 EIO);
}

/*
 * The data path: whatever goes through a command fails with EIO (the
 * send doorbell; rxe's arming), what only touches the shared pages works
 * on the zeroes they now hold, and tells nothing false: an empty CQ.
 */
static void data_path(struct objs *o)
{
	struct ibv_sge sge = { (uintptr_t)buf, 64, o->mr->lkey };
	struct ibv_send_wr swr = {
		.wr_id = 1,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr *bad_s = NULL;
	struct ibv_recv_wr *bad_r = NULL;
	struct ibv_wc wc[4];

	assert_int_equal(ibv_post_send(o->qp, &swr, &bad_s), EIO);
	/*
	 * Both take back what the refused doorbell would have announced (EIO:
	 * the device is gone, no request of the call can ever complete;
	 * providers/README.md, "Doorbell failures") and name the first WR
	 * (Debian's librxe leaves the WRs queued and bad_wr unset).
	 */
	assert_ptr_equal(bad_s, &swr);
	/* Receives need no doorbell: they land in the zeroed pages. */
	assert_int_equal(ibv_post_recv(o->qp, &rwr, &bad_r), 0);
	if (o->srq)
		assert_int_equal(ibv_post_srq_recv(o->srq, &rwr, &bad_r), 0);
	assert_int_equal(ibv_poll_cq(o->cq, 4, wc), 0);
	/* siw arms by writing its control word; rxe asks the kernel. */
	assert_int_equal(ibv_req_notify_cq(o->cq, 0), on_rxe ? EIO : 0);
	if (on_rxe) {
		struct ibv_poll_cq_attr pa = {};
		struct ibv_qp_ex *qx = ibv_qp_to_qp_ex(o->qp_ex);

		assert_int_equal(ibv_start_poll(o->cq_ex, &pa), ENOENT);
		ibv_wr_start(qx);
		qx->wr_id = 3;
		ibv_wr_send(qx);
		ibv_wr_set_sge(qx, o->mr->lkey, (uintptr_t)buf, 64);
		assert_int_equal(ibv_wr_complete(qx), EIO);
	}
}

/* What stays as it was: the device list, read from sysfs. */
static void device_list_stays(void)
{
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	assert_non_null(list);
	assert_int_equal(n, 1);
	/* ... but the device cannot be opened: GET_CONTEXT fails. */
	assert_eio_null(ibv_open_device(list[0]));
	ibv_free_device_list(list);
}

/* Every destroy: 0 with the variable, else EIO and the object stays. */
static void destroy_all(struct objs *o)
{
	int want = allow ? 0 : EIO;

	if (on_rxe) {
		assert_int_equal(ibv_destroy_ah(o->ah), want);
		assert_int_equal(ibv_destroy_qp(o->qp_ex), want);
		assert_int_equal(ibv_destroy_cq(ibv_cq_ex_to_cq(o->cq_ex)),
				 want);
	}
	assert_int_equal(ibv_destroy_qp(o->qp), want);
	if (o->srq)
		assert_int_equal(ibv_destroy_srq(o->srq), want);
	/* No count of events after EIO, nothing to wait for: take_events(). */
	assert_int_equal(ibv_destroy_cq(o->cq), want);
	assert_int_equal(ibv_dereg_mr(o->mr), want);
	assert_int_equal(ibv_dealloc_pd(o->pd), want);
	/* A channel is no kernel object: busy while its CQ lives on. */
	assert_int_equal(ibv_destroy_comp_channel(o->ch), allow ? 0 : EBUSY);
	if (allow)
		return;
	/* Still valid: the event can be acknowledged, a retry says EIO. */
	ibv_ack_cq_events(o->cq, 1);
	assert_int_equal(ibv_destroy_cq(o->cq), EIO);
	assert_int_equal(ibv_destroy_qp(o->qp), EIO);
	kept[nkept++ % T_DIFFRUN_NKERNELS] = *o;
}

static void reopen(void)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;

	t_uv_reset(t_uv.kernel);
	ctx = t_uv_open_only(NULL);
	assert_non_null(ctx);
	pd = ibv_alloc_pd(ctx);
	assert_non_null(pd);
	assert_int_equal(ibv_dealloc_pd(pd), 0);
	assert_int_equal(ibv_close_device(ctx), 0);
}

/* One async event of @type on @element, read and acknowledged. */
static void take_async(struct objs *o, const void *element,
		       enum ibv_event_type type)
{
	struct ibv_async_event ev;

	assert_true(
		t_uv_post_async(o->ctx->async_fd, (uintptr_t)element, type));
	assert_int_equal(ibv_get_async_event(o->ctx, &ev), 0);
	assert_int_equal(ev.event_type, type);
	ibv_ack_async_event(&ev);
}

/*
 * Events handled before the device goes: each object with events
 * acknowledged, which a destroy compares with the kernel's count of
 * events reported. After EIO there is no count (the answer stays
 * zeroed), so a destroy that waited for the two to match would wait
 * forever (the watchdog ends the program then). One completion event
 * stays unacknowledged, as an application may leave it.
 */
static void take_events(struct objs *o)
{
	struct ibv_cq *cq;
	void *cq_ctx;

	for (int i = 0; i < 2; i++) {
		assert_true(t_uv_post_comp(o->ch->fd, o->cq));
		assert_int_equal(ibv_get_cq_event(o->ch, &cq, &cq_ctx), 0);
		assert_ptr_equal(cq, o->cq);
	}
	ibv_ack_cq_events(o->cq, 1);
	take_async(o, o->cq, IBV_EVENT_CQ_ERR);
	take_async(o, o->qp, IBV_EVENT_COMM_EST);
	if (o->srq)
		take_async(o, o->srq, IBV_EVENT_SRQ_LIMIT_REACHED);
	if (o->qp_ex)
		take_async(o, o->qp_ex, IBV_EVENT_SQ_DRAINED);
	/* Armed again for the waiter. */
	assert_int_equal(ibv_req_notify_cq(o->cq, 0), 0);
}

static void device_gone(void **state)
{
	struct waiter aw, cw;
	struct objs o = { 0 };
	struct ibv_async_event ev;
	unsigned int fds, maps;
	struct ibv_cq *cq;
	void *cq_ctx;

	(void)state;
	/* Counted once the library is up: its log file stays open. */
	ibv_free_device_list(ibv_get_device_list(NULL));
	assert_true(t_library_under_test((void *)ibv_open_device));
	fds = open_fds();
	maps = t_uv_live_maps();
	make_objs(&o);
	take_events(&o);
	start_waiter(&aw, &o, async_waiter);
	start_waiter(&cw, &o, cq_waiter);
	assert_blocked(&aw);
	assert_blocked(&cw);

	t_uv_disassociate();
	join_in_time(&aw, "ibv_get_async_event()");
	join_in_time(&cw, "ibv_get_cq_event()");
	assert_int_equal(aw.ret, 0);
	assert_int_equal(aw.type, IBV_EVENT_DEVICE_FATAL);
	assert_int_equal(aw.ret2, -1);
	assert_int_equal(aw.err2, EIO);
	assert_int_equal(cw.ret, -1);
	assert_int_equal(cw.err, EIO);
	/* ... and so for any later reader, at once. */
	assert_int_equal(ibv_get_async_event(o.ctx, &ev), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(ibv_get_cq_event(o.ch, &cq, &cq_ctx), -1);
	assert_int_equal(errno, EIO);

	commands_fail(&o);
	data_path(&o);
	device_list_stays();
	destroy_all(&o);
	assert_int_equal(ibv_close_device(o.ctx), 0);
	/*
	 * Everything back: each file the context opened, and each mapping
	 * of the command file, by the fake's count (its mappings are
	 * anonymous, and the thread stacks glibc caches would blur a count
	 * of /proc/self/maps). Without the variable the live objects keep
	 * their mappings, and the channel its file.
	 */
	if (allow) {
		assert_int_equal(open_fds(), fds);
		assert_int_equal(t_uv_live_maps(), maps);
	} else {
		assert_int_equal(open_fds(), fds + 1);
		assert_true(t_uv_live_maps() > maps);
	}
	reopen();
}

/* A hang says so before the child dies (write() is the fake's). */
static void watchdog(int sig)
{
	static const char msg[] = "disassoc_test: hung, the watchdog fired\n";

	(void)sig;
	(void)!syscall(SYS_write, 2, msg, sizeof(msg) - 1);
	_exit(1);
}

static int child(void *arg)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_gone),
	};

	(void)arg;
	if (allow)
		setenv("RDMAV_ALLOW_DISASSOC_DESTROY", "1", 1);
	else
		unsetenv("RDMAV_ALLOW_DISASSOC_DESTROY");
	unsetenv("MLX4_DEVICE_FATAL_CLEANUP");
	signal(SIGALRM, watchdog);
	alarm(WATCHDOG_SECONDS);
	if (on_rxe)
		return t_rxe_run(tests, 1);
	return t_siw_run(tests, 1);
}

int main(void)
{
	int ret = 0;

	for (int p = 0; p < 2; p++)
		for (int a = 0; a < 2; a++) {
			int r;

			on_rxe = p;
			allow = a;
			printf("== %s, RDMAV_ALLOW_DISASSOC_DESTROY %s\n",
			       on_rxe ? "rxe" : "siw", allow ? "set" : "unset");
			r = t_run(child, NULL);
			if (r == T_SKIP)
				return T_SKIP;
			ret |= r != 0;
		}
	return ret;
}
