// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test: refused work requests, and what our librxe
 * says about them at VERBS_LOG_LEVEL=3 (the runner sets the level and
 * VERBS_LOG_FILE). Each check asserts the refusal on both providers;
 * on ours also the message (which limit, which opcode on which QP
 * type), whose text goes to a note (it names the QP number).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "rxe_conf.h"

static struct buf ba, bb;

static long log_mark(void)
{
	const char *f = getenv("VERBS_LOG_FILE");
	struct stat sb;

	fflush(NULL);
	return f && !stat(f, &sb) ? (long)sb.st_size : 0;
}

/* The log's text since @mark holds @want; its first line to a note. */
static bool logged(const char *name, long mark, const char *want)
{
	const char *f = getenv("VERBS_LOG_FILE");
	char text[4096] = "";
	FILE *fp = f ? fopen(f, "r") : NULL;
	size_t n;

	if (!fp)
		return false;
	fseek(fp, mark, SEEK_SET);
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = 0;
	note(name, "log: %.*s", (int)strcspn(text, "\n"), text);
	return strstr(text, want) != NULL;
}

/*
 * A refusal with @want (@debian on Debian's librxe); on ours the log
 * since @mark says @msg. The line names ours' errno, a note Debian's
 * where it differs.
 */
static void refused(const char *name, int ret, int want, int debian, long mark,
		    const char *msg)
{
	int expect = C.ours ? want : debian;
	bool ok = ret == expect && (!C.ours || logged(name, mark, msg));

	if (expect != want)
		note(name, "Debian's librxe answers %s", strerror(ret));
	check(name, ok, "refused with %s", strerror(ok ? want : ret));
}

static int send_one(struct ibv_qp *qp, int num_sge, uint32_t len, int flags,
		    enum ibv_wr_opcode op)
{
	struct ibv_sge sge[16];
	struct ibv_send_wr wr = { .wr_id = 1,
				  .sg_list = sge,
				  .num_sge = num_sge,
				  .opcode = op,
				  .send_flags = flags };
	struct ibv_send_wr *bad;

	for (int i = 0; i < num_sge && i < 16; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)ba.p, len, ba.mr->lkey };
	wr.wr.rdma.remote_addr = (uintptr_t)bb.p;
	wr.wr.rdma.rkey = bb.mr->rkey;
	return ibv_post_send(qp, &wr, &bad);
}

static void log_classic(struct side *a, struct side *b)
{
	struct ibv_sge sge[8];
	struct ibv_recv_wr rwr = { .sg_list = sge };
	struct ibv_recv_wr *rbad;
	long mark;
	int ret = 0;

	for (int i = 0; i < 8; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)bb.p, 8, bb.mr->lkey };
	mark = log_mark();
	ret = send_one(a->qp, (int)a->cap.max_send_sge + 1, 8, 0, IBV_WR_SEND);
	refused("log.send_sges", ret, EINVAL, EINVAL, mark,
		"SGEs, the limit is");
	mark = log_mark();
	ret = send_one(a->qp, 1, a->cap.max_inline_data + 1, IBV_SEND_INLINE,
		       IBV_WR_SEND);
	refused("log.inline", ret, EINVAL, EINVAL, mark,
		"bytes inline, the limit is");
	rwr.num_sge = (int)b->cap.max_recv_sge + 1;
	mark = log_mark();
	ret = ibv_post_recv(b->qp, &rwr, &rbad);
	refused("log.recv_sges", ret, EINVAL, EINVAL, mark,
		"SGEs, the limit is");
	rwr.num_sge = 1;
	ret = 0;
	for (int i = 0; i < 64 && !ret; i++) {
		mark = log_mark();
		ret = ibv_post_recv(b->qp, &rwr, &rbad);
	}
	refused("log.recv_full", ret, ENOMEM, ENOMEM, mark,
		"receive queue full");
	/* The peer never answers (timeout 4 s): the sends stay queued. */
	ibv_destroy_qp(b->qp);
	b->qp = NULL;
	ret = 0;
	for (int i = 0; i < 64 && !ret; i++) {
		mark = log_mark();
		ret = send_one(a->qp, 1, 8, 0, IBV_WR_RDMA_WRITE);
	}
	refused("log.send_full", ret, ENOMEM, ENOMEM, mark, "send queue full");
}

/* ibv_wr_*(): a builder's refusal is ibv_wr_complete()'s. */
static void log_wr(struct side *a)
{
	struct ibv_sge sge[16];
	struct ibv_qp_ex *x = a->qpx;
	long mark;
	int ret;

	for (int i = 0; i < 16; i++)
		sge[i] = (struct ibv_sge){ (uintptr_t)ba.p, 8, ba.mr->lkey };
	mark = log_mark();
	ibv_wr_start(x);
	ibv_wr_send(x);
	ibv_wr_set_sge_list(x, a->cap.max_send_sge + 1, sge);
	ret = ibv_wr_complete(x);
	refused("log.wr_sges", ret, EINVAL, ENOSPC, mark, "SGEs, the limit is");
	mark = log_mark();
	ibv_wr_start(x);
	ibv_wr_send(x);
	ibv_wr_set_inline_data(x, ba.p, a->cap.max_inline_data + 1);
	ret = ibv_wr_complete(x);
	refused("log.wr_inline", ret, EINVAL, ENOSPC, mark,
		"bytes inline, the limit");
}

/* READ on a UC QP: both providers refuse it at post. */
static void log_opcode(void)
{
	struct qp_opts o = { .type = IBV_QPT_UC };
	struct side u;
	long mark;
	int ret;

	ret = side_new(&u, &o, false);
	if (!check("log.uc", !ret, "UC QP, ret=%d", ret))
		return;
	mark = log_mark();
	ret = send_one(u.qp, 1, 8, 0, IBV_WR_RDMA_READ);
	refused("log.opcode", ret, EINVAL, EINVAL, mark,
		"opcode RDMA_READ (4) refused on a UC QP");
	side_free(&u);
}

/*
 * The port's speed, which neither librxe gets from rdma_rxe: Debian's
 * has no such op, ours asks a kernel that lacks the method (6.1, 6.12)
 * or has it with nothing to answer (7.2: EOPNOTSUPP). The log says
 * which, and that is what the kernel series decides.
 */
static void log_port_speed(void)
{
	struct utsname u;
	const char *want;
	uint64_t speed = 0;
	long mark = log_mark();
	int ret = ibv_query_port_speed(C.ctx, 1, &speed);

	uname(&u);
	if (!C.ours)
		want = "the provider has no port-speed query";
	else if (atoi(u.release) >= 7)
		want = "the kernel has the method DEVICE/QUERY_PORT_SPEED, but its driver gives no speed for port 1";
	else
		want = "the kernel has no ioctl method DEVICE/QUERY_PORT_SPEED";
	check("log.port_speed",
	      ret == EOPNOTSUPP && logged("log.port_speed", mark, want),
	      "refused with %s", strerror(ret));
}

void conf_log(void)
{
	struct qp_opts o = {
		.send_wr = 4, .recv_wr = 4, .inline_data = 64, .ex = true
	};
	struct path p = { .timeout = 20, .retry_cnt = 7, .rnr_retry = 7 };
	struct side a, b;
	int ret;

	if (!check("log.file", getenv("VERBS_LOG_FILE") != NULL,
		   "VERBS_LOG_FILE set by the runner"))
		return;
	if (buf_new(&ba, 4096) || buf_new(&bb, 4096)) {
		check("log.setup", false, "buffers");
		return;
	}
	ret = pair_new(&a, &b, &o, &p);
	if (check("log.setup", !ret, "RC pair of extended QPs, ret=%d", ret)) {
		log_wr(&a);
		log_classic(&a, &b);
		pair_free(&a, &b);
	}
	log_opcode();
	log_port_speed();
	buf_free(&ba);
	buf_free(&bb);
}
