// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider ABI byte for byte against rdma-core 44: every ibv_cmd_*()
 * and helper of IBVERBS_PRIVATE_34, called the way a hardware provider
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
 * provider they run on is provider.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t_diff.h"
#include "t_diffrun.h"
#include "t_util.h"

static const struct t_case_set *const families[] = {
	&t_cases_device, &t_cases_mem,	&t_cases_cq,	  &t_cases_qp,
	&t_cases_srq,	 &t_cases_flow, &t_cases_helpers,
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

static const enum t_uv_kernel kernels[] = { T_UV_IOCTL, T_UV_NO_IOCTL,
					    T_UV_TUNNEL };
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

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
	t_uv_name("ctx", ctx, sizeof(struct verbs_context));
	t_uv_note("-- case");
	c->fn(ctx);
	t_uv_forget_all();
	t_uv_note("-- close");
	ibv_close_device(ctx);
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
	free(root);
	list = ibv_get_device_list(NULL);
	d = find_tdrv(list);
	if (!d) {
		fprintf(stderr, "the fake device tdrv0 was not found\n");
		return 1;
	}
	t_uv.trace = fopen(path, "w");
	if (!t_uv.trace)
		return 1;
	for (size_t k = 0; k < NKERNELS; k++)
		for (size_t f = 0; f < NFAMILIES; f++)
			for (size_t i = 0; i < families[f]->n; i++)
				record_case(d, kernels[k],
					    &families[f]->cases[i]);
	fclose(t_uv.trace);
	t_uv.trace = NULL;
	ibv_free_device_list(list);
	return 0;
}

/* Differences made on purpose (t_diffrun.h), each with its reason. */
static struct t_drop drops[] = {
	{ .name = "tunnel probe",
	  .match = t_drop_tunnel_probe,
	  .why = T_DROP_TUNNEL_PROBE_WHY },
	{ .name = "refused by the dispatcher",
	  .match = t_drop_refused,
	  .why = T_DROP_REFUSED_WHY },
};
#define NDROPS (sizeof(drops) / sizeof(drops[0]))

#define WQ_FLAGS_WHY                                                          \
	"create_flags counts only with IBV_WQ_INIT_ATTR_FLAGS in comp_mask: " \
	"rdma-core 44 then sends 0 in the ioctl, but copies the stale bits "  \
	"into the write() request (and the tunnel), where the kernel "        \
	"honours them (VLAN stripping turned on); we send 0 every way"

static struct t_line lines[] = {
	{ .name = "wq_stale_flags",
	  .ref = "  cmd EX_CREATE_WQ core 0 wq+0 1100000010 200000010 1",
	  .ours = "  cmd EX_CREATE_WQ core 0 wq+0 1100000010 200000010 0",
	  .why = WQ_FLAGS_WHY },
	{ .name = "wq_stale_flags",
	  .ref = "  attr 0 flags=1 len=40 in@ptr 0 wq+0 1100000010 200000010 1",
	  .ours = "  attr 0 flags=1 len=40 in@ptr 0 wq+0 1100000010 200000010 0",
	  .why = WQ_FLAGS_WHY },
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

static struct t_diffrun run = {
	.drops = drops,
	.ndrops = NDROPS,
	.lines = lines,
	.nlines = NLINES,
};

static void compare_case(void **state)
{
	const struct t_case *c = *state;
	bool same = true;

	for (size_t k = 0; k < NKERNELS; k++)
		same &= t_diffrun_compare(&run, c->name,
					  t_uv_kernel_name(kernels[k]));
	assert_true(same);
}

/* Every rule must still be needed; what each took out is printed. */
static void deliberate_differences(void **state)
{
	(void)state;
	assert_true(t_diffrun_report(&run));
}

static int end_run(void **state)
{
	(void)state;
	t_diffrun_end(&run);
	return 0;
}

int main(void)
{
	const char *rec = t_diffrun_recording();
	struct CMUnitTest *tests;
	size_t n = 0;
	int rc;

	if (rec)
		return record(rec);
	rc = t_diffrun_record(&run);
	if (rc)
		return rc;
	for (size_t f = 0; f < NFAMILIES; f++)
		n += families[f]->n;
	tests = calloc(n + 1, sizeof(*tests));
	n = 0;
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < families[f]->n; i++)
			tests[n++] = (struct CMUnitTest){
				.name = families[f]->cases[i].name,
				.test_func = compare_case,
				.initial_state = (void *)&families[f]->cases[i],
			};
	/* After every case, so that the counts are whole. */
	tests[n++] = (struct CMUnitTest){
		.name = "deliberate_differences",
		.test_func = deliberate_differences,
	};
	rc = _cmocka_run_group_tests("driver_cmd_diff", tests, n, NULL,
				     end_run);
	free(tests);
	return rc;
}
