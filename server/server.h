/*
 * server.h - the state the server's callbacks share.
 *
 * One struct server per process, reachable from every callback as the lws
 * context user. Only the service thread touches it.
 */
#ifndef GOMOKU_SERVER_H
#define GOMOKU_SERVER_H

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "lobby.h"

/* Counters for /metrics beyond the lobby's own. */
struct server_metrics {
	unsigned long connections;	      /* open WebSocket connections */
	unsigned long long messages_in;	      /* complete client messages */
	unsigned long long messages_out;      /* messages written */
	unsigned long long bytes_in;	      /* payload bytes received */
	unsigned long long bytes_out;	      /* payload bytes written */
	unsigned long long errors[ERR_COUNT]; /* refusals, by code */
};

/* One of these per process. */
struct server {
	struct server_config config; /* settings */
	struct lws_context *context; /* NULL once destroyed */
	struct lobby lobby;	     /* players and rooms */
	struct server_metrics metrics;
	uint64_t started_ms;		     /* monotonic clock at start */
	struct lws_dll2_owner sessions;	     /* every WebSocket session */
	bool shutting_down;		     /* SIGTERM/SIGINT seen */
	lws_sorted_usec_list_t shutdown_sul; /* shutdown deadline and poll */
};

/* The server of the context wsi belongs to. */
static inline struct server *server_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

/* Milliseconds of the monotonic clock. */
uint64_t server_now_ms(void);

#endif
