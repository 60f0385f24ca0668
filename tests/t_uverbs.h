/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake uverbs kernel at the system-call boundary, for tests that must
 * run unchanged on our libibverbs and on Debian's rdma-core 44 (which has
 * no seam of ours): the test program defines ioctl() and write(), so
 * every call a library or provider makes on a fake command file lands
 * here, while calls on any other file go to the real kernel. It also
 * defines mmap(), to trace what a provider maps of a fake command file
 * and let the driver fill it (t_uv_driver.mmap).
 *
 * A fake command file is /dev/infiniband/uverbsN made as a node of
 * /dev/zero (1:5) in the test's private mount namespace: the libraries
 * open and fstat() it like a real one, and a provider can mmap() any
 * offset of it (doorbells, queues) and get zeroed shared pages.
 *
 * The fake decodes each command the way the kernel does, whichever way
 * it came (an ioctl method, a write() with the basic or the extended
 * header, or a write() tunnelled through DEVICE/INVOKE_WRITE), into a
 * core part and a driver part; it answers the core part itself and asks
 * the current driver (struct t_uv_driver) for the driver part. It can
 * play three kernels (enum t_uv_kernel) and logs every call as one
 * canonical text record (t_uv_trace), in which addresses are named
 * rather than printed, so that two runs of the same calls, one on each
 * library, give identical text exactly when the kernel saw the same.
 */
#ifndef T_UVERBS_H
#define T_UVERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

/* The device number of a fake command file: /dev/zero's. */
#define T_UV_MAJOR 1
#define T_UV_MINOR 5

enum t_uv_kernel {
	T_UV_IOCTL, /* a current kernel: every ioctl method and write() */
	T_UV_NO_IOCTL, /* no ioctl interface at all: ENOTTY, write() only */
	/*
	 * ioctl, but every method other than DEVICE/INVOKE_WRITE refused
	 * (EPROTONOSUPPORT): the write-format commands go through the
	 * tunnel.
	 */
	T_UV_TUNNEL,
};

/* One command as the kernel's dispatcher sees it, after decoding. */
struct t_uv_cmd {
	bool is_ioctl; /* a method (not a write-format command) */
	uint16_t object, method; /* of a method */
	uint32_t command; /* of a write-format command, with the EX flag */
	struct ib_uverbs_ioctl_hdr *hdr; /* of a method */
	const void *core_in; /* a write-format command's core request */
	size_t core_in_len;
	void *core_out; /* ... and where its core answer goes */
	size_t core_out_len;
	const void *drv_in; /* the driver's request (UHW_IN) */
	size_t drv_in_len;
	void *drv_out; /* the driver's answer (UHW_OUT) */
	size_t drv_out_len;
};

/*
 * What a device's driver answers. @answer fills cmd->drv_out (the fake
 * has zeroed it, as the kernel's udata copy would leave what the driver
 * does not write) and returns 0, or an errno value to fail the command.
 * @method answers a method the core does not know (a driver's own
 * namespace) and returns 0, an errno value, or -1 for "no such method",
 * which the fake turns into EPROTONOSUPPORT. Either may be NULL: the
 * driver part is then filled with the fake's pattern, and driver methods
 * are refused.
 */
struct t_uv_driver {
	const char *name;
	int (*answer)(struct t_uv_cmd *cmd);
	int (*method)(struct t_uv_cmd *cmd);
	/*
	 * Zeroes, in a copy of the driver's request about to be traced, the
	 * bytes the provider leaves uninitialised (reserved fields of a
	 * struct on its stack): they hold whatever the stack held, which
	 * differs with the core underneath. The fake has set cmd->drv_in
	 * and cmd->drv_in_len; the trace then says "drv(masked)".
	 */
	void (*mask_in)(const struct t_uv_cmd *cmd, uint8_t *drv_in,
			size_t len);
	/*
	 * The same for a write-format command's core request, which the
	 * core fills in a struct the provider hands it: rdma-core 44 writes
	 * only some fields (MODIFY_QP: those of the attribute mask), so the
	 * rest holds what the provider's stack held. The trace then says
	 * "core(masked)".
	 */
	void (*mask_core_in)(const struct t_uv_cmd *cmd, uint8_t *core_in,
			     size_t len);
	/*
	 * Lays out, in the @len bytes a provider just mapped at @offset of
	 * a fake command file (zeroed pages), what the kernel driver's
	 * memory shared there holds: a queue's header, a doorbell page.
	 * NULL: the pages stay zero.
	 */
	void (*mmap)(uint64_t offset, void *addr, size_t len);
};

struct t_uv {
	enum t_uv_kernel kernel;
	const struct t_uv_driver *driver;
	FILE *trace; /* NULL: nothing is logged */
	unsigned int calls; /* system calls on fake files */
	int next_err; /* the next command fails with this, once */
	int mmap_err; /* the next mmap() of a fake file fails so, once */
	/* QUERY_DEVICE (extended)'s device_cap_flags_ex: IB_UVERBS_DEVICE_* */
	uint64_t device_cap_flags_ex;
};

extern struct t_uv t_uv;

/* Back to a fresh kernel of @kernel: no objects, no script. */
void t_uv_reset(enum t_uv_kernel kernel);
const char *t_uv_kernel_name(enum t_uv_kernel kernel);

/* Whether @fd is a fake command file. */
bool t_uv_is_fake(int fd);

/*
 * Opens the one device listed, which must be named @name (NULL: any);
 * NULL if the list holds another number of devices, or another name.
 */
struct ibv_context;
struct ibv_context *t_uv_open_only(const char *name);

/*
 * Names a buffer of the test, so that the trace shows addresses inside
 * it as "<name>+<offset>" instead of by order of appearance. Forgotten
 * by t_uv_forget_all().
 */
void t_uv_name(const char *name, const void *buf, size_t len);
/* Forgets @buf's name (a buffer on a stack frame about to return). */
void t_uv_unname(const void *buf);
void t_uv_forget_all(void);

/*
 * The trace: a section per case, free text the test adds (results), and
 * a dump of a buffer as 64-bit words with addresses named.
 */
void t_uv_section(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void t_uv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void t_uv_dump(const char *what, const void *buf, size_t len);

/* The fake's deterministic fill for answers: byte @i of a stream @seed. */
void t_uv_pattern(void *buf, size_t len, uint32_t seed);

/* The attribute @id of a method the fake is answering, or NULL. */
struct ib_uverbs_attr *t_uv_attr(const struct t_uv_cmd *cmd, uint16_t id);

/*
 * The commands a fake driver answers with data of its own, whichever way
 * they came (an ioctl method, a write() command, the tunnel).
 */
enum t_uv_verb {
	T_UV_OTHER,
	T_UV_GET_CONTEXT,
	T_UV_REG_MR,
	T_UV_CREATE_CQ,
	T_UV_CREATE_QP,
	T_UV_CREATE_SRQ,
	T_UV_CREATE_AH,
	T_UV_POST_SEND,
	T_UV_MODIFY_QP, /* basic or extended; core_in begins alike */
	T_UV_RESIZE_CQ,
	T_UV_MODIFY_SRQ,
};

enum t_uv_verb t_uv_verb_of(const struct t_uv_cmd *cmd);

/* A driver's answer: @len bytes of @src, cut to the room given; 0. */
int t_uv_put(struct t_uv_cmd *cmd, const void *src, size_t len);

/*
 * Event files (t_uverbs_files.c). A new file the fake hands out: an
 * eventfd at a fixed number, whose read() gives the records queued on it.
 */
enum t_uv_file_kind {
	T_UV_ASYNC_FILE, /* a context's async events */
	T_UV_COMP_FILE, /* a completion channel */
	T_UV_OTHER_FILE, /* only a number: a dma-buf a test passes in */
};

int t_uv_new_fd(enum t_uv_file_kind kind);

/*
 * Queue an event on a file, as the kernel does: a completion on CQ @cq
 * (the user handle the library gave, its struct ibv_cq), or an async
 * event of @type on @element (an object's user handle, or a port).
 * False when @fd is no open event file of the fake, or its queue is full.
 */
bool t_uv_post_comp(int fd, const void *cq);
bool t_uv_post_async(int fd, uint64_t element, uint32_t type);

/*
 * The device goes away as a hardware driver's removal takes it: every
 * command and mmap() fails with EIO from now on, each async file yields
 * IBV_EVENT_DEVICE_FATAL and then EIO, completion channels give EIO
 * (waking blocked readers), and what the driver shared reads as zeroes.
 * Until t_uv_reset().
 */
void t_uv_disassociate(void);
bool t_uv_gone(void);
/*
 * How many mappings of fake command files are live (made, and not yet
 * unmapped by their address), counting those disassociation zeroed: a
 * test checks with it that a provider gave back what it mapped.
 */
unsigned int t_uv_live_maps(void);

/*
 * The lock the interposed calls take: the fake may serve many threads.
 * A test that changes t_uv or the driver's state while threads run
 * takes it too.
 */
void t_uv_lock(void);
void t_uv_unlock(void);

/*
 * Internal to the fake: its files; the objects that have events (@handle
 * the fake's, @user the library's), whose destroy reports the events of
 * each kind read and drops those unread; the mappings of its command
 * files.
 */
void t_uv_reset_files(void);
void t_uv_track(uint32_t handle, uint64_t user);
void t_uv_untrack(uint32_t handle, uint32_t *comp, uint32_t *async);
void t_uv_add_map(void *addr, size_t len, int prot);
void t_uv_drop_map(void *addr);

/*
 * For a driver that grants a QP exactly the capacities asked (siw, and
 * rxe for small ones): the request's struct ib_uverbs_qp_cap copied into
 * the core answer of a CREATE_QP, basic, extended or the method (five
 * u32 from max_send_wr on, in the request and in the answer alike, or
 * the method's CAP and RESP_CAP), in place of the fake's pattern.
 */
void t_uv_echo_qp_caps(struct t_uv_cmd *cmd);

#endif
