/*
 * store.h - the SQLite journal of games: every game that had a move, every
 * accepted move and every result, so that a restart loses no game and
 * finished games can be replayed.
 *
 * Writes go into a batch, kept in memory, that the server commits once
 * per event loop turn with store_commit() (one transaction); what players
 * are told about a write must wait for that commit. When the commit fails
 * (a full disk) the whole batch is kept and store_commit() tries it again
 * until it succeeds: nothing is lost that was not yet told. The database
 * is in WAL mode with synchronous=NORMAL: a committed move survives the
 * process being killed.
 *
 * A game is written with its first move: one whose players leave before
 * any move leaves nothing. A thread of the store deletes the finished
 * games older than keep_days, off the event loop.
 */
#ifndef GOMOKU_STORE_H
#define GOMOKU_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lobby.h"

struct store;

/*
 * Opens (creating when needed) the database at path; finished games are
 * kept keep_days (0: for ever). NULL on failure, with one line saying
 * why in err.
 */
struct store *store_open(const char *path, int keep_days, char *err,
			 size_t err_size);

/* Commits what is pending (once) and closes the database. NULL: no-op. */
void store_close(struct store *store);

/*
 * Journals the room's last move; with its first one, the game itself (its
 * players, by uid and name, settings, and started_unix_ms, when the room
 * opened). 0, or -1 on out of memory.
 */
int store_move(struct store *store, const struct lobby_room *room,
	       int64_t started_unix_ms);

/* Forgets room's moves past its game's moves_played (a takeback). */
int store_takeback(struct store *store, const struct lobby_room *room);

/* Journals the room's result. */
int store_game_over(struct store *store, const struct lobby_room *room,
		    int64_t now_unix_ms);

/* True while the batch has writes not yet committed. */
bool store_batch_pending(const struct store *store);

/*
 * Commits the batch; 0, or -1 when the database refused it (logged at
 * the first failure): then the batch is kept whole, later writes join
 * it, and the next store_commit() tries it all again.
 */
int store_commit(struct store *store);

/* True while the last commit failed. */
bool store_failing(const struct store *store);

/*
 * Calls restore(ctx, saved) for every unfinished game, in the order they
 * started; a game restore() refuses (returns non-zero) is closed in the
 * database as abandoned. 0, or -1 on a database error.
 */
int store_load_unfinished(struct store *store,
			  int (*restore)(void *ctx,
					 const struct lobby_saved_game *saved),
			  void *ctx);

/*
 * The JSON document of game id (a canonical UUID) for GET /api/games/ID:
 * settings, players' names (never uids), moves and result. A malloc'd
 * buffer with headroom bytes in front of *len bytes of text, or NULL when
 * there is no such game (or on error).
 */
char *store_game_json(struct store *store, const char *id, size_t headroom,
		      size_t *len);

#endif
