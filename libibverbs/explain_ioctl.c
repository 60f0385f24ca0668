// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a command could not be sent (explain.h): the kernel has no ioctl
 * interface at all, or not the core method the command needs, and there
 * is no write() form to fall back on. The transport (kcmd.c) and the
 * command router (cmd.c) call it; methods[] names, for each core method,
 * the verb that sends it, so that the line says what the caller did.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>

#include "kernel-headers/uverbs_ids.h"

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "explain_line.h"
#include "util.h"

/* The core ioctl methods, each with the verb that sends it. */
struct method {
	uint16_t object, method;
	const char *name, *verb;
};

#define METHOD(obj, m, verb)                                     \
	{                                                        \
		UVERBS_OBJECT_##obj, UVERBS_METHOD_##m, #m, verb \
	}
/* A method newer than the system's headers: uverbs_ids.h names it. */
#define METHOD_NEW(obj, m, verb)                                           \
	{                                                                  \
		KABI_UVERBS_OBJECT_##obj, KABI_UVERBS_METHOD_##m, #m, verb \
	}
/* ... on an object the system's headers have. */
#define METHOD_NEW_ON(obj, m, verb)                                   \
	{                                                             \
		UVERBS_OBJECT_##obj, KABI_UVERBS_METHOD_##m, #m, verb \
	}
static const struct method methods[] = {
	METHOD(DEVICE, INVOKE_WRITE, "write_command"),
	METHOD(DEVICE, INFO_HANDLES, "info_handles"),
	METHOD(DEVICE, QUERY_PORT, "query_port"),
	METHOD(DEVICE, GET_CONTEXT, "open_device"),
	METHOD(DEVICE, QUERY_CONTEXT, "import_device"),
	METHOD(DEVICE, QUERY_GID_TABLE, "query_gid_table"),
	METHOD(DEVICE, QUERY_GID_ENTRY, "query_gid_ex"),
	METHOD(PD, PD_DESTROY, "dealloc_pd"),
	METHOD(CQ, CQ_CREATE, "create_cq"),
	METHOD(CQ, CQ_DESTROY, "destroy_cq"),
	METHOD(QP, QP_CREATE, "create_qp"),
	METHOD(QP, QP_DESTROY, "destroy_qp"),
	METHOD(SRQ, SRQ_CREATE, "create_srq"),
	METHOD(SRQ, SRQ_DESTROY, "destroy_srq"),
	METHOD(AH, AH_DESTROY, "destroy_ah"),
	METHOD(MR, DM_MR_REG, "reg_dm_mr"),
	METHOD(MR, MR_DESTROY, "dereg_mr"),
	METHOD(MR, ADVISE_MR, "advise_mr"),
	METHOD(MR, QUERY_MR, "query_mr"),
	METHOD(MR, REG_DMABUF_MR, "reg_dmabuf_mr"),
	METHOD(MW, MW_DESTROY, "dealloc_mw"),
	METHOD(FLOW, FLOW_DESTROY, "destroy_flow"),
	METHOD(XRCD, XRCD_DESTROY, "close_xrcd"),
	METHOD(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY, "destroy_rwq_ind_table"),
	METHOD(WQ, WQ_CREATE, "create_wq"),
	METHOD(WQ, WQ_DESTROY, "destroy_wq"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_CREATE, "create_flow_action_esp"),
	METHOD(FLOW_ACTION, FLOW_ACTION_DESTROY, "destroy_flow_action"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_MODIFY, "modify_flow_action_esp"),
	METHOD(DM, DM_ALLOC, "alloc_dm"),
	METHOD(DM, DM_FREE, "free_dm"),
	METHOD(COUNTERS, COUNTERS_CREATE, "create_counters"),
	METHOD(COUNTERS, COUNTERS_DESTROY, "destroy_counters"),
	METHOD(COUNTERS, COUNTERS_READ, "read_counters"),
	METHOD(ASYNC_EVENT, ASYNC_EVENT_ALLOC, "open_device"),
	METHOD_NEW_ON(DEVICE, QUERY_COMP_CNTR_CAPS, "query_comp_cntr_caps"),
	METHOD_NEW_ON(DEVICE, QUERY_PORT_SPEED, "query_port_speed"),
	METHOD_NEW_ON(MR, REG_MR, "reg_mr_ex"),
	METHOD_NEW_ON(QP, QP_ATTACH_COMP_CNTR, "qp_attach_comp_cntr"),
	METHOD_NEW(COMP_CNTR, COMP_CNTR_CREATE, "create_comp_cntr"),
	METHOD_NEW(COMP_CNTR, COMP_CNTR_DESTROY, "destroy_comp_cntr"),
	/* One method for the four updates, one for the two reads. */
	METHOD_NEW(COMP_CNTR, COMP_CNTR_MODIFY, "set_or_inc_comp_cntr"),
	METHOD_NEW(COMP_CNTR, COMP_CNTR_READ, "read_comp_cntr"),
	METHOD_NEW(DMAH, DMAH_ALLOC, "alloc_dmah"),
	METHOD_NEW(DMAH, DMAH_FREE, "dealloc_dmah"),
	METHOD_NEW(DMABUF, DMABUF_ALLOC, "dm_export_dmabuf_fd"),
};
#undef METHOD
#undef METHOD_NEW

static const char *const object_names[] = {
	[UVERBS_OBJECT_DEVICE] = "DEVICE",
	[UVERBS_OBJECT_PD] = "PD",
	[UVERBS_OBJECT_COMP_CHANNEL] = "COMP_CHANNEL",
	[UVERBS_OBJECT_CQ] = "CQ",
	[UVERBS_OBJECT_QP] = "QP",
	[UVERBS_OBJECT_SRQ] = "SRQ",
	[UVERBS_OBJECT_AH] = "AH",
	[UVERBS_OBJECT_MR] = "MR",
	[UVERBS_OBJECT_MW] = "MW",
	[UVERBS_OBJECT_FLOW] = "FLOW",
	[UVERBS_OBJECT_XRCD] = "XRCD",
	[UVERBS_OBJECT_RWQ_IND_TBL] = "RWQ_IND_TBL",
	[UVERBS_OBJECT_WQ] = "WQ",
	[UVERBS_OBJECT_FLOW_ACTION] = "FLOW_ACTION",
	[UVERBS_OBJECT_DM] = "DM",
	[UVERBS_OBJECT_COUNTERS] = "COUNTERS",
	[UVERBS_OBJECT_ASYNC_EVENT] = "ASYNC_EVENT",
	[KABI_UVERBS_OBJECT_DMAH] = "DMAH",
	[KABI_UVERBS_OBJECT_DMABUF] = "DMABUF",
	[KABI_UVERBS_OBJECT_COMP_CNTR] = "COMP_CNTR",
};

static const struct method *find_method(uint16_t object, uint16_t method)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(methods); i++)
		if (methods[i].object == object && methods[i].method == method)
			return &methods[i];
	return NULL;
}

/*
 * "COUNTERS/CREATE": the method's name without its object's prefix
 * (UVERBS_METHOD_COUNTERS_CREATE); numbers for a driver's own methods.
 */
static void add_method(struct line *l, uint16_t object, uint16_t method,
		       const struct method *m)
{
	const char *oname = NULL, *mname;
	size_t olen;

	if (object < ARRAY_SIZE(object_names))
		oname = object_names[object];
	if (!m || !oname) {
		line_add(l, "0x%x/0x%x", object, method);
		return;
	}
	olen = strlen(oname);
	mname = m->name;
	if (!strncmp(mname, oname, olen) && mname[olen] == '_')
		mname += olen + 1;
	line_add(l, "%s/%s", oname, mname);
}

void explain_no_method(struct ibv_context *ctx, uint16_t object_id,
		       uint16_t method_id)
{
	int saved;
	const struct method *m;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	m = find_method(object_id, method_id);
	line_clause(&l);
	if (atomic_load_explicit(&get_priv(ctx)->no_ioctl,
				 memory_order_relaxed))
		line_add(&l, "the kernel has no ioctl interface, needed for ");
	else
		line_add(&l, "the kernel has no ioctl method ");
	add_method(&l, object_id, method_id, m);
	line_emit(ctx, m ? m->verb : "ioctl", &l);
	errno = saved;
}
