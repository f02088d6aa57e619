/*
 * room.c - a room's players, its game and clocks, offers (takeback, draw,
 * rematch), takebacks, resign, abort, emotes, the end of a game, and who
 * is told what.
 */
#include "room.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void room_tell(struct lobby *lobby, const struct lobby_player *player,
	       const struct event *ev)
{
	if (player->conn)
		lobby->sink.send(lobby->sink.ctx, player->conn, ev);
}

void room_record(struct lobby *lobby, enum lobby_record type,
		 const struct lobby_room *room)
{
	if (lobby->sink.record)
		lobby->sink.record(lobby->sink.ctx, type, room);
}

void room_tell_simple(struct lobby *lobby, const struct lobby_player *player,
		      enum event_type type)
{
	struct event ev = { .type = type };

	room_tell(lobby, player, &ev);
}

void room_refuse(struct lobby *lobby, const struct lobby_player *player,
		 enum error_code code, const char *text)
{
	struct event ev = { .type = EVENT_ERROR, .code = code, .text = text };

	room_tell(lobby, player, &ev);
}

/*
 * Tells player its side, room, pool and opponent (by name only, never
 * uid), and a timed game's clocks at now_ms.
 */
static void room_tell_role(struct lobby *lobby,
			   const struct lobby_player *player, uint64_t now_ms)
{
	const struct lobby_room *room = player->room;
	const struct lobby_player *opponent =
		room->seats[role_other(player->role)];
	struct event ev = {
		.type = EVENT_ROLE,
		.size = room->game.board.size,
		.rule = room->game.rule,
		.tc = room->game.clock.tc,
		.game = &room->game,
		.now_ms = now_ms,
		.role = player->role,
		.room_id = room->id,
		.opponent_name = opponent ? opponent->name : NULL,
		.ai_level = opponent && opponent->ai ?
				    engine_level_name(opponent->level) :
				    NULL,
	};

	room_tell(lobby, player, &ev);
}

/* Sends an event about the room's game (board or winner) to player. */
static void room_tell_game(struct lobby *lobby,
			   const struct lobby_player *player,
			   enum event_type type)
{
	struct event ev = { .type = type, .game = &player->room->game };

	room_tell(lobby, player, &ev);
}

/* Sends ev to both seats, front first, skipping empty seats. */
static void room_broadcast(struct lobby *lobby, const struct lobby_room *room,
			   const struct event *ev)
{
	if (room->seats[ROLE_FRONT])
		room_tell(lobby, room->seats[ROLE_FRONT], ev);
	if (room->seats[ROLE_BACK])
		room_tell(lobby, room->seats[ROLE_BACK], ev);
}

/* Sends a game event (board or winner) of room at now_ms to both seats. */
static void room_broadcast_game(struct lobby *lobby, struct lobby_room *room,
				enum event_type type, uint64_t now_ms)
{
	struct event ev = { .type = type,
			    .game = &room->game,
			    .now_ms = now_ms };

	room_broadcast(lobby, room, &ev);
	room_tell_spectators(lobby, room, &ev);
}

/*
 * When room's game must next be looked at for time: its flag, or its
 * first-move deadline; DEADLINE_NONE when it is over or untimed.
 */
static uint64_t room_deadline_at(const struct lobby_room *room)
{
	const struct game *game = &room->game;

	if (game_is_over(game) || !time_control_timed(game->clock.tc))
		return DEADLINE_NONE;
	if (game->moves_played < 2)
		return fischer_abort_at(&game->clock, game->moves_played);
	return fischer_flag_at(&game->clock, game->to_move);
}

/*
 * Puts room's deadline in the lobby's timers as it now stands. Out of
 * memory leaves the room out: its time is still checked by the next
 * request (room_check_time()).
 */
static void room_set_deadline(struct lobby *lobby, struct lobby_room *room)
{
	(void)deadline_set(&lobby->timers, &room->deadline,
			   room_deadline_at(room));
}

/* The game of room has just ended: count it and journal it. */
static void room_game_ended(struct lobby *lobby, struct lobby_room *room)
{
	lobby->stats.rooms_live--;
	lobby->stats.games_finished[room->game.reason]++;
	room->pool->games--;
	room_set_deadline(lobby, room);
	room_record(lobby, RECORD_GAME_OVER, room);
}

static void room_offer_lapse(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms);

/*
 * Ends room's live game at now_ms for a reason other than a move: a
 * pending offer lapses, the clocks stop (the side to move charged), loser
 * loses (ROLE_NONE: nobody wins: aborted, or agreed drawn); counted and
 * journalled. The caller tells the players.
 */
static void room_end(struct lobby *lobby, struct lobby_room *room,
		     enum role loser, enum game_reason reason, uint64_t now_ms)
{
	struct game *game = &room->game;

	room_offer_lapse(lobby, room, now_ms);
	fischer_stop(&game->clock, game->to_move, now_ms);
	if (loser == ROLE_NONE)
		game_halt(game, reason);
	else
		game_lose(game, loser, reason);
	room->serial++;
	room_game_ended(lobby, room);
}

/* The live game of room is lost by loser, who left or could not move. */
static void room_forfeit(struct lobby *lobby, struct lobby_room *room,
			 enum role loser, uint64_t now_ms)
{
	room_end(lobby, room, loser, REASON_FORFEIT, now_ms);
}

/* As room_end(), then both players get winner. */
static void room_end_told(struct lobby *lobby, struct lobby_room *room,
			  enum role loser, enum game_reason reason,
			  uint64_t now_ms)
{
	room_end(lobby, room, loser, reason, now_ms);
	room_broadcast_game(lobby, room, EVENT_WINNER, now_ms);
}

void room_time_out(struct lobby *lobby, struct lobby_room *room,
		   uint64_t now_ms)
{
	if (room->game.moves_played < 2)
		room_end_told(lobby, room, ROLE_NONE, REASON_ABORTED, now_ms);
	else
		room_end_told(lobby, room, room->game.to_move, REASON_TIMEOUT,
			      now_ms);
}

/* Ends room's game when its deadline fell by now_ms; true when it did. */
static bool room_check_time(struct lobby *lobby, struct lobby_room *room,
			    uint64_t now_ms)
{
	uint64_t at = room_deadline_at(room);

	if (at == DEADLINE_NONE || at > now_ms)
		return false;
	room_time_out(lobby, room, now_ms);
	return true;
}

/* Seats player in room as role. */
static void room_seat(struct lobby_room *room, struct lobby_player *player,
		      enum role role)
{
	player->state = PLAYER_PLAYING;
	player->room = room;
	player->role = role;
	room->seats[role] = player;
}

struct lobby_room *room_alloc(const struct lobby *lobby,
			      struct lobby_pool *pool)
{
	struct lobby_room *room = calloc(1, sizeof(*room));

	if (!room)
		return NULL;
	/* The pool's key was checked: only memory can fail. */
	if (game_init(&room->game, pool->key.size, pool->key.rule,
		      lobby->config.full_board)) {
		free(room);
		return NULL;
	}
	room->pool = pool;
	pool->refs++;
	room->offer_by = ROLE_NONE;
	room->deadline.at = DEADLINE_NONE;
	room->count_due.at = DEADLINE_NONE;
	return room;
}

/*
 * Gives a room from room_alloc() its id, opened at now_ms, from 16 random
 * bytes; returns one more random byte, the coin that picks the sides.
 * The id's order (identity_format_room_id()) is the lobby's clock plus an
 * offset that makes the first room's order its own first six random
 * bytes: ids sort in the order their rooms opened, and the clock (the
 * machine's uptime) is not shown.
 */
static uint8_t room_init(struct lobby *lobby, struct lobby_room *room,
			 uint64_t now_ms)
{
	uint8_t bytes[16];
	uint8_t coin;

	lobby->random.fill(lobby->random.ctx, bytes, sizeof(bytes));
	lobby->random.fill(lobby->random.ctx, &coin, sizeof(coin));
	if (!lobby->id_offset_set) {
		uint64_t first = 0;

		for (int i = 0; i < 6; i++)
			first = first << 8 | bytes[i];
		lobby->id_offset = first - now_ms;
		lobby->id_offset_set = true;
	}
	identity_format_room_id(lobby->id_offset + now_ms, bytes, room->id);
	return coin;
}

/*
 * A room whose seats are filled opens at now_ms: its clocks are set,
 * counted and journalled.
 */
static void room_opened(struct lobby *lobby, struct lobby_room *room,
			uint64_t now_ms)
{
	room->opened_ms = now_ms;
	fischer_start(&room->game.clock, room->pool->key.tc,
		      lobby->config.first_move_ms, now_ms);
	room_set_deadline(lobby, room);
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	lobby->stats.matches++;
	room->pool->games++;
	room_index_add(lobby, room);
	room_record(lobby, RECORD_ROOM_OPENED, room);
}

/*
 * The room id comes from 16 random bytes; one more random byte picks who
 * is front: an even byte seats the player who queued first as front.
 */
void room_match(struct lobby *lobby, struct lobby_room *room,
		struct lobby_player *first, struct lobby_player *second,
		uint64_t now_ms)
{
	uint8_t coin;

	coin = room_init(lobby, room, now_ms);
	room_seat(room, first, (coin & 1) == 0 ? ROLE_FRONT : ROLE_BACK);
	room_seat(room, second, (coin & 1) == 0 ? ROLE_BACK : ROLE_FRONT);
	room_opened(lobby, room, now_ms);
	room_tell_role(lobby, room->seats[ROLE_FRONT], now_ms);
	room_tell_role(lobby, room->seats[ROLE_BACK], now_ms);
}

/* The engine is to move in room: the caller is asked to think. */
static void room_ai_think(struct lobby *lobby, struct lobby_room *room)
{
	if (room->ai_role != ROLE_NONE && room->game.to_move == room->ai_role &&
	    lobby->sink.think)
		lobby->sink.think(lobby->sink.ctx, room);
}

/*
 * An empty room of pool for a game against the engine (with room to keep
 * what takebacks take for redo); NULL on out of memory.
 */
static struct lobby_room *room_alloc_ai(struct lobby *lobby,
					struct lobby_pool *pool)
{
	int cells = pool->key.size * pool->key.size;
	struct lobby_room *room = room_alloc(lobby, pool);

	if (room)
		room->redo = malloc((size_t)cells * sizeof(*room->redo));
	if (room && !room->redo) {
		room_free(lobby, room);
		return NULL;
	}
	return room;
}

int room_open_ai(struct lobby *lobby, struct lobby_player *player,
		 struct lobby_pool *pool, enum engine_level level,
		 uint64_t now_ms)
{
	struct lobby_player *engine = calloc(1, sizeof(*engine));
	struct lobby_room *room = room_alloc_ai(lobby, pool);
	uint8_t coin;

	if (!engine || !room) {
		free(engine);
		if (room)
			room_free(lobby, room);
		return -ENOMEM;
	}
	coin = room_init(lobby, room, now_ms);
	/* No name: the client names the computer, in its own language. */
	engine->ai = true;
	engine->level = level;
	room->ai_role = (coin & 1) == 0 ? ROLE_BACK : ROLE_FRONT;
	room_seat(room, player, role_other(room->ai_role));
	room_seat(room, engine, room->ai_role);
	lobby->stats.ai_rooms++;
	lobby->stats.ai_matches++;
	room_opened(lobby, room, now_ms);
	room_tell_role(lobby, player, now_ms);
	room_ai_think(lobby, room);
	return 0;
}

/* Whole seconds from now_ms until deadline_ms, rounded up. */
static int room_seconds_left(uint64_t deadline_ms, uint64_t now_ms)
{
	if (deadline_ms <= now_ms)
		return 0;
	return (int)((deadline_ms - now_ms + 999) / 1000);
}

void room_tell_away(struct lobby *lobby, const struct lobby_player *opponent,
		    const struct lobby_player *player, uint64_t now_ms)
{
	struct event ev = {
		.type = EVENT_OPPONENT_AWAY,
		.seconds = room_seconds_left(player->away_until, now_ms),
	};

	room_tell(lobby, opponent, &ev);
}

void room_resume(struct lobby *lobby, struct lobby_player *player,
		 uint64_t now_ms)
{
	const struct game *game = &player->room->game;
	const struct lobby_player *opponent =
		player->room->seats[role_other(player->role)];

	room_tell_role(lobby, player, now_ms);
	if (game->moves_played > 0) {
		struct event ev = {
			.type = EVENT_BOARD,
			.game = game,
			.now_ms = now_ms,
			.resume = true,
		};

		room_tell(lobby, player, &ev);
	}
	if (game_is_over(game))
		room_tell_game(lobby, player, EVENT_WINNER);
	if (player->room->count_told) {
		struct event ev = { .type = EVENT_SPECTATORS,
				    .count = player->room->count_told };

		room_tell(lobby, player, &ev);
	}
	/* An offer still waiting, the player's or the opponent's. */
	if (player->room->offer_by != ROLE_NONE) {
		struct event ev = {
			.type = EVENT_OFFER,
			.what = player->room->offer_what,
			.by = player->room->offer_by,
		};

		room_tell(lobby, player, &ev);
	}
	if (!opponent) {
		struct event ev = {
			.type = EVENT_DISCONNECT,
			.text = ROOM_OPPONENT_LEFT,
		};

		room_tell(lobby, player, &ev);
	} else if (!opponent->conn && !opponent->ai) {
		room_tell_away(lobby, player, opponent, now_ms);
	}
}

/*
 * The pending offer of room is declined (by an answer, or lapsing): its
 * maker may not make one of its kind again for a while; counted.
 */
static void room_offer_declined(struct lobby *lobby, struct lobby_room *room,
				uint64_t now_ms)
{
	struct lobby_player *offerer = room->seats[room->offer_by];

	if (offerer)
		offerer->offer_again_at[room->offer_what] =
			now_ms + LOBBY_OFFER_COOLDOWN_MS;
	lobby->stats.offers[room->offer_what][0]++;
	room->offer_by = ROLE_NONE;
}

/* The pending offer of room lapses: both hear it was declined. */
static void room_offer_lapse(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms)
{
	struct event ev = { .type = EVENT_ANSWER, .accept = false };

	if (room->offer_by == ROLE_NONE)
		return;
	ev.by = role_other(room->offer_by);
	ev.what = room->offer_what;
	room_offer_declined(lobby, room, now_ms);
	room_broadcast(lobby, room, &ev);
}

void room_free(struct lobby *lobby, struct lobby_room *room)
{
	(void)deadline_set(&lobby->timers, &room->deadline, DEADLINE_NONE);
	(void)deadline_set(&lobby->counts, &room->count_due, DEADLINE_NONE);
	room_index_remove(lobby, room);
	lobby_pool_drop(lobby, room->pool);
	game_release(&room->game);
	free(room->redo);
	free(room);
}

void room_leave(struct lobby *lobby, struct lobby_player *player,
		uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct lobby_player *opponent = room->seats[role_other(player->role)];
	struct event ev = {
		.type = EVENT_DISCONNECT,
		.text = ROOM_OPPONENT_LEFT,
	};

	/* The player is gone before anyone is told: it hears nothing more. */
	room->seats[player->role] = NULL;
	if (opponent)
		room_offer_lapse(lobby, room, now_ms);
	room->offer_by = ROLE_NONE;
	if (!game_is_over(&room->game)) {
		struct event winner = { .type = EVENT_WINNER,
					.game = &room->game };

		room_forfeit(lobby, room, player->role, now_ms);
		if (opponent)
			room_tell(lobby, opponent, &winner);
		room_tell_spectators(lobby, room, &winner);
	}
	if (opponent)
		room_tell(lobby, opponent, &ev);
	if (opponent && opponent->ai) {
		room->seats[opponent->role] = NULL;
		free(opponent);
		lobby->stats.ai_rooms--;
	}
	if (!room->seats[ROLE_FRONT] && !room->seats[ROLE_BACK])
		room_close(lobby, room);
}

void room_close(struct lobby *lobby, struct lobby_room *room)
{
	room_spectators_close(lobby, room);
	room_record(lobby, RECORD_ROOM_CLOSED, room);
	room_free(lobby, room);
	lobby->stats.rooms--;
}

/*
 * Takes back moves of room's game until role is to move again (one move
 * when role moved last, two when the opponent replied), each with a board
 * to both. Engine rooms keep what was taken back for redo.
 */
static void room_take_back(struct lobby *lobby, struct lobby_room *room,
			   enum role role, uint64_t now_ms)
{
	struct game *game = &room->game;
	struct event ev = { .type = EVENT_BOARD,
			    .game = game,
			    .undo = true,
			    .now_ms = now_ms };
	int taken = 0;

	/* No time is given back: the clocks stand as they are now. */
	fischer_stop(&game->clock, game->to_move, now_ms);
	while (game->moves_played > 0 &&
	       (taken == 0 || game->to_move != role)) {
		if (!game_undo(game, &ev.undo_cell, &ev.undo_role))
			break;
		taken++;
		if (room->redo)
			room->redo[room->redo_count++] = (uint16_t)board_index(
				game->board.size, ev.undo_cell.x,
				ev.undo_cell.y);
		fischer_restart(&game->clock, game->moves_played, now_ms);
		room->serial++;
		room_record(lobby, RECORD_TAKEBACK, room);
		room_broadcast(lobby, room, &ev);
		room_tell_spectators(lobby, room, &ev);
	}
	fischer_restart(&game->clock, game->moves_played, now_ms);
	room_set_deadline(lobby, room);
	lobby->stats.takebacks++;
}

/* Whether role has a stone on the board (front plays moves 0, 2, ...). */
static bool room_has_moved(const struct game *game, enum role role)
{
	return game->moves_played > (role == ROLE_FRONT ? 0 : 1);
}

/* Opens the rematch of room's finished game: see room_rematch(). */
static void room_rematch(struct lobby *lobby, struct lobby_room *room,
			 struct lobby_room *next, uint64_t now_ms);

/*
 * What room needs before offer what of player can be made: NULL when it
 * can, or the error (and *text why).
 */
static enum error_code room_offer_check(const struct lobby_room *room,
					const struct lobby_player *player,
					enum offer_what what, const char **text)
{
	const struct lobby_player *opponent =
		room->seats[role_other(player->role)];

	if (what == OFFER_REMATCH) {
		if (!game_is_over(&room->game)) {
			*text = "a rematch is offered once the game is over";
			return ERR_BAD_OFFER;
		}
		if (!opponent) {
			*text = "your opponent has left";
			return ERR_OPPONENT_GONE;
		}
	} else if (what == OFFER_TAKEBACK &&
		   !room_has_moved(&room->game, player->role)) {
		*text = "you have no move to take back";
		return ERR_NOTHING_TO_UNDO;
	}
	return ERR_NONE;
}

/*
 * Carries out the accepted offer what of offerer in room at now_ms (the
 * answer was told). next: the room for a rematch, allocated before.
 */
static void room_offer_accepted(struct lobby *lobby, struct lobby_room *room,
				enum offer_what what, enum role offerer,
				struct lobby_room *next, uint64_t now_ms)
{
	lobby->stats.offers[what][1]++;
	switch (what) {
	case OFFER_TAKEBACK:
		room_take_back(lobby, room, offerer, now_ms);
		break;
	case OFFER_DRAW:
		room_end_told(lobby, room, ROLE_NONE, REASON_AGREEMENT, now_ms);
		break;
	case OFFER_REMATCH:
	case OFFER_COUNT:
		room_rematch(lobby, room, next, now_ms);
		break;
	}
}

/*
 * A room for the rematch of room, allocated before anyone is told it is
 * accepted (so that accepting cannot fail halfway); NULL on out of memory.
 */
static struct lobby_room *room_alloc_rematch(struct lobby *lobby,
					     const struct lobby_room *room)
{
	return room->ai_role != ROLE_NONE ? room_alloc_ai(lobby, room->pool) :
					    room_alloc(lobby, room->pool);
}

/*
 * The engine answers offer what of player at once: it takes back and
 * rematches, and declines draws.
 */
static void room_engine_answers(struct lobby *lobby,
				struct lobby_player *player,
				enum offer_what what, uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct lobby_room *next = NULL;
	struct event ev = { .type = EVENT_ANSWER,
			    .what = what,
			    .by = room->ai_role,
			    .accept = what != OFFER_DRAW };

	if (what == OFFER_TAKEBACK) {
		/* As ever: no offer nor answer, the moves go back at once. */
		lobby->stats.offers[what][1]++;
		room_take_back(lobby, room, player->role, now_ms);
		return;
	}
	if (what == OFFER_REMATCH) {
		next = room_alloc_rematch(lobby, room);
		if (!next) {
			room_refuse(lobby, player, ERR_UNAVAILABLE,
				    "the server is out of memory");
			return;
		}
	}
	room->offer_by = player->role;
	room->offer_what = what;
	room_tell(lobby, player,
		  &(struct event){ .type = EVENT_OFFER,
				   .what = what,
				   .by = player->role });
	room_tell(lobby, player, &ev);
	if (!ev.accept) {
		room_offer_declined(lobby, room, now_ms);
		return;
	}
	room->offer_by = ROLE_NONE;
	room_offer_accepted(lobby, room, what, player->role, next, now_ms);
}

/* {"type":"offer","what":W}. */
static void room_offer(struct lobby *lobby, struct lobby_player *player,
		       enum offer_what what, uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct event ev = { .type = EVENT_OFFER,
			    .what = what,
			    .by = player->role };
	const char *text = NULL;
	enum error_code code = room_offer_check(room, player, what, &text);

	if (code != ERR_NONE) {
		room_refuse(lobby, player, code, text);
		return;
	}
	if (room->offer_by != ROLE_NONE) {
		room_refuse(lobby, player, ERR_OFFER_PENDING,
			    "an offer is already waiting for an answer");
		return;
	}
	if (now_ms < player->offer_again_at[what]) {
		room_refuse(lobby, player, ERR_TOO_SOON,
			    "your last offer was declined; wait a little");
		return;
	}
	if (room->ai_role != ROLE_NONE) {
		room_engine_answers(lobby, player, what, now_ms);
		return;
	}
	room->offer_by = player->role;
	room->offer_what = what;
	room_broadcast(lobby, room, &ev);
}

/* {"type":"answer","what":W,"accept":B}. */
static void room_answer(struct lobby *lobby, struct lobby_player *player,
			enum offer_what what, bool accept, uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	enum role offerer = role_other(player->role);
	struct lobby_room *next = NULL;
	struct event ev = {
		.type = EVENT_ANSWER,
		.what = what,
		.accept = accept,
		.by = player->role,
	};

	if (room->offer_by != offerer || room->offer_what != what) {
		room_refuse(lobby, player, ERR_NO_OFFER,
			    "there is no offer to answer");
		return;
	}
	if (accept && what == OFFER_REMATCH) {
		next = room_alloc_rematch(lobby, room);
		if (!next) {
			room_refuse(lobby, player, ERR_UNAVAILABLE,
				    "the server is out of memory");
			return;
		}
	}
	room_broadcast(lobby, room, &ev);
	if (!accept) {
		room_offer_declined(lobby, room, now_ms);
		return;
	}
	room->offer_by = ROLE_NONE;
	room_offer_accepted(lobby, room, what, offerer, next, now_ms);
}

/*
 * Opens next (from room_alloc_rematch()) for the rematch of room's
 * finished game: the same players and pool, the sides swapped, a new id;
 * room is closed. Both get role, as after a match.
 */
static void room_rematch(struct lobby *lobby, struct lobby_room *room,
			 struct lobby_room *next, uint64_t now_ms)
{
	struct lobby_player *front = room->seats[ROLE_FRONT];
	struct lobby_player *back = room->seats[ROLE_BACK];
	struct list watchers = room_spectators_take(lobby, room);

	(void)room_init(lobby, next, now_ms);
	snprintf(next->rematch_of, sizeof(next->rematch_of), "%s", room->id);
	next->private = room->private;
	next->ai_role = role_other(room->ai_role);
	if (room->ai_role == ROLE_NONE)
		next->ai_role = ROLE_NONE;
	room->seats[ROLE_FRONT] = room->seats[ROLE_BACK] = NULL;
	room_close(lobby, room);
	room_seat(next, front, ROLE_BACK);
	room_seat(next, back, ROLE_FRONT);
	if (next->ai_role != ROLE_NONE)
		lobby->stats.ai_matches++;
	room_opened(lobby, next, now_ms);
	if (!front->ai)
		room_tell_role(lobby, front, now_ms);
	if (!back->ai)
		room_tell_role(lobby, back, now_ms);
	room_spectators_adopt(lobby, next, &watchers, now_ms);
	room_ai_think(lobby, next);
}

/* {"type":"resign"}: the sender loses. */
static void room_resign(struct lobby *lobby, struct lobby_player *player,
			uint64_t now_ms)
{
	room_end_told(lobby, player->room, player->role, REASON_RESIGN, now_ms);
}

/* {"type":"abort"}: a game of fewer than 2 moves ends uncounted. */
static void room_abort(struct lobby *lobby, struct lobby_player *player,
		       uint64_t now_ms)
{
	if (player->room->game.moves_played >= 2) {
		room_refuse(lobby, player, ERR_TOO_LATE,
			    "a game can be aborted only before its second "
			    "move; resign instead");
		return;
	}
	room_end_told(lobby, player->room, ROLE_NONE, REASON_ABORTED, now_ms);
}

/* {"type":"emote","emote":E}: to the opponent, at most one per 3 s. */
static void room_emote(struct lobby *lobby, struct lobby_player *player,
		       enum emote emote, uint64_t now_ms)
{
	const struct lobby_player *opponent =
		player->room->seats[role_other(player->role)];
	struct event ev = { .type = EVENT_EMOTE,
			    .emote = emote,
			    .by = player->role };

	if (now_ms < player->emote_again_at) {
		room_refuse(lobby, player, ERR_TOO_SOON,
			    "one emote every 3 seconds");
		return;
	}
	player->emote_again_at = now_ms + LOBBY_EMOTE_COOLDOWN_MS;
	lobby->stats.emotes++;
	if (opponent)
		room_tell(lobby, opponent, &ev);
	room_tell_spectators(lobby, player->room, &ev);
}

/*
 * The move just played in room at now_ms: the clocks, journalled,
 * counted and announced.
 */
static void room_moved(struct lobby *lobby, struct lobby_room *room,
		       uint64_t now_ms)
{
	struct game *game = &room->game;

	fischer_moved(&game->clock, game->last_mover, game->moves_played,
		      now_ms);
	if (game_is_over(game))
		fischer_stop(&game->clock, ROLE_NONE, now_ms);
	room->serial++;
	lobby->stats.moves++;
	room_record(lobby, RECORD_MOVE, room);
	if (game_is_over(game))
		room_game_ended(lobby, room);
	else
		room_set_deadline(lobby, room);
	room_broadcast_game(lobby, room, EVENT_BOARD, now_ms);
	if (game_is_over(game))
		room_broadcast_game(lobby, room, EVENT_WINNER, now_ms);
}

/* {"type":"redo"}: engine rooms put back what the last takeback took. */
static void room_redo(struct lobby *lobby, struct lobby_player *player,
		      uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct game *game = &room->game;
	int played = 0;

	if (room->ai_role == ROLE_NONE || !room->redo_count) {
		room_refuse(lobby, player, ERR_NOTHING_TO_REDO,
			    room->ai_role == ROLE_NONE ?
				    "redo is for games against the computer" :
				    "there is nothing to redo");
		return;
	}
	while (room->redo_count && !game_is_over(game) &&
	       (played == 0 || game->to_move != player->role)) {
		struct cell cell = board_cell(game->board.size,
					      room->redo[--room->redo_count]);

		if (game_play(game, game->to_move, cell.x, cell.y) != MOVE_OK) {
			room->redo_count = 0; /* cannot happen: kept moves */
			break;
		}
		played++;
		room_moved(lobby, room, now_ms);
	}
	if (!game_is_over(game))
		room_ai_think(lobby, room);
}

/* The human-readable text of a refused move. */
static const char *room_move_message(enum move_result result)
{
	switch (result) {
	case MOVE_OUT_OF_RANGE:
		return "that cell is not on the board";
	case MOVE_OCCUPIED:
		return "that cell is already occupied";
	case MOVE_NOT_YOUR_TURN:
		return "it is not your turn";
	case MOVE_GAME_OVER:
		return "the game is over";
	case MOVE_FORBIDDEN:
		return "black may not play there under renju: it is forbidden "
		       "(an overline, a double four or a double three)";
	case MOVE_BAD_BOARD:
	default:
		return "the board is not exactly one new stone of your colour";
	}
}

/* Validates and plays a move or seed-form board request of player. */
static void room_play(struct lobby *lobby, struct lobby_player *player,
		      const struct request *req, uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct game *game = &room->game;
	enum move_result result;
	int x = req->x;
	int y = req->y;

	if (req->type == REQUEST_BOARD) {
		result = game_find_board_move(game, player->role, req->cells,
					      &x, &y);
		/* A board naming the other side is refused, after the turn. */
		if (result != MOVE_GAME_OVER && result != MOVE_NOT_YOUR_TURN &&
		    req->role != player->role)
			result = MOVE_BAD_BOARD;
		if (result == MOVE_OK)
			result = game_play(game, player->role, x, y);
	} else {
		result = game_play(game, player->role, x, y);
	}

	if (result != MOVE_OK) {
		room_refuse(lobby, player, error_from_move_result(result),
			    room_move_message(result));
		return;
	}
	room_offer_lapse(lobby, room, now_ms);
	room->redo_count = 0;
	room_moved(lobby, room, now_ms);
	if (!game_is_over(game))
		room_ai_think(lobby, room);
}

/* Whether a request may come once the game is over: rematch, emotes. */
static bool room_request_after_end(const struct request *req)
{
	return req->type == REQUEST_EMOTE ||
	       ((req->type == REQUEST_OFFER || req->type == REQUEST_ANSWER) &&
		req->what == OFFER_REMATCH);
}

void room_request(struct lobby *lobby, struct lobby_player *player,
		  const struct request *req, uint64_t now_ms)
{
	/* A flag that fell since the last tick falls before anything. */
	room_check_time(lobby, player->room, now_ms);
	if (req->type != REQUEST_MOVE && req->type != REQUEST_BOARD &&
	    game_is_over(&player->room->game) && !room_request_after_end(req)) {
		room_refuse(lobby, player, ERR_GAME_OVER,
			    room_move_message(MOVE_GAME_OVER));
		return;
	}
	switch (req->type) {
	case REQUEST_OFFER:
		room_offer(lobby, player, req->what, now_ms);
		break;
	case REQUEST_ANSWER:
		room_answer(lobby, player, req->what, req->accept, now_ms);
		break;
	case REQUEST_REDO:
		room_redo(lobby, player, now_ms);
		break;
	case REQUEST_RESIGN:
		room_resign(lobby, player, now_ms);
		break;
	case REQUEST_ABORT:
		room_abort(lobby, player, now_ms);
		break;
	case REQUEST_EMOTE:
		room_emote(lobby, player, req->emote, now_ms);
		break;
	default:
		room_play(lobby, player, req, now_ms);
		break;
	}
}

bool room_ai_ticket_holds(const struct lobby_room *room,
			  const struct lobby_ai_ticket *ticket)
{
	return room->ai_role != ROLE_NONE &&
	       !strcmp(room->id, ticket->room_id) &&
	       room->serial == ticket->serial && !game_is_over(&room->game) &&
	       room->game.to_move == room->ai_role &&
	       room->seats[room->ai_role];
}

int room_ai_move(struct lobby *lobby, struct lobby_room *room, int x, int y,
		 uint64_t now_ms)
{
	/* The engine's flag may have fallen while it thought. */
	if (room_check_time(lobby, room, now_ms))
		return -ESTALE;
	if (game_play(&room->game, room->ai_role, x, y) != MOVE_OK)
		return -EINVAL;
	room->redo_count = 0;
	room_moved(lobby, room, now_ms);
	return 0;
}

void room_ai_forfeit(struct lobby *lobby, struct lobby_room *room,
		     uint64_t now_ms)
{
	room_end_told(lobby, room, room->ai_role, REASON_FORFEIT, now_ms);
}

struct lobby_room *room_restore(struct lobby *lobby,
				const struct lobby_saved_game *saved,
				const char *id, struct lobby_pool *pool,
				struct lobby_player *front,
				struct lobby_player *back, uint64_t now_ms)
{
	struct lobby_room *room = room_alloc(lobby, pool);
	struct fischer *clock;
	int i;

	if (!room)
		return NULL;
	snprintf(room->id, sizeof(room->id), "%s", id);
	if (saved->rematch_of &&
	    identity_check_uid(saved->rematch_of, room->rematch_of) == false)
		room->rematch_of[0] = '\0';
	room->private = saved->private;
	room->game.full_board = saved->full_board;
	for (i = 0; i < saved->moves_played; i++) {
		struct cell cell =
			board_cell(saved->board_size, saved->moves[i]);

		if (game_play(&room->game, room->game.to_move, cell.x,
			      cell.y) != MOVE_OK)
			goto out_free_room;
	}
	if (game_is_over(&room->game))
		goto out_free_room;
	/* The clocks of the last move; the time since is nobody's. */
	clock = &room->game.clock;
	fischer_start(clock, pool->key.tc, lobby->config.first_move_ms, now_ms);
	for (i = 0; i < ROLE_COUNT; i++)
		if ((i == ROLE_FRONT || i == ROLE_BACK) &&
		    time_control_timed(pool->key.tc) && saved->clock_ms[i] >= 0)
			clock->left_ms[i] = saved->clock_ms[i];
	fischer_restart(clock, room->game.moves_played, now_ms);
	room_seat(room, front, ROLE_FRONT);
	room_seat(room, back, ROLE_BACK);
	room->opened_ms = now_ms;
	room_set_deadline(lobby, room);
	room_index_add(lobby, room);
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	pool->games++;
	return room;

out_free_room:
	room_free(lobby, room);
	return NULL;
}
