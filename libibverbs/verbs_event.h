/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which member of struct ibv_async_event's element union an event type
 * uses: the one answer for the event verbs (verbs_event.c) and their
 * @IBVERBS_1.0 versions (compat_1_0.c). Library-internal.
 */
#ifndef IBV_VERBS_EVENT_H
#define IBV_VERBS_EVENT_H

#include <infiniband/verbs.h>

/* What an event names: an object of one kind, or else a port. */
enum event_element { EV_PORT, EV_CQ, EV_QP, EV_SRQ, EV_WQ };

static inline enum event_element event_element(enum ibv_event_type type)
{
	switch (type) {
	case IBV_EVENT_CQ_ERR:
		return EV_CQ;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return EV_QP;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return EV_SRQ;
	case IBV_EVENT_WQ_FATAL:
		return EV_WQ;
	default:
		return EV_PORT;
	}
}

#endif
