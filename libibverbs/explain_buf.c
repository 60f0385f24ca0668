// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why a verb of provider buffers failed (explain.h): what the library
 * refuses before the provider sees it, and an export that got no new
 * descriptor (plain memory, a dma-buf descriptor the program closed, the
 * descriptor limit).
 */
#include <errno.h>
#include <sys/resource.h>

#include "explain.h"
#include "explain_line.h"

void explain_buf(struct ibv_context *ctx, const char *verb, const char *why)
{
	explain_one(ctx, verb, "%s", why);
}

void explain_export_buf(struct ibv_context *ctx, int fd)
{
	int saved = errno;
	struct rlimit rl;
	struct line l;

	if (!explain_enabled())
		return;
	line_start(&l);
	switch (saved) {
	case ENODATA:
		line_clause(&l);
		line_add(&l,
			 "the buffer is plain memory: no dma-buf to export");
		break;
	case EBADF:
		line_clause(&l);
		line_add(&l, "the buffer's dma-buf descriptor %d is not open",
			 fd);
		break;
	case EMFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl))
			break;
		line_clause(&l);
		line_add(
			&l,
			"no file descriptor left for the copy: all %llu that RLIMIT_NOFILE allows are open",
			(unsigned long long)rl.rlim_cur);
		break;
	}
	line_emit(ctx, "export_buf_dmabuf_fd", &l);
	errno = saved;
}
