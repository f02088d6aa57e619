/*
 * log.c - the server's log lines.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static enum log_level log_threshold = LOG_INFO;

static const char *const log_level_names[] = {
	[LOG_ERROR] = "error",
	[LOG_WARN] = "warn",
	[LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

void log_set_level(enum log_level level)
{
	log_threshold = level;
}

int log_level_parse(const char *name)
{
	for (size_t i = 0;
	     i < sizeof(log_level_names) / sizeof(*log_level_names); i++)
		if (!strcmp(name, log_level_names[i]))
			return (int)i;
	return -1;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	char stamp[32];
	struct tm tm;
	time_t now;
	va_list ap;

	if (level > log_threshold)
		return;
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);

	flockfile(stderr);
	fprintf(stderr, "%s %s ", stamp, log_level_names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
