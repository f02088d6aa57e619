/*
 * ai.h - the computer opponent: searches off the event loop.
 *
 * The built-in engine runs on a small pool of worker threads (one struct
 * engine, with its transposition table, per thread). The hub asks for a
 * move through its engine hook ai_think(); the position is copied into a
 * job, a worker searches it within --ai-ms, and the result is handed back
 * to the event loop through a uv_async_t (the one libuv call other threads
 * may make), where it is played with hub_ai_move() unless the position
 * changed meanwhile (a takeback, the player left). With --ai-engine, each
 * engine game has a child process speaking the pbrain protocol instead
 * (server/pbrain_client.c); one that crashes or stays silent loses the
 * game.
 */
#ifndef GOMOKU_AI_H
#define GOMOKU_AI_H

#include <uv.h>

#include "config.h"
#include "hub.h"
#include "metrics.h"

/* Opaque: one per server. */
struct ai;

/*
 * Starts the worker threads (none with --ai-engine), playing through hub
 * and counting in metrics. NULL on failure.
 */
struct ai *ai_new(uv_loop_t *loop, const struct server_config *config,
		  struct hub *hub, struct metrics *metrics);

/*
 * Stops and joins the workers, drops their jobs, ends the external
 * engines; the rest is freed once the loop has closed its handle. NULL is
 * a no-op.
 */
void ai_free(struct ai *ai);

/* The hub's engine hooks (ctx: the struct ai). */
void ai_think(void *ctx, struct lobby_room *room);
void ai_room_closed(void *ctx, const struct lobby_room *room);

#endif
