/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Command buffers for the uverbs ioctl() interface, part of the provider
 * ABI (IBVERBS_PRIVATE_<N>) and, like driver.h, not installed. Debian's
 * binary providers build these buffers on their own stacks, append their
 * driver attributes and pass them into the core's ibv_cmd_*() functions,
 * so struct ibv_command_buffer keeps the reference's layout exactly
 * (56 bytes on x86_64, the attribute array right behind it);
 * tests/driver_abi_test.c pins it.
 *
 * The declaring macro and the fill_attr_*() helpers below are inline, so
 * Debian's providers carry the reference's copies of them: ours must give
 * the same bytes. The two functions they call, __ioctl_final_num_attrs()
 * and execute_ioctl(), are the core's (kcmd.c).
 */
#ifndef IBV_CMD_IOCTL_H
#define IBV_CMD_IOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rdma/rdma_user_ioctl_cmds.h>

/*
 * One method call being assembled: a kernel ioctl header followed in
 * memory by room for its attributes. The array is hdr.attrs, so whoever
 * allocates a buffer allocates ibv_cmd_buffer_size(n) bytes for n
 * attributes.
 */
struct ibv_command_buffer {
	/*
	 * A provider may fill a buffer of its own (driver attributes) and
	 * link it in front of the core's; the core then sends the attributes
	 * of every buffer in the chain as one call.
	 */
	struct ibv_command_buffer *next;
	/* Where the next attribute goes, and the end of the room for them. */
	struct ib_uverbs_attr *next_attr;
	struct ib_uverbs_attr *last_attr;
	/*
	 * Index in hdr.attrs of the driver-private input and output
	 * attributes (UVERBS_ATTR_UHW_IN/OUT), so the write() fallback can
	 * find the provider's data. The legacy write() path sends that data
	 * behind its own headers; the headroom counts, in 32-bit words, how
	 * much space it must keep free in front of the provider's data for
	 * them.
	 */
	uint8_t uhw_in_idx;
	uint8_t uhw_out_idx;
	uint8_t uhw_in_headroom_dwords;
	uint8_t uhw_out_headroom_dwords;
	/* An attribute did not fit: the call fails instead of being sent. */
	uint8_t buffer_error : 1;
	/* The write() fallback must use the extended command header. */
	uint8_t fallback_require_ex : 1;
	/* The method has no write() equivalent: ioctl() or nothing. */
	uint8_t fallback_ioctl_only : 1;
	/* What the kernel receives; the attributes follow it in memory. */
	struct ib_uverbs_ioctl_hdr hdr;
};

/* uhw_in_idx/uhw_out_idx when the buffer carries no driver data. */
enum { _UHW_NO_INDEX = 0xFF };

/* Bytes a command buffer needs to hold @num_attrs attributes. */
static inline size_t ibv_cmd_buffer_size(unsigned int num_attrs)
{
	return offsetof(struct ibv_command_buffer, hdr.attrs) +
	       (size_t)num_attrs * sizeof(struct ib_uverbs_attr);
}

/*
 * The kernel takes every pointer as a u64. The library fills every such
 * field (a response, a user handle, a buffer's start) through this.
 */
static inline uint64_t ioctl_ptr_to_u64(const void *ptr)
{
	return (uintptr_t)ptr;
}

/*
 * Buffers are declared as arrays of struct ibv_command_buffer, the first
 * element the buffer itself and the rest room for its attributes: this
 * many elements hold @n attributes.
 */
#define _IOCTL_NUM_CMDB(n)                         \
	((sizeof(struct ibv_command_buffer) +      \
	  sizeof(struct ib_uverbs_attr) * (n) +    \
	  sizeof(struct ibv_command_buffer) - 1) / \
	 sizeof(struct ibv_command_buffer))

/* @num_attrs plus the attributes already filled in every linked buffer. */
unsigned int __ioctl_final_num_attrs(unsigned int num_attrs,
				     struct ibv_command_buffer *link);

/*
 * The buffer that executes a chain needs room for every attribute in
 * it, since execute_ioctl() gathers them behind its own. Without a link
 * the count is the caller's constant and the array keeps a fixed size.
 */
static inline unsigned int
_ioctl_final_num_attrs(unsigned int num_attrs, struct ibv_command_buffer *link)
{
	if (!link)
		return num_attrs;
	return __ioctl_final_num_attrs(num_attrs, link);
}

static inline int _ioctl_init_cmdb(struct ibv_command_buffer *cmd,
				   uint16_t object_id, uint16_t method_id,
				   size_t num_attrs,
				   struct ibv_command_buffer *link)
{
	*cmd = (struct ibv_command_buffer){
		.next = link,
		.next_attr = cmd->hdr.attrs,
		.last_attr = cmd->hdr.attrs + num_attrs,
		.uhw_in_idx = _UHW_NO_INDEX,
		.uhw_out_idx = _UHW_NO_INDEX,
		.hdr = { .object_id = object_id, .method_id = method_id },
	};
	return 0;
}

/*
 * Declares @_name, a buffer on the caller's stack for one call of
 * @_method_id on @_object_id, with room for @_num_attrs attributes of
 * its own and those of the buffers linked behind it (@_link, or NULL).
 * The count need not be a constant. The dummy variable runs the
 * initialisation where a declaration is allowed.
 */
#define DECLARE_COMMAND_BUFFER_LINK(_name, _object_id, _method_id, _num_attrs, \
				    _link)                                     \
	const unsigned int __##_name##total =                                  \
		_ioctl_final_num_attrs(_num_attrs, _link);                     \
	struct ibv_command_buffer _name[_IOCTL_NUM_CMDB(__##_name##total)];    \
	int __attribute__((unused)) __##_name##dummy = _ioctl_init_cmdb(       \
		_name, _object_id, _method_id, __##_name##total, _link)

#define DECLARE_COMMAND_BUFFER(_name, _object_id, _method_id, _num_attrs)      \
	DECLARE_COMMAND_BUFFER_LINK(_name, _object_id, _method_id, _num_attrs, \
				    NULL)

struct ibv_context;
/*
 * Sends the chain headed by @cmd as one RDMA_VERBS_IOCTL call; 0 or a
 * positive errno value (also left in errno).
 */
int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd);

/*
 * The next free attribute, mandatory by default. rdma-core asserts that
 * there is one; here a full buffer is marked failed instead (the call
 * then returns EINVAL unsent) and the filler writes into a scratch slot,
 * so that a miscounted buffer never overruns the caller's stack.
 */
static inline struct ib_uverbs_attr *
_ioctl_next_attr(struct ibv_command_buffer *cmd, uint16_t attr_id)
{
	static __thread struct ib_uverbs_attr overflow;
	struct ib_uverbs_attr *attr;

	/* The thread-local slot's address is taken only when it is needed. */
	if (cmd->next_attr < cmd->last_attr) {
		attr = cmd->next_attr++;
	} else {
		cmd->buffer_error = 1;
		attr = &overflow;
	}
	*attr = (struct ib_uverbs_attr){
		.attr_id = attr_id,
		.flags = UVERBS_ATTR_F_MANDATORY,
	};
	return attr;
}

/* Lets the kernel ignore @attr if it does not know it. */
static inline struct ib_uverbs_attr *attr_optional(struct ib_uverbs_attr *attr)
{
	if (attr)
		attr->flags &= ~UVERBS_ATTR_F_MANDATORY;
	return attr;
}

/* After the call: did the kernel fill this (optional) output? */
static inline bool attr_output_valid(struct ib_uverbs_attr *attr)
{
	return attr && (attr->flags & UVERBS_ATTR_F_VALID_OUTPUT);
}

/* An existing object by handle (kernel type IDR). */
static inline struct ib_uverbs_attr *
fill_attr_in_obj(struct ibv_command_buffer *cmd, uint16_t attr_id, uint32_t idr)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	attr->data = idr;
	return attr;
}

/* A new object: the kernel writes its handle into data. */
static inline struct ib_uverbs_attr *
fill_attr_out_obj(struct ibv_command_buffer *cmd, uint16_t attr_id)
{
	return fill_attr_in_obj(cmd, attr_id, 0);
}

static inline uint32_t read_attr_obj(uint16_t attr_id,
				     struct ib_uverbs_attr *attr)
{
	(void)attr_id;
	return (uint32_t)attr->data;
}

/*
 * Input bytes (kernel type PTR_IN): up to 8 travel inline in data, more
 * by pointer. The kernel's length field is 16 bits wide.
 */
static inline struct ib_uverbs_attr *
fill_attr_in(struct ibv_command_buffer *cmd, uint16_t attr_id, const void *data,
	     size_t len)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	if (len > UINT16_MAX)
		cmd->buffer_error = 1;
	attr->len = (uint16_t)len;
	if (len > sizeof(attr->data))
		attr->data = ioctl_ptr_to_u64(data);
	else if (len)
		memcpy(&attr->data, data, len);
	return attr;
}

#define fill_attr_in_ptr(cmd, attr_id, ptr) \
	fill_attr_in(cmd, attr_id, ptr, sizeof(*(ptr)))

static inline struct ib_uverbs_attr *
fill_attr_in_uint64(struct ibv_command_buffer *cmd, uint16_t attr_id,
		    uint64_t data)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	attr->len = sizeof(data);
	attr->data = data;
	return attr;
}

/* Kernel type CONST_IN: always sent as a u64. */
#define fill_attr_const_in(cmd, attr_id, _data) \
	fill_attr_in_uint64(cmd, attr_id, _data)

static inline struct ib_uverbs_attr *
fill_attr_in_uint32(struct ibv_command_buffer *cmd, uint16_t attr_id,
		    uint32_t data)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	attr->len = sizeof(data);
	memcpy(&attr->data, &data, sizeof(data));
	return attr;
}

/* A file descriptor; -1 means "none" and adds no attribute. */
static inline struct ib_uverbs_attr *
fill_attr_in_fd(struct ibv_command_buffer *cmd, uint16_t attr_id, int fd)
{
	struct ib_uverbs_attr *attr;

	if (fd == -1)
		return NULL;
	attr = _ioctl_next_attr(cmd, attr_id);
	attr->data = fd;
	return attr;
}

/* A new file the kernel opens; its descriptor comes back in data. */
static inline struct ib_uverbs_attr *
fill_attr_out_fd(struct ibv_command_buffer *cmd, uint16_t attr_id, int fd)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	(void)fd;
	attr->data = 0;
	return attr;
}

static inline int read_attr_fd(uint16_t attr_id, struct ib_uverbs_attr *attr)
{
	(void)attr_id;
	return (int)attr->data;
}

/* Output bytes (kernel type PTR_OUT), always by pointer. */
static inline struct ib_uverbs_attr *
fill_attr_out(struct ibv_command_buffer *cmd, uint16_t attr_id, void *data,
	      size_t len)
{
	struct ib_uverbs_attr *attr = _ioctl_next_attr(cmd, attr_id);

	if (len > UINT16_MAX)
		cmd->buffer_error = 1;
	attr->len = (uint16_t)len;
	attr->data = ioctl_ptr_to_u64(data);
	return attr;
}

#define fill_attr_out_ptr(cmd, attr_id, ptr) \
	fill_attr_out(cmd, attr_id, ptr, sizeof(*(ptr)))

/* @size * @nelems, or SIZE_MAX (too long for any attribute) on overflow. */
static inline size_t _array_len(size_t size, size_t nelems)
{
	if (size && nelems >= SIZE_MAX / size)
		return SIZE_MAX;
	return size * nelems;
}

#define fill_attr_out_ptr_array(cmd, attr_id, ptr, nelems) \
	fill_attr_out(cmd, attr_id, ptr, _array_len(sizeof(*(ptr)), nelems))

#define fill_attr_in_ptr_array(cmd, attr_id, ptr, nelems) \
	fill_attr_in(cmd, attr_id, ptr, _array_len(sizeof(*(ptr)), nelems))

/* Kernel type ENUM_IN: which variant in elem_id, its data as PTR_IN. */
static inline struct ib_uverbs_attr *
fill_attr_in_enum(struct ibv_command_buffer *cmd, uint16_t attr_id,
		  uint8_t elem_id, const void *data, size_t len)
{
	struct ib_uverbs_attr *attr = fill_attr_in(cmd, attr_id, data, len);

	attr->attr_data.enum_data.elem_id = elem_id;
	return attr;
}

/* Kernel type IDRS_ARRAY: an array of u32 handles. */
static inline struct ib_uverbs_attr *
fill_attr_in_objs_arr(struct ibv_command_buffer *cmd, uint16_t attr_id,
		      const uint32_t *idrs_arr, size_t nelems)
{
	return fill_attr_in(cmd, attr_id, idrs_arr,
			    _array_len(sizeof(*idrs_arr), nelems));
}

/* The first attribute @attr_id filled anywhere in the chain, or NULL. */
static inline struct ib_uverbs_attr *
find_attr_by_id(struct ibv_command_buffer *link, uint16_t attr_id)
{
	struct ib_uverbs_attr *attr;

	for (; link; link = link->next)
		for (attr = link->hdr.attrs; attr < link->next_attr; attr++)
			if (attr->attr_id == attr_id)
				return attr;
	return NULL;
}

#endif
