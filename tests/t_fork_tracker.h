/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fixture of the fork tracker's host tests (fork_test.c and the
 * fork_*_test.c of each tracker file). Each program links the tracker's
 * sources itself to reach the test hooks of libibverbs/fork.h.
 *
 * Initialisation happens once per process, so everything about it runs in
 * a fresh copy of the program (re-executed with --mode NAME), with the
 * environment the case needs; the other cases share one process whose
 * tracker t_fork_main() initialised.
 */
#ifndef T_FORK_TRACKER_H
#define T_FORK_TRACKER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The base page size. */
extern size_t t_ps;

/* The next number of a xorshift sequence seeded with *@s (not 0). */
uint64_t t_rand(uint64_t *s);
/* @n pages of private anonymous memory; page i is filled with i + 1. */
char *t_map(size_t n);
/* What a child sees of @n units at @buf (t_view_units()), or fail. */
void t_view(const char *buf, size_t n, size_t unit, char *out);
/* A child sees @expect ('.' present, 'X' missing) of @n pages at @buf. */
void t_expect_view(const char *buf, size_t n, const char *expect);
/* The tracker's tree passes its own check. */
void t_assert_tree(void);
/* How many nodes the tracker's tree holds. */
size_t t_nodes(void);
/*
 * @n units of @unit bytes at @p, the first @pre of them registered once;
 * unit @hole (after them) is unmapped here. A dontfork over all @n units
 * must then fail with ENOMEM and change nothing: every count, the tree,
 * and what a fork()ed child sees. Returns 0, or 1 with the failed check
 * printed, so that both the cmocka tests and the modes can use it.
 */
int t_failed_dontfork_changes_nothing(char *p, size_t n, size_t unit,
				      size_t pre, size_t hole);

/* A mode is the whole process: a failed T_CHECK may simply exit 1. */
struct t_mode {
	const char *name;
	int (*fn)(char **argv); /* 0 = pass, 77 = cannot run */
};

struct t_run {
	int status; /* exit code, or 128 + signal */
	char out[4096];
	char err[8192];
};

/* Run "--mode argv..." in a new process with @env (NAME=VALUE strings). */
void t_spawn(struct t_run *r, const char *const *argv, const char *const *env);
/* Spawn, then pass, skip (77, with the child's reason) or fail. */
void t_spawn_ok(const char *const *argv, const char *const *env);

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * The program's main(): started as "--mode NAME args...", runs that one
 * of @modes; otherwise initialises the tracker and runs @tests.
 */
int t_fork_main(int argc, char **argv, const struct t_mode *modes,
		size_t n_modes, const struct CMUnitTest *tests, size_t n_tests);

#endif
