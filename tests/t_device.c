// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The device family tests' fixture (t_device.h). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>

#include "t_device.h"

struct t_device_kernel fk;
struct t_device_ops_seen ops_seen;
char *t_root;

static struct verbs_sysfs_dev t_sysfs;

static void *t_out(struct ib_uverbs_ioctl_hdr *h, uint16_t id)
{
	struct ib_uverbs_attr *a = t_attr(h, id);

	/* The library always sends these outputs; a missing one is a bug. */
	if (!a || !a->data)
		abort();
	return (void *)(uintptr_t)a->data;
}

static int t_new_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	fk.fds[fk.nfds++] = fd;
	return fd;
}

static void t_port_resp(struct ib_uverbs_query_port_resp *r)
{
	memset(r, 0, sizeof(*r));
	r->state = IBV_PORT_ACTIVE;
	r->max_mtu = IBV_MTU_4096;
	r->active_mtu = IBV_MTU_1024;
	r->gid_tbl_len = 16;
	r->port_cap_flags = 0x04010000;
	r->max_msg_sz = 0x40000000;
	r->pkey_tbl_len = 64;
	r->lid = 0x1234;
	r->sm_lid = 0x22;
	r->lmc = 1;
	r->phys_state = 5;
	r->link_layer = IBV_LINK_LAYER_ETHERNET;
	r->flags = 1;
}

/* GID entry: 0xfe80 prefix, index in the last byte. */
static void t_gid_entry(struct ibv_gid_entry *e, uint32_t port, uint32_t idx)
{
	memset(e, 0, sizeof(*e));
	e->gid.raw[0] = 0xfe;
	e->gid.raw[1] = 0x80;
	e->gid.raw[15] = idx;
	e->gid_index = idx;
	e->port_num = port;
	e->gid_type = IBV_GID_TYPE_ROCE_V2;
	e->ndev_ifindex = 3;
}

static void t_device_methods(struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_query_port_resp_ex *pr;
	struct ib_uverbs_attr *a;

	switch (h->method_id) {
	case UVERBS_METHOD_QUERY_PORT:
		pr = t_out(h, UVERBS_ATTR_QUERY_PORT_RESP);
		t_port_resp(&pr->legacy_resp);
		pr->port_cap_flags2 = 0x20;
		/* active_speed_ex (Linux 6.8): the 4 bytes at offset 44. */
		memcpy((char *)pr + 44, &(uint32_t){ 0x800 }, 4);
		break;
	case UVERBS_METHOD_GET_CONTEXT:
	case UVERBS_METHOD_QUERY_CONTEXT:
		*(uint32_t *)t_out(h, 0) = 7;
		*(uint64_t *)t_out(h, 1) = 1;
		a = t_attr(h, UVERBS_ATTR_UHW_OUT);
		if (a)
			memset((void *)(uintptr_t)a->data, 0xab, a->len);
		break;
	case UVERBS_METHOD_QUERY_GID_ENTRY:
		t_gid_entry(
			t_out(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY),
			t_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_PORT)->data,
			t_attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX)->data);
		break;
	case UVERBS_METHOD_QUERY_GID_TABLE:
		t_gid_entry(t_out(h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES),
			    1, 0);
		*(uint64_t *)t_out(
			h, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES) = 1;
		break;
	}
}

static void t_ioctl_answer(struct ib_uverbs_ioctl_hdr *h)
{
	if (h->object_id == UVERBS_OBJECT_DEVICE)
		t_device_methods(h);
	else if (h->object_id == UVERBS_OBJECT_ASYNC_EVENT)
		h->attrs[0].data = t_new_fd();
}

static void t_basic_write(const uint8_t *buf)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	struct ib_uverbs_query_device_resp *dr;
	struct ib_uverbs_get_context_resp *cr;
	uint64_t resp;

	memcpy(&resp, buf + CMD_RESPONSE, 8);
	switch (h->command) {
	case IB_USER_VERBS_CMD_QUERY_PORT:
		t_port_resp((void *)(uintptr_t)resp);
		break;
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		cr = (void *)(uintptr_t)resp;
		cr->async_fd = t_new_fd();
		cr->num_comp_vectors = 5;
		break;
	case IB_USER_VERBS_CMD_QUERY_DEVICE:
		dr = (void *)(uintptr_t)resp;
		dr->fw_ver = 0x0001000200003;
		dr->max_qp = 1000;
		dr->phys_port_cnt = 2;
		dr->node_guid = 0x1122;
		break;
	}
}

static void t_ex_write(const uint8_t *buf)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)buf;
	struct ib_uverbs_ex_query_device_resp *r;
	uint64_t resp;

	memcpy(&resp, buf + EX_HDR_RESPONSE, 8);
	r = (void *)(uintptr_t)resp;
	r->base.max_qp = 2000;
	r->base.phys_port_cnt = 1;
	r->hca_core_clock = 156250;
	r->response_length = h->out_words * 8;
}

static int t_write_answer(const void *buf, size_t len, int err)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	bool ex = h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED;

	(void)len;
	if (!err && ex)
		err = fk.ex_err;
	if (err)
		return err;
	if (ex)
		t_ex_write(buf);
	else
		t_basic_write(buf);
	return 0;
}

static int t_query_device_ex(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size)
{
	(void)ctx;
	ops_seen.input = input;
	ops_seen.attr_size = attr_size;
	attr->orig_attr.phys_port_cnt = 1;
	attr->orig_attr.max_qp = 77;
	return ops_seen.ret;
}

static int t_query_port(struct ibv_context *ctx, uint8_t port,
			struct ibv_port_attr *attr)
{
	(void)ctx;
	(void)port;
	attr->state = IBV_PORT_ACTIVE;
	attr->gid_tbl_len = ops_seen.gid_tbl_len;
	attr->link_layer = ops_seen.link_layer;
	attr->port_cap_flags2 = 0x99;
	attr->active_speed_ex = 0x5a5a5a5a;
	return ops_seen.ret;
}

static const struct verbs_context_ops t_ops = {
	.query_device_ex = t_query_device_ex,
	.query_port = t_query_port,
};

void t_device_kernel_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	t_kernel_reset();
	tk.on_ioctl = t_ioctl_answer;
	tk.on_write = t_write_answer;
}

int t_setup(void **state)
{
	struct ibv_context *ctx;

	t_device_kernel_reset();
	memset(&ops_seen, 0, sizeof(ops_seen));
	ops_seen.gid_tbl_len = 4;
	ops_seen.link_layer = IBV_LINK_LAYER_ETHERNET;
	t_vdev.sysfs = &t_sysfs;
	ctx = t_context_new(T_DRIVER_ID);
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	*state = ctx;
	return 0;
}

int t_teardown(void **state)
{
	struct ibv_context *ctx = *state;

	/* The fake's files: the context closes the one it holds. */
	for (unsigned int i = 0; i < fk.nfds; i++)
		if (fk.fds[i] != ctx->async_fd)
			close(fk.fds[i]);
	t_context_free(ctx);
	return 0;
}

static void t_file(const char *rel, const char *content)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t_root, rel);
	/* Make the directories on the way. */
	for (slash = strchr(path + strlen(t_root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", content);
	fclose(f);
}

int t_group_setup(void **state)
{
	char tmpl[] = "/tmp/cmd_device_test-XXXXXX";

	(void)state;
	t_root = strdup(mkdtemp(tmpl));
	snprintf(t_sysfs.ibdev_path, sizeof(t_sysfs.ibdev_path), "%s", t_root);
	t_file("ports/1/gids/0", T_LINK_GID);
	t_file("ports/1/gids/1", T_ZERO_GID);
	t_file("ports/1/gids/2", T_V4_GID);
	t_file("ports/1/gids/3", T_V4_GID);
	t_file("ports/1/gid_attrs/types/0", "IB/RoCE v1");
	/* Kernels without the GID methods give empty slots a type too. */
	t_file("ports/1/gid_attrs/types/1", "IB/RoCE v1");
	t_file("ports/1/gid_attrs/types/2", "RoCE v2");
	t_file("ports/1/gid_attrs/types/3", "IB/RoCE v1");
	t_file("ports/1/gid_attrs/ndevs/0", "lo");
	t_file("ports/1/gid_attrs/types/9", "RoCE v3");
	t_file("ports/2/gids/0", T_LINK_GID);
	/* Short or odd GID files: what a hostile sysfs may hold. */
	t_file("ports/2/gids/1", "fe80:0000:0000:0000:0000:0000:0000");
	t_file("ports/2/gids/2", "fe80");
	t_file("ports/2/gids/3", "fe80:0000:0000:0000:0211:22ff:fe33:44");
	t_file("ports/2/gids/4", "fe80:0000:0000:0000:0211:22ff:fe33:44zz");
	t_file("ports/2/gids/5", "fe80-0000-0000-0000-0211-22ff-fe33-4455");
	t_file("ports/1/pkeys/0", "0xffff");
	t_file("ports/1/pkeys/1", "0x8001");
	return 0;
}

int t_group_teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t_root);
	assert_int_equal(system(cmd), 0);
	free(t_root);
	return 0;
}
