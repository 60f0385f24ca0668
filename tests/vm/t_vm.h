/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Helpers of the VM tier's programs (t_vm.c). */
#ifndef T_VM_H
#define T_VM_H

#include <infiniband/verbs.h>

/* Opens the device named @name, or returns NULL. */
struct ibv_context *t_vm_open(const char *name);

#endif
