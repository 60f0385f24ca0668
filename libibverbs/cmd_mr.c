// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions and memory windows in the command layer: what the
 * provider's reg_mr, rereg_mr, dereg_mr, reg_dmabuf_mr, import_mr,
 * advise_mr, alloc_mw and dealloc_mw ops call.
 *
 * Routing follows rdma-core 44, one of three per command:
 *  - write()-format only (kcmd_write(), which tunnels through INVOKE_WRITE
 *    where it can): REG_MR, REREG_MR, ALLOC_MW;
 *  - an ioctl method with a write() fallback: the two destroys, MR/DESTROY
 *    (DEREG_MR) and MW/DESTROY (DEALLOC_MW);
 *  - ioctl only, since the kernel never had a write() form: QUERY_MR,
 *    ADVISE_MR and REG_DMABUF_MR. Old kernels answer those with the
 *    transport's ENOTTY or EPROTONOSUPPORT, passed through;
 *  - REG_MR (rdma-core 65's ibv_cmd_reg_mr_ex()), one method for both
 *    kinds of memory, falls back to the REG_MR write() for memory by
 *    address, and refuses what that cannot carry (a dma-buf, a DMA
 *    handle) with EOPNOTSUPP, as rdma-core 65 does.
 * The fork tracker is the public verbs' business (verbs_mr.c), not ours.
 */
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "kernel-headers/uverbs_ids.h"

#include "cmd.h"
#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "export.h"
#include "kcmd.h"
#include "util.h"

/**
 * ibv_cmd_reg_mr - have the kernel register (pin) a range of memory
 * @pd: the protection domain
 * @addr, @length: the range; with IBV_ACCESS_ON_DEMAND, a NULL @addr and
 *                 SIZE_MAX @length ask for the whole address space
 * @hca_va: the address the device will use for @addr
 * @access: IBV_ACCESS_* flags
 * @vmr: the provider's MR; the core fields are filled in on success
 * @cmd, @cmd_size, @resp, @resp_size: the write() request and response
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			      uint64_t hca_va, int access, struct verbs_mr *vmr,
			      struct ibv_reg_mr *cmd, size_t cmd_size,
			      struct ib_uverbs_reg_mr_resp *resp,
			      size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_REG_MR,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	cmd->start = ioctl_ptr_to_u64(addr);
	cmd->length = length;
	/* Implicit ODP spans everything; the kernel spells that U64_MAX. */
	if ((access & IBV_ACCESS_ON_DEMAND) && length == SIZE_MAX) {
		if (addr)
			return with_errno(EINVAL);
		cmd->length = UINT64_MAX;
	}
	cmd->response = ioctl_ptr_to_u64(resp);
	cmd->hca_va = hca_va;
	cmd->pd_handle = pd->handle;
	cmd->access_flags = access;
	ret = kcmd_write(pd->context, &w);
	if (ret)
		return ret;
	vmr->ibv_mr.handle = resp->mr_handle;
	vmr->ibv_mr.lkey = resp->lkey;
	vmr->ibv_mr.rkey = resp->rkey;
	vmr->ibv_mr.context = pd->context;
	vmr->mr_type = IBV_MR_TYPE_MR;
	vmr->access = access;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_reg_mr);

/**
 * ibv_cmd_rereg_mr - have the kernel change a registration in place
 * @vmr: the MR
 * @flags: IBV_REREG_MR_CHANGE_* (what to change)
 * @addr, @length, @hca_va: the new range (CHANGE_TRANSLATION)
 * @access: the new access flags (CHANGE_ACCESS)
 * @pd: the new protection domain (CHANGE_PD)
 * @cmd, @cmd_sz, @resp, @resp_sz: the write() request and response
 *
 * Updates the keys (and, with CHANGE_PD, the context) on success; the
 * public verb updates the rest. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags,
				void *addr, size_t length, uint64_t hca_va,
				int access, struct ibv_pd *pd,
				struct ibv_rereg_mr *cmd, size_t cmd_sz,
				struct ib_uverbs_rereg_mr_resp *resp,
				size_t resp_sz)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_REREG_MR,
		KCMD_REQ(cmd, cmd_sz),
		KCMD_RESP(resp, resp_sz),
	};
	int ret;

	cmd->response = ioctl_ptr_to_u64(resp);
	cmd->mr_handle = vmr->ibv_mr.handle;
	cmd->flags = flags;
	cmd->start = ioctl_ptr_to_u64(addr);
	cmd->length = length;
	cmd->hca_va = hca_va;
	/* @pd may be anything unless the caller asked to change it. */
	cmd->pd_handle = (flags & IBV_REREG_MR_CHANGE_PD) ? pd->handle : 0;
	cmd->access_flags = access;
	ret = kcmd_write(vmr->ibv_mr.context, &w);
	if (ret)
		return ret;
	vmr->ibv_mr.lkey = resp->lkey;
	vmr->ibv_mr.rkey = resp->rkey;
	if (flags & IBV_REREG_MR_CHANGE_PD)
		vmr->ibv_mr.context = pd->context;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_rereg_mr);

/* MR/DESTROY, with DEREG_MR for kernels without that method. */
static const struct cmd_destroy mr_destroy = {
	CMD_DESTROY_IDS(MR),
	.command = IB_USER_VERBS_CMD_DEREG_MR,
};

/**
 * ibv_cmd_dereg_mr - have the kernel release a memory registration
 * @vmr: the MR; its memory stays the provider's to free
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_dereg_mr(struct verbs_mr *vmr)
{
	return cmd_destroy_handle(vmr->ibv_mr.context, &mr_destroy,
				  vmr->ibv_mr.handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_dereg_mr);

/**
 * ibv_cmd_query_mr - describe an MR another context registered (import)
 * @pd: the (imported) protection domain the MR belongs to
 * @vmr: filled in: keys, length, handle, context and pd; addr is unknown
 *       and left NULL, and the type is IBV_MR_TYPE_IMPORTED_MR
 * @mr_handle: the kernel's handle of the MR
 *
 * ioctl only. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr,
				uint32_t mr_handle)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR,
			       4);
	struct ibv_mr *mr = &vmr->ibv_mr;
	int ret;

	fill_attr_in_obj(cmdb, UVERBS_ATTR_QUERY_MR_HANDLE, mr_handle);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mr->lkey);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &mr->rkey);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &mr->length);
	ret = execute_ioctl(pd->context, cmdb);
	if (ret)
		return ret;
	mr->handle = mr_handle;
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = NULL;
	vmr->mr_type = IBV_MR_TYPE_IMPORTED_MR;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_query_mr);

/**
 * ibv_cmd_advise_mr - pass a prefetch (or other) hint for ODP memory
 * @pd: the protection domain of the MRs in @sg_list
 * @advice, @flags: enum ibv_advise_mr_advice and IBV_ADVISE_MR_FLAG_*
 * @sg_list, @num_sge: the ranges, by lkey
 *
 * ioctl only. Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_advise_mr(struct ibv_pd *pd,
				 enum ibv_advise_mr_advice advice,
				 uint32_t flags, struct ibv_sge *sg_list,
				 uint32_t num_sge)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR,
			       4);

	fill_attr_in_obj(cmdb, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd->handle);
	fill_attr_const_in(cmdb, UVERBS_ATTR_ADVISE_MR_ADVICE, advice);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_ADVISE_MR_FLAGS, flags);
	fill_attr_in_ptr_array(cmdb, UVERBS_ATTR_ADVISE_MR_SGE_LIST, sg_list,
			       num_sge);
	return execute_ioctl(pd->context, cmdb);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_advise_mr);

/**
 * ibv_cmd_reg_dmabuf_mr - register memory exported by another driver
 * @pd: the protection domain
 * @offset, @length: the range within the dma-buf
 * @iova: the address the device will use for it
 * @fd: the dma-buf file descriptor
 * @access: IBV_ACCESS_* flags
 * @vmr: the provider's MR; filled in on success (addr holds @offset)
 * @driver: the provider's attributes to send along, or NULL
 *
 * Providers of the releases whose ibv_cmd_reg_dmabuf_mr() took seven
 * arguments call it so still: for them @driver is whatever their stack
 * holds there, and is not read (provider_release.c). ioctl only. Returns 0
 * or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				     size_t length, uint64_t iova, int fd,
				     int access, struct verbs_mr *vmr,
				     struct ibv_command_buffer *driver)
{
	struct ibv_command_buffer *link =
		get_priv(pd->context)->abi.dmabuf_args > 7 ? driver : NULL;
	DECLARE_COMMAND_BUFFER_LINK(cmdb, UVERBS_OBJECT_MR,
				    UVERBS_METHOD_REG_DMABUF_MR, 9, link);
	struct ib_uverbs_attr *handle;
	uint32_t lkey, rkey;
	int ret;

	handle = fill_attr_out_obj(cmdb, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey);
	fill_attr_out_ptr(cmdb, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey);
	fill_attr_in_obj(cmdb, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, pd->handle);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, offset);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, length);
	fill_attr_in_uint64(cmdb, UVERBS_ATTR_REG_DMABUF_MR_IOVA, iova);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_REG_DMABUF_MR_FD, fd);
	fill_attr_in_uint32(cmdb, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
			    access);
	ret = execute_ioctl(pd->context, cmdb);
	if (ret)
		return ret;
	cmd_mr_registered(
		vmr, pd,
		read_attr_obj(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, handle), lkey,
		rkey, (void *)(uintptr_t)offset, length, IBV_MR_TYPE_DMABUF_MR);
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_reg_dmabuf_mr);

/*
 * What ibv_cmd_reg_mr_ex() refuses before sending anything (EINVAL, as
 * rdma-core 65): a request that is neither exactly a dma-buf (FD and
 * FD_OFFSET, no ADDR, and the IOVA the kernel needs for it) nor exactly
 * memory by address (ADDR, no FD_OFFSET), implicit ODP with an address,
 * and (our addition: rdma-core 65 reads through the NULL) a DMA handle
 * bit without a handle. Sets the length the kernel gets in @length.
 */
static int reg_mr_ex_check(const struct ibv_mr_init_attr *in, uint64_t *length)
{
	uint64_t mask = in->comp_mask;

	*length = in->length;
	if ((mask & IBV_REG_MR_MASK_DMAH) && !in->dmah)
		return EINVAL;
	if (mask & IBV_REG_MR_MASK_FD) {
		if (!(mask & IBV_REG_MR_MASK_FD_OFFSET) ||
		    (mask & IBV_REG_MR_MASK_ADDR) ||
		    !(mask & IBV_REG_MR_MASK_IOVA))
			return EINVAL;
		return 0;
	}
	if ((mask & IBV_REG_MR_MASK_FD_OFFSET) ||
	    !(mask & IBV_REG_MR_MASK_ADDR))
		return EINVAL;
	/* Implicit ODP spans everything; the kernel spells that U64_MAX. */
	if ((in->access & IBV_ACCESS_ON_DEMAND) && in->length == SIZE_MAX) {
		if (in->addr)
			return EINVAL;
		*length = UINT64_MAX;
	}
	return 0;
}

/* The address the device uses: the IOVA asked for, else the address. */
static uint64_t reg_mr_ex_iova(const struct ibv_mr_init_attr *in)
{
	if (in->comp_mask & IBV_REG_MR_MASK_IOVA)
		return in->iova;
	return ioctl_ptr_to_u64(in->addr);
}

/*
 * A kernel without MR/REG_MR: memory by address goes as the REG_MR
 * write(), without driver data; a dma-buf or a DMA handle cannot.
 */
static int reg_mr_ex_write(struct ibv_pd *pd, struct verbs_mr *vmr,
			   const struct ibv_mr_init_attr *in, uint64_t length)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct ibv_reg_mr req;

	if (in->comp_mask & (IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_DMAH)) {
		explain_no_method(pd->context, UVERBS_OBJECT_MR,
				  KABI_UVERBS_METHOD_REG_MR);
		return with_errno(EOPNOTSUPP);
	}
	return ibv_cmd_reg_mr(pd, in->addr, (size_t)length, reg_mr_ex_iova(in),
			      in->access, vmr, &req, sizeof(req), &resp,
			      sizeof(resp));
}

/**
 * ibv_cmd_reg_mr_ex - register memory by address or a dma-buf (MR/REG_MR)
 * @pd: the protection domain
 * @vmr: the provider's MR; handle, keys, context, type and access are
 *       filled in on success (the public verb sets the rest)
 * @in: what to register; its comp_mask says which form (see
 *      reg_mr_ex_check()) and whether a DMA handle and an IOVA come along
 *
 * The attributes go in rdma-core 65's order. Where the kernel lacks the
 * method, memory by address is registered by the REG_MR write(). Returns
 * 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr,
				 struct ibv_mr_init_attr *in)
{
	DECLARE_COMMAND_BUFFER(cmdb, UVERBS_OBJECT_MR,
			       KABI_UVERBS_METHOD_REG_MR, 11);
	bool by_fd = in->comp_mask & IBV_REG_MR_MASK_FD;
	struct ib_uverbs_attr *handle;
	uint32_t lkey, rkey;
	uint64_t length;
	int ret;

	ret = reg_mr_ex_check(in, &length);
	if (ret)
		return with_errno(ret);
	if (by_fd) {
		fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_REG_MR_FD_OFFSET,
				    in->fd_offset);
		fill_attr_in_fd(cmdb, KABI_UVERBS_ATTR_REG_MR_FD, in->fd);
	} else {
		fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_REG_MR_ADDR,
				    ioctl_ptr_to_u64(in->addr));
	}
	fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_REG_MR_IOVA,
			    reg_mr_ex_iova(in));
	handle = fill_attr_out_obj(cmdb, KABI_UVERBS_ATTR_REG_MR_HANDLE);
	fill_attr_out_ptr(cmdb, KABI_UVERBS_ATTR_REG_MR_RESP_LKEY, &lkey);
	fill_attr_out_ptr(cmdb, KABI_UVERBS_ATTR_REG_MR_RESP_RKEY, &rkey);
	fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_REG_MR_PD_HANDLE, pd->handle);
	fill_attr_in_uint64(cmdb, KABI_UVERBS_ATTR_REG_MR_LENGTH, length);
	fill_attr_in_uint32(cmdb, KABI_UVERBS_ATTR_REG_MR_ACCESS_FLAGS,
			    in->access);
	if (in->comp_mask & IBV_REG_MR_MASK_DMAH)
		fill_attr_in_obj(cmdb, KABI_UVERBS_ATTR_REG_MR_DMA_HANDLE,
				 verbs_get_dmah(in->dmah)->handle);
	if (cmd_route(pd->context, cmdb, &ret) != CMD_DONE)
		return reg_mr_ex_write(pd, vmr, in, length);
	if (ret)
		return ret;
	vmr->ibv_mr.handle =
		read_attr_obj(KABI_UVERBS_ATTR_REG_MR_HANDLE, handle);
	vmr->ibv_mr.context = pd->context;
	vmr->ibv_mr.lkey = lkey;
	vmr->ibv_mr.rkey = rkey;
	vmr->mr_type = by_fd ? IBV_MR_TYPE_DMABUF_MR : IBV_MR_TYPE_MR;
	vmr->access = in->access;
	return 0;
}

/**
 * ibv_cmd_alloc_mw - have the kernel allocate a memory window
 * @pd: the protection domain
 * @type: IBV_MW_TYPE_1 or IBV_MW_TYPE_2
 * @mw: the provider's MW; context, pd, rkey, handle and type are filled in
 * @cmd, @cmd_size, @resp, @resp_size: the write() request and response
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
				struct ibv_mw *mw, struct ibv_alloc_mw *cmd,
				size_t cmd_size,
				struct ib_uverbs_alloc_mw_resp *resp,
				size_t resp_size)
{
	struct kcmd_write_args w = {
		.command = IB_USER_VERBS_CMD_ALLOC_MW,
		KCMD_REQ(cmd, cmd_size),
		KCMD_RESP(resp, resp_size),
	};
	int ret;

	cmd->response = ioctl_ptr_to_u64(resp);
	cmd->pd_handle = pd->handle;
	cmd->mw_type = type;
	memset(cmd->reserved, 0, sizeof(cmd->reserved));
	ret = kcmd_write(pd->context, &w);
	if (ret)
		return ret;
	mw->context = pd->context;
	mw->pd = pd;
	mw->rkey = resp->rkey;
	mw->handle = resp->mw_handle;
	mw->type = type;
	return 0;
}
VERBS_PRIVATE_EXPORT(ibv_cmd_alloc_mw);

/* MW/DESTROY, with DEALLOC_MW for kernels without that method. */
static const struct cmd_destroy mw_destroy = {
	CMD_DESTROY_IDS(MW),
	.command = IB_USER_VERBS_CMD_DEALLOC_MW,
};

/**
 * ibv_cmd_dealloc_mw - have the kernel destroy a memory window
 * @mw: the MW; its memory stays the provider's to free
 *
 * Returns 0 or a positive errno value.
 */
IBV_EXPORT int ibv_cmd_dealloc_mw(struct ibv_mw *mw)
{
	return cmd_destroy_handle(mw->context, &mw_destroy, mw->handle);
}
VERBS_PRIVATE_EXPORT(ibv_cmd_dealloc_mw);
