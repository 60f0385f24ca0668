// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which provider plug-ins a process loads: only those its devices need.
 * The fake kernel lists devices on its RDMA netlink (with their driver
 * ids) and in sysfs; the configuration names every Debian provider of
 * one release (IBV_REFERENCE_PROVIDERS), one file each, as Debian
 * installs them; the plug-ins are real, and whether one was loaded is
 * asked of the dynamic loader (dlopen with RTLD_NOLOAD). A device that
 * no rule places, or that the providers the rules name do not take,
 * still loads everything, so that no device is missed.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/driver.h>
#include <infiniband/verbs.h>

#include "t_drive.h"
#include "t_rdma_nl.h"
#include "t_scenario.h"
#include "t_util.h"

#define T_MAX_PLUGINS 32
#define T_DEBIAN_PROVIDERS 17

/* The release's plug-ins: config name and file. */
static char names[T_MAX_PLUGINS][64], files[T_MAX_PLUGINS][4096];
static unsigned int nplugins;
static char *root;

static const char *plugin_dir(void)
{
	return getenv("IBV_REFERENCE_PROVIDERS");
}

/* lib<name>-rdmav<N>.so of the plug-in directory, into the list. */
static int find_plugins(void)
{
	struct dirent **list;
	int n = scandir(plugin_dir(), &list, NULL, alphasort);

	nplugins = 0;
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *f = list[i]->d_name;
		const char *dash = strstr(f, "-rdmav");
		size_t len = dash ? (size_t)(dash - f) - 3 : 0;

		if (!strncmp(f, "lib", 3) && dash && len < sizeof(names[0]) &&
		    nplugins < T_MAX_PLUGINS) {
			memcpy(names[nplugins], f + 3, len);
			names[nplugins][len] = '\0';
			snprintf(files[nplugins], sizeof(files[0]), "%s/%s",
				 plugin_dir(), f);
			nplugins++;
		}
		free(list[i]);
	}
	free(list);
	return 0;
}

static int plugin_index(const char *name)
{
	for (unsigned int i = 0; i < nplugins; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

/* Whether the process has the plug-in of @i mapped. */
static bool is_loaded(unsigned int i)
{
	void *h = dlopen(files[i], RTLD_LAZY | RTLD_NOLOAD);

	if (h)
		dlclose(h);
	return h != NULL;
}

/* The names of the loaded plug-ins, space-separated, and how many. */
static unsigned int loaded_list(char *buf, size_t len)
{
	unsigned int n = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < nplugins; i++)
		if (is_loaded(i)) {
			used += snprintf(buf + used, len - used, " %s",
					 names[i]);
			n++;
		}
	return n;
}

/* Exactly the plug-ins @want (a space-separated list) are loaded. */
static bool loaded_exactly(const char *want)
{
	char got[2048], copy[512], *tok, *save;
	unsigned int n = loaded_list(got, sizeof(got)), expect = 0;

	printf("loaded:%s\n", got);
	snprintf(copy, sizeof(copy), "%s", want);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		int i = plugin_index(tok);

		if (i < 0 || !is_loaded(i)) {
			fprintf(stderr, "%s is not loaded\n", tok);
			return false;
		}
		expect++;
	}
	if (n != expect)
		fprintf(stderr, "loaded%s, wanted only %s\n", got, want);
	return n == expect;
}

/* One config file per provider, naming it by path prefix, as Debian's. */
static void configure(const char *except)
{
	char path[4200], line[4200];

	t_rm_rf("/etc/libibverbs.d");
	T_CHECK(!mkdir("/etc/libibverbs.d", 0755));
	for (unsigned int i = 0; i < nplugins; i++) {
		if (except && !strcmp(except, names[i]))
			continue;
		snprintf(path, sizeof(path), "/etc/libibverbs.d/%s.driver",
			 names[i]);
		snprintf(line, sizeof(line), "driver %s/lib%s\n", plugin_dir(),
			 names[i]);
		t_write(path, line);
	}
}

struct t_device {
	const char *name;
	uint32_t driver_id;
	uint32_t abi;
	uint16_t vendor, device;
	uint8_t node_type; /* 0: a CA */
};

/* Device @n of @d's kind, on netlink and in sysfs, as uverbs<n>. */
static void add_device(unsigned int n, const struct t_device *d)
{
	char modalias[96];
	struct t_dev sys = { .ibdev = d->name,
			     .uverbs = (int)n,
			     .maj = 231,
			     .min = n,
			     .abi = (int)d->abi,
			     .node_type = d->node_type,
			     .guid = "0b0a:0fff:fe00:0001" };
	static char chardevs[8][16];
	struct t_nl_dev nl = { .index = n + 1,
			       .name = d->name,
			       .node_type = d->node_type ? d->node_type : 1,
			       .node_guid = 0x0100fefff0a0a0bull,
			       .ports = 1,
			       .maj = 231,
			       .min = n,
			       .abi = d->abi,
			       .driver_id = d->driver_id };

	snprintf(chardevs[n % 8], sizeof(chardevs[0]), "uverbs%u", n);
	nl.chardev = chardevs[n % 8];
	if (d->vendor) {
		snprintf(modalias, sizeof(modalias),
			 "pci:v%08Xd%08Xsv%08Xsd%08Xbc02sc00i00", d->vendor,
			 d->device, d->vendor, 0);
		sys.modalias = modalias;
	}
	t_sysfs_add(root, &sys);
	t_nl_add(&nl);
}

static const struct t_device rxe0 = { .name = "rxe0",
				      .driver_id = RDMA_DRIVER_RXE,
				      .abi = 2 };
static const struct t_device siw0 = { .name = "siw0",
				      .driver_id = RDMA_DRIVER_SIW,
				      .abi = 1 };
static const struct t_device efa0 = { .name = "efa0",
				      .driver_id = RDMA_DRIVER_EFA,
				      .abi = 1,
				      .vendor = 0x1d0f,
				      .device = 0xefa1 };
/* A driver id no rule knows, on no bus: nothing places it. */
static const struct t_device odd0 = { .name = "odd0",
				      .driver_id = 200,
				      .abi = 1 };

/* The fake kernel, the configuration, and the plug-ins; false: skip. */
static bool setup(void)
{
	if (!plugin_dir()) {
		fprintf(stderr, "skip: IBV_REFERENCE_PROVIDERS is not set\n");
		return false;
	}
	if (find_plugins() || nplugins < T_DEBIAN_PROVIDERS) {
		fprintf(stderr, "skip: %u plug-ins in %s\n", nplugins,
			plugin_dir());
		return false;
	}
	root = t_fake_kernel(false);
	if (!root)
		return false;
	t_nl_enable();
	configure(NULL);
	return true;
}

/* Lists, checks the count and frees; the count, or -1 on failure. */
static int list_count(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	int n = list ? t_count(list) : -1;

	ibv_free_device_list(list);
	return n;
}

/* rxe0 and siw0 of 17 configured providers: two plug-ins, no more. */
static int sc_two_of_many(void *arg)
{
	struct ibv_device **list;

	if (!setup())
		return T_SKIP;
	add_device(0, &siw0);
	add_device(1, &rxe0);
	/* In the kernel's order, whichever plug-in came first. */
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 2);
	T_CHECK(!strcmp(list[0]->name, "siw0") &&
		!strcmp(list[1]->name, "rxe0"));
	ibv_free_device_list(list);
	T_CHECK(loaded_exactly("rxe siw"));
	/* Free and list again: nothing more is loaded, nothing lost. */
	T_CHECK(list_count() == 2);
	T_CHECK(loaded_exactly("rxe siw"));
	return 0;
}

/* A device that appears later loads its provider on the next listing. */
static int sc_hotplug(void *arg)
{
	if (!setup())
		return T_SKIP;
	add_device(0, &rxe0);
	T_CHECK(list_count() == 1);
	T_CHECK(loaded_exactly("rxe"));
	add_device(1, &siw0);
	T_CHECK(list_count() == 2);
	T_CHECK(loaded_exactly("rxe siw"));
	add_device(2, &efa0);
	T_CHECK(list_count() == 3);
	T_CHECK(loaded_exactly("efa rxe siw"));
	return 0;
}

/* A driver id no rule knows loads every configured provider. */
static int sc_unknown_loads_all(void *arg)
{
	char got[2048];

	if (!setup())
		return T_SKIP;
	add_device(0, &rxe0);
	add_device(1, &odd0);
	T_CHECK(list_count() == 1);
	T_CHECK(loaded_list(got, sizeof(got)) == nplugins);
	printf("loaded:%s\n", got);
	return 0;
}

/* The same by sysfs alone, on a kernel without driver ids (no netlink). */
static int sc_sysfs_modalias(void *arg)
{
	if (!plugin_dir() || find_plugins())
		return T_SKIP;
	root = t_fake_kernel(false);
	if (!root)
		return T_SKIP;
	configure(NULL);
	add_device(0, &efa0); /* sysfs keeps it; netlink stays hidden */
	T_CHECK(list_count() == 1);
	T_CHECK(loaded_exactly("efa"));
	return 0;
}

/*
 * A provider the rules name but the configuration leaves out: the device
 * is taken by whichever configured provider claims it, here the test
 * provider (claiming rxe's driver id), which the rules do not know.
 */
static int sc_third_party(void *arg)
{
	char line[4200];
	struct ibv_device **list;

	if (!setup())
		return T_SKIP;
	configure("rxe");
	snprintf(line, sizeof(line), "driver %s\n", t_testprov());
	t_write("/etc/libibverbs.d/zz-testprov.driver", line);
	add_device(0, &rxe0);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(!strcmp(verbs_get_device(list[0])->ops->name, "testprov"));
	ibv_free_device_list(list);
	return 0;
}

/*
 * RDMAV_DRIVERS is the user's choice, and so is its older name
 * IBV_DRIVERS (@arg): loaded whatever the devices need.
 */
static int sc_env_named(void *arg)
{
	const char *var = arg;
	char env[4200];

	if (!setup())
		return T_SKIP;
	snprintf(env, sizeof(env), "%s/libmthca", plugin_dir());
	setenv(var, env, 1);
	add_device(0, &rxe0);
	T_CHECK(list_count() == 1);
	T_CHECK(loaded_exactly("mthca rxe"));
	return 0;
}

/*
 * Two plug-ins of one name: the configuration's order decides, as when
 * everything is loaded (ours from the build tree, Debian's).
 */
static int sc_config_order(void *arg)
{
	const bool ours_first = arg != NULL;
	char ours[4200], debian[4200], our_dir[4200];
	struct ibv_device **list;
	Dl_info info;

	if (!setup())
		return T_SKIP;
	configure("rxe");
	snprintf(ours, sizeof(ours), "driver %s/lib/librxe\n", t_build_dir());
	snprintf(debian, sizeof(debian), "driver %s/librxe\n", plugin_dir());
	t_write("/etc/libibverbs.d/ra.driver", ours_first ? ours : debian);
	t_write("/etc/libibverbs.d/rb.driver", ours_first ? debian : ours);
	add_device(0, &rxe0);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(dladdr(verbs_get_device(list[0])->ops, &info));
	printf("rxe0 is served by %s\n", info.dli_fname);
	/* The reference's root lies in the build tree too, not in lib/. */
	snprintf(our_dir, sizeof(our_dir), "%s/lib/", t_build_dir());
	T_CHECK(!strncmp(info.dli_fname, our_dir, strlen(our_dir)) ==
		ours_first);
	ibv_free_device_list(list);
	return 0;
}

/* Copies file @from to @to, whole. */
static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;

	T_CHECK(in && out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		T_CHECK(fwrite(buf, 1, n, out) == n);
	T_CHECK(!ferror(in) && !fclose(out));
	fclose(in);
}

/*
 * A provider loaded late still comes first when named first. The test
 * provider, which claims rxe's and siw's driver ids, is installed as a
 * "siw" named before rxe. rxe0 loads rxe alone (the rules send an rxe
 * device to rxe); siw0, appearing next, loads the false siw; rxe1,
 * appearing last, finds both loaded and claiming it, and the one named
 * first must win, as when everything is loaded, though it was loaded
 * second.
 */
static int sc_rank_order(void *arg)
{
	char from[4200], to[4200], line[4200];
	struct ibv_device **list;
	const struct t_device rxe1 = { .name = "rxe1",
				       .driver_id = RDMA_DRIVER_RXE,
				       .abi = 2 };

	if (!setup())
		return T_SKIP;
	configure("siw");
	T_CHECK(!mkdir("/etc/ibvt-plugins", 0755));
	snprintf(from, sizeof(from), "%s%s", t_testprov(), t_plugin_suffix());
	snprintf(to, sizeof(to), "/etc/ibvt-plugins/libsiw%s",
		 t_plugin_suffix());
	copy_file(from, to);
	snprintf(line, sizeof(line), "driver /etc/ibvt-plugins/libsiw\n");
	t_write("/etc/libibverbs.d/0-siw.driver", line);
	add_device(0, &rxe0);
	T_CHECK(list_count() == 1);
	add_device(1, &siw0);
	T_CHECK(list_count() == 2);
	add_device(2, &rxe1);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 3);
	T_CHECK(!strcmp(verbs_get_device(t_find(list, "rxe0"))->ops->name,
			"rxe"));
	T_CHECK(!strcmp(verbs_get_device(t_find(list, "siw0"))->ops->name,
			"testprov"));
	T_CHECK(!strcmp(verbs_get_device(t_find(list, "rxe1"))->ops->name,
			"testprov"));
	ibv_free_device_list(list);
	return 0;
}

/*
 * The device of each persona of provider_drive_test (every Debian
 * provider's, as its kernel driver shows it: driver id, PCI ids, ABI) is
 * found alone, served by its provider, without loading everything.
 */
static int sc_persona(void *arg)
{
	const struct t_persona *p = arg;
	const struct t_device d = { .name = p->ibdev,
				    .driver_id = p->driver_id,
				    .abi = p->abi,
				    .vendor = p->vendor,
				    .device = p->device,
				    .node_type = p->node_type };
	char lib[80], got[2048];
	struct ibv_device **list;
	unsigned int n;
	Dl_info info;

	if (!setup())
		return T_SKIP;
	add_device(0, &d);
	list = ibv_get_device_list(NULL);
	T_CHECK(t_count(list) == 1);
	T_CHECK(dladdr(verbs_get_device(list[0])->ops, &info));
	snprintf(lib, sizeof(lib), "lib%s", p->name);
	n = loaded_list(got, sizeof(got));
	printf("%s: served by %s; loaded%s\n", p->ibdev,
	       strrchr(info.dli_fname, '/') + 1, got);
	T_CHECK(!strncmp(strrchr(info.dli_fname, '/') + 1, lib, strlen(lib)));
	T_CHECK(n < nplugins);
	ibv_free_device_list(list);
	return 0;
}

/* Opens of a "modalias" file that inotify descriptor @fd reported. */
static unsigned int modalias_opens(int fd)
{
	char buf[65536] __attribute__((aligned(8)));
	unsigned int opens = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const void *)p;

			opens += ev->len && !strcmp(ev->name, "modalias");
			p += sizeof(*ev) + ev->len;
		}
	return opens;
}

#define T_COLD_DEVICES 64

/*
 * A cold listing of many devices without driver ids (sysfs discovery)
 * that only a provider the rules do not know takes, the test provider,
 * named first; the rules' other names are rxe and siw, which no modalias
 * leads to. No device may have its modalias read on the way: not by the
 * rules, which cannot help, nor by the matching, which the test
 * provider's name table settles first. inotify counts the opens.
 */
static int sc_cold_unknown_names(void *arg)
{
	char line[4200], dir[4200], name[16];
	unsigned int opens;
	int fd;

	if (!plugin_dir() || find_plugins() || plugin_index("rxe") < 0 ||
	    plugin_index("siw") < 0)
		return T_SKIP;
	root = t_fake_kernel(false);
	if (!root)
		return T_SKIP;
	t_rm_rf("/etc/libibverbs.d");
	T_CHECK(!mkdir("/etc/libibverbs.d", 0755));
	snprintf(line, sizeof(line), "driver %s\n", t_testprov());
	t_write("/etc/libibverbs.d/0-testprov.driver", line);
	snprintf(line, sizeof(line), "driver %s/librxe\n", plugin_dir());
	t_write("/etc/libibverbs.d/rxe.driver", line);
	snprintf(line, sizeof(line), "driver %s/libsiw\n", plugin_dir());
	t_write("/etc/libibverbs.d/siw.driver", line);
	fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	T_CHECK(fd >= 0);
	for (unsigned int n = 0; n < T_COLD_DEVICES; n++) {
		struct t_dev d = { .ibdev = name,
				   .uverbs = (int)n,
				   .maj = 231,
				   .min = n,
				   .abi = 1,
				   .modalias = "platform:tprov" };

		snprintf(name, sizeof(name), "tprov%u", n);
		t_sysfs_add(root, &d);
		snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/device",
			 root, name);
		T_CHECK(inotify_add_watch(fd, dir, IN_OPEN) >= 0);
	}
	T_CHECK(list_count() == T_COLD_DEVICES);
	T_CHECK(loaded_exactly("rxe siw"));
	opens = modalias_opens(fd);
	printf("modalias opens: %u\n", opens);
	T_CHECK(opens == 0);
	close(fd);
	return 0;
}

static void test_cold_unknown_names(void **s)
{
	t_scenario(sc_cold_unknown_names, NULL);
}
static void test_two_of_many(void **s)
{
	t_scenario(sc_two_of_many, NULL);
}
static void test_hotplug(void **s)
{
	t_scenario(sc_hotplug, NULL);
}
static void test_unknown_loads_all(void **s)
{
	t_scenario(sc_unknown_loads_all, NULL);
}
static void test_sysfs_modalias(void **s)
{
	t_scenario(sc_sysfs_modalias, NULL);
}
static void test_third_party(void **s)
{
	t_scenario(sc_third_party, NULL);
}
static void test_env_named(void **s)
{
	static char rdmav[] = "RDMAV_DRIVERS", ibv[] = "IBV_DRIVERS";

	t_scenario(sc_env_named, rdmav);
	t_scenario(sc_env_named, ibv);
}
/* Each persona whose provider this release ships. */
static void test_personas(void **s)
{
	unsigned int tried = 0;

	if (!plugin_dir() || find_plugins())
		skip();
	for (unsigned int i = 0; i < t_npersonas; i++)
		if (plugin_index(t_personas[i]->name) >= 0) {
			t_scenario(sc_persona, (void *)t_personas[i]);
			tried++;
		}
	printf("%u personas of %u plug-ins\n", tried, nplugins);
	assert_int_equal(tried, nplugins);
}
static void test_rank_order(void **s)
{
	t_scenario(sc_rank_order, NULL);
}
static void test_config_order(void **s)
{
	static char ours_first[] = "ours first";

	t_scenario(sc_config_order, ours_first);
	t_scenario(sc_config_order, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_of_many),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_unknown_loads_all),
		cmocka_unit_test(test_sysfs_modalias),
		cmocka_unit_test(test_third_party),
		cmocka_unit_test(test_env_named),
		cmocka_unit_test(test_config_order),
		cmocka_unit_test(test_rank_order),
		cmocka_unit_test(test_personas),
		cmocka_unit_test(test_cold_unknown_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
