// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The explanation tests' fixture (t_explain.h): a hand-made context on
 * rxe0 with fake provider ops, a fake sysfs GID table and the log file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "t_explain.h"
#include "t_kernel.h"
#include "t_util.h"

static struct verbs_sysfs_dev t_sysfs;
enum ibv_port_state t_port_state = IBV_PORT_ACTIVE;
char t_log[4096];
static char t_dir[64];

/* The device's limits; a query also clobbers errno, as real ones may. */
static int t_query_device_ex(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t size)
{
	(void)ctx;
	(void)input;
	memset(attr, 0, size);
	attr->orig_attr.max_qp_wr = 16384;
	attr->orig_attr.max_sge = 32;
	attr->orig_attr.max_srq_wr = 1024;
	attr->orig_attr.max_srq_sge = 8;
	attr->orig_attr.max_cqe = 32767;
	errno = ENOENT;
	return 0;
}

/* One RoCE port with a GID table of 4; other port numbers fail. */
static int t_query_port(struct ibv_context *ctx, uint8_t port,
			struct ibv_port_attr *attr)
{
	(void)ctx;
	errno = ENOENT;
	if (port != 1)
		return EINVAL;
	attr->state = t_port_state;
	attr->gid_tbl_len = 4;
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

struct ibv_qp_cap t_qp_limit;
bool t_qp_limited;
unsigned int t_qp_created, t_qp_destroyed;
static struct ibv_qp t_qp;

/* Refuses everything, or (t_qp_limited) only caps over t_qp_limit. */
static struct ibv_qp *t_qp_answer(const struct ibv_qp_cap *c)
{
	const struct ibv_qp_cap *m = &t_qp_limit;

	if (!t_qp_limited || c->max_send_wr > m->max_send_wr ||
	    c->max_recv_wr > m->max_recv_wr ||
	    c->max_send_sge > m->max_send_sge ||
	    c->max_recv_sge > m->max_recv_sge ||
	    c->max_inline_data > m->max_inline_data) {
		errno = T_ERRNO;
		return NULL;
	}
	t_qp_created++;
	return &t_qp;
}

static struct ibv_qp *t_create_qp(struct ibv_pd *pd,
				  struct ibv_qp_init_attr *attr)
{
	(void)pd;
	return t_qp_answer(&attr->cap);
}

static struct ibv_qp *t_create_qp_ex(struct ibv_context *ctx,
				     struct ibv_qp_init_attr_ex *attr)
{
	(void)ctx;
	return t_qp_answer(&attr->cap);
}

static int t_destroy_qp(struct ibv_qp *qp)
{
	T_CHECK(qp == &t_qp);
	t_qp_destroyed++;
	return 0;
}

static struct ibv_srq *t_create_srq(struct ibv_pd *pd,
				    struct ibv_srq_init_attr *attr)
{
	(void)pd;
	(void)attr;
	errno = T_ERRNO;
	return NULL;
}

static struct ibv_cq *t_create_cq(struct ibv_context *ctx, int cqe,
				  struct ibv_comp_channel *ch, int vec)
{
	(void)ctx;
	(void)cqe;
	(void)ch;
	(void)vec;
	errno = T_ERRNO;
	return NULL;
}

static struct ibv_cq_ex *t_create_cq_ex(struct ibv_context *ctx,
					struct ibv_cq_init_attr_ex *attr)
{
	(void)ctx;
	(void)attr;
	errno = T_ERRNO;
	return NULL;
}

static int t_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	(void)qp;
	(void)attr;
	(void)mask;
	errno = T_ERRNO;
	return T_ERRNO;
}

static struct ibv_ah *t_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	(void)pd;
	(void)attr;
	errno = T_ERRNO;
	return NULL;
}

int t_reg_mr_errno = ENOMEM;

static struct ibv_mr *t_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			       uint64_t iova, int access)
{
	(void)pd;
	(void)addr;
	(void)length;
	(void)iova;
	(void)access;
	errno = t_reg_mr_errno;
	return NULL;
}

static struct ibv_mr *t_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				      size_t length, uint64_t iova, int fd,
				      int access)
{
	(void)pd;
	(void)offset;
	(void)length;
	(void)iova;
	(void)fd;
	(void)access;
	errno = t_reg_mr_errno;
	return NULL;
}

static int t_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		      void *addr, size_t length, int access)
{
	(void)vmr;
	(void)flags;
	(void)pd;
	(void)addr;
	(void)length;
	(void)access;
	errno = t_reg_mr_errno;
	return t_reg_mr_errno;
}

int t_destroy_errno = EBUSY;

static int t_dealloc_pd(struct ibv_pd *pd)
{
	(void)pd;
	return t_destroy_errno;
}

static int t_destroy_cq(struct ibv_cq *cq)
{
	(void)cq;
	return t_destroy_errno;
}

static int t_destroy_srq(struct ibv_srq *srq)
{
	(void)srq;
	return t_destroy_errno;
}

static const struct verbs_context_ops t_ops = {
	.dealloc_pd = t_dealloc_pd,
	.destroy_cq = t_destroy_cq,
	.destroy_srq = t_destroy_srq,
	.query_device_ex = t_query_device_ex,
	.query_port = t_query_port,
	.create_qp = t_create_qp,
	.create_qp_ex = t_create_qp_ex,
	.destroy_qp = t_destroy_qp,
	.create_srq = t_create_srq,
	.create_cq = t_create_cq,
	.create_cq_ex = t_create_cq_ex,
	.modify_qp = t_modify_qp,
	.create_ah = t_create_ah,
	.reg_mr = t_reg_mr,
	.reg_dmabuf_mr = t_reg_dmabuf_mr,
	.rereg_mr = t_rereg_mr,
};

/* GIDs 0, 1 and 3 of port 1 in use, 2 empty, as sysfs shows them. */
static void t_gid_table(void)
{
	char path[128];
	int i;

	snprintf(t_dir, sizeof(t_dir), "/tmp/explain_test-XXXXXX");
	T_CHECK(mkdtemp(t_dir));
	snprintf(path, sizeof(path), "%s/ports", t_dir);
	T_CHECK(!mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/ports/1", t_dir);
	T_CHECK(!mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/ports/1/gids", t_dir);
	T_CHECK(!mkdir(path, 0755));
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/ports/1/gids/%d", t_dir, i);
		t_write(path,
			i == 2 ? "0000:0000:0000:0000:0000:0000:0000:0000\n" :
				 "fe80:0000:0000:0000:0000:0000:0000:0001\n");
	}
	snprintf(t_sysfs.ibdev_path, sizeof(t_sysfs.ibdev_path), "%s", t_dir);
}

/*
 * The scenario's context on device rxe0, logging at @level (NULL: the
 * default) into a file of the scenario directory.
 */
struct ibv_context *t_open(const char *level)
{
	struct ibv_context *ctx;

	t_gid_table();
	snprintf(t_log, sizeof(t_log), "%s/log", t_dir);
	if (level)
		setenv("VERBS_LOG_LEVEL", level, 1);
	else
		unsetenv("VERBS_LOG_LEVEL");
	setenv("VERBS_LOG_FILE", t_log, 1);
	verbs_log_init();
	strcpy(t_vdev.device.name, "rxe0");
	t_vdev.device.transport_type = IBV_TRANSPORT_IB;
	t_vdev.sysfs = &t_sysfs;
	/* The fake kernel refuses every ioctl; write() takes anything. */
	t_kernel_reset();
	tk.ioctl_err = EPROTONOSUPPORT;
	ctx = t_context_new(0);
	verbs_set_ops(verbs_get_ctx(ctx), &t_ops);
	ctx->num_comp_vectors = 1;
	return ctx;
}

void t_close(struct ibv_context *ctx)
{
	t_context_free(ctx);
	t_rm_rf(t_dir);
}

/* What the log holds, emptied for the next case. */
static const char *t_take_log(void)
{
	static char buf[4096];
	FILE *f = fopen(t_log, "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	T_CHECK(!truncate(t_log, 0) || errno == ENOENT);
	return buf;
}

/* The log is exactly @line (with the library's prefix), or empty for NULL. */
int t_expect_log(const char *line)
{
	const char *got = t_take_log();
	char want[1024];

	if (!line) {
		if (*got)
			fprintf(stderr, "unexpected log: %s", got);
		return *got != '\0';
	}
	snprintf(want, sizeof(want), "libibverbs: %s\n", line);
	if (strcmp(got, want))
		fprintf(stderr, "want: %sgot:  %s", want, got);
	return strcmp(got, want) != 0;
}

struct ibv_pd t_pd;
