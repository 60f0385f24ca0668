/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every benchmark needs besides its own measurement: how it gives
 * up, its clocks, its statistics, the two libraries it compares. Built
 * once (bench_util.c) and linked into each program of bench/.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exit status of a benchmark that cannot run here (CTest's skip). */
#define EXIT_SKIP 77

/* The two libraries of every comparison, in the order they are reported. */
enum lib_id { LIB_OURS, LIB_REF, NUM_LIBS };

extern const char *const lib_label[NUM_LIBS];

/* Print "<program>: <message>" on stderr and exit 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Print "<program>: SKIP: <message>" on stderr and exit EXIT_SKIP. */
void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* CLOCK_MONOTONIC in nanoseconds. */
double now_ns(void);

/* CPU time (user + system) of the process in nanoseconds. */
double cpu_ns(void);

/* xorshift64*: a fixed sequence for a seed, the same in every run. */
uint64_t next_rand(uint64_t *state);

/* Sort @n values in ascending order. */
void sort_doubles(double *v, size_t n);

/* The median of @n values; sorts @v in place. */
double median(double *v, size_t n);

/* Pin the calling process to the last online CPU, when there are two. */
void pin_last_cpu(void);

/*
 * Print "<program>: mapped <path>" for the libibverbs and the rxe and siw
 * provider files the process has mapped (bench_maps.c), so that a
 * script can tell which core and which providers it measured.
 */
void print_mapped(void);

/* "dc" in the VmFlags of the mapping at @addr: MADV_DONTFORK is set. */
bool dontfork_set(const void *addr);

#endif
