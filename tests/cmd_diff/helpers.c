// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the helpers of the provider ABI that are not
 * commands of their own (execute_ioctl() with a provider's buffer,
 * verbs_init_cq(), ibv_query_gid_type(), sysfs reads, the log, a second
 * context and the operation tables).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t_diff.h"
#include "t_util.h"

static void case_final_num_attrs(struct ibv_context *ctx)
{
	DECLARE_COMMAND_BUFFER(a, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_QUERY_PORT, 3);
	DECLARE_COMMAND_BUFFER_LINK(b, UVERBS_OBJECT_DEVICE,
				    UVERBS_METHOD_QUERY_PORT, 2, a);

	(void)ctx;
	t_uv_note("empty chain: %u", __ioctl_final_num_attrs(4, a));
	fill_attr_in_uint32(a, TDRV_ATTR_IN, 1);
	fill_attr_in_uint32(a, TDRV_ATTR_IN + 1, 2);
	fill_attr_in_uint32(b, TDRV_ATTR_IN + 2, 3);
	t_uv_note("a: %u", __ioctl_final_num_attrs(4, a));
	t_uv_note("b then a: %u", __ioctl_final_num_attrs(0, b));
	t_uv_note("b total: %u", __btotal);
}

/*
 * A provider that builds a core method itself, its own attributes in a
 * second linked buffer: gathered into one call, outputs scattered back.
 */
static void execute_linked(struct ibv_context *ctx,
			   struct ibv_command_buffer *drv,
			   struct ib_uverbs_query_port_resp_ex *resp,
			   struct ib_uverbs_attr *out)
{
	/* Sized for the driver's attributes, which are filled by now. */
	DECLARE_COMMAND_BUFFER_LINK(cmd, UVERBS_OBJECT_DEVICE,
				    UVERBS_METHOD_QUERY_PORT, 2, drv);
	int ret;

	fill_attr_const_in(cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	fill_attr_out_ptr(cmd, UVERBS_ATTR_QUERY_PORT_RESP, resp);
	ret = execute_ioctl(ctx, cmd);
	t_uv_note("execute_ioctl ret=%d errno=%d num_attrs=%u", ret,
		  ret ? errno : 0, cmd->hdr.num_attrs);
	t_uv_note("uhw_out valid=%d", attr_output_valid(out));
}

static void case_execute_ioctl(struct ibv_context *ctx)
{
	struct ib_uverbs_query_port_resp_ex resp;
	uint64_t drv_out[2];
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_QUERY_PORT, 2);
	struct ib_uverbs_attr *out;

	memset(&resp, 0, sizeof(resp));
	memset(drv_out, 0, sizeof(drv_out));
	t_uv_name("resp", &resp, sizeof(resp));
	t_uv_name("drv_out", drv_out, sizeof(drv_out));
	fill_attr_in_uint64(drv, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE);
	out = fill_attr_out(drv, UVERBS_ATTR_UHW_OUT, drv_out, sizeof(drv_out));
	execute_linked(ctx, drv, &resp, out);
	t_uv_dump("resp", &resp, sizeof(resp));
	t_uv_dump("drv_out", drv_out, sizeof(drv_out));
	t_uv.next_err = EINVAL;
	execute_linked(ctx, drv, &resp, out);
	t_uv_unname(&resp);
	t_uv_unname(drv_out);
}

/* An attribute that did not fit: the call fails unsent. */
static void case_execute_ioctl_overflow(struct ibv_context *ctx)
{
	DECLARE_COMMAND_BUFFER(cmd, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_QUERY_PORT, 1);
	unsigned int calls = t_uv.calls;
	int ret;

	fill_attr_const_in(cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	fill_attr_in_uint32(cmd, TDRV_ATTR_IN, 0);
	ret = execute_ioctl(ctx, cmd);
	t_uv_note("execute_ioctl ret=%d errno=%d system calls=%u", ret, errno,
		  t_uv.calls - calls);
}

/* A method of the driver's own namespace, which the fake's driver has. */
static void case_execute_driver_method(struct ibv_context *ctx)
{
	uint64_t out[3];
	DECLARE_COMMAND_BUFFER(cmd, TDRV_OBJECT, TDRV_METHOD, 3);
	struct ib_uverbs_attr *a;
	int ret;

	memset(out, 0, sizeof(out));
	t_uv_name("out", out, sizeof(out));
	fill_attr_in_uint64(cmd, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE);
	a = fill_attr_out(cmd, TDRV_ATTR_OUT, out, sizeof(out));
	fill_attr_in_fd(cmd, TDRV_ATTR_IN + 1, -1);
	ret = execute_ioctl(ctx, cmd);
	t_uv_note("driver method ret=%d valid=%d", ret, attr_output_valid(a));
	t_uv_dump("out", out, sizeof(out));
	t_uv.next_err = EINVAL;
	ret = execute_ioctl(ctx, cmd);
	t_uv_note("driver method ret=%d errno=%d", ret, ret ? errno : 0);
	t_uv_unname(out);
}

static void init_cq(struct ibv_context *ctx, struct ibv_comp_channel *ch)
{
	struct ibv_cq cq;

	t_diff_stale(&cq, sizeof(cq));
	verbs_init_cq(&cq, ctx, ch, &t_decoy);
	t_uv_dump("cq", &cq, offsetof(struct ibv_cq, mutex));
	t_uv_note("cq comp_events=%u async_events=%u", cq.comp_events_completed,
		  cq.async_events_completed);
	if (ch)
		t_uv_note("channel refcnt=%d", ch->refcnt);
}

static void case_init_cq(struct ibv_context *ctx)
{
	struct ibv_comp_channel *ch;

	t_diff_decoys(ctx);
	init_cq(ctx, NULL);
	ch = ibv_create_comp_channel(ctx);
	if (!ch)
		return;
	t_uv_name("channel", ch, sizeof(*ch));
	init_cq(ctx, ch);
	init_cq(ctx, ch);
	/* Both CQs of the channel are fake: drop their references. */
	ch->refcnt = 0;
	T_NOTE_RET("destroy_comp_channel", ibv_destroy_comp_channel(ch));
}

static void sysfs_file(const char *rel, const char *content)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/class/infiniband/tdrv0/%s",
		 t_diff_sysfs_root, rel);
	t_write(path, content);
}

static void sysfs_dir(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/class/infiniband/tdrv0/%s",
		 t_diff_sysfs_root, rel);
	mkdir(path, 0755);
}

static void gid_type(struct ibv_context *ctx, uint8_t port, unsigned int i)
{
	enum ibv_gid_type_sysfs type = 0x5a;
	int ret;

	errno = 0;
	ret = ibv_query_gid_type(ctx, port, i, &type);
	t_uv_note("query_gid_type(%u, %u) ret=%d errno=%d type=%d", port, i,
		  ret, ret ? errno : 0, type);
}

/*
 * Types the kernel's GID method gives (ioctl), or sysfs (the others).
 * A type file sysfs cannot parse is left out: verbs_gid.c is being
 * reworked, and the errno either library gives for it is that work's.
 */
static void case_query_gid_type(struct ibv_context *ctx)
{
	sysfs_dir("ports");
	sysfs_dir("ports/1");
	sysfs_dir("ports/1/gid_attrs");
	sysfs_dir("ports/1/gid_attrs/types");
	sysfs_dir("ports/2");
	sysfs_file("ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
	sysfs_file("ports/1/gid_attrs/types/1", "RoCE v2\n");
	sysfs_file("ports/1/gid_attrs/types/2", "IB/RoCE v1\n");
	gid_type(ctx, 1, 0);
	gid_type(ctx, 1, 1);
	gid_type(ctx, 1, 2);
	gid_type(ctx, 2, 0);
	gid_type(ctx, 3, 0);
}

static void read_ibdev(struct ibv_context *ctx, size_t size, const char *rel)
{
	struct verbs_device *vdev = verbs_get_device(ctx->device);
	char buf[64];
	int ret;

	memset(buf, 'x', sizeof(buf));
	errno = 0;
	ret = ibv_read_ibdev_sysfs_file(buf, size, vdev->sysfs, "%s", rel);
	t_uv_note("read_ibdev_sysfs_file(%zu, %s) ret=%d errno=%d", size, rel,
		  ret, ret < 0 ? errno : 0);
	if (ret >= 0)
		t_uv_note("buf \"%.*s\"", (int)strnlen(buf, size), buf);
}

static void case_read_ibdev_sysfs_file(struct ibv_context *ctx)
{
	sysfs_file("hw_rev", "7\n");
	sysfs_file("fw_ver", "1.2.3");
	sysfs_file("board_id", "a-board-with-a-long-name\n");
	read_ibdev(ctx, 64, "node_type");
	read_ibdev(ctx, 64, "hw_rev");
	read_ibdev(ctx, 64, "fw_ver");
	read_ibdev(ctx, 8, "board_id");
	read_ibdev(ctx, 1, "hw_rev");
	read_ibdev(ctx, 64, "no_such_file");
	read_ibdev(ctx, 64, "ports/1/gid_attrs");
	read_ibdev(ctx, 64, "ports/1/gid_attrs/types/0");
}

/* What __verbs_log() writes to stderr while no log level is set. */
static void case_verbs_log(struct ibv_context *ctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	char buf[256] = "";
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	errno = 1234;
	__verbs_log(vctx, VERBS_LOG_ERR, "an error %d\n", 7);
	verbs_err(vctx, "through the macro\n");
	verbs_debug(vctx, "debug\n");
	t_uv_note("errno after log=%d", errno);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	t_uv_note("logged %zu bytes: \"%s\"", n, buf);
}

/* A second context of the device, through the provider's alloc_context. */
static void case_open_device(struct ibv_context *ctx)
{
	struct ibv_context *c2 = verbs_open_device(ctx->device, NULL);

	if (!c2) {
		t_uv_note("verbs_open_device errno=%d", errno);
		return;
	}
	t_uv_note("second context: same device=%d cmd_fd differs=%d "
		  "async_fd=%d num_comp_vectors=%d",
		  c2->device == ctx->device, c2->cmd_fd != ctx->cmd_fd,
		  c2->async_fd, c2->num_comp_vectors);
	T_NOTE_RET("close second", ibv_close_device(c2));
}

static int tdrv_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
	(void)cq, (void)ne, (void)wc;
	return 0;
}

static int tdrv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	(void)qp, (void)wr, (void)bad;
	return 0;
}

static int tdrv_query_port(struct ibv_context *ctx, uint8_t port,
			   struct ibv_port_attr *attr)
{
	(void)ctx, (void)port, (void)attr;
	return 0;
}

static int tdrv_destroy_flow(struct ibv_flow *flow)
{
	(void)flow;
	return 0;
}

static struct ibv_flow *tdrv_create_flow(struct ibv_qp *qp,
					 struct ibv_flow_attr *attr)
{
	(void)qp, (void)attr;
	return NULL;
}

static struct ibv_dm *tdrv_alloc_dm(struct ibv_context *ctx,
				    struct ibv_alloc_dm_attr *attr)
{
	(void)ctx, (void)attr;
	return NULL;
}

static const struct verbs_context_ops some_ops = {
	.alloc_dm = tdrv_alloc_dm,
	.create_flow = tdrv_create_flow,
	.destroy_flow = tdrv_destroy_flow,
	.free_context = tdrv_free_context,
	.poll_cq = tdrv_poll_cq,
	.post_send = tdrv_post_send,
	.query_port = tdrv_query_port,
};

static const struct {
	const char *name;
	const void *fn;
} provider_fns[] = {
	{ "alloc_dm", (const void *)tdrv_alloc_dm },
	{ "create_flow", (const void *)tdrv_create_flow },
	{ "destroy_flow", (const void *)tdrv_destroy_flow },
	{ "poll_cq", (const void *)tdrv_poll_cq },
	{ "post_send", (const void *)tdrv_post_send },
	{ "query_port", (const void *)tdrv_query_port },
};

/* Which slots of the public tables hold a provider function, or NULL. */
static void note_slots(const char *table, void *const *slot, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *what = slot[i] ? NULL : "NULL";

		for (size_t f = 0;
		     !what &&
		     f < sizeof(provider_fns) / sizeof(provider_fns[0]);
		     f++)
			if (slot[i] == provider_fns[f].fn)
				what = provider_fns[f].name;
		if (what)
			t_uv_note("%s[%zu] %s", table, i, what);
	}
}

static void case_set_ops(struct ibv_context *ctx)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);

	verbs_set_ops(vctx, &some_ops);
	note_slots("ops", (void *const *)&ctx->ops,
		   sizeof(ctx->ops) / sizeof(void *));
	/* verbs_context's own slots, up to its size word. */
	note_slots("vctx", (void *const *)vctx,
		   offsetof(struct verbs_context, sz) / sizeof(void *));
}

T_CASE_SET(t_cases_helpers, T_CASE(final_num_attrs), T_CASE(execute_ioctl),
	   T_CASE(execute_ioctl_overflow), T_CASE(execute_driver_method),
	   T_CASE(init_cq), T_CASE(query_gid_type),
	   T_CASE(read_ibdev_sysfs_file), T_CASE(verbs_log),
	   T_CASE(open_device), T_CASE(set_ops));
