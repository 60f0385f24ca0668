// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_init_ah_from_wc() of verbs_ah.c on a hand-made context whose GID
 * table is a fake ibdev directory (t_device.h): the route back from a
 * received packet, by LID, by a RoCE v1 GRH and by a RoCE v2 IPv4
 * header. Links the static archive, where the hidden seam hook is
 * reachable.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_device.h"
#include "t_scenario.h"
#include "t_util.h"

/* A received packet without a GRH: the LID route back. */
static void test_ah_from_wc_lid(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .slid = 0x44, .sl = 3, .dlid_path_bits = 1 };
	struct ibv_grh grh = { .version_tclass_flow = htobe32(0x60012345) };
	struct ibv_ah_attr ah;

	memset(&ah, 0xee, sizeof(ah));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.dlid, 0x44);
	assert_int_equal(ah.sl, 3);
	assert_int_equal(ah.src_path_bits, 1);
	assert_int_equal(ah.port_num, 1);
	assert_int_equal(ah.is_global, 0);
	assert_int_equal(ah.grh.flow_label, 0x12345);
	assert_int_equal(ah.grh.sgid_index, 0);
}

static void t_gid_parse(const char *text, union ibv_gid *gid)
{
	unsigned int v[8];

	assert_int_equal(sscanf(text, "%x:%x:%x:%x:%x:%x:%x:%x", &v[0], &v[1],
				&v[2], &v[3], &v[4], &v[5], &v[6], &v[7]),
			 8);
	for (int i = 0; i < 8; i++) {
		gid->raw[2 * i] = v[i] >> 8;
		gid->raw[2 * i + 1] = v[i];
	}
}

/* IB or RoCE v1: the GRH's destination is our GID, its source the peer's. */
static void test_ah_from_wc_v1(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH, .slid = 9 };
	struct ibv_grh grh = {
		.version_tclass_flow = htobe32(6u << 28 | 0xa5u << 20 | 7),
		.next_hdr = 0x1b,
		.hop_limit = 64,
	};
	struct ibv_ah_attr ah;

	tk.no_ioctl = true;
	t_gid_parse(T_LINK_GID, &grh.dgid);
	grh.sgid.raw[0] = 0xfe;
	grh.sgid.raw[15] = 0x99;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.is_global, 1);
	assert_int_equal(ah.grh.sgid_index, 0);
	assert_memory_equal(&ah.grh.dgid, &grh.sgid, sizeof(grh.sgid));
	assert_int_equal(ah.grh.hop_limit, 64);
	assert_int_equal(ah.grh.traffic_class, 0xa5);
	assert_int_equal(ah.grh.flow_label, 7);
	assert_int_equal(ah.dlid, 9);
	/* The same GID as RoCE v2 (UDP) is not in the table. */
	grh.next_hdr = IPPROTO_UDP;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	grh.next_hdr = 0x3a;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EPROTONOSUPPORT);
	grh.dgid.raw[0] = 0xff;
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EINVAL);
}

static uint16_t t_csum(const struct iphdr *ip)
{
	uint16_t w[10];
	uint32_t sum = 0;

	memcpy(w, ip, sizeof(w));
	for (int i = 0; i < 10; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/* RoCE v2 over IPv4: the header in the GRH's second half, checksummed. */
static void test_ah_from_wc_v2_ipv4(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_wc wc = { .wc_flags = IBV_WC_GRH };
	struct ibv_grh grh;
	struct iphdr ip = {
		.version = 4,
		.ihl = 5,
		.tos = 0x28,
		.ttl = 17,
		.protocol = IPPROTO_UDP,
		.saddr = htobe32(0xc0a80102),
		.daddr = htobe32(0xc0a80101),
	};
	struct ibv_ah_attr ah;

	tk.no_ioctl = true;
	ip.check = t_csum(&ip);
	/* The first half may look like IPv6: the checksum decides. */
	memset(&grh, 0, sizeof(grh));
	grh.version_tclass_flow = htobe32(6u << 28);
	memcpy((uint8_t *)&grh + 20, &ip, sizeof(ip));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), 0);
	assert_int_equal(ah.grh.sgid_index, 2); /* 3 is v1 */
	assert_int_equal(ah.grh.dgid.raw[11], 0xff);
	assert_int_equal(ah.grh.dgid.raw[15], 0x02);
	assert_int_equal(ah.grh.hop_limit, 17);
	assert_int_equal(ah.grh.traffic_class, 0x28);
	/* A multicast destination is never ours. */
	ip.daddr = htobe32(0xe0000001);
	ip.check = 0;
	ip.check = t_csum(&ip);
	memcpy((uint8_t *)&grh + 20, &ip, sizeof(ip));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EINVAL);
	/* Neither IPv6 nor IPv4. */
	memset(&grh, 0, sizeof(grh));
	assert_int_equal(ibv_init_ah_from_wc(ctx, 1, &wc, &grh, &ah), -1);
	assert_int_equal(errno, EPROTONOSUPPORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_CASE(test_ah_from_wc_lid),
		T_CASE(test_ah_from_wc_v1),
		T_CASE(test_ah_from_wc_v2_ipv4),
	};

	return cmocka_run_group_tests(tests, t_group_setup, t_group_teardown);
}
