// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The driver list of drivers.c: configuration files, RDMAV_DRIVERS, and
 * the setuid rule that makes a privileged process ignore the environment.
 * Tested on the library's internal functions; linked with the static
 * archive, which exposes them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <infiniband/driver.h>

#include "libibverbs/discover.h"
#include "libibverbs/drivers.h"
#include "t_scenario.h"
#include "t_util.h"

static char *dir;

static void parse_dir(void *arg)
{
	assert_int_equal(parse_driver_config_dir(dir), 0);
}

static void write_in(const char *name, const char *content)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	t_write(path, content);
}

static int sc_config(void *arg)
{
	char *err;

	dir = t_sysfs_empty();
	write_in("a.driver", "# a comment\n\ndriver alpha\n   \n"
			     "driver  beta   # trailing comment\n");
	write_in("b.driver", "driver gamma\nprovider delta\ndriver\n"
			     "driver two words\n\tdriver\tepsilon\n");
	write_in("c.driver", "driver alpha\n"); /* duplicate: once only */
	write_in(".hidden", "driver hidden\n");
	write_in("subdir-marker", "");
	{
		char sub[4200];

		snprintf(sub, sizeof(sub), "%s/subdir", dir);
		mkdir(sub, 0755);
	}
	err = t_capture_stderr(parse_dir, NULL);
	T_CHECK(!strcmp(driver_name_at(0), "alpha"));
	T_CHECK(!strcmp(driver_name_at(1), "beta"));
	T_CHECK(!strcmp(driver_name_at(2), "gamma"));
	T_CHECK(!strcmp(driver_name_at(3), "epsilon"));
	T_CHECK(driver_name_at(4) == NULL);
	/* Each bad line is reported with its file and line number. */
	T_CHECK(strstr(err, "line 2 in config file"));
	T_CHECK(strstr(err, "b.driver"));
	T_CHECK(strstr(err, "provider delta"));
	T_CHECK(strstr(err, "line 3 in"));
	T_CHECK(strstr(err, "driver two words"));
	T_CHECK(!strstr(err, "a.driver"));
	T_CHECK(parse_driver_config_dir("/nonexistent/dir") == ENOENT);
	free(err);
	t_rm_rf(dir);
	free(dir);
	return 0;
}

static int sc_env_list(void *arg)
{
	T_CHECK(parse_driver_env("one:two;;/abs/path/libx:") == 0);
	T_CHECK(!strcmp(driver_name_at(0), "one"));
	T_CHECK(!strcmp(driver_name_at(1), "two"));
	T_CHECK(!strcmp(driver_name_at(2), "/abs/path/libx"));
	T_CHECK(driver_name_at(3) == NULL);
	return 0;
}

/* With effective and real user ids differing, the environment is ignored. */
static int sc_setuid(void *arg)
{
	if (geteuid() != 0) {
		fprintf(stderr,
			"skip: needs root to change the effective uid\n");
		return T_SKIP;
	}
	char log[] = "/tmp/ibvt-evil-XXXXXX";
	int fd = mkstemp(log);

	T_CHECK(fd >= 0);
	close(fd);
	unlink(log);
	setenv("SYSFS_PATH", "/tmp", 1);
	setenv("RDMAV_DRIVERS", "evil", 1);
	setenv("VERBS_LOG_LEVEL", "4", 1);
	setenv("VERBS_LOG_FILE", log, 1);
	T_CHECK(seteuid(65534) == 0);
	T_CHECK(getuid() != geteuid());
	T_CHECK(!strcmp(ibv_get_sysfs_path(), "/sys"));
	load_drivers();
	T_CHECK(driver_name_at(0) == NULL || strcmp(driver_name_at(0), "evil"));
	/* Initialisation reads the log settings: no file may appear. */
	ibv_free_device_list(ibv_get_device_list(NULL));
	T_CHECK(access(log, F_OK) != 0);
	/* Back to root, so that LeakSanitizer can inspect the process. */
	T_CHECK(seteuid(0) == 0);
	return 0;
}

static int sc_not_setuid(void *arg)
{
	setenv("SYSFS_PATH", "/tmp/", 1);
	T_CHECK(!strcmp(ibv_get_sysfs_path(), "/tmp"));
	return 0;
}

static void test_config(void **s)
{
	t_scenario(sc_config, NULL);
}
static void test_env_list(void **s)
{
	t_scenario(sc_env_list, NULL);
}
static void test_setuid(void **s)
{
	t_scenario(sc_setuid, NULL);
}
static void test_not_setuid(void **s)
{
	t_scenario(sc_not_setuid, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_env_list),
		cmocka_unit_test(test_setuid),
		cmocka_unit_test(test_not_setuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
