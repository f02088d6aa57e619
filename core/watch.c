/*
 * watch.c - spectators: a connection watching a room sees what its
 * players see of the game (never a uid, never an offer), follows its
 * rematches, and its players hear how many watch, at most once a second.
 */
#include "room.h"

#include <stdlib.h>

/* What a spectator's room closing says. */
#define WATCH_ROOM_CLOSED "the room closed"

void room_tell_spectators(struct lobby *lobby, const struct lobby_room *room,
			  const struct event *ev)
{
	for (struct list_node *node = room->spectators.head; node;
	     node = node->next) {
		const struct lobby_spectator *spectator =
			list_entry(node, struct lobby_spectator, node);

		lobby->sink.send(lobby->sink.ctx, spectator->conn, ev);
	}
}

/* Tells spectator ev. */
static void watch_tell(struct lobby *lobby,
		       const struct lobby_spectator *spectator,
		       const struct event *ev)
{
	lobby->sink.send(lobby->sink.ctx, spectator->conn, ev);
}

/*
 * Tells spectator where its room stands at now_ms: spectate, the whole
 * position, the result, and any seat away.
 */
static void watch_show(struct lobby *lobby,
		       const struct lobby_spectator *spectator, uint64_t now_ms)
{
	const struct lobby_room *room = spectator->room;
	const struct game *game = &room->game;
	struct event ev = {
		.type = EVENT_SPECTATE,
		.room_id = room->id,
		.size = game->board.size,
		.rule = game->rule,
		.tc = game->clock.tc,
	};

	for (int role = ROLE_FRONT; role <= ROLE_BACK; role++)
		if (room->seats[role] && !room->seats[role]->ai)
			ev.names[role] = room->seats[role]->name;
	watch_tell(lobby, spectator, &ev);
	ev = (struct event){ .type = EVENT_BOARD,
			     .game = game,
			     .now_ms = now_ms,
			     .resume = true };
	watch_tell(lobby, spectator, &ev);
	if (game_is_over(game)) {
		ev = (struct event){ .type = EVENT_WINNER, .game = game };
		watch_tell(lobby, spectator, &ev);
	}
	for (int role = ROLE_FRONT; role <= ROLE_BACK; role++) {
		const struct lobby_player *player = room->seats[role];

		if (player && !player->conn && !player->ai) {
			ev = (struct event){
				.type = EVENT_OPPONENT_AWAY,
				.by = (enum role)role,
				.seconds = player->away_until > now_ms ?
						   (int)((player->away_until -
							  now_ms + 999) /
							 1000) :
						   0,
			};
			watch_tell(lobby, spectator, &ev);
		}
	}
}

/* Tells room's players how many watch now. */
static void watch_tell_count(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms)
{
	struct event ev = { .type = EVENT_SPECTATORS,
			    .count = room->spectators.count };

	room->count_told = room->spectators.count;
	room->count_next = now_ms + LOBBY_COUNT_INTERVAL_MS;
	(void)deadline_set(&lobby->counts, &room->count_due, DEADLINE_NONE);
	for (int role = ROLE_FRONT; role <= ROLE_BACK; role++)
		if (room->seats[role])
			room_tell(lobby, room->seats[role], &ev);
}

void room_spectators_changed(struct lobby *lobby, struct lobby_room *room,
			     uint64_t now_ms)
{
	if (room->spectators.count == room->count_told) {
		(void)deadline_set(&lobby->counts, &room->count_due,
				   DEADLINE_NONE);
		return;
	}
	if (now_ms >= room->count_next) {
		watch_tell_count(lobby, room, now_ms);
		return;
	}
	/* Out of memory: the count waits for the next change. */
	(void)deadline_set(&lobby->counts, &room->count_due, room->count_next);
}

void room_count_due(struct lobby *lobby, struct lobby_room *room,
		    uint64_t now_ms)
{
	watch_tell_count(lobby, room, now_ms);
}

struct list room_spectators_take(struct lobby *lobby, struct lobby_room *old)
{
	struct list taken = old->spectators;

	old->spectators = (struct list){ 0 };
	(void)deadline_set(&lobby->counts, &old->count_due, DEADLINE_NONE);
	return taken;
}

void room_spectators_adopt(struct lobby *lobby, struct lobby_room *next,
			   struct list *taken, uint64_t now_ms)
{
	struct list_node *node;

	while ((node = taken->head)) {
		struct lobby_spectator *spectator =
			list_entry(node, struct lobby_spectator, node);

		list_remove(taken, node);
		list_append(&next->spectators, node);
		spectator->room = next;
		watch_show(lobby, spectator, now_ms);
	}
	room_spectators_changed(lobby, next, now_ms);
}

void room_spectators_close(struct lobby *lobby, struct lobby_room *room)
{
	struct event ev = { .type = EVENT_DISCONNECT,
			    .text = WATCH_ROOM_CLOSED };
	struct list_node *node;

	(void)deadline_set(&lobby->counts, &room->count_due, DEADLINE_NONE);
	while ((node = room->spectators.head)) {
		struct lobby_spectator *spectator =
			list_entry(node, struct lobby_spectator, node);

		list_remove(&room->spectators, node);
		list_append(&lobby->unwatched, node);
		spectator->room = NULL;
		watch_tell(lobby, spectator, &ev);
	}
}

void room_spectators_seat(struct lobby *lobby, const struct lobby_room *room,
			  const struct lobby_player *player, uint64_t now_ms)
{
	struct event ev = {
		.type = player->conn ? EVENT_OPPONENT_BACK :
				       EVENT_OPPONENT_AWAY,
		.by = player->role,
		.seconds = !player->conn && player->away_until > now_ms ?
				   (int)((player->away_until - now_ms + 999) /
					 1000) :
				   0,
	};

	room_tell_spectators(lobby, room, &ev);
}

struct lobby_spectator *lobby_watch(struct lobby *lobby, const char *room_id,
				    void *conn, uint64_t now_ms,
				    enum error_code *code)
{
	struct lobby_room *room = room_index_find(lobby, room_id);
	struct lobby_spectator *spectator;

	*code = ERR_NO_SUCH_ROOM;
	if (!room)
		return NULL;
	*code = ERR_TOO_MANY_SPECTATORS;
	if (room->spectators.count >= lobby->config.max_spectators)
		return NULL;
	*code = ERR_NONE;
	spectator = calloc(1, sizeof(*spectator));
	if (!spectator)
		return NULL;
	spectator->conn = conn;
	spectator->room = room;
	list_append(&room->spectators, &spectator->node);
	lobby->stats.spectators++;
	watch_show(lobby, spectator, now_ms);
	room_spectators_changed(lobby, room, now_ms);
	return spectator;
}

void lobby_unwatch(struct lobby *lobby, struct lobby_spectator *spectator,
		   uint64_t now_ms)
{
	struct lobby_room *room = spectator->room;

	if (room) {
		list_remove(&room->spectators, &spectator->node);
		room_spectators_changed(lobby, room, now_ms);
	} else {
		list_remove(&lobby->unwatched, &spectator->node);
	}
	lobby->stats.spectators--;
	free(spectator);
}

void lobby_spectator_request(struct lobby *lobby,
			     const struct lobby_spectator *spectator,
			     const struct request *req)
{
	struct event ev = { .type = EVENT_PONG };

	if (req->type != REQUEST_PING) {
		ev = (struct event){
			.type = EVENT_ERROR,
			.code = ERR_SPECTATOR,
			.text = "spectators watch: they cannot play",
		};
	}
	watch_tell(lobby, spectator, &ev);
}

/* Frees the spectators of list. */
static void watch_free_list(struct list *list)
{
	struct list_node *node;

	while ((node = list->head)) {
		list_remove(list, node);
		free(list_entry(node, struct lobby_spectator, node));
	}
}

void room_spectators_free(struct lobby_room *room)
{
	watch_free_list(&room->spectators);
}

void watch_release(struct lobby *lobby)
{
	watch_free_list(&lobby->unwatched);
	deadline_release(&lobby->counts);
}
