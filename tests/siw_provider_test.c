// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Our siw provider (providers/siw) on the fake kernel of t_uverbs.h,
 * with the test playing siw's kernel driver: the driver data of
 * GET_CONTEXT, REG_MR and CREATE_CQ, and the CQ ring it shares through
 * mmap(). The test writes completions into the ring as the kernel does
 * (the fields, then SIW_WQE_VALID) and checks what ibv_poll_cq() makes
 * of them, that polled entries are handed back (flags zero), that the
 * ring wraps, and that arming writes the control word after the ring
 * without a command. Run on our core and, as siw_provider_test_reference,
 * on Debian's.
 */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/verbs.h>
#include <rdma/siw-abi.h>

#include "t_diffrun.h"
#include "t_util.h"
#include "t_uverbs.h"

#define T_CQ_KEY 0x3000ull /* the ring's mmap offset, as siw hands out */
#define T_NUM_CQE 16u /* what siw rounds a CQ of 10 up to */
#define T_DEV_ID 0x5157u
#define T_SQ_KEY 0x4000ull
#define T_RQ_KEY 0x5000ull
#define T_NUM_WQE 8u /* what siw rounds queues of 5 up to */
#define T_SRQ_KEY 0x6000ull

/* What the fake siw driver saw and shared. */
static struct {
	struct siw_ureq_reg_mr reg_mr_in;
	size_t reg_mr_in_len, reg_mr_out_len, create_cq_out_len;
	struct siw_cqe *ring; /* the provider's mapping of the CQ */
	size_t ring_len;
	struct siw_sqe *sq; /* ... and of the QP's queues */
	struct siw_rqe *rq;
	size_t sq_len, rq_len;
	struct siw_rqe *srq; /* ... and of the SRQ */
	size_t srq_len;
	unsigned int doorbells; /* POST_SEND commands, all without WR */
	uint32_t doorbell_wrs;
	int doorbell_err; /* what POST_SEND fails with (0: it succeeds) */
} kern;

enum verb {
	V_OTHER,
	V_GET_CONTEXT,
	V_REG_MR,
	V_CREATE_CQ,
	V_CREATE_QP,
	V_POST_SEND,
	V_CREATE_SRQ
};

static enum verb verb_of(const struct t_uv_cmd *cmd)
{
	if (cmd->is_ioctl) {
		if (cmd->object == UVERBS_OBJECT_DEVICE &&
		    cmd->method == UVERBS_METHOD_GET_CONTEXT)
			return V_GET_CONTEXT;
		if (cmd->object == UVERBS_OBJECT_CQ &&
		    cmd->method == UVERBS_METHOD_CQ_CREATE)
			return V_CREATE_CQ;
		if (cmd->object == UVERBS_OBJECT_QP &&
		    cmd->method == UVERBS_METHOD_QP_CREATE)
			return V_CREATE_QP;
		if (cmd->object == UVERBS_OBJECT_SRQ &&
		    cmd->method == UVERBS_METHOD_SRQ_CREATE)
			return V_CREATE_SRQ;
		return V_OTHER;
	}
	switch (cmd->command) {
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		return V_GET_CONTEXT;
	case IB_USER_VERBS_CMD_REG_MR:
		return V_REG_MR;
	case IB_USER_VERBS_CMD_CREATE_CQ:
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ:
		return V_CREATE_CQ;
	case IB_USER_VERBS_CMD_CREATE_QP:
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP:
		return V_CREATE_QP;
	case IB_USER_VERBS_CMD_POST_SEND:
		return V_POST_SEND;
	case IB_USER_VERBS_CMD_CREATE_SRQ:
	case IB_USER_VERBS_CMD_CREATE_XSRQ:
		return V_CREATE_SRQ;
	}
	return V_OTHER;
}

/*
 * siw keeps the capacities a QP is created with (siw_create_qp() checks
 * them against its limits only), so its answer gives back the request's
 * struct ib_uverbs_qp_cap: five u32 from max_send_wr on, in the request
 * and in the answer alike, or the method's CAP and RESP_CAP.
 */
static void echo_qp_caps(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *in, *out;
	size_t in_off, out_off;

	if (cmd->is_ioctl) {
		in = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_CAP);
		out = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP);
		if (in && out && in->len >= sizeof(struct ib_uverbs_qp_cap) &&
		    out->len >= sizeof(struct ib_uverbs_qp_cap))
			memmove((void *)(uintptr_t)out->data,
				(const void *)(uintptr_t)in->data,
				sizeof(struct ib_uverbs_qp_cap));
		return;
	}
	if (cmd->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		in_off = offsetof(struct ib_uverbs_ex_create_qp, max_send_wr);
		out_off = offsetof(struct ib_uverbs_ex_create_qp_resp,
				   base.max_send_wr);
	} else {
		in_off = offsetof(struct ib_uverbs_create_qp, max_send_wr);
		out_off =
			offsetof(struct ib_uverbs_create_qp_resp, max_send_wr);
	}
	if (cmd->core_in_len >= in_off + sizeof(struct ib_uverbs_qp_cap) &&
	    cmd->core_out_len >= out_off + sizeof(struct ib_uverbs_qp_cap))
		memcpy((uint8_t *)cmd->core_out + out_off,
		       (const uint8_t *)cmd->core_in + in_off,
		       sizeof(struct ib_uverbs_qp_cap));
}

static int put(struct t_uv_cmd *cmd, const void *src, size_t len)
{
	memcpy(cmd->drv_out, src,
	       len < cmd->drv_out_len ? len : cmd->drv_out_len);
	return 0;
}

/* siw's side of each command: its driver data. */
static int siw_answer(struct t_uv_cmd *cmd)
{
	switch (verb_of(cmd)) {
	case V_GET_CONTEXT: {
		struct siw_uresp_alloc_ctx r = { .dev_id = T_DEV_ID };

		return put(cmd, &r, sizeof(r));
	}
	case V_REG_MR: {
		struct siw_uresp_reg_mr r = { .stag = 0x2a00 };

		kern.reg_mr_in_len = cmd->drv_in_len;
		kern.reg_mr_out_len = cmd->drv_out_len;
		if (cmd->drv_in_len >= sizeof(kern.reg_mr_in))
			memcpy(&kern.reg_mr_in, cmd->drv_in,
			       sizeof(kern.reg_mr_in));
		r.stag |= kern.reg_mr_in.stag_key;
		return put(cmd, &r, sizeof(r));
	}
	case V_CREATE_CQ: {
		struct siw_uresp_create_cq r = {
			.cq_id = 7,
			.num_cqe = T_NUM_CQE,
			.cq_key = T_CQ_KEY,
		};

		kern.create_cq_out_len = cmd->drv_out_len;
		return put(cmd, &r, sizeof(r));
	}
	case V_CREATE_QP: {
		struct siw_uresp_create_qp r = {
			.qp_id = 9,
			.num_sqe = T_NUM_WQE,
			.num_rqe = T_NUM_WQE,
			.sq_key = T_SQ_KEY,
			.rq_key = T_RQ_KEY,
		};

		echo_qp_caps(cmd);
		return put(cmd, &r, sizeof(r));
	}
	case V_CREATE_SRQ: {
		struct siw_uresp_create_srq r = {
			.num_rqe = T_NUM_WQE,
			.srq_key = T_SRQ_KEY,
		};

		return put(cmd, &r, sizeof(r));
	}
	case V_POST_SEND: {
		const struct ib_uverbs_post_send *ps = cmd->core_in;

		kern.doorbells++;
		if (cmd->core_in_len >= sizeof(*ps))
			kern.doorbell_wrs += ps->wr_count;
		return kern.doorbell_err;
	}
	default:
		return 0;
	}
}

/* The provider mapped @len bytes at @offset: remember the CQ's. */
static void siw_mmap(uint64_t offset, void *addr, size_t len)
{
	if (offset == T_CQ_KEY) {
		kern.ring = addr;
		kern.ring_len = len;
	} else if (offset == T_SQ_KEY) {
		kern.sq = addr;
		kern.sq_len = len;
	} else if (offset == T_RQ_KEY) {
		kern.rq = addr;
		kern.rq_len = len;
	} else if (offset == T_SRQ_KEY) {
		kern.srq = addr;
		kern.srq_len = len;
	}
}

/* The kernel takes an element: it copies it out, then clears its flags. */
static void kernel_take(uint16_t *flags)
{
	atomic_store_explicit((_Atomic uint16_t *)flags, 0,
			      memory_order_release);
}

static const struct t_uv_driver siw_driver = {
	.name = "siw",
	.answer = siw_answer,
	.mmap = siw_mmap,
};

/* A completion placed as the kernel places it: fields, then the flag. */
static void kernel_complete(uint32_t idx, uint64_t id, uint8_t opcode,
			    uint16_t status, uint32_t bytes)
{
	struct siw_cqe *cqe = &kern.ring[idx % T_NUM_CQE];

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

static struct ibv_context *open_siw(void)
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

/* Whether this process mapped our plugin (not Debian's libsiw). */
static bool mapped_ours(void)
{
	char want[4096], line[8192];
	bool found = false;
	FILE *maps = fopen("/proc/self/maps", "r");

	assert_non_null(maps);
	snprintf(want, sizeof(want), "%s/lib/libsiw-rdmav34.so", t_build_dir());
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, want))
			found = true;
	fclose(maps);
	return found;
}

/* What each test starts from: siw0 opened, a PD, a CQ of 10. */
struct base {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

static int base_up(void **state)
{
	static struct base b;

	b.ctx = open_siw();
	assert_non_null(b.ctx);
	b.pd = ibv_alloc_pd(b.ctx);
	assert_non_null(b.pd);
	kern.ring = NULL; /* for cq_ring(): the mapping of this CQ's */
	b.cq = ibv_create_cq(b.ctx, 10, NULL, NULL, 0);
	assert_non_null(b.cq);
	*state = &b;
	return 0;
}

/* Each test leaves @state's objects alone and destroys its own. */
static int base_down(void **state)
{
	struct base *b = *state;

	assert_int_equal(ibv_destroy_cq(b->cq), 0);
	assert_int_equal(ibv_dealloc_pd(b->pd), 0);
	assert_int_equal(ibv_close_device(b->ctx), 0);
	return 0;
}

static void context_pd_mr(void **state)
{
	struct base *b = *state;
	static char buf[8192];
	struct ibv_mr *mr1, *mr2;
	struct ibv_device_attr_ex attr;
	struct ibv_port_attr port;

	assert_true(mapped_ours());
	assert_int_equal(ibv_query_device_ex(b->ctx, NULL, &attr), 0);
	assert_int_equal(ibv_query_port(b->ctx, 1, &port), 0);
	mr1 = ibv_reg_mr(b->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr1);
	/* siw reads its request and writes its answer, 8 bytes each. */
	assert_int_equal(kern.reg_mr_in_len, sizeof(struct siw_ureq_reg_mr));
	assert_int_equal(kern.reg_mr_out_len, sizeof(struct siw_uresp_reg_mr));
	uint8_t key1 = kern.reg_mr_in.stag_key;
	mr2 = ibv_reg_mr(b->pd, buf + 4096, 4096, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr2);
	/* A new key for each registration. */
	assert_int_not_equal(kern.reg_mr_in.stag_key, key1);
	assert_int_equal(ibv_dereg_mr(mr2), 0);
	assert_int_equal(ibv_dereg_mr(mr1), 0);
}

static void cq_ring(void **state)
{
	struct base *b = *state;
	struct ibv_cq *cq = b->cq;
	struct siw_cq_ctrl *ctrl;
	struct ibv_wc wc[4];
	unsigned int calls;

	/* What base_up()'s CQ answered and mapped. */
	assert_int_equal(kern.create_cq_out_len,
			 sizeof(struct siw_uresp_create_cq));
	/* The ring, then the control word, in one mapping at the key. */
	assert_non_null(kern.ring);
	assert_int_equal(kern.ring_len, T_NUM_CQE * sizeof(struct siw_cqe) +
						sizeof(struct siw_cq_ctrl));
	ctrl = (struct siw_cq_ctrl *)&kern.ring[T_NUM_CQE];

	/* Polling and arming are no commands. */
	calls = t_uv.calls;
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 0);

	kernel_complete(0, 100, SIW_OP_SEND, SIW_WC_SUCCESS, 64);
	kernel_complete(1, 101, SIW_OP_RECEIVE, SIW_WC_SUCCESS, 32);
	kernel_complete(2, 102, SIW_OP_WRITE, SIW_WC_WR_FLUSH_ERR, 0);
	assert_int_equal(ibv_poll_cq(cq, 2, wc), 2);
	assert_int_equal(wc[0].wr_id, 100);
	assert_int_equal(wc[0].opcode, IBV_WC_SEND);
	assert_int_equal(wc[0].status, IBV_WC_SUCCESS);
	assert_int_equal(wc[0].byte_len, 64);
	assert_int_equal(wc[0].qp_num, 0x42);
	assert_int_equal(wc[1].wr_id, 101);
	assert_int_equal(wc[1].opcode, IBV_WC_RECV);
	assert_int_equal(wc[1].byte_len, 32);
	/* Taken entries go back to the kernel. */
	assert_int_equal(kern.ring[0].flags, 0);
	assert_int_equal(kern.ring[1].flags, 0);
	assert_int_equal(kern.ring[2].flags, SIW_WQE_VALID);
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 1);
	assert_int_equal(wc[0].wr_id, 102);
	assert_int_equal(wc[0].status, IBV_WC_WR_FLUSH_ERR);

	/* Many times round the ring, one completion at a time. */
	for (uint32_t i = 3; i < 3 + 5 * T_NUM_CQE; i++) {
		kernel_complete(i, 1000 + i, SIW_OP_READ, SIW_WC_SUCCESS, i);
		assert_int_equal(ibv_poll_cq(cq, 4, wc), 1);
		assert_int_equal(wc[0].wr_id, 1000 + i);
		assert_int_equal(wc[0].opcode, IBV_WC_RDMA_READ);
	}
	assert_int_equal(ibv_poll_cq(cq, 4, wc), 0);

	assert_int_equal(ibv_req_notify_cq(cq, 0), 0);
	assert_int_equal(ctrl->flags,
			 SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION);
	assert_int_equal(ibv_req_notify_cq(cq, 1), 0);
	assert_int_equal(ctrl->flags, SIW_NOTIFY_SOLICITED);
	assert_int_equal(t_uv.calls, calls);
}

/* The library's log (VERBS_LOG_FILE), at level 3. */
static char log_path[] = "/tmp/ibvt-siw-log-XXXXXX";

/* Whether the log holds @needle (flushed first, see post_refused()). */
static bool log_has(const char *needle)
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

/* One ibv_post_send() that must fail; what the log gained meanwhile. */
struct post {
	struct ibv_qp *qp;
	struct ibv_send_wr *wr, *bad;
	int ret;
};

static char *post_refused(struct post *p)
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

static void qp_queues(void **state)
{
	struct base *b = *state;
	static char buf[256], text[80];
	struct ibv_sge sge[3], big = { (uintptr_t)buf, 81, 0 };
	struct ibv_send_wr swr[2], *bad_s;
	struct ibv_recv_wr rwr, *bad_r;
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 5,
			 .max_send_sge = 2,
			 .max_recv_sge = 2,
			 .max_inline_data = 64 },
	};
	struct post refused = {};
	struct ibv_qp *qp;
	char *log;

	init.send_cq = init.recv_cq = b->cq;
	kern.sq = NULL;
	kern.rq = NULL;
	qp = ibv_create_qp(b->pd, &init);
	assert_non_null(qp);
	assert_non_null(kern.sq);
	assert_non_null(kern.rq);
	assert_int_equal(kern.sq_len, T_NUM_WQE * sizeof(struct siw_sqe));
	assert_int_equal(kern.rq_len, T_NUM_WQE * sizeof(struct siw_rqe));

	/* A receive: the element, then VALID; no command. */
	sge[0] = (struct ibv_sge){ (uintptr_t)buf, 64, 0x2a01 };
	sge[1] = (struct ibv_sge){ (uintptr_t)buf + 64, 32, 0x2a01 };
	rwr = (struct ibv_recv_wr){ .wr_id = 7, .sg_list = sge, .num_sge = 2 };
	kern.doorbells = 0;
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), 0);
	assert_int_equal(kern.rq[0].flags, SIW_WQE_VALID);
	assert_int_equal(kern.rq[0].id, 7);
	assert_int_equal(kern.rq[0].num_sge, 2);
	assert_int_equal(kern.rq[0].sge[1].laddr, (uintptr_t)buf + 64);
	assert_int_equal(kern.rq[0].sge[1].length, 32);
	assert_int_equal(kern.rq[0].sge[1].lkey, 0x2a01);
	assert_int_equal(kern.doorbells, 0);

	/* A signalled send of two SGEs and an inline write: one doorbell. */
	memset(text, 'x', sizeof(text));
	swr[0] = (struct ibv_send_wr){ .wr_id = 1,
				       .next = &swr[1],
				       .sg_list = sge,
				       .num_sge = 2,
				       .opcode = IBV_WR_SEND,
				       .send_flags = IBV_SEND_SIGNALED };
	sge[1].addr = (uintptr_t)text;
	swr[1] = (struct ibv_send_wr){
		.wr_id = 2,
		.sg_list = &sge[1],
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_INLINE,
		.wr.rdma = { .remote_addr = 0x1000, .rkey = 0x3300 },
	};
	kern.doorbell_wrs = 0;
	assert_int_equal(ibv_post_send(qp, swr, &bad_s), 0);
	assert_int_equal(kern.doorbells, 1);
	assert_int_equal(kern.doorbell_wrs, 0);
	assert_int_equal(kern.sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	assert_int_equal(kern.sq[0].opcode, SIW_OP_SEND);
	assert_int_equal(kern.sq[0].num_sge, 2);
	assert_int_equal(kern.sq[0].sge[0].length, 64);
	assert_int_equal(kern.sq[1].flags, SIW_WQE_VALID | SIW_WQE_INLINE);
	assert_int_equal(kern.sq[1].opcode, SIW_OP_WRITE);
	assert_int_equal(kern.sq[1].raddr, 0x1000);
	assert_int_equal(kern.sq[1].rkey, 0x3300);
	assert_int_equal(kern.sq[1].num_sge, 1);
	assert_int_equal(kern.sq[1].sge[0].length, 32);
	assert_memory_equal(&kern.sq[1].sge[1], text, 32);

	/*
	 * Over siw's inline room, and an opcode siw lacks: refused, and
	 * explained at VERBS_LOG_LEVEL=3.
	 */
	swr[1].sg_list = &big;
	swr[1].next = NULL;
	refused.qp = qp;
	refused.wr = &swr[1];
	log = post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &swr[1]);
	assert_non_null(strstr(log, "81 bytes of inline data"));
	free(log);
	swr[1].opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	swr[1].send_flags = 0;
	log = post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "siw has no ATOMIC_FETCH_AND_ADD"));
	free(log);
	swr[1].sg_list = sge;
	/* The kernel reads a READ into sge[0] only and cannot fence one. */
	swr[1].opcode = IBV_WR_RDMA_READ;
	swr[1].send_flags = 0;
	swr[1].num_sge = 2;
	log = post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "RDMA_READ with num_sge 2"));
	free(log);
	swr[1].num_sge = 1;
	swr[1].send_flags = IBV_SEND_FENCE;
	log = post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_non_null(strstr(log, "cannot fence an RDMA_READ"));
	free(log);
	assert_int_equal(kern.doorbells, 1);

	/*
	 * The kernel granted the 2 SGEs asked for (under siw's 6): a send
	 * or a receive of 3 is refused by the provider, said at level 3.
	 */
	assert_int_equal(init.cap.max_send_sge, 2); /* as answered */
	assert_int_equal(init.cap.max_recv_sge, 2);
	sge[2] = sge[1];
	swr[1] = (struct ibv_send_wr){
		.wr_id = 3, .sg_list = sge, .num_sge = 3, .opcode = IBV_WR_SEND
	};
	log = post_refused(&refused);
	assert_int_equal(refused.ret, EINVAL);
	assert_ptr_equal(refused.bad, &swr[1]);
	assert_non_null(strstr(log, "num_sge 3, the QP takes at most 2"));
	free(log);
	rwr.num_sge = 3;
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), EINVAL);
	assert_ptr_equal(bad_r, &rwr);
	assert_int_equal(kern.rq[1].flags, 0);
	rwr.num_sge = 2;
	assert_int_equal(kern.doorbells, 1);

	/*
	 * The doorbell refused (ENOTCONN: not in RTS): the call's elements
	 * are taken back, its first WR reported with the kernel's errno.
	 * The element before them taken, the engine may be idle: the call
	 * rings.
	 */
	kernel_take(&kern.sq[1].flags);
	swr[1] = (struct ibv_send_wr){
		.wr_id = 4, .sg_list = sge, .num_sge = 1, .opcode = IBV_WR_SEND
	};
	swr[0].next = &swr[1];
	kern.doorbell_err = ENOTCONN;
	refused.wr = &swr[0];
	log = post_refused(&refused);
	kern.doorbell_err = 0;
	assert_int_equal(refused.ret, ENOTCONN);
	assert_ptr_equal(refused.bad, &swr[0]);
	assert_int_equal(kern.doorbells, 2);
	assert_int_equal(kern.sq[2].flags, 0);
	assert_int_equal(kern.sq[3].flags, 0);
	assert_non_null(strstr(log, "the doorbell failed"));
	free(log);
	/* The slots are free again: the same call now goes in there. */
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	assert_int_equal(kern.doorbells, 3);
	assert_int_equal(kern.sq[2].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	assert_int_equal(kern.sq[2].id, 1);
	assert_int_equal(kern.sq[3].flags, SIW_WQE_VALID);
	assert_int_equal(kern.sq[3].id, 4);
	refused.wr = &swr[1];

	/* Round the ring: full until the kernel takes an element. */
	swr[0].next = NULL;
	for (unsigned int i = 4; i < T_NUM_WQE; i++)
		assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	refused.wr = &swr[0];
	log = post_refused(&refused);
	assert_int_equal(refused.ret, ENOMEM);
	assert_ptr_equal(refused.bad, &swr[0]);
	assert_non_null(strstr(log, "the send queue is full"));
	free(log);
	kernel_take(&kern.sq[0].flags);
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	assert_int_equal(kern.sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED);
	/*
	 * Every post since the first found the element before its own still
	 * untaken: the kernel's engine comes to it unasked, no doorbell. Once
	 * the kernel took them all, a post rings again.
	 */
	assert_int_equal(kern.doorbells, 3);
	for (unsigned int i = 0; i < T_NUM_WQE; i++)
		kernel_take(&kern.sq[i].flags);
	assert_int_equal(ibv_post_send(qp, &swr[0], &bad_s), 0);
	assert_int_equal(kern.doorbells, 4);
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/*
 * Inline data of every length siw takes, 0 to 80 bytes, in one SGE and
 * split over three: the element holds exactly those bytes, in order,
 * with their length in sge[0], and not a byte is written past them (the
 * provider copies in overlapping blocks).
 */
static void inline_sizes(void **state)
{
	struct base *b = *state;
	static uint8_t src[SIW_MAX_INLINE];
	struct ibv_qp_init_attr init = {
		.send_cq = b->cq,
		.recv_cq = b->cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5,
			 .max_recv_wr = 1,
			 .max_send_sge = 3,
			 .max_recv_sge = 1,
			 .max_inline_data = SIW_MAX_INLINE },
	};
	struct ibv_sge sge[3];
	struct ibv_send_wr wr = { .sg_list = sge,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_INLINE },
			   *bad;
	unsigned int slot = 0;
	struct ibv_qp *qp;

	for (unsigned int i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 3);
	kern.sq = NULL;
	qp = ibv_create_qp(b->pd, &init);
	assert_non_null(qp);
	assert_non_null(kern.sq);
	for (uint32_t len = 0; len <= SIW_MAX_INLINE; len++) {
		for (int pieces = 1; pieces <= 3; pieces += 2) {
			struct siw_sqe *sqe = &kern.sq[slot++ % T_NUM_WQE];
			uint32_t a = len / pieces, c = len - 2 * a;
			uint8_t *data = (uint8_t *)&sqe->sge[1];

			memset(sqe, 0xee, sizeof(*sqe));
			sqe->flags = 0; /* the kernel's: free */
			sge[0] = (struct ibv_sge){ (uintptr_t)src, len, 0 };
			if (pieces == 3) {
				sge[0].length = a;
				sge[1] = (struct ibv_sge){ (uintptr_t)src + a,
							   a, 0 };
				sge[2] = (struct ibv_sge){
					(uintptr_t)src + 2 * a, c, 0
				};
			}
			wr.wr_id = len;
			wr.num_sge = pieces;
			assert_int_equal(ibv_post_send(qp, &wr, &bad), 0);
			assert_int_equal(sqe->flags,
					 SIW_WQE_VALID | SIW_WQE_INLINE);
			assert_int_equal(sqe->num_sge, 1);
			assert_int_equal(sqe->sge[0].length, len);
			assert_memory_equal(data, src, len);
			if (len < SIW_MAX_INLINE)
				assert_int_equal(data[len], 0xee);
			kernel_take(&sqe->flags);
		}
	}
	assert_int_equal(ibv_destroy_qp(qp), 0);
}

/* An SRQ's ring, and a QP on it that maps no RQ of its own. */
static void srq_ring(void **state)
{
	struct base *b = *state;
	static char buf[64];
	struct ibv_sge sge = { (uintptr_t)buf, 64, 0x2a02 };
	struct ibv_recv_wr rwr = { .wr_id = 33, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad_r;
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 5, .max_sge = 1 } };
	struct ibv_srq_attr sa = { .srq_limit = 2 };
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 5, .max_send_sge = 1 },
	};
	struct ibv_srq *srq;
	struct ibv_qp *qp;

	kern.srq = NULL;
	srq = ibv_create_srq(b->pd, &si);
	assert_non_null(srq);
	assert_non_null(kern.srq);
	assert_int_equal(kern.srq_len, T_NUM_WQE * sizeof(struct siw_rqe));
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	/* Full once the ring holds T_NUM_WQE the kernel has not taken. */
	for (unsigned int i = 1; i < T_NUM_WQE; i++)
		assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), ENOMEM);
	assert_ptr_equal(bad_r, &rwr);
	assert_true(log_has("post_srq_recv: the receive queue is full"));
	kernel_take(&kern.srq[0].flags);
	assert_int_equal(ibv_post_srq_recv(srq, &rwr, &bad_r), 0);
	assert_int_equal(kern.srq[0].flags, SIW_WQE_VALID);
	assert_int_equal(kern.srq[0].id, 33);
	assert_int_equal(kern.srq[0].sge[0].lkey, 0x2a02);
	assert_int_equal(ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT), 0);

	init.send_cq = init.recv_cq = b->cq;
	init.srq = srq;
	kern.rq = NULL;
	qp = ibv_create_qp(b->pd, &init);
	assert_non_null(qp);
	assert_null(kern.rq);
	assert_int_equal(ibv_post_recv(qp, &rwr, &bad_r), EINVAL);
	assert_int_equal(ibv_destroy_qp(qp), 0);

	assert_int_equal(ibv_destroy_srq(srq), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(context_pd_mr, base_up,
						base_down),
		cmocka_unit_test_setup_teardown(cq_ring, base_up, base_down),
		cmocka_unit_test_setup_teardown(qp_queues, base_up, base_down),
		cmocka_unit_test_setup_teardown(srq_ring, base_up, base_down),
		cmocka_unit_test_setup_teardown(inline_sizes, base_up,
						base_down),
	};
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
	/* Our plugin only, by path, whichever core loads it. */
	snprintf(drivers, sizeof(drivers), "%s/lib/libsiw", t_build_dir());
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
			t_uv_kernel_name(t_diffrun_kernels[k]), tests,
			sizeof(tests) / sizeof(tests[0]), NULL, NULL);
	}
	unlink(log_path);
	return ret;
}
