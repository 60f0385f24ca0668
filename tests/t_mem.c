// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The memory family tests' fixture (t_mem.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include "libibverbs/fork.h"
#include "t_mem.h"

struct t_mem_kernel fk;
struct t_mem_prov fp;

void t_out_obj(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	assert_non_null(a);
	a->data = v;
}

void t_out_ptr(struct ib_uverbs_ioctl_hdr *h, uint16_t id, const void *v,
	       size_t len)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	assert_non_null(a);
	assert_int_equal(a->len, len);
	memcpy((void *)(uintptr_t)a->data, v, len);
}

void t_out_u32(struct ib_uverbs_ioctl_hdr *h, uint16_t id, uint32_t v)
{
	t_out_ptr(h, id, &v, sizeof(v));
}

/* A basic command's response pointer is the first u64 behind the header. */
static int t_write_resp(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	size_t out = h->out_words * 4u;
	uint64_t resp;

	if (err)
		return err;
	if (out && len >= 16) {
		memcpy(&resp, (const uint8_t *)buf + CMD_RESPONSE, 8);
		memcpy((void *)(uintptr_t)resp, fk.resp,
		       out < fk.resp_len ? out : fk.resp_len);
	}
	return 0;
}

/* The kernel lacks the tunnel unless a case says otherwise. */
int t_setup(void **state)
{
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.on_write = t_write_resp;
	t_vdev.core_support = 0;
	*state = t_context_new(T_DRIVER_ID);
	return 0;
}

void t_expect_destroy_ioctl(unsigned int i, uint16_t obj, uint16_t method,
			    uint32_t handle)
{
	uint8_t want[IOCTL_ATTR(1)], *p;

	p = t_put_ioctl_hdr(want, obj, method, 1);
	t_put_mattr(p, 0, 0, handle);
	t_expect(i, true, want, sizeof(want));
}

void t_expect_destroy_write(unsigned int i, uint32_t cmd, uint32_t handle)
{
	uint8_t want[12], *p;

	p = t_put_write_hdr(want, cmd, sizeof(want), 0);
	t_put32(p, handle);
	t_expect(i, false, want, sizeof(want));
}

/* Every fake op counts its call and keeps the object it was handed. */
static void record(void *arg)
{
	fp.calls++;
	fp.arg = arg;
}

/*
 * The registrations keep their range and access too, and the tracker's
 * count of the range's first page at this moment.
 */
static void record_range(void *arg, void *addr, size_t length, int access)
{
	record(arg);
	fp.addr = addr;
	fp.length = length;
	fp.access = access;
	fp.refcount = verbs_fork_refcount(addr);
}

/* The import ops keep the handle too, in fp.flags. */
static void record_import(void *arg, uint32_t handle)
{
	record(arg);
	fp.flags = handle;
}

static struct ibv_pd *fake_alloc_pd(struct ibv_context *context)
{
	record(context);
	if (fp.fail) {
		errno = fp.fail;
		return NULL;
	}
	return &fp.pd;
}

static int fake_dealloc_pd(struct ibv_pd *pd)
{
	record(pd);
	return fp.fail;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				  uint64_t hca_va, int access)
{
	struct verbs_mr *vmr;

	record_range(pd, addr, length, access);
	fp.iova = hca_va;
	if (fp.fail) {
		errno = fp.fail;
		return NULL;
	}
	vmr = calloc(1, sizeof(*vmr));
	assert_non_null(vmr);
	/* What ibv_cmd_reg_mr() fills in. */
	vmr->ibv_mr.context = pd->context;
	vmr->mr_type = IBV_MR_TYPE_MR;
	vmr->access = access;
	return &vmr->ibv_mr;
}

static struct ibv_mr *fake_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					 size_t length, uint64_t iova, int fd,
					 int access)
{
	struct verbs_mr *vmr = calloc(1, sizeof(*vmr));

	assert_non_null(vmr);
	record(pd);
	fp.iova = iova;
	fp.access = access + fd;
	vmr->mr_type = IBV_MR_TYPE_DMABUF_MR;
	(void)offset;
	(void)length;
	return &vmr->ibv_mr;
}

static int fake_dereg_mr(struct verbs_mr *vmr)
{
	record(vmr);
	if (!fp.fail)
		free(vmr);
	return fp.fail;
}

static int fake_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
			 void *addr, size_t length, int access)
{
	record_range(vmr, addr, length, access);
	fp.flags = flags;
	(void)pd;
	return fp.fail;
}

static struct ibv_pd *fake_import_pd(struct ibv_context *context,
				     uint32_t handle)
{
	record_import(context, handle);
	return &fp.pd;
}

static void fake_unimport_pd(struct ibv_pd *pd)
{
	record(pd);
}

static struct ibv_mr *fake_import_mr(struct ibv_pd *pd, uint32_t handle)
{
	record_import(pd, handle);
	return NULL;
}

static void fake_unimport_mr(struct ibv_mr *mr)
{
	record(mr);
}

static struct ibv_dm *fake_import_dm(struct ibv_context *context,
				     uint32_t handle)
{
	record_import(context, handle);
	return NULL;
}

static void fake_unimport_dm(struct ibv_dm *dm)
{
	record(dm);
}

const struct verbs_context_ops fake_ops = {
	.alloc_pd = fake_alloc_pd,
	.dealloc_pd = fake_dealloc_pd,
	.dereg_mr = fake_dereg_mr,
	.import_dm = fake_import_dm,
	.import_mr = fake_import_mr,
	.import_pd = fake_import_pd,
	.reg_dmabuf_mr = fake_reg_dmabuf_mr,
	.reg_mr = fake_reg_mr,
	.rereg_mr = fake_rereg_mr,
	.unimport_dm = fake_unimport_dm,
	.unimport_mr = fake_unimport_mr,
	.unimport_pd = fake_unimport_pd,
};

int t_verbs_setup(void **state)
{
	t_setup(state);
	verbs_set_ops(verbs_get_ctx(*state), &fake_ops);
	memset(&fp, 0, sizeof(fp));
	fp.pd.context = *state;
	return 0;
}
