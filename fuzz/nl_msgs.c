// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What libnl hands a reply callback: the fuzz bytes are one datagram, cut
 * into messages by their headers and copied one by one into a struct
 * nl_msg of their own, so that ASan sees the end of each message where
 * the parser would overrun it. The header of a message longer than what
 * is left is shortened to fit: the parsers must cope with whatever length
 * the kernel states, and the fuzzer need not guess lengths to get in.
 */
#include <stdlib.h>
#include <string.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "nl_msgs.h"

void fuzz_nl_each(const uint8_t *data, size_t size, fuzz_nl_fn fn, void *arg)
{
	struct nlmsghdr *hdr;
	struct nl_msg *msg;
	void *buf;
	int left;

	/* A datagram is well under 2 GiB; an int is what libnl counts in. */
	if (size < NLMSG_HDRLEN || size > 1 << 20)
		return;
	buf = malloc(size);
	if (!buf)
		return;
	memcpy(buf, data, size);
	hdr = buf;
	left = (int)size;
	while (left >= NLMSG_HDRLEN) {
		if (hdr->nlmsg_len > (uint32_t)left)
			hdr->nlmsg_len = left;
		if (!nlmsg_ok(hdr, left))
			break;
		msg = nlmsg_convert(hdr);
		if (!msg)
			break;
		fn(msg, arg);
		nlmsg_free(msg);
		hdr = nlmsg_next(hdr, &left);
	}
	free(buf);
}
