// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Failures that explain themselves (libibverbs/explain_*.c): for each case
 * the exact line the log gains at VERBS_LOG_LEVEL 3, that the verb's
 * result and errno are what the provider gave, and that below level 3
 * nothing is written. The verbs run on a hand-made context with fake
 * provider ops (device limits, port state) and a fake sysfs GID table;
 * the kernel is a fake behind the transport seam. The library reads
 * VERBS_LOG_LEVEL once per process, so each scenario runs in a child.
 * Links the static archive, where the hidden hooks are reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "libibverbs/verbs_cq.h"
#include "t_explain.h"
#include "t_kernel.h"
#include "t_scenario.h"
#include "t_util.h"

#define T_QPN 0x11

/* ibv_create_qp() on rxe0 with @cap; the provider fails it. */
static int t_create_qp_case(struct ibv_context *ctx, enum ibv_qp_type type,
			    struct ibv_qp_cap cap, struct ibv_srq *srq,
			    const char *line)
{
	struct ibv_qp_init_attr attr = { .qp_type = type,
					 .cap = cap,
					 .srq = srq };

	t_pd.context = ctx;
	errno = 0;
	T_CHECK_RET(!ibv_create_qp(&t_pd, &attr));
	T_CHECK_RET(errno == T_ERRNO);
	return t_expect_log(line);
}

static int scenario_create_qp(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_srq srq;
	struct ibv_qp_init_attr_ex ex = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_sge = 33 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = &t_pd,
	};

	(void)unused;
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_RC, (struct ibv_qp_cap){ .max_send_wr = 70000 },
		NULL,
		"create_qp on rxe0: max_send_wr 70000 > max_qp_wr 16384"));
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_UD,
		(struct ibv_qp_cap){ .max_send_wr = 16384,
				     .max_recv_wr = 16385,
				     .max_send_sge = 40,
				     .max_recv_sge = 32 },
		NULL,
		"create_qp on rxe0: max_send_sge 40 > max_sge 32; max_recv_wr 16385 > max_qp_wr 16384"));
	/* With an SRQ the receive side is the SRQ's. */
	T_CHECK(!t_create_qp_case(ctx, IBV_QPT_RC,
				  (struct ibv_qp_cap){ .max_recv_wr = 99999 },
				  &srq, NULL));
	/* Within every limit: nothing to say. */
	T_CHECK(!t_create_qp_case(ctx, IBV_QPT_RC,
				  (struct ibv_qp_cap){ .max_send_wr = 16 },
				  NULL, NULL));
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_XRC_SEND, (struct ibv_qp_cap){ 0 }, NULL,
		"create_qp on rxe0: qp_type XRC_SEND needs IBV_DEVICE_XRC, which the device lacks"));
	t_vdev.device.transport_type = IBV_TRANSPORT_IWARP;
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_UD, (struct ibv_qp_cap){ 0 }, NULL,
		"create_qp on rxe0: qp_type UD is not supported by an iWARP device"));
	t_vdev.device.transport_type = IBV_TRANSPORT_IB;
	/*
	 * Limits the device does not report: each capability is lowered in
	 * turn to find the one refused, and the QP so made destroyed.
	 */
	t_qp_limited = true;
	t_qp_limit = (struct ibv_qp_cap){ .max_send_wr = 16384,
					  .max_recv_wr = 16384,
					  .max_send_sge = 32,
					  .max_recv_sge = 4,
					  .max_inline_data = 256 };
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_RC,
		(struct ibv_qp_cap){ .max_send_wr = 64,
				     .max_send_sge = 2,
				     .max_inline_data = 1024 },
		NULL,
		"create_qp on rxe0: max_inline_data 1024 is refused (0 is taken), a limit the device does not report"));
	T_CHECK(t_qp_created == 1 && t_qp_destroyed == 1);
	T_CHECK(!t_create_qp_case(
		ctx, IBV_QPT_RC,
		(struct ibv_qp_cap){ .max_send_wr = 64, .max_recv_sge = 8 },
		NULL,
		"create_qp on rxe0: max_recv_sge 8 is refused (1 is taken), though the device reports max_sge 32"));
	/* Two refused at once: lowering one alone helps nothing. */
	T_CHECK(!t_create_qp_case(ctx, IBV_QPT_RC,
				  (struct ibv_qp_cap){ .max_recv_sge = 8,
						       .max_inline_data = 512 },
				  NULL, NULL));
	/* With an SRQ the receive side is not the refusal. */
	T_CHECK(!t_create_qp_case(ctx, IBV_QPT_RC,
				  (struct ibv_qp_cap){ .max_recv_sge = 8 },
				  &srq, NULL));
	T_CHECK(t_qp_created == 2 && t_qp_destroyed == 2);
	ex.cap =
		(struct ibv_qp_cap){ .max_send_wr = 1, .max_inline_data = 300 };
	errno = 0;
	T_CHECK(!verbs_create_qp_ex(ctx, &ex));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log(
		"create_qp on rxe0: max_inline_data 300 is refused (0 is taken), a limit the device does not report"));
	T_CHECK(t_qp_created == 3 && t_qp_destroyed == 3);
	t_qp_limited = false;
	ex.cap = (struct ibv_qp_cap){ .max_send_wr = 1, .max_recv_sge = 33 };
	/* The slot the inline ibv_create_qp_ex() calls. */
	errno = 0;
	T_CHECK(!verbs_create_qp_ex(ctx, &ex));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log(
		"create_qp on rxe0: max_recv_sge 33 > max_sge 32"));
	t_close(ctx);
	return 0;
}

static int scenario_create_srq_cq(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_srq_init_attr attr = { .attr = { .max_wr = 5000,
						    .max_sge = 9 } };
	struct ibv_cq_init_attr_ex cq_attr = { .cqe = 40000 };

	(void)unused;
	t_pd.context = ctx;
	errno = 0;
	T_CHECK(!ibv_create_srq(&t_pd, &attr));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log(
		"create_srq on rxe0: max_wr 5000 > max_srq_wr 1024; max_sge 9 > max_srq_sge 8"));
	errno = 0;
	T_CHECK(!ibv_create_cq(ctx, 70000, NULL, NULL, 3));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log(
		"create_cq on rxe0: cqe 70000 > max_cqe 32767; comp_vector 3 >= num_comp_vectors 1"));
	errno = 0;
	T_CHECK(!verbs_create_cq_ex(ctx, &cq_attr));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log("create_cq on rxe0: cqe 40000 > max_cqe 32767"));
	t_close(ctx);
	return 0;
}

/* ibv_modify_qp() on QP 0x11 of @type in @state; the provider fails it. */
static int t_modify_case(struct ibv_context *ctx, enum ibv_qp_type type,
			 enum ibv_qp_state state, struct ibv_qp_attr *attr,
			 int mask, const char *line)
{
	struct ibv_qp qp = {
		.context = ctx, .qp_type = type, .state = state, .qp_num = T_QPN
	};

	errno = 0;
	T_CHECK_RET(ibv_modify_qp(&qp, attr, mask) == T_ERRNO);
	T_CHECK_RET(errno == T_ERRNO);
	/* A failed modify leaves the state the core knew. */
	T_CHECK_RET(qp.state == state);
	return t_expect_log(line);
}

#define RC_RTR_MASK                                                     \
	(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | \
	 IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)

static int scenario_modify_mask(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_qp_attr rtr = { .qp_state = IBV_QPS_RTR,
				   .ah_attr = { .port_num = 1,
						.is_global = 1 } };
	struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS };
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT };

	(void)unused;
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_INIT, &rtr,
		RC_RTR_MASK & ~(IBV_QP_AV | IBV_QP_DEST_QPN),
		"modify_qp on rxe0 qp 0x11: INIT->RTR for RC lacks IBV_QP_AV, IBV_QP_DEST_QPN"));
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_RESET, &rts, IBV_QP_STATE,
		"modify_qp on rxe0 qp 0x11: RESET->RTS is not a transition"));
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_UD, IBV_QPS_RESET, &init,
		IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			IBV_QP_ACCESS_FLAGS,
		"modify_qp on rxe0 qp 0x11: RESET->INIT for UD lacks IBV_QP_QKEY; does not allow IBV_QP_ACCESS_FLAGS"));
	/* Without IBV_QP_STATE the QP stays where it is: RTS->RTS. */
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_RTS, &rts, IBV_QP_PATH_MTU,
		"modify_qp on rxe0 qp 0x11: RTS->RTS for RC does not allow IBV_QP_PATH_MTU"));
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RAW_PACKET, IBV_QPS_RESET, &init, IBV_QP_STATE,
		"modify_qp on rxe0 qp 0x11: RESET->INIT for RAW_PACKET lacks IBV_QP_PORT"));
	/* IBV_QP_CUR_STATE names the state the transition starts from. */
	rts.cur_qp_state = IBV_QPS_SQD;
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_UC, IBV_QPS_RTS, &rts,
		IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_RATE_LIMIT,
		"modify_qp on rxe0 qp 0x11: SQD->RTS for UC does not allow IBV_QP_RATE_LIMIT"));
	/* A mask the table accepts, an active port and a used GID. */
	T_CHECK(!t_modify_case(ctx, IBV_QPT_RC, IBV_QPS_INIT, &rtr, RC_RTR_MASK,
			       NULL));
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_ERR, &init, IBV_QP_STATE,
		"modify_qp on rxe0 qp 0x11: ERR->INIT is not a transition"));
	rts.qp_state = IBV_QPS_SQD;
	T_CHECK(!t_modify_case(ctx, IBV_QPT_RC, IBV_QPS_RTS, &rts,
			       IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY,
			       NULL));
	t_close(ctx);
	return 0;
}

static int scenario_modify_av(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_qp_attr rtr = {
		.qp_state = IBV_QPS_RTR,
		.ah_attr = { .port_num = 1,
			     .is_global = 1,
			     .grh = { .sgid_index = 2 } },
	};

	(void)unused;
	t_port_state = IBV_PORT_DOWN;
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_INIT, &rtr, RC_RTR_MASK,
		"modify_qp on rxe0 qp 0x11: port 1 is down; sgid_index 2 of port 1 is an empty GID entry"));
	t_port_state = IBV_PORT_ACTIVE;
	rtr.ah_attr.grh.sgid_index = 7;
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_UC, IBV_QPS_INIT, &rtr,
		IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN,
		"modify_qp on rxe0 qp 0x11: sgid_index 7 is beyond port 1's GID table of 4"));
	rtr.ah_attr.port_num = 3;
	T_CHECK(!t_modify_case(
		ctx, IBV_QPT_RC, IBV_QPS_INIT, &rtr, RC_RTR_MASK,
		"modify_qp on rxe0 qp 0x11: port_num 3 is not a port of the device"));
	t_close(ctx);
	return 0;
}

static int scenario_ah(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_ah_attr attr = { .port_num = 1 };
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH };
	struct ibv_grh grh = { 0 }; /* IP version 0: not a header */
	struct ibv_ah_attr out;

	(void)unused;
	t_pd.context = ctx;
	t_port_state = IBV_PORT_DOWN;
	errno = 0;
	T_CHECK(!ibv_create_ah(&t_pd, &attr));
	T_CHECK(errno == T_ERRNO);
	T_CHECK(!t_expect_log(
		"create_ah on rxe0: port 1 is down; port 1 is Ethernet (RoCE): is_global must be set"));
	attr.is_global = 1;
	attr.grh.sgid_index = 2;
	t_port_state = IBV_PORT_ACTIVE;
	T_CHECK(!ibv_create_ah(&t_pd, &attr));
	T_CHECK(!t_expect_log(
		"create_ah on rxe0: sgid_index 2 of port 1 is an empty GID entry"));
	t_port_state = IBV_PORT_DOWN;
	errno = 0;
	T_CHECK(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &out) == -1);
	T_CHECK(!t_expect_log("init_ah_from_wc on rxe0: port 1 is down"));
	t_close(ctx);
	return 0;
}

static int scenario_no_method(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_counters_init_attr attr = { 0 };
	struct verbs_counters vc;
	struct ibv_port_attr pa;
	struct ibv_query_port cmd;

	(void)unused;
	T_CHECK(ibv_cmd_create_counters(ctx, &attr, &vc, NULL) ==
		EPROTONOSUPPORT);
	T_CHECK(errno == EPROTONOSUPPORT);
	T_CHECK(!t_expect_log(
		"create_counters on rxe0: the kernel has no ioctl method COUNTERS/CREATE"));
	/* A method with a write() form falls back: nothing to explain. */
	memset(&pa, 0, sizeof(pa));
	ibv_cmd_query_port(ctx, 1, &pa, &cmd, sizeof(cmd));
	T_CHECK(!t_expect_log(NULL));
	tk.no_ioctl = true;
	T_CHECK(ibv_cmd_create_counters(ctx, &attr, &vc, NULL) == ENOTTY);
	T_CHECK(!t_expect_log(
		"create_counters on rxe0: the kernel has no ioctl interface, needed for COUNTERS/CREATE"));
	t_close(ctx);
	return 0;
}

/* The device counts sends and receives (DEVICE/QUERY_COMP_CNTR_CAPS). */
static void t_cntr_caps(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr *ops = t_attr(h, 2);
	uint32_t v = 3;

	if (h->object_id == UVERBS_OBJECT_DEVICE && ops)
		memcpy((void *)(uintptr_t)ops->data, &v, sizeof(v));
}

/*
 * Completion counters: the provider is the dummy for create (EOPNOTSUPP)
 * and calls the core's commands for the caps and the attachment, as
 * Debian's efa does; the fake kernel has the methods.
 */
static int scenario_comp_cntr(void *unused)
{
	static const struct verbs_context_ops ops = {
		.query_comp_cntr_caps = ibv_cmd_query_comp_cntr_caps,
		.qp_attach_comp_cntr = ibv_cmd_qp_attach_comp_cntr,
	};
	struct ibv_context *ctx = t_open("3");
	struct ibv_comp_cntr_init_attr ca = { .comp_mask = 2 };
	struct ibv_comp_cntr cc = { .context = ctx, .handle = 1 };
	struct ibv_qp qp = { .context = ctx, .state = IBV_QPS_RTS };
	struct ibv_qp_attach_comp_cntr_attr aa = { .op_mask = 0x45 };
	struct ibv_comp_cntr_caps caps;

	(void)unused;
	verbs_set_ops(verbs_get_ctx(ctx), &ops);
	tk.ioctl_err = 0;
	tk.on_ioctl = t_cntr_caps;
	T_CHECK(!ibv_create_comp_cntr(ctx, &ca) && errno == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"create_comp_cntr on rxe0: comp_mask 0x2 has bits no release defines (0x2)"));
	ca = (struct ibv_comp_cntr_init_attr){ .type = 7 };
	T_CHECK(!ibv_create_comp_cntr(ctx, &ca) && errno == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"create_comp_cntr on rxe0: type 7 is neither WRS nor BYTES"));
	T_CHECK(_ibv_query_comp_cntr_caps(ctx, &caps, 12) == EINVAL);
	T_CHECK(!t_expect_log(
		"query_comp_cntr_caps on rxe0: caps_size 12 < 16, this library's struct"));
	T_CHECK(ibv_qp_attach_comp_cntr(&qp, &cc, &aa) == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"qp_attach_comp_cntr on rxe0: op_mask 0x45 has bits no release defines (0x40); "
		"op_mask 0x45 asks for ops 0x4 the device does not count (supported_qp_attach_ops 0x3)"));
	aa.op_mask = 0;
	t_fail_next(EINVAL);
	T_CHECK(ibv_qp_attach_comp_cntr(&qp, &cc, &aa) == EINVAL);
	T_CHECK(!t_expect_log(
		"qp_attach_comp_cntr on rxe0: the QP's state is 3, not RESET (0) or INIT (1)"));
	qp.state = IBV_QPS_INIT;
	cc.context = (struct ibv_context *)&cc;
	T_CHECK(ibv_qp_attach_comp_cntr(&qp, &cc, &aa) == EINVAL);
	T_CHECK(!t_expect_log(
		"qp_attach_comp_cntr on rxe0: the counter belongs to another context"));
	cc.context = ctx;
	T_CHECK(ibv_read_err_comp_cntr(&cc, NULL) == EINVAL);
	T_CHECK(!t_expect_log("read_err_comp_cntr on rxe0: value is NULL"));
	tk.refuse_obj = UVERBS_OBJECT_QP;
	tk.refuse_method = 2; /* ATTACH_COMP_CNTR */
	T_CHECK(ibv_qp_attach_comp_cntr(&qp, &cc, &aa) == EPROTONOSUPPORT);
	T_CHECK(!t_expect_log(
		"qp_attach_comp_cntr on rxe0: the kernel has no ioctl method QP/ATTACH_COMP_CNTR"));
	t_close(ctx);
	return 0;
}

/* A provider that refuses every port's speed as a bad argument. */
static int refuse_speed(struct ibv_context *ctx, uint32_t port, uint64_t *speed)
{
	(void)ctx;
	(void)port;
	(void)speed;
	return EINVAL;
}

static const struct verbs_context_ops speed_einval = {
	.query_port_speed = refuse_speed,
};

/*
 * rdma-core 65's verbs: each ioctl method a kernel before them lacks is
 * named after its verb, and what the library refuses itself is worded.
 */
static int scenario_v65(void *unused)
{
	struct ibv_context *ctx = t_open("3");
	struct ibv_dmah_init_attr da = { .comp_mask = 0x18 };
	struct ibv_mr_init_attr ma = {
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			     IBV_REG_MR_MASK_IOVA,
		.length = 4096,
		.fd = 5,
	};
	struct ibv_pd pd = { .context = ctx };
	struct verbs_dmah dmah;
	struct verbs_mr vmr;
	uint64_t speed;

	(void)unused;
	T_CHECK(!ibv_alloc_dmah(ctx, &da) && errno == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"alloc_dmah on rxe0: comp_mask 0x18 has bits 0x18 that no IBV_DMAH_INIT_ATTR_MASK_ flag defines"));
	da.comp_mask = 0;
	T_CHECK(ibv_cmd_alloc_dmah(ctx, &dmah, &da) == EPROTONOSUPPORT);
	T_CHECK(!t_expect_log(
		"alloc_dmah on rxe0: the kernel has no ioctl method DMAH/ALLOC"));
	T_CHECK(ibv_cmd_export_dmabuf_fd(ctx, 0) == -1);
	T_CHECK(!t_expect_log(
		"dm_export_dmabuf_fd on rxe0: the kernel has no ioctl method DMABUF/ALLOC"));
	T_CHECK(ibv_cmd_query_port_speed(ctx, 1, &speed) == EPROTONOSUPPORT);
	T_CHECK(!t_expect_log(
		"query_port_speed on rxe0: the kernel has no ioctl method DEVICE/QUERY_PORT_SPEED"));
	/* The method there, but the driver keeps no speed (rxe on 7.2). */
	tk.ioctl_err = EOPNOTSUPP;
	T_CHECK(ibv_cmd_query_port_speed(ctx, 1, &speed) == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"query_port_speed on rxe0: the kernel has the method DEVICE/QUERY_PORT_SPEED, but its driver gives no speed for port 1 (EOPNOTSUPP)"));
	tk.ioctl_err = EPROTONOSUPPORT;
	/* The verb: the test provider has no such op (as rdma-core 65's rxe). */
	T_CHECK(ibv_query_port_speed(ctx, 1, &speed) == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"query_port_speed on rxe0: the provider has no port-speed query; ibv_query_port() reports the port's width and speed"));
	verbs_set_ops(verbs_get_ctx(ctx), &speed_einval);
	T_CHECK(ibv_query_port_speed(ctx, 3, &speed) == EINVAL);
	T_CHECK(!t_expect_log(
		"query_port_speed on rxe0: port_num 3 is not a port of the device"));
	/* Port 1 exists: an EINVAL the library cannot word, no line. */
	T_CHECK(ibv_query_port_speed(ctx, 1, &speed) == EINVAL);
	T_CHECK(!t_expect_log(NULL));
	/* A dma-buf has no write() form to fall back on. */
	T_CHECK(ibv_cmd_reg_mr_ex(&pd, &vmr, &ma) == EOPNOTSUPP);
	T_CHECK(!t_expect_log(
		"reg_mr_ex on rxe0: the kernel has no ioctl method MR/REG_MR"));
	ma.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET;
	T_CHECK(!ibv_reg_mr_ex(&pd, &ma) && errno == EINVAL);
	T_CHECK(!t_expect_log(
		"reg_mr_ex on rxe0: comp_mask: IBV_REG_MR_MASK_FD without _IOVA, which a dma-buf needs"));
	ma.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_BUF;
	ma.buf = NULL;
	T_CHECK(!ibv_reg_mr_ex(&pd, &ma) && errno == EINVAL);
	T_CHECK(!t_expect_log(
		"reg_mr_ex on rxe0: the buffer (IBV_REG_MR_MASK_BUF): NULL"));
	t_close(ctx);
	return 0;
}

/* Every failure of the other scenarios, at @level: none says a word. */
static int t_all_quiet(const char *level)
{
	struct ibv_context *ctx = t_open(level);
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 70000 } };
	struct ibv_qp qp = { .context = ctx, .qp_type = IBV_QPT_RC };
	struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS };
	struct ibv_counters_init_attr ca = { 0 };
	struct ibv_comp_cntr_init_attr cca = { .comp_mask = 1 };
	struct ibv_ah_attr ah = { .port_num = 9 };
	struct verbs_counters vc;

	t_pd.context = ctx;
	T_CHECK(!ibv_create_qp(&t_pd, &qa) && errno == T_ERRNO);
	/* Nor does it probe: no QP is made on the way. */
	t_qp_limited = true;
	t_qp_limit = (struct ibv_qp_cap){ .max_send_wr = 16 };
	qa.cap = (struct ibv_qp_cap){ .max_send_wr = 1, .max_inline_data = 9 };
	T_CHECK(!ibv_create_qp(&t_pd, &qa) && errno == T_ERRNO);
	T_CHECK(t_qp_created == 0);
	t_qp_limited = false;
	T_CHECK(!ibv_create_cq(ctx, 70000, NULL, NULL, 0) && errno == T_ERRNO);
	T_CHECK(ibv_modify_qp(&qp, &rts, IBV_QP_STATE) == T_ERRNO);
	T_CHECK(!ibv_create_ah(&t_pd, &ah) && errno == T_ERRNO);
	T_CHECK(ibv_cmd_create_counters(ctx, &ca, &vc, NULL) ==
		EPROTONOSUPPORT);
	T_CHECK(!ibv_create_comp_cntr(ctx, &cca) && errno == EOPNOTSUPP);
	T_CHECK(!t_expect_log(NULL));
	t_close(ctx);
	return 0;
}

/* At the default level not even stderr hears of it. */
static int scenario_quiet_default(void *unused)
{
	char path[96];
	int fd;

	(void)unused;
	snprintf(path, sizeof(path), "/tmp/explain_stderr-%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	T_CHECK(fd >= 0 && dup2(fd, STDERR_FILENO) == STDERR_FILENO);
	close(fd);
	T_CHECK(!t_all_quiet(NULL));
	snprintf(t_log, sizeof(t_log), "%s", path);
	fd = t_expect_log(NULL);
	unlink(path);
	return fd;
}

static int scenario_quiet_warn(void *unused)
{
	(void)unused;
	return t_all_quiet("2");
}

static void test_create_qp(void **state)
{
	(void)state;
	t_scenario(scenario_create_qp, NULL);
}

static void test_create_srq_cq(void **state)
{
	(void)state;
	t_scenario(scenario_create_srq_cq, NULL);
}

static void test_modify_mask(void **state)
{
	(void)state;
	t_scenario(scenario_modify_mask, NULL);
}

static void test_modify_av(void **state)
{
	(void)state;
	t_scenario(scenario_modify_av, NULL);
}

static void test_ah(void **state)
{
	(void)state;
	t_scenario(scenario_ah, NULL);
}

static void test_no_method(void **state)
{
	(void)state;
	t_scenario(scenario_no_method, NULL);
}

static void test_comp_cntr(void **state)
{
	(void)state;
	t_scenario(scenario_comp_cntr, NULL);
}

static void test_v65(void **state)
{
	(void)state;
	t_scenario(scenario_v65, NULL);
}

static void test_quiet_default(void **state)
{
	(void)state;
	t_scenario(scenario_quiet_default, NULL);
}

static void test_quiet_warn(void **state)
{
	(void)state;
	t_scenario(scenario_quiet_warn, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_qp),
		cmocka_unit_test(test_create_srq_cq),
		cmocka_unit_test(test_modify_mask),
		cmocka_unit_test(test_modify_av),
		cmocka_unit_test(test_ah),
		cmocka_unit_test(test_no_method),
		cmocka_unit_test(test_comp_cntr),
		cmocka_unit_test(test_v65),
		cmocka_unit_test(test_quiet_default),
		cmocka_unit_test(test_quiet_warn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
