// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * driver_cmd_diff_test: the device's commands (GET_CONTEXT is every
 * case's open, see provider.c): device and port queries.
 */
#include "t_diff.h"

struct tdrv_query_device_resp {
	struct ib_uverbs_ex_query_device_resp core;
	struct tdrv_drv_out drv;
};

static void case_query_device_ex(struct ibv_context *ctx)
{
	struct tdrv_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	int ret;

	memset(&resp, 0, sizeof(resp));
	t_uv_name("resp", &resp, sizeof(resp));
	ret = ibv_cmd_query_device_any(ctx, NULL, &attr, sizeof(attr),
				       &resp.core, &resp_size);
	t_uv_note("query_device_any ret=%d resp_size=%zu", ret, resp_size);
	t_uv_dump("resp", &resp, sizeof(resp));
	t_uv_dump("attr", &attr, sizeof(attr));
}

static void case_query_device_base(struct ibv_context *ctx)
{
	struct tdrv_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	struct ibv_device_attr_ex attr;
	int ret;

	memset(&resp, 0, sizeof(resp));
	t_uv_name("resp", &resp, sizeof(resp));
	ret = ibv_cmd_query_device_any(ctx, NULL, &attr, sizeof(attr.orig_attr),
				       &resp.core, &resp_size);
	t_uv_note("query_device_any ret=%d resp_size=%zu", ret, resp_size);
	t_uv_dump("resp", &resp, sizeof(resp));
	t_uv_dump("attr", &attr, sizeof(attr.orig_attr));
}

static void case_query_port(struct ibv_context *ctx)
{
	struct ibv_port_attr attr;
	struct ibv_query_port cmd;
	int ret;

	memset(&attr, 0, sizeof(attr));
	t_diff_stale(&cmd, sizeof(cmd));
	ret = ibv_cmd_query_port(ctx, 1, &attr, &cmd, sizeof(cmd));
	T_NOTE_RET("query_port", ret);
	t_uv_dump("attr", &attr, sizeof(attr));
}

T_CASE_SET(t_cases_device, T_CASE(query_device_ex), T_CASE(query_device_base),
	   T_CASE(query_port));
