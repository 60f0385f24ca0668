// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The command layer's shared pieces (cmd.h): one routing rule for
 * commands with an ioctl and a write() form, so that every cmd_<object>.c
 * falls back the same way.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cmd.h"
#include "driver.h"
#include "export.h"
#include "explain.h"
#include "kcmd.h"
#include "util.h"

/*
 * Whether a buffer the provider linked behind the core's has a mandatory
 * attribute besides its driver data: the write() form, which carries
 * the core request and the driver data only, would drop it.
 */
static bool linked_mandatory(const struct ibv_command_buffer *link)
{
	const struct ib_uverbs_attr *a;

	for (a = link->hdr.attrs; a < link->next_attr; a++)
		if (a->attr_id != UVERBS_ATTR_UHW_IN &&
		    a->attr_id != UVERBS_ATTR_UHW_OUT &&
		    (a->flags & UVERBS_ATTR_F_MANDATORY))
			return true;
	return false;
}

/*
 * What the chain allows once the kernel has no ioctl for it. An
 * ioctl-only command ends here (EOPNOTSUPP), which is worth a line in
 * the log.
 */
static enum cmd_route legacy_route(struct ibv_context *ctx,
				   struct ibv_command_buffer *cmdb, int *ret)
{
	bool require_ex = false, ioctl_only = false;
	struct ibv_command_buffer *link;

	for (link = cmdb; link; link = link->next) {
		require_ex |= link->fallback_require_ex;
		ioctl_only |= link->fallback_ioctl_only;
		if (link != cmdb)
			ioctl_only |= linked_mandatory(link);
	}
	if (ioctl_only) {
		explain_no_method(ctx, cmdb->hdr.object_id,
				  cmdb->hdr.method_id);
		*ret = with_errno(EOPNOTSUPP);
		return CMD_DONE;
	}
	return require_ex ? CMD_WRITE_EX : CMD_WRITE;
}

enum cmd_route cmd_route(struct ibv_context *ctx,
			 struct ibv_command_buffer *cmdb, int *ret)
{
	/*
	 * kcmd_ioctl() remembers a refusal, and answers it unsent next
	 * time.
	 */
	*ret = kcmd_ioctl(ctx, cmdb);
	if (*ret == ENOTTY || *ret == EPROTONOSUPPORT)
		return legacy_route(ctx, cmdb, ret);
	return CMD_DONE;
}

void cmd_add_uhw(struct ibv_command_buffer *cmdb, void *cmd, size_t cmd_size,
		 size_t core_in, void *resp, size_t resp_size, size_t core_out)
{
	if (cmd_size > core_in)
		fill_attr_in(cmdb, UVERBS_ATTR_UHW_IN, (char *)cmd + core_in,
			     cmd_size - core_in);
	if (resp_size > core_out)
		fill_attr_out(cmdb, UVERBS_ATTR_UHW_OUT,
			      (char *)resp + core_out, resp_size - core_out);
}

/*
 * Exported (in the provider ABI nodes) for providers' own destroys; set by
 * library initialisation from RDMAV_ALLOW_DISASSOC_DESTROY.
 *
 * One variable per provider ABI, where a function has one definition
 * under both names: a program that reads or sets a library variable has
 * its own copy of the version it links against (a copy relocation), and
 * the library must then use that copy, which only the dynamic linker can
 * name. So the older ABIs' variables are reached through dlvsym(), which
 * finds the copy; both are set together, and either one set allows.
 */
IBV_EXPORT bool verbs_allow_disassociate_destroy;
VERBS_PRIVATE_NEWEST(verbs_allow_disassociate_destroy);
#ifndef _STATIC_LIBRARY_BUILD_
#define OLDER_ABI_COPY(abi, unused)                                      \
	IBV_EXPORT bool verbs_allow_disassociate_destroy_pabi##abi;      \
	VERBS_COMPAT_VERSION(verbs_allow_disassociate_destroy_pabi##abi, \
			     verbs_allow_disassociate_destroy,           \
			     VERBS_PRIVATE_NODE(abi));
IBV_FOR_EACH_OLDER_PABI(OLDER_ABI_COPY, )
#undef OLDER_ABI_COPY

static bool *older_copy(const char *node)
{
	return dlvsym(RTLD_DEFAULT, "verbs_allow_disassociate_destroy", node);
}
#endif

void cmd_allow_disassociate_destroy(void)
{
	verbs_allow_disassociate_destroy = true;
#ifndef _STATIC_LIBRARY_BUILD_
#define SET_COPY(abi, unused)                                     \
	do {                                                      \
		bool *copy = older_copy(VERBS_PRIVATE_NODE(abi)); \
		if (copy)                                         \
			*copy = true;                             \
	} while (0);
	IBV_FOR_EACH_OLDER_PABI(SET_COPY, )
#undef SET_COPY
#endif
}

/* Called after a destroy failed with EIO only: the lookups may take time. */
static bool disassociate_destroy_allowed(void)
{
	bool allowed = verbs_allow_disassociate_destroy;

#ifndef _STATIC_LIBRARY_BUILD_
#define OR_COPY(abi, unused)                                      \
	do {                                                      \
		bool *copy = older_copy(VERBS_PRIVATE_NODE(abi)); \
		allowed |= copy && *copy;                         \
	} while (0);
	IBV_FOR_EACH_OLDER_PABI(OR_COPY, )
#undef OR_COPY
#endif
	return allowed;
}

int cmd_destroy_result(int ret)
{
	if (ret == EIO && disassociate_destroy_allowed())
		return 0;
	return ret;
}

/*
 * The write() forms of the destroys come in three layouts: the handle
 * alone, the handle behind the response pointer (a basic command with
 * an answer), the handle behind a comp_mask (extended). One struct of
 * each stands for all, which the assertions below hold to.
 */
union destroy_req {
	struct ibv_dealloc_pd basic;
	struct ibv_destroy_qp answered;
	struct ibv_destroy_wq ex;
};

#define SAME_LAYOUT(a, fa, b, fb)                              \
	_Static_assert(sizeof(struct a) == sizeof(struct b) && \
			       offsetof(struct a, fa) ==       \
				       offsetof(struct b, fb), \
		       #a " is laid out like " #b)
SAME_LAYOUT(ibv_destroy_ah, ah_handle, ibv_dealloc_pd, pd_handle);
SAME_LAYOUT(ibv_close_xrcd, xrcd_handle, ibv_dealloc_pd, pd_handle);
SAME_LAYOUT(ibv_dereg_mr, mr_handle, ibv_dealloc_pd, pd_handle);
SAME_LAYOUT(ibv_dealloc_mw, mw_handle, ibv_dealloc_pd, pd_handle);
SAME_LAYOUT(ibv_destroy_cq, cq_handle, ibv_destroy_qp, qp_handle);
SAME_LAYOUT(ibv_destroy_srq, srq_handle, ibv_destroy_qp, qp_handle);
SAME_LAYOUT(ibv_destroy_flow, flow_handle, ibv_destroy_wq, wq_handle);
SAME_LAYOUT(ibv_destroy_rwq_ind_table, ind_tbl_handle, ibv_destroy_wq,
	    wq_handle);

static int destroy_write(struct ibv_context *ctx, const struct cmd_destroy *d,
			 uint32_t handle, void *resp)
{
	union destroy_req req = { 0 };
	struct kcmd_write_args w = {
		.command = d->command,
		.extended = d->extended,
		.req = &req,
		.resp = resp,
		.resp_core = d->resp_len,
		.resp_len = d->resp_len,
	};

	if (d->extended) {
		req.ex.wq_handle = handle;
		w.req_core = sizeof(req.ex);
	} else if (d->resp_len) {
		/* kcmd_write() names an extended command's response itself. */
		req.answered.response = ioctl_ptr_to_u64(resp);
		req.answered.qp_handle = handle;
		w.req_core = sizeof(req.answered);
	} else {
		req.basic.pd_handle = handle;
		w.req_core = sizeof(req.basic);
	}
	w.req_len = w.req_core;
	return kcmd_write(ctx, &w);
}

/*
 * A destroy carries no provider data, so it needs no command buffer: the
 * method is built in place and sent by kcmd_call(), which also answers
 * a method the kernel has refused before without a system call.
 */
int cmd_destroy(struct ibv_context *ctx, const struct cmd_destroy *d,
		uint32_t handle, void *resp)
{
	union kcmd_call c;
	unsigned int n = 0;
	int ret;

	/* Answer before handle: the order rdma-core 44 sends them in. */
	if (d->ioctl_resp_len)
		kcmd_attr_out(&c, n++, d->resp_attr,
			      (char *)resp + d->ioctl_resp_off,
			      d->ioctl_resp_len);
	kcmd_attr(&c, n++, d->handle_attr, 0, handle);
	ret = kcmd_call(ctx, &c, n, d->object_id, d->method_id);
	if (ret == ENOTTY || ret == EPROTONOSUPPORT)
		ret = destroy_write(ctx, d, handle, resp);
	return ret;
}

/*
 * The answers of the destroys cmd_destroy_acked() serves; in each the
 * ioctl form returns just the u32 count of events.
 */
union acked_resp {
	struct ib_uverbs_destroy_qp_resp qp;
	struct ib_uverbs_destroy_srq_resp srq;
	struct ib_uverbs_ex_destroy_wq_resp wq;
};

int cmd_destroy_acked(struct ibv_context *ctx, const struct cmd_destroy *d,
		      uint32_t handle, pthread_mutex_t *mutex,
		      pthread_cond_t *cond, const uint32_t *acked)
{
	union acked_resp resp = { 0 };
	uint32_t reported;
	int ret;

	ret = cmd_destroy(ctx, d, handle, &resp);
	/* An object of a vanished device has no events left to wait for. */
	if (ret)
		return cmd_destroy_result(ret);
	memcpy(&reported, (char *)&resp + d->ioctl_resp_off, sizeof(reported));
	pthread_mutex_lock(mutex);
	while (*acked != reported)
		pthread_cond_wait(cond, mutex);
	pthread_mutex_unlock(mutex);
	return 0;
}
