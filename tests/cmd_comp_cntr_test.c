// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The completion counter commands of cmd_comp_cntr.c against a fake
 * kernel behind the transport seam (t_mem.h): the device's limits,
 * create with the provider's attributes, destroy, the four updates, the
 * two reads and the attachment to a QP, byte for byte; the answers
 * decoded; what the library refuses unsent; and kernels without the
 * methods. Links the static archive, where the seam hook is reachable.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_mem.h"

/*
 * The uverbs numbers of rdma-core 65's kernel interface (Linux 6.19's
 * ib_user_ioctl_cmds.h and ib_user_ioctl_verbs.h), written here as facts.
 */
enum {
	OBJ_DEVICE = 0,
	OBJ_QP = 4,
	OBJ_COMP_CNTR = 19,
	M_QUERY_COMP_CNTR_CAPS = 8, /* DEVICE */
	M_QP_ATTACH_COMP_CNTR = 2, /* QP */
	M_CREATE = 0, /* COMP_CNTR, as the three below */
	M_DESTROY = 1,
	M_MODIFY = 2,
	M_READ = 3,
	ENTRY_COMP = 0,
	ENTRY_ERR = 1,
	OP_SET = 0,
	OP_INC = 1,
	F_MANDATORY = 1,
};

static struct ibv_comp_cntr t_cntr(struct ibv_context *ctx)
{
	return (struct ibv_comp_cntr){ .context = ctx, .handle = 0x31 };
}

/* What the fake device reports: 4 counters, 2^48, every op and bit 6. */
static void t_caps_handler(struct ib_uverbs_ioctl_hdr *h)
{
	uint64_t max = 1ull << 48;

	if (h->object_id != OBJ_DEVICE)
		return;
	t_out_u32(h, 0, 4);
	t_out_ptr(h, 1, &max, sizeof(max));
	t_out_u32(h, 2, 0x3f | 1u << 6);
}

static void test_query_caps(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr_caps caps = { 0 };
	uint8_t want[IOCTL_ATTR(3)], *p;

	tk.on_ioctl = t_caps_handler;
	assert_int_equal(ibv_cmd_query_comp_cntr_caps(ctx, &caps, sizeof(caps)),
			 0);
	p = t_put_ioctl_hdr(want, OBJ_DEVICE, M_QUERY_COMP_CNTR_CAPS, 3);
	p = t_put_mattr(p, 0, 4, (uintptr_t)&caps.max_counters);
	t_put_mattr(p, 1, 8, (uintptr_t)&caps.max_value);
	/* The ops land on the library's stack, to be translated. */
	assert_memory_equal(tk.log[0].bytes, want, IOCTL_ATTR(2));
	assert_int_equal(tk.log[0].len, IOCTL_ATTR(3));
	t_expect_attr(0, 2, 2, 4, F_MANDATORY);
	assert_int_equal(caps.max_counters, 4);
	assert_int_equal(caps.max_value, 1ull << 48);
	/* Bit 6 names no op of the verbs: left out. */
	assert_int_equal(caps.supported_qp_attach_ops, 0x3f);
}

/* A caller's struct shorter than 65.0's is refused unsent. */
static void test_query_caps_short(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr_caps caps;

	errno = 0;
	assert_int_equal(ibv_cmd_query_comp_cntr_caps(ctx, &caps,
						      sizeof(caps) - 1),
			 EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(tk.ncalls, 0);
}

static void t_create_handler(struct ib_uverbs_ioctl_hdr *h)
{
	t_out_obj(h, 0, 0x31);
}

/* The provider's linked attributes travel behind the core's handle. */
static void test_create(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = { .handle = 7 };
	uint8_t want[IOCTL_ATTR(2)], *p;
	DECLARE_COMMAND_BUFFER(drv, OBJ_COMP_CNTR, M_CREATE, 1);

	fill_attr_in_uint64(drv, 0x1000, 0xfeed);
	tk.on_ioctl = t_create_handler;
	assert_int_equal(ibv_cmd_create_comp_cntr(ctx, &cc, drv), 0);
	p = t_put_ioctl_hdr(want, OBJ_COMP_CNTR, M_CREATE, 2);
	p = t_put_mattr(p, 0, 0, 0);
	t_put_mattr(p, 0x1000, 8, 0xfeed);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(cc.handle, 0x31);
	assert_ptr_equal(cc.context, ctx);
}

/* A failed create leaves the handle, and has set the context (65.0's). */
static void test_create_fails(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = { .handle = 7 };

	t_fail_next(ENOMEM);
	errno = 0;
	assert_int_equal(ibv_cmd_create_comp_cntr(ctx, &cc, NULL), ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cc.handle, 7);
	assert_ptr_equal(cc.context, ctx);
	t_expect_method(0, OBJ_COMP_CNTR, M_CREATE, 1);
}

static void test_destroy(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);

	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), 0);
	t_expect_destroy_ioctl(0, OBJ_COMP_CNTR, M_DESTROY, 0x31);
	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), EBUSY);
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), EIO);
	verbs_allow_disassociate_destroy = true;
	t_fail_next(EIO);
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), 0);
	verbs_allow_disassociate_destroy = false;
}

/* Call @i was MODIFY of entry @entry by @op with @value. */
static void t_expect_modify(unsigned int i, uint64_t entry, uint64_t op,
			    uint64_t value)
{
	uint8_t want[IOCTL_ATTR(4)], *p;

	p = t_put_ioctl_hdr(want, OBJ_COMP_CNTR, M_MODIFY, 4);
	p = t_put_mattr(p, 0, 0, 0x31);
	p = t_put_mattr(p, 1, 8, entry);
	p = t_put_mattr(p, 2, 8, op);
	t_put_mattr(p, 3, 8, value);
	t_expect(i, true, want, sizeof(want));
}

static void test_modify(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);

	assert_int_equal(ibv_cmd_set_comp_cntr(&cc, 100), 0);
	assert_int_equal(ibv_cmd_set_err_comp_cntr(&cc, 1ull << 40), 0);
	assert_int_equal(ibv_cmd_inc_comp_cntr(&cc, 3), 0);
	assert_int_equal(ibv_cmd_inc_err_comp_cntr(&cc, UINT64_MAX), 0);
	t_expect_modify(0, ENTRY_COMP, OP_SET, 100);
	t_expect_modify(1, ENTRY_ERR, OP_SET, 1ull << 40);
	t_expect_modify(2, ENTRY_COMP, OP_INC, 3);
	t_expect_modify(3, ENTRY_ERR, OP_INC, UINT64_MAX);
	t_fail_next(EINVAL);
	assert_int_equal(ibv_cmd_inc_comp_cntr(&cc, 1), EINVAL);
}

static void t_read_handler(struct ib_uverbs_ioctl_hdr *h)
{
	uint64_t v = t_attr(h, 1)->data == ENTRY_ERR ? 0xe77 : 0xc0c0;

	t_out_ptr(h, 2, &v, sizeof(v));
}

static void test_read(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);
	uint8_t want[IOCTL_ATTR(3)], *p;
	uint64_t v = 0;

	tk.on_ioctl = t_read_handler;
	assert_int_equal(ibv_cmd_read_comp_cntr(&cc, &v), 0);
	assert_int_equal(v, 0xc0c0);
	p = t_put_ioctl_hdr(want, OBJ_COMP_CNTR, M_READ, 3);
	p = t_put_mattr(p, 0, 0, 0x31);
	p = t_put_mattr(p, 1, 8, ENTRY_COMP);
	t_put_mattr(p, 2, 8, (uintptr_t)&v);
	t_expect(0, true, want, sizeof(want));
	assert_int_equal(ibv_cmd_read_err_comp_cntr(&cc, &v), 0);
	assert_int_equal(v, 0xe77);
	t_put_mattr(want + IOCTL_ATTR(1), 1, 8, ENTRY_ERR);
	t_expect(1, true, want, sizeof(want));
}

/* Call @i attached QP 0x22 and counter 0x31 for the kernel's @ops. */
static void t_expect_attach(unsigned int i, uint32_t ops)
{
	uint8_t want[IOCTL_ATTR(3)], *p;

	p = t_put_ioctl_hdr(want, OBJ_QP, M_QP_ATTACH_COMP_CNTR, 3);
	p = t_put_mattr(p, 0, 0, 0x22);
	p = t_put_mattr(p, 1, 0, 0x31);
	t_put_mattr(p, 2, 4, ops);
	t_expect(i, true, want, sizeof(want));
}

static void test_attach(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);
	struct ibv_qp qp = { .context = ctx, .handle = 0x22 };
	struct ibv_qp_attach_comp_cntr_attr attr = {
		.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND |
			   IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE,
	};

	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr), 0);
	/* The kernel's SEND is bit 0, its REMOTE_RDMA_WRITE bit 5. */
	t_expect_attach(0, 1u << 0 | 1u << 5);
	attr.op_mask = 0x3f;
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr), 0);
	t_expect_attach(1, 0x3f);
	t_fail_next(EBUSY);
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr), EBUSY);
}

/* Bits no release defines are refused unsent, errno set. */
static void test_attach_unknown_bits(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);
	struct ibv_qp qp = { .context = ctx, .handle = 0x22 };
	struct ibv_qp_attach_comp_cntr_attr attr = {
		.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND | 1u << 6,
	};

	errno = 0;
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr),
			 EOPNOTSUPP);
	assert_int_equal(errno, EOPNOTSUPP);
	attr.op_mask = 1u << 31;
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr),
			 EOPNOTSUPP);
	attr.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND;
	attr.comp_mask = 1;
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr),
			 EOPNOTSUPP);
	assert_int_equal(tk.ncalls, 0);
}

/*
 * A kernel without the methods (before they came, or without ioctl at
 * all) refuses each; nothing falls back to write(), which has no form of
 * them.
 */
static void test_kernel_without(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_cntr cc = t_cntr(ctx);
	struct ibv_comp_cntr_caps caps;
	struct ibv_qp qp = { .context = ctx, .handle = 0x22 };
	struct ibv_qp_attach_comp_cntr_attr attr = { .op_mask = 1 };
	uint64_t v;

	tk.refuse_obj = OBJ_COMP_CNTR;
	tk.refuse_method = T_ANY_METHOD;
	assert_int_equal(ibv_cmd_create_comp_cntr(ctx, &cc, NULL),
			 EPROTONOSUPPORT);
	assert_int_equal(ibv_cmd_read_comp_cntr(&cc, &v), EPROTONOSUPPORT);
	assert_int_equal(ibv_cmd_set_comp_cntr(&cc, 1), EPROTONOSUPPORT);
	assert_int_equal(ibv_cmd_destroy_comp_cntr(&cc), EPROTONOSUPPORT);
	tk.refuse_obj = OBJ_DEVICE;
	tk.refuse_method = M_QUERY_COMP_CNTR_CAPS;
	assert_int_equal(ibv_cmd_query_comp_cntr_caps(ctx, &caps, sizeof(caps)),
			 EPROTONOSUPPORT);
	tk.refuse_obj = OBJ_QP;
	tk.refuse_method = M_QP_ATTACH_COMP_CNTR;
	assert_int_equal(ibv_cmd_qp_attach_comp_cntr(&qp, &cc, &attr),
			 EPROTONOSUPPORT);
	tk.no_ioctl = true;
	assert_int_equal(ibv_cmd_inc_err_comp_cntr(&cc, 1), ENOTTY);
	assert_int_equal(tk.writes, 0);
	assert_int_equal(cc.handle, 0x31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CMD(test_query_caps),
		T_CMD(test_query_caps_short),
		T_CMD(test_create),
		T_CMD(test_create_fails),
		T_CMD(test_destroy),
		T_CMD(test_modify),
		T_CMD(test_read),
		T_CMD(test_attach),
		T_CMD(test_attach_unknown_bits),
		T_CMD(test_kernel_without),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
