// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The DMA-buf heap allocator of <infiniband/dmabuf_heap.h>
 * (libibverbs/dmabuf_heap.c), through the shared library's exports. No
 * host is expected to have the heap, so the test makes one: in a private
 * mount namespace (t_ns_enter()), /dev/dma_heap/system_cc_shared is a
 * node of /dev/zero, and this program defines ioctl(), as t_uverbs.c
 * does, to play the heap's DMA_HEAP_IOCTL_ALLOC: it records the request
 * and answers with a memfd, an eventfd (which mmap() refuses) or an
 * errno.
 * The cases check the request, the mapping, that every descriptor the
 * library opened is closed again, and the errno of each refusal.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/capability.h>

#include <infiniband/dmabuf_heap.h>
#include <linux/dma-heap.h>

#include "t_util.h"

#define T_HEAP "/dev/dma_heap/system_cc_shared"

enum t_answer {
	T_MEMFD, /* a memfd of the asked length */
	T_EVENTFD, /* a descriptor mmap() refuses (ENODEV) */
	T_ERRNO, /* fail with fh.err */
};

/* The fake heap: what it answers, and what the last request was. */
static struct {
	enum t_answer answer;
	int err;
	unsigned int calls;
	struct dma_heap_allocation_data req; /* as the library sent it */
	bool on_heap; /* the ioctl came on a descriptor of T_HEAP */
	int heap_flags; /* F_GETFL of that descriptor */
	int heap_fdflags; /* F_GETFD of that descriptor */
	int heap_fd;
	int given; /* the dma-buf descriptor handed back */
} fh;

static bool t_fd_names(int fd, const char *path)
{
	char link[64], target[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, path);
}

static int t_answer(int fd, struct dma_heap_allocation_data *req)
{
	fh.calls++;
	fh.req = *req;
	fh.heap_fd = fd;
	fh.on_heap = t_fd_names(fd, T_HEAP);
	fh.heap_flags = fcntl(fd, F_GETFL);
	fh.heap_fdflags = fcntl(fd, F_GETFD);
	switch (fh.answer) {
	case T_MEMFD:
		fh.given = memfd_create("t-dmabuf", MFD_CLOEXEC);
		if (fh.given < 0 || ftruncate(fh.given, (off_t)req->len))
			return -1;
		break;
	case T_EVENTFD:
		fh.given = eventfd(0, EFD_CLOEXEC);
		if (fh.given < 0)
			return -1;
		break;
	case T_ERRNO:
		errno = fh.err;
		return -1;
	}
	req->fd = (uint32_t)fh.given;
	return 0;
}

/* The heap's one ioctl is ours; every other goes to the kernel. */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == DMA_HEAP_IOCTL_ALLOC)
		return t_answer(fd, arg);
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

static bool t_closed(int fd)
{
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

/* How many descriptors the process has open. */
static unsigned int t_open_fds(void)
{
	unsigned int n = 0;
	int fd;

	for (fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) != -1;
	return n;
}

static unsigned int fds_before;

static int t_case_setup(void **state)
{
	memset(&fh, 0, sizeof(fh));
	fh.given = fh.heap_fd = -1;
	fds_before = t_open_fds();
	(void)state;
	return mknod(T_HEAP, S_IFCHR | 0666, makedev(1, 5)) ? -1 : 0;
}

/* Nothing the library opened outlives a case. */
static int t_case_teardown(void **state)
{
	(void)state;
	unlink(T_HEAP);
	return t_open_fds() == fds_before ? 0 : -1;
}

/* A kernel without the heap: open()'s ENOENT, nothing left open. */
static void test_no_heap(void **state)
{
	(void)state;
	assert_int_equal(unlink(T_HEAP), 0);
	errno = 0;
	assert_null(ibv_dmabuf_heap_cc_shared_init());
	assert_int_equal(errno, ENOENT);
}

/* A heap node the process may not open: EACCES, as open() says. */
static void test_heap_not_ours(void **state)
{
	(void)state;
	if (!t_drop_capability(CAP_DAC_OVERRIDE))
		skip();
	assert_int_equal(chmod(T_HEAP, 0), 0);
	errno = 0;
	assert_null(ibv_dmabuf_heap_cc_shared_init());
	assert_int_equal(errno, EACCES);
}

/*
 * The request: the asked length, a read-write descriptor that is not
 * inherited across exec, no heap flags, sent on the heap's own
 * descriptor, opened read-write and close-on-exec too. The answer's
 * descriptor is handed back, mapped shared over its whole length; free
 * unmaps it and closes it, and destroy closes the heap.
 */
static void test_alloc_and_free(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 3 * page + 5;
	struct ibv_dmabuf_heap *heap;
	int fd = -7, heap_fd;
	char *buf, c = 0;

	(void)state;
	heap = ibv_dmabuf_heap_cc_shared_init();
	assert_non_null(heap);
	buf = ibv_dmabuf_heap_alloc(heap, size, &fd);
	assert_non_null(buf);
	assert_int_equal(fh.calls, 1);
	assert_true(fh.on_heap);
	assert_int_equal(fh.heap_flags & O_ACCMODE, O_RDWR);
	assert_true(fh.heap_fdflags & FD_CLOEXEC);
	assert_int_equal(fh.req.len, size);
	assert_int_equal(fh.req.fd_flags, O_RDWR | O_CLOEXEC);
	assert_int_equal(fh.req.heap_flags, 0);
	assert_int_equal(fd, fh.given);
	/* The mapping is the dma-buf's: shared, writable, to its last byte. */
	buf[size - 1] = 'x';
	assert_int_equal(pread(fd, &c, 1, (off_t)size - 1), 1);
	assert_int_equal(c, 'x');
	ibv_dmabuf_heap_free(buf, size, fd);
	assert_true(t_closed(fd));
	assert_int_equal(msync(buf, page, MS_ASYNC), -1);
	assert_int_equal(errno, ENOMEM);
	heap_fd = fh.heap_fd;
	ibv_dmabuf_heap_destroy(heap);
	assert_true(t_closed(heap_fd));
}

/* Buffers do not depend on the heap's descriptor. */
static void test_buffer_outlives_heap(void **state)
{
	struct ibv_dmabuf_heap *heap = ibv_dmabuf_heap_cc_shared_init();
	size_t size = (size_t)sysconf(_SC_PAGESIZE);
	int fd = -1;
	char *buf;

	(void)state;
	assert_non_null(heap);
	buf = ibv_dmabuf_heap_alloc(heap, size, &fd);
	assert_non_null(buf);
	ibv_dmabuf_heap_destroy(heap);
	buf[0] = 'y';
	assert_int_equal(buf[0], 'y');
	ibv_dmabuf_heap_free(buf, size, fd);
	assert_true(t_closed(fd));
}

/* The heap refuses: its errno, and *dmabuf_fd untouched. */
static void test_heap_refuses(void **state)
{
	struct ibv_dmabuf_heap *heap = ibv_dmabuf_heap_cc_shared_init();
	int fd = -7;

	(void)state;
	assert_non_null(heap);
	fh.answer = T_ERRNO;
	fh.err = ENOMEM;
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 4096, &fd));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(fd, -7);
	ibv_dmabuf_heap_destroy(heap);
}

/* mmap() refuses the dma-buf: its errno, and the dma-buf closed. */
static void test_map_refused(void **state)
{
	struct ibv_dmabuf_heap *heap = ibv_dmabuf_heap_cc_shared_init();
	int fd = -7;

	(void)state;
	assert_non_null(heap);
	fh.answer = T_EVENTFD;
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 4096, &fd));
	assert_int_equal(errno, ENODEV);
	assert_int_equal(fd, -7);
	assert_true(t_closed(fh.given));
	ibv_dmabuf_heap_destroy(heap);
}

/*
 * NULL or zero arguments: EINVAL before any system call; NULL handles
 * and the -1 of "no descriptor" are nothing to free.
 */
static void test_hostile(void **state)
{
	struct ibv_dmabuf_heap *heap = ibv_dmabuf_heap_cc_shared_init();
	int fd = -7;

	(void)state;
	assert_non_null(heap);
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(NULL, 4096, &fd));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 0, &fd));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(ibv_dmabuf_heap_alloc(heap, 4096, NULL));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fh.calls, 0);
	assert_int_equal(fd, -7);
	ibv_dmabuf_heap_free(NULL, 4096, -1);
	ibv_dmabuf_heap_destroy(NULL);
	ibv_dmabuf_heap_destroy(heap);
}

#define T_CASE(fn) \
	cmocka_unit_test_setup_teardown(fn, t_case_setup, t_case_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_no_heap),
		T_CASE(test_alloc_and_free),
		T_CASE(test_buffer_outlives_heap),
		T_CASE(test_heap_refuses),
		T_CASE(test_map_refused),
		T_CASE(test_hostile),
		/* Last: it drops a capability for good. */
		T_CASE(test_heap_not_ours),
	};

	if (!t_ns_enter())
		return T_SKIP;
	if (mkdir("/dev/dma_heap", 0755)) {
		perror("mkdir /dev/dma_heap");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
