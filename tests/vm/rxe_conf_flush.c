// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_conformance_vm_test, subject "wr_flush": ATOMIC_WRITE and FLUSH
 * through the builders. rdma_rxe has both since Linux 6.2 and says so in
 * its capabilities (IB_UVERBS_DEVICE_FLUSH_GLOBAL, bit 38, and
 * IB_UVERBS_DEVICE_ATOMIC_WRITE, bit 40, of device_cap_flags_ex). Where
 * it does, the eight bytes must land in one piece and the FLUSH of the
 * range and of the whole MR complete; where it does not, our librxe
 * refuses the QP at creation (EOPNOTSUPP) rather than let the kernel
 * fail the first such WR, and the QP with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rxe_conf.h"

enum {
	KCAP_FLUSH_GLOBAL = 38,
	KCAP_ATOMIC_WRITE = 40,
	OPS = IBV_QP_EX_WITH_FLUSH | IBV_QP_EX_WITH_ATOMIC_WRITE,
};

/*
 * Debian's librxe 44 knows neither opcode (and its extended QP has no
 * wr_flush slot), so the two runs cannot print the same checks: this
 * subject asserts on our librxe only, its passing lines are notes, and
 * a failure is a FAIL line as anywhere else.
 */
static bool ours_check(const char *name, bool ok, const char *what)
{
	if (!ok)
		return check(name, false, "%s", what);
	note(name, "%s", what);
	return true;
}

/* Both kernel bits, from the extended device query. */
static bool kernel_offers(void)
{
	struct ibv_device_attr_ex ax;
	uint64_t want = 1ULL << KCAP_FLUSH_GLOBAL | 1ULL << KCAP_ATOMIC_WRITE;

	memset(&ax, 0, sizeof(ax));
	if (ibv_query_device_ex(C.ctx, NULL, &ax))
		return false;
	return (ax.device_cap_flags_ex & want) == want;
}

/* One completion on @cq: its status and opcode as expected. */
static void wc_is(const char *name, struct ibv_cq *cq, uint64_t wr_id,
		  enum ibv_wc_opcode op)
{
	struct ibv_wc wc = {};
	int got = poll_one(cq, &wc, 3000);
	char what[96];

	snprintf(what, sizeof(what), "got=%d status=%s opcode=%d", got,
		 st(wc.status), wc.opcode);
	ours_check(name,
		   got == 1 && wc.status == IBV_WC_SUCCESS &&
			   wc.wr_id == wr_id && wc.opcode == op,
		   what);
}

static void flush_data(struct side *a, struct side *b)
{
	static const uint64_t value = 0x1122334455667788ull;
	static uint8_t target[4096] __attribute__((aligned(4096)));
	struct ibv_mr *mr;
	uint64_t got;
	int ret;

	memset(target, 0, sizeof(target));
	mr = ibv_reg_mr(C.pd, target, sizeof(target),
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_FLUSH_GLOBAL);
	if (!ours_check("wr_flush.mr", mr != NULL,
			"MR with IBV_ACCESS_FLUSH_GLOBAL"))
		return;
	ibv_wr_start(a->qpx);
	a->qpx->wr_id = 1;
	a->qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_write(a->qpx, mr->rkey, (uintptr_t)target + 64, &value);
	a->qpx->wr_id = 2;
	ibv_wr_flush(a->qpx, mr->rkey, (uintptr_t)target + 64, 8,
		     IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE);
	a->qpx->wr_id = 3;
	ibv_wr_flush(a->qpx, mr->rkey, (uintptr_t)target, 0, IBV_FLUSH_GLOBAL,
		     IBV_FLUSH_MR);
	ret = ibv_wr_complete(a->qpx);
	ours_check("wr_flush.batch", !ret,
		   "ATOMIC_WRITE, FLUSH of a range and of the MR, one batch");
	wc_is("wr_atomic_write.sender", a->cq, 1, IBV_WC_ATOMIC_WRITE);
	wc_is("wr_flush.range", a->cq, 2, IBV_WC_FLUSH);
	wc_is("wr_flush.mr_wide", a->cq, 3, IBV_WC_FLUSH);
	memcpy(&got, target + 64, sizeof(got));
	ours_check("wr_atomic_write.data", got == value,
		   "the 8 bytes landed in one piece");
	ours_check("wr_flush.receiver", cq_quiet(b->cq, 50),
		   "the responder sees no completion");
	ibv_dereg_mr(mr);
}

void conf_flush(void)
{
	const struct qp_opts o = {
		.send_sge = 1, .recv_sge = 1, .ex = true, .more_ops = OPS
	};
	const struct path p = { 14, 7, 7, IBV_ACCESS_FLUSH_GLOBAL };
	bool offered = kernel_offers();
	struct side a, b;
	int ret;

	note("wr_flush.kernel", "rdma_rxe offers FLUSH and ATOMIC_WRITE: %s",
	     offered ? "yes" : "no");
	ret = pair_new(&a, &b, &o, &p);
	if (!C.ours) {
		note("wr_flush.create", "Debian's librxe: %s", strerror(ret));
		if (!ret)
			pair_free(&a, &b);
		return;
	}
	/* The QP exactly where the kernel offers both. */
	ours_check("wr_flush.create", offered ? !ret : ret == EOPNOTSUPP,
		   offered ? "created" : "refused, EOPNOTSUPP");
	if (ret)
		return;
	if (offered)
		flush_data(&a, &b);
	pair_free(&a, &b);
}
