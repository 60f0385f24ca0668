// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs, object by object, on rxe0 and siw0: a fixed script of steps
 * whose transcript is compared between Debian's libibverbs and ours by
 * tests/vm/verbs_diff. One line per step:
 *
 *   <device> <step-id> ret=<value> errno=<name> [field=value ...]
 *
 * Only values that do not change from run to run are printed: no handles,
 * keys, QP numbers, addresses or times (a boolean such as "lkey!=0" stands
 * in for them). errno is printed only after a failure ("-" otherwise): a
 * successful verb may leave anything there.
 *
 * Each step runs in its own child, which opens the device and builds what
 * the step needs, so a crash shows as "crash=SEGV" after what the step
 * printed so far, and the next step still runs. A verb the library does
 * not export shows as "missing-symbol=<name>".
 *
 * Environment (set by the VM): IBV_VM_RXE, IBV_VM_RXE_GID_INDEX,
 * IBV_VM_SIW, IBV_VM_SIW_GID_INDEX. Arguments: step ids (prefixes) to run;
 * none runs them all. "--list" prints the step ids.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <dlfcn.h>

#include <infiniband/verbs.h>

#include "verbs_lookup.h"

/*
 * The verbs of verbs_lookup.h are called through @lib, looked up in the
 * library the program runs on: a library that lacks one shows
 * "missing-symbol" instead of failing to load the program. The header's
 * inline functions that call an exported verb are either not used
 * (ibv_reg_mr) or reach it through a forwarder defined here
 * (ibv_query_device) or through a symbol our library already exports at
 * its default version (ibv_query_port).
 */
static struct verbs_v44 lib;

/* The fallback of the inline ibv_query_device_ex() calls this one. */
int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	if (!lib.ibv_query_device)
		return ENOSYS;
	return lib.ibv_query_device(context, device_attr);
}

#pragma weak ibv_query_port

#define T_STEP_TIMEOUT 10 /* seconds; SIGALRM past it */
#define T_BUF 4096

/* Step flags: what the child builds before the step, where it runs. */
enum {
	T_NODEV = 1 << 0, /* needs no device: runs once, device "any" */
	T_RXE = 1 << 1, /* RoCE only (needs a GID to reach itself) */
	T_CTX = 1 << 2, /* an open context */
	T_PD = 1 << 3 | T_CTX, /* and a PD */
	T_CQ = 1 << 4 | T_PD, /* and a CQ of 16 entries */
};

struct t_dev {
	const char *name;
	int gid_index;
	bool rxe;
};

/* What a step's child builds; torn down by _exit(). */
struct t_st {
	const struct t_dev *dev;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_device_attr attr;
	union ibv_gid gid;
};

struct t_step {
	const char *id;
	unsigned int flags;
	void (*run)(struct t_st *st);
};

static int t_fd = -1; /* the pipe to the parent */

/*
 * Everything a child prints goes straight to the parent, field by field,
 * so what came before a crash is kept.
 */
static void t_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void t_out(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	buf[0] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(buf + 1, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (write(t_fd, buf, n + 1) < 0)
		_exit(2);
}

static const char *t_errname(int e)
{
	static char other[16];
	const char *name;

	if (!e)
		return "0";
	name = strerrorname_np(e);
	if (name)
		return name;
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

/* A step ends here; nothing is torn down that _exit() does not. */
static void t_done(void)
{
	_exit(0);
}

/* A step needs @fn: without it, it ends with missing-symbol=<name>. */
static void t_need_fn(const void *fn, const char *name)
{
	if (!fn) {
		t_out("missing-symbol=%s", name);
		t_done();
	}
}

/* The same for a verb of the table. */
#define t_need(fn) t_need_fn((const void *)lib.fn, #fn)

/* The main result of a verb that returns 0 or a positive errno. */
static void t_rc(const char *key, int rc)
{
	int e = errno;

	if (!rc) {
		t_out("%s=0 errno=-", key);
		return;
	}
	t_out("%s=%s errno=%s", key, rc > 0 ? t_errname(rc) : "neg",
	      t_errname(e));
	if (rc < 0)
		t_out("%s.value=%d", key, rc);
}

/* A verb that returns a count, or -1 with errno. */
static void t_num(const char *key, long n)
{
	int e = errno;

	if (n >= 0)
		t_out("%s=%ld errno=-", key, n);
	else
		t_out("%s=%ld errno=%s", key, n, t_errname(e));
}

/* A verb that returns an object, or NULL with errno; true on success. */
static bool t_ptr(const char *key, const void *p)
{
	int e = errno;

	if (p) {
		t_out("%s=ok errno=-", key);
		return true;
	}
	t_out("%s=NULL errno=%s", key, t_errname(e));
	return false;
}

/* A setup call failed: say which, and end the step. */
static void t_setup_failed(const char *what)
{
	int e = errno;

	t_out("setup-failed=%s errno=%s", what, t_errname(e));
	t_done();
}

static void t_gid_str(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid->raw, buf, len))
		snprintf(buf, len, "?");
}

/* ------------------------------------------------------------------ */
/* Setup helpers: each ends the step with setup-failed=... on failure. */

static void t_open(struct t_st *st)
{
	struct ibv_device **list;
	int i, n = 0;

	t_need(ibv_get_device_list);
	t_need(ibv_open_device);
	t_need(ibv_get_device_name);
	list = lib.ibv_get_device_list(&n);
	if (!list)
		t_setup_failed("get_device_list");
	for (i = 0; i < n; i++)
		if (!strcmp(lib.ibv_get_device_name(list[i]), st->dev->name))
			break;
	if (i == n) {
		t_out("setup-failed=device-not-listed listed=%d", n);
		t_done();
	}
	errno = 0;
	st->ctx = lib.ibv_open_device(list[i]);
	if (!st->ctx)
		t_setup_failed("open_device");
}

static void t_build(struct t_st *st, unsigned int flags)
{
	if (!(flags & T_CTX))
		return;
	t_open(st);
	t_need(ibv_query_device);
	t_need(ibv_query_gid);
	if (lib.ibv_query_device(st->ctx, &st->attr))
		t_setup_failed("query_device");
	if (lib.ibv_query_gid(st->ctx, 1, st->dev->gid_index, &st->gid))
		t_setup_failed("query_gid");
	if ((flags & T_PD) == T_PD) {
		t_need(ibv_alloc_pd);
		st->pd = lib.ibv_alloc_pd(st->ctx);
		if (!st->pd)
			t_setup_failed("alloc_pd");
	}
	if ((flags & T_CQ) == T_CQ) {
		t_need(ibv_create_cq);
		st->cq = lib.ibv_create_cq(st->ctx, 16, NULL, NULL, 0);
		if (!st->cq)
			t_setup_failed("create_cq");
	}
}

/*
 * The header's ibv_reg_mr() macro, for constant access flags: optional
 * bits go to ibv_reg_mr_iova2, the rest to ibv_reg_mr.
 */
static struct ibv_mr *t_reg(struct t_st *st, void *addr, size_t len,
			    unsigned int access)
{
	errno = 0;
	if (access & IBV_ACCESS_OPTIONAL_RANGE) {
		t_need(ibv_reg_mr_iova2);
		return lib.ibv_reg_mr_iova2(st->pd, addr, len, (uintptr_t)addr,
					    access);
	}
	t_need(ibv_reg_mr);
	return lib.ibv_reg_mr(st->pd, addr, len, (int)access);
}

static void *t_page(void)
{
	static char page[4096] __attribute__((aligned(4096)));

	return page;
}

static struct ibv_qp *t_qp(struct t_st *st, enum ibv_qp_type type, uint32_t wr,
			   bool setup)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = type,
		.cap = { .max_send_wr = wr,
			 .max_recv_wr = wr,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp *qp;

	t_need(ibv_create_qp);
	errno = 0;
	qp = lib.ibv_create_qp(st->pd, &ia);
	if (!qp && setup)
		t_setup_failed("create_qp");
	return qp;
}

static int t_to_init(struct ibv_qp *qp, int access)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
		.qkey = 0x11111111,
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	mask |= qp->qp_type == IBV_QPT_UD ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS;
	t_need(ibv_modify_qp);
	errno = 0;
	return lib.ibv_modify_qp(qp, &a, mask);
}

/* RESET -> INIT -> RTR -> RTS, connected to itself through its GID. */
static void t_loopback(struct t_st *st, struct ibv_qp *qp, bool setup)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = qp->qp_num,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.grh = { .dgid = st->gid, .hop_limit = 1,
				 .sgid_index = st->dev->gid_index },
			.port_num = 1,
		},
	};
	int rc, access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			 IBV_ACCESS_REMOTE_READ;

	rc = t_to_init(qp, access);
	if (rc) {
		errno = rc;
		if (setup)
			t_setup_failed("modify_qp_init");
		t_rc("init", rc);
		t_done();
	}
	rc = lib.ibv_modify_qp(qp, &a,
			       IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				       IBV_QP_MAX_DEST_RD_ATOMIC |
				       IBV_QP_MIN_RNR_TIMER);
	if (rc && setup) {
		errno = rc;
		t_setup_failed("modify_qp_rtr");
	}
	if (!setup)
		t_rc("ret", rc);
	if (rc)
		t_done();
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	rc = lib.ibv_modify_qp(qp, &a,
			       IBV_QP_STATE | IBV_QP_TIMEOUT |
				       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc && setup) {
		errno = rc;
		t_setup_failed("modify_qp_rts");
	}
	if (!setup)
		t_rc("rts", rc);
	if (rc)
		t_done();
}

/* Poll until one completion arrives, for at most 2 s. */
static int t_poll1(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n = 0;

	for (i = 0; i < 2000 && !n; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (!n)
			usleep(1000);
	}
	return n;
}

static void t_wc(const char *key, int n, const struct ibv_wc *wc, bool len)
{
	if (n != 1) {
		t_out("%s=none(%d)", key, n);
		return;
	}
	t_out("%s.status=%s %s.opcode=%d", key,
	      lib.ibv_wc_status_str ? lib.ibv_wc_status_str(wc->status) : "?",
	      key, wc->opcode);
	if (len)
		t_out("%s.byte_len=%u", key, wc->byte_len);
}

/* ------------------------------------------------------------------ */
/* Device */

static void s_dev_open(struct t_st *st)
{
	t_open(st);
	t_out("ret=ok errno=- async_fd>=0=%d cmd_fd>=0=%d num_comp_vectors=%d",
	      st->ctx->async_fd >= 0, st->ctx->cmd_fd >= 0,
	      st->ctx->num_comp_vectors);
}

static void s_dev_close(struct t_st *st)
{
	t_open(st);
	t_need(ibv_close_device);
	errno = 0;
	t_num("ret", lib.ibv_close_device(st->ctx));
}

static void s_dev_query_device(struct t_st *st)
{
	struct ibv_device_attr a;

	memset(&a, 0, sizeof(a));
	t_need(ibv_query_device);
	errno = 0;
	t_rc("ret", lib.ibv_query_device(st->ctx, &a));
	t_out("fw_ver=%s node_guid=%016" PRIx64
	      " vendor_id=%#x part=%u hw_ver=%u",
	      a.fw_ver, be64toh(a.node_guid), a.vendor_id, a.vendor_part_id,
	      a.hw_ver);
	t_out("max_mr_size=%#" PRIx64 " page_size_cap=%#" PRIx64, a.max_mr_size,
	      a.page_size_cap);
	t_out("max_qp=%d max_qp_wr=%d cap_flags=%#x max_sge=%d max_sge_rd=%d",
	      a.max_qp, a.max_qp_wr, a.device_cap_flags, a.max_sge,
	      a.max_sge_rd);
	t_out("max_cq=%d max_cqe=%d max_mr=%d max_pd=%d max_qp_rd_atom=%d",
	      a.max_cq, a.max_cqe, a.max_mr, a.max_pd, a.max_qp_rd_atom);
	t_out("max_srq=%d max_srq_wr=%d max_srq_sge=%d max_ah=%d max_mw=%d",
	      a.max_srq, a.max_srq_wr, a.max_srq_sge, a.max_ah, a.max_mw);
	t_out("atomic_cap=%d max_mcast_grp=%d max_pkeys=%u ports=%u",
	      a.atomic_cap, a.max_mcast_grp, a.max_pkeys, a.phys_port_cnt);
}

static void s_dev_query_device_ex(struct t_st *st)
{
	struct ibv_device_attr_ex a;

	memset(&a, 0xa5, sizeof(a));
	errno = 0;
	t_rc("ret", ibv_query_device_ex(st->ctx, NULL, &a));
	t_out("max_qp=%d cap_flags_ex=%#" PRIx64 " odp_general=%#" PRIx64,
	      a.orig_attr.max_qp, a.device_cap_flags_ex,
	      a.odp_caps.general_caps);
	t_out("ts_mask=%#" PRIx64 " raw_caps=%#x tso_max=%u max_wq=%u",
	      a.completion_timestamp_mask, a.raw_packet_caps,
	      a.tso_caps.max_tso, a.max_wq_type_rq);
	t_out("pci_atomic=%#x/%#x/%#x ports_ex=%u max_dm=%" PRIu64,
	      a.pci_atomic_caps.fetch_add, a.pci_atomic_caps.swap,
	      a.pci_atomic_caps.compare_swap, a.phys_port_cnt_ex,
	      a.max_dm_size);
}

static void s_dev_query_device_ex_mask(struct t_st *st)
{
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_device_attr_ex a;

	errno = 0;
	t_rc("ret", ibv_query_device_ex(st->ctx, &in, &a));
}

static void s_dev_query_port(struct t_st *st)
{
	struct ibv_port_attr p;

	memset(&p, 0, sizeof(p));
	t_need_fn((const void *)ibv_query_port, "ibv_query_port");
	errno = 0;
	t_rc("ret", ibv_query_port(st->ctx, 1, &p));
	t_out("state=%s max_mtu=%d active_mtu=%d link_layer=%d",
	      lib.ibv_port_state_str ? lib.ibv_port_state_str(p.state) : "?",
	      p.max_mtu, p.active_mtu, p.link_layer);
	t_out("gid_tbl_len=%d cap_flags=%#x cap_flags2=%#x max_msg_sz=%#x",
	      p.gid_tbl_len, p.port_cap_flags, p.port_cap_flags2, p.max_msg_sz);
	t_out("pkey_tbl_len=%u lid=%u sm_lid=%u lmc=%u width=%u speed=%u",
	      p.pkey_tbl_len, p.lid, p.sm_lid, p.lmc, p.active_width,
	      p.active_speed);
	t_out("phys_state=%u flags=%#x", p.phys_state, p.flags);
}

static void s_dev_query_port_bad(struct t_st *st)
{
	struct ibv_port_attr p;

	t_need_fn((const void *)ibv_query_port, "ibv_query_port");
	errno = 0;
	t_rc("ret", ibv_query_port(st->ctx, 7, &p));
}

static void s_dev_query_gid(struct t_st *st)
{
	union ibv_gid gid;
	char s[64];
	int rc;

	t_need(ibv_query_gid);
	errno = 0;
	rc = lib.ibv_query_gid(st->ctx, 1, st->dev->gid_index, &gid);
	t_num("ret", rc);
	t_gid_str(&gid, s, sizeof(s));
	t_out("index=%d gid=%s", st->dev->gid_index, rc ? "-" : s);
}

static void s_dev_query_gid_bad(struct t_st *st)
{
	union ibv_gid gid;

	t_need(ibv_query_gid);
	errno = 0;
	t_num("ret", lib.ibv_query_gid(st->ctx, 1, 100000, &gid));
}

static void s_dev_query_pkey(struct t_st *st)
{
	__be16 pkey = 0;
	int rc;

	t_need(ibv_query_pkey);
	errno = 0;
	rc = lib.ibv_query_pkey(st->ctx, 1, 0, &pkey);
	t_num("ret", rc);
	t_out("pkey=%#x", rc ? 0 : ntohs(pkey));
}

/* ------------------------------------------------------------------ */
/* PD */

static void s_pd_alloc(struct t_st *st)
{
	struct ibv_pd *pd;

	t_need(ibv_alloc_pd);
	errno = 0;
	pd = lib.ibv_alloc_pd(st->ctx);
	if (t_ptr("ret", pd))
		t_out("context-matches=%d", pd->context == st->ctx);
}

static void s_pd_dealloc(struct t_st *st)
{
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* A PD that still holds an MR cannot go: EBUSY. */
static void s_pd_dealloc_busy(struct t_st *st)
{
	if (!t_reg(st, t_page(), 4096, 0))
		t_setup_failed("reg_mr");
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* ------------------------------------------------------------------ */
/* MR */

static void t_mr_step(struct t_st *st, void *addr, size_t len,
		      unsigned int access)
{
	struct ibv_mr *mr = t_reg(st, addr, len, access);

	if (t_ptr("ret", mr))
		t_out("lkey!=0=%d length=%zu addr-matches=%d", mr->lkey != 0,
		      mr->length, mr->addr == addr);
}

static void s_mr_reg_local(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, 0);
}

static void s_mr_reg_rw(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ);
}

static void s_mr_reg_atomic(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
}

/* Remote write without local write is refused by the verbs spec. */
static void s_mr_reg_rw_nolocal(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_REMOTE_WRITE);
}

static void s_mr_reg_bad_bits(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE | 1u << 29);
}

static void s_mr_reg_optional(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
}

static void s_mr_reg_len0(struct t_st *st)
{
	t_mr_step(st, t_page(), 0, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_reg_null(struct t_st *st)
{
	t_mr_step(st, NULL, 4096, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_rereg_access(struct t_st *st)
{
	struct ibv_mr *mr = t_reg(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE);

	if (!mr)
		t_setup_failed("reg_mr");
	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret",
	     lib.ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ));
}

static void s_mr_rereg_bad_flags(struct t_st *st)
{
	struct ibv_mr *mr = t_reg(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE);

	if (!mr)
		t_setup_failed("reg_mr");
	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_rereg_mr(mr, 1 << 20, NULL, NULL, 0, 0));
}

static void s_mr_dereg(struct t_st *st)
{
	struct ibv_mr *mr = t_reg(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE);

	if (!mr)
		t_setup_failed("reg_mr");
	t_need(ibv_dereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_dereg_mr(mr));
}

/* ------------------------------------------------------------------ */
/* MW */

static void t_mw_step(struct t_st *st, enum ibv_mw_type type)
{
	struct ibv_mw *mw;

	errno = 0;
	mw = ibv_alloc_mw(st->pd, type);
	if (!t_ptr("ret", mw))
		return;
	t_out("type=%d", mw->type);
	errno = 0;
	t_rc("dealloc", ibv_dealloc_mw(mw));
}

static void s_mw_type1(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_1);
}

static void s_mw_type2(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_2);
}

/* ------------------------------------------------------------------ */
/* CQ and completion channels */

static struct ibv_cq *t_cq_step(struct t_st *st, int cqe,
				struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq;

	t_need(ibv_create_cq);
	errno = 0;
	cq = lib.ibv_create_cq(st->ctx, cqe, NULL, ch, 0);
	if (t_ptr("ret", cq))
		t_out("cqe=%d channel-matches=%d", cq->cqe, cq->channel == ch);
	return cq;
}

static void s_cq_create1(struct t_st *st)
{
	t_cq_step(st, 1, NULL);
}

static void s_cq_create_max(struct t_st *st)
{
	t_cq_step(st, st->attr.max_cqe, NULL);
}

static void s_cq_create_too_big(struct t_st *st)
{
	t_cq_step(st, st->attr.max_cqe + 1, NULL);
}

static void s_cq_create_zero(struct t_st *st)
{
	t_cq_step(st, 0, NULL);
}

static void s_cq_create_channel(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	t_cq_step(st, 4, ch);
}

static void s_cq_resize(struct t_st *st)
{
	t_need(ibv_resize_cq);
	errno = 0;
	t_rc("ret", lib.ibv_resize_cq(st->cq, 64));
	t_out("cqe>=64=%d", st->cq->cqe >= 64);
}

static void s_cq_resize_too_big(struct t_st *st)
{
	t_need(ibv_resize_cq);
	errno = 0;
	t_rc("ret", lib.ibv_resize_cq(st->cq, st->attr.max_cqe + 1));
}

static void s_cq_req_notify(struct t_st *st)
{
	errno = 0;
	t_rc("ret", ibv_req_notify_cq(st->cq, 0));
	errno = 0;
	t_rc("solicited", ibv_req_notify_cq(st->cq, 1));
}

static void s_cq_poll_empty(struct t_st *st)
{
	struct ibv_wc wc[4];

	errno = 0;
	t_num("ret", ibv_poll_cq(st->cq, 4, wc));
}

static void s_cq_destroy(struct t_st *st)
{
	t_need(ibv_destroy_cq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_cq(st->cq));
}

/* A CQ in use by a QP cannot go: EBUSY. */
static void s_cq_destroy_busy(struct t_st *st)
{
	t_qp(st, IBV_QPT_RC, 4, true);
	t_need(ibv_destroy_cq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_cq(st->cq));
}

static void t_cq_ex_step(struct t_st *st, uint64_t wc_flags, uint32_t comp_mask)
{
	struct ibv_cq_init_attr_ex ia = {
		.cqe = 8,
		.wc_flags = wc_flags,
		.comp_mask = comp_mask,
	};
	struct ibv_cq_ex *cq;

	errno = 0;
	cq = ibv_create_cq_ex(st->ctx, &ia);
	if (t_ptr("ret", cq))
		t_out("cqe>=8=%d", ibv_cq_ex_to_cq(cq)->cqe >= 8);
}

static void s_cq_ex_standard(struct t_st *st)
{
	t_cq_ex_step(st, IBV_WC_STANDARD_FLAGS, 0);
}

static void s_cq_ex_timestamp(struct t_st *st)
{
	t_cq_ex_step(st, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0);
}

static void s_cq_ex_bad_flags(struct t_st *st)
{
	t_cq_ex_step(st, 1ull << 40, 0);
}

static void s_cq_ex_bad_mask(struct t_st *st)
{
	t_cq_ex_step(st, 0, 1u << 31);
}

static void s_chan_create_destroy(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	t_need(ibv_destroy_comp_channel);
	errno = 0;
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!t_ptr("ret", ch))
		return;
	t_out("fd>=0=%d refcnt=%d", ch->fd >= 0, ch->refcnt);
	errno = 0;
	t_rc("destroy", lib.ibv_destroy_comp_channel(ch));
}

/* A channel with a CQ on it cannot go: EBUSY. */
static void s_chan_destroy_busy(struct t_st *st)
{
	struct ibv_comp_channel *ch;

	t_need(ibv_create_comp_channel);
	t_need(ibv_destroy_comp_channel);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	if (!lib.ibv_create_cq(st->ctx, 4, NULL, ch, 0))
		t_setup_failed("create_cq");
	errno = 0;
	t_rc("ret", lib.ibv_destroy_comp_channel(ch));
}

static void s_chan_nonblock(struct t_st *st)
{
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	void *cq_ctx;
	int fl;

	t_need(ibv_create_comp_channel);
	t_need(ibv_get_cq_event);
	ch = lib.ibv_create_comp_channel(st->ctx);
	if (!ch)
		t_setup_failed("create_comp_channel");
	fl = fcntl(ch->fd, F_GETFL);
	if (fl < 0 || fcntl(ch->fd, F_SETFL, fl | O_NONBLOCK) < 0)
		t_setup_failed("fcntl");
	errno = 0;
	t_num("ret", lib.ibv_get_cq_event(ch, &cq, &cq_ctx));
}

/* ------------------------------------------------------------------ */
/* QP */

static void t_qp_step(struct t_st *st, enum ibv_qp_type type, uint32_t wr)
{
	struct ibv_qp *qp = t_qp(st, type, wr, false);

	if (!t_ptr("ret", qp))
		return;
	t_out("type=%d state=%d qpn!=0=%d", qp->qp_type, qp->state,
	      qp->qp_num != 0);
}

static void s_qp_create_rc(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_RC, 4);
}

static void s_qp_create_uc(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_UC, 4);
}

static void s_qp_create_ud(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_UD, 4);
}

static void s_qp_create_big_wr(struct t_st *st)
{
	t_qp_step(st, IBV_QPT_RC, st->attr.max_qp_wr + 1);
}

static void s_qp_create_big_sge(struct t_st *st)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = st->attr.max_sge + 1,
			 .max_recv_sge = 1 },
	};

	t_need(ibv_create_qp);
	errno = 0;
	t_ptr("ret", lib.ibv_create_qp(st->pd, &ia));
}

static void s_qp_init_rc(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_rc("ret", t_to_init(qp, IBV_ACCESS_REMOTE_WRITE));
	t_out("state=%d", qp->state);
}

static void s_qp_init_ud(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_UD, 4, true);

	t_rc("ret", t_to_init(qp, 0));
	t_out("state=%d", qp->state);
}

/* RESET -> INIT without the port: the mask is wrong for the transition. */
static void s_qp_init_bad_mask(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT };

	t_need(ibv_modify_qp);
	errno = 0;
	t_rc("ret",
	     lib.ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX));
}

/* RESET -> RTR skips INIT. */
static void s_qp_bad_transition(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS };

	t_need(ibv_modify_qp);
	errno = 0;
	t_rc("ret", lib.ibv_modify_qp(qp, &a, IBV_QP_STATE));
}

static void s_qp_rts(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_loopback(st, qp, false);
	t_out("state=%d", qp->state);
}

static void s_qp_query(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	int rc;

	rc = t_to_init(qp, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE);
	if (rc) {
		errno = rc;
		t_setup_failed("modify_qp_init");
	}
	t_need(ibv_query_qp);
	memset(&a, 0, sizeof(a));
	memset(&ia, 0, sizeof(ia));
	errno = 0;
	t_rc("ret",
	     lib.ibv_query_qp(qp, &a,
			      IBV_QP_STATE | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS |
				      IBV_QP_CAP | IBV_QP_PKEY_INDEX,
			      &ia));
	t_out("state=%d port=%u access=%#x pkey_index=%u", a.qp_state,
	      a.port_num, a.qp_access_flags, a.pkey_index);
	t_out("cap=%u/%u/%u/%u/%u type=%d sq_sig_all=%d cq-matches=%d",
	      a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge,
	      a.cap.max_recv_sge, a.cap.max_inline_data, ia.qp_type,
	      ia.sq_sig_all, ia.send_cq == st->cq);
}

static void s_qp_destroy(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_destroy_qp);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_qp(qp));
}

static void s_qp_to_qp_ex(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_qp_to_qp_ex);
	errno = 0;
	t_out("ret=%s", lib.ibv_qp_to_qp_ex(qp) ? "ok" : "NULL");
}

/* Neither rxe nor siw has the op: what the library answers for them. */
static void s_qp_data_in_order(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);

	t_need(ibv_query_qp_data_in_order);
	errno = 0;
	t_out("send=%d write=%d",
	      lib.ibv_query_qp_data_in_order(qp, IBV_WR_SEND, 0),
	      lib.ibv_query_qp_data_in_order(qp, IBV_WR_RDMA_WRITE, 0));
}

static void s_qp_create_ex_ops(struct t_st *st)
{
	struct ibv_qp_init_attr_ex ia = {
		.send_cq = st->cq,
		.recv_cq = st->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4,
			 .max_recv_wr = 4,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = st->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_SEND,
	};
	struct ibv_qp *qp;

	t_need(ibv_qp_to_qp_ex);
	errno = 0;
	qp = ibv_create_qp_ex(st->ctx, &ia);
	if (!t_ptr("ret", qp))
		return;
	t_out("qp_ex=%s", lib.ibv_qp_to_qp_ex(qp) ? "ok" : "NULL");
}

/* ------------------------------------------------------------------ */
/* SRQ and XRC */

static struct ibv_srq *t_srq(struct t_st *st, uint32_t wr, bool setup)
{
	struct ibv_srq_init_attr ia = {
		.attr = { .max_wr = wr, .max_sge = 1 },
	};
	struct ibv_srq *srq;

	t_need(ibv_create_srq);
	errno = 0;
	srq = lib.ibv_create_srq(st->pd, &ia);
	if (!srq && setup)
		t_setup_failed("create_srq");
	if (!setup && t_ptr("ret", srq))
		t_out("max_wr>=%u=%d max_sge=%u", wr, ia.attr.max_wr >= wr,
		      ia.attr.max_sge);
	return srq;
}

static void s_srq_create(struct t_st *st)
{
	t_srq(st, 16, false);
}

static void s_srq_create_big(struct t_st *st)
{
	t_srq(st, st->attr.max_srq_wr + 1, false);
}

static void s_srq_modify_limit(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);
	struct ibv_srq_attr a = { .srq_limit = 4 };

	t_need(ibv_modify_srq);
	errno = 0;
	t_rc("ret", lib.ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT));
}

static void s_srq_modify_limit_big(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);
	struct ibv_srq_attr a = { .srq_limit = 100000 };

	t_need(ibv_modify_srq);
	errno = 0;
	t_rc("ret", lib.ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT));
}

static void s_srq_resize(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);
	struct ibv_srq_attr a = { .max_wr = 64 };

	t_need(ibv_modify_srq);
	errno = 0;
	t_rc("ret", lib.ibv_modify_srq(srq, &a, IBV_SRQ_MAX_WR));
}

static void s_srq_query(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);
	struct ibv_srq_attr a = { .srq_limit = 4 };

	t_need(ibv_modify_srq);
	t_need(ibv_query_srq);
	if (lib.ibv_modify_srq(srq, &a, IBV_SRQ_LIMIT))
		t_setup_failed("modify_srq");
	memset(&a, 0, sizeof(a));
	errno = 0;
	t_rc("ret", lib.ibv_query_srq(srq, &a));
	t_out("max_wr>=16=%d max_sge=%u srq_limit=%u", a.max_wr >= 16,
	      a.max_sge, a.srq_limit);
}

static void s_srq_destroy(struct t_st *st)
{
	struct ibv_srq *srq = t_srq(st, 16, true);

	t_need(ibv_destroy_srq);
	errno = 0;
	t_rc("ret", lib.ibv_destroy_srq(srq));
}

static void s_srq_xrcd(struct t_st *st)
{
	struct ibv_xrcd_init_attr ia = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};
	struct ibv_xrcd *xrcd;

	errno = 0;
	xrcd = ibv_open_xrcd(st->ctx, &ia);
	if (!t_ptr("ret", xrcd))
		return;
	errno = 0;
	t_rc("close", ibv_close_xrcd(xrcd));
}

/* ------------------------------------------------------------------ */
/* AH and multicast */

static void t_ah_step(struct t_st *st, uint8_t port)
{
	struct ibv_ah_attr a = {
		.is_global = 1,
		.grh = { .dgid = st->gid,
			 .hop_limit = 1,
			 .sgid_index = st->dev->gid_index },
		.port_num = port,
	};
	struct ibv_ah *ah;

	t_need(ibv_create_ah);
	t_need(ibv_destroy_ah);
	errno = 0;
	ah = lib.ibv_create_ah(st->pd, &a);
	if (!t_ptr("ret", ah))
		return;
	errno = 0;
	t_rc("destroy", lib.ibv_destroy_ah(ah));
}

static void s_ah_create(struct t_st *st)
{
	t_ah_step(st, 1);
}

static void s_ah_bad_port(struct t_st *st)
{
	t_ah_step(st, 7);
}

static void s_mcast(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_UD, 4, true);
	union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 0x01 } };

	t_need(ibv_attach_mcast);
	t_need(ibv_detach_mcast);
	errno = 0;
	t_rc("ret", lib.ibv_attach_mcast(qp, &mgid, 0));
	errno = 0;
	t_rc("detach", lib.ibv_detach_mcast(qp, &mgid, 0));
}

static void s_mcast_rc(struct t_st *st)
{
	struct ibv_qp *qp = t_qp(st, IBV_QPT_RC, 4, true);
	union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 0x01 } };

	t_need(ibv_attach_mcast);
	errno = 0;
	t_rc("ret", lib.ibv_attach_mcast(qp, &mgid, 0));
}

/* ------------------------------------------------------------------ */
/* Async events */

static void s_async_nonblock(struct t_st *st)
{
	struct ibv_async_event ev;
	int fl;

	t_need(ibv_get_async_event);
	fl = fcntl(st->ctx->async_fd, F_GETFL);
	if (fl < 0 || fcntl(st->ctx->async_fd, F_SETFL, fl | O_NONBLOCK) < 0)
		t_setup_failed("fcntl");
	errno = 0;
	t_num("ret", lib.ibv_get_async_event(st->ctx, &ev));
}

/* ------------------------------------------------------------------ */
/* Traffic on an RC QP connected to itself (rxe) */

struct t_bufs {
	char src[256], dst[256];
	struct ibv_mr *mr;
	struct ibv_qp *qp;
};

static void t_traffic_setup(struct t_st *st, struct t_bufs *b)
{
	static char mem[4096] __attribute__((aligned(4096)));

	memset(mem, 0, sizeof(mem));
	memcpy(mem, "verbs_diff payload", 19);
	b->mr = t_reg(st, mem, sizeof(mem),
		      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ);
	if (!b->mr)
		t_setup_failed("reg_mr");
	b->qp = t_qp(st, IBV_QPT_RC, 4, true);
	t_loopback(st, b->qp, true);
}

static void s_traffic_write(struct t_st *st)
{
	struct t_bufs b;
	char *mem;
	struct ibv_sge sge;
	struct ibv_send_wr wr = {
		.wr_id = 1,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad = NULL;
	struct ibv_wc wc;

	t_traffic_setup(st, &b);
	mem = b.mr->addr;
	sge = (struct ibv_sge){ (uintptr_t)mem, 64, b.mr->lkey };
	wr.wr.rdma.remote_addr = (uintptr_t)mem + 2048;
	wr.wr.rdma.rkey = b.mr->rkey;
	errno = 0;
	t_rc("ret", ibv_post_send(b.qp, &wr, &bad));
	t_wc("send", t_poll1(st->cq, &wc), &wc, false);
	t_out("data-ok=%d", !memcmp(mem, mem + 2048, 64));
}

static void s_traffic_send_recv(struct t_st *st)
{
	struct t_bufs b;
	char *mem;
	struct ibv_sge ssge, rsge;
	struct ibv_send_wr wr = {
		.wr_id = 1,
		.sg_list = &ssge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad = NULL;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rsge, .num_sge = 1 },
			   *rbad = NULL;
	struct ibv_wc wc[2];
	int n;

	t_traffic_setup(st, &b);
	mem = b.mr->addr;
	ssge = (struct ibv_sge){ (uintptr_t)mem, 32, b.mr->lkey };
	rsge = (struct ibv_sge){ (uintptr_t)mem + 1024, 256, b.mr->lkey };
	errno = 0;
	t_rc("recv", ibv_post_recv(b.qp, &rwr, &rbad));
	errno = 0;
	t_rc("ret", ibv_post_send(b.qp, &wr, &bad));
	/* The order of the two completions is not fixed: sort by wr_id. */
	n = t_poll1(st->cq, &wc[0]);
	n += n ? t_poll1(st->cq, &wc[1]) : 0;
	if (n == 2 && wc[0].wr_id == 2) {
		struct ibv_wc t = wc[0];

		wc[0] = wc[1];
		wc[1] = t;
	}
	t_wc("send", n == 2 ? 1 : n, &wc[0], false);
	t_wc("recv", n == 2 ? 1 : n, &wc[1], true);
	t_out("data-ok=%d", !memcmp(mem, mem + 1024, 32));
}

/* Post a send larger than the receive buffer: a local length error. */
static void s_traffic_recv_short(struct t_st *st)
{
	struct t_bufs b;
	char *mem;
	struct ibv_sge ssge, rsge;
	struct ibv_send_wr wr = {
		.wr_id = 1,
		.sg_list = &ssge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad = NULL;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &rsge, .num_sge = 1 },
			   *rbad = NULL;
	struct ibv_wc wc;
	int n, recv_status = -1;

	t_traffic_setup(st, &b);
	mem = b.mr->addr;
	ssge = (struct ibv_sge){ (uintptr_t)mem, 128, b.mr->lkey };
	rsge = (struct ibv_sge){ (uintptr_t)mem + 1024, 16, b.mr->lkey };
	if (ibv_post_recv(b.qp, &rwr, &rbad))
		t_setup_failed("post_recv");
	errno = 0;
	t_rc("ret", ibv_post_send(b.qp, &wr, &bad));
	/* Both sides complete in error; report the receive side's status. */
	while ((n = t_poll1(st->cq, &wc)) == 1)
		if (wc.wr_id == 2)
			recv_status = wc.status;
	t_out("recv.status=%s",
	      recv_status < 0	    ? "none" :
	      lib.ibv_wc_status_str ? lib.ibv_wc_status_str(recv_status) :
				      "?");
}

/* ------------------------------------------------------------------ */
/* The *_str helpers and rate conversions: no device */

static void s_str_wc_status(struct t_st *st)
{
	(void)st;
	t_need(ibv_wc_status_str);
	t_out("ret=ok errno=- 0=\"%s\" 10=\"%s\" 21=\"%s\" 22=\"%s\" 999=\"%s\"",
	      lib.ibv_wc_status_str(0), lib.ibv_wc_status_str(10),
	      lib.ibv_wc_status_str(21), lib.ibv_wc_status_str(22),
	      lib.ibv_wc_status_str(999));
}

static void s_str_node_type(struct t_st *st)
{
	(void)st;
	t_need(ibv_node_type_str);
	t_out("ret=ok errno=- -1=\"%s\" 1=\"%s\" 4=\"%s\" 6=\"%s\" 7=\"%s\"",
	      lib.ibv_node_type_str(-1), lib.ibv_node_type_str(1),
	      lib.ibv_node_type_str(4), lib.ibv_node_type_str(6),
	      lib.ibv_node_type_str(7));
}

static void s_str_port_state(struct t_st *st)
{
	(void)st;
	t_need(ibv_port_state_str);
	t_out("ret=ok errno=- 0=\"%s\" 4=\"%s\" 5=\"%s\" 6=\"%s\"",
	      lib.ibv_port_state_str(0), lib.ibv_port_state_str(4),
	      lib.ibv_port_state_str(5), lib.ibv_port_state_str(6));
}

static void s_str_event_type(struct t_st *st)
{
	(void)st;
	t_need(ibv_event_type_str);
	t_out("ret=ok errno=- 0=\"%s\" 9=\"%s\" 19=\"%s\" 20=\"%s\" 99=\"%s\"",
	      lib.ibv_event_type_str(0), lib.ibv_event_type_str(9),
	      lib.ibv_event_type_str(19), lib.ibv_event_type_str(20),
	      lib.ibv_event_type_str(99));
}

static void s_str_rate(struct t_st *st)
{
	(void)st;
	t_need(ibv_rate_to_mbps);
	t_need(mbps_to_ibv_rate);
	t_need(ibv_rate_to_mult);
	t_need(mult_to_ibv_rate);
	t_out("ret=ok errno=- to_mbps(3,7,21,99)=%d,%d,%d,%d",
	      lib.ibv_rate_to_mbps(3), lib.ibv_rate_to_mbps(7),
	      lib.ibv_rate_to_mbps(21), lib.ibv_rate_to_mbps(99));
	t_out("from_mbps(2500,25000,1)=%d,%d,%d", lib.mbps_to_ibv_rate(2500),
	      lib.mbps_to_ibv_rate(25000), lib.mbps_to_ibv_rate(1));
	t_out("to_mult(3,10,99)=%d,%d,%d mult_to(4,9)=%d,%d",
	      lib.ibv_rate_to_mult(3), lib.ibv_rate_to_mult(10),
	      lib.ibv_rate_to_mult(99), lib.mult_to_ibv_rate(4),
	      lib.mult_to_ibv_rate(9));
}

/* ------------------------------------------------------------------ */

static const struct t_step steps[] = {
	{ "dev.open", 0, s_dev_open },
	{ "dev.query_device", T_CTX, s_dev_query_device },
	{ "dev.query_device_ex", T_CTX, s_dev_query_device_ex },
	{ "dev.query_device_ex.bad_mask", T_CTX, s_dev_query_device_ex_mask },
	{ "dev.query_port", T_CTX, s_dev_query_port },
	{ "dev.query_port.bad_port", T_CTX, s_dev_query_port_bad },
	{ "dev.query_gid", T_CTX, s_dev_query_gid },
	{ "dev.query_gid.bad_index", T_CTX, s_dev_query_gid_bad },
	{ "dev.query_pkey", T_CTX, s_dev_query_pkey },
	{ "dev.close", 0, s_dev_close },
	{ "pd.alloc", T_CTX, s_pd_alloc },
	{ "pd.dealloc", T_PD, s_pd_dealloc },
	{ "pd.dealloc.busy", T_PD, s_pd_dealloc_busy },
	{ "mr.reg.local", T_PD, s_mr_reg_local },
	{ "mr.reg.rw", T_PD, s_mr_reg_rw },
	{ "mr.reg.atomic", T_PD, s_mr_reg_atomic },
	{ "mr.reg.remote_without_local", T_PD, s_mr_reg_rw_nolocal },
	{ "mr.reg.bad_bits", T_PD, s_mr_reg_bad_bits },
	{ "mr.reg.optional_bits", T_PD, s_mr_reg_optional },
	{ "mr.reg.len0", T_PD, s_mr_reg_len0 },
	{ "mr.reg.null", T_PD, s_mr_reg_null },
	{ "mr.rereg.access", T_PD, s_mr_rereg_access },
	{ "mr.rereg.bad_flags", T_PD, s_mr_rereg_bad_flags },
	{ "mr.dereg", T_PD, s_mr_dereg },
	{ "mw.alloc.type1", T_PD, s_mw_type1 },
	{ "mw.alloc.type2", T_PD, s_mw_type2 },
	{ "cq.create.1", T_CTX, s_cq_create1 },
	{ "cq.create.max", T_CTX, s_cq_create_max },
	{ "cq.create.too_big", T_CTX, s_cq_create_too_big },
	{ "cq.create.0", T_CTX, s_cq_create_zero },
	{ "cq.create.channel", T_CTX, s_cq_create_channel },
	{ "cq.resize", T_CQ, s_cq_resize },
	{ "cq.resize.too_big", T_CQ, s_cq_resize_too_big },
	{ "cq.req_notify", T_CQ, s_cq_req_notify },
	{ "cq.poll.empty", T_CQ, s_cq_poll_empty },
	{ "cq.destroy", T_CQ, s_cq_destroy },
	{ "cq.destroy.busy", T_CQ, s_cq_destroy_busy },
	{ "cq.create_ex.standard", T_CTX, s_cq_ex_standard },
	{ "cq.create_ex.timestamp", T_CTX, s_cq_ex_timestamp },
	{ "cq.create_ex.bad_flags", T_CTX, s_cq_ex_bad_flags },
	{ "cq.create_ex.bad_mask", T_CTX, s_cq_ex_bad_mask },
	{ "chan.create_destroy", T_CTX, s_chan_create_destroy },
	{ "chan.destroy.busy", T_CTX, s_chan_destroy_busy },
	{ "chan.get_event.nonblock", T_CTX, s_chan_nonblock },
	{ "qp.create.rc", T_CQ, s_qp_create_rc },
	{ "qp.create.uc", T_CQ, s_qp_create_uc },
	{ "qp.create.ud", T_CQ, s_qp_create_ud },
	{ "qp.create.big_wr", T_CQ, s_qp_create_big_wr },
	{ "qp.create.big_sge", T_CQ, s_qp_create_big_sge },
	{ "qp.modify.init.rc", T_CQ, s_qp_init_rc },
	{ "qp.modify.init.ud", T_CQ, s_qp_init_ud },
	{ "qp.modify.init.bad_mask", T_CQ, s_qp_init_bad_mask },
	{ "qp.modify.reset_to_rts", T_CQ, s_qp_bad_transition },
	{ "qp.modify.loopback_rts", T_CQ, s_qp_rts },
	{ "qp.query", T_CQ, s_qp_query },
	{ "qp.destroy", T_CQ, s_qp_destroy },
	{ "qp.to_qp_ex", T_CQ, s_qp_to_qp_ex },
	{ "qp.data_in_order", T_CQ, s_qp_data_in_order },
	{ "qp.create_ex.send_ops", T_CQ, s_qp_create_ex_ops },
	{ "srq.create", T_PD, s_srq_create },
	{ "srq.create.big", T_PD, s_srq_create_big },
	{ "srq.modify.limit", T_PD, s_srq_modify_limit },
	{ "srq.modify.limit_big", T_PD, s_srq_modify_limit_big },
	{ "srq.modify.resize", T_PD, s_srq_resize },
	{ "srq.query", T_PD, s_srq_query },
	{ "srq.destroy", T_PD, s_srq_destroy },
	{ "xrc.open_xrcd", T_CTX, s_srq_xrcd },
	{ "ah.create", T_PD, s_ah_create },
	{ "ah.create.bad_port", T_PD, s_ah_bad_port },
	{ "mcast.attach_detach.ud", T_CQ, s_mcast },
	{ "mcast.attach.rc", T_CQ, s_mcast_rc },
	{ "async.get_event.nonblock", T_CTX, s_async_nonblock },
	{ "traffic.rdma_write", T_CQ | T_RXE, s_traffic_write },
	{ "traffic.send_recv", T_CQ | T_RXE, s_traffic_send_recv },
	{ "traffic.recv_too_short", T_CQ | T_RXE, s_traffic_recv_short },
	{ "str.wc_status", T_NODEV, s_str_wc_status },
	{ "str.node_type", T_NODEV, s_str_node_type },
	{ "str.port_state", T_NODEV, s_str_port_state },
	{ "str.event_type", T_NODEV, s_str_event_type },
	{ "str.rate", T_NODEV, s_str_rate },
};

#define T_NSTEPS (sizeof(steps) / sizeof(steps[0]))

static void t_child(const struct t_step *step, const struct t_dev *dev, int fd)
{
	struct t_st st = { .dev = dev };

	t_fd = fd;
	alarm(T_STEP_TIMEOUT);
	t_build(&st, step->flags);
	step->run(&st);
	t_done();
}

/* Run one step in a child; print its line, with how it ended if not 0. */
static void t_run(const struct t_step *step, const struct t_dev *dev)
{
	char buf[T_BUF];
	size_t len = 0;
	ssize_t n;
	int p[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(p) < 0 || (pid = fork()) < 0) {
		perror("verbs_diff: pipe/fork");
		exit(2);
	}
	if (!pid) {
		close(p[0]);
		t_child(step, dev, p[1]);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 &&
	       (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += n;
	}
	buf[len] = 0;
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("%s %s%s", dev->name, step->id, buf);
	if (WIFSIGNALED(status))
		printf(" crash=%s", WTERMSIG(status) == SIGALRM ?
					    "timeout" :
					    sigabbrev_np(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		printf(" exit=%d", WEXITSTATUS(status));
	printf("\n");
}

static bool t_selected(const char *id, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strncmp(id, argv[i], strlen(argv[i])))
			return true;
	return false;
}

static const char *t_env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

int main(int argc, char **argv)
{
	struct t_dev devs[] = {
		{ t_env("IBV_VM_RXE", "rxe0"),
		  atoi(t_env("IBV_VM_RXE_GID_INDEX", "1")), true },
		{ t_env("IBV_VM_SIW", "siw0"),
		  atoi(t_env("IBV_VM_SIW_GID_INDEX", "0")), false },
	};
	const struct t_dev any = { "any", 0, false };
	size_t i, d;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < T_NSTEPS; i++)
			printf("%s\n", steps[i].id);
		return 0;
	}
	verbs_lookup(RTLD_DEFAULT, &lib);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (d = 0; d < 2; d++)
		for (i = 0; i < T_NSTEPS; i++) {
			if (steps[i].flags & T_NODEV ||
			    !t_selected(steps[i].id, argc, argv))
				continue;
			if (steps[i].flags & T_RXE && !devs[d].rxe)
				continue;
			t_run(&steps[i], &devs[d]);
		}
	for (i = 0; i < T_NSTEPS; i++)
		if (steps[i].flags & T_NODEV &&
		    t_selected(steps[i].id, argc, argv))
			t_run(&steps[i], &any);
	return 0;
}
