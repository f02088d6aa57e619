/*
 * lobby.c - seats keyed by uid, the pools and their first-come
 * first-served queues, the away list of seats kept for dropped players,
 * the timers of timed games, and the way in and out of the rooms
 * (core/room.c).
 */
#include "lobby.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "room.h"

#define LOBBY_INITIAL_BUCKETS 64

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

bool lobby_pool_key_valid(const struct lobby_pool_key *key)
{
	char text[TIME_CONTROL_TEXT_MAX];
	struct time_control tc;

	/* A control is valid when it reads back as itself. */
	time_control_format(key->tc, text, sizeof(text));
	return key->size >= BOARD_MIN_SIZE && key->size <= BOARD_MAX_SIZE &&
	       (unsigned)key->rule < RULE_COUNT &&
	       time_control_parse(text, &tc) && time_control_equal(tc, key->tc);
}

/* The pool of key when there is one; NULL otherwise. */
static struct lobby_pool *lobby_pool_find(const struct lobby *lobby,
					  const struct lobby_pool_key *key)
{
	for (struct list_node *node = lobby->pools.head; node;
	     node = node->next) {
		struct lobby_pool *pool =
			list_entry(node, struct lobby_pool, node);

		if (pool->key.size == key->size &&
		    pool->key.rule == key->rule &&
		    time_control_equal(pool->key.tc, key->tc))
			return pool;
	}
	return NULL;
}

/*
 * The pool of key (valid), made when there is none yet, and held once
 * for the caller, who lets it go with lobby_pool_drop() (which frees it
 * when nothing else came to hold it); NULL on out of memory.
 */
static struct lobby_pool *lobby_pool_get(struct lobby *lobby,
					 const struct lobby_pool_key *key)
{
	struct lobby_pool *pool = lobby_pool_find(lobby, key);

	if (!pool) {
		pool = calloc(1, sizeof(*pool));
		if (!pool)
			return NULL;
		pool->key = *key;
		list_append(&lobby->pools, &pool->node);
	}
	pool->refs++;
	return pool;
}

void lobby_pool_drop(struct lobby *lobby, struct lobby_pool *pool)
{
	if (pool->refs)
		pool->refs--;
	if (!pool->refs && pool != lobby->default_pool) {
		list_remove(&lobby->pools, &pool->node);
		free(pool);
	}
}

void lobby_each_pool(const struct lobby *lobby,
		     void (*fn)(void *ctx, const struct lobby_pool *pool),
		     void *ctx)
{
	for (struct list_node *node = lobby->pools.head; node;
	     node = node->next)
		fn(ctx, list_entry(node, struct lobby_pool, node));
}

int lobby_init(struct lobby *lobby, const struct lobby_config *config,
	       struct lobby_random random, struct lobby_sink sink)
{
	struct lobby_pool_key key;

	if (!config)
		return -EINVAL;
	key = (struct lobby_pool_key){ config->board_size, config->rule,
				       config->time_control };
	if (!lobby_pool_key_valid(&key) ||
	    (config->full_board != FULL_BOARD_BACK &&
	     config->full_board != FULL_BOARD_DRAW) ||
	    !random.fill || !sink.send)
		return -EINVAL;

	memset(lobby, 0, sizeof(*lobby));
	lobby->seats = calloc(LOBBY_INITIAL_BUCKETS, sizeof(*lobby->seats));
	lobby->default_pool = calloc(1, sizeof(*lobby->default_pool));
	if (!lobby->seats || !lobby->default_pool) {
		free(lobby->seats);
		free(lobby->default_pool);
		return -ENOMEM;
	}
	lobby->default_pool->key = key;
	list_append(&lobby->pools, &lobby->default_pool->node);
	lobby->seat_buckets = LOBBY_INITIAL_BUCKETS;
	lobby->config = *config;
	lobby->random = random;
	lobby->sink = sink;
	return 0;
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
				    !room->seats[ROLE_BACK]) {
					room_spectators_free(room);
					room_free(lobby, room);
				}
			}
			free(player);
		}
	}
	free(lobby->seats);
	lobby->seats = NULL;
	lobby->seat_buckets = 0;
	while (lobby->pools.head) {
		struct lobby_pool *pool =
			list_entry(lobby->pools.head, struct lobby_pool, node);

		list_remove(&lobby->pools, &pool->node);
		free(pool);
	}
	lobby->default_pool = NULL;
	deadline_release(&lobby->timers);
	watch_release(lobby);
	room_index_release(lobby);
	lobby->invites = (struct list){ 0 };
	lobby->away = (struct list){ 0 };
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

/* Puts player last in the queue of pool, which it then holds. */
static void lobby_queue_append(struct lobby *lobby, struct lobby_pool *pool,
			       struct lobby_player *player, uint64_t now_ms)
{
	lobby->stats.waiting++;
	player->state = PLAYER_WAITING;
	player->waiting_since = now_ms;
	player->pool = pool;
	pool->refs++;
	list_append(&pool->queue, &player->queue_node);
}

/*
 * Takes player out of its pool's queue; it stops holding the pool (the
 * caller's room holds it when it was matched).
 */
static void lobby_queue_remove(struct lobby *lobby, struct lobby_player *player)
{
	struct lobby_pool *pool = player->pool;

	lobby->stats.waiting--;
	list_remove(&pool->queue, &player->queue_node);
	player->pool = NULL;
	lobby_pool_drop(lobby, pool);
}

/* The oldest player waiting in pool, or NULL. */
static struct lobby_player *lobby_queue_first(const struct lobby_pool *pool)
{
	return list_first(&pool->queue, struct lobby_player, queue_node);
}

/* Puts an away player last in the away list (deadlines only grow). */
static void lobby_away_append(struct lobby *lobby, struct lobby_player *player)
{
	list_append(&lobby->away, &player->away_node);
}

/* Takes player out of the away list. */
static void lobby_away_remove(struct lobby *lobby, struct lobby_player *player)
{
	list_remove(&lobby->away, &player->away_node);
	player->away_until = 0;
}

/* The away seat with the earliest deadline, or NULL. */
static struct lobby_player *lobby_away_first(const struct lobby *lobby)
{
	return list_first(&lobby->away, struct lobby_player, away_node);
}

/* Copies a checked string that fits into dst; NULL becomes "". */
static void lobby_copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* A new seat for uid, connected to conn, in no table yet; NULL: no memory. */
static struct lobby_player *lobby_player_new(const char *uid, const char *name,
					     void *conn)
{
	struct lobby_player *player = calloc(1, sizeof(*player));

	if (!player)
		return NULL;
	lobby_copy(player->uid, sizeof(player->uid), uid);
	lobby_copy(player->name, sizeof(player->name), name);
	player->conn = conn;
	player->role = ROLE_NONE;
	return player;
}

/* Tells player the code of the invite it waits on. */
static void lobby_tell_invite(struct lobby *lobby,
			      const struct lobby_player *player)
{
	struct event ev = { .type = EVENT_INVITE, .invite = player->invite };

	room_tell(lobby, player, &ev);
}

/*
 * The seat of uid passes to conn: the old connection is told it was
 * replaced, or an away player is back (its opponent is told); then it
 * hears where it stands.
 */
static void lobby_take_seat(struct lobby *lobby, struct lobby_player *player,
			    const char *name, void *conn, uint64_t now_ms)
{
	if (player->conn && player->conn != conn) {
		room_tell_simple(lobby, player, EVENT_REPLACED);
	} else if (!player->conn) {
		struct lobby_player *opponent =
			player->room->seats[role_other(player->role)];

		lobby_away_remove(lobby, player);
		if (opponent)
			room_tell_simple(lobby, opponent, EVENT_OPPONENT_BACK);
		player->conn = conn;
		room_spectators_seat(lobby, player->room, player, now_ms);
	}
	player->conn = conn;
	lobby_copy(player->name, sizeof(player->name), name);
	if (player->state == PLAYER_WAITING && player->invite[0])
		lobby_tell_invite(lobby, player);
	else if (player->state == PLAYER_WAITING)
		room_tell_simple(lobby, player, EVENT_WAITING);
	else
		room_resume(lobby, player, now_ms);
}

/*
 * A new seat for a uid with none, in pool: waiting, matched at once when
 * a player of the pool waits. NULL on out of memory.
 */
static struct lobby_player *lobby_queue_new(struct lobby *lobby,
					    const struct lobby_join *join,
					    struct lobby_pool *pool, void *conn,
					    uint64_t now_ms)
{
	struct lobby_player *player;
	struct lobby_player *first, *second;
	struct lobby_room *room = NULL;

	player = lobby_player_new(join->uid, join->name, conn);
	if (!player)
		return NULL;
	/* Allocate the room up front: matching then cannot fail halfway. */
	if (!list_is_empty(&pool->queue)) {
		room = room_alloc(lobby, pool);
		if (!room) {
			free(player);
			return NULL;
		}
	}
	lobby_seat_add(lobby, player);
	lobby_queue_append(lobby, pool, player, now_ms);
	room_tell_simple(lobby, player, EVENT_WAITING);
	if (room) {
		first = lobby_queue_first(pool);
		second = list_entry(first->queue_node.next, struct lobby_player,
				    queue_node);
		lobby_queue_remove(lobby, first);
		lobby_queue_remove(lobby, second);
		room_match(lobby, room, first, second, now_ms);
	}
	return player;
}

/* The player waiting with invite code; NULL when none. */
static struct lobby_player *lobby_invite_find(const struct lobby *lobby,
					      const char *code)
{
	for (struct list_node *node = lobby->invites.head; node;
	     node = node->next) {
		struct lobby_player *player =
			list_entry(node, struct lobby_player, queue_node);

		if (!strcmp(player->invite, code))
			return player;
	}
	return NULL;
}

bool lobby_invite_open(const struct lobby *lobby, const char *code)
{
	return code && code[0] && lobby_invite_find(lobby, code);
}

/*
 * The creator of an invite is no longer waiting on it (matched, or
 * gone): out of the invites, the pool let go, the code dead.
 */
static void lobby_invite_remove(struct lobby *lobby,
				struct lobby_player *player)
{
	list_remove(&lobby->invites, &player->queue_node);
	player->invite[0] = '\0';
	lobby_pool_drop(lobby, player->pool);
	player->pool = NULL;
}

/*
 * A new seat for a uid with none, waiting in pool on a new invite code
 * (random, told to it). NULL on out of memory.
 */
static struct lobby_player *lobby_invite_new(struct lobby *lobby,
					     const struct lobby_join *join,
					     struct lobby_pool *pool,
					     void *conn, uint64_t now_ms)
{
	struct lobby_player *player =
		lobby_player_new(join->uid, join->name, conn);
	uint8_t bytes[INVITE_BYTES];

	if (!player)
		return NULL;
	/* A code taken already (72 bits: never, but cheap to rule out). */
	do {
		lobby->random.fill(lobby->random.ctx, bytes, sizeof(bytes));
		identity_format_invite(bytes, player->invite);
	} while (lobby_invite_find(lobby, player->invite));
	lobby_seat_add(lobby, player);
	player->state = PLAYER_WAITING;
	player->waiting_since = now_ms;
	player->pool = pool;
	player->invite_listed = join->listed;
	pool->refs++;
	list_append(&lobby->invites, &player->queue_node);
	lobby_tell_invite(lobby, player);
	return player;
}

/*
 * A new seat for a uid with none, playing the creator of invite code at
 * once in a private room of the creator's pool. NULL on out of memory or
 * when no invite waits with code.
 */
static struct lobby_player *lobby_invite_accept(struct lobby *lobby,
						const struct lobby_join *join,
						void *conn, uint64_t now_ms)
{
	struct lobby_player *creator = lobby_invite_find(lobby, join->invite);
	struct lobby_player *player;
	struct lobby_room *room;

	if (!creator)
		return NULL;
	player = lobby_player_new(join->uid, join->name, conn);
	room = player ? room_alloc(lobby, creator->pool) : NULL;
	if (!room) {
		free(player);
		return NULL;
	}
	room->private = !creator->invite_listed;
	lobby_seat_add(lobby, player);
	lobby_invite_remove(lobby, creator);
	room_match(lobby, room, creator, player, now_ms);
	return player;
}

struct lobby_player *lobby_join(struct lobby *lobby,
				const struct lobby_join *join, void *conn,
				uint64_t now_ms)
{
	struct lobby_player *player = lobby_find(lobby, join->uid);
	struct lobby_pool *pool;

	if (player) {
		lobby_take_seat(lobby, player, join->name, conn, now_ms);
		return player;
	}
	if (join->invite && strcmp(join->invite, "new"))
		return lobby_invite_accept(lobby, join, conn, now_ms);
	pool = lobby_pool_get(lobby, join->pool ? join->pool :
						  &lobby->default_pool->key);
	if (!pool)
		return NULL;
	if (join->invite) {
		player = lobby_invite_new(lobby, join, pool, conn, now_ms);
	} else if (!join->ai) {
		player = lobby_queue_new(lobby, join, pool, conn, now_ms);
	} else {
		/* Seated first: the engine may be asked to move at once. */
		player = lobby_player_new(join->uid, join->name, conn);
		if (player)
			lobby_seat_add(lobby, player);
		if (player &&
		    room_open_ai(lobby, player, pool, join->level, now_ms)) {
			lobby_seat_remove(lobby, player);
			free(player);
			player = NULL;
		}
	}
	/* The queue or the room holds the pool now, if anything does. */
	lobby_pool_drop(lobby, pool);
	return player;
}

struct lobby_player *lobby_connect(struct lobby *lobby, const char *uid,
				   const char *name, void *conn,
				   uint64_t now_ms)
{
	struct lobby_join join = { .uid = uid, .name = name };

	return lobby_join(lobby, &join, conn, now_ms);
}

struct lobby_player *lobby_connect_ai(struct lobby *lobby, const char *uid,
				      const char *name, void *conn,
				      enum engine_level level, uint64_t now_ms)
{
	struct lobby_join join = { .uid = uid,
				   .name = name,
				   .ai = true,
				   .level = level };

	return lobby_join(lobby, &join, conn, now_ms);
}

int lobby_player_board_size(const struct lobby_player *player)
{
	if (player->state == PLAYER_PLAYING && player->room)
		return player->room->game.board.size;
	return player->pool ? player->pool->key.size : 0;
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

uint32_t lobby_ai_seed(const struct lobby_room *room)
{
	uint64_t hash = 0xcbf29ce484222325ull; /* FNV-1a over the id */

	for (const char *c = room->id; *c; c++)
		hash = (hash ^ (uint8_t)*c) * 0x100000001b3ull;
	hash ^= (uint64_t)room->game.moves_played * 0x9e3779b97f4a7c15ull;
	hash ^= hash >> 31;
	hash *= 0xbf58476d1ce4e5b9ull;
	hash ^= hash >> 29;
	return (uint32_t)(hash ^ hash >> 32);
}

/* The engine room ticket names, while its position is the same. */
static struct lobby_room *lobby_ai_room(struct lobby *lobby,
					const struct lobby_ai_ticket *ticket)
{
	struct lobby_player *human = lobby_find(lobby, ticket->uid);

	if (!human || human->state != PLAYER_PLAYING ||
	    !room_ai_ticket_holds(human->room, ticket))
		return NULL;
	return human->room;
}

int lobby_ai_move(struct lobby *lobby, const struct lobby_ai_ticket *ticket,
		  int x, int y, uint64_t now_ms)
{
	struct lobby_room *room = lobby_ai_room(lobby, ticket);

	if (!room)
		return -ESTALE;
	return room_ai_move(lobby, room, x, y, now_ms);
}

int lobby_ai_forfeit(struct lobby *lobby, const struct lobby_ai_ticket *ticket,
		     uint64_t now_ms)
{
	struct lobby_room *room = lobby_ai_room(lobby, ticket);

	if (!room)
		return -ESTALE;
	room_ai_forfeit(lobby, room, now_ms);
	return 0;
}

/*
 * Frees player's seat: out of the queue, or out of its room (leaving a
 * live game forfeits it: see room_leave()).
 */
static void lobby_leave(struct lobby *lobby, struct lobby_player *player,
			uint64_t now_ms)
{
	lobby_seat_remove(lobby, player);
	/* Away means no connection: a deadline can be 0 (grace 0 at 0 ms). */
	if (!player->conn)
		lobby_away_remove(lobby, player);
	if (player->state == PLAYER_WAITING && player->invite[0])
		lobby_invite_remove(lobby, player);
	else if (player->state == PLAYER_WAITING)
		lobby_queue_remove(lobby, player);
	else
		room_leave(lobby, player, now_ms);
	free(player);
}

void lobby_disconnect(struct lobby *lobby, struct lobby_player *player,
		      bool leaving, uint64_t now_ms)
{
	struct lobby_player *opponent;

	if (leaving || !lobby->config.reconnect_grace_ms ||
	    player->state != PLAYER_PLAYING ||
	    game_is_over(&player->room->game)) {
		lobby_leave(lobby, player, now_ms);
		return;
	}
	player->conn = NULL;
	player->away_until = now_ms + lobby->config.reconnect_grace_ms;
	lobby_away_append(lobby, player);
	opponent = player->room->seats[role_other(player->role)];
	if (opponent)
		room_tell_away(lobby, opponent, player, now_ms);
	room_spectators_seat(lobby, player->room, player, now_ms);
}

/*
 * Seats the players of pool who waited fill_ms by now_ms against the
 * engine. Returns when its next player is due (UINT64_MAX: none).
 */
static uint64_t lobby_fill_pool(struct lobby *lobby, struct lobby_pool *pool,
				uint64_t fill_ms, uint64_t now_ms)
{
	struct lobby_player *player;

	/* The queue is oldest first: only its head can be due. */
	while ((player = lobby_queue_first(pool)) &&
	       player->waiting_since + fill_ms <= now_ms) {
		/* The room holds the pool before the player lets it go. */
		if (room_open_ai(lobby, player, pool,
				 lobby->config.ai_fill_level, now_ms))
			return now_ms + 1000; /* out of memory: again soon */
		list_remove(&pool->queue, &player->queue_node);
		player->pool = NULL;
		pool->refs--;
		lobby->stats.waiting--;
	}
	return player ? player->waiting_since + fill_ms : UINT64_MAX;
}

uint64_t lobby_tick(struct lobby *lobby, uint64_t now_ms)
{
	uint64_t fill = lobby->config.ai_fill_after_ms;
	uint64_t next = UINT64_MAX;
	struct lobby_player *player;
	struct deadline *timer;

	/*
	 * Seats given up and flags fallen, in the order they fell: a late
	 * tick must not let a grace that ended after a flag win over it.
	 */
	for (;;) {
		player = lobby_away_first(lobby);
		timer = deadline_first(&lobby->timers);
		if (player && player->away_until > now_ms)
			player = NULL;
		if (timer && timer->at > now_ms)
			timer = NULL;
		if (timer && (!player || timer->at <= player->away_until))
			room_time_out(lobby,
				      list_entry(timer, struct lobby_room,
						 deadline),
				      now_ms);
		else if (player)
			lobby_leave(lobby, player, now_ms);
		else
			break;
	}
	for (struct list_node *node = lobby->pools.head; fill && node;
	     node = node->next) {
		uint64_t due = lobby_fill_pool(
			lobby, list_entry(node, struct lobby_pool, node), fill,
			now_ms);

		if (due < next)
			next = due;
	}
	player = lobby_away_first(lobby);
	if (player && player->away_until < next)
		next = player->away_until;
	timer = deadline_first(&lobby->timers);
	if (timer && timer->at < next)
		next = timer->at;
	/* Spectator counts waiting for their second to pass. */
	while ((timer = deadline_first(&lobby->counts)) && timer->at <= now_ms)
		room_count_due(lobby,
			       list_entry(timer, struct lobby_room, count_due),
			       now_ms);
	if (timer && timer->at < next)
		next = timer->at;
	return next;
}

struct lobby_room *lobby_restore(struct lobby *lobby,
				 const struct lobby_saved_game *saved,
				 uint64_t now_ms)
{
	struct lobby_pool_key key = { saved->board_size, saved->rule,
				      saved->tc };
	struct lobby_player *front, *back;
	struct lobby_pool *pool;
	struct lobby_room *room;
	char id[UID_LEN + 1];

	if (!lobby_pool_key_valid(&key) ||
	    !identity_check_uid(saved->room_id, id) ||
	    !saved->uid[ROLE_FRONT] || !saved->uid[ROLE_BACK] ||
	    !strcmp(saved->uid[ROLE_FRONT], saved->uid[ROLE_BACK]) ||
	    lobby_find(lobby, saved->uid[ROLE_FRONT]) ||
	    lobby_find(lobby, saved->uid[ROLE_BACK]) ||
	    saved->moves_played < 0 ||
	    saved->moves_played > saved->board_size * saved->board_size)
		return NULL;

	pool = lobby_pool_get(lobby, &key);
	if (!pool)
		return NULL;
	front = lobby_player_new(saved->uid[ROLE_FRONT],
				 saved->name[ROLE_FRONT], NULL);
	back = lobby_player_new(saved->uid[ROLE_BACK], saved->name[ROLE_BACK],
				NULL);
	room = front && back ? room_restore(lobby, saved, id, pool, front, back,
					    now_ms) :
			       NULL;
	lobby_pool_drop(lobby, pool);
	if (!room) {
		free(front);
		free(back);
		return NULL;
	}
	lobby_seat_add(lobby, front);
	lobby_seat_add(lobby, back);
	front->away_until = back->away_until =
		now_ms + lobby->config.reconnect_grace_ms;
	lobby_away_append(lobby, front);
	lobby_away_append(lobby, back);
	return room;
}

const char *lobby_record_name(enum lobby_record type)
{
	switch (type) {
	case RECORD_ROOM_OPENED:
		return "room_opened";
	case RECORD_MOVE:
		return "move";
	case RECORD_GAME_OVER:
		return "game_over";
	case RECORD_ROOM_CLOSED:
		return "room_closed";
	case RECORD_TAKEBACK:
		return "takeback";
	}
	return "(not a record)";
}

void lobby_pause(struct lobby *lobby, bool paused)
{
	lobby->paused = paused;
}

void lobby_request(struct lobby *lobby, struct lobby_player *player,
		   const struct request *req, uint64_t now_ms)
{
	switch (req->type) {
	case REQUEST_PING:
		room_tell_simple(lobby, player, EVENT_PONG);
		return;
	case REQUEST_WINNER:
		return;
	case REQUEST_MOVE:
	case REQUEST_BOARD:
	case REQUEST_OFFER:
	case REQUEST_ANSWER:
	case REQUEST_REDO:
	case REQUEST_RESIGN:
	case REQUEST_ABORT:
	case REQUEST_EMOTE:
		break;
	}
	if (player->state != PLAYER_PLAYING) {
		room_refuse(lobby, player, ERR_NOT_IN_GAME,
			    "you are not in a game yet");
		return;
	}
	if (lobby->paused) {
		room_refuse(lobby, player, ERR_UNAVAILABLE,
			    "the server cannot save games right now: the game "
			    "is paused until it can");
		return;
	}
	room_request(lobby, player, req, now_ms);
}
