/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fake uverbs kernel's knowledge of the interface (t_uverbs_cmds.c):
 * the write-format commands with their core sizes, the ioctl methods
 * with the kind of each attribute the kernel writes or takes as a file,
 * and what the fake answers to each. Only t_uverbs.c includes this.
 */
#ifndef T_UVERBS_CMDS_H
#define T_UVERBS_CMDS_H

#include "t_uverbs.h"

/* A write-format command (basic or extended). */
struct t_uv_write {
	uint32_t command; /* with IB_USER_VERBS_CMD_FLAG_EXTENDED for ex */
	const char *name;
	uint16_t req; /* core request after the header(s) */
	uint16_t resp; /* core response; 0: the command has none */
	/* A basic command whose request is all core, however long. */
	bool var_req;
	/* Fills cmd->core_out beyond the fake's pattern. */
	void (*answer)(struct t_uv_cmd *cmd);
};

/* How the kernel treats an attribute of a method. */
enum t_uv_kind {
	T_IN = 0, /* anything the kernel only reads (the default) */
	T_OUT, /* PTR_OUT: the kernel writes there */
	T_NEW_OBJ, /* IDR out: the kernel writes the new handle in data */
	T_NEW_FD, /* FD out: the kernel writes a new file in data */
	T_FD_IN, /* an existing file by number */
};

struct t_uv_attr_kind {
	uint16_t id;
	enum t_uv_kind kind;
};

/* An ioctl method of the core namespace. */
struct t_uv_method {
	uint16_t object, method;
	const char *name;
	struct t_uv_attr_kind attrs[8]; /* those that are not T_IN */
	/* After the fake filled the outputs: answers with meaning. */
	void (*answer)(struct t_uv_cmd *cmd);
	/*
	 * Before anything is written: 0, or the errno the kernel fails the
	 * call with (an object that does not exist, a value out of range).
	 * NULL: every call is taken.
	 */
	int (*check)(struct t_uv_cmd *cmd);
};

const struct t_uv_write *t_uv_find_write(uint32_t command);
const struct t_uv_method *t_uv_find_method(uint16_t object, uint16_t method);
enum t_uv_kind t_uv_attr_kind(const struct t_uv_method *m, uint16_t id);

/* A new object handle, counted from a fixed start after each reset. */
uint32_t t_uv_new_handle(void);
void t_uv_reset_handles(void);

#endif
