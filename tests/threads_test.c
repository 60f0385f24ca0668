// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sixteen threads and a forker on one library, with fork safety on.
 *
 * Our library and siw plugin over the fake siw kernel (t_siw_kernel.h),
 * with RDMA netlink hidden so that the kernel cannot say fork safety is
 * unneeded: the MADV_DONTFORK tracker is on, as on a kernel without
 * copy-on-fork. For IBV_THREADS_SECONDS in all (default 10; scripts/test
 * runs a minute under ThreadSanitizer), a third on each of the fake's
 * kernels (ioctl, write() only, the tunnel), at once:
 *
 *  - 2 threads list the devices and free the list;
 *  - 2 open a context of their own, query it and close it;
 *  - 4 register and deregister ranges of one shared buffer, overlapping
 *    each other's, up to four at a time each;
 *  - 2 create and destroy CQs, one of them on a completion channel;
 *  - 2 create QPs, move them to INIT and destroy them;
 *  - a CQ event thread blocks in ibv_get_cq_event() while an arming
 *    thread arms the CQ and has the kernel signal it, one event a round;
 *  - an async thread blocks in ibv_get_async_event() while a thread has
 *    the kernel report port and QP events, one a round;
 *  - and one more thread forks: each child reads a page nobody registers
 *    and runs /bin/true, as system() would, which must end with status 0.
 *    (Exec rather than exit: under memcheck a child that exits is leak
 *    checked, and what only the other threads' stacks held looks lost.)
 *
 * Every result is checked and a thread stops at its first failure; each
 * must have done some rounds. No thread may still run 30 s after the
 * end (a deadlock fails rather than hangs). Afterwards the process has
 * the file descriptors and the mappings it had before (the tracker has
 * given every page back: the VMAs merge again), and a child reads every
 * page of the shared buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#include "t_seccomp.h"
#include "t_siw_kernel.h"
#include "t_util.h"
#include "t_uverbs.h"

#define PAGE 4096
#define SHARED_PAGES 64
#define JOIN_GRACE_S 30

static char shared[SHARED_PAGES * PAGE] __attribute__((aligned(PAGE)));
static char untouched[PAGE] __attribute__((aligned(PAGE)));

/* What every thread shares: the context, its PD and CQ, the deadline. */
static struct {
	struct ibv_device *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_comp_channel *channel; /* of the event CQ */
	struct ibv_cq *event_cq;
	struct ibv_qp *event_qp; /* the element of the QP events */
	struct timespec end;
	atomic_bool stop;
	sem_t comp_taken, async_taken;
} t;

struct worker {
	const char *name;
	void *(*fn)(void *);
	unsigned int seed;
	long rounds;
	char error[200];
	pthread_t tid;
};

static bool failed(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records @w's first failure; true, so that a loop can stop on it. */
static bool failed(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->error[0])
		return true;
	va_start(ap, fmt);
	vsnprintf(w->error, sizeof(w->error), fmt, ap);
	va_end(ap);
	return true;
}

static bool time_left(void)
{
	struct timespec now;

	if (atomic_load(&t.stop))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > t.end.tv_sec ||
	    (now.tv_sec == t.end.tv_sec && now.tv_nsec >= t.end.tv_nsec))
		atomic_store(&t.stop, true);
	return !atomic_load(&t.stop);
}

static void *lister(void *arg)
{
	struct worker *w = arg;

	while (time_left()) {
		int n = -1;
		struct ibv_device **list = ibv_get_device_list(&n);

		if (!list &&
		    failed(w, "ibv_get_device_list: %s", strerror(errno)))
			break;
		if (n != 1 || strcmp(ibv_get_device_name(list[0]), "siw0")) {
			ibv_free_device_list(list);
			failed(w, "%d devices, not siw0 alone", n);
			break;
		}
		ibv_free_device_list(list);
		w->rounds++;
	}
	return NULL;
}

static void *opener(void *arg)
{
	struct worker *w = arg;

	while (time_left()) {
		struct ibv_context *ctx = ibv_open_device(t.dev);
		struct ibv_device_attr attr;
		struct ibv_port_attr port;

		if (!ctx && failed(w, "ibv_open_device: %s", strerror(errno)))
			break;
		if (ibv_query_device(ctx, &attr) ||
		    ibv_query_port(ctx, 1, &port)) {
			failed(w, "query: %s", strerror(errno));
			ibv_close_device(ctx);
			break;
		}
		if (ibv_close_device(ctx) &&
		    failed(w, "ibv_close_device: %s", strerror(errno)))
			break;
		w->rounds++;
	}
	return NULL;
}

#define MRS_PER_THREAD 4

/* Ranges of the shared buffer, overlapping the other threads' ranges. */
static void *registrar(void *arg)
{
	struct worker *w = arg;
	struct ibv_mr *mrs[MRS_PER_THREAD] = { 0 };

	while (time_left()) {
		unsigned int i = rand_r(&w->seed) % MRS_PER_THREAD;
		size_t first = rand_r(&w->seed) % SHARED_PAGES;
		size_t pages = 1 + rand_r(&w->seed) % (SHARED_PAGES - first);
		/* Not on page boundaries, as programs register. */
		size_t skew = rand_r(&w->seed) % 64;

		if (mrs[i]) {
			if (ibv_dereg_mr(mrs[i]) &&
			    failed(w, "ibv_dereg_mr: %s", strerror(errno)))
				break;
			mrs[i] = NULL;
			continue;
		}
		mrs[i] = ibv_reg_mr(t.pd, shared + first * PAGE + skew,
				    pages * PAGE - skew,
				    IBV_ACCESS_LOCAL_WRITE);
		if (!mrs[i] && failed(w, "ibv_reg_mr: %s", strerror(errno)))
			break;
		w->rounds++;
	}
	for (unsigned int i = 0; i < MRS_PER_THREAD; i++)
		if (mrs[i] && ibv_dereg_mr(mrs[i]))
			failed(w, "ibv_dereg_mr at the end: %s",
			       strerror(errno));
	return NULL;
}

static void *cq_churn(void *arg)
{
	struct worker *w = arg;
	struct ibv_comp_channel *ch = NULL;

	/* The second CQ thread's CQs are on a channel of their own. */
	if (w->seed & 1) {
		ch = ibv_create_comp_channel(t.ctx);
		if (!ch) {
			failed(w, "ibv_create_comp_channel: %s",
			       strerror(errno));
			return NULL;
		}
	}
	while (time_left()) {
		struct ibv_cq *cq = ibv_create_cq(t.ctx, 10, w, ch, 0);

		if (!cq && failed(w, "ibv_create_cq: %s", strerror(errno)))
			break;
		if (ibv_destroy_cq(cq) &&
		    failed(w, "ibv_destroy_cq: %s", strerror(errno)))
			break;
		w->rounds++;
	}
	if (ch && ibv_destroy_comp_channel(ch))
		failed(w, "ibv_destroy_comp_channel: %s", strerror(errno));
	return NULL;
}

static struct ibv_qp *new_qp(void)
{
	struct ibv_qp_init_attr init = {
		.send_cq = t.cq,
		.recv_cq = t.cq,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	return ibv_create_qp(t.pd, &init);
}

static void *qp_churn(void *arg)
{
	struct worker *w = arg;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	while (time_left()) {
		struct ibv_qp *qp = new_qp();

		if (!qp && failed(w, "ibv_create_qp: %s", strerror(errno)))
			break;
		if (ibv_modify_qp(qp, &attr,
				  IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
			failed(w, "ibv_modify_qp: %s", strerror(errno));
			ibv_destroy_qp(qp);
			break;
		}
		if (ibv_destroy_qp(qp) &&
		    failed(w, "ibv_destroy_qp: %s", strerror(errno)))
			break;
		w->rounds++;
	}
	return NULL;
}

/*
 * Waits for @s up to TAKE_WAIT_S (generous: under memcheck, on a loaded
 * machine, a thread may wait long for its turn), looking every 100 ms
 * whether the run is over; false then, or at the deadline.
 */
#define TAKE_WAIT_S 10

static bool wait_taken(sem_t *s)
{
	for (int i = 0; i < TAKE_WAIT_S * 10; i++) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (!sem_timedwait(s, &until))
			return true;
		if (errno != ETIMEDOUT && errno != EINTR)
			return false;
		if (!time_left())
			return false;
	}
	return false;
}

/* Arms the event CQ and has the kernel signal it, one event a round. */
static void *cq_armer(void *arg)
{
	struct worker *w = arg;

	while (time_left()) {
		if (ibv_req_notify_cq(t.event_cq, 0) &&
		    failed(w, "ibv_req_notify_cq: %s", strerror(errno)))
			break;
		if (!t_uv_post_comp(t.channel->fd, t.event_cq) &&
		    failed(w, "the fake's channel queue is full"))
			break;
		if (!wait_taken(&t.comp_taken)) {
			if (time_left())
				failed(w, "no CQ event taken within %d s",
				       TAKE_WAIT_S);
			break;
		}
		w->rounds++;
	}
	return NULL;
}

static void *cq_waiter(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		struct ibv_cq *cq;
		void *cq_ctx;

		if (ibv_get_cq_event(t.channel, &cq, &cq_ctx)) {
			failed(w, "ibv_get_cq_event: %s", strerror(errno));
			break;
		}
		if (cq != t.event_cq || cq_ctx != &t.event_cq) {
			failed(w, "event for CQ %p (context %p)", (void *)cq,
			       cq_ctx);
			break;
		}
		ibv_ack_cq_events(cq, 1);
		sem_post(&t.comp_taken);
		if (atomic_load(&t.stop))
			break;
		w->rounds++;
	}
	return NULL;
}

/* Port and QP events, alternately, one a round. */
static void *async_reporter(void *arg)
{
	struct worker *w = arg;

	while (time_left()) {
		bool qp = w->rounds & 1;
		bool ok = qp ? t_uv_post_async(t.ctx->async_fd,
					       (uintptr_t)t.event_qp,
					       IBV_EVENT_QP_LAST_WQE_REACHED) :
			       t_uv_post_async(t.ctx->async_fd, 1,
					       IBV_EVENT_PORT_ACTIVE);

		if (!ok && failed(w, "the fake's async queue is full"))
			break;
		if (!wait_taken(&t.async_taken)) {
			if (time_left())
				failed(w, "no async event taken within %d s",
				       TAKE_WAIT_S);
			break;
		}
		w->rounds++;
	}
	return NULL;
}

static void *async_waiter(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		struct ibv_async_event ev;
		bool right;

		if (ibv_get_async_event(t.ctx, &ev)) {
			failed(w, "ibv_get_async_event: %s", strerror(errno));
			break;
		}
		right = ev.event_type == IBV_EVENT_PORT_ACTIVE ?
				ev.element.port_num == 1 :
				ev.event_type ==
						IBV_EVENT_QP_LAST_WQE_REACHED &&
					ev.element.qp == t.event_qp;
		ibv_ack_async_event(&ev);
		if (!right) {
			failed(w, "unexpected async event %d", ev.event_type);
			break;
		}
		sem_post(&t.async_taken);
		if (atomic_load(&t.stop))
			break;
		w->rounds++;
	}
	return NULL;
}

/* Children read a page nobody registers, and run a program. */
static void *forker(void *arg)
{
	struct worker *w = arg;

	while (time_left()) {
		int status;
		pid_t pid = fork();

		if (pid < 0 && failed(w, "fork: %s", strerror(errno)))
			break;
		if (!pid) {
			if (untouched[w->rounds % PAGE] != 'u')
				_exit(3);
			execl("/bin/true", "true", (char *)NULL);
			_exit(4);
		}
		if (waitpid(pid, &status, 0) != pid) {
			failed(w, "waitpid: %s", strerror(errno));
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			failed(w, "child ended with status %#x", status);
			break;
		}
		w->rounds++;
	}
	return NULL;
}

static unsigned int seconds(void)
{
	const char *s = getenv("IBV_THREADS_SECONDS");
	unsigned int n = s ? (unsigned int)atoi(s) : 10;

	return n ? n : 10;
}

/*
 * The mappings a leak or the tracker would leave: shared ones (what a
 * provider maps of the command file) and the pieces of the registered
 * buffer (a page range left MADV_DONTFORK stays a VMA of its own). Not
 * all of them: thread stacks come and go with glibc's cache.
 */
static int count_maps(void)
{
	uintptr_t lo = (uintptr_t)shared, hi = lo + sizeof(shared);
	char line[4096], perms[8];
	unsigned long start, end;
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3)
			continue;
		if (perms[3] == 's' || (start < hi && end > lo))
			n++;
	}
	fclose(f);
	return n;
}

static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/* The shared objects, on a context of the main thread. */
static void setup(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);

	assert_non_null(list);
	assert_non_null(list[0]);
	t.dev = list[0]; /* devices stay while the library lives */
	ibv_free_device_list(list);
	t.ctx = ibv_open_device(t.dev);
	assert_non_null(t.ctx);
	t.pd = ibv_alloc_pd(t.ctx);
	assert_non_null(t.pd);
	t.cq = ibv_create_cq(t.ctx, 10, NULL, NULL, 0);
	assert_non_null(t.cq);
	t.channel = ibv_create_comp_channel(t.ctx);
	assert_non_null(t.channel);
	t.event_cq = ibv_create_cq(t.ctx, 10, &t.event_cq, t.channel, 0);
	assert_non_null(t.event_cq);
	t.event_qp = new_qp();
	assert_non_null(t.event_qp);
	atomic_store(&t.stop, false);
	assert_int_equal(sem_init(&t.comp_taken, 0, 0), 0);
	assert_int_equal(sem_init(&t.async_taken, 0, 0), 0);
}

static void teardown(void)
{
	assert_int_equal(ibv_destroy_qp(t.event_qp), 0);
	assert_int_equal(ibv_destroy_cq(t.event_cq), 0);
	assert_int_equal(ibv_destroy_comp_channel(t.channel), 0);
	assert_int_equal(ibv_destroy_cq(t.cq), 0);
	assert_int_equal(ibv_dealloc_pd(t.pd), 0);
	assert_int_equal(ibv_close_device(t.ctx), 0);
	sem_destroy(&t.comp_taken);
	sem_destroy(&t.async_taken);
}

/* Joins @w by @until; false if it is still running then. */
static bool join_by(struct worker *w, const struct timespec *until)
{
	return !pthread_timedjoin_np(w->tid, NULL, until);
}

static void sixteen_and_a_forker(void **state)
{
	struct worker ws[] = {
#define W(name, fn) { name, fn, 0, 0, "", 0 }
		W("list 1", lister),
		W("list 2", lister),
		W("open 1", opener),
		W("open 2", opener),
		W("mr 1", registrar),
		W("mr 2", registrar),
		W("mr 3", registrar),
		W("mr 4", registrar),
		W("cq 1", cq_churn),
		W("cq 2", cq_churn),
		W("qp 1", qp_churn),
		W("qp 2", qp_churn),
		W("cq arm", cq_armer),
		W("cq event", cq_waiter),
		W("async report", async_reporter),
		W("async event", async_waiter),
		W("fork", forker),
#undef W
	};
	size_t n = sizeof(ws) / sizeof(ws[0]);
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct timespec until;
	int fds, maps;
	bool stuck = false;
	pid_t pid;
	int status;

	(void)state;
	/* What stays loaded once a device was opened is no leak. */
	assert_non_null(list);
	assert_non_null(list[0]);
	assert_int_equal(ibv_close_device(ibv_open_device(list[0])), 0);
	ibv_free_device_list(list);
	fds = count_fds();
	maps = count_maps();
	setup();
	clock_gettime(CLOCK_MONOTONIC, &t.end);
	t.end.tv_sec += (seconds() + 2) / 3;
	for (size_t i = 0; i < n; i++) {
		ws[i].seed = (unsigned int)i;
		assert_int_equal(
			pthread_create(&ws[i].tid, NULL, ws[i].fn, &ws[i]), 0);
	}
	/* Sleep to the end, then wake the waiters with one last event. */
	while (time_left())
		usleep(100 * 1000);
	t_uv_post_comp(t.channel->fd, t.event_cq);
	t_uv_post_async(t.ctx->async_fd, 1, IBV_EVENT_PORT_ACTIVE);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += JOIN_GRACE_S;
	for (size_t i = 0; i < n; i++)
		if (!join_by(&ws[i], &until)) {
			print_error("%s: still running %d s after the end\n",
				    ws[i].name, JOIN_GRACE_S);
			stuck = true;
		}
	if (stuck)
		abort(); /* the stack of a deadlock, rather than a hang */
	for (size_t i = 0; i < n; i++) {
		print_message("%-12s %8ld rounds %s%s\n", ws[i].name,
			      ws[i].rounds, ws[i].error[0] ? "FAILED: " : "",
			      ws[i].error);
		if (ws[i].error[0] || !ws[i].rounds)
			fail_msg("%s: %s", ws[i].name,
				 ws[i].error[0] ? ws[i].error : "no round");
	}
	teardown();
	/* Nothing left open, every page given back to fork. */
	assert_int_equal(count_fds(), fds);
	assert_int_equal(count_maps(), maps);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		unsigned long sum = 0;

		for (size_t i = 0; i < sizeof(shared); i += PAGE)
			sum += (unsigned char)shared[i];
		_exit(sum == 's' * SHARED_PAGES ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sixteen_and_a_forker),
	};
	int err;

	memset(shared, 's', sizeof(shared));
	memset(untouched, 'u', sizeof(untouched));
	/* The kernel must not say that fork safety is unneeded. */
	err = t_hide_rdma_netlink();
	if (err) {
		printf("cannot hide RDMA netlink: %s\n", strerror(err));
		return T_SKIP;
	}
	if (ibv_fork_init() || ibv_is_fork_initialized() != IBV_FORK_ENABLED) {
		printf("the fork tracker is not on\n");
		return 1;
	}
	return t_siw_run(tests, sizeof(tests) / sizeof(tests[0]));
}
