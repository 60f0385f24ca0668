// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: what rdmavt, the kernel side of libhfi1verbs and
 * libipathverbs, answers, and the verbs both personas take beyond the
 * generic steps (rvt.h).
 */
#include <string.h>

#include "rvt.h"

static uint64_t next_offset = 4096;

/* Room for a ring of @bytes, at a fresh offset. */
static uint64_t ring(size_t bytes)
{
	return t_next_key(&next_offset, bytes);
}

/* The kernel says where a resized SRQ went, at the provider's address. */
int t_rvt_modify_srq(struct t_uv_cmd *cmd)
{
	uint64_t where, offset = ring(4096);

	if (cmd->drv_in_len < sizeof(where))
		return 0;
	memcpy(&where, cmd->drv_in, sizeof(where));
	memcpy((void *)(uintptr_t)where, &offset, sizeof(offset));
	return 0;
}

/* A new or resized queue's ring. */
int t_rvt_ring(struct t_uv_cmd *cmd)
{
	uint64_t offset = ring(8192);

	return t_drv_answer(cmd, &offset, sizeof(offset));
}

/*
 * The QP's data path (sends through the core, receives in the ring),
 * what the providers have not, and their other verbs of the core.
 */
void t_rvt_dv(const struct t_objs *o)
{
	int ret;

	if (!o->qp)
		return;
	t_data_path(o);
	t_refuse_ex(o);
	t_query_qp(o->qp);
	ret = ibv_resize_cq(o->cq, 100);
	t_uv_note("resize_cq ret=%d cqe=%d", ret, o->cq->cqe);
	t_grow_srq(o->pd);
}
