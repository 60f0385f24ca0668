/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The layouts a provider was built with, where releases that share one
 * provider ABI number (IBVERBS_PRIVATE_<N>) still differ: the size of
 * struct ibv_qp_ex, which struct verbs_qp embeds before its comp_mask and
 * xrcd, and the arguments of ibv_cmd_reg_dmabuf_mr(). releases/table
 * gives them per release; provider_release.c works out which release
 * each provider object was built for.
 */
#ifndef IBV_PROVIDER_RELEASE_H
#define IBV_PROVIDER_RELEASE_H

#include "context_priv.h" /* struct provider_abi */

/*
 * The layouts of the object (a provider plugin, or the program a static
 * provider is linked into) that holds @addr, found in this order: the
 * note driver.h's PROVIDER_DRIVER() puts in our own providers; a file
 * name that ends in a release of the table (libmlx5.so.1.25.<release>);
 * such a file name among the plugins of the same directory, which one
 * package installed together; else this tree's own (builtin below).
 */
struct provider_abi provider_abi_of(const void *addr);

/* Resolves a plugin's file and directory alone (exported for tests). */
struct provider_abi provider_abi_of_file(const char *path);

/*
 * What this tree's headers describe, for a provider nothing else is known
 * of: one built with them, as the test programs are.
 */
struct provider_abi provider_abi_builtin(void);

#endif
