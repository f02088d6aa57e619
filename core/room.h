/*
 * room.h - the rooms of a lobby: two players (or a player and the engine)
 * seated, their game played, takeback offers and redo, the end of a game,
 * and who is told what.
 *
 * Internal to the lobby: core/lobby.c keeps the seats, the queue and the
 * away list and calls these; the server uses lobby.h alone. Every
 * function takes the lobby for its sink, statistics and random source,
 * and the time of the request (now_ms) when it needs one.
 */
#ifndef GOMOKU_ROOM_H
#define GOMOKU_ROOM_H

#include <stdbool.h>
#include <stdint.h>

#include "lobby.h"

/* What the opponent of a player who left is told. */
#define ROOM_OPPONENT_LEFT "opponent left"

/* Hands ev to player's connection; an away player hears nothing. */
void room_tell(struct lobby *lobby, const struct lobby_player *player,
	       const struct event *ev);

/* Tells player an event with no field but its type. */
void room_tell_simple(struct lobby *lobby, const struct lobby_player *player,
		      enum event_type type);

/* Refuses a request of player: to it alone, with code and why. */
void room_refuse(struct lobby *lobby, const struct lobby_player *player,
		 enum error_code code, const char *text);

/* Tells the journal a fact about room, when there is a journal. */
void room_record(struct lobby *lobby, enum lobby_record type,
		 const struct lobby_room *room);

/*
 * An empty room of pool (which it holds) with a fresh game of the pool's
 * size and rule, for room_match(); NULL on out of memory. room_free()
 * frees it.
 */
struct lobby_room *room_alloc(const struct lobby *lobby,
			      struct lobby_pool *pool);

/*
 * Pairs first (who queued first) and second, taken out of the queue by
 * the caller, into room (from room_alloc(), made before the queue was
 * touched, so that this cannot fail halfway): a random id, random sides;
 * both get role.
 */
void room_match(struct lobby *lobby, struct lobby_room *room,
		struct lobby_player *first, struct lobby_player *second,
		uint64_t now_ms);

/*
 * Seats player (not in the queue) against the engine at level, on a
 * random side: role, and a think when the engine moves first. 0, or
 * -ENOMEM with nothing changed.
 */
int room_open_ai(struct lobby *lobby, struct lobby_player *player,
		 struct lobby_pool *pool, enum engine_level level,
		 uint64_t now_ms);

/*
 * Tells a seated player who came back, or took over its seat, where
 * things stand: role, the board (once a move was made), the result, and
 * where the opponent is.
 */
void room_resume(struct lobby *lobby, struct lobby_player *player,
		 uint64_t now_ms);

/* Tells opponent that player dropped and how long its seat waits. */
void room_tell_away(struct lobby *lobby, const struct lobby_player *opponent,
		    const struct lobby_player *player, uint64_t now_ms);

/*
 * Player leaves its room for good (its seat is freed by the caller):
 * leaving a live game forfeits it (the opponent gets winner), the
 * opponent gets disconnect; the engine's seat goes with the last person,
 * and the last one out frees the room.
 */
void room_leave(struct lobby *lobby, struct lobby_player *player,
		uint64_t now_ms);

/*
 * A request of a seated player (a move, a seed-form board, an offer, an
 * answer, a redo), the checks of lobby_request() passed.
 */
void room_request(struct lobby *lobby, struct lobby_player *player,
		  const struct request *req, uint64_t now_ms);

/*
 * True while ticket is for room's position: the same room and serial, the
 * game live and the engine, still seated, to move.
 */
bool room_ai_ticket_holds(const struct lobby_room *room,
			  const struct lobby_ai_ticket *ticket);

/*
 * The engine's move in room at now_ms; -EINVAL (nothing changed) when
 * illegal, -ESTALE when its time ran out first (the game ended).
 */
int room_ai_move(struct lobby *lobby, struct lobby_room *room, int x, int y,
		 uint64_t now_ms);

/* The engine could not move: it loses room's game by forfeit. */
void room_ai_forfeit(struct lobby *lobby, struct lobby_room *room,
		     uint64_t now_ms);

/*
 * The deadline of room's timed game fell by now_ms: fewer than 2 moves,
 * it is aborted; else the side to move loses on time. Both get winner.
 */
void room_time_out(struct lobby *lobby, struct lobby_room *room,
		   uint64_t now_ms);

/*
 * A room for a saved game (id: its canonical id) with the moves replayed
 * through the rules, front and back seated: counted, told nothing, opened
 * at now_ms. NULL (nothing changed) when a move is refused, the game is
 * over, or out of memory.
 */
struct lobby_room *room_restore(struct lobby *lobby,
				const struct lobby_saved_game *saved,
				const char *id, struct lobby_pool *pool,
				struct lobby_player *front,
				struct lobby_player *back, uint64_t now_ms);

/* Records that room closed and frees it (its seats emptied). */
void room_close(struct lobby *lobby, struct lobby_room *room);

/* Frees a room whose seats are empty; sends nothing, records nothing. */
void room_free(struct lobby *lobby, struct lobby_room *room);

/*
 * From core/lobby.c: a room or queued player stops holding pool, which
 * is freed with its last holder (unless it is the default pool).
 */
void lobby_pool_drop(struct lobby *lobby, struct lobby_pool *pool);

/*
 * From core/room_index.c: the open rooms by id and in opening order.
 * A room is added when it opens (or is restored) and removed when freed.
 */
void room_index_add(struct lobby *lobby, struct lobby_room *room);
void room_index_remove(struct lobby *lobby, struct lobby_room *room);
struct lobby_room *room_index_find(const struct lobby *lobby, const char *id);
void room_index_release(struct lobby *lobby);

/* From core/watch.c: the spectators of rooms. */

/* Sends ev (board, winner, emote, a seat away or back) to room's. */
void room_tell_spectators(struct lobby *lobby, const struct lobby_room *room,
			  const struct event *ev);

/*
 * The number watching room changed at now_ms: its players hear it now,
 * or once LOBBY_COUNT_INTERVAL_MS passed since they last did
 * (room_count_due() from lobby_tick()).
 */
void room_spectators_changed(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms);
void room_count_due(struct lobby *lobby, struct lobby_room *room,
		    uint64_t now_ms);

/*
 * A rematch: room_spectators_take() takes old's spectators before it
 * closes (they hear nothing of it), room_spectators_adopt() has them
 * watch next, shown it at now_ms.
 */
struct list room_spectators_take(struct lobby *lobby, struct lobby_room *old);
void room_spectators_adopt(struct lobby *lobby, struct lobby_room *next,
			   struct list *taken, uint64_t now_ms);

/* room closes: its spectators are told and watch nothing any more. */
void room_spectators_close(struct lobby *lobby, struct lobby_room *room);

/* Tells room's spectators that player's seat is away, or back. */
void room_spectators_seat(struct lobby *lobby, const struct lobby_room *room,
			  const struct lobby_player *player, uint64_t now_ms);

/* Frees room's spectators (lobby_release()); sends nothing. */
void room_spectators_free(struct lobby_room *room);

/* Frees the spectators whose room closed, and the counts' heap. */
void watch_release(struct lobby *lobby);

#endif
