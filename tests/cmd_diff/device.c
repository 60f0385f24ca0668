// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the device's commands (GET_CONTEXT is every
 * case's open, see provider.c): device and port queries.
 */
#include <errno.h>
#include <stddef.h>

#include "t_diff.h"

struct tdrv_query_device_resp {
	struct ib_uverbs_ex_query_device_resp core;
	struct tdrv_drv_out drv;
};

/* The whole of the provider's answer, into an attr struct of @size. */
static void query_device_any(struct ibv_context *ctx, size_t size)
{
	struct tdrv_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	int ret;

	t_diff_resp("resp", &resp, sizeof(resp));
	ret = ibv_cmd_query_device_any(ctx, NULL, &attr, size, &resp.core,
				       &resp_size);
	t_uv_note("query_device_any ret=%d resp_size=%zu", ret, resp_size);
	t_diff_resp_done("resp", &resp, sizeof(resp));
	t_uv_dump("attr", &attr, size);
}

static void case_query_device_ex(struct ibv_context *ctx)
{
	query_device_any(ctx, sizeof(struct ibv_device_attr_ex));
}

static void case_query_device_base(struct ibv_context *ctx)
{
	query_device_any(ctx, sizeof(struct ibv_device_attr));
}

/*
 * The bytes of struct ibv_port_attr that rdma-core 44 has: active_speed_ex
 * (56.1) is filled by our library only, from the kernel's reply, and is
 * tested against the fake kernel in cmd_device_test.
 */
#define PORT_ATTR_44 offsetof(struct ibv_port_attr, active_speed_ex)

static void case_query_port(struct ibv_context *ctx)
{
	struct ibv_port_attr attr;
	struct ibv_query_port cmd;
	int ret;

	memset(&attr, 0, sizeof(attr));
	t_diff_stale(&cmd, sizeof(cmd));
	ret = ibv_cmd_query_port(ctx, 1, &attr, &cmd, sizeof(cmd));
	T_NOTE_RET("query_port", ret);
	t_uv_dump("attr", &attr, PORT_ATTR_44);
}

/* A caller's answer buffer or attr struct of any size the ABI allows. */
static void query_device(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *in,
			 size_t attr_size, size_t resp_size, bool own_resp)
{
	struct tdrv_query_device_resp resp;
	struct ibv_device_attr_ex attr;
	size_t rsize = resp_size;
	int ret;

	t_diff_stale(&attr, sizeof(attr));
	t_diff_resp("resp", &resp, sizeof(resp));
	ret = ibv_cmd_query_device_any(ctx, in, &attr, attr_size,
				       own_resp ? &resp.core : NULL,
				       own_resp ? &rsize : NULL);
	t_uv_note("query_device_any(%zu, %zu) ret=%d resp_size=%zu", attr_size,
		  resp_size, ret, rsize);
	t_diff_resp_done("resp", &resp, sizeof(resp));
	t_uv_dump("attr", &attr, sizeof(attr));
}

static void case_query_device_sizes(struct ibv_context *ctx)
{
	const size_t full = sizeof(struct ibv_device_attr_ex);
	const size_t core = sizeof(struct ib_uverbs_ex_query_device_resp);
	struct ibv_query_device_ex_input in = { .comp_mask = 0 };

	query_device(ctx, NULL, full, core, false);
	query_device(ctx, &in, offsetof(struct ibv_device_attr_ex, rss_caps),
		     core, true);
	query_device(ctx, NULL, full - 4, core + 8, true);
	query_device(ctx, NULL, full, core + 24, true);
	query_device(ctx, NULL, sizeof(struct ibv_device_attr) + 8, core, true);
}

static void case_query_device_errors(struct ibv_context *ctx)
{
	const size_t full = sizeof(struct ibv_device_attr_ex);
	const size_t core = sizeof(struct ib_uverbs_ex_query_device_resp);
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };

	query_device(ctx, &in, full, core, true);
	query_device(ctx, NULL, sizeof(struct ibv_device_attr) - 8, core, true);
	t_uv.next_err = EOPNOTSUPP;
	query_device(ctx, NULL, full, core, true);
	t_uv.next_err = ENOSYS;
	query_device(ctx, NULL, full, core, true);
	t_uv.next_err = EINVAL;
	query_device(ctx, NULL, full, core, true);
	t_uv.next_err = EINVAL;
	query_device(ctx, NULL, sizeof(struct ibv_device_attr), core, true);
}

TDRV_CMD(query_port, ibv_query_port);

static void case_query_port_args(struct ibv_context *ctx)
{
	struct tdrv_query_port cmd;
	struct ibv_port_attr attr;
	int ret;

	T_DIFF_CMD(cmd);
	t_diff_stale(&attr, sizeof(attr));
	ret = ibv_cmd_query_port(ctx, 2, &attr, &cmd.ibv_cmd, sizeof(cmd));
	T_NOTE_RET("query_port", ret);
	t_uv_dump("attr", &attr, PORT_ATTR_44);
	t_uv.next_err = EINVAL;
	t_diff_stale(&attr, sizeof(attr));
	ret = ibv_cmd_query_port(ctx, 1, &attr, &cmd.ibv_cmd, sizeof(cmd));
	T_NOTE_RET("query_port fails", ret);
	t_uv_dump("attr", &attr, PORT_ATTR_44);
}

static void query_context(struct ibv_context *ctx,
			  struct ibv_command_buffer *drv)
{
	int ret;

	ctx->num_comp_vectors = 0x5a;
	ret = ibv_cmd_query_context(ctx, drv);
	t_uv_note("query_context ret=%d num_comp_vectors=%d", ret,
		  ctx->num_comp_vectors);
}

static void case_query_context(struct ibv_context *ctx)
{
	DECLARE_COMMAND_BUFFER(drv, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_QUERY_CONTEXT, 1);

	fill_attr_in_uint64(drv, TDRV_ATTR_IN, TDRV_ATTR_IN_VALUE);
	query_context(ctx, drv);
	query_context(ctx, NULL);
	t_uv.next_err = EINVAL;
	query_context(ctx, NULL);
}

typedef __typeof__(ibv_cmd_query_port_speed) query_port_speed_fn;

/* rdma-core 65's port speed: the one port, another, a kernel refusal. */
static void case_query_port_speed(struct ibv_context *ctx)
{
	query_port_speed_fn *fn = t_diff_pabi_sym("ibv_cmd_query_port_speed");
	static const uint32_t ports[] = { 1, 2, 0x10001 };
	uint64_t speed;
	int ret;

	if (!fn) {
		t_uv_note("no ibv_cmd_query_port_speed here");
		return;
	}
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		t_diff_stale(&speed, sizeof(speed));
		ret = fn(ctx, ports[i], &speed);
		t_uv_note("query_port_speed(%u) ret=%d speed=%llx", ports[i],
			  ret, (unsigned long long)speed);
	}
	t_uv.next_err = EINVAL;
	t_diff_stale(&speed, sizeof(speed));
	ret = fn(ctx, 1, &speed);
	t_uv_note("query_port_speed fails ret=%d errno=%d speed=%llx", ret,
		  errno, (unsigned long long)speed);
	t_uv.next_err = 0;
}

T_CASE_SET(t_cases_device, T_CASE(query_device_ex), T_CASE(query_device_base),
	   T_CASE(query_device_sizes), T_CASE(query_device_errors),
	   T_CASE(query_port), T_CASE(query_port_args), T_CASE(query_context),
	   T_CASE_IF(query_port_speed, t_diff_need_pabi65));
