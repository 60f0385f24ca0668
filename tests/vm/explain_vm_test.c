// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failures that explain themselves where the kernel judges (the test VM's
 * rxe0, through whichever rxe provider /etc/libibverbs.d names): access
 * flags the verbs forbid, an inline size rxe refuses though no device
 * attribute reports it, destroys refused with EBUSY (what still uses the
 * PD, the CQ, the SRQ, from the kernel's resource tracking), and
 * RLIMIT_MEMLOCK for root without CAP_IPC_LOCK. Each case checks the
 * errno and the line our library logs at VERBS_LOG_LEVEL=3.
 *
 * Runs as root inside the test VM on our library; exits 77 elsewhere.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "t_util.h"
#include "t_vm.h"

static char log_path[] = "/tmp/explain-vm-XXXXXX";
static int failures;

/* The log since the last call; it is emptied for the next case. */
static const char *take_log(void)
{
	static char text[4096];
	FILE *f = fopen(log_path, "r");
	size_t n = 0;

	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	T_CHECK(!truncate(log_path, 0));
	return text;
}

/* Case @name: @ok, and the log holds the line @want. */
static void expect(const char *name, bool ok, const char *want)
{
	const char *got = take_log();
	char line[600];

	snprintf(line, sizeof(line), "libibverbs: %s", want);
	if (ok && strstr(got, line)) {
		printf("ok   %-12s %s", name, strstr(got, line) + 12);
		return;
	}
	if (!*got)
		got = "(empty)\n";
	printf("FAIL %-12s %s\n     want: %s\n     log:  %s", name,
	       ok ? "" : "(wrong result)", line, got);
	failures++;
}

static struct ibv_qp *rc_qp(struct ibv_pd *pd, struct ibv_cq *cq,
			    struct ibv_srq *srq, uint32_t inline_size)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = srq ? 0 : 4,
			 .max_send_sge = 1,
			 .max_recv_sge = srq ? 0 : 1,
			 .max_inline_data = inline_size },
	};

	return ibv_create_qp(pd, &a);
}

/*
 * Opening @dev with room for @room descriptors above the lowest free:
 * EMFILE, explained for @what.
 */
static void no_fd_left(const char *dev, int room, const char *what)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_device *device = NULL;
	struct ibv_context *ctx;
	struct rlimit old, rl;
	char want[200];
	int fd;

	T_CHECK(list);
	for (int i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			device = list[i];
	fd = dup(0);
	T_CHECK(device && fd >= 0 && !close(fd));
	T_CHECK(!getrlimit(RLIMIT_NOFILE, &old));
	rl = old;
	rl.rlim_cur = fd + room;
	take_log();
	T_CHECK(!setrlimit(RLIMIT_NOFILE, &rl));
	errno = 0;
	ctx = ibv_open_device(device);
	T_CHECK(!setrlimit(RLIMIT_NOFILE, &old));
	ibv_free_device_list(list);
	snprintf(
		want, sizeof(want),
		"open_device on %s: no file descriptor left for %s: all %d that RLIMIT_NOFILE allows are open",
		dev, what, fd + room);
	expect(room ? "nofile-async" : "nofile-node", !ctx && errno == EMFILE,
	       want);
}

/* VmPin of /proc/self/status, in bytes. */
static unsigned long long vm_pin(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long kb = 0;
	char buf[128];

	T_CHECK(f);
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "VmPin:", 6))
			sscanf(buf + 6, "%llu", &kb);
	fclose(f);
	return kb * 1024;
}

int main(void)
{
	static char page[4096] __attribute__((aligned(4096)));
	const char *dev = getenv("IBV_VM_RXE");
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct rlimit rl = { 1 << 16, 1 << 16 };
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_qp *qp, *sqp;
	struct ibv_mr *mr;
	char want[200];
	void *big;
	int fd;

	if (!getenv("IBV_VM") || geteuid()) {
		printf("runs as root in the test VM (tests/vm/run)\n");
		return 77;
	}
	fd = mkstemp(log_path);
	T_CHECK(fd >= 0);
	close(fd);
	setenv("VERBS_LOG_LEVEL", "3", 1);
	setenv("VERBS_LOG_FILE", log_path, 1);
	dev = dev ? dev : "rxe0";
	no_fd_left(dev, 0, "the uverbs node");
	no_fd_left(dev, 1, "the async event file");
	ctx = t_vm_open(dev);
	T_CHECK(ctx);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	T_CHECK(pd && cq);
	take_log();

	errno = 0;
	mr = ibv_reg_mr(pd, page, sizeof(page), IBV_ACCESS_REMOTE_WRITE);
	expect("access", !mr && errno == EINVAL,
	       "reg_mr on rxe0: IBV_ACCESS_REMOTE_WRITE needs IBV_ACCESS_LOCAL_WRITE");

	errno = 0;
	qp = rc_qp(pd, cq, NULL, 4096);
	expect("inline", !qp && errno == EINVAL,
	       "create_qp on rxe0: max_inline_data 4096 is refused (0 is taken), a limit the device does not report");

	/* Busy: a QP on the CQ, the SRQ and the PD, an MR on the PD. */
	srq = ibv_create_srq(pd, &sa);
	T_CHECK(srq);
	qp = rc_qp(pd, cq, NULL, 0);
	sqp = rc_qp(pd, cq, srq, 0);
	mr = ibv_reg_mr(pd, page, sizeof(page), IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(qp && sqp && mr);
	take_log();
	expect("dealloc_pd", ibv_dealloc_pd(pd) == EBUSY,
	       "dealloc_pd on rxe0: the PD is still used by 2 QPs, 1 MR, 1 SRQ");
	expect("destroy_cq", ibv_destroy_cq(cq) == EBUSY,
	       "destroy_cq on rxe0: the kernel counts 4 uses of the CQ (QP send and receive queues, SRQs, WQs)");
	snprintf(want, sizeof(want),
		 "destroy_srq on rxe0: the SRQ is still used by 1 QP (0x%x)",
		 sqp->qp_num);
	expect("destroy_srq", ibv_destroy_srq(srq) == EBUSY, want);
	T_CHECK(!ibv_destroy_qp(sqp) && !ibv_destroy_qp(qp));
	T_CHECK(!ibv_destroy_srq(srq) && !ibv_dereg_mr(mr));

	/* Root, but without CAP_IPC_LOCK, as in most containers. */
	big = aligned_alloc(4096, 1 << 20);
	T_CHECK(big && !setrlimit(RLIMIT_MEMLOCK, &rl));
	T_CHECK(t_drop_capability(CAP_IPC_LOCK));
	snprintf(
		want, sizeof(want),
		"reg_mr on rxe0: 1048576 bytes more to pin, %llu of RLIMIT_MEMLOCK 65536 already pinned (root, but without CAP_IPC_LOCK)",
		vm_pin());
	errno = 0;
	mr = ibv_reg_mr(pd, big, 1 << 20, IBV_ACCESS_LOCAL_WRITE);
	expect("memlock", !mr && errno == ENOMEM, want);

	T_CHECK(!ibv_destroy_cq(cq) && !ibv_dealloc_pd(pd));
	T_CHECK(!ibv_close_device(ctx));
	unlink(log_path);
	free(big);
	printf("explain: %d failure%s\n", failures, failures == 1 ? "" : "s");
	return failures ? 1 : 0;
}
