/*
 * store.h - the SQLite journal of games: every game that had a move, every
 * accepted move and takeback and every result (with both clocks of a
 * timed game), so that a restart loses no game, resumes a timed one with
 * its clocks, and finished games can be replayed.
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
 * Journals the room's last move with both clocks as they stand
 * (room->game.clock, when timed); with its first one, the game itself
 * (its players, by uid and name, settings, time control, the room it is
 * a rematch of, and started_unix_ms, when the room opened). A timed
 * game's clocks of each move are also kept in memory until it ends, to
 * be written with its moves then. 0, or -1 on out of memory.
 */
int store_move(struct store *store, const struct lobby_room *room,
	       int64_t started_unix_ms);

/*
 * Journals room's whole game as it stands, as store_move() would have
 * move by move (a game another instance of the site began, taken over
 * here): the clocks of its last move only. 0, or -1 on out of memory.
 */
int store_adopt(struct store *store, const struct lobby_room *room,
		int64_t started_unix_ms);

/*
 * Deletes every unfinished game, at start with --redis: the site's Redis
 * holds them, and whichever instance takes one over journals it whole
 * (store_adopt()). The number deleted, or -1 (logged).
 */
int store_drop_unfinished(struct store *store);

/*
 * Forgets room's moves past its game's moves_played (a takeback),
 * journalling the clocks as they stand: a restore resumes with them.
 */
int store_takeback(struct store *store, const struct lobby_room *room);

/* Journals the room's result, with the final clocks when timed. */
int store_game_over(struct store *store, const struct lobby_room *room,
		    int64_t now_unix_ms);

/*
 * The room is closed: forgets what the store kept in memory for its game
 * (nothing once it ended; a game that ended unrecorded would leak it).
 */
void store_forget(struct store *store, const struct lobby_room *room);

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
 * started, with its time control, the room it is a rematch of and, when
 * timed, the clocks of its last entry (a move, or a takeback after it;
 * the base time when there is none); saved and what it points to are
 * valid during the call only. A game restore() refuses (returns non-zero)
 * is closed in the database as abandoned. 0, or -1 on a database error.
 */
int store_load_unfinished(struct store *store,
			  int (*restore)(void *ctx,
					 const struct lobby_saved_game *saved),
			  void *ctx);

/*
 * The JSON document of game id (a canonical UUID) for GET /api/games/ID:
 * settings (tc among them), players' names (never uids), rematch_of when
 * it was a rematch, moves and result; in a timed game each move's
 * "clock" ({"front": ms, "back": ms}) and the game's: the final clocks
 * of a finished game, those of the last entry (move or takeback) of a
 * live one. A malloc'd
 * buffer with headroom bytes in front of *len bytes of text, or NULL when
 * there is no such game (or on error).
 */
char *store_game_json(struct store *store, const char *id, size_t headroom,
		      size_t *len);

/*
 * GET /api/games?limit=N: {"games":[…]}, the limit most recently
 * finished games (abandoned and private ones left out), newest first: id,
 * size, rule, tc, players' names (never uids), result (winner, reason),
 * moves (how many) and ended (ISO 8601, UTC). A malloc'd text of *len bytes (a
 * newline last), or NULL on error.
 */
char *store_recent_games_json(struct store *store, int limit, size_t *len);

/* A finished game as /api/games lists it. */
struct store_summary {
	const char *id;
	int size;
	const char *rule;
	const char *tc;		       /* "none", "5+3", ... */
	const char *names[ROLE_COUNT]; /* "": nameless */
	const char *winner;	       /* game_winner_name() */
	const char *reason;	       /* game_reason_name() */
	int moves;
	int64_t ended_unix_ms;
};

struct cJSON;

/*
 * The entry of /api/games of summary: a new cJSON object (the site's
 * index in Redis keeps the same, server/redis_journal.c). NULL on out of
 * memory.
 */
struct cJSON *store_summary_json(const struct store_summary *summary);

#endif
