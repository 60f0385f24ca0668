/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The memory family tests' fixture (cmd_pd_test.c, cmd_xrcd_test.c,
 * cmd_mr_test.c, cmd_dm_test.c, verbs_pd_test.c, verbs_mr_test.c): a
 * context of t_kernel.h whose fake kernel copies a scripted response to
 * each write() and refuses DEVICE/INVOKE_WRITE unless a case says
 * otherwise, helpers for the answers of ioctl handlers and the images of
 * one-handle destroys, and fake provider ops for the public verbs that
 * record what they were given and, for registrations, the fork tracker's
 * count of the first page at that moment.
 */
#ifndef T_MEM_H
#define T_MEM_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/driver.h>

#include "t_kernel.h"

#define T_DRIVER_ID 7

/* The response every write() command gets, as much as it has room for. */
struct t_mem_kernel {
	uint8_t resp[64];
	size_t resp_len;
};
extern struct t_mem_kernel fk;

/*
 * Public verbs, dispatched to fake provider ops. The fakes record what
 * they were given and, for registrations, the fork tracker's count of
 * the first page at that moment.
 */
struct t_mem_prov {
	int fail; /* errno the next op fails with, 0 to succeed */
	unsigned int calls;
	void *arg; /* the object or context the op was handed */
	void *addr;
	size_t length;
	uint64_t iova;
	int access, flags;
	long refcount; /* the tracker's count of addr's page, inside reg_mr */
	struct ibv_pd pd;
};
extern struct t_mem_prov fp;
extern const struct verbs_context_ops fake_ops;

/*
 * A handler's outputs: a new object's handle, bytes behind a pointer, or
 * a u32 there (a key, a count).
 */
void t_out_obj(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v);
void t_out_ptr(struct ib_uverbs_ioctl_hdr *h, uint16_t id, const void *v,
	       size_t len);
void t_out_u32(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v);

/* A one-handle destroy: the ioctl image, and its write() form. */
void t_expect_destroy_ioctl(unsigned int i, uint16_t obj, uint16_t method,
			    uint32_t handle);
void t_expect_destroy_write(unsigned int i, uint32_t cmd, uint32_t handle);

/* cmocka setups: the context, and the same with the fake provider ops. */
int t_setup(void **state);
int t_verbs_setup(void **state);

#define T_CMD(fn) \
	cmocka_unit_test_setup_teardown(fn, t_setup, t_context_teardown)
#define T_VERB(fn) \
	cmocka_unit_test_setup_teardown(fn, t_verbs_setup, t_context_teardown)

#endif
