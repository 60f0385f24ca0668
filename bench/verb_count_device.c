// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verb_count's device verbs (open, close, the queries) and memory verbs
 * (PD, MR, MW). An object is created and destroyed in turn, each verb by
 * its counted function; what a later verb needs beside it is made with
 * plain, uncounted calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "verb_count.h"

static void open_close(struct vc *v, int n)
{
	struct ibv_context *ctx;

	for (int i = 0; i < n; i++) {
		ctx = vc_op_open_device(v->dev);
		vc_note_obj(VC_OPEN_DEVICE, ctx);
		if (!ctx) {
			vc_skip(VC_CLOSE_DEVICE, "open_device failed");
			continue;
		}
		vc_note(VC_CLOSE_DEVICE, vc_op_close_device(ctx));
	}
}

/* A table result is a count of entries or a negative errno value. */
static void gid_table(struct vc *v, int n)
{
	struct ibv_gid_entry *t = calloc(v->gid_tbl_len, sizeof(*t));
	ssize_t ret;

	if (!t)
		die("out of memory");
	for (int i = 0; i < n; i++) {
		ret = vc_op_query_gid_table(v->ctx, t, v->gid_tbl_len);
		vc_note(VC_QUERY_GID_TABLE, ret < 0 ? (int)-ret : 0);
	}
	free(t);
}

void vc_run_device(struct vc *v, int n)
{
	struct ibv_device_attr da;
	struct ibv_device_attr_ex dax;
	struct ibv_port_attr pa;
	struct ibv_gid_entry ge;
	union ibv_gid gid;
	__be16 pkey;
	int i;

	open_close(v, n);
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_DEVICE, vc_op_query_device(v->ctx, &da));
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_DEVICE_EX,
			vc_op_query_device_ex(v->ctx, &dax));
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_PORT, vc_op_query_port(v->ctx, &pa));
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_GID,
			vc_op_query_gid(v->ctx, v->gid_index, &gid));
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_GID_EX,
			vc_op_query_gid_ex(v->ctx, v->gid_index, &ge));
	gid_table(v, n);
	for (i = 0; i < n; i++)
		vc_note(VC_QUERY_PKEY, vc_op_query_pkey(v->ctx, &pkey));
}

static void rereg(struct vc *v, int n)
{
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	struct ibv_mr *mr = ibv_reg_mr(v->pd, v->buf_4k, VC_SIZE_4K, access);

	if (!mr)
		die("ibv_reg_mr: %s", strerror(errno));
	for (int i = 0; i < n; i++) {
		/* Every call changes something: remote write off, then on. */
		access ^= IBV_ACCESS_REMOTE_WRITE;
		vc_note(VC_REREG_MR_ACCESS, vc_op_rereg_mr_access(mr, access));
	}
	if (ibv_dereg_mr(mr))
		die("ibv_dereg_mr after rereg_mr: %s", strerror(errno));
}

static void mw(struct vc *v, int n)
{
	struct ibv_mw *mw;

	for (int i = 0; i < n; i++) {
		mw = vc_op_alloc_mw(v->pd);
		vc_note_obj(VC_ALLOC_MW, mw);
		if (!mw) {
			vc_skip(VC_DEALLOC_MW, "alloc_mw refused");
			continue;
		}
		vc_note(VC_DEALLOC_MW, vc_op_dealloc_mw(mw));
	}
}

void vc_run_pd(struct vc *v, int n)
{
	struct ibv_pd *pd;

	for (int i = 0; i < n; i++) {
		pd = vc_op_alloc_pd(v->ctx);
		vc_note_obj(VC_ALLOC_PD, pd);
		if (!pd) {
			vc_skip(VC_DEALLOC_PD, "alloc_pd failed");
			continue;
		}
		vc_note(VC_DEALLOC_PD, vc_op_dealloc_pd(pd));
	}
	rereg(v, n);
	mw(v, n);
}

void vc_run_mr(struct vc *v, int n)
{
	struct ibv_mr *mr;
	int i;

	for (i = 0; i < n; i++) {
		mr = vc_op_reg_mr_4k(v->pd, v->buf_4k, VC_SIZE_4K);
		vc_note_obj(VC_REG_MR_4K, mr);
		if (!mr) {
			vc_skip(VC_DEREG_MR_4K, "reg_mr_4k failed");
			continue;
		}
		vc_note(VC_DEREG_MR_4K, vc_op_dereg_mr_4k(mr));
	}
	for (i = 0; i < n; i++) {
		mr = vc_op_reg_mr_1m(v->pd, v->buf_1m, VC_SIZE_1M);
		vc_note_obj(VC_REG_MR_1M, mr);
		if (!mr) {
			vc_skip(VC_DEREG_MR_1M, "reg_mr_1m failed");
			continue;
		}
		vc_note(VC_DEREG_MR_1M, vc_op_dereg_mr_1m(mr));
	}
}
