/*
 * lobby.c - seats keyed by uid, the first-come first-served queue, and the
 * rooms the queue is paired into.
 */
#include "lobby.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOBBY_INITIAL_BUCKETS 64

/* What the opponent of a player who left is told. */
#define LOBBY_OPPONENT_LEFT "opponent left"

/* FNV-1a over the canonical uid. */
static size_t lobby_hash(const char *uid)
{
	uint64_t hash = 14695981039346656037ULL;

	while (*uid) {
		hash ^= (unsigned char)*uid++;
		hash *= 1099511628211ULL;
	}
	return (size_t)hash;
}

/* The chain of the seat table that uid belongs in. */
static struct lobby_player **lobby_bucket(const struct lobby *lobby,
					  const char *uid)
{
	return &lobby->seats[lobby_hash(uid) & (lobby->seat_buckets - 1)];
}

int lobby_init(struct lobby *lobby, const struct lobby_config *config,
	       struct lobby_random random, struct lobby_sink sink)
{
	if (!config || config->board_size < BOARD_MIN_SIZE ||
	    config->board_size > BOARD_MAX_SIZE ||
	    (config->rule != RULE_FREESTYLE && config->rule != RULE_STANDARD) ||
	    (config->full_board != FULL_BOARD_BACK &&
	     config->full_board != FULL_BOARD_DRAW) ||
	    !random.fill || !sink.send)
		return -EINVAL;

	memset(lobby, 0, sizeof(*lobby));
	lobby->seats = calloc(LOBBY_INITIAL_BUCKETS, sizeof(*lobby->seats));
	if (!lobby->seats)
		return -ENOMEM;
	lobby->seat_buckets = LOBBY_INITIAL_BUCKETS;
	lobby->config = *config;
	lobby->random = random;
	lobby->sink = sink;
	return 0;
}

static void lobby_room_free(struct lobby_room *room)
{
	free(room->redo);
	free(room);
}

void lobby_release(struct lobby *lobby)
{
	struct lobby_player *player;
	struct lobby_player *next;
	struct lobby_room *room;
	size_t i;

	for (i = 0; i < lobby->seat_buckets; i++) {
		for (player = lobby->seats[i]; player; player = next) {
			next = player->hash_next;
			room = player->room;
			if (player->state == PLAYER_PLAYING && room) {
				room->seats[player->role] = NULL;
				if (room->ai_role != ROLE_NONE) {
					free(room->seats[room->ai_role]);
					room->seats[room->ai_role] = NULL;
				}
				if (!room->seats[ROLE_FRONT] &&
				    !room->seats[ROLE_BACK])
					lobby_room_free(room);
			}
			free(player);
		}
	}
	free(lobby->seats);
	lobby->seats = NULL;
	lobby->seat_buckets = 0;
	lobby->queue_head = NULL;
	lobby->queue_tail = NULL;
	lobby->away_head = NULL;
	lobby->away_tail = NULL;
	memset(&lobby->stats, 0, sizeof(lobby->stats));
}

struct lobby_player *lobby_find(const struct lobby *lobby, const char *uid)
{
	struct lobby_player *player;

	for (player = *lobby_bucket(lobby, uid); player;
	     player = player->hash_next) {
		if (strcmp(player->uid, uid) == 0)
			return player;
	}
	return NULL;
}

/*
 * Doubles the seat table once players outnumber buckets. Failing to grow
 * only makes the chains longer, so out of memory here is not an error.
 */
static void lobby_grow_seats(struct lobby *lobby)
{
	size_t buckets = lobby->seat_buckets * 2;
	struct lobby_player **seats;
	struct lobby_player *player;
	struct lobby_player *next;
	size_t slot;
	size_t i;

	if (lobby->stats.players <= lobby->seat_buckets)
		return;
	seats = calloc(buckets, sizeof(*seats));
	if (!seats)
		return;
	for (i = 0; i < lobby->seat_buckets; i++) {
		for (player = lobby->seats[i]; player; player = next) {
			next = player->hash_next;
			slot = lobby_hash(player->uid) & (buckets - 1);
			player->hash_next = seats[slot];
			seats[slot] = player;
		}
	}
	free(lobby->seats);
	lobby->seats = seats;
	lobby->seat_buckets = buckets;
}

/* Puts player in the seat table, which grows when it gets crowded. */
static void lobby_seat_add(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_player **bucket = lobby_bucket(lobby, player->uid);

	player->hash_next = *bucket;
	*bucket = player;
	lobby->stats.players++;
	lobby_grow_seats(lobby);
}

/* Takes player out of the seat table. */
static void lobby_seat_remove(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_player **link = lobby_bucket(lobby, player->uid);

	while (*link && *link != player)
		link = &(*link)->hash_next;
	if (*link)
		*link = player->hash_next;
	player->hash_next = NULL;
	lobby->stats.players--;
}

/* Puts player last in the waiting queue. */
static void lobby_queue_append(struct lobby *lobby, struct lobby_player *player,
			       uint64_t now_ms)
{
	player->state = PLAYER_WAITING;
	player->waiting_since = now_ms;
	player->queue_next = NULL;
	player->queue_prev = lobby->queue_tail;
	if (lobby->queue_tail)
		lobby->queue_tail->queue_next = player;
	else
		lobby->queue_head = player;
	lobby->queue_tail = player;
	lobby->stats.waiting++;
}

/* Takes player out of the waiting queue, wherever it stands. */
static void lobby_queue_remove(struct lobby *lobby, struct lobby_player *player)
{
	if (player->queue_prev)
		player->queue_prev->queue_next = player->queue_next;
	else
		lobby->queue_head = player->queue_next;
	if (player->queue_next)
		player->queue_next->queue_prev = player->queue_prev;
	else
		lobby->queue_tail = player->queue_prev;
	player->queue_prev = NULL;
	player->queue_next = NULL;
	lobby->stats.waiting--;
}

/* Puts an away player last in the away list (deadlines only grow). */
static void lobby_away_append(struct lobby *lobby, struct lobby_player *player)
{
	player->away_next = NULL;
	player->away_prev = lobby->away_tail;
	if (lobby->away_tail)
		lobby->away_tail->away_next = player;
	else
		lobby->away_head = player;
	lobby->away_tail = player;
	lobby->stats.away++;
}

/* Takes player out of the away list. */
static void lobby_away_remove(struct lobby *lobby, struct lobby_player *player)
{
	if (player->away_prev)
		player->away_prev->away_next = player->away_next;
	else
		lobby->away_head = player->away_next;
	if (player->away_next)
		player->away_next->away_prev = player->away_prev;
	else
		lobby->away_tail = player->away_prev;
	player->away_prev = NULL;
	player->away_next = NULL;
	player->away_until = 0;
	lobby->stats.away--;
}

/* Hands ev to the sink for player's connection; an away player hears
 * nothing (it is told the state when it comes back). */
static void lobby_send(struct lobby *lobby, const struct lobby_player *player,
		       const struct event *ev)
{
	if (player->conn)
		lobby->sink.send(lobby->sink.ctx, player->conn, ev);
}

/* Tells the journal a fact about room, when there is a journal. */
static void lobby_record(struct lobby *lobby, enum lobby_record type,
			 const struct lobby_room *room)
{
	if (lobby->sink.record)
		lobby->sink.record(lobby->sink.ctx, type, room);
}

/* Sends an event that has no fields but its type. */
static void lobby_send_simple(struct lobby *lobby,
			      const struct lobby_player *player,
			      enum event_type type)
{
	struct event ev = { .type = type };

	lobby_send(lobby, player, &ev);
}

/* Tells player its side, room and opponent (by name only, never uid). */
static void lobby_send_role(struct lobby *lobby,
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

	lobby_send(lobby, player, &ev);
}

/* Sends an event about the room's game (board or winner) to player. */
static void lobby_send_game(struct lobby *lobby,
			    const struct lobby_player *player,
			    enum event_type type)
{
	struct event ev = { .type = type, .game = &player->room->game };

	lobby_send(lobby, player, &ev);
}

/* Sends ev to both seats, front first, skipping empty seats. */
static void lobby_broadcast(struct lobby *lobby, const struct lobby_room *room,
			    const struct event *ev)
{
	if (room->seats[ROLE_FRONT])
		lobby_send(lobby, room->seats[ROLE_FRONT], ev);
	if (room->seats[ROLE_BACK])
		lobby_send(lobby, room->seats[ROLE_BACK], ev);
}

/* Sends a game event (board or winner) of room to both seats. */
static void lobby_broadcast_game(struct lobby *lobby, struct lobby_room *room,
				 enum event_type type)
{
	struct event ev = { .type = type, .game = &room->game };

	lobby_broadcast(lobby, room, &ev);
}

/* The game of room has just ended: count it and journal it. */
static void lobby_game_ended(struct lobby *lobby, struct lobby_room *room)
{
	lobby->stats.rooms_live--;
	lobby->stats.games_finished[room->game.reason]++;
	lobby_record(lobby, RECORD_GAME_OVER, room);
}

/* The live game of room is lost by loser, who left or could not move. */
static void lobby_forfeit(struct lobby *lobby, struct lobby_room *room,
			  enum role loser)
{
	game_forfeit(&room->game, loser);
	room->serial++;
	lobby_game_ended(lobby, room);
}

/* Refuses a request of player: to it alone, with code and why. */
static void lobby_send_error(struct lobby *lobby,
			     const struct lobby_player *player,
			     enum error_code code, const char *text)
{
	struct event ev = { .type = EVENT_ERROR, .code = code, .text = text };

	lobby_send(lobby, player, &ev);
}

/* Seats player in room as role. */
static void lobby_room_seat(struct lobby_room *room,
			    struct lobby_player *player, enum role role)
{
	player->state = PLAYER_PLAYING;
	player->room = room;
	player->role = role;
	room->seats[role] = player;
}

/*
 * Gives a new (zeroed) room its id, from 16 random bytes, and a fresh
 * game; returns one more random byte, the coin that picks the sides.
 */
static uint8_t lobby_room_init(struct lobby *lobby, struct lobby_room *room)
{
	uint8_t bytes[16];
	uint8_t coin;

	lobby->random.fill(lobby->random.ctx, bytes, sizeof(bytes));
	lobby->random.fill(lobby->random.ctx, &coin, sizeof(coin));
	protocol_format_uuid(bytes, room->id);
	/* The config was checked by lobby_init(): this cannot fail. */
	game_init(&room->game, lobby->config.board_size, lobby->config.rule,
		  lobby->config.full_board);
	return coin;
}

/* A room whose seats are filled opens at now_ms: count it and journal it. */
static void lobby_room_opened(struct lobby *lobby, struct lobby_room *room,
			      uint64_t now_ms)
{
	room->opened_ms = now_ms;
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	lobby->stats.matches++;
	lobby_record(lobby, RECORD_ROOM_OPENED, room);
}

/*
 * Pairs the two oldest waiting players into room (allocated by the caller
 * so that this step cannot fail). The room id comes from 16 random bytes;
 * one more random byte picks who is front: an even byte seats the player
 * who queued first as front.
 */
static void lobby_match(struct lobby *lobby, struct lobby_room *room,
			uint64_t now_ms)
{
	struct lobby_player *first = lobby->queue_head;
	struct lobby_player *second = first->queue_next;
	uint8_t coin;

	memset(room, 0, sizeof(*room));
	coin = lobby_room_init(lobby, room);
	lobby_queue_remove(lobby, first);
	lobby_queue_remove(lobby, second);
	if ((coin & 1) == 0) {
		lobby_room_seat(room, first, ROLE_FRONT);
		lobby_room_seat(room, second, ROLE_BACK);
	} else {
		lobby_room_seat(room, first, ROLE_BACK);
		lobby_room_seat(room, second, ROLE_FRONT);
	}
	lobby_room_opened(lobby, room, now_ms);
	lobby_send_role(lobby, room->seats[ROLE_FRONT]);
	lobby_send_role(lobby, room->seats[ROLE_BACK]);
}

/* Whole seconds from now_ms until deadline_ms, rounded up. */
static int lobby_seconds_left(uint64_t deadline_ms, uint64_t now_ms)
{
	if (deadline_ms <= now_ms)
		return 0;
	return (int)((deadline_ms - now_ms + 999) / 1000);
}

/* Tells opponent that player dropped and how long its seat waits. */
static void lobby_send_away(struct lobby *lobby,
			    const struct lobby_player *opponent,
			    const struct lobby_player *player, uint64_t now_ms)
{
	struct event ev = {
		.type = EVENT_OPPONENT_AWAY,
		.seconds = lobby_seconds_left(player->away_until, now_ms),
	};

	lobby_send(lobby, opponent, &ev);
}

/*
 * Tells a player who came back, or took over its seat, where things
 * stand: role, the board (once a move was made), the result, and where
 * the opponent is.
 */
static void lobby_resume(struct lobby *lobby, struct lobby_player *player,
			 uint64_t now_ms)
{
	const struct lobby_player *opponent;
	const struct game *game;

	if (player->state == PLAYER_WAITING) {
		lobby_send_simple(lobby, player, EVENT_WAITING);
		return;
	}
	game = &player->room->game;
	opponent = player->room->seats[role_other(player->role)];
	lobby_send_role(lobby, player);
	if (game->moves_played > 0) {
		struct event ev = {
			.type = EVENT_BOARD,
			.game = game,
			.resume = true,
		};

		lobby_send(lobby, player, &ev);
	}
	if (game_is_over(game))
		lobby_send_game(lobby, player, EVENT_WINNER);
	if (!opponent) {
		struct event ev = {
			.type = EVENT_DISCONNECT,
			.text = LOBBY_OPPONENT_LEFT,
		};

		lobby_send(lobby, player, &ev);
	} else if (!opponent->conn && !opponent->ai) {
		lobby_send_away(lobby, player, opponent, now_ms);
	}
}

/* Copies a checked string that fits into dst; NULL becomes "". */
static void lobby_copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* The engine is to move in room: the caller is asked to think. */
static void lobby_ai_think(struct lobby *lobby, struct lobby_room *room)
{
	if (room->ai_role != ROLE_NONE && room->game.to_move == room->ai_role &&
	    lobby->sink.think)
		lobby->sink.think(lobby->sink.ctx, room);
}

/*
 * Seats player (new, or queued: waiting in the queue) against the engine
 * at level, on a random side. 0, or -ENOMEM with nothing changed.
 */
static int lobby_ai_room(struct lobby *lobby, struct lobby_player *player,
			 enum engine_level level, bool queued, uint64_t now_ms)
{
	int cells = lobby->config.board_size * lobby->config.board_size;
	struct lobby_player *engine = calloc(1, sizeof(*engine));
	struct lobby_room *room = calloc(1, sizeof(*room));
	uint8_t coin;

	if (room)
		room->redo = malloc((size_t)cells * sizeof(*room->redo));
	if (!engine || !room || !room->redo) {
		free(engine);
		if (room)
			free(room->redo);
		free(room);
		return -ENOMEM;
	}
	coin = lobby_room_init(lobby, room);
	engine->ai = true;
	engine->level = level;
	snprintf(engine->name, sizeof(engine->name), "Computer (%s)",
		 engine_level_name(level));
	if (queued)
		lobby_queue_remove(lobby, player);
	room->ai_role = (coin & 1) == 0 ? ROLE_BACK : ROLE_FRONT;
	lobby_room_seat(room, player, role_other(room->ai_role));
	lobby_room_seat(room, engine, room->ai_role);
	lobby->stats.ai_rooms++;
	lobby->stats.ai_matches++;
	lobby_room_opened(lobby, room, now_ms);
	lobby_send_role(lobby, player);
	lobby_ai_think(lobby, room);
	return 0;
}

/* The pending takeback offer of room lapses: both hear it was declined. */
static void lobby_offer_lapse(struct lobby *lobby, struct lobby_room *room)
{
	struct lobby_player *offerer;
	struct event ev = { .type = EVENT_ANSWER, .accept = false };

	if (room->offer_by == ROLE_NONE)
		return;
	offerer = room->seats[room->offer_by];
	ev.by = role_other(room->offer_by);
	room->offer_by = ROLE_NONE;
	if (offerer)
		offerer->offer_again_at =
			lobby->now_ms + LOBBY_OFFER_COOLDOWN_MS;
	lobby_broadcast(lobby, room, &ev);
}

/*
 * Takes back moves of room's game until role is to move again (one move
 * when role moved last, two when the opponent replied), each with a board
 * to both. Engine rooms keep what was taken back for redo.
 */
static void lobby_take_back(struct lobby *lobby, struct lobby_room *room,
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
		lobby_record(lobby, RECORD_TAKEBACK, room);
		lobby_broadcast(lobby, room, &ev);
	}
	lobby->stats.takebacks++;
}

/* Whether role has a stone on the board (front plays moves 0, 2, ...). */
static bool lobby_has_moved(const struct game *game, enum role role)
{
	return game->moves_played > (role == ROLE_FRONT ? 0 : 1);
}

/* {"type":"offer","what":"takeback"}. */
static void lobby_offer(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_room *room = player->room;
	struct event ev = { .type = EVENT_OFFER, .by = player->role };

	if (!lobby_has_moved(&room->game, player->role)) {
		lobby_send_error(lobby, player, ERR_NOTHING_TO_UNDO,
				 "you have no move to take back");
		return;
	}
	if (room->ai_role != ROLE_NONE) {
		lobby_take_back(lobby, room, player->role);
		return;
	}
	if (room->offer_by != ROLE_NONE) {
		lobby_send_error(lobby, player, ERR_OFFER_PENDING,
				 "an offer is already waiting for an answer");
		return;
	}
	if (lobby->now_ms < player->offer_again_at) {
		lobby_send_error(lobby, player, ERR_TOO_SOON,
				 "your last offer was declined; wait a little");
		return;
	}
	room->offer_by = player->role;
	lobby_broadcast(lobby, room, &ev);
}

/* {"type":"answer","what":"takeback","accept":B}. */
static void lobby_answer(struct lobby *lobby, struct lobby_player *player,
			 bool accept)
{
	struct lobby_room *room = player->room;
	enum role offerer = role_other(player->role);
	struct event ev = {
		.type = EVENT_ANSWER,
		.accept = accept,
		.by = player->role,
	};

	if (room->offer_by != offerer) {
		lobby_send_error(lobby, player, ERR_NO_OFFER,
				 "there is no offer to answer");
		return;
	}
	room->offer_by = ROLE_NONE;
	lobby_broadcast(lobby, room, &ev);
	if (accept)
		lobby_take_back(lobby, room, offerer);
	else if (room->seats[offerer])
		room->seats[offerer]->offer_again_at =
			lobby->now_ms + LOBBY_OFFER_COOLDOWN_MS;
}

/* Journals, counts and announces the move just played in room. */
static void lobby_moved(struct lobby *lobby, struct lobby_room *room)
{
	struct game *game = &room->game;

	room->serial++;
	lobby->stats.moves++;
	lobby_record(lobby, RECORD_MOVE, room);
	if (game_is_over(game))
		lobby_game_ended(lobby, room);
	lobby_broadcast_game(lobby, room, EVENT_BOARD);
	if (game_is_over(game))
		lobby_broadcast_game(lobby, room, EVENT_WINNER);
}

/* {"type":"redo"}: engine rooms put back what the last takeback took. */
static void lobby_redo(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_room *room = player->room;
	struct game *game = &room->game;
	int played = 0;

	if (room->ai_role == ROLE_NONE || !room->redo_count) {
		lobby_send_error(
			lobby, player, ERR_NOTHING_TO_REDO,
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
		lobby_moved(lobby, room);
	}
	if (!game_is_over(game))
		lobby_ai_think(lobby, room);
}

struct lobby_player *lobby_connect_ai(struct lobby *lobby, const char *uid,
				      const char *name, void *conn,
				      enum engine_level level, uint64_t now_ms)
{
	struct lobby_player *player = lobby_find(lobby, uid);

	if (player)
		return lobby_connect(lobby, uid, name, conn, now_ms);
	player = calloc(1, sizeof(*player));
	if (!player)
		return NULL;
	lobby_copy(player->uid, sizeof(player->uid), uid);
	lobby_copy(player->name, sizeof(player->name), name);
	player->conn = conn;
	player->role = ROLE_NONE;
	if (lobby_ai_room(lobby, player, level, false, now_ms)) {
		free(player);
		return NULL;
	}
	lobby_seat_add(lobby, player);
	return player;
}

void lobby_ai_ticket(const struct lobby_room *room,
		     struct lobby_ai_ticket *ticket)
{
	const struct lobby_player *human =
		room->seats[role_other(room->ai_role)];

	lobby_copy(ticket->uid, sizeof(ticket->uid), human ? human->uid : "");
	lobby_copy(ticket->room_id, sizeof(ticket->room_id), room->id);
	ticket->serial = room->serial;
}

/* The engine room a ticket names, if its position is still the same. */
static struct lobby_room *lobby_ai_find(struct lobby *lobby,
					const struct lobby_ai_ticket *ticket)
{
	struct lobby_player *human = lobby_find(lobby, ticket->uid);
	struct lobby_room *room;

	if (!human || human->state != PLAYER_PLAYING)
		return NULL;
	room = human->room;
	if (room->ai_role == ROLE_NONE || strcmp(room->id, ticket->room_id) ||
	    room->serial != ticket->serial || game_is_over(&room->game) ||
	    room->game.to_move != room->ai_role || !room->seats[room->ai_role])
		return NULL;
	return room;
}

int lobby_ai_move(struct lobby *lobby, const struct lobby_ai_ticket *ticket,
		  int x, int y)
{
	struct lobby_room *room = lobby_ai_find(lobby, ticket);

	if (!room)
		return -ESTALE;
	if (game_play(&room->game, room->ai_role, x, y) != MOVE_OK)
		return -EINVAL;
	room->redo_count = 0;
	lobby_moved(lobby, room);
	return 0;
}

int lobby_ai_forfeit(struct lobby *lobby, const struct lobby_ai_ticket *ticket)
{
	struct lobby_room *room = lobby_ai_find(lobby, ticket);

	if (!room)
		return -ESTALE;
	lobby_forfeit(lobby, room, room->ai_role);
	lobby_broadcast_game(lobby, room, EVENT_WINNER);
	return 0;
}

struct lobby_player *lobby_connect(struct lobby *lobby, const char *uid,
				   const char *name, void *conn,
				   uint64_t now_ms)
{
	struct lobby_player *player;
	struct lobby_room *room = NULL;

	player = lobby_find(lobby, uid);
	if (player) {
		if (player->conn && player->conn != conn) {
			lobby_send_simple(lobby, player, EVENT_REPLACED);
		} else if (!player->conn) {
			struct lobby_player *opponent =
				player->room->seats[role_other(player->role)];

			lobby_away_remove(lobby, player);
			if (opponent)
				lobby_send_simple(lobby, opponent,
						  EVENT_OPPONENT_BACK);
		}
		player->conn = conn;
		lobby_copy(player->name, sizeof(player->name), name);
		lobby_resume(lobby, player, now_ms);
		return player;
	}

	player = calloc(1, sizeof(*player));
	if (!player)
		return NULL;
	/* Allocate the room up front: matching then cannot fail halfway. */
	if (lobby->queue_head) {
		room = malloc(sizeof(*room));
		if (!room) {
			free(player);
			return NULL;
		}
	}
	lobby_copy(player->uid, sizeof(player->uid), uid);
	lobby_copy(player->name, sizeof(player->name), name);
	player->conn = conn;
	player->role = ROLE_NONE;
	lobby_seat_add(lobby, player);
	lobby_queue_append(lobby, player, now_ms);
	lobby_send_simple(lobby, player, EVENT_WAITING);
	if (room)
		lobby_match(lobby, room, now_ms);
	return player;
}

/*
 * Frees player's seat. Leaving a live game forfeits it: the opponent gets
 * winner, then (live or not) disconnect. The last player out frees the
 * room; the engine's seat goes with the last person.
 */
static void lobby_leave(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_player *opponent;
	struct lobby_room *room;
	struct event ev = {
		.type = EVENT_DISCONNECT,
		.text = LOBBY_OPPONENT_LEFT,
	};

	lobby_seat_remove(lobby, player);
	/* Away means no connection: a deadline can be 0 (grace 0 at 0 ms). */
	if (!player->conn)
		lobby_away_remove(lobby, player);
	if (player->state == PLAYER_WAITING) {
		lobby_queue_remove(lobby, player);
		free(player);
		return;
	}

	room = player->room;
	opponent = room->seats[role_other(player->role)];
	if (opponent)
		lobby_offer_lapse(lobby, room);
	room->seats[player->role] = NULL;
	if (!game_is_over(&room->game)) {
		lobby_forfeit(lobby, room, player->role);
		if (opponent)
			lobby_send_game(lobby, opponent, EVENT_WINNER);
	}
	if (opponent)
		lobby_send(lobby, opponent, &ev);
	if (opponent && opponent->ai) {
		room->seats[opponent->role] = NULL;
		free(opponent);
		lobby->stats.ai_rooms--;
	}
	if (!room->seats[ROLE_FRONT] && !room->seats[ROLE_BACK]) {
		lobby_record(lobby, RECORD_ROOM_CLOSED, room);
		lobby_room_free(room);
		lobby->stats.rooms--;
	}
	free(player);
}

void lobby_disconnect(struct lobby *lobby, struct lobby_player *player,
		      bool leaving, uint64_t now_ms)
{
	struct lobby_player *opponent;

	if (leaving || !lobby->config.reconnect_grace_ms ||
	    player->state != PLAYER_PLAYING ||
	    game_is_over(&player->room->game)) {
		lobby_leave(lobby, player);
		return;
	}
	player->conn = NULL;
	player->away_until = now_ms + lobby->config.reconnect_grace_ms;
	lobby_away_append(lobby, player);
	opponent = player->room->seats[role_other(player->role)];
	if (opponent)
		lobby_send_away(lobby, opponent, player, now_ms);
}

uint64_t lobby_tick(struct lobby *lobby, uint64_t now_ms)
{
	uint64_t fill = lobby->config.ai_fill_after_ms;
	uint64_t next = UINT64_MAX;

	while (lobby->away_head && lobby->away_head->away_until <= now_ms)
		lobby_leave(lobby, lobby->away_head);
	/* The queue is oldest first: only its head can be due. */
	while (fill && lobby->queue_head &&
	       lobby->queue_head->waiting_since + fill <= now_ms) {
		struct lobby_player *player = lobby->queue_head;

		if (lobby_ai_room(lobby, player, lobby->config.ai_fill_level,
				  true, now_ms)) {
			next = now_ms + 1000; /* out of memory: again soon */
			break;
		}
	}
	if (lobby->away_head && lobby->away_head->away_until < next)
		next = lobby->away_head->away_until;
	if (fill && lobby->queue_head &&
	    lobby->queue_head->waiting_since + fill < next)
		next = lobby->queue_head->waiting_since + fill;
	return next;
}

/* Makes an away seat for a saved game's player; NULL on out of memory. */
static struct lobby_player *lobby_restore_seat(const char *uid,
					       const char *name)
{
	struct lobby_player *player = calloc(1, sizeof(*player));

	if (!player)
		return NULL;
	lobby_copy(player->uid, sizeof(player->uid), uid);
	lobby_copy(player->name, sizeof(player->name), name);
	return player;
}

struct lobby_room *lobby_restore(struct lobby *lobby,
				 const struct lobby_saved_game *saved,
				 uint64_t now_ms)
{
	struct lobby_player *front, *back;
	struct lobby_room *room;
	char check[UID_LEN + 1];
	int i;

	if (saved->board_size != lobby->config.board_size ||
	    !protocol_check_uid(saved->room_id, check) ||
	    !saved->uid[ROLE_FRONT] || !saved->uid[ROLE_BACK] ||
	    !strcmp(saved->uid[ROLE_FRONT], saved->uid[ROLE_BACK]) ||
	    lobby_find(lobby, saved->uid[ROLE_FRONT]) ||
	    lobby_find(lobby, saved->uid[ROLE_BACK]) ||
	    saved->moves_played < 0 ||
	    saved->moves_played > saved->board_size * saved->board_size)
		return NULL;

	room = calloc(1, sizeof(*room));
	if (!room)
		return NULL;
	lobby_copy(room->id, sizeof(room->id), check);
	if (game_init(&room->game, saved->board_size, saved->rule,
		      saved->full_board))
		goto out_free_room;
	for (i = 0; i < saved->moves_played; i++) {
		int x = saved->moves[i] % saved->board_size;
		int y = saved->moves[i] / saved->board_size;

		if (game_play(&room->game, room->game.to_move, x, y) != MOVE_OK)
			goto out_free_room;
	}
	if (game_is_over(&room->game))
		goto out_free_room;

	front = lobby_restore_seat(saved->uid[ROLE_FRONT],
				   saved->name[ROLE_FRONT]);
	back = lobby_restore_seat(saved->uid[ROLE_BACK],
				  saved->name[ROLE_BACK]);
	if (!front || !back) {
		free(front);
		free(back);
		goto out_free_room;
	}
	lobby_room_seat(room, front, ROLE_FRONT);
	lobby_room_seat(room, back, ROLE_BACK);
	lobby_seat_add(lobby, front);
	lobby_seat_add(lobby, back);
	front->away_until = back->away_until =
		now_ms + lobby->config.reconnect_grace_ms;
	lobby_away_append(lobby, front);
	lobby_away_append(lobby, back);
	room->opened_ms = now_ms;
	lobby->stats.rooms++;
	lobby->stats.rooms_live++;
	return room;

out_free_room:
	lobby_room_free(room);
	return NULL;
}

/* The human-readable text of a refused move. */
static const char *lobby_move_message(enum move_result result)
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
static void lobby_play(struct lobby *lobby, struct lobby_player *player,
		       const struct request *req)
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
		lobby_send_error(lobby, player, error_from_move_result(result),
				 lobby_move_message(result));
		return;
	}
	lobby_offer_lapse(lobby, room);
	room->redo_count = 0;
	lobby_moved(lobby, room);
	if (!game_is_over(game))
		lobby_ai_think(lobby, room);
}

void lobby_pause(struct lobby *lobby, bool paused)
{
	lobby->paused = paused;
}

void lobby_request(struct lobby *lobby, struct lobby_player *player,
		   const struct request *req, uint64_t now_ms)
{
	lobby->now_ms = now_ms;
	switch (req->type) {
	case REQUEST_PING:
		lobby_send_simple(lobby, player, EVENT_PONG);
		return;
	case REQUEST_WINNER:
		return;
	case REQUEST_MOVE:
	case REQUEST_BOARD:
	case REQUEST_OFFER:
	case REQUEST_ANSWER:
	case REQUEST_REDO:
		break;
	}
	if (player->state != PLAYER_PLAYING) {
		lobby_send_error(lobby, player, ERR_NOT_IN_GAME,
				 "you are not in a game yet");
		return;
	}
	if (lobby->paused) {
		lobby_send_error(lobby, player, ERR_UNAVAILABLE,
				 "the server cannot save games right now: the "
				 "game is paused until it can");
		return;
	}
	if (req->type != REQUEST_MOVE && req->type != REQUEST_BOARD &&
	    game_is_over(&player->room->game)) {
		lobby_send_error(lobby, player, ERR_GAME_OVER,
				 lobby_move_message(MOVE_GAME_OVER));
		return;
	}
	switch (req->type) {
	case REQUEST_OFFER:
		lobby_offer(lobby, player);
		break;
	case REQUEST_ANSWER:
		lobby_answer(lobby, player, req->accept);
		break;
	case REQUEST_REDO:
		lobby_redo(lobby, player);
		break;
	default:
		lobby_play(lobby, player, req);
		break;
	}
}
