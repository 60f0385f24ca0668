/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kept only so that old code which includes it still builds. It used to
 * carry memory barriers as well; those are no longer offered here.
 */
#ifndef INFINIBAND_ARCH_H
#define INFINIBAND_ARCH_H

#include <endian.h>
#include <stdint.h>

#warning "<infiniband/arch.h> is deprecated; use <endian.h> directly"

/*
 * 64-bit host/network byte order helpers, unless the program already has
 * its own ntohll. New code should call htobe64() and be64toh().
 */
#ifndef ntohll
#undef htonll
#undef ntohll
static inline __attribute__((deprecated)) uint64_t htonll(uint64_t v)
{
	return htobe64(v);
}

static inline __attribute__((deprecated)) uint64_t ntohll(uint64_t v)
{
	return be64toh(v);
}
#define htonll htonll
#define ntohll ntohll
#endif

#endif /* INFINIBAND_ARCH_H */
