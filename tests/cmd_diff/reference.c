// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: what the reference library has of the provider
 * ABI's later additions, so that a case made for one runs only against
 * the releases that have it (and is listed as not compared otherwise).
 *
 * Two facts, each read where it shows:
 *  - whether ibv_cmd_create_cq_ex2() exists: the reference library is
 *    asked itself, by a child of this program started on it (as the
 *    recording child is), which looks the symbol up with dlvsym(). The
 *    parent passes the answer to both recording children, since the one
 *    on our library cannot see the reference.
 *  - how many arguments ibv_cmd_reg_dmabuf_mr() reads: the symbol did not
 *    change, so the library cannot say; the dmabuf column of the
 *    release's row (IBV_REFERENCE_RELEASE, <infiniband/releases.h>) does.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/releases.h>

#include "t_diff.h"
#include "t_diffrun.h"

#define T_STR(x) #x
#define T_XSTR(x) T_STR(x)
/* The provider ABI node, built from the number rather than spelled. */
#define PABI_NODE "IBVERBS_PRIVATE_" T_XSTR(VERBS_PROVIDER_ABI)

/* Set in the child that asks the reference library. */
#define PROBE_ENV "T_DIFF_PROBE"
/* The answer, from the parent to the recording children: "0" or "1". */
#define CQ_EX2_ENV "T_DIFF_REF_CQ_EX2"

#define CQ_EX2 "ibv_cmd_create_cq_ex2"

struct t_diff_ref t_ref;

void *t_diff_pabi_sym(const char *name)
{
	return dlvsym(RTLD_DEFAULT, name, PABI_NODE);
}

bool t_diff_probing(void)
{
	return getenv(PROBE_ENV) != NULL;
}

int t_diff_probe(void)
{
	return t_diff_pabi_sym(CQ_EX2) ? 0 : 1;
}

/* Starts this program on the reference: 0 if it has cq_ex2, 1 if not. */
static int probe_reference(const char *libdir)
{
	return t_diffrun_self(PROBE_ENV, "1", libdir);
}

#define DMABUF_ROW(rel, deb, suite, abi, pabi, kernel, qp_ex, dmabuf) \
	{ rel, dmabuf },
static const struct {
	const char *release;
	unsigned int dmabuf_args;
} rows[] = { IBV_FOR_EACH_RELEASE(DMABUF_ROW) };
#undef DMABUF_ROW

static int dmabuf_args(const char *release)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].release, release))
			return rows[i].dmabuf_args;
	fprintf(stderr, "IBV_REFERENCE_RELEASE=%s: no such release\n", release);
	return -1;
}

static int cq_ex2(const char *libdir)
{
	const char *known = getenv(CQ_EX2_ENV);
	int rc;

	if (known)
		return !strcmp(known, "1");
	rc = probe_reference(libdir);
	if (rc != 0 && rc != 1) {
		fprintf(stderr, "asking the reference for %s failed (%d)\n",
			CQ_EX2, rc);
		return -1;
	}
	setenv(CQ_EX2_ENV, rc ? "0" : "1", 1);
	return !rc;
}

int t_diff_ref_init(void)
{
	const char *libdir = getenv("IBV_REFERENCE_LIBDIR");
	const char *release = getenv("IBV_REFERENCE_RELEASE");
	int args, has;

	/* Without a reference the run skips (t_diffrun_main()). */
	if (!libdir)
		return 0;
	if (!release) {
		fprintf(stderr, "IBV_REFERENCE_LIBDIR needs "
				"IBV_REFERENCE_RELEASE, the release it is\n");
		return -1;
	}
	args = dmabuf_args(release);
	has = cq_ex2(libdir);
	if (args < 0 || has < 0)
		return -1;
	t_ref.dmabuf_args = args;
	t_ref.create_cq_ex2 = has;
	return 0;
}

const char *t_diff_need_cq_ex2(void)
{
	return t_ref.create_cq_ex2 ? NULL : "the reference has no " CQ_EX2 "()";
}

const char *t_diff_need_dmabuf_driver(void)
{
	return t_ref.dmabuf_args >= VERBS_DMABUF_MR_ARGS ?
		       NULL :
		       "the reference's ibv_cmd_reg_dmabuf_mr() takes no "
		       "command buffer";
}

/*
 * The commands rdma-core 65 added exist in provider ABI 65's node only.
 * The program is built per ABI and run on the releases of its ABI
 * (tests/CMakeLists.txt), so the ABI it was built for says whether the
 * reference has them; the cases find them with dlvsym() all the same,
 * so that a build for ABI 34 never binds to them.
 */
const char *t_diff_need_pabi65(void)
{
	return VERBS_PROVIDER_ABI >= 65 ?
		       NULL :
		       "provider ABI " T_XSTR(
			       VERBS_PROVIDER_ABI) " has no rdma-core 65 commands";
}
