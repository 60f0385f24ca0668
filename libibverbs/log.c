// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Logging. Providers log through __verbs_log(); the core through ibv_log().
 * VERBS_LOG_LEVEL picks the threshold (0 none .. 4 debug) and
 * VERBS_LOG_FILE the destination; unlike rdma-core, a level without a file
 * logs to stderr, so asking for messages is enough to see them.
 *
 * The library is quiet by default: a message is formatted only when its
 * level is enabled, and logging never changes errno, so a caller may log
 * between failing and returning. Warnings meant for users who did not
 * ask for a log (IBV_SHOW_WARNINGS) go through ibv_warn_user().
 *
 * The settings are read once, by library initialisation.
 */
#include <stdio.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "export.h"
#include "log.h"

uint32_t verbs_log_level = VERBS_LOG_LEVEL_NONE;
static FILE *log_fp;
static char log_buf[BUFSIZ]; /* VERBS_LOG_FILE's stdio buffer */
static bool show_warnings;

void verbs_log_init(void)
{
	const char *level = env_get(ENV_VERBS_LOG_LEVEL);
	const char *file = env_get(ENV_VERBS_LOG_FILE);

	show_warnings = env_present(ENV_IBV_SHOW_WARNINGS);
	if (level) {
		long v = strtol(level, NULL, 0);

		verbs_log_level = v < 0 ? 0 : (uint32_t)v;
	}
	if (verbs_log_level == VERBS_LOG_LEVEL_NONE)
		return;
	if (file) {
		log_fp = fopen(file, "ae");
		/*
		 * Whole lines, written at once: none is lost if the program
		 * crashes next, and the buffer is ours, so that logging
		 * allocates nothing when memory runs out.
		 */
		if (log_fp)
			setvbuf(log_fp, log_buf, _IOLBF, sizeof(log_buf));
		if (!log_fp)
			fprintf(stderr,
				"libibverbs: cannot open VERBS_LOG_FILE %s: %s; logging to stderr\n",
				file, strerror(errno));
	}
	if (!log_fp)
		log_fp = stderr;
}

/* Whether a message of @level would be written; cheap, for hot callers. */
bool verbs_log_enabled(uint32_t level)
{
	return log_fp && level != VERBS_LOG_LEVEL_NONE &&
	       level <= verbs_log_level;
}

/*
 * One message, written under the stream lock so that lines of concurrent
 * threads do not interleave, and flushed at once: the log is most needed
 * when the program is about to crash.
 */
static void __attribute__((format(printf, 2, 0)))
vlog(const char *prefix, const char *fmt, va_list ap, bool nl)
{
	int saved = errno;

	flockfile(log_fp);
	if (prefix)
		fputs(prefix, log_fp);
	vfprintf(log_fp, fmt, ap);
	if (nl)
		fputc('\n', log_fp);
	funlockfile(log_fp);
	fflush(log_fp);
	errno = saved;
}

/*
 * The providers' entry point (in the provider ABI node). Their messages carry
 * their own prefix and newline (see the verbs_log() macro in driver.h).
 */
IBV_EXPORT void __verbs_log(struct verbs_context *ctx, uint32_t level,
			    const char *fmt, ...)
{
	va_list ap;

	if (!verbs_log_enabled(level))
		return;
	va_start(ap, fmt);
	vlog(NULL, fmt, ap, false);
	va_end(ap);
}
VERBS_PRIVATE_EXPORT(__verbs_log);

void ibv_log(uint32_t level, const char *fmt, ...)
{
	va_list ap;

	if (!verbs_log_enabled(level))
		return;
	va_start(ap, fmt);
	vlog("libibverbs: ", fmt, ap, true);
	va_end(ap);
}

/*
 * A warning goes to the log when one is configured; otherwise to stderr,
 * but only with IBV_SHOW_WARNINGS, in rdma-core's wording.
 */
void ibv_warn_user(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	if (verbs_log_enabled(VERBS_LOG_WARN)) {
		vlog("libibverbs: warning: ", fmt, ap, true);
	} else if (show_warnings) {
		fputs("libibverbs: Warning: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
	errno = saved;
}
