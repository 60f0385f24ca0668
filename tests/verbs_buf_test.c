// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Buffers the provider allocates (rdma-core 65): fill_attr_in_buf_umem()
 * of driver.h, with which a provider hands the kernel a queue in such a
 * buffer, with every field of struct ib_uverbs_buffer_desc checked by
 * name.
 * Links the static archive.
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
		cmocka_unit_test(test_fill_attr_in_buf_umem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
