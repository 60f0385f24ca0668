/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * provider_drive_test: Debian's provider plugins, the real clients of
 * the private ABI, driven through the fake kernel (t_uverbs.h) and the
 * fake RDMA netlink (t_rdma_nl.h) as far as each can go without its
 * hardware, once on Debian's libibverbs and once on ours; the traffic
 * and what each provider reports must agree. It runs per release of
 * releases/table (provider_drive_test_<release>): that release's plugins
 * (17 in 44.0 and 56.1, of provider ABI 34; 18 in 65.0, of ABI 65) under
 * that release's core and under ours. The personas serve every release:
 * where a later plugin sends more (a longer request, a new command), the
 * persona answers as the kernel driver of that plugin's time would.
 *
 * A persona is what the fake answers in a driver's place: its device
 * (as netlink and sysfs show it), the driver part of each command's
 * answer (the provider's <rdma/<hw>-abi.h> response structs), and how
 * far the generic steps (drive.c) take it. The core part of every
 * answer is a plausible device's (device.c), so that a provider's checks
 * of the kernel's limits pass; command.c reads a command as a kernel
 * driver does, for both.
 */
#ifndef T_DRIVE_H
#define T_DRIVE_H

#include <stdint.h>

#include <infiniband/verbs.h>

#include "t_uverbs.h"

/* The generic steps, in the order drive.c takes them. */
enum {
	T_STEP_QUERY = 1 << 0, /* ibv_query_device_ex, ibv_query_port */
	T_STEP_PD = 1 << 1,
	T_STEP_MR = 1 << 2,
	T_STEP_CQ = 1 << 3,
	T_STEP_CQ_EX = 1 << 4,
	T_STEP_QP = 1 << 5, /* an RC QP on the CQ */
	T_STEP_QP_EX = 1 << 6,
	T_STEP_MODIFY = 1 << 7, /* the RC QP to INIT, RTR and RTS */
	T_STEP_SRQ = 1 << 8,
	T_STEP_AH = 1 << 9,
	T_STEP_UD = 1 << 10, /* a UD QP, for providers without RC */
};

#define T_STEPS_ALL 0x7ff
/* What an iWARP device can take: it has neither AHs nor UD QPs. */
#define T_STEPS_IWARP (T_STEPS_ALL & ~(T_STEP_AH | T_STEP_UD))

/* Kernel node types (rdma_node_type), as sysfs and netlink give them. */
#define T_NODE_CA 1
#define T_NODE_RNIC 4

/* Linux 6.2 added MANA after ERDMA; the oldest headers we build on lack it. */
#define RDMA_DRIVER_MANA_ (RDMA_DRIVER_ERDMA + 1)

/* What the generic steps made, for a persona's own verbs. */
struct t_objs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp *ud; /* T_STEP_UD's */
};

/* The verb a command is, whichever way it came, for personas. */
enum t_verb {
	T_V_OTHER,
	T_V_GET_CONTEXT,
	T_V_QUERY_DEVICE,
	T_V_QUERY_PORT,
	T_V_ALLOC_PD,
	T_V_REG_MR,
	T_V_CREATE_CQ,
	T_V_CREATE_QP,
	T_V_MODIFY_QP,
	T_V_CREATE_SRQ,
	T_V_CREATE_AH,
	T_V_CREATE_WQ,
	T_V_ALLOC_MW,
	T_V_OPEN_XRCD,
	T_V_RESIZE_CQ,
	T_V_MODIFY_SRQ,
	T_V_ALLOC_DM,
	T_V_CREATE_IND_TBL,
	T_V_COUNT
};
enum t_verb t_verb_of(const struct t_uv_cmd *cmd);

/* A driver's answer to one verb (t_uv_driver.answer): 0 or an errno. */
typedef int t_answer(struct t_uv_cmd *cmd);

struct t_persona {
	const char *name; /* the provider: lib<name>-rdmav<N>.so */
	const char *ibdev; /* its device's name */
	uint32_t driver_id; /* RDMA_DRIVER_* */
	uint16_t vendor, device; /* PCI ids for the modalias; 0: none */
	uint32_t abi; /* the uverbs device's ABI version */
	uint8_t node_type; /* kernel node type: 1 CA, 4 RNIC */
	uint8_t link_layer; /* IBV_LINK_LAYER_* of port 1 */
	unsigned int steps;
	/*
	 * The driver part of each verb's answer, by t_verb_of(), after the
	 * device's core part (t_device_answer()); a verb without one gets
	 * zeroes, as from a driver that writes nothing there.
	 */
	t_answer *answers[T_V_COUNT];
	/*
	 * The rest of what the kernel's driver does (struct t_uv_driver):
	 * its own methods, the bytes of a request its provider leaves
	 * unset, what it shares at an mmap offset. Its answer is @answers.
	 */
	struct t_uv_driver driver;
	/*
	 * After the steps, before anything is destroyed: the provider's own
	 * verbs (mlx5dv_*, efadv_*), on the objects the steps made (NULL
	 * where a step was not taken).
	 */
	void (*dv)(const struct t_objs *objs);
};

/* Every persona, in the order the test runs them. */
#define T_MAX_PERSONAS 32
extern const struct t_persona *const t_personas[];
extern const unsigned int t_npersonas;

/* The core part of an answer, as a plausible device gives it. */
void t_device_answer(const struct t_persona *p, struct t_uv_cmd *cmd);

/* Runs @p's steps on a fresh library; everything goes to the trace. */
void t_drive(const struct t_persona *p);

/*
 * For the personas' own verbs (drive.c), each noting what it got. Made
 * or not: "<what> ok" or "<what> failed errno=<e>"; returns !!@obj.
 */
bool t_note_made(const char *what, const void *obj);
/* A function of the provider's own library (@lib) the core loaded. */
void *t_dv_sym(const char *lib, const char *name);
/*
 * A QP of @type on @cq (send and receive), @wr work requests deep with
 * @sge scatter entries, both ways alike; the extended one on @pd, with
 * @send_ops (IBV_QP_EX_WITH_*, 0: none asked for). A caller sets what
 * else its QP asks for.
 */
struct ibv_qp_init_attr t_qp_init(struct ibv_cq *cq, enum ibv_qp_type type,
				  uint32_t wr, uint32_t sge);
struct ibv_qp_init_attr_ex t_qp_init_ex(struct ibv_pd *pd, struct ibv_cq *cq,
					enum ibv_qp_type type, uint32_t wr,
					uint32_t sge, uint64_t send_ops);
/* One receive and one send of a small buffer through the data path. */
void t_post_send_recv(struct ibv_qp *qp);
/* A poll for two completions (none has come: nothing reaches a peer). */
void t_poll(struct ibv_cq *cq);
/* Both, on the RC QP and its CQ, with the CQ armed before the poll. */
void t_data_path(const struct t_objs *o);
/* The extended CQ and QP, which a provider without them must refuse. */
void t_refuse_ex(const struct t_objs *o);
/* The QP's state and capabilities, as the kernel says them. */
void t_query_qp(struct ibv_qp *qp);
/* An SRQ of 16 grown to 48 by modify_srq, queried, destroyed. */
void t_grow_srq(struct ibv_pd *pd);
/* An XRC domain without a file; an XRC SRQ of 16 in it on PD and CQ. */
struct ibv_xrcd *t_xrcd(struct ibv_context *ctx);
struct ibv_srq *t_xrc_srq(const struct t_objs *o, struct ibv_xrcd *xrcd);
/*
 * A steering rule of three specs on @qp: Ethernet as @val and @mask say,
 * IPv4 to @dst_ip, TCP to port 80 (network order, as the specs take it).
 */
struct ibv_flow *t_tcp_flow(struct ibv_qp *qp,
			    const struct ibv_flow_eth_filter *val,
			    const struct ibv_flow_eth_filter *mask,
			    uint32_t dst_ip);
/* A raw packet QP over @tbl hashing IPv4 addresses (Toeplitz, @key). */
#define T_RSS_KEY_LEN 40
struct ibv_qp *t_rss_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			struct ibv_rwq_ind_table *tbl, uint8_t *key);

/*
 * Copies @len bytes of @src into the driver's answer, as far as it goes;
 * 0, the status of an answer that ends there.
 */
int t_drv_answer(struct t_uv_cmd *cmd, const void *src, size_t len);

/*
 * What a command asks for, whichever way it came (command.c); 0 where
 * it carries none. The new object's handle is a method's @attr, or the
 * first word of a write-format command's core answer.
 */
uint32_t t_new_handle(const struct t_uv_cmd *cmd, uint16_t attr);
/* Its number on the device follows: CQs from 0x40, QPs 0x100, SRQs 0x200. */
uint32_t t_cq_number(const struct t_uv_cmd *cmd);
uint32_t t_qp_number(const struct t_uv_cmd *cmd);
uint32_t t_srq_number(const struct t_uv_cmd *cmd);
uint32_t t_cq_entries(const struct t_uv_cmd *cmd);
struct ib_uverbs_qp_cap t_qp_cap(const struct t_uv_cmd *cmd);
uint32_t t_srq_max_wr(const struct t_uv_cmd *cmd);
uint32_t t_srq_max_sge(const struct t_uv_cmd *cmd);

/*
 * The next of a driver's mmap keys, offsets of the command file it hands
 * out upwards from *@next: this one with room for @len bytes, the next
 * on the page after them.
 */
uint64_t t_next_key(uint64_t *next, size_t len);

/* A queue's depth as drivers round it: a power of two, up to 64 Ki. */
uint32_t t_pow2_at_least(uint32_t n);

/*
 * For a persona's mask_core_in: zeroes, in a MODIFY_QP core request
 * (struct ib_uverbs_modify_qp), every field its attribute mask leaves
 * out, and the reserved bytes. rdma-core 44 writes only the fields of
 * the mask into the provider's struct; we write zeroes in the rest.
 */
void t_mask_modify_qp(const struct t_uv_cmd *cmd, uint8_t *core, size_t len);

/*
 * For a persona's mask_core_in: zeroes, in a POST_SEND core request, the
 * part of each work request's remote union (struct ib_uverbs_send_wr's
 * wr) that its opcode leaves unused on a connected QP. rdma-core 44
 * builds the request in an uninitialised stack buffer and writes only
 * the member the opcode uses (none for a send); we zero the rest, which
 * the kernel never reads.
 */
void t_mask_post_send(const struct t_uv_cmd *cmd, uint8_t *core, size_t len);

#endif
