// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The public MR verbs of verbs_mr.c on fake provider ops (t_mem.h): the
 * argument checks, the dispatch to the provider and the core fields it
 * sets, and the fork tracker around registrations (real madvise() calls
 * on our own pages, counts read through libibverbs/fork.h).
 * Links the static archive, where the hidden seam and hooks are reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "libibverbs/fork.h"
#include "t_mem.h"
#include "t_seccomp.h"

/* Pages of our own for registrations, so the tracker's madvise() works. */
#define T_PAGES 8
static char *t_buf;
static size_t t_page;

static int t_fork_group_setup(void **state)
{
	(void)state;
	t_page = sysconf(_SC_PAGESIZE);
	t_buf = mmap(NULL, T_PAGES * t_page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t_buf == MAP_FAILED)
		return -1;
	/*
	 * Fork safety on, before this process registers anything, on a
	 * kernel that does not say it copies on fork (which would leave the
	 * tracker off): RDMA netlink is hidden where it exists.
	 */
	if (t_hide_rdma_netlink() && t_rdma_netlink())
		return -1;
	return ibv_fork_init();
}

static int t_fork_group_teardown(void **state)
{
	(void)state;
	munmap(t_buf, T_PAGES * t_page);
	return 0;
}

/* rereg without the op: the command's code, errno naming the cause. */
static void test_rereg_without_op(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	struct verbs_mr vmr = {
		.ibv_mr = { .context = ctx, .pd = &pd },
		.mr_type = IBV_MR_TYPE_MR,
	};

	errno = 0;
	assert_int_equal(ibv_rereg_mr(&vmr.ibv_mr, IBV_REREG_MR_CHANGE_ACCESS,
				      NULL, NULL, 0, IBV_ACCESS_LOCAL_WRITE),
			 IBV_REREG_MR_ERR_CMD);
	assert_int_equal(errno, EOPNOTSUPP);
}

/*
 * Registration: the provider gets @iova and the access flags, the pages
 * are MADV_DONTFORK (count 1) while it pins them, and the library fills
 * the core fields.
 */
static void test_reg_mr_verb(void **state)
{
	struct ibv_context *ctx = *state;
	char *addr = t_buf + 100;
	struct ibv_mr *mr;

	mr = ibv_reg_mr(&fp.pd, addr, 2 * t_page, IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_ptr_equal(fp.arg, &fp.pd);
	assert_int_equal(fp.iova, (uintptr_t)addr);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(fp.refcount, 1);
	assert_int_equal(verbs_fork_refcount(t_buf + 2 * t_page), 1);
	assert_int_equal(verbs_fork_refcount(t_buf + 3 * t_page), 0);
	assert_ptr_equal(mr->context, ctx);
	assert_ptr_equal(mr->pd, &fp.pd);
	assert_ptr_equal(mr->addr, addr);
	assert_int_equal(mr->length, 2 * t_page);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(verbs_fork_refcount(t_buf + 2 * t_page), 0);
	assert_null(verbs_fork_check_tree());
}

static void test_reg_mr_iova_verbs(void **state)
{
	struct ibv_mr *mr;
	unsigned int access = IBV_ACCESS_REMOTE_READ;

	mr = ibv_reg_mr_iova(&fp.pd, t_buf, t_page, 0xabc000, access);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0xabc000);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0xdef000, access);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0xdef000);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A failed provider leaves the pages as they were, and its errno. */
static void test_reg_mr_verb_fails(void **state)
{
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	fp.fail = EFAULT;
	errno = 0;
	assert_null(ibv_reg_mr(&fp.pd, t_buf, 2 * t_page, 0));
	assert_int_equal(errno, EFAULT);
	assert_int_equal(fp.refcount, 2);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(verbs_fork_refcount(t_buf + t_page), 0);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	(void)state;
}

/* On-demand paging pins nothing: the tracker is left alone both ways. */
static void test_reg_mr_odp(void **state)
{
	struct ibv_mr *mr;

	mr = ibv_reg_mr(&fp.pd, t_buf, t_page, IBV_ACCESS_ON_DEMAND);
	assert_non_null(mr);
	assert_int_equal(fp.refcount, 0);
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
	(void)state;
}

/* Optional access bits reach the provider only if the kernel knows them. */
static void test_reg_mr_optional_access(void **state)
{
	unsigned int access = IBV_ACCESS_LOCAL_WRITE |
			      IBV_ACCESS_RELAXED_ORDERING;
	struct ibv_mr *mr;

	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0, access);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	t_vdev.core_support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	mr = ibv_reg_mr_iova2(&fp.pd, t_buf, t_page, 0, access);
	assert_int_equal(fp.access, access);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A failed dereg keeps the MR, so its pages stay protected. */
static void test_dereg_mr_fails(void **state)
{
	struct ibv_mr *mr = ibv_reg_mr(&fp.pd, t_buf, t_page, 0);

	fp.fail = EBUSY;
	assert_int_equal(ibv_dereg_mr(mr), EBUSY);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	(void)state;
}

/* dma-buf (and imported) MRs never went through the tracker. */
static void test_dmabuf_mr_verbs(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_mr *mr;

	mr = ibv_reg_dmabuf_mr(&fp.pd, (uintptr_t)t_buf, t_page, 0x5000, 4,
			       IBV_ACCESS_LOCAL_WRITE);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0x5000);
	assert_int_equal(fp.access, IBV_ACCESS_LOCAL_WRITE + 4);
	assert_ptr_equal(mr->context, ctx);
	assert_ptr_equal(mr->pd, &fp.pd);
	assert_ptr_equal(mr->addr, t_buf);
	assert_int_equal(mr->length, t_page);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(ibv_dontfork_range(t_buf, t_page), 0);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	assert_int_equal(ibv_dofork_range(t_buf, t_page), 0);
}

static struct ibv_mr *t_reg(size_t page, size_t pages)
{
	struct ibv_mr *mr =
		ibv_reg_mr(&fp.pd, t_buf + page * t_page, pages * t_page, 0);

	assert_non_null(mr);
	fp.calls = 0;
	return mr;
}

/* Refused up front: -1 and EINVAL, the provider never asked. */
static void test_rereg_mr_input(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	struct verbs_mr *vmr = verbs_get_mr(mr);
	const int translate = IBV_REREG_MR_CHANGE_TRANSLATION;

	errno = 0;
	assert_int_equal(ibv_rereg_mr(mr, 1 << 3, NULL, NULL, 0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ibv_rereg_mr(mr, translate, NULL, NULL, t_page, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(ibv_rereg_mr(mr, translate, NULL, t_buf, 0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, IBV_ACCESS_LOCAL_WRITE),
			 IBV_REREG_MR_ERR_INPUT);
	vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR;
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, 0),
			 IBV_REREG_MR_ERR_INPUT);
	assert_int_equal(fp.calls, 0);
	vmr->mr_type = IBV_MR_TYPE_MR;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* A new range: protected before the provider moves the MR, old released. */
static void test_rereg_mr_translation(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	const int flags = IBV_REREG_MR_CHANGE_TRANSLATION |
			  IBV_REREG_MR_CHANGE_ACCESS;
	char *to = t_buf + 4 * t_page;

	assert_int_equal(ibv_rereg_mr(mr, flags, NULL, to, t_page,
				      IBV_ACCESS_REMOTE_WRITE),
			 0);
	assert_int_equal(fp.refcount, 1);
	assert_int_equal(fp.access, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(verbs_fork_refcount(to), 1);
	assert_ptr_equal(mr->addr, to);
	assert_int_equal(mr->length, t_page);
	/* The provider fails: the new range is released again. */
	fp.fail = ENOMEM;
	assert_int_equal(ibv_rereg_mr(mr, flags, NULL, t_buf, t_page, 0),
			 IBV_REREG_MR_ERR_CMD);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_ptr_equal(mr->addr, to);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(to), 0);
	(void)state;
}

static void test_rereg_mr_pd(void **state)
{
	struct ibv_mr *mr = t_reg(0, 1);
	struct ibv_pd other = { .context = *state };

	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &other, NULL,
				      0, 0),
			 0);
	assert_ptr_equal(fp.arg, verbs_get_mr(mr));
	assert_int_equal(fp.flags, IBV_REREG_MR_CHANGE_PD);
	assert_ptr_equal(mr->pd, &other);
	fp.fail = EINVAL;
	assert_int_equal(ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD, &fp.pd, NULL,
				      0, 0),
			 IBV_REREG_MR_ERR_CMD);
	assert_ptr_equal(mr->pd, &other);
	assert_int_equal(verbs_fork_refcount(t_buf), 1);
	fp.fail = 0;
	assert_int_equal(ibv_dereg_mr(mr), 0);
}

/*
 * Registering before ibv_fork_init() leaves pages the tracker never saw,
 * so a later init must refuse. Run in a child: the tracker's state is
 * per process and this group runs before the one that enables it.
 */
static void test_fork_init_after_reg(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_pd pd = { .context = ctx };
	static char page[4096] __attribute__((aligned(4096)));
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		struct ibv_mr *mr;

		/* A kernel that copies on fork would make the init succeed. */
		if (t_hide_rdma_netlink() && t_rdma_netlink())
			_exit(2);
		verbs_set_ops(verbs_get_ctx(ctx), &fake_ops);
		mr = ibv_reg_mr(&pd, page, sizeof(page), 0);
		status = mr && ibv_fork_init() == EINVAL ? 0 : 1;
		if (mr)
			ibv_dereg_mr(mr);
		_exit(status);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * ibv_reg_mr_ex() by address, through a provider without the op (the
 * dummy turns it into reg_mr): the tracker around it, as ibv_reg_mr().
 */
static void test_reg_mr_ex_addr(void **state)
{
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA,
		.addr = t_buf,
		.length = 2 * t_page,
		.iova = 0x77000,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};
	struct ibv_mr *mr;

	mr = ibv_reg_mr_ex(&fp.pd, &in);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0x77000);
	assert_int_equal(fp.refcount, 1);
	assert_ptr_equal(mr->addr, t_buf);
	assert_int_equal(mr->length, 2 * t_page);
	assert_ptr_equal(mr->pd, &fp.pd);
	assert_ptr_equal(mr->context, *state);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	/* A failure undoes the tracker and keeps the provider's errno. */
	fp.fail = ENOMEM;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_null(verbs_fork_check_tree());
}

/* A dma-buf: no tracker; the MR's addr is the offset. */
static void test_reg_mr_ex_dmabuf(void **state)
{
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			     IBV_REG_MR_MASK_IOVA,
		.fd = 3,
		.fd_offset = 0x200,
		.iova = 0x9000,
		.length = t_page,
		.addr = t_buf, /* stale: not read */
	};
	struct ibv_mr *mr;

	mr = ibv_reg_mr_ex(&fp.pd, &in);
	assert_non_null(mr);
	assert_int_equal(fp.iova, 0x9000);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_ptr_equal(mr->addr, (void *)0x200);
	assert_int_equal(ibv_dereg_mr(mr), 0);
	(void)state;
}

/* Refusals: nothing left in the tracker, the provider's errno or ours. */
static void test_reg_mr_ex_refused(void **state)
{
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH,
		.addr = t_buf,
		.length = t_page,
		.dmah = (struct ibv_dmah *)&fp.pd, /* any non-NULL handle */
	};

	errno = 0;
	assert_null(ibv_reg_mr_ex(&fp.pd, NULL));
	assert_int_equal(errno, EINVAL);
	/* No DMA handles without the provider's op. */
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	assert_int_equal(errno, EOPNOTSUPP);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	in.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_int_equal(fp.calls, 0);
	(void)state;
}

/* What a provider's reg_mr_ex was handed. */
static struct ibv_mr_init_attr t_got;

static struct ibv_mr *t_reg_mr_ex(struct ibv_pd *pd,
				  struct ibv_mr_init_attr *in)
{
	static struct verbs_mr vmr;

	t_got = *in;
	fp.calls++;
	fp.refcount = verbs_fork_refcount(in->addr);
	(void)pd;
	return &vmr.ibv_mr;
}

static const struct verbs_context_ops t_ex_ops = {
	.reg_mr_ex = t_reg_mr_ex,
};

/*
 * A buffer of ibv_alloc_buf(): plain memory goes by address; a dma-buf's
 * as that dma-buf at the range's offset, addr its IOVA; a range outside
 * the buffer, a buffer of another PD or a NULL one are EINVAL unsent.
 */
static void test_reg_mr_ex_buf(void **state)
{
	struct ibv_pd other = { .context = *state };
	struct ibv_buf buf;
	struct ibv_mr_init_attr in = {
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_BUF,
		.addr = t_buf + t_page,
		.length = t_page,
		.buf = &buf,
	};
	struct ibv_mr *mr;

	verbs_set_ops(verbs_get_ctx(*state), &t_ex_ops);
	ibv_buf_init(&buf, &fp.pd, t_buf, 4 * t_page);
	mr = ibv_reg_mr_ex(&fp.pd, &in);
	assert_non_null(mr);
	assert_int_equal(t_got.comp_mask, IBV_REG_MR_MASK_ADDR);
	assert_ptr_equal(t_got.addr, t_buf + t_page);
	assert_int_equal(fp.refcount, 1);
	verbs_mem_dofork(t_buf + t_page, t_page);
	ibv_buf_init_dmabuf(&buf, &fp.pd, t_buf, 4 * t_page, 21);
	mr = ibv_reg_mr_ex(&fp.pd, &in);
	assert_non_null(mr);
	assert_int_equal(t_got.comp_mask, IBV_REG_MR_MASK_FD |
						  IBV_REG_MR_MASK_FD_OFFSET |
						  IBV_REG_MR_MASK_IOVA);
	assert_int_equal(t_got.fd, 21);
	assert_int_equal(t_got.fd_offset, t_page);
	assert_int_equal(t_got.iova, (uintptr_t)(t_buf + t_page));
	assert_int_equal(fp.refcount, 0);
	assert_ptr_equal(mr->addr, (void *)(uintptr_t)t_page);
	fp.calls = 0;
	in.length = 3 * t_page + 1;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	assert_int_equal(errno, EINVAL);
	in.length = t_page;
	in.addr = t_buf - 1;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	in.addr = t_buf;
	assert_null(ibv_reg_mr_ex(&other, &in));
	in.comp_mask |= IBV_REG_MR_MASK_IOVA;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	in.comp_mask = IBV_REG_MR_MASK_BUF;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	in.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_BUF;
	in.buf = NULL;
	assert_null(ibv_reg_mr_ex(&fp.pd, &in));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fp.calls, 0);
	assert_int_equal(verbs_fork_refcount(t_buf), 0);
	assert_null(verbs_fork_check_tree());
}

int main(void)
{
	const struct CMUnitTest untracked[] = {
		T_CMD(test_rereg_without_op),
		T_CMD(test_fork_init_after_reg),
	};
	const struct CMUnitTest tests[] = {
		T_VERB(test_reg_mr_verb),
		T_VERB(test_reg_mr_iova_verbs),
		T_VERB(test_reg_mr_verb_fails),
		T_VERB(test_reg_mr_odp),
		T_VERB(test_reg_mr_optional_access),
		T_VERB(test_dereg_mr_fails),
		T_VERB(test_dmabuf_mr_verbs),
		T_VERB(test_rereg_mr_input),
		T_VERB(test_rereg_mr_translation),
		T_VERB(test_rereg_mr_pd),
		T_VERB(test_reg_mr_ex_addr),
		T_VERB(test_reg_mr_ex_dmabuf),
		T_VERB(test_reg_mr_ex_refused),
		T_VERB(test_reg_mr_ex_buf),
	};
	int failed;

	/* Before the tracker is on: nothing here may have initialised it. */
	failed =
		cmocka_run_group_tests_name("untracked", untracked, NULL, NULL);
	failed += cmocka_run_group_tests_name(
		"verbs", tests, t_fork_group_setup, t_fork_group_teardown);
	return failed ? 1 : 0;
}
