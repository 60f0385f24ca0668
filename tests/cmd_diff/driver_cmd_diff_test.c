// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider ABI byte for byte against the reference: every ibv_cmd_*()
 * and helper of the provider ABI node, called the way a hardware provider
 * calls it (driver-private request and response parts behind the core
 * ones, as a provider's lib*-abi.h structs put them), under a fake
 * kernel at the system-call boundary (t_uverbs.h) that plays three
 * kernels: one with every ioctl method, one without ioctl (ENOTTY), and
 * one that refuses every method but the write() tunnel.
 *
 * The program records its cases twice, in two children: once on our
 * library and once on Debian's (LD_LIBRARY_PATH), each writing a
 * canonical trace of what the kernel saw and what the caller got back.
 * Each cmocka case then compares one case's traces under the three
 * kernels. The differences we make on purpose are listed below with
 * their reasons; the comparison takes out exactly those, and a rule
 * that no longer matches anything fails the test.
 *
 * The cases live beside this file, a file per family (t_diff.h); the
 * provider they run on is provider.c. A case of a later addition to the
 * provider ABI is compared only with a reference that has it
 * (reference.c), and is listed as not compared otherwise.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "t_diff.h"
#include "t_diffrun.h"
#include "t_util.h"

static const struct t_case_set *const families[] = {
	&t_cases_device,  &t_cases_mem,	  &t_cases_cq,	      &t_cases_qp,
	&t_cases_qp_attr, &t_cases_srq,	  &t_cases_flow,      &t_cases_wq,
	&t_cases_helpers, &t_cases_errno, &t_cases_comp_cntr,
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const char *t_diff_sysfs_root;

/* Recording, in a child running on one library. */

static struct ibv_device *find_tdrv(struct ibv_device **list)
{
	for (; list && *list; list++)
		if (!strcmp(ibv_get_device_name(*list), "tdrv0"))
			return *list;
	return NULL;
}

static void record_case(struct ibv_device *dev, enum t_uv_kernel k,
			const struct t_case *c)
{
	struct ibv_context *ctx;

	t_uv_reset(k);
	t_uv_forget_all();
	t_uv_section("%s %s", c->name, t_uv_kernel_name(k));
	ctx = ibv_open_device(dev);
	if (!ctx) {
		t_uv_note("open failed errno=%d", errno);
		return;
	}
	/* Its own bytes only: a name past them would cover a neighbour. */
	t_uv_name("ctx", ctx, tdrv_context_tail());
	t_uv_note("-- case");
	c->fn(ctx);
	t_uv_forget_all();
	t_uv_note("-- close");
	ibv_close_device(ctx);
}

/* Whether the reference has what case @c calls (t_diff_ref_init()). */
static bool applies(const struct t_case *c)
{
	return !c->missing || !c->missing();
}

static int record(const char *path)
{
	struct t_dev dev = {
		.ibdev = "tdrv0",
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = 1,
	};
	struct ibv_device **list;
	struct ibv_device *d;
	char *root;

	root = t_fake_kernel(false);
	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	list = ibv_get_device_list(NULL);
	d = find_tdrv(list);
	if (!d) {
		fprintf(stderr, "the fake device tdrv0 was not found\n");
		return 1;
	}
	t_diff_sysfs_root = root;
	t_uv.driver = &tdrv_kernel;
	t_uv.trace = fopen(path, "w");
	if (!t_uv.trace)
		return 1;
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++)
		for (size_t f = 0; f < NFAMILIES; f++)
			for (size_t i = 0; i < families[f]->n; i++)
				if (applies(&families[f]->cases[i]))
					record_case(d, t_diffrun_kernels[k],
						    &families[f]->cases[i]);
	fclose(t_uv.trace);
	t_uv.trace = NULL;
	ibv_free_device_list(list);
	return 0;
}

/*
 * Differences made on purpose (t_diffrun.h), each with its reason,
 * beyond the fake kernel's drop rules.
 */

#define WQ_FLAGS_WHY                                                          \
	"create_flags counts only with IBV_WQ_INIT_ATTR_FLAGS in comp_mask: " \
	"rdma-core 44 then sends 0 in the ioctl, but copies the stale bits "  \
	"into the write() request (and the tunnel), where the kernel "        \
	"honours them (VLAN stripping turned on); we send 0 every way"

#define UNSET_WHY                                                            \
	"rdma-core 44 builds the kernel's work requests in memory it does "  \
	"not clear and leaves the words the opcode does not use (the other " \
	"union members, the reserved halves) as it finds them: stack bytes " \
	"that change from run to run (wildcard words here); we send 0 "      \
	"there. The kernel reads none of them"

#define SRQ_TYPE_WHY                                                          \
	"srq_type counts only with IBV_SRQ_INIT_ATTR_TYPE in comp_mask: "     \
	"rdma-core 44 then creates a basic SRQ by ioctl, but on the write() " \
	"path (and the tunnel) sends CREATE_XSRQ with the stale type, the "   \
	"stale tag count and the CQ that comp_mask did not give (a decoy "    \
	"here), which the kernel honours (a tag-matching SRQ); we create a "  \
	"basic SRQ every way, and the fake answers that command"

#define EOVERFLOW_WHY                                                       \
	"an attribute that fills the caller's buffer, leaving no room for " \
	"its end, fails in both; rdma-core 44 leaves errno as it was (0 "   \
	"here), we say EOVERFLOW"

#define POLL_WHY                                                               \
	"ibv_cmd_poll_cq() asks the kernel for at most 32 completions a "      \
	"call, into a buffer on the stack, and asks again while a call fills " \
	"it; rdma-core 44 allocates room for all it may return and asks "      \
	"once. The completions the caller gets are the same (the fake has 2)"

#define ERRNO_WHY                                                             \
	"a command the library refuses before sending it (unknown comp_mask " \
	"or attr_mask bits, a missing attribute) fails in both with the "     \
	"same value; rdma-core 44 leaves that value in errno for every "      \
	"kernel failure and for the checks of its newer commands (QP, SRQ, "  \
	"WQ and flow creation, reg_dm_mr among them), but not for these "     \
	"(errno as it was: 1234 here). We leave it in errno for every "       \
	"failure, the one rule driver.h states"

#define CQ_EX2_ERRNO_WHY                                                   \
	"ibv_cmd_create_cq_ex2() refuses comp_mask bits it does not know " \
	"before sending anything, with EOPNOTSUPP in both; rdma-core 56 "  \
	"leaves errno as it was (0 here), as rdma-core 44's create_cq_ex " \
	"does (errno_on_failure); we leave the value in errno for every "  \
	"failure, the one rule driver.h states"

#define CAPS_ERRNO_WHY                                                       \
	"ibv_cmd_query_comp_cntr_caps() refuses a caps struct smaller than " \
	"its own before sending anything, with EINVAL in both; rdma-core "   \
	"65 leaves errno as it was (1234 here), as rdma-core 44 does for "   \
	"its older checks (errno_on_failure); we leave the value in errno "  \
	"for every failure, the one rule driver.h states"

#define RULE(c, r, o, w)                                 \
	{                                                \
		.name = c, .ref = r, .ours = o, .why = w \
	}
/* The same request written (cmd) and tunnelled (attr 0 of INVOKE_WRITE). */
#define CMD_RULES(c, cmd, len, r, o, w)                               \
	RULE(c, "  cmd " cmd " core " r, "  cmd " cmd " core " o, w), \
		RULE(c, "  attr 0 flags=1 len=" len " in@ptr " r,     \
		     "  attr 0 flags=1 len=" len " in@ptr " o, w)

/* The stale type's CREATE_XSRQ, and the basic CREATE_SRQ we send. */
#define EX_RESERVED_WHY                                                     \
	"ibv_cmd_modify_qp_ex() sends the reserved word behind rate_limit " \
	"as 0; rdma-core 44 sends it as the provider's request held it"

#define XSRQ_STALE                                      \
	"create_srq_resp+0 srq+0 1000000002 300000040 " \
	"a5a5a5a500000008 dd0200000000"
#define SRQ "create_srq_resp+0 srq+0 4000000010 800000003"

#define A5 "a5a5a5a5a5a5a5a5"
#define A5X4 A5 " " A5 " " A5 " " A5

/* A refused command's line, errno untouched by rdma-core 44 (1234). */
#define ERRNO_RULE(what, err)                                                 \
	RULE("errno_on_failure", "  result " what " ret=" #err " errno=1234", \
	     "  result " what " ret=" #err " errno=" #err, ERRNO_WHY)

/* create_cq_ex2's refusal of an unknown comp_mask bit, per driver kind. */
#define CQ_EX2_ERRNO_RULE(kind)                                  \
	RULE("cq_ex2_driver",                                    \
	     "  result create_cq_ex2(" kind ") ret=95 errno=0",  \
	     "  result create_cq_ex2(" kind ") ret=95 errno=95", \
	     CQ_EX2_ERRNO_WHY)

static struct t_line lines[] = {
	CMD_RULES("wq_stale_flags", "EX_CREATE_WQ", "40",
		  "0 wq+0 1100000010 200000010 1",
		  "0 wq+0 1100000010 200000010 0", WQ_FLAGS_WHY),
	RULE("srq_ex_stale_type",
	     "write len=72 command=27 in_words=18 out_words=10",
	     "write len=56 command=20 in_words=14 out_words=10", SRQ_TYPE_WHY),
	RULE("srq_ex_stale_type", "  cmd CREATE_XSRQ core " XSRQ_STALE,
	     "  cmd CREATE_SRQ core " SRQ, SRQ_TYPE_WHY),
	RULE("srq_ex_stale_type", "  attr 0 flags=1 len=48 in@ptr " XSRQ_STALE,
	     "  attr 0 flags=1 len=32 in@ptr " SRQ, SRQ_TYPE_WHY),
	RULE("srq_ex_stale_type", "  attr 2 flags=1 len=8 27",
	     "  attr 2 flags=1 len=8 20", SRQ_TYPE_WHY),
	RULE("srq_ex_stale_type",
	     "  result create_srq_resp[40] b0a9a29b00000013 e8e1dad3ccc5beb7 "
	     "ada69f98918a83f9 e5ded7d0c9c2bbb4 a099928b84faf3ec",
	     "  result create_srq_resp[40] e6dfd8d100000013 a19a938c85fbf4ed "
	     "e3dcd5cec7c0b9b2 9e97908982f8f1ea d6cfc8c1bab3aca5",
	     SRQ_TYPE_WHY),
	RULE("srq_ex_stale_type", "  result srq_attr[12] ccc5beb7b0a9a29b 8/4",
	     "  result srq_attr[12] 85fbf4ede6dfd8d1 8/4", SRQ_TYPE_WHY),
	CMD_RULES("modify_qp_stale_cmd", "EX_MODIFY_QP", "120",
		  A5X4 " " A5X4 " 200000100000012 " A5 " " A5 " " A5
		       " a5a5a5a5a5a5a502 a5a5a5a5a5a5 a5a5a5a5000003e8",
		  A5X4 " " A5X4 " 200000100000012 " A5 " " A5 " " A5
		       " a5a5a5a5a5a5a502 a5a5a5a5a5a5 3e8",
		  EX_RESERVED_WHY),
	CMD_RULES("post_send_rc", "POST_SEND", "256",
		  "ptr 300000012 3800000004 1 300000002 3412000000000006 "
		  "* * * * 2 1 a5a5a5a500000000 abc000 *55 * * 3 500000001 "
		  "a5a5a5a500000001 def000 1 2 *66 buf+0 1000000040 buf+64 "
		  "1000000080 buf+512 1100000008 buf+512 1100000008",
		  "ptr 300000012 3800000004 1 300000002 3412000000000006 "
		  "0 0 0 0 2 1 a5a5a5a500000000 abc000 55 0 0 3 500000001 "
		  "a5a5a5a500000001 def000 1 2 66 buf+0 1000000040 buf+64 "
		  "1000000080 buf+512 1100000008 buf+512 1100000008",
		  UNSET_WHY),
	CMD_RULES("post_send_rc", "POST_SEND", "80",
		  "ptr 100000012 3800000000 1 200000000 3412000000000006 "
		  "* * * *",
		  "ptr 100000012 3800000000 1 200000000 3412000000000006 "
		  "0 0 0 0",
		  UNSET_WHY),
	CMD_RULES("post_send_ud", "POST_SEND", "168",
		  "ptr 200000012 3800000002 a 200000001 9900000000000002 "
		  "10000000013 *11111111 * * b 300000001 9900000000000002 "
		  "10100000013 *11111111 * * buf+0 1000000100 buf+0 1000000100",
		  "ptr 200000012 3800000002 a 200000001 9900000000000002 "
		  "10000000013 11111111 0 0 b 300000001 9900000000000002 "
		  "10100000013 11111111 0 0 buf+0 1000000100 buf+0 1000000100",
		  UNSET_WHY),
	CMD_RULES("post_recv", "POST_RECV", "152",
		  "ptr 300000012 1000000005 14 *2 15 *1 16 *2 buf+0 1000000400 "
		  "buf+1024 1000000400 buf+0 1000000400 buf+0 1000000400 "
		  "buf+1024 1000000400",
		  "ptr 300000012 1000000005 14 2 15 1 16 2 buf+0 1000000400 "
		  "buf+1024 1000000400 buf+0 1000000400 buf+0 1000000400 "
		  "buf+1024 1000000400",
		  UNSET_WHY),
	CMD_RULES("post_recv", "POST_RECV", "72",
		  "ptr 100000012 1000000002 14 *2 buf+0 1000000400 buf+1024 "
		  "1000000400",
		  "ptr 100000012 1000000002 14 2 buf+0 1000000400 buf+1024 "
		  "1000000400",
		  UNSET_WHY),
	CMD_RULES("post_srq_recv", "POST_SRQ_RECV", "104",
		  "ptr 200000011 1000000003 14 *2 15 *1 buf+0 1000000200 "
		  "buf+512 1000000200 buf+0 1000000200",
		  "ptr 200000011 1000000003 14 2 15 1 buf+0 1000000200 "
		  "buf+512 1000000200 buf+0 1000000200",
		  UNSET_WHY),
	CMD_RULES("poll_cq_chunks", "POLL_CQ", "16", "ptr 2100000010",
		  "ptr 2000000010", POLL_WHY),
	RULE("poll_cq_chunks", "  attr 1 flags=1 len=1592 out@ptr",
	     "  attr 1 flags=1 len=1544 out@ptr", POLL_WHY),
	RULE("poll_cq_chunks", "  answer core=1592@ptr drv=0@-",
	     "  answer core=1544@ptr drv=0@-", POLL_WHY),
	RULE("poll_cq_chunks",
	     "write len=24 command=15 in_words=6 out_words=398",
	     "write len=24 command=15 in_words=6 out_words=386", POLL_WHY),
	RULE("read_ibdev_sysfs_file",
	     "  result read_ibdev_sysfs_file(8, board_id) ret=-1 errno=0",
	     "  result read_ibdev_sysfs_file(8, board_id) ret=-1 errno=75",
	     EOVERFLOW_WHY),
	RULE("read_ibdev_sysfs_file",
	     "  result read_ibdev_sysfs_file(1, hw_rev) ret=-1 errno=0",
	     "  result read_ibdev_sysfs_file(1, hw_rev) ret=-1 errno=75",
	     EOVERFLOW_WHY),
	ERRNO_RULE("create_counters", 95),
	ERRNO_RULE("create_cq_ex", 95),
	ERRNO_RULE("modify_cq", 22),
	ERRNO_RULE("query_device_any", 22),
	ERRNO_RULE("open_qp reserved", 95),
	ERRNO_RULE("open_qp missing", 22),
	ERRNO_RULE("query_qp", 95),
	ERRNO_RULE("modify_qp", 95),
	ERRNO_RULE("open_xrcd reserved", 95),
	ERRNO_RULE("open_xrcd missing", 22),
	ERRNO_RULE("create_rwq_ind_table", 22),
#if VERBS_PROVIDER_ABI >= 65
	/* Its case exists in the program of provider ABI 65 only. */
	RULE("comp_cntr_caps",
	     "  result query_comp_cntr_caps(15) ret=22 errno=1234",
	     "  result query_comp_cntr_caps(15) ret=22 errno=22",
	     CAPS_ERRNO_WHY),
#endif
	CQ_EX2_ERRNO_RULE("none"),
	CQ_EX2_ERRNO_RULE("optional"),
	CQ_EX2_ERRNO_RULE("mandatory"),
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

static const struct t_case *find_case(const char *name)
{
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < families[f]->n; i++)
			if (!strcmp(families[f]->cases[i].name, name))
				return &families[f]->cases[i];
	return NULL;
}

/*
 * The rules of the cases compared, moved to the front; their number. A
 * case the reference cannot run has no trace, so its rules would never
 * match (and fail the test for it).
 */
static size_t rules_in_force(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NLINES; i++) {
		const struct t_case *c = find_case(lines[i].name);

		if (!c || applies(c))
			lines[n++] = lines[i];
	}
	return n;
}

int main(void)
{
	static struct t_diffrun run = {
		.group = "driver_cmd_diff",
		.record = record,
		.lines = lines,
		.nlines = NLINES,
	};
	const char **names;
	size_t n = 0;
	int rc;

	if (t_diff_probing())
		return t_diff_probe();
	if (t_diff_ref_init())
		return 1;
	run.nlines = rules_in_force();
	for (size_t f = 0; f < NFAMILIES; f++)
		n += families[f]->n;
	names = calloc(n, sizeof(*names));
	if (!names)
		return 1;
	n = 0;
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < families[f]->n; i++) {
			const struct t_case *c = &families[f]->cases[i];

			if (applies(c))
				names[n++] = c->name;
			else if (!getenv("T_UV_RECORD"))
				printf("not compared: %s (%s)\n", c->name,
				       c->missing());
		}
	rc = t_diffrun_main(&run, names, n);
	free(names);
	return rc;
}
