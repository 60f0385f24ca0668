// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a destroy failed with EBUSY (explain.h): what still holds the
 * object. A completion channel's CQs the library counts itself; for a
 * PD, a CQ or an SRQ the kernel holds the answer, in the resource
 * tracking that `rdma resource show` reads over RDMA netlink (the RES_*
 * dumps of one device).
 *
 * The kernel knows objects by their tracking number (pdn, cqn, ...), not
 * by the handle this process knows them by, so the object is looked for
 * among this process's objects of its kind that are in use; when several
 * are, each is named with what holds it. Where RDMA netlink is absent
 * (a sysfs-only system, a sandbox) nothing is said.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/rdma_netlink.h>

#include "driver.h"
#include "explain.h"
#include "explain_line.h"
#include "rdma_nl.h"
#include "util.h"

/* What counts as a use of a CQ in the kernel: a QP's two can be one CQ. */
#define CQ_USERS "QP send and receive queues, SRQs, WQs"

/* Objects named in a line, at most; the rest are counted. */
#define SHOWN 4

/* One tracked object of this process. */
struct res {
	uint32_t id; /* pdn, cqn, srqn, lqpn or mrn */
	uint32_t pdn; /* its PD's, where the kernel says */
	bool has_pdn;
	uint64_t usecnt; /* PD, CQ: objects that use it */
	uint32_t cqe; /* CQ */
	uint32_t qps; /* SRQ: QPs on it */
	uint32_t qpn[SHOWN]; /* ... the first of them */
};

struct res_list {
	struct res *v;
	size_t n, cap;
	uint32_t table, entry; /* RDMA_NLDEV_ATTR_RES_<KIND>[_ENTRY] */
	uint32_t id_attr;
	bool failed;
};

static bool get_u32(struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(uint32_t))
		return false;
	*v = nla_get_u32(a);
	return true;
}

static bool get_u64(struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(uint64_t))
		return false;
	*v = nla_get_u64(a);
	return true;
}

/*
 * Counts the QPs @lo..@hi on @r and names the first SHOWN of them. A
 * range is counted, not walked: one entry of a reply can span 2^32 QPs.
 */
static void add_qps(struct res *r, uint32_t lo, uint32_t hi)
{
	uint64_t n = (uint64_t)hi - lo + 1;

	for (uint64_t i = 0; i < n && r->qps + i < SHOWN; i++)
		r->qpn[r->qps + i] = lo + (uint32_t)i;
	r->qps = n > UINT32_MAX - r->qps ? UINT32_MAX : r->qps + (uint32_t)n;
}

/* An SRQ's QPs: single QP numbers, and ranges of them. */
static void srq_qps(struct res *r, struct nlattr *list)
{
	struct nlattr *e, *tb[RDMA_NLDEV_ATTR_MAX];
	uint32_t lo, hi;
	int rem;

	nla_for_each_nested(e, list, rem)
	{
		if (nla_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY ||
		    nla_parse_nested(tb, RDMA_NLDEV_ATTR_MAX - 1, e, NULL))
			continue;
		if (get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN], &lo))
			hi = lo;
		else if (!get_u32(tb[RDMA_NLDEV_ATTR_MIN_RANGE], &lo) ||
			 !get_u32(tb[RDMA_NLDEV_ATTR_MAX_RANGE], &hi) ||
			 hi < lo)
			continue;
		add_qps(r, lo, hi);
	}
}

static void add_entry(struct res_list *l, struct nlattr **tb)
{
	uint32_t pid;
	struct res *r;

	if (!get_u32(tb[RDMA_NLDEV_ATTR_RES_PID], &pid) ||
	    pid != (uint32_t)getpid())
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct res *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->failed = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	r = &l->v[l->n];
	*r = (struct res){ .id = 0 };
	if (!get_u32(tb[l->id_attr], &r->id))
		return;
	r->has_pdn = get_u32(tb[RDMA_NLDEV_ATTR_RES_PDN], &r->pdn);
	get_u64(tb[RDMA_NLDEV_ATTR_RES_USECNT], &r->usecnt);
	get_u32(tb[RDMA_NLDEV_ATTR_RES_CQE], &r->cqe);
	if (tb[RDMA_NLDEV_ATTR_RES_QP] &&
	    l->entry == RDMA_NLDEV_ATTR_RES_SRQ_ENTRY)
		srq_qps(r, tb[RDMA_NLDEV_ATTR_RES_QP]);
	l->n++;
}

static int dump_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX], *etb[RDMA_NLDEV_ATTR_MAX], *e;
	struct res_list *l = arg;
	int rem;

	if (nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1, NULL) ||
	    !tb[l->table])
		return NL_OK;
	nla_for_each_nested(
		e, tb[l->table],
		rem) if (nla_type(e) == (int)l->entry &&
			 !nla_parse_nested(etb, RDMA_NLDEV_ATTR_MAX - 1, e,
					   NULL)) add_entry(l, etb);
	return NL_OK;
}

/* This process's objects of one kind on device @index; false if unknown. */
static bool dump(struct nl_sock *nl, int index, int cmd, struct res_list *l)
{
	struct nl_msg *msg = rdma_nl_msg(cmd, NLM_F_DUMP);

	if (msg &&
	    nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)index)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return !rdma_nl_request(nl, msg, dump_reply, l) && !l->failed;
}

#define RES_LIST(kind, id)                                   \
	{                                                    \
		.table = RDMA_NLDEV_ATTR_RES_##kind,         \
		.entry = RDMA_NLDEV_ATTR_RES_##kind##_ENTRY, \
		.id_attr = RDMA_NLDEV_ATTR_##id,             \
	}

/*
 * Fuzz hook: the entries of this process that one reply of the dump of
 * @kind (0..4: PD, QP, MR, SRQ, CQ) holds; SIZE_MAX if it failed.
 */
size_t explain_busy_parse(struct nl_msg *msg, unsigned int kind)
{
	const struct res_list kinds[] = {
		RES_LIST(PD, RES_PDN), RES_LIST(QP, RES_LQPN),
		RES_LIST(MR, RES_MRN), RES_LIST(SRQ, RES_SRQN),
		RES_LIST(CQ, RES_CQN),
	};
	struct res_list l = kinds[kind % ARRAY_SIZE(kinds)];

	dump_reply(msg, &l);
	free(l.v);
	return l.failed ? SIZE_MAX : l.n;
}

/* A socket for the device's dumps, or NULL (no RDMA netlink, no index). */
static struct nl_sock *open_dumps(struct ibv_context *ctx, int *index)
{
	*index = verbs_get_device(ctx->device)->sysfs->ibdev_idx;
	if (*index < 0)
		return NULL;
	return rdma_nl_open_bounded();
}

/* "2 QPs", "1 MR": a count and a noun, plural as needed. */
static void count_of(struct line *l, bool *first, uint64_t n, const char *noun)
{
	if (!n)
		return;
	line_add(l, "%s%" PRIu64 " %s%s", *first ? "" : ", ", n, noun,
		 n == 1 ? "" : "s");
	*first = false;
}

static uint64_t held_by(const struct res_list *l, uint32_t pdn)
{
	uint64_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->v[i].has_pdn && l->v[i].pdn == pdn;
	return n;
}

/* What holds PD @pd: "2 QPs, 1 MR, and 1 more object (AH, MW or WQ)". */
static void pd_users(struct line *l, const struct res *pd,
		     const struct res_list *qps, const struct res_list *mrs,
		     const struct res_list *srqs)
{
	uint64_t q = held_by(qps, pd->id), m = held_by(mrs, pd->id),
		 s = held_by(srqs, pd->id);
	bool first = true;

	count_of(l, &first, q, "QP");
	count_of(l, &first, m, "MR");
	count_of(l, &first, s, "SRQ");
	if (pd->usecnt > q + m + s) {
		line_add(l,
			 "%s%" PRIu64
			 " %sobject%s the kernel does not list (AH, MW or WQ)",
			 first ? "" : ", and ", pd->usecnt - q - m - s,
			 first ? "" : "more ",
			 pd->usecnt - q - m - s == 1 ? "" : "s");
	}
}

static void explain_pd(struct line *l, struct ibv_context *ctx)
{
	struct res_list pds = RES_LIST(PD, RES_PDN),
			qps = RES_LIST(QP, RES_LQPN),
			mrs = RES_LIST(MR, RES_MRN),
			srqs = RES_LIST(SRQ, RES_SRQN);
	const struct res *busy[SHOWN];
	size_t nbusy = 0;
	struct nl_sock *nl;
	int index;

	nl = open_dumps(ctx, &index);
	if (!nl)
		return;
	if (!dump(nl, index, RDMA_NLDEV_CMD_RES_PD_GET, &pds))
		goto out;
	/* Older kernels track no SRQs: then none are counted. */
	if (!dump(nl, index, RDMA_NLDEV_CMD_RES_QP_GET, &qps) ||
	    !dump(nl, index, RDMA_NLDEV_CMD_RES_MR_GET, &mrs))
		goto out;
	dump(nl, index, RDMA_NLDEV_CMD_RES_SRQ_GET, &srqs);
	for (size_t i = 0; i < pds.n && nbusy < SHOWN; i++)
		if (pds.v[i].usecnt)
			busy[nbusy++] = &pds.v[i];
	if (!nbusy)
		goto out;
	line_clause(l);
	if (nbusy == 1) {
		line_add(l, "the PD is still used by ");
		pd_users(l, busy[0], &qps, &mrs, &srqs);
		goto out;
	}
	line_add(l, "this process's PDs in use:");
	for (size_t i = 0; i < nbusy; i++) {
		line_add(l, "%s pdn %u by ", i ? ";" : "", busy[i]->id);
		pd_users(l, busy[i], &qps, &mrs, &srqs);
	}
out:
	free(pds.v);
	free(qps.v);
	free(mrs.v);
	free(srqs.v);
	rdma_nl_close(nl);
}

static void explain_cq(struct line *l, struct ibv_cq *cq)
{
	struct res_list cqs = RES_LIST(CQ, RES_CQN);
	uint64_t users[SHOWN];
	size_t nbusy = 0;
	struct nl_sock *nl;
	int index;

	nl = open_dumps(cq->context, &index);
	if (!nl)
		return;
	if (!dump(nl, index, RDMA_NLDEV_CMD_RES_CQ_GET, &cqs))
		goto out;
	/* In use, and of this CQ's size (when the kernel says it). */
	for (size_t i = 0; i < cqs.n && nbusy < SHOWN; i++)
		if (cqs.v[i].usecnt &&
		    (!cqs.v[i].cqe || cqs.v[i].cqe == (uint32_t)cq->cqe))
			users[nbusy++] = cqs.v[i].usecnt;
	if (!nbusy)
		goto out;
	line_clause(l);
	if (nbusy == 1) {
		line_add(l,
			 "the kernel counts %" PRIu64 " use%s of the CQ (%s)",
			 users[0], users[0] == 1 ? "" : "s", CQ_USERS);
		goto out;
	}
	line_add(l, "this process has %zu CQs of %d entries in use, with",
		 nbusy, cq->cqe);
	for (size_t i = 0; i < nbusy; i++)
		line_add(l, "%s %" PRIu64,
			 i ? (i + 1 == nbusy ? " and" : ",") : "", users[i]);
	line_add(l, " uses (%s)", CQ_USERS);
out:
	free(cqs.v);
	rdma_nl_close(nl);
}

static void explain_srq(struct line *l, struct ibv_srq *srq)
{
	struct res_list srqs = RES_LIST(SRQ, RES_SRQN);
	const struct res *busy[SHOWN];
	size_t nbusy = 0;
	struct nl_sock *nl;
	int index;

	nl = open_dumps(srq->context, &index);
	if (!nl)
		return;
	if (!dump(nl, index, RDMA_NLDEV_CMD_RES_SRQ_GET, &srqs))
		goto out;
	for (size_t i = 0; i < srqs.n && nbusy < SHOWN; i++)
		if (srqs.v[i].qps)
			busy[nbusy++] = &srqs.v[i];
	if (!nbusy)
		goto out;
	line_clause(l);
	line_add(l, nbusy == 1 ? "the SRQ is still used by" :
				 "this process's SRQs in use:");
	for (size_t i = 0; i < nbusy; i++) {
		const struct res *r = busy[i];

		if (nbusy > 1)
			line_add(l, "%s srqn %u by", i ? ";" : "", r->id);
		line_add(l, " %u QP%s (", r->qps, r->qps == 1 ? "" : "s");
		for (uint32_t q = 0; q < r->qps && q < SHOWN; q++)
			line_add(l, "%s0x%x", q ? ", " : "", r->qpn[q]);
		line_add(l, "%s)", r->qps > SHOWN ? ", ..." : "");
	}
out:
	free(srqs.v);
	rdma_nl_close(nl);
}

void explain_busy(struct ibv_context *ctx, enum explain_kind kind, void *obj)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	switch (kind) {
	case EXPLAIN_PD:
		explain_pd(&l, ctx);
		line_emit(ctx, "dealloc_pd", &l);
		break;
	case EXPLAIN_CQ:
		explain_cq(&l, obj);
		line_emit(ctx, "destroy_cq", &l);
		break;
	case EXPLAIN_SRQ:
		explain_srq(&l, obj);
		line_emit(ctx, "destroy_srq", &l);
		break;
	case EXPLAIN_COMP_CHANNEL: {
		int cqs = *(const int *)obj;

		line_clause(&l);
		line_add(&l, "%d CQ%s still report%s to the channel", cqs,
			 cqs == 1 ? "" : "s", cqs == 1 ? "s" : "");
		line_emit(ctx, "destroy_comp_channel", &l);
		break;
	}
	}
	errno = saved;
}
