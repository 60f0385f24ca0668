// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Buffers the provider allocates (rdma-core 65, libibverbs/verbs_buf.c):
 * the default allocator of a provider without one, a provider's own
 * dma-buf backed buffers and their export, the library's refusals of
 * hostile arguments, the registration of a range of a buffer (with the
 * fork tracker's counts), each refusal with its log line at
 * VERBS_LOG_LEVEL 3 and none at 2 (the fixture of t_explain.h, a scenario per process). And
 * fill_attr_in_buf_umem() of driver.h, with which a provider hands the
 * kernel a queue in such a buffer, with every field of struct
 * ib_uverbs_buffer_desc checked by name.
 * Links the static archive.
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
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "libibverbs/fork.h"
#include "t_explain.h"
#include "t_scenario.h"
#include "t_util.h"

/* The line at level 3, nothing below it. */
#define T_LOG(quiet, line) T_CHECK(!t_expect_log((quiet) ? NULL : (line)))

/*
 * Under AddressSanitizer (scripts/test), an allocation the C library
 * would refuse with ENOMEM aborts the program instead, unless told to
 * return NULL as libc does: scenario_default asks for 2^62 bytes. The
 * options of ASAN_OPTIONS still apply on top of this one.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/*
 * A provider without alloc_buf: page-aligned memory of the C library,
 * registrable by address (no dma-buf, so nothing to export), and the
 * handle tells the PD it was allocated for. Its failure is worded.
 */
static int scenario_default(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 3 * page + 1;
	struct ibv_buf *buf = NULL;
	char *addr;

	t_pd.context = ctx;
	addr = ibv_alloc_buf(&t_pd, size, &buf);
	T_CHECK(addr && buf);
	T_CHECK((uintptr_t)addr % page == 0);
	T_CHECK(buf->addr == addr && buf->size == size && buf->pd == &t_pd);
	T_CHECK(buf->dmabuf_fd == -1);
	memset(addr, 0x5a, size);
	errno = 0;
	T_CHECK(ibv_export_buf_dmabuf_fd(buf) == -1 && errno == ENODATA);
	T_LOG(quiet, "export_buf_dmabuf_fd on rxe0: the buffer is plain "
		     "memory: no dma-buf to export");
	ibv_free_buf(buf);
	T_LOG(true, NULL);

	buf = (struct ibv_buf *)&t_pd;
	errno = 0;
	T_CHECK(!ibv_alloc_buf(&t_pd, (size_t)1 << 62, &buf));
	T_CHECK(errno == ENOMEM && buf == (struct ibv_buf *)&t_pd);
	T_LOG(quiet, "alloc_buf on rxe0: the provider has no allocator of its "
		     "own, and the C library's page-aligned memory ran out");
	t_close(ctx);
	return 0;
}

/*
 * What the library refuses before any provider sees it: EINVAL, the
 * handle untouched; NULL handles to export or free.
 */
static int scenario_hostile(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	struct ibv_buf *buf = (struct ibv_buf *)&t_pd;

	t_pd.context = ctx;
	errno = 0;
	T_CHECK(!ibv_alloc_buf(&t_pd, 0, &buf) && errno == EINVAL);
	T_LOG(quiet, "alloc_buf on rxe0: size 0");
	errno = 0;
	T_CHECK(!ibv_alloc_buf(&t_pd, 4096, NULL) && errno == EINVAL);
	T_LOG(quiet, "alloc_buf on rxe0: buf is NULL: no place for the handle");
	errno = 0;
	T_CHECK(!ibv_alloc_buf(NULL, 4096, &buf) && errno == EINVAL);
	T_CHECK(buf == (struct ibv_buf *)&t_pd);
	errno = 0;
	T_CHECK(ibv_export_buf_dmabuf_fd(NULL) == -1 && errno == EINVAL);
	ibv_free_buf(NULL);
	T_LOG(true, NULL);
	t_close(ctx);
	return 0;
}

/* A provider's own buffers, each a memfd standing for its dma-buf. */
static struct {
	int fail; /* errno of the next alloc_buf, 0 to succeed */
	struct ibv_pd *pd; /* what alloc_buf was given */
	size_t size;
	struct ibv_buf *freed; /* what free_buf was given */
	struct ibv_buf buf;
	bool plain; /* alloc_buf hands out plain memory, no dma-buf */
	unsigned int regs; /* reg_mr_ex calls */
	struct ibv_mr_init_attr reg; /* what the last one was given */
	long refcount; /* the fork tracker's count of reg.addr's page then */
	struct verbs_mr vmr;
} tp;

static void *t_alloc_buf(struct ibv_pd *pd, size_t size, struct ibv_buf **buf)
{
	int fd;
	void *addr;

	tp.pd = pd;
	tp.size = size;
	if (tp.fail) {
		errno = tp.fail;
		return NULL;
	}
	if (tp.plain) {
		addr = aligned_alloc((size_t)sysconf(_SC_PAGESIZE), size);
		T_CHECK(addr);
		ibv_buf_init(&tp.buf, pd, addr, size);
		*buf = &tp.buf;
		return addr;
	}
	fd = memfd_create("t-buf", MFD_CLOEXEC);
	T_CHECK(fd >= 0 && !ftruncate(fd, (off_t)size));
	addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	T_CHECK(addr != MAP_FAILED);
	ibv_buf_init_dmabuf(&tp.buf, pd, addr, size, fd);
	*buf = &tp.buf;
	return addr;
}

static void t_free_buf(struct ibv_buf *buf)
{
	tp.freed = buf;
	if (buf->dmabuf_fd == -1) {
		free(buf->addr);
		return;
	}
	munmap(buf->addr, buf->size);
	close(buf->dmabuf_fd);
}

static struct ibv_mr *t_reg_mr_ex(struct ibv_pd *pd,
				  struct ibv_mr_init_attr *attr)
{
	(void)pd;
	tp.regs++;
	tp.reg = *attr;
	tp.refcount = verbs_fork_refcount(attr->addr);
	memset(&tp.vmr, 0, sizeof(tp.vmr));
	return &tp.vmr.ibv_mr;
}

static int t_dereg_mr(struct verbs_mr *vmr)
{
	T_CHECK(vmr == &tp.vmr);
	return 0;
}

static const struct verbs_context_ops t_buf_ops = {
	.alloc_buf = t_alloc_buf,
	.free_buf = t_free_buf,
	.reg_mr_ex = t_reg_mr_ex,
	.dereg_mr = t_dereg_mr,
};

/* The lowest free descriptor number: RLIMIT_NOFILE there leaves none. */
static int t_lowest_free_fd(void)
{
	int fd = dup(0);

	T_CHECK(fd >= 0);
	close(fd);
	return fd;
}

/*
 * A provider's buffer behind a dma-buf: the provider gets the PD as the
 * caller gave it (a parent domain stays one); each export is a new
 * close-on-exec descriptor of the same file, the buffer's own staying
 * open; a failed export says why; free goes back to the provider.
 */
static int scenario_provider(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	struct ibv_pd parent = { 0 };
	struct stat a, b;
	struct ibv_buf *buf = NULL, closed;
	struct rlimit rl;
	char line[256];
	int fd, fd2, gone;

	verbs_set_ops(verbs_get_ctx(ctx), &t_buf_ops);
	t_pd.context = ctx;
	parent.context = ctx;
	T_CHECK(ibv_alloc_buf(&parent, 8192, &buf) == tp.buf.addr);
	T_CHECK(buf == &tp.buf && tp.pd == &parent && tp.size == 8192);
	fd = ibv_export_buf_dmabuf_fd(buf);
	fd2 = ibv_export_buf_dmabuf_fd(buf);
	T_CHECK(fd >= 0 && fd2 >= 0 && fd != fd2 && fd != buf->dmabuf_fd);
	T_CHECK(!fstat(fd, &a) && !fstat(buf->dmabuf_fd, &b));
	T_CHECK(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	T_CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	T_CHECK(!close(fd) && !close(fd2));
	T_CHECK(fcntl(buf->dmabuf_fd, F_GETFD) != -1);
	T_LOG(true, NULL);

	/* Out of descriptors. */
	T_CHECK(!getrlimit(RLIMIT_NOFILE, &rl));
	rl.rlim_cur = (rlim_t)t_lowest_free_fd();
	T_CHECK(!setrlimit(RLIMIT_NOFILE, &rl));
	errno = 0;
	T_CHECK(ibv_export_buf_dmabuf_fd(buf) == -1 && errno == EMFILE);
	snprintf(line, sizeof(line),
		 "export_buf_dmabuf_fd on rxe0: no file descriptor left for "
		 "the copy: all %llu that RLIMIT_NOFILE allows are open",
		 (unsigned long long)rl.rlim_cur);
	/* Reading the log back takes a descriptor too. */
	rl.rlim_cur = rl.rlim_max;
	T_CHECK(!setrlimit(RLIMIT_NOFILE, &rl));
	T_LOG(quiet, line);

	/* A dma-buf descriptor the program closed behind the handle. */
	gone = t_lowest_free_fd();
	ibv_buf_init_dmabuf(&closed, &parent, NULL, 4096, gone);
	errno = 0;
	T_CHECK(ibv_export_buf_dmabuf_fd(&closed) == -1 && errno == EBADF);
	snprintf(line, sizeof(line),
		 "export_buf_dmabuf_fd on rxe0: the buffer's dma-buf "
		 "descriptor %d is not open",
		 gone);
	T_LOG(quiet, line);

	ibv_free_buf(buf);
	T_CHECK(tp.freed == &tp.buf);

	/* The provider's own failure is its to explain. */
	tp.fail = ENOSPC;
	errno = 0;
	T_CHECK(!ibv_alloc_buf(&t_pd, 4096, &buf) && errno == ENOSPC);
	T_LOG(true, NULL);
	t_close(ctx);
	return 0;
}

/*
 * ibv_reg_buf_mr(): plain memory goes to the provider by address, its
 * pages kept from fork() children while registered; a dma-buf backed
 * buffer as its dma-buf at the range's offset, addr the IOVA, no pages
 * tracked; the MR's core fields as ibv_reg_mr_ex() sets them.
 */
static int scenario_reg(void *level)
{
	struct ibv_context *ctx = t_open(level);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_buf *buf = NULL;
	struct ibv_mr *mr;
	char *addr;

	T_CHECK(!t_hide_rdma_netlink() && !ibv_fork_init());
	verbs_set_ops(verbs_get_ctx(ctx), &t_buf_ops);
	t_pd.context = ctx;
	tp.plain = true;
	addr = ibv_alloc_buf(&t_pd, 4 * page, &buf);
	T_CHECK(addr);
	mr = ibv_reg_buf_mr(&t_pd, buf, addr + page, 2 * page,
			    IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(mr == &tp.vmr.ibv_mr && tp.regs == 1);
	T_CHECK(tp.reg.comp_mask == IBV_REG_MR_MASK_ADDR);
	T_CHECK(tp.reg.addr == addr + page && tp.reg.length == 2 * page);
	T_CHECK(tp.reg.access == IBV_ACCESS_LOCAL_WRITE);
	T_CHECK(tp.refcount == 1);
	T_CHECK(mr->pd == &t_pd && mr->context == ctx);
	T_CHECK(mr->addr == addr + page && mr->length == 2 * page);
	T_CHECK(!ibv_dereg_mr(mr));
	T_CHECK(verbs_fork_refcount(addr + page) == 0);
	ibv_free_buf(buf);

	tp.plain = false;
	addr = ibv_alloc_buf(&t_pd, 4 * page, &buf);
	T_CHECK(addr);
	mr = ibv_reg_buf_mr(&t_pd, buf, addr + page, page, 0);
	T_CHECK(mr && tp.regs == 2);
	T_CHECK(tp.reg.comp_mask ==
		(IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
		 IBV_REG_MR_MASK_IOVA));
	T_CHECK(tp.reg.fd == buf->dmabuf_fd && tp.reg.fd_offset == page);
	T_CHECK(tp.reg.iova == (uintptr_t)(addr + page));
	T_CHECK(tp.refcount == 0);
	T_CHECK(mr->addr == (void *)(uintptr_t)page && mr->length == page);
	T_CHECK(!ibv_dereg_mr(mr));
	/* The whole buffer is inside it. */
	T_CHECK(ibv_reg_buf_mr(&t_pd, buf, addr, 4 * page, 0) == mr);
	T_CHECK(!ibv_dereg_mr(mr));
	ibv_free_buf(buf);
	t_close(ctx);
	return 0;
}

/*
 * A range not inside the buffer, another PD than the buffer's, no
 * buffer, no PD: EINVAL, the provider never asked, no page tracked.
 */
static int scenario_reg_refused(void *level)
{
	struct ibv_context *ctx = t_open(level);
	bool quiet = strcmp(level, "3") != 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ibv_pd other = { 0 };
	struct ibv_buf *buf = NULL;
	static const char *outside = "reg_mr_ex on rxe0: the buffer "
				     "(IBV_REG_MR_MASK_BUF): the range is not "
				     "inside it";
	char *addr;

	T_CHECK(!t_hide_rdma_netlink() && !ibv_fork_init());
	verbs_set_ops(verbs_get_ctx(ctx), &t_buf_ops);
	t_pd.context = ctx;
	other.context = ctx;
	tp.plain = true;
	addr = ibv_alloc_buf(&t_pd, 2 * page, &buf);
	T_CHECK(addr);
	errno = 0;
	T_CHECK(!ibv_reg_buf_mr(&t_pd, buf, addr - 1, page, 0));
	T_CHECK(errno == EINVAL);
	T_LOG(quiet, outside);
	T_CHECK(!ibv_reg_buf_mr(&t_pd, buf, addr + page, page + 1, 0));
	T_CHECK(errno == EINVAL);
	T_LOG(quiet, outside);
	T_CHECK(!ibv_reg_buf_mr(&t_pd, buf, addr + 2 * page + 1, 0, 0));
	T_CHECK(errno == EINVAL);
	T_LOG(quiet, outside);
	T_CHECK(!ibv_reg_buf_mr(&other, buf, addr, page, 0));
	T_CHECK(errno == EINVAL);
	T_LOG(quiet, "reg_mr_ex on rxe0: the buffer (IBV_REG_MR_MASK_BUF): "
		     "of another protection domain");
	T_CHECK(!ibv_reg_buf_mr(&t_pd, NULL, addr, page, 0));
	T_CHECK(errno == EINVAL);
	T_LOG(quiet, "reg_mr_ex on rxe0: the buffer (IBV_REG_MR_MASK_BUF): "
		     "NULL");
	errno = 0;
	T_CHECK(!ibv_reg_buf_mr(NULL, buf, addr, page, 0) && errno == EINVAL);
	T_CHECK(tp.regs == 0);
	T_CHECK(verbs_fork_refcount(addr) == 0);
	T_CHECK(verbs_fork_refcount(addr + page) == 0);
	ibv_free_buf(buf);
	t_close(ctx);
	return 0;
}

static void test_reg(void **state)
{
	(void)state;
	t_scenario(scenario_reg, (void *)"3");
}

static void test_reg_refused(void **state)
{
	(void)state;
	t_scenario(scenario_reg_refused, (void *)"3");
	t_scenario(scenario_reg_refused, (void *)"2");
}

static void test_default(void **state)
{
	(void)state;
	t_scenario(scenario_default, (void *)"3");
	t_scenario(scenario_default, (void *)"2");
}

static void test_hostile(void **state)
{
	(void)state;
	t_scenario(scenario_hostile, (void *)"3");
	t_scenario(scenario_hostile, (void *)"2");
}

static void test_provider(void **state)
{
	(void)state;
	t_scenario(scenario_provider, (void *)"3");
	t_scenario(scenario_provider, (void *)"2");
}

/*
 * A dma-buf backed buffer: one attribute, the described range as an
 * offset into the dma-buf (NULL: 0) and a length (0: the buffer's size,
 * wherever the range starts), every other field zero whatever the
 * storage held; and the command loses its write() fallback. Plain
 * memory and no buffer add nothing.
 */
static void test_fill_attr_in_buf_umem(void **state)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			       4);
	static char mem[16384];
	struct ib_uverbs_buffer_desc desc[3];
	struct ib_uverbs_attr *a = cmdb->hdr.attrs;
	struct ibv_pd pd = { 0 };
	struct ibv_buf buf;

	(void)state;
	memset(desc, 0xa5, sizeof(desc));
	ibv_buf_init(&buf, &pd, mem, sizeof(mem));
	fill_attr_in_buf_umem(cmdb, 12, &desc[0], &buf, NULL, 0);
	fill_attr_in_buf_umem(cmdb, 12, &desc[0], NULL, NULL, 0);
	assert_ptr_equal(cmdb->next_attr, a);
	assert_int_equal(cmdb->fallback_ioctl_only, 0);

	ibv_buf_init_dmabuf(&buf, &pd, mem, sizeof(mem), 9);
	fill_attr_in_buf_umem(cmdb, 12, &desc[0], &buf, NULL, 0);
	fill_attr_in_buf_umem(cmdb, 13, &desc[1], &buf, mem + 4096, 128);
	fill_attr_in_buf_umem(cmdb, 14, &desc[2], &buf, mem + 8192, 0);
	assert_ptr_equal(cmdb->next_attr, a + 3);
	assert_int_equal(cmdb->fallback_ioctl_only, 1);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(a[i].attr_id, 12 + i);
		assert_int_equal(a[i].len, sizeof(desc[i]));
		assert_int_equal(a[i].flags, UVERBS_ATTR_F_MANDATORY);
		assert_int_equal(a[i].data, (uintptr_t)&desc[i]);
		assert_int_equal(desc[i].type, IB_UVERBS_BUFFER_TYPE_DMABUF);
		assert_int_equal(desc[i].fd, 9);
		assert_int_equal(desc[i].flags, 0);
		assert_int_equal(desc[i].optional_flags, 0);
	}
	assert_int_equal(desc[0].addr, 0);
	assert_int_equal(desc[0].length, sizeof(mem));
	assert_int_equal(desc[1].addr, 4096);
	assert_int_equal(desc[1].length, 128);
	assert_int_equal(desc[2].addr, 8192);
	assert_int_equal(desc[2].length, sizeof(mem));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_provider),
		cmocka_unit_test(test_reg),
		cmocka_unit_test(test_reg_refused),
		cmocka_unit_test(test_fill_attr_in_buf_umem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
