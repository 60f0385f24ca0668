// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The verbs, object by object, on rxe0 and siw0: a fixed script of steps
 * whose transcript is compared between Debian's libibverbs and ours by
 * tests/vm/verbs_diff. One line per step:
 *
 *   <device> <step-id> ret=<value> errno=<name> [field=value ...]
 *
 * Only values that do not change from run to run are printed: no handles,
 * keys, QP numbers, addresses or times (a boolean such as "lkey!=0" stands
 * in for them). errno is printed only after a failure ("-" otherwise): a
 * successful verb may leave anything there.
 *
 * Each step runs in its own child, which opens the device and builds what
 * the step needs, so a crash shows as "crash=SEGV" after what the step
 * printed so far, and the next step still runs. A verb the library does
 * not export shows as "missing-symbol=<name>", or, for one that rdma-core
 * 65 added and a library of an older release lacks, "not-in-release=<name>".
 *
 * Environment (set by the VM): IBV_VM_RXE, IBV_VM_RXE_GID_INDEX,
 * IBV_VM_SIW, IBV_VM_SIW_GID_INDEX. Arguments: step ids (prefixes) to run;
 * none runs them all. "--list" prints the step ids.
 *
 * This file runs the steps; they live in one file per kind of object,
 * verbs_diff_<object>.c, each with its table (see verbs_diff.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "verbs_diff.h"

#define T_STEP_TIMEOUT 10 /* seconds; SIGALRM past it */
#define T_BUF 4096

struct verbs_v44 lib;
struct verbs_v65 lib65;

/* The fallback of the inline ibv_query_device_ex() calls this one. */
int ibv_query_device(struct ibv_context *context,
		     struct ibv_device_attr *device_attr)
{
	if (!lib.ibv_query_device)
		return ENOSYS;
	return lib.ibv_query_device(context, device_attr);
}

/* The inline ibv_query_comp_cntr_caps() calls this one. */
int _ibv_query_comp_cntr_caps(struct ibv_context *context,
			      struct ibv_comp_cntr_caps *caps, size_t caps_size)
{
	if (!lib65._ibv_query_comp_cntr_caps)
		return ENOSYS;
	return lib65._ibv_query_comp_cntr_caps(context, caps, caps_size);
}

/* Every step table, in the order the steps run and are listed. */
static const struct t_steps *const families[] = {
	&t_dev_steps,  &t_mr_steps,  &t_cq_steps,    &t_qp_steps,
	&t_srq_steps,  &t_ah_steps,  &t_async_steps, &t_traffic_steps,
	&t_cntr_steps, &t_str_steps,
};

#define T_NFAMILIES (sizeof(families) / sizeof(families[0]))

static void t_child(const struct t_step *step, const struct t_dev *dev, int fd)
{
	struct t_st st = { .dev = dev };

	t_fd = fd;
	alarm(T_STEP_TIMEOUT);
	t_build(&st, step->flags);
	step->run(&st);
	t_done();
}

/* Run one step in a child; print its line, with how it ended if not 0. */
static void t_run(const struct t_step *step, const struct t_dev *dev)
{
	char buf[T_BUF];
	size_t len = 0;
	ssize_t n;
	int p[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(p) < 0 || (pid = fork()) < 0) {
		perror("verbs_diff: pipe/fork");
		exit(2);
	}
	if (!pid) {
		close(p[0]);
		t_child(step, dev, p[1]);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 &&
	       (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += n;
	}
	buf[len] = 0;
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("%s %s%s", dev->name, step->id, buf);
	if (WIFSIGNALED(status))
		printf(" crash=%s", WTERMSIG(status) == SIGALRM ?
					    "timeout" :
					    sigabbrev_np(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		printf(" exit=%d", WEXITSTATUS(status));
	printf("\n");
}

static bool t_selected(const char *id, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strncmp(id, argv[i], strlen(argv[i])))
			return true;
	return false;
}

static const char *t_env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/*
 * Run the selected steps that @dev can run: those that need no device
 * when @nodev, the others otherwise.
 */
static void t_run_all(const struct t_dev *dev, bool nodev, int argc,
		      char **argv)
{
	const struct t_step *step;
	bool step_nodev;
	size_t f, i;

	for (f = 0; f < T_NFAMILIES; f++)
		for (i = 0; i < families[f]->num; i++) {
			step = &families[f]->step[i];
			step_nodev = step->flags & T_NODEV;
			if (step_nodev != nodev ||
			    !t_selected(step->id, argc, argv))
				continue;
			if (step->flags & T_RXE && !dev->rxe)
				continue;
			t_run(step, dev);
		}
}

int main(int argc, char **argv)
{
	struct t_dev devs[] = {
		{ t_env("IBV_VM_RXE", "rxe0"),
		  atoi(t_env("IBV_VM_RXE_GID_INDEX", "1")), true },
		{ t_env("IBV_VM_SIW", "siw0"),
		  atoi(t_env("IBV_VM_SIW_GID_INDEX", "0")), false },
	};
	const struct t_dev any = { "any", 0, false };
	size_t f, i, d;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (f = 0; f < T_NFAMILIES; f++)
			for (i = 0; i < families[f]->num; i++)
				printf("%s\n", families[f]->step[i].id);
		return 0;
	}
	/*
	 * A verb not found stays NULL: its steps say missing-symbol, or for
	 * one of rdma-core 65's, not-in-release.
	 */
	verbs_lookup(RTLD_DEFAULT, &lib);
	verbs_lookup_v65(RTLD_DEFAULT, &lib65);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (d = 0; d < 2; d++)
		t_run_all(&devs[d], false, argc, argv);
	t_run_all(&any, true, argc, argv);
	return 0;
}
