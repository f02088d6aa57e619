/*
 * clock.h - the server's two clocks, in milliseconds: a monotonic one for
 * every deadline and duration, the calendar for what the database keeps.
 */
#ifndef GOMOKU_CLOCK_H
#define GOMOKU_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Milliseconds of the monotonic clock (any origin). */
static inline uint64_t clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Milliseconds since the epoch. */
static inline int64_t clock_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
