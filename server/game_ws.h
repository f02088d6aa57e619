/*
 * game_ws.h - the "gomoku" WebSocket protocol: one session per player.
 *
 * It reads uid and name from the upgrade's query, binds the connection to
 * a lobby seat, turns client messages into lobby requests and lobby events
 * into queued JSON messages. It is the vhost's default protocol, so a
 * client that names no subprotocol lands here too; it passes plain HTTP
 * on to libwebsockets' file serving.
 */
#ifndef GOMOKU_GAME_WS_H
#define GOMOKU_GAME_WS_H

#include <libwebsockets.h>

#include "server.h"

#define GAME_WS_PROTOCOL_NAME "gomoku"
#define GAME_WS_MAX_MESSAGE 16384 /* larger: close 1009 */
#define GAME_WS_MAX_FRAGMENTS 256 /* pieces of one message; more: 1009 */
/* A failed journal commit is tried again this often. */
#define GAME_WS_JOURNAL_RETRY_MS 1000

/* Memory a session's unsent messages may hold; more: it is dropped. */
#define GAME_WS_MAX_QUEUED (1024 * 1024)

/* The protocol's entry for the context's protocol table. */
extern const struct lws_protocols game_ws_protocol;

/* The lobby sink that queues events on sessions (ctx: the server). */
void game_ws_sink_send(void *ctx, void *conn, const struct event *ev);

/*
 * Commits the store's batch, if any, and lets the messages it held go out.
 * Called once per event loop turn, before the loop waits for I/O again.
 * When the commit fails (a full disk), nothing it held is told: every
 * game waits (lobby_pause()), the players whose messages wait get an
 * `unavailable` error, /healthz answers 503, and the commit is tried
 * again every GAME_WS_JOURNAL_RETRY_MS until it succeeds.
 */
void game_ws_commit(struct server *srv);

/*
 * The lobby journal (ctx: the server): logs matches and results and writes
 * them, and every move, to the store's open batch, which game_ws_commit()
 * commits at the end of the loop turn.
 */
void game_ws_sink_record(void *ctx, enum lobby_record type,
			 const struct lobby_room *room);

/*
 * Ends a lobby step: forgets the messages encoded once for both players
 * of a room. Call after every lobby_*() call.
 */
void game_ws_lobby_done(struct server *srv);

/*
 * Closes with 1002 the sessions whose client sent an unmasked frame that
 * no message callback saw (a ping, which lws answers itself). Called once
 * per event loop turn.
 */
void game_ws_close_broken(void);

/*
 * Keep-alive: pings sessions silent for --ping-interval and drops those
 * silent for --idle-timeout. Called once a second.
 */
void game_ws_sweep(struct server *srv);

/* Shutdown: asks every session to close with 1001 "going away". */
void game_ws_close_all(struct server *srv);

#endif
