// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writes the binary seeds of corpus/: netlink replies shaped as a Linux
 * 6.x kernel sends them, built with libnl rather than typed in as bytes,
 * and command answers for fuzz_kcmd built from the kernel's structs.
 * Usage: fuzz_gen_seeds CORPUS_DIR (the directories must exist).
 * The resource dumps carry pid 1: the fuzzer finds its own pid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_netlink.h>

static const char *top;

/* One reply of command @cmd; @multi for the messages of a dump. */
static struct nl_msg *reply(int cmd, int multi)
{
	struct nl_msg *msg = nlmsg_alloc_simple(
		RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), multi ? NLM_F_MULTI : 0);

	if (!msg)
		exit(1);
	nlmsg_hdr(msg)->nlmsg_seq = 1;
	return msg;
}

/* Writes @n messages, one after the other, as one datagram. */
static void save(const char *name, struct nl_msg **msgs, int n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		struct nlmsghdr *h = nlmsg_hdr(msgs[i]);

		fwrite(h, 1, NLMSG_ALIGN(h->nlmsg_len), f);
		nlmsg_free(msgs[i]);
	}
	fclose(f);
}

static struct nl_msg *done(void)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
	int zero = 0;

	nlmsg_append(msg, &zero, sizeof(zero), NLMSG_ALIGNTO);
	return msg;
}

static struct nl_msg *device(uint32_t index, const char *name, uint8_t type,
			     uint64_t guid, uint32_t ports)
{
	struct nl_msg *msg = reply(RDMA_NLDEV_CMD_GET, 1);

	nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	nla_put_string(msg, RDMA_NLDEV_ATTR_DEV_NAME, name);
	nla_put_u32(msg, RDMA_NLDEV_ATTR_PORT_INDEX, ports);
	nla_put_u64(msg, RDMA_NLDEV_ATTR_CAP_FLAGS, 0x1c2f825a76);
	nla_put_string(msg, RDMA_NLDEV_ATTR_FW_VERSION, "16.35.2000");
	nla_put_u64(msg, RDMA_NLDEV_ATTR_NODE_GUID, guid);
	nla_put_u64(msg, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, guid);
	nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, type);
	nla_put_u8(msg, RDMA_NLDEV_ATTR_DEV_DIM, 0);
	return msg;
}

static void devices(void)
{
	struct nl_msg *m[3];

	top = "nldev";
	m[0] = device(0, "mlx5_0", 1, 0x0002c90300104d54ULL, 1);
	m[1] = device(3, "rxe0", 4, 0x5054fffe123456ULL, 1);
	m[2] = done();
	save("dump-two-devices", m, 3);
	m[0] = device(7, "siw_eth0", 4, 0x5254001234560000ULL, 1);
	save("dump-siw", m, 1);
}

static struct nl_msg *chardev(uint64_t huge, uint64_t abi, const char *name,
			      uint32_t driver_id)
{
	struct nl_msg *msg = reply(RDMA_NLDEV_CMD_GET_CHARDEV, 0);

	nla_put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV, huge);
	nla_put_u64(msg, RDMA_NLDEV_ATTR_CHARDEV_ABI, abi);
	nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_NAME, name);
	if (driver_id)
		nla_put_u32(msg, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, driver_id);
	return msg;
}

static void chardevs(void)
{
	struct nl_msg *m[1];

	top = "nldev";
	/* 231:192 in the kernel's huge dev_t encoding: minor low byte. */
	m[0] = chardev(231 << 8 | 192, 1, "uverbs0", RDMA_DRIVER_MLX5);
	save("chardev-mlx5", m, 1);
	m[0] = chardev(231 << 8 | 193, 1, "uverbs1", 0);
	save("chardev-no-driver-id", m, 1);
}

static void sys(void)
{
	struct nl_msg *m[1];

	top = "nlsys";
	for (int cof = 0; cof < 3; cof++) {
		char name[32];

		m[0] = reply(RDMA_NLDEV_CMD_SYS_GET, 0);
		nla_put_u8(m[0], RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
		if (cof < 2)
			nla_put_u8(m[0], RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, cof);
		snprintf(name, sizeof(name), cof < 2 ? "cof-%d" : "no-cof",
			 cof);
		save(name, m, 1);
	}
}

/* A RES_<kind>_GET reply with @n entries, each of @fill's attributes. */
static void res(const char *name, int cmd, int table, int entry, int n,
		void (*fill)(struct nl_msg *msg, int i))
{
	struct nl_msg *m[2] = { reply(cmd, 1), done() };
	struct nlattr *t, *e;

	nla_put_u32(m[0], RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	nla_put_string(m[0], RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	t = nla_nest_start(m[0], table);
	for (int i = 0; i < n; i++) {
		e = nla_nest_start(m[0], entry);
		nla_put_u32(m[0], RDMA_NLDEV_ATTR_RES_PID, 1);
		fill(m[0], i);
		nla_nest_end(m[0], e);
	}
	nla_nest_end(m[0], t);
	save(name, m, 2);
}

static void pd(struct nl_msg *m, int i)
{
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_PDN, 3 + i);
	nla_put_u64(m, RDMA_NLDEV_ATTR_RES_USECNT, 2);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, 0x1100);
	nla_put_string(m, RDMA_NLDEV_ATTR_RES_KERN_NAME, "");
}

static void qp(struct nl_msg *m, int i)
{
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, 0x1a4 + i);
	nla_put_u8(m, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	nla_put_u8(m, RDMA_NLDEV_ATTR_RES_STATE, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_PDN, 3);
}

static void mr(struct nl_msg *m, int i)
{
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_MRN, 9 + i);
	nla_put_u64(m, RDMA_NLDEV_ATTR_RES_MRLEN, 4096);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_PDN, 3);
}

static void cq(struct nl_msg *m, int i)
{
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_CQN, 5 + i);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_CQE, 255);
	nla_put_u64(m, RDMA_NLDEV_ATTR_RES_USECNT, 1);
	nla_put_u8(m, RDMA_NLDEV_ATTR_RES_POLL_CTX, 0);
}

/* An SRQ's QPs: one QP alone, then a range, as the kernel lists them. */
static void srq(struct nl_msg *m, int i)
{
	struct nlattr *qps, *q;

	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_SRQN, 2 + i);
	nla_put_u8(m, RDMA_NLDEV_ATTR_RES_TYPE, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_PDN, 3);
	qps = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP);
	q = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, 0x1a4);
	nla_nest_end(m, q);
	q = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	nla_put_u32(m, RDMA_NLDEV_ATTR_MIN_RANGE, 0x1a6);
	nla_put_u32(m, RDMA_NLDEV_ATTR_MAX_RANGE, 0x1a9);
	nla_nest_end(m, q);
	nla_nest_end(m, qps);
}

/* One range over nearly every QP number: counted, never walked. */
static void srq_range(struct nl_msg *m, int i)
{
	struct nlattr *qps, *q;

	nla_put_u32(m, RDMA_NLDEV_ATTR_RES_SRQN, 2 + i);
	qps = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP);
	q = nla_nest_start(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	nla_put_u32(m, RDMA_NLDEV_ATTR_MIN_RANGE, 0);
	nla_put_u32(m, RDMA_NLDEV_ATTR_MAX_RANGE, UINT32_MAX);
	nla_nest_end(m, q);
	nla_nest_end(m, qps);
}

#define RES(kind, n, fill)                                                     \
	res("res-" #fill, RDMA_NLDEV_CMD_RES_##kind##_GET,                     \
	    RDMA_NLDEV_ATTR_RES_##kind, RDMA_NLDEV_ATTR_RES_##kind##_ENTRY, n, \
	    fill)

/*
 * fuzz_kcmd's input: @what (command and interfaces, see fuzz_kcmd.c),
 * then one system call's errno (0), valid outputs (all) and answer.
 */
static void kcmd(const char *name, uint8_t what, const void *ans, uint16_t len)
{
	char path[4096];
	uint8_t call[4] = { 0, 0xff, len & 0xff, len >> 8 };
	FILE *f;

	snprintf(path, sizeof(path), "kcmd/%s", name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(&what, 1, 1, f);
	fwrite(call, 1, sizeof(call), f);
	fwrite(ans, 1, len, f);
	fclose(f);
}

/* An active 4x HDR InfiniBand port, and a ConnectX-6's device limits. */
static void kcmd_seeds(void)
{
	struct ib_uverbs_query_port_resp_ex port = {
		.legacy_resp = {
			.port_cap_flags = 0x2651e848,
			.max_msg_sz = 0x40000000,
			.gid_tbl_len = 8,
			.pkey_tbl_len = 128,
			.lid = 1,
			.sm_lid = 1,
			.state = 4,
			.max_mtu = 5,
			.active_mtu = 5,
			.max_vl_num = 4,
			.subnet_timeout = 18,
			.active_width = 2,
			.active_speed = 64,
			.phys_state = 5,
			.link_layer = 1,
		},
		.port_cap_flags2 = 0x32,
	};
	struct ib_uverbs_ex_query_device_resp dev = {
		.base = {
			.fw_ver = 0x14001f0672,
			.node_guid = 0x544d100003c90200,
			.max_mr_size = UINT64_MAX,
			.page_size_cap = 0xfffffffffffff000,
			.vendor_id = 0x2c9,
			.vendor_part_id = 4123,
			.max_qp = 262144,
			.max_qp_wr = 32768,
			.max_sge = 30,
			.max_cq = 16777216,
			.max_cqe = 4194303,
			.max_pd = 16777216,
			.max_srq = 8388608,
			.max_pkeys = 128,
			.phys_port_cnt = 1,
		},
		.response_length = sizeof(dev),
		.hca_core_clock = 156250,
		.max_dm_size = 131072,
	};

	kcmd("query_port-ioctl", 0, &port, sizeof(port));
	kcmd("query_port-write", 4, &port.legacy_resp,
	     sizeof(port.legacy_resp));
	kcmd("query_device-ex-tunnel", 1, &dev, sizeof(dev));
	kcmd("query_device-ex-write", 1 | 4, &dev, sizeof(dev));
	kcmd("query_device-base-write", 2 | 4, &dev.base, sizeof(dev.base));
}

int main(int argc, char **argv)
{
	if (argc != 2 || chdir(argv[1])) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	devices();
	chardevs();
	sys();
	top = "nlres";
	RES(PD, 2, pd);
	RES(QP, 2, qp);
	RES(MR, 1, mr);
	RES(CQ, 2, cq);
	RES(SRQ, 1, srq);
	RES(SRQ, 8, srq_range);
	kcmd_seeds();
	return 0;
}
