/*
 * clock.h - the server's two clocks, in milliseconds: a monotonic one for
 * every deadline and duration, the calendar for what the database keeps;
 * and the monotonic one in nanoseconds, for slices of a loop turn.
 */
#ifndef GOMOKU_CLOCK_H
#define GOMOKU_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Room for clock_iso8601()'s text, with some to spare. */
#define CLOCK_ISO8601_MAX 64

/* Milliseconds of the monotonic clock (any origin). */
static inline uint64_t clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Nanoseconds of the monotonic clock (any origin). */
static inline uint64_t clock_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Milliseconds since the epoch. */
static inline int64_t clock_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Writes unix_ms as ISO 8601 in UTC with milliseconds
 * ("2026-11-24T15:48:21.856Z") into buf (CLOCK_ISO8601_MAX bytes).
 */
static inline void clock_iso8601(int64_t unix_ms, char *buf, size_t size)
{
	time_t seconds = (time_t)(unix_ms / 1000);
	struct tm tm;

	gmtime_r(&seconds, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (int)(unix_ms % 1000));
}

#endif
