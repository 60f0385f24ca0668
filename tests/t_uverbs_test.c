// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake uverbs kernel (t_uverbs.h) behaves as the kernel does where a
 * provider can tell: the differential tests trust it on both libraries
 * alike, so a flaw of the fake shows in neither comparison, only here.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/rdma_user_ioctl.h>

#include "t_util.h"
#include "t_uverbs.h"

static int open_fake(void)
{
	t_mknod("uverbs0", T_UV_MAJOR, T_UV_MINOR);
	return open("/dev/infiniband/uverbs0", O_RDWR | O_CLOEXEC);
}

/*
 * An ioctl header with room for its attributes: clang will not have the
 * header, whose attributes are a flexible array, inside another struct.
 */
#define MAX_ATTRS 4
union hdr_room {
	struct ib_uverbs_ioctl_hdr hdr;
	uint8_t room[sizeof(struct ib_uverbs_ioctl_hdr) +
		     MAX_ATTRS * sizeof(struct ib_uverbs_attr)];
};

static struct ib_uverbs_ioctl_hdr *ioctl_hdr(union hdr_room *c, uint16_t object,
					     uint16_t method,
					     const struct ib_uverbs_attr *attrs,
					     uint16_t n)
{
	assert_true(n <= MAX_ATTRS);
	memset(c, 0, sizeof(*c));
	c->hdr.length = sizeof(c->hdr) + n * sizeof(*attrs);
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.num_attrs = n;
	memcpy(c->hdr.attrs, attrs, n * sizeof(*attrs));
	return &c->hdr;
}

/*
 * A driver maps its pages by offset (mlx5's UARs at 0x90000000, its
 * clock page at 5 << 8 pages): each must be zeroed memory to write.
 */
static int map_at_driver_offsets(void)
{
	static const off_t offs[] = { 0, 0x5000, 0x90000000 };
	int fd = open_fake();

	if (fd < 0)
		return 2;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		volatile uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_SHARED, fd, offs[i]);

		if (p == MAP_FAILED || p[7])
			return 3;
		p[7] = 0x5a;
		if (p[7] != 0x5a || munmap((void *)p, 4096))
			return 4;
	}
	close(fd);
	return 0;
}

static void mmap_any_offset(void **state)
{
	(void)state;
	assert_int_equal(map_at_driver_offsets(), 0);
}

/* What the driver found in QP_CREATE's CAP when asked to answer. */
static struct ib_uverbs_qp_cap seen;

static int see_caps(struct t_uv_cmd *cmd)
{
	struct ib_uverbs_attr *a = t_uv_attr(cmd, UVERBS_ATTR_CREATE_QP_CAP);

	if (a && a->len == sizeof(seen))
		memcpy(&seen, (void *)(uintptr_t)a->data, sizeof(seen));
	return 0;
}

static const struct t_uv_driver seeing = { .name = "seeing",
					   .answer = see_caps };

/*
 * rdma-core gives QP_CREATE one struct as CAP and as RESP_CAP. The
 * kernel copies the request in before it writes any answer, so what the
 * driver reads is what the library asked for.
 */
static void method_input_before_output(void **state)
{
	struct ib_uverbs_qp_cap cap = { 16, 8, 2, 1, 64 }, asked = cap;
	uint32_t qpn;
	const struct ib_uverbs_attr attrs[] = {
		{ .attr_id = UVERBS_ATTR_CREATE_QP_CAP,
		  .len = sizeof(cap),
		  .data = (uintptr_t)&cap },
		{ .attr_id = UVERBS_ATTR_CREATE_QP_RESP_CAP,
		  .len = sizeof(cap),
		  .data = (uintptr_t)&cap },
		{ .attr_id = UVERBS_ATTR_CREATE_QP_RESP_QP_NUM,
		  .len = sizeof(qpn),
		  .data = (uintptr_t)&qpn },
	};
	union hdr_room c;
	int fd = open_fake();

	(void)state;
	assert_true(fd >= 0);
	t_uv_reset(T_UV_IOCTL);
	t_uv.driver = &seeing;
	assert_int_equal(ioctl(fd, RDMA_VERBS_IOCTL,
			       ioctl_hdr(&c, UVERBS_OBJECT_QP,
					 UVERBS_METHOD_QP_CREATE, attrs, 3)),
			 0);
	assert_memory_equal(&seen, &asked, sizeof(asked));
	assert_int_equal(c.hdr.attrs[0].data, (uintptr_t)&cap);
	t_uv.driver = NULL;
	close(fd);
}

/* The trace of @fn's calls, as a string the caller frees. */
static char *traced(void (*fn)(int fd))
{
	char *text = NULL;
	size_t len = 0;
	int fd = open_fake();

	assert_true(fd >= 0);
	t_uv_reset(T_UV_IOCTL);
	t_uv.trace = open_memstream(&text, &len);
	assert_non_null(t_uv.trace);
	fn(fd);
	fclose(t_uv.trace);
	t_uv.trace = NULL;
	close(fd);
	return text;
}

static int any_method(struct t_uv_cmd *cmd)
{
	(void)cmd;
	return 0;
}

static const struct t_uv_driver methods = { .name = "methods",
					    .method = any_method };

/* mlx5's UAR_OBJ_DESTROY: the object to destroy is attribute 0x1000. */
static void destroy_uar(int fd)
{
	const struct ib_uverbs_attr attr = {
		.attr_id = 0x1000,
		.flags = UVERBS_ATTR_F_MANDATORY,
		.data = 0x700,
	};
	union hdr_room c;

	t_uv.driver = &methods;
	assert_int_equal(ioctl(fd, RDMA_VERBS_IOCTL,
			       ioctl_hdr(&c, 0x1008, 0x1001, &attr, 1)),
			 0);
	t_uv.driver = NULL;
}

/*
 * In a driver's own method, attribute 0x1000 is the driver's first
 * attribute, not UHW_IN: an object handle shows as one.
 */
static void driver_method_handle(void **state)
{
	char *text = traced(destroy_uar);

	(void)state;
	assert_non_null(strstr(text, "attr 1000 flags=1 len=0 700\n"));
	free(text);
}

/* Where a driver's page ended up in the provider's structs. */
static void map_and_show(int fd)
{
	uint8_t *p = mmap(NULL, 8192, PROT_WRITE, MAP_SHARED, fd, 0x90000000);
	uint64_t reg = (uintptr_t)p + 0x800;

	assert_true(p != MAP_FAILED);
	t_uv_dump("reg", &reg, sizeof(reg));
	munmap(p, 8192);
	t_uv_dump("reg", &reg, sizeof(reg));
}

/*
 * An address inside a page mapped from the command file is named by the
 * offset the page was mapped at, until it is unmapped.
 */
static void mapped_pages_named(void **state)
{
	char *text = traced(map_and_show);
	char *named = strstr(text, "result reg[8] map@90000000+2048\n");

	(void)state;
	assert_non_null(named);
	assert_null(strstr(strchr(named, '\n'), "map@"));
	free(text);
}

static void dump_handles(int fd)
{
	/* Two handles side by side, as a request's u32 pairs show them. */
	uint64_t pair = 0x1100000010ull;

	(void)fd;
	t_uv_dump("pair", &pair, sizeof(pair));
}

/*
 * A number is no address of the caller's, whatever the sanitizer maps
 * (ASan's shadow covers most of the lower user space).
 */
static void numbers_stay_numbers(void **state)
{
	char *text = traced(dump_handles);

	(void)state;
	assert_non_null(strstr(text, "result pair[8] 1100000010\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mmap_any_offset),
		cmocka_unit_test(method_input_before_output),
		cmocka_unit_test(driver_method_handle),
		cmocka_unit_test(mapped_pages_named),
		cmocka_unit_test(numbers_stay_numbers),
	};

	if (!t_ns_enter())
		return T_SKIP;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
