// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The provider ABI byte for byte against rdma-core 44: every ibv_cmd_*()
 * and helper of IBVERBS_PRIVATE_34, called the way a hardware provider
 * calls it (driver-private request and response parts behind the core
 * ones, as a provider's lib*-abi.h structs put them), under a fake
 * kernel at the system-call boundary (t_uverbs.h) that plays three
 * kernels: one with every ioctl method, one without ioctl (ENOTTY), and
 * one that refuses every method but the write() tunnel.
 *
 * The program records its cases twice, in two children: once on our
 * library and once on Debian's (LD_LIBRARY_PATH), each writing a
 * canonical trace of what the kernel saw and what the caller got back.
 * Each cmocka case then compares one case's traces under the three
 * kernels. The differences we make on purpose are listed below with
 * their reasons; the comparison takes out exactly those, and a rule
 * that no longer matches anything fails the test.
 *
 * The cases live beside this file, a file per family (t_diff.h); the
 * provider they run on is provider.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t_diff.h"
#include "t_util.h"

static const struct t_case_set *const families[] = {
	&t_cases_device, &t_cases_mem,	&t_cases_cq,	  &t_cases_qp,
	&t_cases_srq,	 &t_cases_flow, &t_cases_helpers,
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

static const enum t_uv_kernel kernels[] = { T_UV_IOCTL, T_UV_NO_IOCTL,
					    T_UV_TUNNEL };
#define NKERNELS (sizeof(kernels) / sizeof(kernels[0]))

/* Recording, in a child running on one library. */

static struct ibv_device *find_tdrv(struct ibv_device **list)
{
	for (; list && *list; list++)
		if (!strcmp(ibv_get_device_name(*list), "tdrv0"))
			return *list;
	return NULL;
}

static void record_case(struct ibv_device *dev, enum t_uv_kernel k,
			const struct t_case *c)
{
	struct ibv_context *ctx;

	t_uv_reset(k);
	t_uv_forget_all();
	t_uv_section("%s %s", c->name, t_uv_kernel_name(k));
	ctx = ibv_open_device(dev);
	if (!ctx) {
		t_uv_note("open failed errno=%d", errno);
		return;
	}
	t_uv_name("ctx", ctx, sizeof(struct verbs_context));
	t_uv_note("-- case");
	c->fn(ctx);
	t_uv_forget_all();
	t_uv_note("-- close");
	ibv_close_device(ctx);
}

static int record(const char *path)
{
	struct t_dev dev = {
		.ibdev = "tdrv0",
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = 1,
	};
	struct ibv_device **list;
	struct ibv_device *d;
	char *root;

	root = t_fake_kernel(false);
	if (!root)
		return T_SKIP;
	t_sysfs_add(root, &dev);
	list = ibv_get_device_list(NULL);
	d = find_tdrv(list);
	if (!d) {
		fprintf(stderr, "the fake device tdrv0 was not found\n");
		return 1;
	}
	t_uv.trace = fopen(path, "w");
	if (!t_uv.trace)
		return 1;
	for (size_t k = 0; k < NKERNELS; k++)
		for (size_t f = 0; f < NFAMILIES; f++)
			for (size_t i = 0; i < families[f]->n; i++)
				record_case(d, kernels[k],
					    &families[f]->cases[i]);
	fclose(t_uv.trace);
	t_uv.trace = NULL;
	ibv_free_device_list(list);
	return 0;
}

/*
 * Differences made on purpose. A trace is a list of records: a system
 * call (its "ioctl" or "write" line up to its "  -> errno" line) or a
 * result line. A dropping rule takes the system calls it matches out of
 * both traces; a line rule replaces, in one case's rdma-core trace, a
 * line with the one our library writes instead.
 */
struct t_drop {
	const char *name;
	bool (*match)(const char *record);
	const char *why;
	unsigned int ours, ref; /* records dropped over the whole run */
};

struct t_line {
	const char *case_name;
	const char *ref, *ours;
	const char *why;
	unsigned int used;
};

static int record_errno(const char *record)
{
	const char *ret = strstr(record, "\n  -> ");

	return ret ? atoi(ret + 6) : 0;
}

static bool is_tunnel_probe(const char *record)
{
	return !strncmp(record, "ioctl DEVICE/INVOKE_WRITE ", 26) &&
	       strstr(record, " num_attrs=1 ") &&
	       strstr(record, "\n  attr 2 flags=1 len=8 1\n");
}

static bool is_refused(const char *record)
{
	int err = record_errno(record);

	return !strncmp(record, "ioctl ", 6) &&
	       (err == ENOTTY || err == EPROTONOSUPPORT);
}

static struct t_drop drops[] = {
	{ .name = "tunnel probe",
	  .match = is_tunnel_probe,
	  .why = "rdma-core 44 asks for DEVICE/INVOKE_WRITE (with QUERY_DEVICE and "
		 "no request, which a kernel that has the tunnel refuses with "
		 "ENOSPC) each time a context opens; we learn whether the kernel "
		 "has the tunnel from the first command that needs it, and save "
		 "that system call on every open" },
	{ .name = "refused by the dispatcher",
	  .match = is_refused,
	  .why = "an ioctl the kernel's dispatcher refuses (ENOTTY: no ioctl at "
		 "all; EPROTONOSUPPORT: no such method) reaches no handler and "
		 "changes nothing; both libraries remember the refusal, but learn "
		 "it at different calls (see the tunnel probe)" },
};
#define NDROPS (sizeof(drops) / sizeof(drops[0]))

#define WQ_FLAGS_WHY                                                          \
	"create_flags counts only with IBV_WQ_INIT_ATTR_FLAGS in comp_mask: " \
	"rdma-core 44 then sends 0 in the ioctl, but copies the stale bits "  \
	"into the write() request (and the tunnel), where the kernel "        \
	"honours them (VLAN stripping turned on); we send 0 every way"

static struct t_line lines[] = {
	{ .case_name = "wq_stale_flags",
	  .ref = "  cmd EX_CREATE_WQ core 0 wq+0 1100000010 200000010 1",
	  .ours = "  cmd EX_CREATE_WQ core 0 wq+0 1100000010 200000010 0",
	  .why = WQ_FLAGS_WHY },
	{ .case_name = "wq_stale_flags",
	  .ref = "  attr 0 flags=1 len=40 in@ptr 0 wq+0 1100000010 200000010 1",
	  .ours = "  attr 0 flags=1 len=40 in@ptr 0 wq+0 1100000010 200000010 0",
	  .why = WQ_FLAGS_WHY },
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* @text without the records a dropping rule matches. */
static char *drop_records(const char *text, bool ours)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *p = text;

	while (*p) {
		const char *end = strchrnul(p, '\n');
		bool call = !strncmp(p, "ioctl ", 6) ||
			    !strncmp(p, "write ", 6);
		bool drop = false;
		char *record;
		size_t n;

		/* A call's record runs to its "  -> " line. */
		if (call && strstr(p, "\n  -> "))
			end = strchrnul(strstr(p, "\n  -> ") + 1, '\n');
		n = (*end ? end + 1 : end) - p;
		record = strndup(p, n);
		for (size_t i = 0; call && i < NDROPS && !drop; i++)
			if (drops[i].match(record)) {
				(*(ours ? &drops[i].ours : &drops[i].ref))++;
				drop = true;
			}
		if (!drop)
			o = mempcpy(o, record, n);
		free(record);
		p += n;
	}
	*o = '\0';
	return out;
}

/* The rdma-core trace of @name with the line rules applied. */
static char *replace_lines(char *text, const char *name)
{
	for (size_t i = 0; i < NLINES; i++) {
		size_t rl = strlen(lines[i].ref), ol = strlen(lines[i].ours);
		char *at;

		if (strcmp(lines[i].case_name, name))
			continue;
		while ((at = strstr(text, lines[i].ref)) &&
		       (at[rl] == '\n' || !at[rl])) {
			char *next = malloc(strlen(text) - rl + ol + 1);

			memcpy(next, text, at - text);
			strcpy(mempcpy(next + (at - text), lines[i].ours, ol),
			       at + rl);
			free(text);
			text = next;
			lines[i].used++;
		}
	}
	return text;
}

/* One case under one kernel, from one of the traces, normalised. */
static char *section(const char *text, const char *name, enum t_uv_kernel k,
		     bool ours)
{
	char head[128], *raw, *norm;
	const char *start, *end;

	snprintf(head, sizeof(head), "== %s %s\n", name, t_uv_kernel_name(k));
	start = strstr(text, head);
	if (!start)
		return NULL;
	start += strlen(head);
	end = strstr(start, "\n== ");
	end = end ? end + 1 : start + strlen(start);
	raw = strndup(start, end - start);
	norm = drop_records(raw, ours);
	free(raw);
	return ours ? norm : replace_lines(norm, name);
}

/* The first line where @a and @b part. */
static void show_difference(const char *a, const char *b)
{
	const char *la = a, *lb = b;
	unsigned int line = 1;

	while (*la && *lb) {
		const char *ea = strchrnul(la, '\n'), *eb = strchrnul(lb, '\n');

		if (ea - la != eb - lb || memcmp(la, lb, ea - la)) {
			print_message(
				"line %u differs:\n  ours: %.*s\n  ref:  %.*s\n",
				line, (int)(ea - la), la, (int)(eb - lb), lb);
			return;
		}
		la = *ea ? ea + 1 : ea;
		lb = *eb ? eb + 1 : eb;
		line++;
	}
	print_message(
		"line %u: one trace ends early\n  ours: %.60s\n  ref:  %.60s\n",
		line, la, lb);
}

static char *text_ours, *text_ref;

static void compare_case(void **state)
{
	const struct t_case *c = *state;
	bool same = true;

	for (size_t k = 0; k < NKERNELS; k++) {
		char *ours = section(text_ours, c->name, kernels[k], true);
		char *ref = section(text_ref, c->name, kernels[k], false);

		assert_non_null(ours);
		assert_non_null(ref);
		if (strcmp(ours, ref)) {
			print_message("%s, %s kernel:\n", c->name,
				      t_uv_kernel_name(kernels[k]));
			show_difference(ours, ref);
			same = false;
		}
		free(ours);
		free(ref);
	}
	assert_true(same);
}

/* Every rule must still be needed; what each took out is printed. */
static void deliberate_differences(void **state)
{
	(void)state;
	for (size_t i = 0; i < NDROPS; i++)
		print_message(
			"dropped %u of ours and %u of rdma-core's: %s (%s)\n",
			drops[i].ours, drops[i].ref, drops[i].name,
			drops[i].why);
	for (size_t i = 0; i < NLINES; i++) {
		print_message("%s: %u line(s) differ on purpose: %s\n",
			      lines[i].case_name, lines[i].used, lines[i].why);
		assert_int_not_equal(lines[i].used, 0);
	}
}

/* Recording both, in children; 0, T_SKIP, or 1 with the reason printed. */

static char trace_ours[64] = "/tmp/ibvt-diff-ours-XXXXXX";
static char trace_ref[64] = "/tmp/ibvt-diff-ref-XXXXXX";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

static int run_child(const char *path, const char *libdir)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status;
	pid_t pid;

	if (n < 0)
		return -1;
	self[n] = '\0';
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("T_UV_RECORD", path, 1);
		if (libdir)
			setenv("LD_LIBRARY_PATH", libdir, 1);
		execl(self, self, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int record_both(void)
{
	const char *ref = getenv("IBV_REFERENCE_LIBDIR");
	int fd, rc;

	if (!ref) {
		fprintf(stderr, "skip: IBV_REFERENCE_LIBDIR is not set\n");
		return T_SKIP;
	}
	fd = mkstemp(trace_ours);
	close(fd);
	fd = mkstemp(trace_ref);
	close(fd);
	rc = run_child(trace_ours, NULL);
	if (!rc)
		rc = run_child(trace_ref, ref);
	if (rc) {
		fprintf(stderr, "a recording child exited with %d\n", rc);
		return rc == T_SKIP ? T_SKIP : 1;
	}
	text_ours = slurp(trace_ours);
	text_ref = slurp(trace_ref);
	return text_ours && text_ref ? 0 : 1;
}

static int drop_traces(void **state)
{
	(void)state;
	if (!getenv("T_UV_KEEP")) {
		unlink(trace_ours);
		unlink(trace_ref);
	} else {
		print_message("traces kept: %s %s\n", trace_ours, trace_ref);
	}
	free(text_ours);
	free(text_ref);
	return 0;
}

int main(void)
{
	const char *rec = getenv("T_UV_RECORD");
	struct CMUnitTest *tests;
	size_t n = 0;
	int rc;

	if (rec)
		return record(rec);
	rc = record_both();
	if (rc)
		return rc;
	for (size_t f = 0; f < NFAMILIES; f++)
		n += families[f]->n;
	tests = calloc(n + 1, sizeof(*tests));
	n = 0;
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < families[f]->n; i++)
			tests[n++] = (struct CMUnitTest){
				.name = families[f]->cases[i].name,
				.test_func = compare_case,
				.initial_state = (void *)&families[f]->cases[i],
			};
	/* After every case, so that the counts are whole. */
	tests[n++] = (struct CMUnitTest){
		.name = "deliberate_differences",
		.test_func = deliberate_differences,
	};
	rc = _cmocka_run_group_tests("driver_cmd_diff", tests, n, NULL,
				     drop_traces);
	free(tests);
	return rc;
}
