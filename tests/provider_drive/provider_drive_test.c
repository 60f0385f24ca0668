// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One release's Debian provider plugins driven through the fake kernel,
 * on that release's libibverbs and on ours (t_drive.h). The program
 * records every persona under the three kernels of t_uverbs.h, each
 * drive in a process of its own (a provider that crashes on an answer
 * shows as such, and every drive starts with a fresh library), twice:
 * once per library (t_diffrun.h). A cmocka case per provider then
 * compares the two.
 *
 * The providers come from $IBV_REFERENCE_PROVIDERS (the unpacked
 * ibverbs-providers of the release whose core $IBV_REFERENCE_LIBDIR
 * holds: provider_drive_test_<release>), named by path in RDMAV_DRIVERS,
 * and only from there: the private /etc of the fake kernel has no driver
 * files. A persona is driven when the directory has its plugin, of any
 * provider ABI (lib<name>-rdmav<N>.so), since releases differ in what
 * they ship (ionic came after 56.1); a plugin of the directory that no
 * persona knows fails the run, so that none goes untested.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* verbs.h first: it lays out RDMA_UAPI_PTR before the kernel's headers. */
#include "t_drive.h"

#include "t_diffrun.h"
#include "t_rdma_nl.h"
#include "t_util.h"

/* Recording. */

static const struct t_persona *current;

/* The device's core answers first, then the persona's driver part. */
static int drive_answer(struct t_uv_cmd *cmd)
{
	t_answer *answer = current->answers[t_verb_of(cmd)];

	t_device_answer(current, cmd);
	return answer ? answer(cmd) : 0;
}

/*
 * The trace marks a request "(masked)" when its driver has a mask: every
 * persona's driver has both, masking nothing where the persona names
 * none, so that every trace reads alike.
 */
static void mask_nothing(const struct t_uv_cmd *cmd, uint8_t *buf, size_t len)
{
	(void)cmd, (void)buf, (void)len;
}

/* The persona's device, in a sysfs tree and on netlink of its own. */
static void make_device(const struct t_persona *p)
{
	char modalias[96];
	struct t_dev sys = {
		.ibdev = p->ibdev,
		.uverbs = 0,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.abi = p->abi,
		.node_type = p->node_type,
		.guid = "0b0a:0fff:fe00:0001",
	};
	struct t_nl_dev nl = {
		.index = 1,
		.name = p->ibdev,
		.node_type = p->node_type,
		.node_guid = 0x0100fefff0a0a0bull,
		.ports = 1,
		.maj = T_UV_MAJOR,
		.min = T_UV_MINOR,
		.chardev = "uverbs0",
		.abi = p->abi,
		.driver_id = p->driver_id,
	};
	char *root = t_sysfs_new();

	if (p->vendor) {
		snprintf(modalias, sizeof(modalias),
			 "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00", p->vendor,
			 p->device, p->vendor, 0);
		sys.modalias = modalias;
	}
	t_sysfs_add(root, &sys);
	setenv("SYSFS_PATH", root, 1);
	t_nl_enable();
	t_nl_add(&nl);
}

static void drive_one(const struct t_persona *p, enum t_uv_kernel k,
		      const char *path)
{
	static struct t_uv_driver driver;
	char drivers[4096];

	snprintf(drivers, sizeof(drivers), "%s/lib%s",
		 getenv("IBV_REFERENCE_PROVIDERS"), p->name);
	setenv("RDMAV_DRIVERS", drivers, 1);
	make_device(p);
	current = p;
	/* The persona's driver, answering by its table. */
	driver = p->driver;
	driver.answer = drive_answer;
	if (!driver.mask_in)
		driver.mask_in = mask_nothing;
	if (!driver.mask_core_in)
		driver.mask_core_in = mask_nothing;
	t_uv.trace = fopen(path, "a");
	if (!t_uv.trace)
		exit(1);
	setvbuf(t_uv.trace, NULL, _IOLBF, 0);
	t_uv.driver = &driver;
	t_uv_reset(k);
	t_uv_section("%s %s", p->name, t_uv_kernel_name(k));
	t_drive(p);
	fclose(t_uv.trace);
}

/*
 * A drive that takes longer than this is a provider spinning on an
 * answer it cannot use: it ends as a result of its own, not a hung test.
 */
#define T_DRIVE_SECONDS 20

/* Each drive in a child, so that a crash is one provider's result. */
static int record_one(const struct t_persona *p, enum t_uv_kernel k,
		      const char *path)
{
	int status;
	pid_t pid;
	FILE *f;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		alarm(T_DRIVE_SECONDS);
		drive_one(p, k, path);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	f = fopen(path, "a");
	if (!f)
		return 1;
	fprintf(f, "  result drive ended: %s %d\n",
		WIFSIGNALED(status) ? "signal" : "exit",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	fclose(f);
	return 0;
}

/*
 * The provider of a plugin's file name, lib<name>-rdmav<N>.so, into
 * @name; false for any other file.
 */
static bool plugin_name(const char *file, char *name, size_t size)
{
	const char *abi = strstr(file, "-rdmav");
	size_t len = abi ? (size_t)(abi - file) : 0, digits;

	if (strncmp(file, "lib", 3) || len <= 3 || len - 3 >= size)
		return false;
	digits = strspn(abi + 6, "0123456789");
	if (!digits || strcmp(abi + 6 + digits, ".so"))
		return false;
	memcpy(name, file + 3, len - 3);
	name[len - 3] = '\0';
	return true;
}

static int persona_index(const char *name)
{
	for (unsigned int i = 0; i < t_npersonas; i++)
		if (!strcmp(t_personas[i]->name, name))
			return i;
	return -1;
}

/* Which personas' plugins $IBV_REFERENCE_PROVIDERS has. */
static bool shipped[T_MAX_PERSONAS];

/*
 * Marks the personas whose plugin the directory has; false (and says
 * which) when it has a plugin no persona knows. With T_DRIVE_ONLY the
 * directory may be one of this tree's builds, whose other plugins (the
 * test provider's) are no concern of the chosen persona.
 */
static bool find_plugins(void)
{
	const char *dir = getenv("IBV_REFERENCE_PROVIDERS");
	bool known = true;
	struct dirent *e;
	char name[64];
	int i;
	DIR *d;

	if (!dir)
		return true;
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return false;
	}
	while ((e = readdir(d)))
		if (plugin_name(e->d_name, name, sizeof(name))) {
			i = persona_index(name);
			if (i >= 0) {
				shipped[i] = true;
			} else if (!getenv("T_DRIVE_ONLY")) {
				fprintf(stderr, "%s/%s: no persona drives it\n",
					dir, e->d_name);
				known = false;
			}
		}
	closedir(d);
	return known;
}

/*
 * T_DRIVE_ONLY=<name> records one persona, for working on it; a persona
 * whose plugin the release does not ship is not driven.
 */
static bool chosen(unsigned int i)
{
	const char *only = getenv("T_DRIVE_ONLY");

	return shipped[i] && (!only || !strcmp(only, t_personas[i]->name));
}

static int record(const char *path)
{
	if (!getenv("IBV_REFERENCE_PROVIDERS")) {
		fprintf(stderr, "skip: IBV_REFERENCE_PROVIDERS is not set\n");
		return T_SKIP;
	}
	if (!t_ns_enter())
		return T_SKIP;
	/* Only the providers named in RDMAV_DRIVERS. */
	t_rm_rf("/etc/libibverbs.d");
	for (unsigned int i = 0; i < t_npersonas; i++)
		for (size_t k = 0; k < T_DIFFRUN_NKERNELS && chosen(i); k++)
			if (record_one(t_personas[i], t_diffrun_kernels[k],
				       path))
				return 1;
	return 0;
}

int main(void)
{
	static struct t_diffrun run = {
		.group = "provider_drive",
		.record = record,
	};
	const char *names[T_MAX_PERSONAS];
	size_t n = 0;

	if (!getenv("IBV_REFERENCE_PROVIDERS")) {
		fprintf(stderr, "skip: IBV_REFERENCE_PROVIDERS is not set\n");
		return T_SKIP;
	}
	if (!find_plugins())
		return 1;
	for (unsigned int i = 0; i < t_npersonas; i++) {
		if (chosen(i))
			names[n++] = t_personas[i]->name;
		/*
		 * Said once, by the parent of a whole run: no persona goes
		 * missing unseen.
		 */
		else if (!shipped[i] && !getenv("T_UV_RECORD") &&
			 !getenv("T_DRIVE_ONLY"))
			printf("not driven: %s, whose plugin %s lacks\n",
			       t_personas[i]->name,
			       getenv("IBV_REFERENCE_PROVIDERS"));
	}
	if (!n) {
		fprintf(stderr, "skip: no persona's plugin in %s\n",
			getenv("IBV_REFERENCE_PROVIDERS"));
		return T_SKIP;
	}
	return t_diffrun_main(&run, names, n);
}
