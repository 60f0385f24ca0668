// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Public verbs of memory regions: registration (plain, by IOVA,
 * dma-buf, and rdma-core 65's ibv_reg_mr_ex() for all of them and the
 * buffers of ibv_alloc_buf()), re-registration, deregistration, and the import of an MR
 * that another process's context shares with ours (ibv_import_device()).
 *
 * What only the library can do happens here, around the provider's call:
 *  - the fork tracker (fork.c): pinned pages must not be shared
 *    copy-on-write with a fork() child, so a registration marks its pages
 *    MADV_DONTFORK before the provider pins them, and undoes that when
 *    the provider fails or the MR goes away. rdma-core 44 leaves out
 *    on-demand-paging MRs (nothing is pinned) and MRs the tracker never
 *    saw (dma-buf, imported, null MRs). With the tracker off every call
 *    still tells it, so that a later ibv_fork_init() refuses (EINVAL);
 *  - the optional access bits, dropped where the kernel does not know
 *    them (verbs_device.core_support, from GET_CONTEXT);
 *  - the core fields of the new object (context, pd, addr, length).
 */
#include <errno.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "fork.h"

/* verbs.h turns calls to these into inline dispatchers; define the real ones. */
#undef ibv_reg_mr
#undef ibv_reg_mr_iova

/* Bits in IBV_ACCESS_OPTIONAL_RANGE are best effort: an old kernel rejects them. */
static unsigned int usable_access(struct ibv_context *ctx, unsigned int access)
{
	struct verbs_device *vdev = verbs_get_device(ctx->device);

	uint64_t core = __atomic_load_n(&vdev->core_support, __ATOMIC_RELAXED);

	if (!(core & IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS))
		access &= ~(unsigned int)IBV_ACCESS_OPTIONAL_RANGE;
	return access;
}

/* The fields every registration verb owns, whatever the provider set. */
static void set_mr_core(struct ibv_mr *mr, struct ibv_pd *pd, void *addr,
			size_t length)
{
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
}

/* Undo a dontfork after a failure, keeping the failure's errno. */
static void undo_dontfork(void *addr, size_t length)
{
	int err = errno;

	verbs_mem_dofork(addr, length);
	errno = err;
}

/**
 * ibv_reg_mr_iova2 - register memory, with the address the device uses
 * @pd: the protection domain
 * @addr, @length: the memory
 * @iova: the address remote and local work requests use for @addr
 * @access: IBV_ACCESS_* flags, optional ones included
 *
 * Returns the MR, or NULL with errno set.
 */
IBV_EXPORT struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr,
					   size_t length, uint64_t iova,
					   unsigned int access)
{
	bool odp = access & IBV_ACCESS_ON_DEMAND;
	unsigned int asked = access;
	struct ibv_mr *mr;
	int ret;

	access = usable_access(pd->context, access);
	/* ODP pins nothing, so there is nothing for fork() to get wrong. */
	if (!odp) {
		ret = verbs_mem_dontfork(addr, length);
		if (ret) {
			errno = ret;
			return NULL;
		}
	}
	mr = get_ops(pd->context)->reg_mr(pd, addr, length, iova, access);
	if (!mr) {
		/* ODP pins nothing: no tracker to undo. */
		if (!odp)
			undo_dontfork(addr, length);
		explain_reg_mr(pd->context, "reg_mr", addr, length, asked);
		return NULL;
	}
	set_mr_core(mr, pd, addr, length);
	return mr;
}

/**
 * ibv_reg_mr - register memory; the device addresses it as @addr
 * @pd, @addr, @length, @access: as for ibv_reg_mr_iova2()
 */
VERBS_DEFAULT_VERSION(ibv_reg_mr, "IBVERBS_1.1");
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, access);
}

/**
 * ibv_reg_mr_iova - register memory, with the address the device uses
 * @pd, @addr, @length, @iova, @access: as for ibv_reg_mr_iova2()
 */
IBV_EXPORT struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr,
					  size_t length, uint64_t iova,
					  int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, iova, access);
}

/**
 * ibv_reg_dmabuf_mr - register memory another driver exported as dma-buf
 * @pd: the protection domain
 * @offset, @length: the range within the dma-buf
 * @iova: the address the device uses for it
 * @fd: the dma-buf's file descriptor
 * @access: IBV_ACCESS_* flags
 *
 * Returns the MR (addr holds @offset), or NULL with errno set.
 */
IBV_EXPORT struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					    size_t length, uint64_t iova,
					    int fd, int access)
{
	const struct verbs_context_ops *ops = get_ops(pd->context);
	struct ibv_mr *mr;

	mr = ops->reg_dmabuf_mr(pd, offset, length, iova, fd, access);
	if (!mr) {
		explain_reg_mr(pd->context, "reg_dmabuf_mr", NULL, length,
			       access);
		return NULL;
	}
	set_mr_core(mr, pd, (void *)(uintptr_t)offset, length);
	return mr;
}

/*
 * A buffer of ibv_alloc_buf() (IBV_REG_MR_MASK_BUF) turned into the form
 * the provider registers: the range [addr, addr + length) of @in must
 * lie in the buffer, which must be of @pd; a buffer behind a dma-buf is
 * registered as that dma-buf, at the range's offset, with addr as its
 * IOVA. The checks and their order are rdma-core 65's, plus a NULL
 * buffer (which it reads through). Returns NULL, or why not (EINVAL).
 */
static const char *from_buf(struct ibv_pd *pd, struct ibv_mr_init_attr *in)
{
	const struct ibv_buf *buf = in->buf;
	uintptr_t addr = (uintptr_t)in->addr;
	uintptr_t off;

	if (!buf)
		return "NULL";
	if (buf->pd != pd)
		return "of another protection domain";
	if (!(in->comp_mask & IBV_REG_MR_MASK_ADDR))
		return "without IBV_REG_MR_MASK_ADDR, the range in it";
	off = addr - (uintptr_t)buf->addr;
	if (addr < (uintptr_t)buf->addr || off > buf->size ||
	    in->length > buf->size - off)
		return "the range is not inside it";
	if (in->comp_mask & (IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET))
		return "with IBV_REG_MR_MASK_FD or _FD_OFFSET";
	in->comp_mask &= ~(uint64_t)IBV_REG_MR_MASK_BUF;
	if (buf->dmabuf_fd == -1)
		return NULL;
	if (in->comp_mask & IBV_REG_MR_MASK_IOVA)
		return "behind a dma-buf, where the IOVA is addr itself";
	in->comp_mask &= ~(uint64_t)IBV_REG_MR_MASK_ADDR;
	in->comp_mask |= IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET |
			 IBV_REG_MR_MASK_IOVA;
	in->fd = buf->dmabuf_fd;
	in->fd_offset = off;
	in->iova = addr;
	return NULL;
}

/*
 * The caller's struct, of which only the members comp_mask names are
 * read: the rest may be stale, or not there at all in a caller's
 * shorter struct of an older layout.
 */
static void copy_mr_init_attr(struct ibv_mr_init_attr *to,
			      const struct ibv_mr_init_attr *in)
{
	uint64_t mask = in->comp_mask;

	*to = (struct ibv_mr_init_attr){
		.length = in->length,
		.access = in->access,
		.comp_mask = mask,
	};
	if (mask & IBV_REG_MR_MASK_IOVA)
		to->iova = in->iova;
	if (mask & IBV_REG_MR_MASK_ADDR)
		to->addr = in->addr;
	if (mask & IBV_REG_MR_MASK_FD)
		to->fd = in->fd;
	if (mask & IBV_REG_MR_MASK_FD_OFFSET)
		to->fd_offset = in->fd_offset;
	if (mask & IBV_REG_MR_MASK_DMAH)
		to->dmah = in->dmah;
	if (mask & IBV_REG_MR_MASK_BUF)
		to->buf = in->buf;
}

/**
 * ibv_reg_mr_ex - register memory by address, dma-buf or buffer
 * @pd: the protection domain
 * @mr_init_attr: the memory and how to register it; comp_mask names the
 *		  members that count (IBV_REG_MR_MASK_*)
 *
 * Memory by address is kept from fork() children as ibv_reg_mr() keeps
 * it (not with on-demand paging). Returns the MR (addr holds the
 * dma-buf offset for a dma-buf), or NULL with errno set.
 */
IBV_EXPORT struct ibv_mr *ibv_reg_mr_ex(struct ibv_pd *pd,
					struct ibv_mr_init_attr *mr_init_attr)
{
	struct ibv_mr_init_attr in;
	const char *why;
	struct ibv_mr *mr;
	bool track;
	int ret;

	if (!mr_init_attr) {
		errno = EINVAL;
		return NULL;
	}
	copy_mr_init_attr(&in, mr_init_attr);
	if (in.comp_mask & IBV_REG_MR_MASK_BUF) {
		why = from_buf(pd, &in);
		if (why) {
			explain_reg_buf_mr(pd->context, why);
			errno = EINVAL;
			return NULL;
		}
	}
	/* As rdma-core 65: the address (NULL without one) of all but these. */
	track = !(in.access & IBV_ACCESS_ON_DEMAND) &&
		!(in.comp_mask & IBV_REG_MR_MASK_FD);
	if (track) {
		ret = verbs_mem_dontfork(in.addr, in.length);
		if (ret) {
			errno = ret;
			return NULL;
		}
	}
	in.access = (int)usable_access(pd->context, (unsigned int)in.access);
	mr = get_ops(pd->context)->reg_mr_ex(pd, &in);
	if (!mr) {
		if (track)
			undo_dontfork(in.addr, in.length);
		/* Explained with the access flags the caller asked for. */
		in.access = mr_init_attr->access;
		explain_reg_mr_ex(pd->context, &in);
		return NULL;
	}
	set_mr_core(mr, pd,
		    in.comp_mask & IBV_REG_MR_MASK_ADDR ?
			    in.addr :
			    (void *)(uintptr_t)in.fd_offset,
		    in.length);
	return mr;
}

/* What rdma-core 44 refuses before asking anyone. */
static bool rereg_input_ok(struct ibv_mr *mr, int flags, void *addr,
			   size_t length, int access)
{
	if (verbs_get_mr(mr)->mr_type != IBV_MR_TYPE_MR)
		return false;
	if (flags & ~IBV_REREG_MR_FLAGS_SUPPORTED)
		return false;
	if ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) && (!addr || !length))
		return false;
	/* New access flags without CHANGE_ACCESS would be silently lost. */
	return !access || (flags & IBV_REREG_MR_CHANGE_ACCESS);
}

/* The provider's half of a re-registration: 0 or its error. */
static int provider_rereg(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
			  void *addr, size_t length, int access)
{
	const struct verbs_context_ops *ops = get_ops(mr->context);

	return ops->rereg_mr(verbs_get_mr(mr), flags, pd, addr, length, access);
}

/*
 * CHANGE_TRANSLATION: the new range is protected before the provider
 * moves the MR, the old one released after it did.
 */
static int rereg_translation(struct ibv_mr *mr, int flags, struct ibv_pd *pd,
			     void *addr, size_t length, int access)
{
	void *old_addr = mr->addr;
	size_t old_length = mr->length;

	if (verbs_mem_dontfork(addr, length))
		return IBV_REREG_MR_ERR_DONT_FORK_NEW;
	if (provider_rereg(mr, flags, pd, addr, length, access)) {
		if (verbs_mem_dofork(addr, length))
			return IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW;
		explain_reg_mr(mr->context, "rereg_mr", addr, length,
			       flags & IBV_REREG_MR_CHANGE_ACCESS ?
				       access :
				       verbs_get_mr(mr)->access);
		return IBV_REREG_MR_ERR_CMD;
	}
	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	if (verbs_mem_dofork(old_addr, old_length))
		return IBV_REREG_MR_ERR_DO_FORK_OLD;
	return 0;
}

/**
 * ibv_rereg_mr - change an MR's range, protection domain or access
 * @mr: a memory region from ibv_reg_mr() and friends
 * @flags: IBV_REREG_MR_CHANGE_* (what to change)
 * @pd: the new PD (CHANGE_PD)
 * @addr, @length: the new range (CHANGE_TRANSLATION)
 * @access: the new access flags (CHANGE_ACCESS)
 *
 * Returns 0 or a negative enum ibv_rereg_mr_err_code: IBV_REREG_MR_ERR_INPUT
 * (errno EINVAL) for arguments refused up front, IBV_REREG_MR_ERR_CMD when
 * the provider failed, the others when the fork tracker did.
 */
VERBS_DEFAULT_VERSION(ibv_rereg_mr, "IBVERBS_1.1");
int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
		 size_t length, int access)
{
	if (!rereg_input_ok(mr, flags, addr, length, access)) {
		errno = EINVAL;
		return IBV_REREG_MR_ERR_INPUT;
	}
	if (flags & IBV_REREG_MR_CHANGE_TRANSLATION)
		return rereg_translation(mr, flags, pd, addr, length, access);
	if (provider_rereg(mr, flags, pd, addr, length, access)) {
		if (flags & IBV_REREG_MR_CHANGE_ACCESS)
			explain_reg_mr(mr->context, "rereg_mr", NULL, 0,
				       access);
		return IBV_REREG_MR_ERR_CMD;
	}
	if (flags & IBV_REREG_MR_CHANGE_PD)
		mr->pd = pd;
	return 0;
}

/**
 * ibv_dereg_mr - release a memory registration
 * @mr: the MR; freed by the provider on success
 *
 * Returns 0 or a positive errno value.
 */
VERBS_DEFAULT_VERSION(ibv_dereg_mr, "IBVERBS_1.1");
int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct verbs_mr *vmr = verbs_get_mr(mr);
	/* Read before the provider frees the MR. */
	bool tracked = vmr->mr_type == IBV_MR_TYPE_MR &&
		       !(vmr->access & IBV_ACCESS_ON_DEMAND);
	void *addr = mr->addr;
	size_t length = mr->length;
	int ret;

	ret = get_ops(mr->context)->dereg_mr(vmr);
	if (!ret && tracked)
		verbs_mem_dofork(addr, length);
	return ret;
}

/**
 * ibv_import_mr - use an MR of an imported context as if it were ours
 * @pd: the (imported) PD the MR belongs to
 * @mr_handle: the MR's handle in the exporting context
 *
 * Returns the MR, or NULL with errno set.
 */
IBV_EXPORT struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	return get_ops(pd->context)->import_mr(pd, mr_handle);
}

/* Forget an imported MR here; the registration stays with its owner. */
IBV_EXPORT void ibv_unimport_mr(struct ibv_mr *mr)
{
	get_ops(mr->context)->unimport_mr(mr);
}
