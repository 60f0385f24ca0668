/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake kernel for the command-layer tests, installed behind the
 * transport seam (kcmd_set_transport() of libibverbs/kcmd.h), and a
 * context built on a hand-made verbs_device around it.
 *
 * The fake logs every ioctl() and write() byte for byte, refuses what a
 * case tells it to (no ioctl at all, one method, the INVOKE_WRITE tunnel)
 * and fails calls with scripted errno values; what a successful call
 * writes back is the family's business, through the two handlers. The
 * helpers below build the little-endian images the tests expect.
 *
 * Only for programs linked with the static archive, where the hidden
 * seam hook is reachable.
 */
#ifndef T_KERNEL_H
#define T_KERNEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/driver.h>

#define T_MAX_CALLS 16
#define T_MAX_BYTES 1024
#define T_NO_OBJECT 0xffff /* refuse_obj: refuse nothing */
#define T_ANY_METHOD 0xffff /* refuse_method: every method of refuse_obj */
#define T_ALL_OBJECTS (-1) /* log_object: log every ioctl */

/* One system call as the fake kernel saw it. */
struct t_call {
	bool is_ioctl;
	int fd;
	unsigned long request;
	uint16_t object, method; /* of an ioctl */
	size_t len;
	uint8_t bytes[T_MAX_BYTES];
	/* DEVICE/INVOKE_WRITE: the write() command and its core request. */
	uint64_t write_cmd;
	size_t core_len;
	uint8_t core[T_MAX_BYTES];
};

/* What a method writes back when the fake lets an ioctl succeed. */
typedef void (*t_ioctl_handler)(struct ib_uverbs_ioctl_hdr *h);
/*
 * What a write() command gets back. @err is the errno the fake picked
 * (0: none); the handler returns the one the call fails with.
 */
typedef int (*t_write_handler)(const void *buf, size_t len, int err);

/*
 * The fake's knobs and log, reset by t_kernel_reset(). An ioctl is
 * refused in this order: no_ioctl (ENOTTY), the refused method
 * (refuse_err), the tunnel unless @tunnel (EPROTONOSUPPORT); then it
 * fails with the next scripted errno (t_fail_next()), or ioctl_err. A
 * write() fails with the next scripted errno, or write_err.
 */
struct t_kernel {
	uint32_t driver_id;
	bool no_ioctl, tunnel, short_write;
	uint16_t refuse_obj, refuse_method;
	int refuse_err;
	int ioctl_err, write_err; /* sticky, unlike the script */
	int log_object; /* only this object's ioctls are logged and counted */
	t_ioctl_handler on_ioctl;
	t_write_handler on_write;
	struct t_call log[T_MAX_CALLS];
	atomic_uint ncalls, ioctls, writes;
};

extern struct t_kernel tk;
/* The device every test context is made on (refcount 1, no sysfs). */
extern struct verbs_device t_vdev;

void t_kernel_reset(void);
void t_fail_next(int err);
unsigned int t_syscalls(void);

/* Puts the fake behind the seam, for contexts the library opens itself. */
void t_kernel_install(void);
/* A context on t_vdev whose commands reach the fake; and its end. */
struct ibv_context *t_context_new(uint32_t driver_id);
void t_context_free(struct ibv_context *ctx);
/* A cmocka teardown for a state that is such a context. */
int t_context_teardown(void **state);
/* The same when a case may have made up the context's async_fd. */
int t_context_teardown_keep_async(void **state);

/* An attribute of an ioctl the fake is answering, NULL if absent. */
struct ib_uverbs_attr *t_attr(struct ib_uverbs_ioctl_hdr *h, uint16_t id);

/*
 * Where the fields of the kernel's headers sit in an ioctl() or write()
 * buffer, written here as facts of the uverbs ABI (rdma_user_ioctl_cmds.h,
 * ib_user_verbs.h), never taken from the headers under test.
 */
enum {
	/* struct ib_uverbs_ioctl_hdr, followed by the attributes */
	IOCTL_HDR_LENGTH = 0,
	IOCTL_HDR_OBJECT_ID = 2,
	IOCTL_HDR_METHOD_ID = 4,
	IOCTL_HDR_NUM_ATTRS = 6,
	IOCTL_HDR_RESERVED1 = 8,
	IOCTL_HDR_DRIVER_ID = 16,
	IOCTL_HDR_RESERVED2 = 20,
	IOCTL_HDR_SIZE = 24,
	/* struct ib_uverbs_attr, within one attribute */
	ATTR_ID = 0,
	ATTR_LEN = 2,
	ATTR_FLAGS = 4,
	ATTR_DATA_RESERVED = 6,
	ATTR_DATA = 8,
	ATTR_SIZE = 16,
	/* struct ib_uverbs_cmd_hdr, at the start of every write() */
	CMD_HDR_COMMAND = 0,
	CMD_HDR_IN_WORDS = 4,
	CMD_HDR_OUT_WORDS = 6,
	CMD_HDR_SIZE = 8,
	/* struct ib_uverbs_ex_cmd_hdr, right after it in an extended one */
	EX_HDR_RESPONSE = CMD_HDR_SIZE + 0,
	EX_HDR_PROVIDER_IN_WORDS = CMD_HDR_SIZE + 8,
	EX_HDR_PROVIDER_OUT_WORDS = CMD_HDR_SIZE + 10,
	EX_HDR_RESERVED = CMD_HDR_SIZE + 12,
	EX_HDRS_SIZE = CMD_HDR_SIZE + 16,
	/* The response pointer, first in every basic request that has one */
	CMD_RESPONSE = CMD_HDR_SIZE + 0,
};

/* in_words and out_words (or the provider's pair) read as one u32. */
#define T_WORDS(in, out) ((uint32_t)(in) | (uint32_t)(out) << 16)

/* Attribute @n of an ioctl buffer. */
#define IOCTL_ATTR(n) (IOCTL_HDR_SIZE + ATTR_SIZE * (n))

/* Little-endian images of what the kernel should see; each returns the end. */
uint8_t *t_put16(uint8_t *p, uint16_t v);
uint8_t *t_put32(uint8_t *p, uint32_t v);
uint8_t *t_put64(uint8_t *p, uint64_t v);
uint8_t *t_put_attr(uint8_t *p, uint16_t id, uint16_t len, uint16_t flags,
		    uint64_t data);
uint8_t *t_put_mattr(uint8_t *p, uint16_t id, uint16_t len, uint64_t data);
uint8_t *t_put_ioctl_hdr(uint8_t *p, uint16_t obj, uint16_t method, uint16_t n);
uint8_t *t_put_write_hdr(uint8_t *p, uint32_t cmd, uint16_t in_bytes,
			 uint16_t out_bytes);
/* A zeroed image of @len request bytes, the basic header counting them. */
uint8_t *t_put_write_req(uint8_t *p, uint16_t len, uint32_t cmd,
			 uint16_t out_bytes);
uint8_t *t_put_ex_hdr(uint8_t *p, uint32_t cmd, uint16_t in_words,
		      uint16_t out_words, uint64_t resp, uint16_t drv_in,
		      uint16_t drv_out);
uint16_t t_get16(const void *p);
uint32_t t_get32(const void *p);
uint64_t t_get64(const void *p);

/* Call @i of the log was an ioctl, or a write(), of exactly @want. */
void t_expect(unsigned int i, bool is_ioctl, const uint8_t *want, size_t len);
/* The index of the last call logged. */
unsigned int t_last_call(void);
/* The ioctl header of call @i: its object, method and attribute count. */
void t_expect_method(unsigned int i, uint16_t obj, uint16_t method,
		     uint16_t nattrs);
/*
 * Attribute @n of ioctl @i: its id, length and flags, and a zero reserved
 * field; returns its data.
 */
uint64_t t_expect_attr(unsigned int i, unsigned int n, uint16_t id,
		       uint16_t len, uint16_t flags);
/* Attribute @n of logged ioctl @i is exactly this mandatory one. */
void t_expect_mattr(unsigned int i, unsigned int n, uint16_t id, uint16_t len,
		    uint64_t data);
/* Call @i was a write() of command @cmd, @len bytes in, @out_len out. */
void t_expect_write(unsigned int i, uint32_t cmd, size_t len, size_t out_len);

#endif
