// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ibv_resolve_eth_l2_from_gid() (libibverbs/neigh.c) against the real
 * kernel's IP stack, in private network namespaces: the test process
 * forks a child that unshares its network namespace, and that child
 * forks a peer holding a second one. A TAP device in each, with a thread
 * of ours copying frames between the two (a wire; the kernels under test
 * may lack veth), joins them, so ARP and neighbour discovery really
 * happen and every frame stays in namespaces this test created. A VLAN
 * rides on top where the kernel has 8021q. The expected MACs are read
 * back from the interfaces with ip(8), never assumed.
 *
 * The binary compiles neigh.c itself and defines ibv_query_gid(), which
 * hands the verb the source GID a case chose: the verb needs no device.
 * Without the rights to create namespaces it exits 77 and says why.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include <infiniband/verbs.h>

#include "libibverbs/neigh.h"

/* Every wait of the run, namespaces and ARP timeouts included. */
#define T_ALARM_S 90
#define T_PATH "PATH=/usr/sbin:/sbin:/usr/bin:/bin:$PATH "
#define T_VID_NONE 0xffff

static pid_t t_peer; /* holds the peer namespace until we exit */
static uint8_t t_mac_own[6], t_mac_peer[6], t_mac_peer_vlan[6];
static int t_tap[2];
static bool t_have_vlan;

/* ------------------------------------------------------------------ */
/* The source GID, as the device family's ibv_query_gid() would give  */

static union ibv_gid t_sgid;
static int t_query_ret, t_query_port, t_query_index;

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
		  union ibv_gid *gid)
{
	(void)context;
	t_query_port = port_num;
	t_query_index = index;
	if (t_query_ret)
		return t_query_ret;
	*gid = t_sgid;
	return 0;
}

static union ibv_gid t_gid4(const char *ip)
{
	union ibv_gid gid = { .raw = { [10] = 0xff, [11] = 0xff } };

	assert_int_equal(inet_pton(AF_INET, ip, gid.raw + 12), 1);
	return gid;
}

static union ibv_gid t_gid6(const char *ip)
{
	union ibv_gid gid;

	assert_int_equal(inet_pton(AF_INET6, ip, gid.raw), 1);
	return gid;
}

/* The public verb, port 1 and GID index 3 from @sgid to @dgid. */
static int t_resolve(union ibv_gid sgid, union ibv_gid dgid, uint8_t *mac,
		     uint16_t *vid)
{
	struct ibv_context ctx = {};
	struct ibv_ah_attr attr = { .port_num = 1, .is_global = 1 };

	attr.grh.sgid_index = 3;
	attr.grh.dgid = dgid;
	t_sgid = sgid;
	return ibv_resolve_eth_l2_from_gid(&ctx, &attr, mac, vid);
}

static long t_ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 +
	       (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* ------------------------------------------------------------------ */
/* Namespaces                                                          */

/*
 * Runs a shell command in the network namespace of @ns (0: ours) and
 * returns its exit status; its output lands in @out when given.
 */
__attribute__((format(printf, 4, 5))) static int
t_sh(pid_t ns, char *out, size_t outlen, const char *fmt, ...)
{
	char cmd[1024], path[64];
	size_t got = 0;
	int fd[2], status;
	va_list ap;
	ssize_t n;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)ns);
		if (ns && setns(open(path, O_RDONLY | O_CLOEXEC), CLONE_NEWNET))
			_exit(126);
		dup2(fd[1], 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (out && got + 1 < outlen &&
	       (n = read(fd[0], out + got, outlen - got - 1)) > 0)
		got += n;
	if (out)
		out[got] = 0;
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The MAC ip(8) reports for @dev in @ns. */
static int t_read_mac(pid_t ns, const char *dev, uint8_t *mac)
{
	char out[2048], *p;

	if (t_sh(ns, out, sizeof(out), T_PATH "ip -o link show dev %s", dev))
		return -1;
	p = strstr(out, "link/ether ");
	if (!p || sscanf(p, "link/ether %hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0],
			 &mac[1], &mac[2], &mac[3], &mac[4], &mac[5]) != 6)
		return -1;
	return 0;
}

/* The peer: a second namespace, alive until our end of @hold closes. */
static pid_t t_start_peer(int hold[2])
{
	int ready[2];
	char ok = 0;
	pid_t pid;

	if (pipe(ready) || pipe(hold))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(hold[1]);
		ok = unshare(CLONE_NEWNET) == 0;
		if (write(ready[1], &ok, 1) != 1 || !ok)
			_exit(1);
		while (read(hold[0], &ok, 1) > 0)
			;
		_exit(0);
	}
	close(hold[0]);
	close(ready[1]);
	if (pid < 0 || read(ready[0], &ok, 1) != 1 || !ok)
		return -1;
	close(ready[0]);
	return pid;
}

/* A TAP device named @name in the calling thread's namespace. */
static int t_tap_open(const char *name)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI };
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (fd >= 0 && ioctl(fd, TUNSETIFF, &ifr)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* tap0 in ours, tap1 in the peer's: setns() moves this thread only. */
static int t_open_taps(void)
{
	char path[64];
	int own, peer, ok;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)t_peer);
	own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	peer = open(path, O_RDONLY | O_CLOEXEC);
	t_tap[0] = t_tap_open("tap0");
	ok = own >= 0 && peer >= 0 && t_tap[0] >= 0 &&
	     !setns(peer, CLONE_NEWNET);
	if (ok) {
		t_tap[1] = t_tap_open("tap1");
		ok = !setns(own, CLONE_NEWNET) && t_tap[1] >= 0;
	}
	close(own);
	close(peer);
	return ok ? 0 : -1;
}

/* The wire: every frame one TAP sends, the other receives. */
static void *t_wire(void *arg)
{
	struct pollfd pfd[2] = { { .fd = t_tap[0], .events = POLLIN },
				 { .fd = t_tap[1], .events = POLLIN } };
	static char frame[65536];
	ssize_t n;
	int i;

	(void)arg;
	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue;
		for (i = 0; i < 2; i++) {
			if (!pfd[i].revents)
				continue;
			n = read(t_tap[i], frame, sizeof(frame));
			if (n > 0 && write(t_tap[!i], frame, n) < 0)
				continue;
		}
	}
	return NULL;
}

/*
 * Ours: tap0 10.0.0.1/24 fd00::1/64, a gateway route each way and an
 * IPv6 blackhole. The peer: tap1 10.0.0.2/24 fd00::2/64. No DAD: a
 * tentative source would only make the probe spin.
 */
#define T_OWN_CMDS                                            \
	T_PATH "set -e; ip link set lo up;"                   \
	       "ip addr add 10.0.0.1/24 dev tap0;"            \
	       "ip addr add fd00::1/64 dev tap0 nodad;"       \
	       "ip link set tap0 up;"                         \
	       "ip route add 192.0.2.0/24 via 10.0.0.2;"      \
	       "ip -6 route add 2001:db8:1::/64 via fd00::2;" \
	       "ip -6 route add blackhole 2001:db8:2::/64"
#define T_PEER_CMDS                                     \
	T_PATH "set -e; ip link set lo up;"             \
	       "ip addr add 10.0.0.2/24 dev tap1;"      \
	       "ip addr add fd00::2/64 dev tap1 nodad;" \
	       "ip link set tap1 up"
/* VLAN 100 on both ends: 10.1.0.1/24 and 10.1.0.2/24. */
#define T_VLAN_CMDS                                                \
	T_PATH "set -e; exec 2>/dev/null;"                         \
	       "ip link add link %s name %s.100 type vlan id 100;" \
	       "ip addr add 10.1.0.%d/24 dev %s.100; ip link set %s.100 up"

static void t_add_vlan(void)
{
	t_have_vlan = !t_sh(0, NULL, 0, T_VLAN_CMDS, "tap0", "tap0", 1, "tap0",
			    "tap0") &&
		      !t_sh(t_peer, NULL, 0, T_VLAN_CMDS, "tap1", "tap1", 2,
			    "tap1", "tap1") &&
		      !t_read_mac(t_peer, "tap1.100", t_mac_peer_vlan);
}

/* Returns 0, or 77 after saying why the network cannot be built. */
static int t_build_network(void)
{
	static int hold[2];
	pthread_t wire;

	if (unshare(CLONE_NEWNET)) {
		printf("neigh_test: SKIP: cannot create a network namespace "
		       "(%s); run as root\n",
		       strerror(errno));
		return 77;
	}
	if (t_sh(0, NULL, 0, T_PATH "ip -V >/dev/null")) {
		printf("neigh_test: SKIP: ip(8) from iproute2 not found\n");
		return 77;
	}
	t_peer = t_start_peer(hold);
	if (t_peer < 0 || t_open_taps() || t_sh(0, NULL, 0, T_OWN_CMDS) ||
	    t_sh(t_peer, NULL, 0, T_PEER_CMDS) ||
	    t_read_mac(0, "tap0", t_mac_own) ||
	    t_read_mac(t_peer, "tap1", t_mac_peer) ||
	    pthread_create(&wire, NULL, t_wire, NULL)) {
		printf("neigh_test: SKIP: cannot build the TAP network "
		       "(no /dev/net/tun?)\n");
		return 77;
	}
	t_add_vlan();
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */

/* ARP for a neighbour the kernel has never seen: the peer's real MAC. */
static void ipv4_neighbour(void **state)
{
	uint8_t mac[6] = {};
	uint16_t vid = 0;

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.2"), mac,
				   &vid),
			 0);
	assert_memory_equal(mac, t_mac_peer, 6);
	assert_int_equal(vid, T_VID_NONE);
	/* The GID came from the attr's port and index. */
	assert_int_equal(t_query_port, 1);
	assert_int_equal(t_query_index, 3);
}

/* Neighbour discovery; a NULL vid is allowed. */
static void ipv6_neighbour(void **state)
{
	uint8_t mac[6] = {};

	(void)state;
	assert_int_equal(
		t_resolve(t_gid6("fd00::1"), t_gid6("fd00::2"), mac, NULL), 0);
	assert_memory_equal(mac, t_mac_peer, 6);
}

/* The source's interface is a VLAN: its id comes back. */
static void vlan_vid(void **state)
{
	uint8_t mac[6] = {};
	uint16_t vid = 0;

	(void)state;
	if (!t_have_vlan) {
		printf("neigh_test: no VLAN interfaces (8021q) in this kernel\n");
		skip();
	}
	assert_int_equal(t_resolve(t_gid4("10.1.0.1"), t_gid4("10.1.0.2"), mac,
				   &vid),
			 0);
	assert_memory_equal(mac, t_mac_peer_vlan, 6);
	assert_int_equal(vid, 100);
}

/* Behind a gateway the gateway's MAC is the answer. */
static void gateway(void **state)
{
	uint8_t mac[6] = {};

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("192.0.2.7"), mac,
				   NULL),
			 0);
	assert_memory_equal(mac, t_mac_peer, 6);
	memset(mac, 0, sizeof(mac));
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6("2001:db8:1::7"),
				   mac, NULL),
			 0);
	assert_memory_equal(mac, t_mac_peer, 6);
}

/* A local destination is answered by the source interface's own MAC. */
static void local_destination(void **state)
{
	static const uint8_t zero[6];
	uint8_t mac[6] = { 1 };

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.1"), mac,
				   NULL),
			 0);
	assert_memory_equal(mac, t_mac_own, 6);
	memset(mac, 0, sizeof(mac));
	assert_int_equal(
		t_resolve(t_gid6("fd00::1"), t_gid6("fd00::1"), mac, NULL), 0);
	assert_memory_equal(mac, t_mac_own, 6);
	/* Loopback's address is six zero bytes, and that is an answer. */
	memset(mac, 0xaa, sizeof(mac));
	assert_int_equal(t_resolve(t_gid4("127.0.0.1"), t_gid4("127.0.0.1"),
				   mac, NULL),
			 0);
	assert_memory_equal(mac, zero, 6);
}

/* Multicast groups map to their MACs: 01:00:5e + 23 bits, 33:33 + 32. */
static void multicast(void **state)
{
	static const uint8_t v4[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
	static const uint8_t v6[6] = { 0x33, 0x33, 0xff, 0x00, 0x00, 0x02 };
	uint8_t mac[6] = {};

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("224.1.2.3"), mac,
				   NULL),
			 0);
	assert_memory_equal(mac, v4, 6);
	/* ff0e::ffff:a.b.c.d is IPv4 too; the group's 24th bit is dropped. */
	memset(mac, 0, sizeof(mac));
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"),
				   t_gid6("ff0e::ffff:239.129.2.3"), mac, NULL),
			 0);
	assert_memory_equal(mac, v4, 6);
	memset(mac, 0, sizeof(mac));
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6("ff02::1:ff00:2"),
				   mac, NULL),
			 0);
	assert_memory_equal(mac, v6, 6);
}

/* fe80::/64 destinations: the MAC is read out of the interface id. */
static void link_local(void **state)
{
	static const uint8_t one[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	const uint8_t *m = t_mac_peer;
	uint8_t mac[6] = {};
	char ll[64];

	(void)state;
	snprintf(ll, sizeof(ll), "fe80::%02x%02x:%02xff:fe%02x:%02x%02x",
		 m[0] ^ 2, m[1], m[2], m[3], m[4], m[5]);
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6(ll), mac, NULL),
			 0);
	assert_memory_equal(mac, t_mac_peer, 6);
	/* No such host, no ff:fe: the address alone decides. */
	assert_int_equal(
		t_resolve(t_gid6("fd00::1"), t_gid6("fe80::1"), mac, NULL), 0);
	assert_memory_equal(mac, one, 6);
	/* fe80:0:0:1::/64 is not link-local to v44, and has no route. */
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6("fe80:0:0:1::1"),
				   mac, NULL),
			 -EHOSTUNREACH);
}

/* No route at all, and a blackhole route: -EHOSTUNREACH, at once. */
static void no_route(void **state)
{
	uint8_t mac[6] = {};
	struct timespec t0;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6("2001:db8::1"),
				   mac, NULL),
			 -EHOSTUNREACH);
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid6("2001:db8:2::1"),
				   mac, NULL),
			 -EHOSTUNREACH);
	assert_true(t_ms_since(&t0) < 1000);
}

/*
 * Nobody answers ARP (IPv4 routes are always found from an interface):
 * -EHOSTUNREACH after the verb's 3 s bound, not before, not much after;
 * vid is left alone.
 */
static void unanswered(void **state)
{
	uint8_t mac[6] = {};
	uint16_t vid = 7;
	struct timespec t0;
	long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.99"), mac,
				   &vid),
			 -EHOSTUNREACH);
	ms = t_ms_since(&t0);
	assert_true(ms >= 2900);
	assert_true(ms < 15000);
	assert_int_equal(vid, 7);
}

/* The internal resolver takes its own bound (11 ticks of 20 ms here). */
static void hook_timeout(void **state)
{
	union ibv_gid s = t_gid4("10.0.0.1"), d = t_gid4("10.0.0.98");
	uint8_t mac[6];
	struct timespec t0;
	long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(neigh_resolve_gid(&s, &d, 220, mac, NULL),
			 -EHOSTUNREACH);
	ms = t_ms_since(&t0);
	assert_true(ms >= 200);
	assert_true(ms < 2900);
}

/*
 * GIDs of two families: v44 does not compare them. A destination the
 * neighbour table knows resolves anyway; an unknown one fails when the
 * probe socket (the destination's family) cannot bind the source.
 */
static void families_differ(void **state)
{
	uint8_t mac[6] = {};
	struct timespec t0;

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.2"), mac,
				   NULL),
			 0);
	memset(mac, 0, sizeof(mac));
	assert_int_equal(
		t_resolve(t_gid6("fd00::1"), t_gid4("10.0.0.2"), mac, NULL), 0);
	assert_memory_equal(mac, t_mac_peer, 6);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(t_resolve(t_gid6("fd00::1"), t_gid4("10.0.0.77"), mac,
				   NULL),
			 -EHOSTUNREACH);
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid6("fd00::77"), mac,
				   NULL),
			 -EHOSTUNREACH);
	assert_true(t_ms_since(&t0) < 1000);
}

/* A source address no interface holds: -EINVAL, before any route. */
static void source_not_local(void **state)
{
	uint8_t mac[6] = {};

	(void)state;
	assert_int_equal(t_resolve(t_gid4("10.9.9.9"), t_gid4("10.0.0.2"), mac,
				   NULL),
			 -EINVAL);
	assert_int_equal(t_resolve(t_gid6("fd00::9"), t_gid6("fd00::2"), mac,
				   NULL),
			 -EINVAL);
}

/* ibv_query_gid()'s failure is returned as it came, whatever it is. */
static void query_gid_fails(void **state)
{
	uint8_t mac[6] = { 9, 9, 9, 9, 9, 9 };
	static const uint8_t nines[6] = { 9, 9, 9, 9, 9, 9 };
	uint16_t vid = 5;

	(void)state;
	t_query_ret = -1;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.2"), mac,
				   &vid),
			 -1);
	t_query_ret = ENODATA;
	assert_int_equal(t_resolve(t_gid4("10.0.0.1"), t_gid4("10.0.0.2"), mac,
				   &vid),
			 ENODATA);
	t_query_ret = 0;
	assert_memory_equal(mac, nines, 6);
	assert_int_equal(vid, 5);
}

static int t_run(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ipv4_neighbour),
		cmocka_unit_test(ipv6_neighbour),
		cmocka_unit_test(vlan_vid),
		cmocka_unit_test(gateway),
		cmocka_unit_test(local_destination),
		cmocka_unit_test(multicast),
		cmocka_unit_test(link_local),
		cmocka_unit_test(no_route),
		cmocka_unit_test(unanswered),
		cmocka_unit_test(hook_timeout),
		cmocka_unit_test(families_differ),
		cmocka_unit_test(source_not_local),
		cmocka_unit_test(query_gid_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The cases run in a child, so that its namespaces (and the peer that
 * holds one) go away with it; both sides are bounded by alarm().
 */
int main(void)
{
	int status, ret;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		alarm(T_ALARM_S);
		ret = t_build_network();
		_exit(ret ? ret : t_run());
	}
	alarm(T_ALARM_S + 10);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	if (WIFSIGNALED(status)) {
		printf("neigh_test: child killed by signal %d\n",
		       WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status);
}
