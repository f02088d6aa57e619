/*
 * room.c - a room's players, its game, offers and takebacks, and who is
 * told what.
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

/* Tells player its side, room and opponent (by name only, never uid). */
static void room_tell_role(struct lobby *lobby,
			   const struct lobby_player *player)
{
	const struct lobby_room *room = player->room;
	const struct lobby_player *opponent =
		room->seats[role_other(player->role)];
	struct event ev = {
		.type = EVENT_ROLE,
		.size = room->game.board.size,
		.rule = room->game.rule,
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

/* Sends a game event (board or winner) of room to both seats. */
static void room_broadcast_game(struct lobby *lobby, struct lobby_room *room,
				enum event_type type)
{
	struct event ev = { .type = type, .game = &room->game };

	room_broadcast(lobby, room, &ev);
}

/* The game of room has just ended: count it and journal it. */
static void room_game_ended(struct lobby *lobby, struct lobby_room *room)
{
	lobby->stats.rooms_live--;
	lobby->stats.games_finished[room->game.reason]++;
	room_record(lobby, RECORD_GAME_OVER, room);
}

/* The live game of room is lost by loser, who left or could not move. */
static void room_forfeit(struct lobby *lobby, struct lobby_room *room,
			 enum role loser)
{
	game_forfeit(&room->game, loser);
	room->serial++;
	room_game_ended(lobby, room);
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

struct lobby_room *room_alloc(const struct lobby *lobby)
{
	struct lobby_room *room = calloc(1, sizeof(*room));

	if (!room)
		return NULL;
	/* The config was checked by lobby_init(): only memory can fail. */
	if (game_init(&room->game, lobby->config.board_size, lobby->config.rule,
		      lobby->config.full_board)) {
		free(room);
		return NULL;
	}
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

/* A room whose seats are filled opens at now_ms: count it and journal it. */
static void room_opened(struct lobby *lobby, struct lobby_room *room,
			uint64_t now_ms)
{
	room->opened_ms = now_ms;
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	lobby->stats.matches++;
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
	room_tell_role(lobby, room->seats[ROLE_FRONT]);
	room_tell_role(lobby, room->seats[ROLE_BACK]);
}

/* The engine is to move in room: the caller is asked to think. */
static void room_ai_think(struct lobby *lobby, struct lobby_room *room)
{
	if (room->ai_role != ROLE_NONE && room->game.to_move == room->ai_role &&
	    lobby->sink.think)
		lobby->sink.think(lobby->sink.ctx, room);
}

int room_open_ai(struct lobby *lobby, struct lobby_player *player,
		 enum engine_level level, uint64_t now_ms)
{
	int cells = lobby->config.board_size * lobby->config.board_size;
	struct lobby_player *engine = calloc(1, sizeof(*engine));
	struct lobby_room *room = room_alloc(lobby);
	uint8_t coin;

	if (room)
		room->redo = malloc((size_t)cells * sizeof(*room->redo));
	if (!engine || !room || !room->redo) {
		free(engine);
		if (room)
			room_free(room);
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
	room_tell_role(lobby, player);
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

	room_tell_role(lobby, player);
	if (game->moves_played > 0) {
		struct event ev = {
			.type = EVENT_BOARD,
			.game = game,
			.resume = true,
		};

		room_tell(lobby, player, &ev);
	}
	if (game_is_over(game))
		room_tell_game(lobby, player, EVENT_WINNER);
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

/* The pending takeback offer of room lapses: both hear it was declined. */
static void room_offer_lapse(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms)
{
	struct lobby_player *offerer;
	struct event ev = { .type = EVENT_ANSWER, .accept = false };

	if (room->offer_by == ROLE_NONE)
		return;
	offerer = room->seats[room->offer_by];
	ev.by = role_other(room->offer_by);
	room->offer_by = ROLE_NONE;
	if (offerer)
		offerer->offer_again_at = now_ms + LOBBY_OFFER_COOLDOWN_MS;
	room_broadcast(lobby, room, &ev);
}

void room_free(struct lobby_room *room)
{
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

	if (opponent)
		room_offer_lapse(lobby, room, now_ms);
	room->seats[player->role] = NULL;
	if (!game_is_over(&room->game)) {
		room_forfeit(lobby, room, player->role);
		if (opponent)
			room_tell_game(lobby, opponent, EVENT_WINNER);
	}
	if (opponent)
		room_tell(lobby, opponent, &ev);
	if (opponent && opponent->ai) {
		room->seats[opponent->role] = NULL;
		free(opponent);
		lobby->stats.ai_rooms--;
	}
	if (!room->seats[ROLE_FRONT] && !room->seats[ROLE_BACK]) {
		room_record(lobby, RECORD_ROOM_CLOSED, room);
		room_free(room);
		lobby->stats.rooms--;
	}
}

/*
 * Takes back moves of room's game until role is to move again (one move
 * when role moved last, two when the opponent replied), each with a board
 * to both. Engine rooms keep what was taken back for redo.
 */
static void room_take_back(struct lobby *lobby, struct lobby_room *room,
			   enum role role)
{
	struct game *game = &room->game;
	struct event ev = { .type = EVENT_BOARD, .game = game, .undo = true };
	int taken = 0;

	while (game->moves_played > 0 &&
	       (taken == 0 || game->to_move != role)) {
		if (!game_undo(game, &ev.undo_cell, &ev.undo_role))
			break;
		taken++;
		if (room->redo)
			room->redo[room->redo_count++] = (uint16_t)board_index(
				game->board.size, ev.undo_cell.x,
				ev.undo_cell.y);
		room->serial++;
		room_record(lobby, RECORD_TAKEBACK, room);
		room_broadcast(lobby, room, &ev);
	}
	lobby->stats.takebacks++;
}

/* Whether role has a stone on the board (front plays moves 0, 2, ...). */
static bool room_has_moved(const struct game *game, enum role role)
{
	return game->moves_played > (role == ROLE_FRONT ? 0 : 1);
}

/* {"type":"offer","what":"takeback"}. */
static void room_offer(struct lobby *lobby, struct lobby_player *player,
		       uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	struct event ev = { .type = EVENT_OFFER, .by = player->role };

	if (!room_has_moved(&room->game, player->role)) {
		room_refuse(lobby, player, ERR_NOTHING_TO_UNDO,
			    "you have no move to take back");
		return;
	}
	if (room->ai_role != ROLE_NONE) {
		room_take_back(lobby, room, player->role);
		return;
	}
	if (room->offer_by != ROLE_NONE) {
		room_refuse(lobby, player, ERR_OFFER_PENDING,
			    "an offer is already waiting for an answer");
		return;
	}
	if (now_ms < player->offer_again_at) {
		room_refuse(lobby, player, ERR_TOO_SOON,
			    "your last offer was declined; wait a little");
		return;
	}
	room->offer_by = player->role;
	room_broadcast(lobby, room, &ev);
}

/* {"type":"answer","what":"takeback","accept":B}. */
static void room_answer(struct lobby *lobby, struct lobby_player *player,
			bool accept, uint64_t now_ms)
{
	struct lobby_room *room = player->room;
	enum role offerer = role_other(player->role);
	struct event ev = {
		.type = EVENT_ANSWER,
		.accept = accept,
		.by = player->role,
	};

	if (room->offer_by != offerer) {
		room_refuse(lobby, player, ERR_NO_OFFER,
			    "there is no offer to answer");
		return;
	}
	room->offer_by = ROLE_NONE;
	room_broadcast(lobby, room, &ev);
	if (accept)
		room_take_back(lobby, room, offerer);
	else if (room->seats[offerer])
		room->seats[offerer]->offer_again_at =
			now_ms + LOBBY_OFFER_COOLDOWN_MS;
}

/* Journals, counts and announces the move just played in room. */
static void room_moved(struct lobby *lobby, struct lobby_room *room)
{
	struct game *game = &room->game;

	room->serial++;
	lobby->stats.moves++;
	room_record(lobby, RECORD_MOVE, room);
	if (game_is_over(game))
		room_game_ended(lobby, room);
	room_broadcast_game(lobby, room, EVENT_BOARD);
	if (game_is_over(game))
		room_broadcast_game(lobby, room, EVENT_WINNER);
}

/* {"type":"redo"}: engine rooms put back what the last takeback took. */
static void room_redo(struct lobby *lobby, struct lobby_player *player)
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
		room_moved(lobby, room);
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
	room_moved(lobby, room);
	if (!game_is_over(game))
		room_ai_think(lobby, room);
}

void room_request(struct lobby *lobby, struct lobby_player *player,
		  const struct request *req, uint64_t now_ms)
{
	if (req->type != REQUEST_MOVE && req->type != REQUEST_BOARD &&
	    game_is_over(&player->room->game)) {
		room_refuse(lobby, player, ERR_GAME_OVER,
			    room_move_message(MOVE_GAME_OVER));
		return;
	}
	switch (req->type) {
	case REQUEST_OFFER:
		room_offer(lobby, player, now_ms);
		break;
	case REQUEST_ANSWER:
		room_answer(lobby, player, req->accept, now_ms);
		break;
	case REQUEST_REDO:
		room_redo(lobby, player);
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

int room_ai_move(struct lobby *lobby, struct lobby_room *room, int x, int y)
{
	if (game_play(&room->game, room->ai_role, x, y) != MOVE_OK)
		return -EINVAL;
	room->redo_count = 0;
	room_moved(lobby, room);
	return 0;
}

void room_ai_forfeit(struct lobby *lobby, struct lobby_room *room)
{
	room_forfeit(lobby, room, room->ai_role);
	room_broadcast_game(lobby, room, EVENT_WINNER);
}

struct lobby_room *room_restore(struct lobby *lobby,
				const struct lobby_saved_game *saved,
				const char *id, struct lobby_player *front,
				struct lobby_player *back, uint64_t now_ms)
{
	struct lobby_room *room = calloc(1, sizeof(*room));
	int i;

	if (!room)
		return NULL;
	snprintf(room->id, sizeof(room->id), "%s", id);
	if (game_init(&room->game, saved->board_size, saved->rule,
		      saved->full_board))
		goto out_free_room;
	for (i = 0; i < saved->moves_played; i++) {
		struct cell cell =
			board_cell(saved->board_size, saved->moves[i]);

		if (game_play(&room->game, room->game.to_move, cell.x,
			      cell.y) != MOVE_OK)
			goto out_free_room;
	}
	if (game_is_over(&room->game))
		goto out_free_room;
	room_seat(room, front, ROLE_FRONT);
	room_seat(room, back, ROLE_BACK);
	room->opened_ms = now_ms;
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	return room;

out_free_room:
	room_free(room);
	return NULL;
}
