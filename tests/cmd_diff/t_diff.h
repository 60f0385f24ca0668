/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The cases of driver_cmd_diff_test (see that file): each calls some of
 * the provider ABI on a fresh context of the test provider "tdrv", with
 * driver data attached where a hardware provider attaches it, and notes
 * in the trace what the caller got back (t_uv_note(), t_uv_dump()). The
 * kernel's side is traced by the fake (t_uverbs.h) on its own.
 *
 * A case must do the same on both libraries: the same calls with the
 * same arguments. It names the buffers whose addresses the kernel sees
 * (t_uv_name()), so that the trace says "resp+24" rather than "ptr".
 * Attribute structs are filled with t_diff_stale() before the fields a
 * case means are set, as a reused struct would be, so that a library
 * reading a field its comp_mask does not cover shows it; a pointer the
 * mask leaves out points at a decoy (t_diff_decoys()), whose handle
 * shows instead of a crash. Providers' request structs are stale too
 * unless the case says providers zero them (= {}).
 */
#ifndef T_DIFF_H
#define T_DIFF_H

#include <stdint.h>
#include <string.h>

#include <infiniband/driver.h>

#include "t_uverbs.h"

/*
 * A provider's request and response structs put its own words behind the
 * kernel's core struct, whose last member is a flexible array (the
 * driver_data[] of <rdma/ib_user_verbs.h>), as every lib*-abi.h does.
 */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif

/* The provider's own request and response words, as lib*-abi.h adds. */
struct tdrv_drv_in {
	uint64_t a, b;
};
struct tdrv_drv_out {
	uint64_t x, y, z;
};

#define DRV_IN_INIT                                          \
	{                                                    \
		0x1111111111111111ull, 0x2222222222222222ull \
	}

/*
 * A provider's request and response of a write()-style command, as its
 * lib*-abi.h declares them: the core struct first, its own words behind.
 * (Behind a response of 4 bytes the compiler pads to 8; the padding is
 * the provider's, as it would be in a real provider's struct.)
 */
#define TDRV_CMD(name, core)            \
	struct tdrv_##name {            \
		struct core ibv_cmd;    \
		struct tdrv_drv_in drv; \
	}
#define TDRV_RESP(name, core)            \
	struct tdrv_##name##_resp {      \
		struct core ibv_resp;    \
		struct tdrv_drv_out drv; \
	}

/*
 * A driver attribute, as a provider links it to a core method in a
 * command buffer of its own (the driver namespace starts at 0x1000).
 */
#define TDRV_ATTR_IN 0x1000
#define TDRV_ATTR_IN_VALUE 0x3333333333333333ull
#define TDRV_ATTR_OUT 0x1002

/*
 * A driver attribute of a core method that has driver data: its ids
 * start behind the two the kernel keeps there for that data
 * (UVERBS_ATTR_UHW_IN and _OUT, which the libraries treat as such).
 */
#define TDRV_ATTR_CORE (UVERBS_ATTR_UHW_OUT + 1)
#define TDRV_ATTR_CORE_VALUE 0x4444444444444444ull

/*
 * The driver attributes a provider links into a core method's command
 * buffer: none (no buffer), or one that the kernel may ignore when it
 * does not know it, or one it must not.
 */
enum t_diff_drv {
	T_DRV_NONE,
	T_DRV_OPTIONAL,
	T_DRV_MANDATORY,
};

/* @kind in the trace. */
static inline const char *t_diff_drv_name(enum t_diff_drv kind)
{
	return kind == T_DRV_NONE     ? "none" :
	       kind == T_DRV_OPTIONAL ? "optional" :
					"mandatory";
}

/* @buf (sized for one attribute) filled for @kind, or NULL for none. */
static inline struct ibv_command_buffer *
t_diff_driver(struct ibv_command_buffer *buf, enum t_diff_drv kind)
{
	struct ib_uverbs_attr *a;

	if (kind == T_DRV_NONE)
		return NULL;
	a = fill_attr_in_uint64(buf, TDRV_ATTR_CORE, TDRV_ATTR_CORE_VALUE);
	if (kind == T_DRV_OPTIONAL)
		attr_optional(a);
	return buf;
}

/* A method of the driver's own namespace, which the fake's driver knows. */
#define TDRV_OBJECT 0x1000
#define TDRV_METHOD 0x1000

/* What the fake kernel's driver of tdrv0 answers (provider.c). */
extern const struct t_uv_driver tdrv_kernel;
void tdrv_free_context(struct ibv_context *ibctx);
/* Bytes of the provider's context from its struct ibv_context on. */
size_t tdrv_context_tail(void);

struct t_case {
	const char *name;
	void (*fn)(struct ibv_context *ctx);
	/*
	 * For a case of a later addition to the provider ABI: NULL when the
	 * reference has it, else why the case is not compared (reference.c).
	 */
	const char *(*missing)(void);
};

struct t_case_set {
	const struct t_case *cases;
	size_t n;
};

#define T_CASE(c)                          \
	{                                  \
		.name = #c, .fn = case_##c \
	}
/* A case that runs only when @need() (reference.c) returns NULL. */
#define T_CASE_IF(c, need)                                  \
	{                                                   \
		.name = #c, .fn = case_##c, .missing = need \
	}
#define T_CASE_SET(set, ...)                                              \
	static const struct t_case set##_cases[] = { __VA_ARGS__ };       \
	const struct t_case_set set = {                                   \
		set##_cases, sizeof(set##_cases) / sizeof(set##_cases[0]) \
	}

/* Every family's cases, in the order the test runs them. */
extern const struct t_case_set t_cases_device, t_cases_mem, t_cases_cq,
	t_cases_qp, t_cases_qp_attr, t_cases_srq, t_cases_flow, t_cases_wq,
	t_cases_helpers, t_cases_errno, t_cases_comp_cntr;

/*
 * What the reference library has of the provider ABI's later additions
 * (reference.c), the same in the parent and both recording children.
 */
struct t_diff_ref {
	bool create_cq_ex2; /* exports ibv_cmd_create_cq_ex2() */
	unsigned int dmabuf_args; /* its ibv_cmd_reg_dmabuf_mr()'s, 7 or 8 */
};
extern struct t_diff_ref t_ref;

/* Fills t_ref; 0, or -1 with the reason printed. */
int t_diff_ref_init(void);
/* Whether this process is the child that asks the reference ... */
bool t_diff_probing(void);
/* ... and its exit status: 0 if the library it runs on has cq_ex2. */
int t_diff_probe(void);
/*
 * A function of the provider ABI node in the library this process runs
 * on, or NULL: the program does not link to those the reference may lack.
 */
void *t_diff_pabi_sym(const char *name);
/* The T_CASE_IF() conditions. */
const char *t_diff_need_cq_ex2(void);
const char *t_diff_need_dmabuf_driver(void);
/* rdma-core 65's commands: only in provider ABI 65 and later. */
const char *t_diff_need_pabi65(void);

/* Fill @p with the bytes a reused struct would hold. */
static inline void t_diff_stale(void *p, size_t len)
{
	memset(p, 0xa5, len);
}

/*
 * A provider's request (TDRV_CMD) as a case hands it over: stale, as a
 * reused struct, or zeroed (= {}); the provider's own words set.
 */
#define T_DIFF_CMD_INIT(cmd, stale)                          \
	do {                                                 \
		if (stale)                                   \
			t_diff_stale(&(cmd), sizeof(cmd));   \
		else                                         \
			memset(&(cmd), 0, sizeof(cmd));      \
		(cmd).drv = (struct tdrv_drv_in)DRV_IN_INIT; \
	} while (0)
#define T_DIFF_CMD(cmd) T_DIFF_CMD_INIT(cmd, true)

/*
 * A provider's response buffer: zeroed and named @name in the trace
 * before the call; after it, dumped under that name and forgotten.
 */
static inline void t_diff_resp(const char *name, void *resp, size_t len)
{
	memset(resp, 0, len);
	t_uv_name(name, resp, len);
}

static inline void t_diff_resp_done(const char *name, const void *resp,
				    size_t len)
{
	t_uv_dump(name, resp, len);
	t_uv_unname(resp);
}

/* The return value of a call, in the trace. */
#define T_NOTE_RET(what, ret) t_uv_note("%s ret=%d", what, ret)

/*
 * Objects other cases need, each made through its ibv_cmd_*() with
 * driver data (so that their traffic is compared too) and named in the
 * trace; 0 or the call's error.
 */
int t_diff_pd(struct ibv_context *ctx, struct ibv_pd *pd);
int t_diff_cq(struct ibv_context *ctx, struct ibv_cq *cq);
int t_diff_xrcd(struct ibv_context *ctx, struct verbs_xrcd *xrcd);
/* An RC or UD QP on @pd with @cq for both queues, made by create_qp. */
int t_diff_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type,
	      struct verbs_qp *qp);
int t_diff_srq(struct ibv_pd *pd, struct verbs_srq *srq);
/* A QP of @type on a fresh PD and CQ, for the cases that need one. */
struct t_diff_qp_objs {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct verbs_qp qp;
};
int t_diff_new_qp(struct ibv_context *ctx, enum ibv_qp_type type,
		  struct t_diff_qp_objs *o);
int t_diff_wq(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq,
	      struct ibv_wq *wq);
int t_diff_mr(struct ibv_pd *pd, struct verbs_mr *mr);
int t_diff_ah(struct ibv_pd *pd, struct ibv_ah *ah);

/* The QP, SRQ and WQ fields a create fills, without their locks. */
void t_diff_note_qp(const struct ibv_qp *qp);
void t_diff_note_srq(const struct ibv_srq *srq);
void t_diff_note_wq(const struct ibv_wq *wq);

struct t_diff_decoys {
	struct ibv_pd pd;
	struct ibv_cq cq;
	struct ibv_srq srq;
	struct verbs_xrcd xrcd;
	struct ibv_rwq_ind_table tbl;
	struct ibv_ah ah;
};
extern struct t_diff_decoys t_decoy;
/* Resets the decoys of @ctx and names them "decoy" in the trace. */
void t_diff_decoys(struct ibv_context *ctx);

/* The fake sysfs tree the device lives in (class/infiniband/tdrv0). */
extern const char *t_diff_sysfs_root;

#endif
