// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The event verbs of verbs_event.c: completion channels made through the
 * fake kernel (t_cq.h), completion and asynchronous events read from
 * pipes standing in for the kernel's event files, handed to the
 * provider's hooks and acknowledged on their objects. Links the static
 * archive, where the hidden hooks are reachable.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>

#include <infiniband/cmd_ioctl.h>
#include <infiniband/driver.h>

#include "t_cq.h"

static void test_comp_channel(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel *ch;
	struct t_call *c;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	close(fds[1]);
	fk.channel_fd = fds[0];
	ch = ibv_create_comp_channel(ctx);
	assert_non_null(ch);
	c = t_last();
	assert_int_equal(c->len, 16);
	assert_int_equal(u32_at(c, CMD_HDR_COMMAND),
			 IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL);
	assert_int_equal(u32_at(c, CMD_HDR_IN_WORDS), T_WORDS(4, 1));
	assert_ptr_equal(ch->context, ctx);
	assert_int_equal(ch->fd, fds[0]);
	assert_int_equal(ch->refcnt, 0);
	ch->refcnt = 1;
	assert_int_equal(ibv_destroy_comp_channel(ch), EBUSY);
	assert_int_not_equal(fcntl(fds[0], F_GETFD), -1);
	ch->refcnt = 0;
	assert_int_equal(ibv_destroy_comp_channel(ch), 0);
	assert_int_equal(fcntl(fds[0], F_GETFD), -1);
	tk.write_err = EMFILE;
	errno = 0;
	assert_null(ibv_create_comp_channel(ctx));
	assert_int_equal(errno, EMFILE);
}

static void test_cq_events(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_comp_channel ch = { .context = ctx };
	struct ib_uverbs_comp_event_desc ev;
	struct ibv_cq cq, *got;
	void *cookie;
	int fds[2];

	t_init_cq(ctx, &cq);
	cq.cq_context = &ch;
	assert_int_equal(pipe(fds), 0);
	ch.fd = fds[0];
	ev.cq_handle = (uintptr_t)&cq;
	assert_int_equal(write(fds[1], &ev, sizeof(ev)), sizeof(ev));
	assert_int_equal(ibv_get_cq_event(&ch, &got, &cookie), 0);
	assert_ptr_equal(got, &cq);
	assert_ptr_equal(cookie, &ch);
	assert_int_equal(prov.cq_events, 1);
	assert_ptr_equal(prov.last_cq, &cq);
	ibv_ack_cq_events(&cq, 3);
	ibv_ack_cq_events(&cq, 2);
	assert_int_equal(cq.comp_events_completed, 5);
	/* A short record (then end of file) is no event. */
	assert_int_equal(write(fds[1], &ev, 4), 4);
	close(fds[1]);
	assert_int_equal(ibv_get_cq_event(&ch, &got, &cookie), -1);
	assert_int_equal(ibv_get_cq_event(&ch, &got, &cookie), -1);
	assert_int_equal(prov.cq_events, 1);
	close(fds[0]);
	errno = 0;
	assert_int_equal(ibv_get_cq_event(&ch, &got, &cookie), -1);
	assert_int_equal(errno, EBADF);
}

/* One record through async_fd; returns what the verb decoded. */
static struct ibv_async_event t_async(struct ibv_context *ctx, int wfd,
				      uint64_t element, uint32_t type)
{
	struct ib_uverbs_async_event_desc ev = { element, type, 0 };
	struct ibv_async_event out;

	assert_int_equal(write(wfd, &ev, sizeof(ev)), sizeof(ev));
	memset(&out, 0xaa, sizeof(out));
	assert_int_equal(ibv_get_async_event(ctx, &out), 0);
	assert_int_equal(out.event_type, type);
	assert_memory_equal(&out, &prov.last_event, sizeof(out));
	return out;
}

static void test_async_events(void **state)
{
	struct ibv_context *ctx = *state;
	struct ibv_cq cq;
	struct ibv_qp qp = { 0 };
	struct ibv_srq srq = { 0 };
	struct ibv_wq wq = { 0 };
	struct ibv_async_event e;
	int fds[2];

	t_init_cq(ctx, &cq);
	pthread_mutex_init(&qp.mutex, NULL);
	pthread_cond_init(&qp.cond, NULL);
	pthread_mutex_init(&srq.mutex, NULL);
	pthread_cond_init(&srq.cond, NULL);
	pthread_mutex_init(&wq.mutex, NULL);
	pthread_cond_init(&wq.cond, NULL);
	assert_int_equal(pipe(fds), 0);
	ctx->async_fd = fds[0];

	e = t_async(ctx, fds[1], (uintptr_t)&cq, IBV_EVENT_CQ_ERR);
	assert_ptr_equal(e.element.cq, &cq);
	ibv_ack_async_event(&e);
	assert_int_equal(cq.async_events_completed, 1);
	assert_int_equal(cq.comp_events_completed, 0);

	e = t_async(ctx, fds[1], (uintptr_t)&qp, IBV_EVENT_QP_LAST_WQE_REACHED);
	assert_ptr_equal(e.element.qp, &qp);
	ibv_ack_async_event(&e);
	assert_int_equal(qp.events_completed, 1);

	e = t_async(ctx, fds[1], (uintptr_t)&srq, IBV_EVENT_SRQ_LIMIT_REACHED);
	assert_ptr_equal(e.element.srq, &srq);
	ibv_ack_async_event(&e);
	assert_int_equal(srq.events_completed, 1);

	e = t_async(ctx, fds[1], (uintptr_t)&wq, IBV_EVENT_WQ_FATAL);
	assert_ptr_equal(e.element.wq, &wq);
	ibv_ack_async_event(&e);
	assert_int_equal(wq.events_completed, 1);

	e = t_async(ctx, fds[1], 2, IBV_EVENT_PORT_ACTIVE);
	assert_int_equal(e.element.port_num, 2);
	ibv_ack_async_event(&e); /* a port has no counter: nothing to do */
	assert_int_equal(prov.async_events, 5);

	close(fds[1]);
	assert_int_equal(ibv_get_async_event(ctx, &e), -1);
	close(fds[0]);
	ctx->async_fd = -1;
	errno = 0;
	assert_int_equal(ibv_get_async_event(ctx, &e), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(prov.async_events, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_VERB(test_comp_channel),
		T_VERB(test_cq_events),
		T_VERB(test_async_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
