// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * See t_port_speed.h. The fake answers DEVICE/QUERY_PORT_SPEED with 4000
 * (400 Gb/s in units of 100 Mb/s) for port 1; its other kernels refuse
 * the method as 6.1 does, and t_uv.next_err plays 7.2's rdma_rxe and
 * siw, which have the method but no speed to give.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "t_port_speed.h"
#include "t_uverbs.h"

typedef int (*port_speed_fn)(struct ibv_context *, uint32_t, uint64_t *);

static void expect_line(bool (*log_has)(const char *), const char *dev,
			const char *cause)
{
	char line[512];

	if (!log_has)
		return;
	snprintf(line, sizeof(line), "query_port_speed on %s: %s", dev, cause);
	if (!log_has(line))
		fail_msg("no log line \"%s\"", line);
}

void t_port_speed_cases(struct ibv_context *ctx,
			bool (*log_has)(const char *needle))
{
	/* Looked up: Debian 12's core has no such symbol to bind to. */
	port_speed_fn query =
		(port_speed_fn)dlsym(RTLD_DEFAULT, "ibv_query_port_speed");
	const char *dev = ibv_get_device_name(ctx->device);
	uint64_t speed = 0x5a;

	if (!query) {
		printf("SKIP: this core has no ibv_query_port_speed()\n");
		skip();
	}
	switch (t_uv.kernel) {
	case T_UV_IOCTL:
		assert_int_equal(query(ctx, 1, &speed), 0);
		assert_int_equal(speed, 4000);
		speed = 0x5a;
		t_uv.next_err = EOPNOTSUPP;
		assert_int_equal(query(ctx, 1, &speed), EOPNOTSUPP);
		expect_line(
			log_has, dev,
			"the kernel has the method DEVICE/QUERY_PORT_SPEED, but its driver gives no speed for port 1 (EOPNOTSUPP)");
		break;
	case T_UV_NO_IOCTL:
	case T_UV_TUNNEL:
		/* ENOTTY or EPROTONOSUPPORT; the verb's answer is EOPNOTSUPP. */
		assert_int_equal(query(ctx, 1, &speed), EOPNOTSUPP);
		expect_line(
			log_has, dev,
			t_uv.kernel == T_UV_NO_IOCTL ?
				"the kernel has no ioctl interface, needed for DEVICE/QUERY_PORT_SPEED" :
				"the kernel has no ioctl method DEVICE/QUERY_PORT_SPEED");
		break;
	}
	/* Nothing written where the speed goes when there is none. */
	assert_int_equal(speed, 0x5a);
}
