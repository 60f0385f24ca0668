// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The resource dumps an EBUSY destroy explains itself with
 * (explain_busy.c): the replies of RES_PD_GET, RES_QP_GET, RES_MR_GET,
 * RES_SRQ_GET and RES_CQ_GET. Every message goes to the parser of each
 * kind; only entries of this process are kept, so the fuzzer has to find
 * its own pid, which its comparison tracing does.
 */
#include <stdint.h>

#include "libibverbs/explain.h"
#include "nl_msgs.h"

static void res_reply(struct nl_msg *msg, void *arg)
{
	for (unsigned int kind = 0; kind < 5; kind++)
		(void)explain_busy_parse(msg, kind);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_nl_each(data, size, res_reply, NULL);
	return 0;
}
