// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * verbs_diff steps of the device as a whole: open and close, the queries,
 * the async event channel, and the string and rate helpers of the library,
 * which need no device.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "verbs_diff.h"

/* ------------------------------------------------------------------ */
/* Device */

static void s_dev_open(struct t_st *st)
{
	t_open(st);
	t_out("ret=ok errno=- async_fd>=0=%d cmd_fd>=0=%d num_comp_vectors=%d",
	      st->ctx->async_fd >= 0, st->ctx->cmd_fd >= 0,
	      st->ctx->num_comp_vectors);
}

static void s_dev_close(struct t_st *st)
{
	t_open(st);
	t_need(ibv_close_device);
	errno = 0;
	t_num("ret", lib.ibv_close_device(st->ctx));
}

static void s_dev_query_device(struct t_st *st)
{
	struct ibv_device_attr a;

	memset(&a, 0, sizeof(a));
	t_need(ibv_query_device);
	errno = 0;
	t_rc("ret", lib.ibv_query_device(st->ctx, &a));
	t_out("fw_ver=%s node_guid=%016" PRIx64
	      " vendor_id=%#x part=%u hw_ver=%u",
	      a.fw_ver, be64toh(a.node_guid), a.vendor_id, a.vendor_part_id,
	      a.hw_ver);
	t_out("max_mr_size=%#" PRIx64 " page_size_cap=%#" PRIx64, a.max_mr_size,
	      a.page_size_cap);
	t_out("max_qp=%d max_qp_wr=%d cap_flags=%#x max_sge=%d max_sge_rd=%d",
	      a.max_qp, a.max_qp_wr, a.device_cap_flags, a.max_sge,
	      a.max_sge_rd);
	t_out("max_cq=%d max_cqe=%d max_mr=%d max_pd=%d max_qp_rd_atom=%d",
	      a.max_cq, a.max_cqe, a.max_mr, a.max_pd, a.max_qp_rd_atom);
	t_out("max_srq=%d max_srq_wr=%d max_srq_sge=%d max_ah=%d max_mw=%d",
	      a.max_srq, a.max_srq_wr, a.max_srq_sge, a.max_ah, a.max_mw);
	t_out("atomic_cap=%d max_mcast_grp=%d max_pkeys=%u ports=%u",
	      a.atomic_cap, a.max_mcast_grp, a.max_pkeys, a.phys_port_cnt);
}

static void s_dev_query_device_ex(struct t_st *st)
{
	struct ibv_device_attr_ex a;

	memset(&a, 0xa5, sizeof(a));
	errno = 0;
	t_rc("ret", ibv_query_device_ex(st->ctx, NULL, &a));
	t_out("max_qp=%d cap_flags_ex=%#" PRIx64 " odp_general=%#" PRIx64,
	      a.orig_attr.max_qp, a.device_cap_flags_ex,
	      a.odp_caps.general_caps);
	t_out("ts_mask=%#" PRIx64 " raw_caps=%#x tso_max=%u max_wq=%u",
	      a.completion_timestamp_mask, a.raw_packet_caps,
	      a.tso_caps.max_tso, a.max_wq_type_rq);
	t_out("pci_atomic=%#x/%#x/%#x ports_ex=%u max_dm=%" PRIu64,
	      a.pci_atomic_caps.fetch_add, a.pci_atomic_caps.swap,
	      a.pci_atomic_caps.compare_swap, a.phys_port_cnt_ex,
	      a.max_dm_size);
}

static void s_dev_query_device_ex_mask(struct t_st *st)
{
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_device_attr_ex a;

	errno = 0;
	t_rc("ret", ibv_query_device_ex(st->ctx, &in, &a));
}

static void s_dev_query_port(struct t_st *st)
{
	struct ibv_port_attr p;

	memset(&p, 0, sizeof(p));
	t_need_fn((const void *)ibv_query_port, "ibv_query_port");
	errno = 0;
	t_rc("ret", ibv_query_port(st->ctx, 1, &p));
	t_out("state=%s max_mtu=%d active_mtu=%d link_layer=%d",
	      lib.ibv_port_state_str ? lib.ibv_port_state_str(p.state) : "?",
	      p.max_mtu, p.active_mtu, p.link_layer);
	t_out("gid_tbl_len=%d cap_flags=%#x cap_flags2=%#x max_msg_sz=%#x",
	      p.gid_tbl_len, p.port_cap_flags, p.port_cap_flags2, p.max_msg_sz);
	t_out("pkey_tbl_len=%u lid=%u sm_lid=%u lmc=%u width=%u speed=%u",
	      p.pkey_tbl_len, p.lid, p.sm_lid, p.lmc, p.active_width,
	      p.active_speed);
	t_out("phys_state=%u flags=%#x", p.phys_state, p.flags);
}

static void s_dev_query_port_bad(struct t_st *st)
{
	struct ibv_port_attr p;

	t_need_fn((const void *)ibv_query_port, "ibv_query_port");
	errno = 0;
	t_rc("ret", ibv_query_port(st->ctx, 7, &p));
}

/*
 * rdma-core 65's effective port speed, which a provider may ask the
 * kernel for (DEVICE/QUERY_PORT_SPEED, a method 6.1 lacks); without the
 * op the core answers for it.
 */
static void t_port_speed(struct t_st *st, uint32_t port)
{
	uint64_t speed = 0;
	int rc;

	t_need65(ibv_query_port_speed);
	errno = 0;
	rc = lib65.ibv_query_port_speed(st->ctx, port, &speed);
	t_rc("ret", rc);
	if (!rc)
		t_out("speed=%" PRIu64, speed);
}

static void s_dev_query_port_speed(struct t_st *st)
{
	t_port_speed(st, 1);
}

static void s_dev_query_port_speed_bad(struct t_st *st)
{
	t_port_speed(st, 7);
}

static void t_gid_str(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid->raw, buf, len))
		snprintf(buf, len, "?");
}

static void s_dev_query_gid(struct t_st *st)
{
	union ibv_gid gid;
	char s[64];
	int rc;

	t_need(ibv_query_gid);
	errno = 0;
	rc = lib.ibv_query_gid(st->ctx, 1, st->dev->gid_index, &gid);
	t_num("ret", rc);
	t_gid_str(&gid, s, sizeof(s));
	t_out("index=%d gid=%s", st->dev->gid_index, rc ? "-" : s);
}

static void s_dev_query_gid_bad(struct t_st *st)
{
	union ibv_gid gid;

	t_need(ibv_query_gid);
	errno = 0;
	t_num("ret", lib.ibv_query_gid(st->ctx, 1, 100000, &gid));
}

static void s_dev_query_pkey(struct t_st *st)
{
	__be16 pkey = 0;
	int rc;

	t_need(ibv_query_pkey);
	errno = 0;
	rc = lib.ibv_query_pkey(st->ctx, 1, 0, &pkey);
	t_num("ret", rc);
	t_out("pkey=%#x", rc ? 0 : ntohs(pkey));
}

static const struct t_step dev_steps[] = {
	{ "dev.open", 0, s_dev_open },
	{ "dev.query_device", T_CTX, s_dev_query_device },
	{ "dev.query_device_ex", T_CTX, s_dev_query_device_ex },
	{ "dev.query_device_ex.bad_mask", T_CTX, s_dev_query_device_ex_mask },
	{ "dev.query_port", T_CTX, s_dev_query_port },
	{ "dev.query_port.bad_port", T_CTX, s_dev_query_port_bad },
	{ "dev.query_port_speed", T_CTX, s_dev_query_port_speed },
	{ "dev.query_port_speed.bad_port", T_CTX, s_dev_query_port_speed_bad },
	{ "dev.query_gid", T_CTX, s_dev_query_gid },
	{ "dev.query_gid.bad_index", T_CTX, s_dev_query_gid_bad },
	{ "dev.query_pkey", T_CTX, s_dev_query_pkey },
	{ "dev.close", 0, s_dev_close },
};

const struct t_steps t_dev_steps = T_STEPS(dev_steps);

/* ------------------------------------------------------------------ */
/* Async events */

static void s_async_nonblock(struct t_st *st)
{
	struct ibv_async_event ev;
	int fl;

	t_need(ibv_get_async_event);
	fl = fcntl(st->ctx->async_fd, F_GETFL);
	if (fl < 0 || fcntl(st->ctx->async_fd, F_SETFL, fl | O_NONBLOCK) < 0)
		t_setup_failed("fcntl");
	errno = 0;
	t_num("ret", lib.ibv_get_async_event(st->ctx, &ev));
}

static const struct t_step async_steps[] = {
	{ "async.get_event.nonblock", T_CTX, s_async_nonblock },
};

const struct t_steps t_async_steps = T_STEPS(async_steps);

/* ------------------------------------------------------------------ */
/* The *_str helpers and rate conversions: no device */

static void s_str_wc_status(struct t_st *st)
{
	(void)st;
	t_need(ibv_wc_status_str);
	t_out("ret=ok errno=- 0=\"%s\" 10=\"%s\" 21=\"%s\" 22=\"%s\" 999=\"%s\"",
	      lib.ibv_wc_status_str(0), lib.ibv_wc_status_str(10),
	      lib.ibv_wc_status_str(21), lib.ibv_wc_status_str(22),
	      lib.ibv_wc_status_str(999));
}

static void s_str_node_type(struct t_st *st)
{
	(void)st;
	t_need(ibv_node_type_str);
	t_out("ret=ok errno=- -1=\"%s\" 1=\"%s\" 4=\"%s\" 6=\"%s\" 7=\"%s\"",
	      lib.ibv_node_type_str(-1), lib.ibv_node_type_str(1),
	      lib.ibv_node_type_str(4), lib.ibv_node_type_str(6),
	      lib.ibv_node_type_str(7));
}

static void s_str_port_state(struct t_st *st)
{
	(void)st;
	t_need(ibv_port_state_str);
	t_out("ret=ok errno=- 0=\"%s\" 4=\"%s\" 5=\"%s\" 6=\"%s\"",
	      lib.ibv_port_state_str(0), lib.ibv_port_state_str(4),
	      lib.ibv_port_state_str(5), lib.ibv_port_state_str(6));
}

static void s_str_event_type(struct t_st *st)
{
	(void)st;
	t_need(ibv_event_type_str);
	/*
	 * 21 is past every release's events; 20, rdma-core 65's device speed
	 * change, has a name in 65 and none in 44 (strings_test).
	 */
	t_out("ret=ok errno=- 0=\"%s\" 9=\"%s\" 19=\"%s\" 21=\"%s\" 99=\"%s\"",
	      lib.ibv_event_type_str(0), lib.ibv_event_type_str(9),
	      lib.ibv_event_type_str(19), lib.ibv_event_type_str(21),
	      lib.ibv_event_type_str(99));
}

static void s_str_rate(struct t_st *st)
{
	(void)st;
	t_need(ibv_rate_to_mbps);
	t_need(mbps_to_ibv_rate);
	t_need(ibv_rate_to_mult);
	t_need(mult_to_ibv_rate);
	t_out("ret=ok errno=- to_mbps(3,7,21,99)=%d,%d,%d,%d",
	      lib.ibv_rate_to_mbps(3), lib.ibv_rate_to_mbps(7),
	      lib.ibv_rate_to_mbps(21), lib.ibv_rate_to_mbps(99));
	t_out("from_mbps(2500,25000,1)=%d,%d,%d", lib.mbps_to_ibv_rate(2500),
	      lib.mbps_to_ibv_rate(25000), lib.mbps_to_ibv_rate(1));
	t_out("to_mult(3,10,99)=%d,%d,%d mult_to(4,9)=%d,%d",
	      lib.ibv_rate_to_mult(3), lib.ibv_rate_to_mult(10),
	      lib.ibv_rate_to_mult(99), lib.mult_to_ibv_rate(4),
	      lib.mult_to_ibv_rate(9));
}

static const struct t_step str_steps[] = {
	{ "str.wc_status", T_NODEV, s_str_wc_status },
	{ "str.node_type", T_NODEV, s_str_node_type },
	{ "str.port_state", T_NODEV, s_str_port_state },
	{ "str.event_type", T_NODEV, s_str_event_type },
	{ "str.rate", T_NODEV, s_str_rate },
};

const struct t_steps t_str_steps = T_STEPS(str_steps);
