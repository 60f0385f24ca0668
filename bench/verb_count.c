// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verb_count: the user-space instructions and the system calls of each
 * control verb (open, query, create, modify, destroy, events), to be
 * counted by callgrind inside the test VM; bench/verbs-count runs it on
 * each core, ours and Debian's, with the same Debian providers:
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *       --toggle-collect='vc_op_*' --collect-systime=yes verb_count rxe0
 *
 * Every verb is called from a function of its own (verb_count_ops.c);
 * the script divides its inclusive cost by the calls this program
 * reports. Each verb runs VC_WARM times first, then callgrind forgets
 * everything (CALLGRIND_ZERO_STATS) and each runs N times: what is
 * counted is the verb once the library has learned what the kernel
 * supports and the dynamic linker has bound its symbols.
 *
 * A verb that fails is counted all the same (the cost of a refusal) and
 * its error is printed with its count, so that the script can tell a
 * refusal of both sides from a verb that fails on one side only.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * Without callgrind's client requests the warm-up would be counted with
 * the rest: such a build refuses to run (see main()).
 */
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#else
#define CALLGRIND_ZERO_STATS
#define HAVE_CALLGRIND 0
#endif

#include "bench_util.h"
#include "verb_count.h"

/* Uncounted calls of every verb before the counted ones. */
#define VC_WARM 2

static const char *const op_name[VC_NUM_OPS] = {
	[VC_OPEN_DEVICE] = "open_device",
	[VC_CLOSE_DEVICE] = "close_device",
	[VC_QUERY_DEVICE] = "query_device",
	[VC_QUERY_DEVICE_EX] = "query_device_ex",
	[VC_QUERY_PORT] = "query_port",
	[VC_QUERY_GID] = "query_gid",
	[VC_QUERY_GID_EX] = "query_gid_ex",
	[VC_QUERY_GID_TABLE] = "query_gid_table",
	[VC_QUERY_PKEY] = "query_pkey",
	[VC_ALLOC_PD] = "alloc_pd",
	[VC_DEALLOC_PD] = "dealloc_pd",
	[VC_REG_MR_4K] = "reg_mr_4k",
	[VC_DEREG_MR_4K] = "dereg_mr_4k",
	[VC_REG_MR_1M] = "reg_mr_1m",
	[VC_DEREG_MR_1M] = "dereg_mr_1m",
	[VC_REREG_MR_ACCESS] = "rereg_mr_access",
	[VC_ALLOC_MW] = "alloc_mw",
	[VC_DEALLOC_MW] = "dealloc_mw",
	[VC_CREATE_CQ] = "create_cq",
	[VC_DESTROY_CQ] = "destroy_cq",
	[VC_CREATE_CQ_EX] = "create_cq_ex",
	[VC_RESIZE_CQ] = "resize_cq",
	[VC_REQ_NOTIFY_CQ] = "req_notify_cq",
	[VC_CREATE_COMP_CHANNEL] = "create_comp_channel",
	[VC_DESTROY_COMP_CHANNEL] = "destroy_comp_channel",
	[VC_GET_CQ_EVENT] = "get_cq_event",
	[VC_ACK_CQ_EVENTS] = "ack_cq_events",
	[VC_POST_SEND] = "post_send",
	[VC_POLL_CQ] = "poll_cq",
	[VC_CREATE_QP] = "create_qp",
	[VC_DESTROY_QP] = "destroy_qp",
	[VC_CREATE_QP_EX] = "create_qp_ex",
	[VC_MODIFY_QP_RESET_INIT] = "modify_qp_reset_init",
	[VC_MODIFY_QP_INIT_RTR] = "modify_qp_init_rtr",
	[VC_MODIFY_QP_RTR_RTS] = "modify_qp_rtr_rts",
	[VC_MODIFY_QP_RTS_RESET] = "modify_qp_rts_reset",
	[VC_MODIFY_QP_INIT_RESET] = "modify_qp_init_reset",
	[VC_QUERY_QP] = "query_qp",
	[VC_CREATE_SRQ] = "create_srq",
	[VC_DESTROY_SRQ] = "destroy_srq",
	[VC_MODIFY_SRQ] = "modify_srq",
	[VC_QUERY_SRQ] = "query_srq",
	[VC_CREATE_AH] = "create_ah",
	[VC_DESTROY_AH] = "destroy_ah",
	[VC_CREATE_WQ] = "create_wq",
	[VC_CREATE_FLOW] = "create_flow",
	[VC_CREATE_COUNTERS] = "create_counters",
};

/* What each op answered in the counted run. */
static struct {
	unsigned int calls;
	int err; /* of the first call: 0, an errno, -1 "NULL" */
	bool mixed; /* a later call answered otherwise */
	const char *skipped; /* why the op was not called */
} tally[VC_NUM_OPS];

/* @err: 0, an errno value, or -1 for a failure that set no errno. */
static void record(enum vc_op op, int err)
{
	if (!tally[op].calls)
		tally[op].err = err;
	else if (err != tally[op].err)
		tally[op].mixed = true;
	tally[op].calls++;
}

/* errno is read first: nothing in between may change it. */
void vc_note(enum vc_op op, int ret)
{
	int err = errno;

	record(op, ret >= 0 ? ret : err ? err : -1);
}

void vc_note_obj(enum vc_op op, const void *obj)
{
	int err = errno;

	record(op, obj ? 0 : err ? err : -1);
}

void vc_skip(enum vc_op op, const char *why)
{
	tally[op].skipped = why;
}

static const char *result(int err)
{
	static char buf[32];
	const char *name;

	if (!err)
		return "ok";
	if (err < 0)
		return "failed_without_errno";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno_%d", err);
	return buf;
}

/* One line per op, for bench/verbs-count to read. */
static void print_tally(bool fork_safe)
{
	const char *sfx = fork_safe ? "_forksafe" : "";

	for (int op = 0; op < VC_NUM_OPS; op++) {
		if (tally[op].calls)
			printf("verb_count: calls %s%s=%u fn=vc_op_%s "
			       "result=%s\n",
			       op_name[op], sfx, tally[op].calls, op_name[op],
			       tally[op].mixed ? "mixed" :
						 result(tally[op].err));
		else if (tally[op].skipped)
			printf("verb_count: skipped %s%s: %s\n", op_name[op],
			       sfx, tally[op].skipped);
	}
}

static void *pages(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap %zu: %s", len, strerror(errno));
	memset(p, 1, len); /* faulted in before the first registration */
	return p;
}

/* Rank of a GID entry: RoCEv2 of an IPv4 address, other RoCEv2, other. */
static int gid_rank(const struct ibv_gid_entry *e)
{
	static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (e->gid_type != IBV_GID_TYPE_ROCE_V2)
		return 1;
	return memcmp(e->gid.raw, v4_mapped, sizeof(v4_mapped)) ? 2 : 3;
}

/*
 * The port's best GID: on rxe, RoCEv2 on the VM's IPv4 address, which
 * the VM tests connect through too; on siw, its only entry.
 */
static void pick_gid(struct vc *v)
{
	struct ibv_gid_entry e;
	int best = -1, best_rank = 0;

	for (int i = 0; i < v->gid_tbl_len && best_rank < 3; i++) {
		if (ibv_query_gid_ex(v->ctx, 1, i, &e, 0))
			continue;
		if (gid_rank(&e) > best_rank) {
			best = i;
			best_rank = gid_rank(&e);
		}
	}
	if (best < 0)
		die("%s: no valid GID on port 1", v->dev_name);
	v->gid_index = best;
	if (ibv_query_gid(v->ctx, 1, best, &v->gid))
		die("ibv_query_gid %d: %s", best, strerror(errno));
}

static void open_dev(struct vc *v)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_port_attr pa;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), v->dev_name))
			v->dev = list[i];
	if (!v->dev)
		skip("no device %s", v->dev_name);
	v->ctx = ibv_open_device(v->dev);
	if (!v->ctx)
		die("ibv_open_device %s: %s", v->dev_name, strerror(errno));
	v->iwarp = v->dev->transport_type == IBV_TRANSPORT_IWARP;
	if (ibv_query_port(v->ctx, 1, &pa))
		die("ibv_query_port: %s", strerror(errno));
	v->gid_tbl_len = pa.gid_tbl_len;
	pick_gid(v);
	v->pd = ibv_alloc_pd(v->ctx);
	if (!v->pd)
		die("ibv_alloc_pd: %s", strerror(errno));
	v->buf_4k = pages(VC_SIZE_4K);
	v->buf_1m = pages(VC_SIZE_1M);
}

/*
 * Whether a registration marks its pages MADV_DONTFORK: the fork tracker
 * is on. It must be off unless fork safety was asked for; when it was,
 * either answer is the library's (ours leaves the tracker off where the
 * kernel copies pinned pages on fork itself, rdma-core 44 turns it on),
 * and the output says which.
 */
static bool tracker_on(struct vc *v, bool fork_safe)
{
	struct ibv_mr *mr = ibv_reg_mr(v->pd, v->buf_4k, VC_SIZE_4K,
				       IBV_ACCESS_LOCAL_WRITE);
	bool on;

	if (!mr)
		die("ibv_reg_mr: %s", strerror(errno));
	on = dontfork_set(v->buf_4k);
	ibv_dereg_mr(mr);
	if (on && !fork_safe)
		die("the fork tracker is on, but fork safety was not asked for");
	return on;
}

static const char *fork_status(void)
{
	switch (ibv_is_fork_initialized()) {
	case IBV_FORK_DISABLED:
		return "disabled";
	case IBV_FORK_ENABLED:
		return "enabled";
	case IBV_FORK_UNNEEDED:
		return "unneeded";
	}
	return "unknown";
}

static void run(struct vc *v, int n, bool fork_safe)
{
	if (fork_safe) {
		vc_run_mr(v, n);
		return;
	}
	vc_run_device(v, n);
	vc_run_pd(v, n);
	vc_run_mr(v, n);
	vc_run_cq(v, n);
	vc_run_events(v, n);
	vc_run_qp(v, n);
	vc_run_srq_ah(v, n);
	vc_run_refused(v, n);
}

static void usage(void)
{
	die("usage: verb_count [-n CALLS] [-f] DEVICE\n"
	    "  -n CALLS  counted calls of each verb (default 20)\n"
	    "  -f        the fork-safe pass, under RDMAV_FORK_SAFE=1: only the\n"
	    "            registrations, named with _forksafe");
}

int main(int argc, char **argv)
{
	struct vc v = { 0 };
	bool fork_safe = false, tracker;
	int n = 20, opt;

	while ((opt = getopt(argc, argv, "n:f")) != -1) {
		if (opt == 'n')
			n = atoi(optarg);
		else if (opt == 'f')
			fork_safe = true;
		else
			usage();
	}
	if (optind != argc - 1 || n < 1)
		usage();
	if (!HAVE_CALLGRIND)
		skip("built without <valgrind/callgrind.h> (package valgrind)");
	v.dev_name = argv[optind];
	open_dev(&v);
	tracker = tracker_on(&v, fork_safe);
	if (!fork_safe)
		vc_setup(&v);
	run(&v, VC_WARM, fork_safe);
	memset(tally, 0, sizeof(tally));
	CALLGRIND_ZERO_STATS;
	run(&v, n, fork_safe);
	printf("verb_count: %s, %d calls of each verb, fork safety %s: "
	       "tracker %s, ibv_is_fork_initialized() %s\n",
	       v.dev_name, n, fork_safe ? "asked for" : "not asked for",
	       tracker ? "on" : "off", fork_status());
	print_mapped();
	print_tally(fork_safe);
	return 0;
}
