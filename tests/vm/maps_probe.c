// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An LD_PRELOAD probe for the VM tests: when the process ends, it appends
 * to the file named by IBV_VM_MAPS_LOG the verbs libraries it had mapped,
 * the core (libibverbs.so*) and every provider (lib*-rdmav*.so), one line
 * each:
 *
 *   <pid> <comm> <path>
 *
 * so that a test can prove which core and which provider served a client
 * it did not build. A provider is loaded lazily, long after any
 * constructor, so the list is written at exit: from a destructor for a
 * normal exit, and from a SIGTERM handler for a process that is stopped
 * (installed only where SIGTERM still has its default action; the handler
 * writes, then lets the signal kill the process as before), or when the
 * program calls maps_probe_dump() itself. The handler path uses only
 * async-signal-safe calls, so every path shares them.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char log_path[4096];

static bool contains(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

static bool is_verbs_library(const char *path, size_t n)
{
	const char *base = memrchr(path, '/', n);

	base = base ? base + 1 : path;
	n -= base - path;
	if (n >= 13 && memcmp(base, "libibverbs.so", 13) == 0)
		return true;
	return contains(base, n, "-rdmav") && contains(base, n, ".so");
}

static size_t put(char *out, size_t at, size_t size, const char *s, size_t n)
{
	if (at + n > size)
		n = size - at;
	memcpy(out + at, s, n);
	return at + n;
}

static size_t put_uint(char *out, size_t at, size_t size, unsigned long v)
{
	char digits[24];
	size_t i = sizeof(digits);

	do {
		digits[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	return put(out, at, size, digits + i, sizeof(digits) - i);
}

/* The path of a maps line: from the first '/' to the end of the line. */
static void note_line(const char *line, size_t n, char *out, size_t *at,
		      size_t size, const char *prefix, size_t prefix_len,
		      char *seen, size_t *seen_len, size_t seen_size)
{
	const char *path = memchr(line, '/', n);
	size_t len;

	if (!path)
		return;
	len = line + n - path;
	if (!is_verbs_library(path, len))
		return;
	/* Each path once: maps lists a library once per segment. */
	for (size_t i = 0; i < *seen_len;) {
		size_t l = strnlen(seen + i, *seen_len - i);

		if (l == len && memcmp(seen + i, path, len) == 0)
			return;
		i += l + 1;
	}
	if (*seen_len + len + 1 <= seen_size) {
		memcpy(seen + *seen_len, path, len);
		seen[*seen_len + len] = '\0';
		*seen_len += len + 1;
	}
	*at = put(out, *at, size, prefix, prefix_len);
	*at = put(out, *at, size, path, len);
	*at = put(out, *at, size, "\n", 1);
}

/*
 * Exported for programs that end their children with _exit(), which runs
 * no destructor: they look it up with dlsym() and call it first.
 */
__attribute__((visibility("default"))) void maps_probe_dump(void);

void maps_probe_dump(void)
{
	static char maps[65536], out[8192], seen[8192];
	char prefix[64], comm[32];
	size_t n = 0, at = 0, seen_len = 0, prefix_len = 0;
	ssize_t r;
	int fd;

	if (!log_path[0])
		return;
	fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	r = fd >= 0 ? read(fd, comm, sizeof(comm) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (r <= 0)
		r = 0;
	if (r && comm[r - 1] == '\n')
		r--;
	prefix_len = put_uint(prefix, 0, sizeof(prefix), getpid());
	prefix_len = put(prefix, prefix_len, sizeof(prefix), " ", 1);
	prefix_len = put(prefix, prefix_len, sizeof(prefix), comm, r);
	prefix_len = put(prefix, prefix_len, sizeof(prefix), " ", 1);

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		char *nl;

		r = read(fd, maps + n, sizeof(maps) - n);
		if (r <= 0)
			break;
		n += r;
		while ((nl = memchr(maps, '\n', n))) {
			size_t len = nl - maps;

			note_line(maps, len, out, &at, sizeof(out), prefix,
				  prefix_len, seen, &seen_len, sizeof(seen));
			memmove(maps, nl + 1, n - len - 1);
			n -= len + 1;
		}
		if (n == sizeof(maps))
			n = 0; /* a line longer than the buffer: drop it */
	}
	close(fd);
	if (!at)
		return;
	fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* One write with O_APPEND: lines of concurrent processes never mix. */
	r = write(fd, out, at);
	(void)r;
	close(fd);
}

static void on_sigterm(int sig)
{
	maps_probe_dump();
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void probe_start(void)
{
	const char *path = getenv("IBV_VM_MAPS_LOG");
	struct sigaction old;

	if (!path || strlen(path) >= sizeof(log_path))
		return;
	strcpy(log_path, path);
	if (sigaction(SIGTERM, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		signal(SIGTERM, on_sigterm);
}

__attribute__((destructor)) static void probe_end(void)
{
	maps_probe_dump();
}
