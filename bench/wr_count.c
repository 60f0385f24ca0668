// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wr_count: the work of a provider per posted and per polled work
 * request, to be counted by callgrind inside the test VM
 * (bench/providers-wrcount runs it once per provider):
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *       --toggle-collect='wrc_op_*' --collect-systime=yes wr_count rxe0
 *
 * Two RC QPs on one device, a sending to b: on rxe looped through the
 * port's GID, on siw connected through rdma_cm. Every verb that is
 * counted is called from a function of its own, never inlined, named
 * wrc_op_<what>, so that callgrind's inclusive cost of that function is
 * the verb's work (the core's inline dispatch, the provider, and the
 * C library's system call stub) plus the same few instructions of the
 * call on either side. Each counted call handles one work request.
 *
 * A round posts WRC_DEPTH receives on b, WRC_DEPTH signalled work
 * requests on a, waits (uncounted) long enough for the kernel to finish
 * them, then polls every completion one at a time. A poll that finds
 * nothing is a "miss": the program prints how many there were, so that a
 * reader knows whether the poll figures hold empty polls too.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#endif

#include "bench_util.h"
#include "wr_count.h"

/*
 * Kept whole and apart: never inlined, cloned or folded into a twin
 * (GCC's identical code folding would merge the three post_send ones).
 */
#if defined(__clang__)
#define WRC_OP __attribute__((noinline, used))
#else
#define WRC_OP __attribute__((noinline, noclone, no_icf, used))
#endif

/*
 * The result passes through an empty asm: the call cannot become a tail
 * jump, which would leave the counted function before the verb ran.
 */
static inline int kept(int ret)
{
	__asm__ volatile("" : "+r"(ret));
	return ret;
}

/* The counted calls. */
static WRC_OP int wrc_op_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return kept(ibv_post_send(qp, wr, &bad));
}

static WRC_OP int wrc_op_post_send_write(struct ibv_qp *qp,
					 struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return kept(ibv_post_send(qp, wr, &bad));
}

static WRC_OP int wrc_op_post_send_inline(struct ibv_qp *qp,
					  struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return kept(ibv_post_send(qp, wr, &bad));
}

static WRC_OP int wrc_op_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;

	return kept(ibv_post_recv(qp, wr, &bad));
}

static WRC_OP int wrc_op_poll_send(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return kept(ibv_poll_cq(cq, 1, wc));
}

static WRC_OP int wrc_op_poll_recv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return kept(ibv_poll_cq(cq, 1, wc));
}

static WRC_OP int wrc_op_poll_empty(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return kept(ibv_poll_cq(cq, 1, wc));
}

enum kind { K_SEND, K_WRITE, K_INLINE, NUM_KINDS };

static const char *const kind_name[NUM_KINDS] = { "SEND", "RDMA_WRITE",
						  "SEND_inline" };

static int (*const post_fn[NUM_KINDS])(struct ibv_qp *,
				       struct ibv_send_wr *) = {
	wrc_op_post_send,
	wrc_op_post_send_write,
	wrc_op_post_send_inline,
};

static unsigned long misses_send, misses_recv;

/* rxe: a and b on the device, each connected to the other. */
static void connect_rxe(struct wrc *w, const char *dev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	const char *gidx = getenv("IBV_VM_RXE_GID_INDEX");
	union ibv_gid gid;
	int i, idx = gidx ? atoi(gidx) : 1;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			break;
	if (!list || !list[i])
		skip("no device %s", dev);
	w->ctx = ibv_open_device(list[i]);
	if (!w->ctx)
		die("ibv_open_device %s failed", dev);
	if (ibv_query_gid(w->ctx, 1, idx, &gid))
		die("ibv_query_gid %d failed", idx);
	wrc_resources(w);
	wrc_connect_gid(w, &gid, idx);
}

/* Uncounted: long enough for the kernel to finish a round. */
static void settle(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Poll @n completions of @cq one at a time, each a success. */
static void drain(struct ibv_cq *cq, int n, bool recv)
{
	struct ibv_wc wc;
	int ret;

	while (n) {
		ret = recv ? wrc_op_poll_recv(cq, &wc) :
			     wrc_op_poll_send(cq, &wc);
		if (ret < 0)
			die("ibv_poll_cq failed");
		if (!ret) {
			(*(recv ? &misses_recv : &misses_send))++;
			settle();
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS)
			die("completion %s on %s", ibv_wc_status_str(wc.status),
			    recv ? "b" : "a");
		n--;
	}
}

static void round_of(struct wrc *w, enum kind k)
{
	struct ibv_sge src = { (uintptr_t)w->buf, WRC_MSG, w->mr->lkey };
	struct ibv_sge dst = { (uintptr_t)w->buf + WRC_MSG, WRC_MSG,
			       w->mr->lkey };
	struct ibv_recv_wr rwr = { .sg_list = &dst, .num_sge = 1 };
	struct ibv_send_wr swr = { .sg_list = &src,
				   .num_sge = 1,
				   .send_flags = IBV_SEND_SIGNALED };
	int i;

	swr.opcode = k == K_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_SEND;
	if (k == K_INLINE)
		swr.send_flags |= IBV_SEND_INLINE;
	swr.wr.rdma.remote_addr = dst.addr;
	swr.wr.rdma.rkey = w->mr->rkey;
	for (i = 0; k != K_WRITE && i < WRC_DEPTH; i++)
		if (wrc_op_post_recv(w->b, &rwr))
			die("ibv_post_recv failed");
	for (i = 0; i < WRC_DEPTH; i++)
		if (post_fn[k](w->a, &swr))
			die("ibv_post_send %s failed", kind_name[k]);
	settle();
	drain(w->cq_a, WRC_DEPTH, false);
	if (k != K_WRITE)
		drain(w->cq_b, WRC_DEPTH, true);
}

int main(int argc, char **argv)
{
	struct wrc w = { .attr = { .cap = { .max_send_wr = WRC_DEPTH,
					    .max_recv_wr = WRC_DEPTH,
					    .max_send_sge = 1,
					    .max_recv_sge = 1,
					    .max_inline_data = WRC_MSG },
				   .qp_type = IBV_QPT_RC } };
	struct ibv_wc wc;
	int rounds = 8, opt;
	const char *dev;

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			die("usage: wr_count [-r ROUNDS] rxe0|siw0");
		rounds = atoi(optarg);
	}
	if (optind != argc - 1 || rounds < 1)
		die("usage: wr_count [-r ROUNDS] rxe0|siw0");
	dev = argv[optind];
	if (!strncmp(dev, "siw", 3))
		wrc_connect_cm(&w, dev, getenv("IBV_VM_SIW_ADDR") ?: "");
	else
		connect_rxe(&w, dev);
	/*
	 * A round of each kind first, then callgrind forgets it: first-use
	 * paths (the dynamic linker's lazy binding) are not per WR.
	 */
	for (int k = 0; k < NUM_KINDS; k++)
		round_of(&w, k);
	CALLGRIND_ZERO_STATS;
	misses_send = misses_recv = 0;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < NUM_KINDS; k++)
			round_of(&w, k);
	for (int i = 0; i < rounds * WRC_DEPTH; i++)
		if (wrc_op_poll_empty(w.cq_a, &wc))
			die("a completion in a drained CQ");
	print_mapped();
	/* The calls of each counted function, for the script to divide by. */
	printf("wr_count: %s calls post_send=%d post_send_write=%d "
	       "post_send_inline=%d post_recv=%d poll_send=%lu poll_recv=%lu "
	       "poll_empty=%d misses_send=%lu misses_recv=%lu\n",
	       dev, rounds * WRC_DEPTH, rounds * WRC_DEPTH, rounds * WRC_DEPTH,
	       2 * rounds * WRC_DEPTH, 3 * rounds * WRC_DEPTH + misses_send,
	       2 * rounds * WRC_DEPTH + misses_recv, rounds * WRC_DEPTH,
	       misses_send, misses_recv);
	return 0;
}
