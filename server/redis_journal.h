/*
 * redis_journal.h - the live games of this instance in the site's Redis
 * (--redis): what another instance needs to take a room over once this
 * one is gone, written before anyone is told.
 *
 * Per room, in the order the lobby recorded it, through one queue:
 *
 *   gomoku:room:ID   "OWNER EPOCH": who owns the room, and the epoch of
 *                    that ownership (1 when it opened, one more at each
 *                    takeover); a spectator's lookup reads its first word
 *   gomoku:game:ID   a stream: 'g' the game (JSON, with its first move),
 *                    'm' "SEQ CELL FRONT_MS BACK_MS" a move with both
 *                    clocks after it (-1: untimed), 't' "MOVES FRONT_MS
 *                    BACK_MS" a takeback, 'x' the end; entry ids
 *                    "EPOCH-N", so that a write sent again after Redis
 *                    came back is not written twice
 *   gomoku:owned:INSTANCE:TOKEN  the set of rooms with a game that this
 *                    process (its lease's token) owns; gomoku:owners
 *                    lists such sets, for takeovers (server/takeover.c)
 *
 * and with a game's end (kept SITE_OVER_TTL_S), for the site's
 * /api/games and /api/games/ID (server/site_index.c):
 *
 *   gomoku:ended     a sorted set of the newest public finished games
 *                    (by end), and gomoku:ended:ID its /api/games entry,
 *                    written by the end's own script
 *   gomoku:record:ID the public game's record (/api/games/ID) as the
 *                    SQLite journal has it, written once that commit is
 *                    done
 *
 * Every write to a game is one script that first checks that the room's
 * record is still this owner's at this epoch (fencing): a process whose
 * rooms were taken over while it was cut off cannot write any more, and
 * hears so (fenced()). A record that is gone (Redis restarted without
 * its data: no AOF) makes the room's game written whole again, from the
 * lobby's room. Rooms against the engine get their record only.
 *
 * It is the journal's mirror (journal.h): the writes of a loop turn
 * form a batch, and what the players are told of it waits until Redis
 * answered every write of it, as it waits for the SQLite commit. While
 * Redis is away the mirror is failing: the hub pauses the games (a move
 * is refused with `unavailable`), and writes already made wait in order
 * and are sent again once it is back.
 *
 * On the event loop's thread only.
 */
#ifndef GOMOKU_REDIS_JOURNAL_H
#define GOMOKU_REDIS_JOURNAL_H

#include <uv.h>

#include <stdbool.h>
#include <stdint.h>

#include "journal.h"
#include "lobby.h"
#include "redis_link.h"
#include "site_keys.h"
#include "store.h"

struct redis_journal;

/* The figures for /metrics (rooms and queued counted when asked). */
struct redis_journal_stats {
	unsigned long rooms;  /* rooms of this instance with a record */
	unsigned long queued; /* writes not yet answered */
	uint64_t writes;      /* writes Redis answered */
	uint64_t resent;      /* writes sent again after Redis came back */
	uint64_t fenced;      /* writes refused: the room is another's */
};

/*
 * The journal of instance id whose lease holds token (both copied),
 * writing through link (not owned), the finished games' records read
 * from store (not owned; NULL: none); fenced(ctx, room) once when a write
 * is refused because the room was taken over. NULL on out of memory.
 */
struct redis_journal *
redis_journal_new(uv_loop_t *loop, struct redis_link *link, const char *id,
		  const char *token, struct store *store,
		  void (*fenced)(void *ctx, const char *room), void *ctx);

/* After redis_link_free(): frees what is still queued. NULL: no-op. */
void redis_journal_free(struct redis_journal *rj);

/*
 * The journal's mirror (journal_set_mirror()): every fact of the lobby
 * written here, and the batches answered.
 */
struct journal_mirror redis_journal_mirror(struct redis_journal *rj);

/*
 * A room taken over at epoch (its record already says so), its game
 * begun at started_unix_ms: its writes go on from there.
 */
int redis_journal_adopt(struct redis_journal *rj, const struct lobby_room *room,
			uint64_t epoch, int64_t started_unix_ms);

/*
 * A room taken over that cannot be seated here: its record and its
 * stream go, while they are still this owner's at epoch.
 */
void redis_journal_abandon(struct redis_journal *rj, const char *room,
			   uint64_t epoch);

/* This process's set of owned rooms' name, "INSTANCE:TOKEN". */
const char *redis_journal_owner(const struct redis_journal *rj);

void redis_journal_stats(const struct redis_journal *rj,
			 struct redis_journal_stats *out);

#endif
