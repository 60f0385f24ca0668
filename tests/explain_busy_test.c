// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Destroys refused with EBUSY that explain themselves
 * (libibverbs/explain_busy.c): what still uses a PD, a CQ or an SRQ, as
 * the kernel's resource tracking lists it (a fake RDMA netlink,
 * t_rdma_nl.h, with this process's objects, another process's and
 * another device's), and a completion channel's CQs. On the fixture of
 * t_explain.h; each case checks the exact line at VERBS_LOG_LEVEL 3, the
 * errno and result, and silence below level 3.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>
#include <rdma/rdma_netlink.h>

#include "t_explain.h"
#include "t_rdma_nl.h"
#include "t_scenario.h"
#include "t_util.h"

#define PD RDMA_NLDEV_CMD_RES_PD_GET
#define CQ RDMA_NLDEV_CMD_RES_CQ_GET
#define QP RDMA_NLDEV_CMD_RES_QP_GET
#define MR RDMA_NLDEV_CMD_RES_MR_GET
#define SRQ RDMA_NLDEV_CMD_RES_SRQ_GET

/* Device 0 is the fixture's rxe0; device 1 another one. */
static void t_res(uint32_t cmd, uint32_t dev, uint32_t id, bool ours,
		  int32_t pdn, uint64_t usecnt)
{
	struct t_nl_res r = { .cmd = cmd,
			      .dev = dev,
			      .id = id,
			      .pid = ours ? (uint32_t)getpid() : 1,
			      .pdn = pdn,
			      .usecnt = usecnt };

	if (cmd == CQ)
		r.cqe = 16;
	if (cmd == SRQ && usecnt) { /* its QPs, here 0x11..0x10+usecnt */
		r.qpn_lo = 0x11;
		r.qpn_hi = 0x10 + (uint32_t)usecnt;
		r.usecnt = 0;
	}
	t_nl_add_res(&r);
}

/* What other processes and devices have: never counted. */
static void t_others(void)
{
	t_res(PD, 0, 9, false, -1, 5);
	t_res(QP, 0, 0x40, false, 3, 0);
	t_res(PD, 1, 3, true, -1, 7);
	t_res(MR, 1, 8, true, 3, 0);
	t_res(CQ, 0, 6, false, -1, 2);
	t_res(SRQ, 1, 1, true, 3, 3);
}

/* The verbs on rxe0 at @level: EBUSY each time, and @lines in order. */
static int t_busy(const char *level, const char *const lines[4])
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	struct ibv_cq cq = { .context = ctx, .cqe = 16 };
	struct ibv_srq srq = { .context = ctx };
	struct ibv_comp_channel *ch = calloc(1, sizeof(*ch));

	t_pd.context = ctx;
	T_CHECK(ibv_dealloc_pd(&t_pd) == EBUSY);
	T_CHECK(!t_expect_log(quiet ? NULL : lines[0]));
	T_CHECK(ibv_destroy_cq(&cq) == EBUSY);
	T_CHECK(!t_expect_log(quiet ? NULL : lines[1]));
	T_CHECK(ibv_destroy_srq(&srq) == EBUSY);
	T_CHECK(!t_expect_log(quiet ? NULL : lines[2]));
	T_CHECK(ch);
	*ch = (struct ibv_comp_channel){ .context = ctx,
					 .fd = -1,
					 .refcnt = 2 };
	errno = 0;
	T_CHECK(ibv_destroy_comp_channel(ch) == EBUSY);
	T_CHECK(errno == 0);
	T_CHECK(!t_expect_log(quiet ? NULL : lines[3]));
	/* Another failure is not "in use": nothing to say. */
	t_destroy_errno = EINVAL;
	T_CHECK(ibv_dealloc_pd(&t_pd) == EINVAL);
	T_CHECK(!t_expect_log(NULL));
	free(ch);
	t_close(ctx);
	return 0;
}

static int scenario_one_each(void *level)
{
	static const char *const lines[4] = {
		"dealloc_pd on rxe0: the PD is still used by 2 QPs, 1 MR, 1 SRQ",
		"destroy_cq on rxe0: the kernel counts 3 uses of the CQ (QP send and receive queues, SRQs, WQs)",
		"destroy_srq on rxe0: the SRQ is still used by 2 QPs (0x11, 0x12)",
		"destroy_comp_channel on rxe0: 2 CQs still report to the channel",
	};

	t_nl_enable();
	t_others();
	t_res(PD, 0, 3, true, -1, 4);
	t_res(PD, 0, 4, true, -1, 0); /* free: not the one */
	t_res(QP, 0, 0x11, true, 3, 0);
	t_res(QP, 0, 0x12, true, 3, 0);
	t_res(MR, 0, 7, true, 3, 0);
	t_res(SRQ, 0, 1, true, 3, 2);
	t_res(CQ, 0, 2, true, -1, 3);
	t_res(CQ, 0, 5, true, -1, 0);
	return t_busy(level, lines);
}

static int scenario_several(void *level)
{
	static const char *const lines[4] = {
		"dealloc_pd on rxe0: this process's PDs in use: pdn 3 by 1 MR, 2 SRQs, and 2 more objects the kernel does not list (AH, MW or WQ); pdn 4 by 1 object the kernel does not list (AH, MW or WQ)",
		"destroy_cq on rxe0: this process has 2 CQs of 16 entries in use, with 1 and 4 uses (QP send and receive queues, SRQs, WQs)",
		"destroy_srq on rxe0: this process's SRQs in use: srqn 1 by 1 QP (0x11); srqn 2 by 6 QPs (0x11, 0x12, 0x13, 0x14, ...)",
		"destroy_comp_channel on rxe0: 2 CQs still report to the channel",
	};

	t_nl_enable();
	t_others();
	t_res(PD, 0, 3, true, -1, 5);
	t_res(MR, 0, 7, true, 3, 0);
	t_res(PD, 0, 4, true, -1, 1);
	t_res(CQ, 0, 2, true, -1, 1);
	t_res(CQ, 0, 5, true, -1, 4);
	t_res(SRQ, 0, 1, true, 3, 1);
	t_res(SRQ, 0, 2, true, 3, 6);
	return t_busy(level, lines);
}

/*
 * An SRQ whose QP range spans nearly all QP numbers is counted, not
 * walked QP by QP (4 billion steps, seconds of a destroy's error path).
 */
static int scenario_srq_range(void *level)
{
	static const char *const lines[4] = {
		NULL,
		NULL,
		"destroy_srq on rxe0: the SRQ is still used by 4294967279 QPs (0x11, 0x12, 0x13, 0x14, ...)",
		"destroy_comp_channel on rxe0: 2 CQs still report to the channel",
	};

	t_nl_enable();
	t_res(SRQ, 0, 1, true, 3, UINT32_MAX - 0x10);
	return t_busy(level, lines);
}

/* No RDMA netlink, or nothing of ours in use: only the channel speaks. */
static int scenario_unknown(void *level)
{
	static const char *const lines[4] = {
		NULL,
		NULL,
		NULL,
		"destroy_comp_channel on rxe0: 2 CQs still report to the channel",
	};

	if (!strcmp(level, "3-netlink")) {
		t_nl_enable();
		t_others();
	}
	return t_busy("3", lines);
}

static void test_one_each(void **state)
{
	(void)state;
	t_scenario(scenario_one_each, (void *)"3");
	t_scenario(scenario_one_each, (void *)"2");
}

static void test_several(void **state)
{
	(void)state;
	t_scenario(scenario_several, (void *)"3");
	t_scenario(scenario_several, (void *)"2");
}

static void test_srq_range(void **state)
{
	(void)state;
	t_scenario(scenario_srq_range, (void *)"3");
}

static void test_unknown(void **state)
{
	(void)state;
	t_scenario(scenario_unknown, (void *)"3-netlink");
	/* On the VM tier a real kernel answers: this process has nothing. */
	t_scenario(scenario_unknown, (void *)"3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_each),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_srq_range),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
