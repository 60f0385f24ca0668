// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the memory family's commands: protection and
 * XRC domains, memory regions and windows, device memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "t_diff.h"

static void case_pd(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	T_NOTE_RET("dealloc_pd", ibv_cmd_dealloc_pd(&pd));
}

/* The kernel refuses the PD: what the caller's structs hold then. */
static void case_pd_fails(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	t_uv.next_err = ENOMEM;
	if (!t_diff_pd(ctx, &pd))
		T_NOTE_RET("dealloc_pd", ibv_cmd_dealloc_pd(&pd));
	t_uv_note("errno=%d", errno);
}

/* A destroy on a device that went away, with and without the variable. */
static void case_pd_disassociated(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	t_uv.next_err = EIO;
	T_NOTE_RET("dealloc_pd", ibv_cmd_dealloc_pd(&pd));
	verbs_allow_disassociate_destroy = true;
	t_uv.next_err = EIO;
	T_NOTE_RET("dealloc_pd allowed", ibv_cmd_dealloc_pd(&pd));
	verbs_allow_disassociate_destroy = false;
}

static void case_xrcd(struct ibv_context *ctx)
{
	struct verbs_xrcd xrcd;

	if (t_diff_xrcd(ctx, &xrcd))
		return;
	T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&xrcd));
}

TDRV_CMD(open_xrcd, ibv_open_xrcd);
TDRV_RESP(open_xrcd, ib_uverbs_open_xrcd_resp);

/*
 * comp_mask decides: stale fd and oflags without their bits, an unknown
 * bit, and an older provider's verbs_xrcd that ends before the handle.
 */
static void open_xrcd(struct ibv_context *ctx, uint32_t comp_mask, int size)
{
	struct tdrv_open_xrcd cmd;
	struct tdrv_open_xrcd_resp resp;
	struct ibv_xrcd_init_attr attr;
	struct verbs_xrcd xrcd;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&xrcd, sizeof(xrcd));
	t_diff_stale(&attr, sizeof(attr));
	attr.comp_mask = comp_mask;
	attr.fd = 9;
	attr.oflags = O_CREAT | O_EXCL;
	t_uv_name("xrcd", &xrcd, sizeof(xrcd));
	t_diff_resp("open_xrcd_resp", &resp, sizeof(resp));
	ret = ibv_cmd_open_xrcd(ctx, &xrcd, size, &attr, &cmd.ibv_cmd,
				sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("open_xrcd", ret);
	t_diff_resp_done("open_xrcd_resp", &resp, sizeof(resp));
	t_uv_dump("xrcd", &xrcd, sizeof(xrcd));
	if (!ret)
		T_NOTE_RET("close_xrcd", ibv_cmd_close_xrcd(&xrcd));
	t_uv_unname(&xrcd);
}

static void case_xrcd_masks(struct ibv_context *ctx)
{
	const uint32_t both = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;

	open_xrcd(ctx, both, sizeof(struct verbs_xrcd));
	open_xrcd(ctx, IBV_XRCD_INIT_ATTR_FD, sizeof(struct verbs_xrcd));
	open_xrcd(ctx, IBV_XRCD_INIT_ATTR_OFLAGS, sizeof(struct verbs_xrcd));
	open_xrcd(ctx, both | IBV_XRCD_INIT_ATTR_RESERVED,
		  sizeof(struct verbs_xrcd));
	open_xrcd(ctx, both, offsetof(struct verbs_xrcd, handle));
	open_xrcd(ctx, both, offsetof(struct verbs_xrcd, comp_mask));
}

static void case_mr(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_mr mr;

	if (t_diff_pd(ctx, &pd) || t_diff_mr(&pd, &mr))
		return;
	T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
}

TDRV_CMD(reg_mr, ibv_reg_mr);
TDRV_RESP(reg_mr, ib_uverbs_reg_mr_resp);

static uint8_t memory[16384] __attribute__((aligned(4096)));

/* The caller's MR struct of a registration: stale, and named. */
static void stale_mr(struct verbs_mr *mr)
{
	t_diff_stale(mr, sizeof(*mr));
	t_uv_name("mr", mr, sizeof(*mr));
}

/* A PD, and a stale MR struct for a command to fill; 0 or the PD's error. */
static int pd_and_stale_mr(struct ibv_context *ctx, struct ibv_pd *pd,
			   struct verbs_mr *mr)
{
	int ret = t_diff_pd(ctx, pd);

	if (!ret)
		stale_mr(mr);
	return ret;
}

/* A stale request struct, every argument the caller can choose. */
static void reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access)
{
	struct tdrv_reg_mr cmd;
	struct tdrv_reg_mr_resp resp;
	struct verbs_mr mr;
	int ret;

	T_DIFF_CMD(cmd);
	stale_mr(&mr);
	t_diff_resp("reg_mr_resp", &resp, sizeof(resp));
	ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, &mr,
			     &cmd.ibv_cmd, sizeof(cmd), &resp.ibv_resp,
			     sizeof(resp));
	T_NOTE_RET("reg_mr", ret);
	t_diff_resp_done("reg_mr_resp", &resp, sizeof(resp));
	t_uv_dump("mr", &mr, sizeof(mr));
	if (!ret)
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv_unname(&mr);
}

static void case_reg_mr_args(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	t_uv_name("memory", memory, sizeof(memory));
	reg_mr(&pd, memory + 100, 5000, 0x10064,
	       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	reg_mr(&pd, memory, sizeof(memory), (uintptr_t)memory,
	       IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND |
		       IBV_ACCESS_RELAXED_ORDERING);
	reg_mr(&pd, memory, 0, 0, 0);
	/* Implicit ODP: the whole address space. */
	reg_mr(&pd, NULL, SIZE_MAX, 0,
	       IBV_ACCESS_ON_DEMAND | IBV_ACCESS_LOCAL_WRITE);
	reg_mr(&pd, memory, 4096, 0, IBV_ACCESS_ON_DEMAND);
}

static void case_reg_mr_fails(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_mr mr;

	if (t_diff_pd(ctx, &pd))
		return;
	t_uv.next_err = EFAULT;
	if (!t_diff_mr(&pd, &mr))
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv_note("errno=%d", errno);
}

TDRV_CMD(rereg_mr, ibv_rereg_mr);
TDRV_RESP(rereg_mr, ib_uverbs_rereg_mr_resp);

static void rereg_mr(struct verbs_mr *mr, uint32_t flags, struct ibv_pd *pd)
{
	struct tdrv_rereg_mr cmd;
	struct tdrv_rereg_mr_resp resp;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_resp("rereg_mr_resp", &resp, sizeof(resp));
	ret = ibv_cmd_rereg_mr(mr, flags, memory + 4096, 4096, 0x9000,
			       IBV_ACCESS_LOCAL_WRITE, pd, &cmd.ibv_cmd,
			       sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("rereg_mr", ret);
	t_diff_resp_done("rereg_mr_resp", &resp, sizeof(resp));
	t_uv_dump("mr", mr, sizeof(*mr));
}

static void case_rereg_mr(struct ibv_context *ctx)
{
	struct ibv_pd pd, pd2;
	struct verbs_mr mr;

	if (t_diff_pd(ctx, &pd) || t_diff_mr(&pd, &mr))
		return;
	t_uv_name("memory", memory, sizeof(memory));
	/* A PD that is no object at all: only CHANGE_PD may read it. */
	t_diff_stale(&pd2, sizeof(pd2));
	pd2.context = ctx;
	pd2.handle = 0x77;
	t_uv_name("pd2", &pd2, sizeof(pd2));
	rereg_mr(&mr, IBV_REREG_MR_CHANGE_TRANSLATION, &pd2);
	rereg_mr(&mr, IBV_REREG_MR_CHANGE_ACCESS, &pd2);
	rereg_mr(&mr, IBV_REREG_MR_CHANGE_PD, &pd2);
	rereg_mr(&mr,
		 IBV_REREG_MR_CHANGE_TRANSLATION | IBV_REREG_MR_CHANGE_PD |
			 IBV_REREG_MR_CHANGE_ACCESS,
		 &pd);
	t_uv.next_err = EINVAL;
	rereg_mr(&mr, IBV_REREG_MR_CHANGE_ACCESS, &pd);
	T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
}

static void case_query_mr(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_mr mr;
	int ret;

	if (pd_and_stale_mr(ctx, &pd, &mr))
		return;
	ret = ibv_cmd_query_mr(&pd, &mr, 0x42);
	T_NOTE_RET("query_mr", ret);
	t_uv_dump("mr", &mr, sizeof(mr));
	t_uv.next_err = ENOENT;
	t_diff_stale(&mr, sizeof(mr));
	ret = ibv_cmd_query_mr(&pd, &mr, 0x43);
	t_uv_note("query_mr ret=%d errno=%d", ret, errno);
	t_uv_dump("mr", &mr, sizeof(mr));
}

static void case_advise_mr(struct ibv_context *ctx)
{
	struct ibv_sge sge[3] = {
		{ (uintptr_t)memory, 4096, 0x100 },
		{ (uintptr_t)memory + 8192, 100, 0x101 },
		{ (uintptr_t)memory + 12288, 1, 0x102 },
	};
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	t_uv_name("memory", memory, sizeof(memory));
	t_uv_name("sge", sge, sizeof(sge));
	T_NOTE_RET("advise_mr 3",
		   ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
				     IBV_ADVISE_MR_FLAG_FLUSH, sge, 3));
	T_NOTE_RET("advise_mr 1",
		   ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, sge,
				     1));
	t_uv.next_err = EOPNOTSUPP;
	T_NOTE_RET("advise_mr refused",
		   ibv_cmd_advise_mr(&pd,
				     IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT, 0,
				     sge, 2));
	t_uv_unname(sge);
}

static void case_reg_dmabuf_mr(struct ibv_context *ctx)
{
	struct ibv_pd pd;
	struct verbs_mr mr;
	int ret;

	if (pd_and_stale_mr(ctx, &pd, &mr))
		return;
	ret = ibv_cmd_reg_dmabuf_mr(
		&pd, 0x1000, 0x20000, 0x5000000, 7,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, &mr, NULL);
	T_NOTE_RET("reg_dmabuf_mr", ret);
	t_uv_dump("mr", &mr, sizeof(mr));
	if (!ret)
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv.next_err = EBADF;
	t_diff_stale(&mr, sizeof(mr));
	ret = ibv_cmd_reg_dmabuf_mr(&pd, 0, 4096, 0, 8, 0, &mr, NULL);
	t_uv_note("reg_dmabuf_mr ret=%d errno=%d", ret, errno);
	t_uv_dump("mr", &mr, sizeof(mr));
}

/* The eighth argument: the provider's attributes of @kind for the method. */
static void reg_dmabuf_driver(struct ibv_pd *pd, enum t_diff_drv kind)
{
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_MR,
			       UVERBS_METHOD_REG_DMABUF_MR, 1);
	struct verbs_mr mr;
	int ret;

	stale_mr(&mr);
	errno = 0;
	ret = ibv_cmd_reg_dmabuf_mr(pd, 0x2000, 0x10000, 0x7000000, 9,
				    IBV_ACCESS_LOCAL_WRITE, &mr,
				    t_diff_driver(drv, kind));
	t_uv_note("reg_dmabuf_mr(%s) ret=%d errno=%d", t_diff_drv_name(kind),
		  ret, ret ? errno : 0);
	t_uv_dump("mr", &mr, sizeof(mr));
	if (!ret)
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv_unname(&mr);
}

static void case_reg_dmabuf_mr_driver(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	for (enum t_diff_drv k = T_DRV_NONE; k <= T_DRV_MANDATORY; k++) {
		reg_dmabuf_driver(&pd, k);
		t_uv.next_err = EBADF;
		reg_dmabuf_driver(&pd, k);
		/* Left over where the registration was refused unsent. */
		t_uv.next_err = 0;
	}
}

TDRV_CMD(alloc_mw, ibv_alloc_mw);
TDRV_RESP(alloc_mw, ib_uverbs_alloc_mw_resp);

static void alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct tdrv_alloc_mw cmd;
	struct tdrv_alloc_mw_resp resp;
	struct ibv_mw mw;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&mw, sizeof(mw));
	t_uv_name("mw", &mw, sizeof(mw));
	t_diff_resp("alloc_mw_resp", &resp, sizeof(resp));
	ret = ibv_cmd_alloc_mw(pd, type, &mw, &cmd.ibv_cmd, sizeof(cmd),
			       &resp.ibv_resp, sizeof(resp));
	T_NOTE_RET("alloc_mw", ret);
	t_diff_resp_done("alloc_mw_resp", &resp, sizeof(resp));
	t_uv_dump("mw", &mw, sizeof(mw));
	if (!ret)
		T_NOTE_RET("dealloc_mw", ibv_cmd_dealloc_mw(&mw));
	t_uv_unname(&mw);
}

static void case_mw(struct ibv_context *ctx)
{
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	alloc_mw(&pd, IBV_MW_TYPE_1);
	alloc_mw(&pd, IBV_MW_TYPE_2);
	t_uv.next_err = ENOMEM;
	alloc_mw(&pd, IBV_MW_TYPE_2);
}

/* A provider's own attribute, in a buffer linked to the core's. */
#define DRIVER_BUFFER(name, obj, method)                   \
	DECLARE_COMMAND_BUFFER(name, UVERBS_OBJECT_##obj,  \
			       UVERBS_METHOD_##method, 1); \
	fill_attr_in_uint64(name, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE)

static int alloc_dm_link(struct ibv_context *ctx, struct verbs_dm *dm,
			 uint32_t comp_mask, struct ibv_command_buffer *link)
{
	struct ibv_alloc_dm_attr attr;
	int ret;

	t_diff_stale(&attr, sizeof(attr));
	attr.length = 0x10000;
	attr.log_align_req = 12;
	attr.comp_mask = comp_mask;
	t_diff_stale(dm, sizeof(*dm));
	ret = ibv_cmd_alloc_dm(ctx, &attr, dm, link);
	t_uv_note("alloc_dm ret=%d errno=%d", ret, ret ? errno : 0);
	t_uv_dump("dm", dm, sizeof(*dm));
	return ret;
}

static int alloc_dm(struct ibv_context *ctx, struct verbs_dm *dm,
		    struct ibv_command_buffer *link)
{
	return alloc_dm_link(ctx, dm, 0, link);
}

static int alloc_dm_mask(struct ibv_context *ctx, struct verbs_dm *dm,
			 uint32_t comp_mask)
{
	return alloc_dm_link(ctx, dm, comp_mask, NULL);
}

static void case_dm(struct ibv_context *ctx)
{
	DRIVER_BUFFER(drv, DM, DM_ALLOC);
	struct verbs_dm dm;

	if (!alloc_dm(ctx, &dm, drv))
		T_NOTE_RET("free_dm", ibv_cmd_free_dm(&dm));
	if (!alloc_dm(ctx, &dm, NULL)) {
		t_uv.next_err = EBUSY;
		T_NOTE_RET("free_dm fails", ibv_cmd_free_dm(&dm));
		T_NOTE_RET("free_dm", ibv_cmd_free_dm(&dm));
	}
	t_uv.next_err = ENOMEM;
	alloc_dm(ctx, &dm, NULL);
	/* No comp_mask bit is defined: a stale one. */
	if (!alloc_dm_mask(ctx, &dm, 0xa5a5a5a5))
		T_NOTE_RET("free_dm", ibv_cmd_free_dm(&dm));
}

static void reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm,
		      unsigned int access, struct ibv_command_buffer *link)
{
	struct verbs_mr mr;
	int ret;

	stale_mr(&mr);
	ret = ibv_cmd_reg_dm_mr(pd, dm, 0x800, 0x1000, access, &mr, link);
	t_uv_note("reg_dm_mr ret=%d errno=%d", ret, ret ? errno : 0);
	t_uv_dump("mr", &mr, sizeof(mr));
	if (!ret)
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv_unname(&mr);
}

static void case_reg_dm_mr(struct ibv_context *ctx)
{
	DRIVER_BUFFER(drv, MR, DM_MR_REG);
	struct verbs_dm dm;
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	/* The DM need not exist for the MR's command to be compared. */
	if (alloc_dm(ctx, &dm, NULL)) {
		memset(&dm, 0, sizeof(dm));
		dm.dm.context = ctx;
		dm.handle = 0xd0;
	}
	reg_dm_mr(&pd, &dm, IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE,
		  drv);
	reg_dm_mr(&pd, &dm, IBV_ACCESS_ZERO_BASED, NULL);
	reg_dm_mr(&pd, &dm, IBV_ACCESS_LOCAL_WRITE, NULL);
	t_uv.next_err = EINVAL;
	reg_dm_mr(&pd, &dm, IBV_ACCESS_ZERO_BASED, NULL);
	T_NOTE_RET("free_dm", ibv_cmd_free_dm(&dm));
}

/*
 * rdma-core 65's commands, reached through the provider ABI node of the
 * library the case runs on (the program is built per provider ABI, and
 * ABI 34's libraries have none of them): T_CASE_IF(t_diff_need_pabi65).
 */
typedef __typeof__(ibv_cmd_alloc_dmah) alloc_dmah_fn;
typedef __typeof__(ibv_cmd_free_dmah) free_dmah_fn;
typedef __typeof__(ibv_cmd_reg_mr_ex) reg_mr_ex_fn;
typedef __typeof__(ibv_cmd_export_dmabuf_fd) export_dmabuf_fd_fn;

/* A DMA handle of the hints @mask names, freed again unless @keep. */
static int alloc_dmah(struct ibv_context *ctx, uint32_t mask,
		      struct verbs_dmah *dmah, bool keep)
{
	alloc_dmah_fn *alloc = t_diff_pabi_sym("ibv_cmd_alloc_dmah");
	free_dmah_fn *dealloc = t_diff_pabi_sym("ibv_cmd_free_dmah");
	struct ibv_dmah_init_attr attr;
	int ret;

	if (!alloc || !dealloc) {
		t_uv_note("no ibv_cmd_alloc_dmah here");
		return EOPNOTSUPP;
	}
	t_diff_stale(&attr, sizeof(attr));
	attr.comp_mask = mask;
	attr.cpu_id = 3;
	attr.ph = 2;
	attr.tph_mem_type = IBV_TPH_MEM_TYPE_PM;
	t_diff_stale(dmah, sizeof(*dmah));
	t_uv_name("dmah", dmah, sizeof(*dmah));
	ret = alloc(ctx, dmah, &attr);
	t_uv_note("alloc_dmah(%x) ret=%d errno=%d", mask, ret, ret ? errno : 0);
	t_uv_dump("dmah", dmah, sizeof(*dmah));
	if (!ret && !keep)
		T_NOTE_RET("free_dmah", dealloc(dmah));
	if (!keep)
		t_uv_unname(dmah);
	return ret;
}

/*
 * Each hint alone and together, none, a bit no flag defines (not sent),
 * a kernel failure; a free the kernel refuses, then one on a device
 * that went away.
 */
static void case_dmah(struct ibv_context *ctx)
{
	free_dmah_fn *dealloc = t_diff_pabi_sym("ibv_cmd_free_dmah");
	const uint32_t all = IBV_DMAH_INIT_ATTR_MASK_CPU_ID |
			     IBV_DMAH_INIT_ATTR_MASK_PH |
			     IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE;
	struct verbs_dmah dmah;

	alloc_dmah(ctx, all, &dmah, false);
	alloc_dmah(ctx, IBV_DMAH_INIT_ATTR_MASK_CPU_ID, &dmah, false);
	alloc_dmah(ctx, IBV_DMAH_INIT_ATTR_MASK_PH, &dmah, false);
	alloc_dmah(ctx, IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE, &dmah, false);
	alloc_dmah(ctx, 0, &dmah, false);
	alloc_dmah(ctx, IBV_DMAH_INIT_ATTR_MASK_PH | 0x80, &dmah, false);
	t_uv.next_err = ENOMEM;
	alloc_dmah(ctx, all, &dmah, false);
	t_uv.next_err = 0;
	if (alloc_dmah(ctx, all, &dmah, true))
		return;
	t_uv.next_err = EBUSY;
	T_NOTE_RET("free_dmah busy", dealloc(&dmah));
	verbs_allow_disassociate_destroy = true;
	t_uv.next_err = EIO;
	T_NOTE_RET("free_dmah allowed", dealloc(&dmah));
	verbs_allow_disassociate_destroy = false;
	t_uv_unname(&dmah);
}

/* One registration of @in, its MR dumped and deregistered. */
static void reg_mr_ex(struct ibv_pd *pd, const char *what,
		      struct ibv_mr_init_attr *in)
{
	reg_mr_ex_fn *reg = t_diff_pabi_sym("ibv_cmd_reg_mr_ex");
	struct verbs_mr mr;
	int ret;

	if (!reg) {
		t_uv_note("no ibv_cmd_reg_mr_ex here");
		return;
	}
	stale_mr(&mr);
	errno = 0;
	ret = reg(pd, &mr, in);
	t_uv_note("reg_mr_ex(%s) ret=%d errno=%d", what, ret, ret ? errno : 0);
	t_uv_dump("mr", &mr, sizeof(mr));
	if (!ret)
		T_NOTE_RET("dereg_mr", ibv_cmd_dereg_mr(&mr));
	t_uv_unname(&mr);
}

/* An init attr as a reused struct holds it, @mask and the range set. */
static void mr_init_attr(struct ibv_mr_init_attr *in, uint64_t mask)
{
	t_diff_stale(in, sizeof(*in));
	in->comp_mask = mask;
	in->addr = memory;
	in->length = 0x2000;
	in->access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ;
	in->iova = 0x7000000;
	in->fd = 7;
	in->fd_offset = 0x1000;
}

/*
 * Every form: memory by address (with and without an IOVA, implicit ODP),
 * a dma-buf (with fd -1, which sends no FD), a DMA handle; the forms
 * refused unsent; a kernel failure. Kernels without the method register
 * memory by address by write() and refuse the rest.
 */
static void case_reg_mr_ex(struct ibv_context *ctx)
{
	const uint64_t dmabuf = IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
				IBV_REG_MR_MASK_IOVA;
	struct ibv_mr_init_attr in;
	struct verbs_dmah dmah;
	struct ibv_pd pd;

	if (t_diff_pd(ctx, &pd))
		return;
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR);
	reg_mr_ex(&pd, "addr", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA);
	reg_mr_ex(&pd, "addr iova", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR);
	in.addr = NULL;
	in.length = SIZE_MAX;
	in.access = IBV_ACCESS_ON_DEMAND;
	reg_mr_ex(&pd, "implicit odp", &in);
	in.addr = memory;
	reg_mr_ex(&pd, "implicit odp with addr", &in);
	mr_init_attr(&in, dmabuf);
	reg_mr_ex(&pd, "dmabuf", &in);
	in.fd = -1;
	reg_mr_ex(&pd, "dmabuf fd -1", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET);
	reg_mr_ex(&pd, "dmabuf no iova", &in);
	mr_init_attr(&in, dmabuf | IBV_REG_MR_MASK_ADDR);
	reg_mr_ex(&pd, "both forms", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_IOVA);
	reg_mr_ex(&pd, "no form", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET);
	reg_mr_ex(&pd, "addr offset", &in);
	memset(&dmah, 0, sizeof(dmah));
	dmah.dmah.context = ctx;
	dmah.handle = 0x44;
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH);
	in.dmah = &dmah.dmah;
	reg_mr_ex(&pd, "addr dmah", &in);
	mr_init_attr(&in, dmabuf | IBV_REG_MR_MASK_DMAH);
	in.dmah = &dmah.dmah;
	reg_mr_ex(&pd, "dmabuf dmah", &in);
	mr_init_attr(&in, IBV_REG_MR_MASK_ADDR);
	t_uv.next_err = EFAULT;
	reg_mr_ex(&pd, "fails", &in);
	t_uv.next_err = 0;
	T_NOTE_RET("dealloc_pd", ibv_cmd_dealloc_pd(&pd));
}

/* A dma-buf for an mmap() offset: the file, then a kernel's refusal. */
static void case_export_dmabuf_fd(struct ibv_context *ctx)
{
	export_dmabuf_fd_fn *fn = t_diff_pabi_sym("ibv_cmd_export_dmabuf_fd");
	int fd;

	if (!fn) {
		t_uv_note("no ibv_cmd_export_dmabuf_fd here");
		return;
	}
	errno = 0;
	fd = fn(ctx, 0x3000);
	t_uv_note("export_dmabuf_fd ret=%d errno=%d", fd, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	t_uv.next_err = EINVAL;
	fd = fn(ctx, 0);
	t_uv_note("export_dmabuf_fd ret=%d errno=%d", fd, fd < 0 ? errno : 0);
	t_uv.next_err = 0;
}

T_CASE_SET(t_cases_mem, T_CASE(pd), T_CASE(pd_fails), T_CASE(pd_disassociated),
	   T_CASE(xrcd), T_CASE(xrcd_masks), T_CASE(mr), T_CASE(reg_mr_args),
	   T_CASE(reg_mr_fails), T_CASE(rereg_mr), T_CASE(query_mr),
	   T_CASE(advise_mr), T_CASE(reg_dmabuf_mr),
	   T_CASE_IF(reg_dmabuf_mr_driver, t_diff_need_dmabuf_driver),
	   T_CASE(mw), T_CASE(dm), T_CASE(reg_dm_mr),
	   T_CASE_IF(dmah, t_diff_need_pabi65),
	   T_CASE_IF(reg_mr_ex, t_diff_need_pabi65),
	   T_CASE_IF(export_dmabuf_fd, t_diff_need_pabi65));
