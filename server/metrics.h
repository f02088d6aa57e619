/*
 * metrics.h - the server's own counters for /metrics and /healthz (the
 * lobby keeps the game's: core/lobby.h, struct lobby_stats).
 *
 * One struct metrics per process, in struct server; every module that
 * counts something is handed a pointer to it. Only the event loop's
 * thread touches it.
 */
#ifndef GOMOKU_METRICS_H
#define GOMOKU_METRICS_H

#include "protocol.h"

#define AI_BUCKETS 9 /* engine move-time histogram bounds, /metrics */

/* One of these per process. */
struct metrics {
	unsigned long connections;	       /* open WebSocket connections */
	unsigned long tcp_connections;	       /* open TCP connections */
	unsigned long long refused_max_total;  /* refused: --max-connections */
	unsigned long long refused_max_per_ip; /* refused: --max-per-ip */
	unsigned long long messages_in;	       /* complete client messages */
	unsigned long long messages_out;       /* messages written */
	unsigned long long bytes_in;	       /* payload bytes received */
	unsigned long long bytes_out;	       /* payload bytes written */
	unsigned long long errors[ERR_COUNT];  /* refusals, by code */
	unsigned long long store_errors;       /* database writes refused */
	unsigned long long store_commits;      /* batches committed */
	unsigned long long idle_drops;	       /* silent past --idle-timeout */
	unsigned long long slow_drops;	       /* past SESSION_MAX_QUEUED */
	unsigned long long spect_deferred;     /* turns that left spectators
						* to write to the next */
	unsigned long long pings;	       /* keep-alive pings written */
	unsigned long long pings_deferred;     /* turns that left pings to
						* write to the next */
	unsigned long long ai_moves;	       /* engine moves played */
	unsigned long long ai_failures;	       /* engine games forfeited */
	unsigned long long ai_move_us_sum;     /* their search time */
	unsigned long long ai_move_buckets[AI_BUCKETS]; /* <= 5 ms, ... */
};

#endif
