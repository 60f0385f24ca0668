/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Scenarios for cmocka tests: the library initialises once per process,
 * so each scenario runs in a child of its own (t_run()).
 */
#ifndef T_SCENARIO_H
#define T_SCENARIO_H

/* A scenario that blocks longer than this has hung: it fails. */
#define T_SCENARIO_SECONDS 30

/*
 * Runs @fn(@arg) in a child under an alarm and turns the outcome into
 * cmocka's: 0 passes, T_SKIP skips (and fails under CI=true, except in
 * a differential run against the reference), anything else fails.
 */
void t_scenario(int (*fn)(void *), void *arg);

struct ibv_device;
/* Entries of a device list, and the one named @name (or NULL). */
int t_count(struct ibv_device **list);
struct ibv_device *t_find(struct ibv_device **list, const char *name);
/* Lists and frees once; for t_capture_stderr(). */
void t_list_once(void *unused);

#endif
