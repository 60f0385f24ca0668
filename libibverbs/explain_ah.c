// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why an address handle was not created, or not built from a completion
 * (explain.h), and the address vector of a modify_qp (explain_ah.h): its
 * port, as the provider's query_port op reports it, and its source GID,
 * as sysfs shows the GID table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "context_priv.h"
#include "driver.h"
#include "explain.h"
#include "explain_ah.h"
#include "explain_line.h"

/*
 * The GID at @index of @port, from sysfs: "empty" is the all-zero GID the
 * kernel shows for an unused entry; false when sysfs has no answer.
 */
static bool gid_empty(struct ibv_context *ctx, uint8_t port, unsigned int index,
		      bool *empty)
{
	struct verbs_sysfs_dev *sysfs = verbs_get_device(ctx->device)->sysfs;
	char buf[64];
	const char *p;

	if (ibv_read_ibdev_sysfs_file(buf, sizeof(buf), sysfs,
				      "ports/%u/gids/%u", port, index) < 0)
		return false;
	for (p = buf; *p == '0' || *p == ':'; p++)
		;
	*empty = *p == '\0';
	return true;
}

/* The GRH's source GID index against @port's table. */
static void check_sgid(struct line *l, struct ibv_context *ctx, uint8_t port,
		       const struct ibv_port_attr *pa, uint8_t index)
{
	bool empty;

	if (index >= pa->gid_tbl_len) {
		line_clause(l);
		line_add(l, "sgid_index %u is beyond port %u's GID table of %d",
			 index, port, pa->gid_tbl_len);
		return;
	}
	if (gid_empty(ctx, port, index, &empty) && empty) {
		line_clause(l);
		line_add(l, "sgid_index %u of port %u is an empty GID entry",
			 index, port);
	}
}

void explain_av(struct line *l, struct ibv_context *ctx,
		const struct ibv_ah_attr *av)
{
	struct ibv_port_attr pa;

	memset(&pa, 0, sizeof(pa));
	if (get_ops(ctx)->query_port(ctx, av->port_num, &pa)) {
		line_clause(l);
		line_add(l, "port_num %u is not a port of the device",
			 av->port_num);
		return;
	}
	if (pa.state != IBV_PORT_ACTIVE) {
		line_clause(l);
		line_add(l, "port %u is %s", av->port_num,
			 ibv_port_state_str(pa.state));
	}
	if (av->is_global)
		check_sgid(l, ctx, av->port_num, &pa, av->grh.sgid_index);
	else if (pa.link_layer == IBV_LINK_LAYER_ETHERNET) {
		line_clause(l);
		line_add(l, "port %u is Ethernet (RoCE): is_global must be set",
			 av->port_num);
	}
}

void explain_create_ah(struct ibv_context *ctx, const struct ibv_ah_attr *attr)
{
	int saved;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	explain_av(&l, ctx, attr);
	line_emit(ctx, "create_ah", &l);
	errno = saved;
}

void explain_init_ah_from_wc(struct ibv_context *ctx, uint8_t port_num)
{
	int saved;
	struct ibv_port_attr pa;
	struct line l;

	if (!explain_enabled())
		return;
	saved = errno;
	line_start(&l);
	memset(&pa, 0, sizeof(pa));
	line_clause(&l);
	if (get_ops(ctx)->query_port(ctx, port_num, &pa))
		line_add(&l, "port_num %u is not a port of the device",
			 port_num);
	else if (pa.state != IBV_PORT_ACTIVE)
		line_add(&l, "port %u is %s", port_num,
			 ibv_port_state_str(pa.state));
	else
		l.clauses = 0;
	line_emit(ctx, "init_ah_from_wc", &l);
	errno = saved;
}
