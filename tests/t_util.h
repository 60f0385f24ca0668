/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the unit tests: fake sysfs trees, a private mount
 * namespace with device nodes, and running a scenario in a child process
 * (the library initialises once per process, so each scenario needs one).
 */
#ifndef T_UTIL_H
#define T_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "t_seccomp.h"

#define T_SKIP 77

/* Inside a scenario child: print the failed condition and exit 1. */
#define T_CHECK(cond)                                                          \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			exit(1);                                               \
		}                                                              \
	} while (0)

/*
 * For a helper that must report a failure to its caller instead of ending
 * the process (one shared by cmocka tests and scenario children): print
 * the failed condition and return 1 from the function.
 */
#define T_CHECK_RET(cond)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			return 1;                                              \
		}                                                              \
	} while (0)

/* True when the test runs against Debian's libibverbs (differential run). */
bool t_reference(void);
/*
 * Whether @sym, a function of libibverbs, comes from the library this run
 * means to test: Debian's in a differential run, ours otherwise.
 */
bool t_library_under_test(const void *sym);

/* Drops capability @cap (CAP_*) from this process's effective set. */
bool t_drop_capability(int cap);

/* The build tree (IBV_TEST_BUILD_DIR), for the test provider's path. */
const char *t_build_dir(void);
/* RDMAV_DRIVERS value selecting the test provider. */
const char *t_testprov(void);
/* "-rdmav<N>.so" of the plugins the core under test loads. */
const char *t_plugin_suffix(void);

/*
 * Enter the fake kernel the unit tests build: a private mount namespace
 * with a tmpfs /dev (null, zero, full, urandom, infiniband/) and an overlay
 * on /etc, so tests may create device nodes and driver config files
 * without touching the host; and RDMA netlink hidden, so the library
 * discovers devices only in the fake sysfs tree, whatever RDMA devices the
 * host really has. Returns false (with the reason printed) when that is
 * impossible, e.g. without root.
 */
bool t_ns_enter(void);
/* Create a char node /dev/infiniband/<name> with the given number. */
void t_mknod(const char *name, unsigned int maj, unsigned int min);
void t_rmnod(const char *name);

struct t_dev {
	const char *ibdev; /* e.g. "tprov0" */
	int uverbs; /* N of uverbsN */
	unsigned int maj, min; /* its dev_t */
	int abi; /* per-device abi_version; 0 leaves the file out */
	int node_type; /* kernel node type, 1 = CA */
	const char *guid; /* "xxxx:xxxx:xxxx:xxxx" or NULL */
	const char *modalias; /* device/modalias or NULL */
	bool no_node; /* do not create the /dev node */
};

/* Device n of the test provider: tprovN on uverbsN, 231:N, ABI 1. */
#define T_DEV(n, ...)                         \
	((struct t_dev){ .ibdev = "tprov" #n, \
			 .uverbs = n,         \
			 .maj = 231,          \
			 .min = n,            \
			 .abi = 1,            \
			 __VA_ARGS__ })

/*
 * The common start of a scenario: the fake kernel (t_ns_enter()), a fresh
 * sysfs tree as SYSFS_PATH and, if asked, the test provider in
 * RDMAV_DRIVERS. Returns the tree's root, or NULL when the scenario must
 * skip (the reason is printed).
 */
char *t_fake_kernel(bool with_provider);

/* A new empty directory "<name>-XXXXXX", private to the fake kernel. */
char *t_mkdtemp(const char *name);

/* A fake sysfs root with class/infiniband_verbs (abi_version 6). */
char *t_sysfs_new(void);
/* A fake sysfs root with no RDMA classes at all. */
char *t_sysfs_empty(void);
void t_sysfs_add(const char *root, const struct t_dev *dev);
void t_sysfs_del(const char *root, const struct t_dev *dev);
void t_write(const char *path, const char *content);
void t_rm_rf(const char *path);

/*
 * Run @fn(@arg) in a forked child; returns its exit status (T_SKIP when
 * it skipped, 128+signal when it died).
 */
int t_run(int (*fn)(void *), void *arg);

/* Capture what @fn writes to stderr into a malloc'ed string. */
char *t_capture_stderr(void (*fn)(void *), void *arg);

#endif
