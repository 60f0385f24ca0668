// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Recording a test twice, on both libraries, and comparing the traces
 * (see t_diffrun.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "t_diffrun.h"

#define T_SKIP 77

const enum t_uv_kernel t_diffrun_kernels[T_DIFFRUN_NKERNELS] = {
	T_UV_IOCTL,
	T_UV_NO_IOCTL,
	T_UV_TUNNEL,
};

static int record_errno(const char *record)
{
	static const char arrow[] = "\n  -> ";
	const char *ret = strstr(record, arrow);

	return ret ? atoi(ret + sizeof(arrow) - 1) : 0;
}

static bool tunnel_probe(const char *record)
{
	static const char invoke[] = "ioctl DEVICE/INVOKE_WRITE ";

	return !strncmp(record, invoke, sizeof(invoke) - 1) &&
	       strstr(record, " num_attrs=1 ") &&
	       strstr(record, "\n  attr 2 flags=1 len=8 1\n");
}

static bool refused(const char *record)
{
	int err = record_errno(record);

	return !strncmp(record, "ioctl ", 6) &&
	       (err == ENOTTY || err == EPROTONOSUPPORT);
}

/*
 * A post of no work request, a provider's doorbell: the request's second
 * word, qp_handle with wr_count above it, shows no high half.
 */
static bool doorbell(const char *record)
{
	static const char *const posts[] = {
		"\n  cmd POST_SEND core(masked) ptr ",
		"\n  cmd POST_RECV core(masked) ptr ",
		"\n  cmd POST_SRQ_RECV core(masked) ptr ",
	};

	for (size_t i = 0; i < sizeof(posts) / sizeof(posts[0]); i++) {
		const char *p = strstr(record, posts[i]);

		if (p) {
			p += strlen(posts[i]);
			return strspn(p, "0123456789abcdef") <= 8;
		}
	}
	return false;
}

/*
 * The rules every run on the fake kernel needs: a matching record is
 * dropped, or with @route_only, only the lines naming its route are,
 * the command itself, the answer and the result still compared.
 */
static struct t_drop {
	const char *name;
	bool (*match)(const char *record);
	const char *why;
	bool route_only;
	unsigned int ours, ref; /* records matched, over the whole run */
} drops[] = {
	{ .name = "doorbell route",
	  .match = doorbell,
	  .route_only = true,
	  .why = "a post of no work request, a provider's doorbell, goes by "
		 "write() from our core, its native form and the cheapest, "
		 "where rdma-core (every release) tunnels it through "
		 "DEVICE/INVOKE_WRITE when the kernel has the tunnel; the "
		 "command is the same" },
	{ .name = "tunnel probe",
	  .match = tunnel_probe,
	  .why = "rdma-core (every release) asks for DEVICE/INVOKE_WRITE "
		 "(with QUERY_DEVICE and no request, which a kernel that has "
		 "the tunnel refuses with ENOSPC) each time a context opens; "
		 "we learn whether the "
		 "kernel has the tunnel from the first command that needs it, "
		 "and save that system call on every open" },
	{ .name = "refused by the dispatcher",
	  .match = refused,
	  .why = "an ioctl the kernel's dispatcher refuses (ENOTTY: no ioctl "
		 "at all; EPROTONOSUPPORT: no such method) reaches no handler "
		 "and changes nothing; both libraries remember the refusal, "
		 "but learn it at different calls (see the tunnel probe)" },
};
#define NDROPS (sizeof(drops) / sizeof(drops[0]))

/* @text without the records a drop rule matches. */
static char *drop_records(const char *text, bool ours)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *p = text;

	while (*p) {
		const char *end = strchrnul(p, '\n'),
			   *ret = strstr(p, "\n  -> ");
		bool call = !strncmp(p, "ioctl ", 6) ||
			    !strncmp(p, "write ", 6);
		bool drop = false;
		size_t matched = 0;
		char *record;
		size_t n;

		/* A call's record runs to its "  -> " line. */
		if (call && ret)
			end = strchrnul(ret + 1, '\n');
		n = (*end ? end + 1 : end) - p;
		record = strndup(p, n);
		for (size_t i = 0; call && i < NDROPS && !drop; i++)
			if (drops[i].match(record)) {
				matched = i;
				if (ours)
					drops[i].ours++;
				else
					drops[i].ref++;
				drop = true;
			}
		if (drop && drops[matched].route_only) {
			const char *body = strstr(record, "\n  cmd ");

			o = stpcpy(o, "(route of a doorbell)");
			o = mempcpy(o, body, record + n - body);
		} else if (!drop) {
			o = mempcpy(o, record, n);
		}
		free(record);
		p += n;
	}
	*o = '\0';
	return out;
}

/*
 * A word of a line rule's @ref: "*x" stands for any word that ends in x
 * (a bare "*" for any word), where rdma-core sends bytes it never set,
 * which differ from run to run.
 */
static bool word_matches(const char *w, size_t wl, const char *p, size_t pl)
{
	if (pl && p[0] == '*')
		return wl >= pl - 1 &&
		       !memcmp(w + wl - (pl - 1), p + 1, pl - 1);
	return wl == pl && !memcmp(w, p, wl);
}

/* Whether the line @l (@len bytes) is what a rule's @ref describes. */
static bool line_matches(const char *l, size_t len, const char *ref)
{
	const char *end = l + len;

	for (;;) {
		const char *le = memchr(l, ' ', end - l);
		const char *re = strchrnul(ref, ' ');

		le = le ? le : end;
		if (!word_matches(l, le - l, ref, re - ref))
			return false;
		if (le == end || !*re)
			return le == end && !*re;
		l = le + 1;
		ref = re + 1;
	}
}

/* rdma-core's @text of section @name with the line rules applied. */
static char *replace_lines(struct t_diffrun *run, char *text, const char *name)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	const char *p = text;

	if (!f)
		abort();
	while (*p) {
		const char *end = strchrnul(p, '\n'), *line = NULL;

		for (size_t i = 0; i < run->nlines && !line; i++)
			if (!strcmp(run->lines[i].name, name) &&
			    line_matches(p, end - p, run->lines[i].ref)) {
				line = run->lines[i].ours;
				run->lines[i].used++;
			}
		if (line)
			fputs(line, f);
		else
			fwrite(p, 1, end - p, f);
		if (*end)
			fputc('\n', f);
		p = *end ? end + 1 : end;
	}
	fclose(f);
	free(text);
	return out;
}

static char *section(struct t_diffrun *run, const char *name,
		     const char *variant, bool ours)
{
	const char *text = ours ? run->ours : run->ref, *start, *end;
	char head[256], *raw, *norm;

	snprintf(head, sizeof(head), "== %s %s\n", name, variant);
	start = strstr(text, head);
	if (!start)
		return NULL;
	start += strlen(head);
	end = strstr(start, "\n== ");
	end = end ? end + 1 : start + strlen(start);
	raw = strndup(start, end - start);
	norm = drop_records(raw, ours);
	free(raw);
	return ours ? norm : replace_lines(run, norm, name);
}

/* The first line where @a and @b part. */
static void show_difference(const char *a, const char *b)
{
	const char *la = a, *lb = b;
	unsigned int line = 1;

	while (*la && *lb) {
		const char *ea = strchrnul(la, '\n'), *eb = strchrnul(lb, '\n');

		if (ea - la != eb - lb || memcmp(la, lb, ea - la)) {
			printf("line %u differs:\n  ours: %.*s\n  ref:  %.*s\n",
			       line, (int)(ea - la), la, (int)(eb - lb), lb);
			return;
		}
		la = *ea ? ea + 1 : ea;
		lb = *eb ? eb + 1 : eb;
		line++;
	}
	printf("line %u: one trace ends early\n  ours: %.70s\n  ref:  %.70s\n",
	       line, la, lb);
}

static bool compare(struct t_diffrun *run, const char *name,
		    const char *variant)
{
	char *ours = section(run, name, variant, true);
	char *ref = section(run, name, variant, false);
	bool same = ours && ref && !strcmp(ours, ref);

	if (!same) {
		printf("%s, %s:\n", name, variant);
		if (ours && ref)
			show_difference(ours, ref);
		else
			printf("no such section in %s\n",
			       ours ? "rdma-core's trace" : "our trace");
	}
	fflush(stdout);
	free(ours);
	free(ref);
	return same;
}

static bool report(struct t_diffrun *run)
{
	bool ok = true;

	for (size_t i = 0; i < NDROPS; i++)
		printf("%s %u of ours and %u of rdma-core's: %s (%s)\n",
		       drops[i].route_only ? "unrouted" : "dropped",
		       drops[i].ours, drops[i].ref, drops[i].name,
		       drops[i].why);
	for (size_t i = 0; i < run->nlines; i++) {
		bool again = i && run->lines[i - 1].why == run->lines[i].why;

		printf("%s: %u line(s) differ on purpose%s%s\n",
		       run->lines[i].name, run->lines[i].used,
		       again ? " (as above)" : ": ",
		       again ? "" : run->lines[i].why);
		if (!run->lines[i].used) {
			printf("  ... but the rule no longer matches: %s\n",
			       run->lines[i].ref);
			ok = false;
		}
	}
	fflush(stdout);
	return ok;
}

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

int t_diffrun_self(const char *env, const char *value, const char *libdir)
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
		setenv(env, value, 1);
		if (libdir)
			setenv("LD_LIBRARY_PATH", libdir, 1);
		execl(self, self, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int run_child(const char *path, const char *libdir)
{
	return t_diffrun_self("T_UV_RECORD", path, libdir);
}

static int temp_file(char *path, size_t size, const char *what)
{
	int fd;

	snprintf(path, size, "/tmp/ibvt-diff-%s-XXXXXX", what);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int record_both(struct t_diffrun *run)
{
	const char *ref = getenv("IBV_REFERENCE_LIBDIR");
	int rc;

	if (!ref) {
		fprintf(stderr, "skip: IBV_REFERENCE_LIBDIR is not set\n");
		return T_SKIP;
	}
	if (temp_file(run->path_ours, sizeof(run->path_ours), "ours") ||
	    temp_file(run->path_ref, sizeof(run->path_ref), "ref"))
		return 1;
	rc = run_child(run->path_ours, NULL);
	if (!rc)
		rc = run_child(run->path_ref, ref);
	if (rc) {
		fprintf(stderr, "a recording child exited with %d\n", rc);
		return rc == T_SKIP ? T_SKIP : 1;
	}
	run->ours = slurp(run->path_ours);
	run->ref = slurp(run->path_ref);
	return run->ours && run->ref ? 0 : 1;
}

static void end(struct t_diffrun *run)
{
	if (getenv("T_UV_KEEP")) {
		printf("traces kept: %s %s\n", run->path_ours, run->path_ref);
	} else {
		unlink(run->path_ours);
		unlink(run->path_ref);
	}
	free(run->ours);
	free(run->ref);
}

/* The cmocka side: a case per name, the rules' report last. */

static struct t_diffrun *current;

static void compare_case(void **state)
{
	const char *name = *state;
	bool same = true;

	for (size_t k = 0; k < T_DIFFRUN_NKERNELS; k++)
		same &= compare(current, name,
				t_uv_kernel_name(t_diffrun_kernels[k]));
	assert_true(same);
}

/* After every case, so that the counts are whole. */
static void deliberate_differences(void **state)
{
	(void)state;
	assert_true(report(current));
}

static int end_run(void **state)
{
	(void)state;
	end(current);
	return 0;
}

int t_diffrun_main(struct t_diffrun *run, const char *const *names, size_t n)
{
	const char *rec = getenv("T_UV_RECORD");
	struct CMUnitTest *tests;
	int rc;

	if (rec)
		return run->record(rec);
	rc = record_both(run);
	if (rc)
		return rc;
	current = run;
	tests = calloc(n + 1, sizeof(*tests));
	if (!tests)
		return 1;
	for (size_t i = 0; i < n; i++)
		tests[i] = (struct CMUnitTest){
			.name = names[i],
			.test_func = compare_case,
			.initial_state = (void *)names[i],
		};
	tests[n] = (struct CMUnitTest){
		.name = "deliberate_differences",
		.test_func = deliberate_differences,
	};
	rc = _cmocka_run_group_tests(run->group, tests, n + 1, NULL, end_run);
	free(tests);
	return rc;
}
