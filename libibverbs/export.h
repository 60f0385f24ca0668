/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What leaves the library. The library is compiled with
 * -fvisibility=hidden, so a function or variable is exported only when
 * its definition is marked here, once: IBV_EXPORT on an ordinary
 * definition, VERBS_DEFAULT_VERSION before a definition that also has an
 * older compat version, and IBV_EXPORT on the declaration of each compat
 * implementation that VERBS_COMPAT_VERSION names. The version script
 * written from releases/<release>/symbols then gives every export its version
 * node, and tests/abi/check-symbols holds the result to each release's
 * list.
 */
#ifndef IBV_EXPORT_H
#define IBV_EXPORT_H

#include <infiniband/releases.h>

#define IBV_EXPORT __attribute__((visibility("default")))

/*
 * Placed before the definition of @name: the version programs link
 * against today (name@@ver). The definition keeps its plain name, so tags
 * and cscope find it, and "remove" drops that plain name from the object:
 * the linker would otherwise hand it the first version node the map lists
 * it in. The older versions are VERBS_COMPAT_VERSION()s in compat_1_0*.c.
 * A static archive keeps the newest version only, under the plain name.
 */
#ifdef _STATIC_LIBRARY_BUILD_
#define VERBS_DEFAULT_VERSION(name, ver) extern __typeof__(name) name IBV_EXPORT
#else
#define VERBS_DEFAULT_VERSION(name, ver)                          \
	__asm__(".symver " #name ", " #name "@@" ver ", remove"); \
	extern __typeof__(name) name IBV_EXPORT
#endif

/* @impl, declared IBV_EXPORT, is the compat version name@ver. */
#define VERBS_COMPAT_VERSION(impl, name, ver) \
	__asm__(".symver " #impl ", " #name "@" ver)

/*
 * The provider ABI. The library serves the providers of every provider
 * ABI of releases/table at once, each through its own version node
 * (IBV_FOR_EACH_PABI). A function or variable of that interface is
 * defined once and marked after its definition:
 *   VERBS_PRIVATE_EXPORT(name)  it means the same to every ABI: the
 *                               definition is name@@IBVERBS_PRIVATE_<newest>
 *                               and an alias of it is name@IBVERBS_PRIVATE_<N>
 *                               for each older N;
 *   VERBS_PRIVATE_NEWEST(name)  the older ABIs' name is another function,
 *                               in compat_pabi34.c, which says so with
 *                               VERBS_COMPAT_VERSION(impl, name,
 *                               VERBS_PRIVATE_NODE(N)).
 * What only the newest ABI has needs nothing but IBV_EXPORT: the map lists
 * it in that node alone.
 */
#define VERBS_STR_(x) #x
#define VERBS_STR(x) VERBS_STR_(x)
#define VERBS_PRIVATE_NODE(abi) "IBVERBS_PRIVATE_" VERBS_STR(abi)

#ifdef _STATIC_LIBRARY_BUILD_
#define VERBS_PRIVATE_EXPORT(name) extern __typeof__(name) name
#define VERBS_PRIVATE_NEWEST(name) extern __typeof__(name) name
#else
#define VERBS_PRIVATE_OLDER(abi, name)                                \
	extern __typeof__(name) name##_pabi##abi                      \
		__attribute__((alias(#name), visibility("default"))); \
	__asm__(".symver " #name "_pabi" #abi ", " #name              \
		"@" VERBS_PRIVATE_NODE(abi));
#define VERBS_PRIVATE_NEWEST(name)                                        \
	__asm__(".symver " #name ", " #name                               \
		"@@" VERBS_PRIVATE_NODE(IBVERBS_PRIVATE_ABI) ", remove"); \
	extern __typeof__(name) name
#define VERBS_PRIVATE_EXPORT(name)                         \
	IBV_FOR_EACH_OLDER_PABI(VERBS_PRIVATE_OLDER, name) \
	VERBS_PRIVATE_NEWEST(name)
#endif

#endif
