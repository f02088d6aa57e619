/*
 * ai.h - the computer opponent: searches off the event loop.
 *
 * The built-in engine runs on a small pool of worker threads (one struct
 * engine, with its transposition table, per thread). The lobby asks for a
 * move through its think hook; the position is copied into a job, a worker
 * searches it within --ai-ms, and the result is handed back to the event
 * loop with lws_cancel_service(): ai_collect() then plays it, unless the
 * position changed meanwhile (a takeback, the player left). With
 * --ai-engine, each engine game has a child process speaking the pbrain
 * protocol instead (server/pbrain_client.c); one that crashes or stays
 * silent loses the game.
 */
#ifndef GOMOKU_AI_H
#define GOMOKU_AI_H

#include "server.h"

/* Starts the worker threads (or nothing, with --ai-engine). 0 or -1. */
int ai_start(struct server *srv);

/* Stops and joins the workers; drops the jobs; frees external engines. */
void ai_stop(struct server *srv);

/* The lobby's think hook (ctx: the server). */
void ai_think(void *ctx, struct lobby_room *room);

/* Plays the moves the workers finished. On the event loop only. */
void ai_collect(struct server *srv);

/* An engine room closed: its external engine, if any, is ended. */
void ai_room_closed(struct server *srv, const struct lobby_room *room);

#endif
