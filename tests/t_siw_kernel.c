// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The fake siw kernel driver of t_siw_kernel.h, and the tests' helpers. */
#include "config.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t_siw_kernel.h"

#include "t_diffrun.h"
#include "t_util.h"
#include "t_uverbs.h"

struct t_siw_kern t_siw;

/*
 * The kernel's answer to the doorbell, a POST_SEND with no work request
 * (siw_post_send()): a user QP's list must be empty; the state lock is
 * only tried, and when another thread holds it the doorbell fails with
 * ENOTCONN whatever the state, unless the QP is already in ERROR, which
 * answers 0; outside RTS the same. In RTS the transmit engine starts on
 * the valid elements, and an element siw refuses to activate fails the
 * doorbell with EINVAL.
 */
static int siw_doorbell(struct t_uv_cmd *cmd)
{
	const struct ib_uverbs_post_send *ps = cmd->core_in;

	t_siw.doorbells++;
	if (cmd->core_in_len >= sizeof(*ps))
		t_siw.doorbell_wrs += ps->wr_count;
	if (t_siw.meanwhile)
		t_siw.meanwhile();
	if (cmd->core_in_len >= sizeof(*ps) && ps->wr_count)
		return EINVAL;
	if (t_siw.doorbell)
		return t_siw.doorbell();
	if (t_siw.state_locked || t_siw.state != T_SIW_RTS)
		return t_siw.state == T_SIW_ERROR ? 0 : ENOTCONN;
	return t_siw.engine ? t_siw_sq_run() : 0;
}

/* siw's side of each command: its driver data. */
static int siw_answer(struct t_uv_cmd *cmd)
{
	switch (t_uv_verb_of(cmd)) {
	case T_UV_GET_CONTEXT: {
		struct siw_uresp_alloc_ctx r = { .dev_id = T_DEV_ID };

		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_REG_MR: {
		struct siw_uresp_reg_mr r = { .stag = 0x2a00 };

		t_siw.reg_mr_in_len = cmd->drv_in_len;
		t_siw.reg_mr_out_len = cmd->drv_out_len;
		if (cmd->drv_in_len >= sizeof(t_siw.reg_mr_in))
			memcpy(&t_siw.reg_mr_in, cmd->drv_in,
			       sizeof(t_siw.reg_mr_in));
		r.stag |= t_siw.reg_mr_in.stag_key;
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_CQ: {
		struct siw_uresp_create_cq r = {
			.cq_id = 7,
			.num_cqe = T_NUM_CQE,
			.cq_key = T_CQ_KEY,
		};

		t_siw.create_cq_out_len = cmd->drv_out_len;
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_QP: {
		struct siw_uresp_create_qp r = {
			.qp_id = 9,
			.num_sqe = T_NUM_WQE,
			.num_rqe = T_NUM_WQE,
			.sq_key = T_SQ_KEY,
			.rq_key = T_RQ_KEY,
		};

		/*
		 * siw keeps the capacities a QP is created with
		 * (siw_create_qp() checks them against its limits only).
		 */
		t_uv_echo_qp_caps(cmd);
		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_CREATE_SRQ: {
		struct siw_uresp_create_srq r = {
			.num_rqe = T_NUM_WQE,
			.srq_key = T_SRQ_KEY,
		};

		return t_uv_put(cmd, &r, sizeof(r));
	}
	case T_UV_POST_SEND:
		return siw_doorbell(cmd);
	default:
		return 0;
	}
}

/* The provider mapped @len bytes at @offset: remember the CQ's. */
static void siw_mmap(uint64_t offset, void *addr, size_t len)
{
	if (offset == T_CQ_KEY) {
		t_siw.ring = addr;
		t_siw.ring_len = len;
	} else if (offset == T_SQ_KEY) {
		t_siw.sq = addr;
		t_siw.sq_len = len;
	} else if (offset == T_RQ_KEY) {
		t_siw.rq = addr;
		t_siw.rq_len = len;
	} else if (offset == T_SRQ_KEY) {
		t_siw.srq = addr;
		t_siw.srq_len = len;
	}
}

void t_siw_take(uint16_t *flags)
{
	atomic_store_explicit((_Atomic uint16_t *)flags, 0,
			      memory_order_release);
}

static bool siw_is_read(uint8_t opcode)
{
	return opcode == SIW_OP_READ || opcode == SIW_OP_READ_LOCAL_INV;
}

/*
 * The rules siw applies as it activates an element it copied out of
 * the ring (siw_activate_tx()): a known opcode; inline data for SEND
 * and WRITE only, at most SIW_MAX_INLINE bytes, as one SGE; no fenced
 * READ; a READ has exactly one SGE, whatever num_sge says.
 */
static int siw_activate(struct siw_sqe *sqe)
{
	if (sqe->opcode >= SIW_NUM_OPCODES)
		return EINVAL;
	if (sqe->flags & SIW_WQE_INLINE) {
		if (sqe->opcode != SIW_OP_SEND && sqe->opcode != SIW_OP_WRITE)
			return EINVAL;
		if (sqe->sge[0].length > SIW_MAX_INLINE)
			return EINVAL;
		sqe->num_sge = 1;
	}
	if (sqe->flags & SIW_WQE_READ_FENCE && siw_is_read(sqe->opcode))
		return EINVAL;
	if (siw_is_read(sqe->opcode))
		sqe->num_sge = 1;
	return 0;
}

/*
 * What the transmit path then sends (siw_qp_sq_proc_tx()): a READ asks
 * for sge[0].length bytes into sge[0]'s STag and address, unchecked
 * here; inline data are sge[0].length bytes; otherwise the sum of the
 * SGEs, of which siw takes at most SIW_MAX_SGE.
 */
static int siw_transmit(struct t_siw_taken *t)
{
	const struct siw_sqe *sqe = &t->sqe;

	t->bytes = 0;
	if (siw_is_read(sqe->opcode) || sqe->flags & SIW_WQE_INLINE) {
		t->bytes = sqe->sge[0].length;
		return 0;
	}
	if (sqe->num_sge > SIW_MAX_SGE)
		return EINVAL;
	for (unsigned int i = 0; i < sqe->num_sge; i++)
		t->bytes += sqe->sge[i].length;
	return 0;
}

int t_siw_sq_take(struct t_siw_taken *t)
{
	struct siw_sqe *sqe = &t_siw.sq[t_siw.sq_get % T_NUM_WQE];
	uint16_t flags;

	/* Acquire: pairs with the provider's release of VALID. */
	flags = atomic_load_explicit((_Atomic uint16_t *)&sqe->flags,
				     memory_order_acquire);
	if (!(flags & SIW_WQE_VALID))
		return ENOENT;
	memset(t, 0, sizeof(*t));
	t->index = t_siw.sq_get;
	memcpy(&t->sqe, sqe, sizeof(t->sqe));
	t->sqe.flags = flags;
	t->err = siw_activate(&t->sqe);
	if (t->err)
		return t->err; /* left valid, the get index where it was */
	t_siw_take(&sqe->flags);
	t_siw.sq_get++;
	t->err = siw_transmit(t);
	return t->err;
}

int t_siw_sq_run(void)
{
	for (;;) {
		struct t_siw_taken t;
		int ret = t_siw_sq_take(&t);

		if (ret == ENOENT)
			return 0;
		assert_true(t_siw.ntaken < T_SIW_TAKEN_MAX);
		t_siw.taken[t_siw.ntaken++] = t;
		if (ret)
			return ret;
	}
}

void t_siw_sq_flush(void)
{
	for (;;) {
		struct siw_sqe *sqe = &t_siw.sq[t_siw.sq_get % T_NUM_WQE];
		struct siw_cqe *cqe = &t_siw.ring[t_siw.cq_put % T_NUM_CQE];

		if (!(atomic_load_explicit((_Atomic uint16_t *)&sqe->flags,
					   memory_order_acquire) &
		      SIW_WQE_VALID))
			break;
		/*
		 * A CQ slot still valid: siw's completion fails (CQ_ERR)
		 * and the flush stops there, the element left valid. A
		 * poster refilling the slots the flush frees can get it
		 * there.
		 */
		if (atomic_load_explicit((_Atomic uint8_t *)&cqe->flags,
					 memory_order_acquire))
			break;
		t_siw_complete(t_siw.cq_put++, sqe->id, sqe->opcode,
			       SIW_WC_WR_FLUSH_ERR, 0);
		t_siw_take(&sqe->flags);
		t_siw.sq_get++;
	}
	t_siw.state = T_SIW_ERROR;
}

static const struct t_uv_driver siw_driver = {
	.name = "siw",
	.answer = siw_answer,
	.mmap = siw_mmap,
};

void t_siw_complete(uint32_t idx, uint64_t id, uint8_t opcode, uint16_t status,
		    uint32_t bytes)
{
	struct siw_cqe *cqe = &t_siw.ring[idx % T_NUM_CQE];

	assert_int_equal(atomic_load_explicit((_Atomic uint8_t *)&cqe->flags,
					      memory_order_acquire),
			 0);
	cqe->id = id;
	cqe->opcode = opcode;
	cqe->status = status;
	cqe->bytes = bytes;
	cqe->qp_id = 0x42;
	atomic_store_explicit((_Atomic uint8_t *)&cqe->flags, SIW_WQE_VALID,
			      memory_order_release);
}

struct ibv_context *t_siw_open(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n;

	list = ibv_get_device_list(&n);
	assert_non_null(list);
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "siw0"))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

bool t_siw_mapped_ours(void)
{
	char want[4096], line[8192];
	bool found = false;
	FILE *maps = fopen("/proc/self/maps", "r");

	assert_non_null(maps);
	snprintf(want, sizeof(want), "%s/lib/libsiw%s", t_build_dir(),
		 t_plugin_suffix());
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, want))
			found = true;
	fclose(maps);
	return found;
}

int t_siw_base_up(void **state)
{
	static struct t_siw_base b;

	b.ctx = t_siw_open();
	assert_non_null(b.ctx);
	b.pd = ibv_alloc_pd(b.ctx);
	assert_non_null(b.pd);
	t_siw.ring = NULL; /* for cq_ring(): the mapping of this CQ's */
	/* A connected QP whose kernel only counts doorbells, as before. */
	t_siw.state = T_SIW_RTS;
	t_siw.state_locked = false;
	t_siw.engine = false;
	t_siw.meanwhile = NULL;
	t_siw.doorbell = NULL;
	t_siw.cq_put = 0;
	b.cq = ibv_create_cq(b.ctx, 10, NULL, NULL, 0);
	assert_non_null(b.cq);
	*state = &b;
	return 0;
}

int t_siw_base_down(void **state)
{
	struct t_siw_base *b = *state;

	assert_int_equal(ibv_destroy_cq(b->cq), 0);
	assert_int_equal(ibv_dealloc_pd(b->pd), 0);
	assert_int_equal(ibv_close_device(b->ctx), 0);
	return 0;
}

struct ibv_qp *t_siw_qp(struct t_siw_base *b, struct ibv_qp_init_attr *init)
{
	struct ibv_qp *qp;

	init->send_cq = init->recv_cq = b->cq;
	t_siw.sq = NULL;
	t_siw.rq = NULL;
	t_siw.sq_get = 0; /* the kernel's side of a new ring */
	t_siw.ntaken = 0;
	qp = ibv_create_qp(b->pd, init);
	assert_non_null(qp);
	assert_non_null(t_siw.sq);
	assert_int_equal(t_siw.sq_len, T_NUM_WQE * sizeof(struct siw_sqe));
	if (init->srq) {
		assert_null(t_siw.rq);
	} else {
		assert_non_null(t_siw.rq);
		assert_int_equal(t_siw.rq_len,
				 T_NUM_WQE * sizeof(struct siw_rqe));
	}
	return qp;
}

/* The library's log (VERBS_LOG_FILE), at level 3. */
static char log_path[] = "/tmp/ibvt-siw-log-XXXXXX";

/* Whether the log holds @needle (flushed first, see t_siw_post_refused()). */
bool t_siw_log_has(const char *needle)
{
	char text[65536];
	size_t n;
	FILE *f;

	fflush(NULL);
	f = fopen(log_path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return strstr(text, needle) != NULL;
}

char *t_siw_post_refused(struct t_siw_post *p)
{
	static long seen;
	char *text;
	long len;
	FILE *f;

	p->ret = ibv_post_send(p->qp, p->wr, &p->bad);
	/* rdma-core 44 does not flush its log file; every stream, then. */
	fflush(NULL);
	f = fopen(log_path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	text = calloc(1, len - seen + 1);
	assert_non_null(text);
	fseek(f, seen, SEEK_SET);
	if (fread(text, 1, len - seen, f) != (size_t)(len - seen))
		text[0] = '\0';
	fclose(f);
	seen = len;
	return text;
}

/*
 * Runs @tests on the fake siw0, once on each of the fake's kernels (ioctl,
 * write() only, the tunnel), with our plugin as the only siw provider
 * and the library's log at level 3 in log_path.
 */
int t_siw_run(const struct CMUnitTest *tests, size_t n)
{
	struct t_dev dev = {
		.ibdev = "siw0",
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = SIW_ABI_VERSION,
		.node_type = 4, /* RNIC */
	};
	char drivers[4096];
	char *root = t_fake_kernel(false);
	int ret;

	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	free(root); /* SYSFS_PATH holds its own copy */
	/*
	 * Our plugin only, by path, whichever core loads it; or the one
	 * T_SIW_PLUGIN names (Debian's libsiw, for siw_sweep_test_debian).
	 */
	if (getenv("T_SIW_PLUGIN"))
		snprintf(drivers, sizeof(drivers), "%s",
			 getenv("T_SIW_PLUGIN"));
	else
		snprintf(drivers, sizeof(drivers), "%s/lib/libsiw",
			 t_build_dir());
	setenv("RDMAV_DRIVERS", drivers, 1);
	/* Refusals explain themselves from level 3 (info). */
	close(mkstemp(log_path));
	setenv("VERBS_LOG_LEVEL", "3", 1);
	setenv("VERBS_LOG_FILE", log_path, 1);
	/* Each of the fake's kernels: ioctl, write() only, the tunnel. */
	ret = 0;
	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++) {
		t_uv_reset(t_diffrun_kernels[k]);
		t_uv.driver = &siw_driver;
		ret |= _cmocka_run_group_tests(
			t_uv_kernel_name(t_diffrun_kernels[k]), tests, n, NULL,
			NULL);
	}
	unlink(log_path);
	return ret;
}
