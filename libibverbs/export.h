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

#endif
