/*
 * server.h - the state the server's callbacks share.
 *
 * One struct server per process, reachable from every callback as the lws
 * context user. Only the service thread touches it.
 */
#ifndef GOMOKU_SERVER_H
#define GOMOKU_SERVER_H

#include <uv.h> /* before libwebsockets.h: it declares its libuv API then */

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "drain.h"
#include "listen.h"
#include "outqueue.h"
#include "lobby.h"
#include "peers.h"
#include "store.h"

/* Counters for /metrics beyond the lobby's own. */
#define AI_BUCKETS 9 /* engine move-time histogram bounds, /metrics */

struct server_metrics {
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
	unsigned long long slow_drops;	       /* past GAME_WS_MAX_QUEUED */
	unsigned long long ai_moves;	       /* engine moves played */
	unsigned long long ai_failures;	       /* engine games forfeited */
	unsigned long long ai_move_us_sum;     /* their search time */
	unsigned long long ai_move_buckets[AI_BUCKETS]; /* <= 5 ms, ... */
};

/* A message encoded during one lobby step, for both players of a room. */
struct encoded_msg {
	enum event_type type; /* EVENT_BOARD or EVENT_WINNER */
	const void *game;     /* the room's game */
	int moves;	      /* its moves_played then */
	bool undo;	      /* a takeback's board */
	bool compact;	      /* board without content */
	struct outbuf *buf;   /* a reference held until the step ends */
};

#define SERVER_ENCODE_CACHE 8 /* messages remembered per lobby step */

/* One of these per process. */
struct server {
	struct server_config config;  /* settings */
	struct listen_address listen; /* where it listens */
	struct lws_context *context;  /* NULL once destroyed */
	struct lobby lobby;	      /* players and rooms */
	struct store *store;	      /* the games database */
	struct peers peers;	      /* connections per client address */
	struct peer *accepted_peer;   /* accepted, not yet tied to its wsi */
	struct server_metrics metrics;
	uint64_t started_ms;		/* monotonic clock at start */
	struct lws_dll2_owner sessions; /* every WebSocket session */
	struct lws_dll2_owner held;	/* sessions with messages waiting
					      * for the batch to commit */
	uint64_t batches_committed;	/* store batches made durable */
	uv_loop_t loop;			/* the one event loop, lws' too */
	uv_signal_t signals[2];		/* SIGINT, SIGTERM */
	uv_prepare_t commit_prepare;	/* commits the store batch before
					 * the loop waits for I/O again */
	uv_timer_t shutdown_timer;	/* polls for the last session */
	bool shutting_down;		/* SIGTERM/SIGINT seen */
	uint64_t shutdown_deadline_ms;	/* stop by then regardless */
	bool stopping;			/* server_stop() ran */
	uv_timer_t tick_timer;		/* the next reconnect-grace deadline */
	uv_timer_t sweep_timer;		/* keep-alive, once a second */
	uv_timer_t journal_timer;	/* wakes the loop to try a failed
					 * commit again */
	uint64_t journal_retry_ms;	/* uv_now() of that next try */
	struct ai_pool *ai;		/* engine searches (server/ai.c) */
	struct drain *drain;		/* closed sockets still read */
	struct encoded_msg encoded[SERVER_ENCODE_CACHE]; /* this step's */
	unsigned int encoded_count;
};

/* The server of the context wsi belongs to. */
static inline struct server *server_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

/* Milliseconds of the monotonic clock. */
uint64_t server_now_ms(void);

/* Milliseconds since the epoch, for the database. */
int64_t server_unix_ms(void);

/*
 * Runs the lobby's reconnect-grace deadlines that are due and schedules
 * the next one.
 */
void server_schedule_tick(struct server *srv);

#endif
