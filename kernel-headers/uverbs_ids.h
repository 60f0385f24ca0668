/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Ioctl objects, methods and attributes of the uverbs interface that are
 * newer than the oldest uapi headers we build with (Linux 6.1), which
 * the verbs of rdma-core 65 send: DMA handles, dma-buf export, MR
 * registration with its own method, the port's effective speed,
 * completion counters, and queue buffers the caller allocated.
 *
 * The kernel declares them as enumerators, which cannot be tested with
 * #ifdef, so they are constants of our own names here (KABI_ and the
 * kernel's name). Where the system's headers have them,
 * kernel-headers/CMakeLists.txt defines KABI_HAVE_UVERBS_NEW and
 * kabi_check.c asserts that every value here equals the kernel's.
 */
#ifndef IBV_KERNEL_UVERBS_IDS_H
#define IBV_KERNEL_UVERBS_IDS_H

#include <rdma/ib_user_ioctl_cmds.h>

/* Objects. */
#define KABI_UVERBS_OBJECT_DMAH 17
#define KABI_UVERBS_OBJECT_DMABUF 18
#define KABI_UVERBS_OBJECT_COMP_CNTR 19

/* DEVICE methods, and the attributes of theirs that are new. */
#define KABI_UVERBS_METHOD_QUERY_PORT_SPEED 7
#define KABI_UVERBS_METHOD_QUERY_COMP_CNTR_CAPS 8
#define KABI_UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM 0
#define KABI_UVERBS_ATTR_QUERY_PORT_SPEED_RESP 1
#define KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_COUNTERS 0
#define KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_VALUE 1
#define KABI_UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS 2
#define KABI_UVERBS_ATTR_GET_CONTEXT_FD_ARR 2

/* CQ/CREATE: the queue's buffer, by address or dma-buf, or as one desc. */
#define KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_VA 8
#define KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH 9
#define KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_FD 10
#define KABI_UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET 11
#define KABI_UVERBS_ATTR_CREATE_CQ_BUF_UMEM 12

/* QP/CREATE: the queues' buffers (struct ib_uverbs_buffer_desc each). */
#define KABI_UVERBS_ATTR_CREATE_QP_BUF_UMEM 15
#define KABI_UVERBS_ATTR_CREATE_QP_RQ_BUF_UMEM 16
#define KABI_UVERBS_ATTR_CREATE_QP_SQ_BUF_UMEM 17

/* QP/ATTACH_COMP_CNTR. */
#define KABI_UVERBS_METHOD_QP_ATTACH_COMP_CNTR 2
#define KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_HANDLE 0
#define KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_CNTR_HANDLE 1
#define KABI_UVERBS_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK 2

/* DMAH/ALLOC and DMAH/FREE. */
#define KABI_UVERBS_METHOD_DMAH_ALLOC 0
#define KABI_UVERBS_METHOD_DMAH_FREE 1
#define KABI_UVERBS_ATTR_ALLOC_DMAH_HANDLE 0
#define KABI_UVERBS_ATTR_ALLOC_DMAH_CPU_ID 1
#define KABI_UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE 2
#define KABI_UVERBS_ATTR_ALLOC_DMAH_PH 3
#define KABI_UVERBS_ATTR_FREE_DMA_HANDLE 0

/* DMABUF/ALLOC: a dma-buf for an mmap() offset of the context's file. */
#define KABI_UVERBS_METHOD_DMABUF_ALLOC 0
#define KABI_UVERBS_ATTR_ALLOC_DMABUF_HANDLE 0
#define KABI_UVERBS_ATTR_ALLOC_DMABUF_PGOFF 1

/* MR/REG_MR: one method for user memory and dma-bufs, with a DMA handle. */
#define KABI_UVERBS_METHOD_REG_MR 5
#define KABI_UVERBS_ATTR_REG_MR_HANDLE 0
#define KABI_UVERBS_ATTR_REG_MR_PD_HANDLE 1
#define KABI_UVERBS_ATTR_REG_MR_DMA_HANDLE 2
#define KABI_UVERBS_ATTR_REG_MR_IOVA 3
#define KABI_UVERBS_ATTR_REG_MR_ADDR 4
#define KABI_UVERBS_ATTR_REG_MR_LENGTH 5
#define KABI_UVERBS_ATTR_REG_MR_ACCESS_FLAGS 6
#define KABI_UVERBS_ATTR_REG_MR_FD 7
#define KABI_UVERBS_ATTR_REG_MR_FD_OFFSET 8
#define KABI_UVERBS_ATTR_REG_MR_RESP_LKEY 9
#define KABI_UVERBS_ATTR_REG_MR_RESP_RKEY 10

/* COMP_CNTR methods and their attributes. */
#define KABI_UVERBS_METHOD_COMP_CNTR_CREATE 0
#define KABI_UVERBS_METHOD_COMP_CNTR_DESTROY 1
#define KABI_UVERBS_METHOD_COMP_CNTR_MODIFY 2
#define KABI_UVERBS_METHOD_COMP_CNTR_READ 3
#define KABI_UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE 0
#define KABI_UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE 0
#define KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE 0
#define KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY 1
#define KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_OP 2
#define KABI_UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE 3
#define KABI_UVERBS_ATTR_READ_COMP_CNTR_HANDLE 0
#define KABI_UVERBS_ATTR_READ_COMP_CNTR_ENTRY 1
#define KABI_UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE 2

#endif /* IBV_KERNEL_UVERBS_IDS_H */
