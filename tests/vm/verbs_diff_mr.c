// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of memory: protection domains, memory regions and
 * memory windows; and rdma-core 65's: DMA handles, ibv_reg_mr_ex(), the
 * dma-buf of device memory, and the buffers a provider allocates.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "verbs_diff.h"

/* The page of t_page() registered with @access, or the step ends. */
static struct ibv_mr *t_page_mr(struct t_st *st, unsigned int access)
{
	struct ibv_mr *mr = t_reg(st, t_page(), 4096, access);

	if (!mr)
		t_setup_failed("reg_mr");
	return mr;
}

/* ------------------------------------------------------------------ */
/* PD */

static void s_pd_alloc(struct t_st *st)
{
	struct ibv_pd *pd;

	t_need(ibv_alloc_pd);
	errno = 0;
	pd = lib.ibv_alloc_pd(st->ctx);
	if (t_ptr("ret", pd))
		t_out("context-matches=%d", pd->context == st->ctx);
}

static void s_pd_dealloc(struct t_st *st)
{
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* A PD that still holds an MR cannot go: EBUSY. */
static void s_pd_dealloc_busy(struct t_st *st)
{
	t_page_mr(st, 0);
	t_need(ibv_dealloc_pd);
	errno = 0;
	t_rc("ret", lib.ibv_dealloc_pd(st->pd));
}

/* ------------------------------------------------------------------ */
/* MR */

static void t_mr_step(struct t_st *st, void *addr, size_t len,
		      unsigned int access)
{
	struct ibv_mr *mr = t_reg(st, addr, len, access);

	if (t_ptr("ret", mr))
		t_out("lkey!=0=%d length=%zu addr-matches=%d", mr->lkey != 0,
		      mr->length, mr->addr == addr);
}

static void s_mr_reg_local(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, 0);
}

static void s_mr_reg_rw(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_READ);
}

static void s_mr_reg_atomic(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
}

/* Remote write without local write is refused by the verbs spec. */
static void s_mr_reg_rw_nolocal(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_REMOTE_WRITE);
}

static void s_mr_reg_bad_bits(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096, IBV_ACCESS_LOCAL_WRITE | 1u << 29);
}

static void s_mr_reg_optional(struct t_st *st)
{
	t_mr_step(st, t_page(), 4096,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
}

static void s_mr_reg_len0(struct t_st *st)
{
	t_mr_step(st, t_page(), 0, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_reg_null(struct t_st *st)
{
	t_mr_step(st, NULL, 4096, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_rereg_access(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret",
	     lib.ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ));
}

static void s_mr_rereg_bad_flags(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_rereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_rereg_mr(mr, 1 << 20, NULL, NULL, 0, 0));
}

static void s_mr_dereg(struct t_st *st)
{
	struct ibv_mr *mr = t_page_mr(st, IBV_ACCESS_LOCAL_WRITE);

	t_need(ibv_dereg_mr);
	errno = 0;
	t_rc("ret", lib.ibv_dereg_mr(mr));
}

/* ------------------------------------------------------------------ */
/* MW */

static void t_mw_step(struct t_st *st, enum ibv_mw_type type)
{
	struct ibv_mw *mw;

	errno = 0;
	mw = ibv_alloc_mw(st->pd, type);
	if (!t_ptr("ret", mw))
		return;
	t_out("type=%d", mw->type);
	errno = 0;
	t_rc("dealloc", ibv_dealloc_mw(mw));
}

static void s_mw_type1(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_1);
}

static void s_mw_type2(struct t_st *st)
{
	t_mw_step(st, IBV_MW_TYPE_2);
}

/* ------------------------------------------------------------------ */
/* DMA handles (rdma-core 65) */

static void t_dmah_step(struct t_st *st, uint32_t mask)
{
	struct ibv_dmah_init_attr a = { .comp_mask = mask };
	struct ibv_dmah *dmah;

	t_need65(ibv_alloc_dmah);
	t_need65(ibv_dealloc_dmah);
	errno = 0;
	dmah = lib65.ibv_alloc_dmah(st->ctx, &a);
	if (!t_ptr("ret", dmah))
		return;
	t_out("context-matches=%d", dmah->context == st->ctx);
	errno = 0;
	t_rc("dealloc", lib65.ibv_dealloc_dmah(dmah));
}

static void s_dmah_alloc(struct t_st *st)
{
	t_dmah_step(st, 0);
}

static void s_dmah_alloc_cpu(struct t_st *st)
{
	t_dmah_step(st, IBV_DMAH_INIT_ATTR_MASK_CPU_ID);
}

/* A mask bit that no release defines. */
static void s_dmah_alloc_bad_mask(struct t_st *st)
{
	t_dmah_step(st, 1u << 20);
}

/* ------------------------------------------------------------------ */
/* ibv_reg_mr_ex (rdma-core 65) */

/* Register what @a says; on success print the MR and deregister it. */
static void t_reg_ex_step(struct t_st *st, struct ibv_mr_init_attr *a)
{
	struct ibv_mr *mr;

	t_need65(ibv_reg_mr_ex);
	errno = 0;
	mr = lib65.ibv_reg_mr_ex(st->pd, a);
	if (!t_ptr("ret", mr))
		return;
	t_out("lkey!=0=%d length=%zu addr-matches=%d pd-matches=%d",
	      mr->lkey != 0, mr->length, mr->addr == a->addr, mr->pd == st->pd);
	t_need(ibv_dereg_mr);
	errno = 0;
	t_rc("dereg", lib.ibv_dereg_mr(mr));
}

/* The page of t_page() by address, with @mask beside IBV_REG_MR_MASK_ADDR. */
static void t_reg_ex_page(struct t_st *st, uint64_t mask, int access)
{
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = access,
		.comp_mask = IBV_REG_MR_MASK_ADDR | mask,
		.iova = 0x200000,
		.addr = t_page(),
	};

	t_reg_ex_step(st, &a);
}

static void s_mr_reg_ex_addr(struct t_st *st)
{
	t_reg_ex_page(st, 0,
		      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ);
}

static void s_mr_reg_ex_iova(struct t_st *st)
{
	t_reg_ex_page(st, IBV_REG_MR_MASK_IOVA, IBV_ACCESS_LOCAL_WRITE);
}

static void s_mr_reg_ex_optional(struct t_st *st)
{
	t_reg_ex_page(st, 0,
		      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
}

/* A mask bit that no release defines. */
static void s_mr_reg_ex_bad_mask(struct t_st *st)
{
	t_reg_ex_page(st, 1ull << 40, IBV_ACCESS_LOCAL_WRITE);
}

/* Neither an address nor a dma-buf: nothing to register. */
static void s_mr_reg_ex_no_memory(struct t_st *st)
{
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = IBV_ACCESS_LOCAL_WRITE,
	};

	t_reg_ex_step(st, &a);
}

/* A dma-buf needs its offset and IOVA too. */
static void s_mr_reg_ex_fd_alone(struct t_st *st)
{
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = IBV_ACCESS_LOCAL_WRITE,
		.comp_mask = IBV_REG_MR_MASK_FD,
		.fd = -1,
	};

	t_reg_ex_step(st, &a);
}

/* The page with a DMA handle, where the device gives one. */
static void s_mr_reg_ex_dmah(struct t_st *st)
{
	struct ibv_dmah_init_attr da = { .comp_mask = 0 };
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = IBV_ACCESS_LOCAL_WRITE,
		.comp_mask = IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH,
		.addr = t_page(),
	};

	t_need65(ibv_alloc_dmah);
	errno = 0;
	a.dmah = lib65.ibv_alloc_dmah(st->ctx, &da);
	if (!t_ptr("dmah", a.dmah))
		return;
	t_reg_ex_step(st, &a);
}

/* ------------------------------------------------------------------ */
/* The dma-buf of device memory (rdma-core 65) */

/* A descriptor, or -1 with errno: its number may differ, so not printed. */
static void t_fd_result(int fd)
{
	int e = errno;

	if (fd >= 0) {
		t_out("ret=fd errno=-");
		close(fd);
		return;
	}
	errno = e;
	t_num("ret", fd);
}

/* Only a device with memory of its own has one; the step says which. */
static void s_dm_export_dmabuf_fd(struct t_st *st)
{
	struct ibv_alloc_dm_attr a = { .length = 4096 };
	struct ibv_dm *dm;

	t_need65(ibv_dm_export_dmabuf_fd);
	errno = 0;
	dm = ibv_alloc_dm(st->ctx, &a);
	if (!t_ptr("alloc_dm", dm))
		return;
	errno = 0;
	t_fd_result(lib65.ibv_dm_export_dmabuf_fd(dm));
}

/* ------------------------------------------------------------------ */
/* Buffers of the provider (rdma-core 65) */

#define T_BUF_SIZE 8192

/* A buffer of T_BUF_SIZE bytes for @pd, or the step ends. */
static char *t_buf(struct ibv_pd *pd, struct ibv_buf **buf)
{
	void *addr;

	t_need65(ibv_alloc_buf);
	errno = 0;
	addr = lib65.ibv_alloc_buf(pd, T_BUF_SIZE, buf);
	if (!addr)
		t_setup_failed("alloc_buf");
	return addr;
}

static void s_buf_alloc(struct t_st *st)
{
	struct ibv_buf *buf = NULL;
	void *addr;

	t_need65(ibv_alloc_buf);
	t_need65(ibv_free_buf);
	errno = 0;
	addr = lib65.ibv_alloc_buf(st->pd, T_BUF_SIZE, &buf);
	if (!t_ptr("ret", addr))
		return;
	t_out("page-aligned=%d handle=%d", (uintptr_t)addr % 4096 == 0,
	      buf != NULL);
	/* Writable over its whole size, then given back. */
	((char *)addr)[T_BUF_SIZE - 1] = 1;
	lib65.ibv_free_buf(buf);
	t_out("free=done");
}

/* Plain memory has no dma-buf: ENODATA. */
static void s_buf_export_dmabuf_fd(struct t_st *st)
{
	struct ibv_buf *buf;

	t_buf(st->pd, &buf);
	t_need65(ibv_export_buf_dmabuf_fd);
	errno = 0;
	t_fd_result(lib65.ibv_export_buf_dmabuf_fd(buf));
}

/* Register [off, off + len) of a buffer of @pd with ibv_reg_buf_mr(). */
static void t_buf_mr_step(struct t_st *st, struct ibv_pd *pd, long off,
			  size_t len)
{
	struct ibv_buf *buf;
	char *addr = t_buf(pd, &buf);
	struct ibv_mr *mr;

	t_need65(ibv_reg_buf_mr);
	errno = 0;
	mr = lib65.ibv_reg_buf_mr(st->pd, buf, addr + off, len,
				  IBV_ACCESS_LOCAL_WRITE);
	if (!t_ptr("ret", mr))
		return;
	t_out("lkey!=0=%d length=%zu addr-matches=%d", mr->lkey != 0,
	      mr->length, mr->addr == addr + off);
	t_need(ibv_dereg_mr);
	errno = 0;
	t_rc("dereg", lib.ibv_dereg_mr(mr));
}

static void s_buf_reg_mr(struct t_st *st)
{
	t_buf_mr_step(st, st->pd, 0, 4096);
}

static void s_buf_reg_mr_whole(struct t_st *st)
{
	t_buf_mr_step(st, st->pd, 0, T_BUF_SIZE);
}

static void s_buf_reg_mr_tail(struct t_st *st)
{
	t_buf_mr_step(st, st->pd, 4096, 4096);
}

/* Past the end of the buffer, and from before its start: EINVAL. */
static void s_buf_reg_mr_past_end(struct t_st *st)
{
	t_buf_mr_step(st, st->pd, 4096, T_BUF_SIZE);
}

static void s_buf_reg_mr_before(struct t_st *st)
{
	t_buf_mr_step(st, st->pd, -1, 4096);
}

/* A buffer of another PD than the registration's: EINVAL. */
static void s_buf_reg_mr_other_pd(struct t_st *st)
{
	struct ibv_pd *pd;

	t_need(ibv_alloc_pd);
	errno = 0;
	pd = lib.ibv_alloc_pd(st->ctx);
	if (!pd)
		t_setup_failed("alloc_pd");
	t_buf_mr_step(st, pd, 0, 4096);
}

/* A buffer through ibv_reg_mr_ex() itself, with @mask beside BUF. */
static void t_buf_reg_ex(struct t_st *st, uint64_t mask)
{
	struct ibv_mr_init_attr a = {
		.length = 4096,
		.access = IBV_ACCESS_LOCAL_WRITE,
		.comp_mask = IBV_REG_MR_MASK_BUF | mask,
		.iova = 0x200000,
		.fd = -1,
	};

	a.addr = t_buf(st->pd, &a.buf);
	t_reg_ex_step(st, &a);
}

static void s_buf_reg_ex_iova(struct t_st *st)
{
	t_buf_reg_ex(st, IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA);
}

/* The range must be given by address, and not as a dma-buf: EINVAL. */
static void s_buf_reg_ex_no_addr(struct t_st *st)
{
	t_buf_reg_ex(st, 0);
}

static void s_buf_reg_ex_fd(struct t_st *st)
{
	t_buf_reg_ex(st, IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD |
				 IBV_REG_MR_MASK_FD_OFFSET);
}

static const struct t_step mr_steps[] = {
	{ "pd.alloc", T_CTX, s_pd_alloc },
	{ "pd.dealloc", T_PD, s_pd_dealloc },
	{ "pd.dealloc.busy", T_PD, s_pd_dealloc_busy },
	{ "mr.reg.local", T_PD, s_mr_reg_local },
	{ "mr.reg.rw", T_PD, s_mr_reg_rw },
	{ "mr.reg.atomic", T_PD, s_mr_reg_atomic },
	{ "mr.reg.remote_without_local", T_PD, s_mr_reg_rw_nolocal },
	{ "mr.reg.bad_bits", T_PD, s_mr_reg_bad_bits },
	{ "mr.reg.optional_bits", T_PD, s_mr_reg_optional },
	{ "mr.reg.len0", T_PD, s_mr_reg_len0 },
	{ "mr.reg.null", T_PD, s_mr_reg_null },
	{ "mr.rereg.access", T_PD, s_mr_rereg_access },
	{ "mr.rereg.bad_flags", T_PD, s_mr_rereg_bad_flags },
	{ "mr.dereg", T_PD, s_mr_dereg },
	{ "mw.alloc.type1", T_PD, s_mw_type1 },
	{ "mw.alloc.type2", T_PD, s_mw_type2 },
	{ "dmah.alloc", T_CTX, s_dmah_alloc },
	{ "dmah.alloc.cpu_id", T_CTX, s_dmah_alloc_cpu },
	{ "dmah.alloc.bad_mask", T_CTX, s_dmah_alloc_bad_mask },
	{ "mr.reg_ex.addr", T_PD, s_mr_reg_ex_addr },
	{ "mr.reg_ex.iova", T_PD, s_mr_reg_ex_iova },
	{ "mr.reg_ex.optional_bits", T_PD, s_mr_reg_ex_optional },
	{ "mr.reg_ex.bad_mask", T_PD, s_mr_reg_ex_bad_mask },
	{ "mr.reg_ex.no_memory", T_PD, s_mr_reg_ex_no_memory },
	{ "mr.reg_ex.fd_alone", T_PD, s_mr_reg_ex_fd_alone },
	{ "mr.reg_ex.dmah", T_PD, s_mr_reg_ex_dmah },
	{ "dm.export_dmabuf_fd", T_CTX, s_dm_export_dmabuf_fd },
	{ "buf.alloc", T_PD, s_buf_alloc },
	{ "buf.export_dmabuf_fd", T_PD, s_buf_export_dmabuf_fd },
	{ "buf.reg_mr", T_PD, s_buf_reg_mr },
	{ "buf.reg_mr.whole", T_PD, s_buf_reg_mr_whole },
	{ "buf.reg_mr.tail", T_PD, s_buf_reg_mr_tail },
	{ "buf.reg_mr.past_end", T_PD, s_buf_reg_mr_past_end },
	{ "buf.reg_mr.before", T_PD, s_buf_reg_mr_before },
	{ "buf.reg_mr.other_pd", T_PD, s_buf_reg_mr_other_pd },
	{ "buf.reg_mr_ex.iova", T_PD, s_buf_reg_ex_iova },
	{ "buf.reg_mr_ex.no_addr", T_PD, s_buf_reg_ex_no_addr },
	{ "buf.reg_mr_ex.fd", T_PD, s_buf_reg_ex_fd },
};

const struct t_steps t_mr_steps = T_STEPS(mr_steps);
