// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a registration failed (explain.h): access flags the verbs forbid
 * or the device cannot honour, pinned memory over RLIMIT_MEMLOCK, and
 * the comp_mask forms of ibv_reg_mr_ex() that the library refuses.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "driver.h"
#include "explain.h"
#include "explain_line.h"

/* Every bit an IBV_ACCESS_* flag of rdma-core 44 may set. */
#define KNOWN_ACCESS (((unsigned int)IBV_ACCESS_HUGETLB << 1) - 1)

/*
 * The combinations the kernel refuses before any driver sees them
 * (EINVAL), and on-demand paging on a device without it (EOPNOTSUPP).
 */
static void check_access(struct line *l, struct ibv_context *ctx,
			 unsigned int access)
{
	unsigned int unknown =
		access &
		~(KNOWN_ACCESS | (unsigned int)IBV_ACCESS_OPTIONAL_RANGE);
	struct ibv_device_attr_ex ex;

	if (unknown) {
		line_clause(l);
		line_add(
			l,
			"access 0x%x has bits 0x%x that no IBV_ACCESS_ flag defines",
			access, unknown);
	}
	if (access & IBV_ACCESS_LOCAL_WRITE)
		goto odp;
	if (access & IBV_ACCESS_REMOTE_WRITE) {
		line_clause(l);
		line_add(
			l,
			"IBV_ACCESS_REMOTE_WRITE needs IBV_ACCESS_LOCAL_WRITE");
	}
	if (access & IBV_ACCESS_REMOTE_ATOMIC) {
		line_clause(l);
		line_add(
			l,
			"IBV_ACCESS_REMOTE_ATOMIC needs IBV_ACCESS_LOCAL_WRITE");
	}
odp:
	if ((access & IBV_ACCESS_ON_DEMAND) && explain_device_attr(ctx, &ex) &&
	    !(ex.odp_caps.general_caps & IBV_ODP_SUPPORT)) {
		line_clause(l);
		line_add(
			l,
			"IBV_ACCESS_ON_DEMAND, but the device reports no on-demand paging");
	}
}

/* A "Key:   N kB" line of /proc/self/status, in bytes. */
static bool proc_status(const char *key, uint64_t *bytes)
{
	FILE *f = fopen("/proc/self/status", "re");
	size_t klen = strlen(key);
	unsigned long long kb;
	char buf[128];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(buf, sizeof(buf), f))
		found = !strncmp(buf, key, klen) && buf[klen] == ':' &&
			sscanf(buf + klen + 1, "%llu", &kb) == 1;
	fclose(f);
	if (found)
		*bytes = (uint64_t)kb * 1024;
	return found;
}

/*
 * Whether this process is in the initial user namespace, where every
 * uid maps to itself ("0 0 4294967295"); true if the map cannot be read.
 */
static bool initial_user_ns(void)
{
	FILE *f = fopen("/proc/self/uid_map", "re");
	unsigned long inner, outer, count;
	bool ret = true;

	if (!f)
		return true;
	if (fscanf(f, "%lu %lu %lu", &inner, &outer, &count) == 3)
		ret = !inner && !outer && count == 4294967295UL;
	fclose(f);
	return ret;
}

/*
 * Whether the kernel lets this process pin without limit. It checks the
 * capability CAP_IPC_LOCK in the initial user namespace, not the user:
 * root in a container that dropped the capability, or that runs in a
 * user namespace of its own, is limited like anyone. If the question
 * fails, root is taken to have it.
 */
static bool may_lock_unlimited(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &hdr, data))
		return geteuid() == 0;
	return (data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &
		CAP_TO_MASK(CAP_IPC_LOCK)) &&
	       initial_user_ns();
}

/*
 * Registered pages count against RLIMIT_MEMLOCK in the kernel's pinned
 * total (VmPin; VmLck on kernels that do not show it).
 */
static void memlock(struct line *l, const void *addr, size_t length)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = (uintptr_t)addr & ~(page - 1);
	uint64_t end = ((uintptr_t)addr + length + page - 1) & ~(page - 1);
	uint64_t pinned;
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    may_lock_unlimited())
		return;
	if (!proc_status("VmPin", &pinned) && !proc_status("VmLck", &pinned))
		return;
	if (pinned + (end - start) <= rl.rlim_cur)
		return;
	line_clause(l);
	line_add(l,
		 "%" PRIu64 " bytes more to pin, %" PRIu64
		 " of RLIMIT_MEMLOCK %llu already pinned",
		 end - start, pinned, (unsigned long long)rl.rlim_cur);
	if (geteuid() == 0)
		line_add(l, " (root, but without CAP_IPC_LOCK)");
}

/* The causes of a failed registration of @length bytes at @addr. */
static void reg_mr_causes(struct line *l, struct ibv_context *ctx,
			  const void *addr, size_t length, unsigned int access,
			  int err)
{
	if (err == EINVAL || err == EOPNOTSUPP)
		check_access(l, ctx, access);
	/* The kernel's answer to a pin over the limit is ENOMEM. */
	else if (addr && !(access & IBV_ACCESS_ON_DEMAND) &&
		 (err == ENOMEM || err == EPERM || err == EAGAIN ||
		  err == EFAULT))
		memlock(l, addr, length);
}

void explain_reg_mr(struct ibv_context *ctx, const char *verb, const void *addr,
		    size_t length, unsigned int access)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	reg_mr_causes(&l, ctx, addr, length, access, saved);
	line_emit(ctx, verb, &l);
	errno = saved;
}

/* Every IBV_REG_MR_MASK_* flag of rdma-core 65. */
#define KNOWN_REG_MR_MASK (((uint64_t)IBV_REG_MR_MASK_BUF << 1) - 1)

/* The ibv_mr_init_attr.comp_mask combinations the library refuses. */
static void check_mr_form(struct line *l, const struct ibv_mr_init_attr *in)
{
	uint64_t mask = in->comp_mask;
	const char *why = NULL;

	if (mask & IBV_REG_MR_MASK_FD) {
		if (mask & IBV_REG_MR_MASK_ADDR)
			why = "IBV_REG_MR_MASK_FD and _ADDR: one memory form at a time";
		else if (!(mask & IBV_REG_MR_MASK_FD_OFFSET))
			why = "IBV_REG_MR_MASK_FD without _FD_OFFSET";
		else if (!(mask & IBV_REG_MR_MASK_IOVA))
			why = "IBV_REG_MR_MASK_FD without _IOVA, which a dma-buf needs";
	} else if (!(mask & IBV_REG_MR_MASK_ADDR)) {
		why = "neither IBV_REG_MR_MASK_ADDR nor IBV_REG_MR_MASK_FD";
	} else if (mask & IBV_REG_MR_MASK_FD_OFFSET) {
		why = "IBV_REG_MR_MASK_FD_OFFSET without IBV_REG_MR_MASK_FD";
	} else if ((in->access & IBV_ACCESS_ON_DEMAND) &&
		   in->length == SIZE_MAX && in->addr) {
		why = "implicit on-demand paging (length SIZE_MAX) with an address";
	}
	if ((mask & IBV_REG_MR_MASK_DMAH) && !in->dmah)
		why = "IBV_REG_MR_MASK_DMAH with a NULL dmah";
	if (why) {
		line_clause(l);
		line_add(l, "comp_mask: %s", why);
	}
}

void explain_reg_mr_ex(struct ibv_context *ctx,
		       const struct ibv_mr_init_attr *in)
{
	bool by_addr = !(in->comp_mask & IBV_REG_MR_MASK_FD);
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	line_unknown_bits(&l, "comp_mask", in->comp_mask, KNOWN_REG_MR_MASK,
			  "IBV_REG_MR_MASK_");
	if (saved == EINVAL)
		check_mr_form(&l, in);
	reg_mr_causes(&l, ctx, by_addr ? in->addr : NULL, in->length,
		      (unsigned int)in->access, saved);
	line_emit(ctx, "reg_mr_ex", &l);
	errno = saved;
}

void explain_reg_buf_mr(struct ibv_context *ctx, const char *why)
{
	explain_one(ctx, "reg_mr_ex", "the buffer (IBV_REG_MR_MASK_BUF): %s",
		    why);
}
