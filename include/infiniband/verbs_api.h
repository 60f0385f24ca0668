/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Glue between the kernel's uverbs ioctl definitions and the ibv_* names
 * that verbs.h publishes for them.
 */
#ifndef VERBS_API_H
#define VERBS_API_H

/*
 * A user pointer the kernel reads as a u64. Lay the pointer over the low
 * half of the u64 so 32-bit processes put it where the kernel looks. The
 * tests use compiler-predefined macros so they hold whatever the includer
 * has or has not included before us.
 */
#if __SIZEOF_POINTER__ == 8
#define RDMA_UAPI_PTR(type, field)              \
	union {                                 \
		type field;                     \
		__aligned_u64 field##_data_u64; \
	}
#elif __SIZEOF_POINTER__ == 4 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RDMA_UAPI_PTR(type, field)              \
	union {                                 \
		struct {                        \
			type field;             \
			__u32 field##_reserved; \
		};                              \
		__aligned_u64 field##_data_u64; \
	}
#elif __SIZEOF_POINTER__ == 4
#define RDMA_UAPI_PTR(type, field)              \
	union {                                 \
		struct {                        \
			__u32 field##_reserved; \
			type field;             \
		};                              \
		__aligned_u64 field##_data_u64; \
	}
#else
#error "RDMA_UAPI_PTR: unsupported pointer width"
#endif

#include <infiniband/ib_user_ioctl_verbs.h>

/* IPsec (ESP) flow actions. */
#define ibv_flow_action_esp ib_uverbs_flow_action_esp
#define ibv_flow_action_esp_encap ib_uverbs_flow_action_esp_encap
#define ibv_flow_action_esp_keymat ib_uverbs_flow_action_esp_keymat
#define ibv_flow_action_esp_keymat_aes_gcm \
	ib_uverbs_flow_action_esp_keymat_aes_gcm
#define ibv_flow_action_esp_keymat_aes_gcm_iv_algo \
	ib_uverbs_flow_action_esp_keymat_aes_gcm_iv_algo
#define ibv_flow_action_esp_replay ib_uverbs_flow_action_esp_replay
#define ibv_flow_action_esp_replay_bmp ib_uverbs_flow_action_esp_replay_bmp
#define ibv_flow_action_esp_flags ib_uverbs_flow_action_esp_flags

#define IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM \
	IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM
#define IBV_FLOW_ACTION_IV_ALGO_SEQ IB_UVERBS_FLOW_ACTION_IV_ALGO_SEQ
#define IBV_FLOW_ACTION_ESP_REPLAY_NONE IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE
#define IBV_FLOW_ACTION_ESP_REPLAY_BMP IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP
#define IBV_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO
#define IBV_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD
#define IBV_FLOW_ACTION_ESP_FLAGS_TUNNEL IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TUNNEL
#define IBV_FLOW_ACTION_ESP_FLAGS_TRANSPORT \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TRANSPORT
#define IBV_FLOW_ACTION_ESP_FLAGS_DECRYPT \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_DECRYPT
#define IBV_FLOW_ACTION_ESP_FLAGS_ENCRYPT \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ENCRYPT
#define IBV_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW \
	IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW

/* Memory-region advice (ibv_advise_mr). */
#define ibv_advise_mr_advice ib_uverbs_advise_mr_advice
#define IBV_ADVISE_MR_ADVICE_PREFETCH IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH
#define IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE \
	IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE
#define IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT \
	IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT
#define IBV_ADVISE_MR_FLAG_FLUSH IB_UVERBS_ADVISE_MR_FLAG_FLUSH

/* Port flags and the optional access-flag range. */
#define IBV_QPF_GRH_REQUIRED IB_UVERBS_QPF_GRH_REQUIRED
#define IBV_ACCESS_OPTIONAL_RANGE IB_UVERBS_ACCESS_OPTIONAL_RANGE
#define IBV_ACCESS_OPTIONAL_FIRST IB_UVERBS_ACCESS_OPTIONAL_FIRST

#endif /* VERBS_API_H */
