/*
 * fuzz_lobby.c - libFuzzer target that drives one lobby through a
 * byte-coded sequence of operations and checks its invariants throughout.
 *
 * Input: a 4-byte header, then operations until the input runs out.
 *
 *   header[0] % 8       board size: 5 5 6 7 8 10 15 25
 *   header[1] & 1       rule: freestyle (0) or standard (1)
 *   header[1] >> 1 & 1  full board: back wins (0) or draw (1)
 *   header[1] >> 2 % 8  reconnect grace (ms): 0 1 999 1000 1001 2500 30000
 *                       3600000
 *   header[2..3]        the clock's start, big-endian, times 1000003 ms
 *
 *   op % 10, then its argument bytes:
 *   0, 9  connect   K             uid K % 6 on a fresh connection
 *   1     disconnect P L          connected player P, leaving when L & 1
 *   2     move      P X Y         X, Y < 0xf0: on the board; else off it
 *   3     board     P R N (HI LO V)*N
 *                                 the player's position with N % 4 edits
 *                                 (cell HI:LO % cells becomes V % 3),
 *                                 naming front (R even) or back
 *   4     ping      P W           a winner claim instead when W & 1
 *   5     tick      D             advance D * 50 ms (D < 200) or
 *                                 (D - 200) minutes, then lobby_tick()
 *   6     restore   A U F N M*N   a saved game: room id random when
 *                                 A & 7 < 4 (upper case when A & 8), else
 *                                 a bad one; another board size when
 *                                 A >> 4 is 15; uids U % 6 (front) and
 *                                 U / 6 % 6 (back), which may clash; F:
 *                                 rule (bit 0), full board (bit 1), names;
 *                                 N moves, each M < 0xf0 the (M % empty)-th
 *                                 empty cell, else a raw, likely bad, index
 *   7, 8  play      P I           the (I % empty)-th empty cell
 *
 * A connected player P is the (P % connected)-th uid with a connection;
 * an operation that needs one is skipped when nobody is connected.
 *
 * The sink checks every event as it is sent: it goes to a connection that
 * is bound to a seat right now, it encodes to JSON that parses back and
 * carries no uid, and the journal (lobby_sink.record) heard of the fact
 * first, once. After every operation the lobby's stats, queue, away list
 * and rooms are checked against a shadow model, and each operation's
 * events against what it must send. Any broken check aborts.
 *
 * FUZZ_LOBBY_TRACE=1 in the environment prints every operation and event,
 * to read what a crashing input did.
 *
 * A libFuzzer target is one program: the operations' decoding, the shadow
 * model and the checks live together (over 1,000 lines).
 */
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby.h"

#define FUZZ_UIDS 6	  /* players the input chooses among */
#define FUZZ_CONNS 8192	  /* connections, each used once */
#define FUZZ_ROOMS 64	  /* rooms known to the journal at once */
#define FUZZ_EVENTS 256	  /* events one operation may send */
#define FUZZ_NO_CONN (-1) /* not bound */

/* Reports a broken check with what was expected and what came, and stops. */
#define fuzz_check(cond, ...)                                            \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "fuzz_lobby: %s:%d: ", __FILE__, \
				__LINE__);                               \
			fprintf(stderr, __VA_ARGS__);                    \
			fprintf(stderr, "\n");                           \
			abort();                                         \
		}                                                        \
	} while (0)

/*
 * The players. Uids 0 and 1 share a bucket of the lobby's seat table, and
 * so do 2 and 3 (FNV-1a & 63), so that its chains are walked too.
 */
static const char *const fuzz_uids[FUZZ_UIDS] = {
	"00000000-0000-4000-8000-000000000000",
	"11111130-1111-4111-9111-111111111111",
	"a0a0a0a0-b1b1-4c2c-8d3d-e4e4e4e4e4e4",
	"ffffff6a-ffff-4fff-bfff-ffffffffffff",
	"12345678-9abc-4def-8123-456789abcdef",
	"0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0",
};

static const char *const fuzz_names[] = {
	"",
	"alice",
	"Bob",
	"张伟",
	"二十个字的名字二十个字的名字二十个字的",
	"a \"b\"",
};

#define FUZZ_NAMES (sizeof(fuzz_names) / sizeof(fuzz_names[0]))

static const int fuzz_sizes[8] = { 5, 5, 6, 7, 8, 10, 15, 25 };
static const uint64_t fuzz_graces[8] = { 0,    1,    999,   1000,
					 1001, 2500, 30000, 3600000 };

/* One event the lobby sent during the current operation. */
struct fuzz_event {
	int conn;		 /* receiving connection */
	enum event_type type;	 /* what */
	int seconds;		 /* OPPONENT_AWAY */
	bool resume;		 /* BOARD: a returner's whole position */
	const struct game *game; /* BOARD, WINNER */
	char *json;		 /* encoded; NULL for REPLACED */
};

/* One room the journal was told of, with the facts recorded so far. */
struct fuzz_room {
	const struct lobby_room *room; /* NULL: free slot */
	int moves_recorded;	       /* RECORD_MOVE calls */
	bool over_recorded;	       /* RECORD_GAME_OVER called */
};

/* One of these per process: the lobby under test and its shadow. */
struct fuzz {
	struct lobby lobby;
	const uint8_t *data; /* the input */
	size_t size;
	size_t pos;
	uint64_t now;		  /* the clock */
	uint64_t grace;		  /* config.reconnect_grace_ms */
	uint64_t rng;		  /* the lobby's random source */
	char conns[FUZZ_CONNS];	  /* &conns[i] is connection i */
	int conn_uid[FUZZ_CONNS]; /* uid a connection is bound to */
	int uid_conn[FUZZ_UIDS];  /* connection a uid is bound to */
	int next_conn;		  /* the next fresh connection */
	int connecting;		  /* the connection lobby_connect()
					    * is binding, or FUZZ_NO_CONN */
	struct fuzz_event events[FUZZ_EVENTS]; /* this operation's events */
	size_t event_count;
	struct fuzz_room rooms[FUZZ_ROOMS];   /* what the journal knows */
	unsigned long opened;		      /* RECORD_ROOM_OPENED calls */
	unsigned long moves;		      /* RECORD_MOVE calls */
	unsigned long finished[REASON_COUNT]; /* RECORD_GAME_OVER */
	unsigned long restored;		      /* rooms restored */
};

static struct fuzz fuzz;

/* Whether to print the operations and events (FUZZ_LOBBY_TRACE). */
static int fuzz_trace = -1;

static uint8_t fuzz_byte(void)
{
	return fuzz.pos < fuzz.size ? fuzz.data[fuzz.pos++] : 0;
}

/* xorshift64: the lobby's random bytes, seeded from the header. */
static void fuzz_fill_random(void *ctx, void *buf, size_t len)
{
	uint8_t *bytes = buf;
	size_t i;

	(void)ctx;
	for (i = 0; i < len; i++) {
		fuzz.rng ^= fuzz.rng << 13;
		fuzz.rng ^= fuzz.rng >> 7;
		fuzz.rng ^= fuzz.rng << 17;
		bytes[i] = (uint8_t)fuzz.rng;
	}
}

static int fuzz_conn_index(const void *conn)
{
	return (int)((const char *)conn - fuzz.conns);
}

/* The journal's entry for room; NULL when it was never told of it. */
static struct fuzz_room *fuzz_room_find(const struct lobby_room *room)
{
	size_t i;

	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room == room)
			return &fuzz.rooms[i];
	return NULL;
}

static struct fuzz_room *fuzz_room_add(const struct lobby_room *room)
{
	struct fuzz_room *entry = fuzz_room_find(NULL);

	fuzz_check(entry, "more than %d rooms", FUZZ_ROOMS);
	entry->room = room;
	entry->moves_recorded = 0;
	entry->over_recorded = false;
	return entry;
}

/* Whole seconds from now until deadline, rounded up. */
static int fuzz_seconds_left(uint64_t deadline)
{
	return deadline <= fuzz.now ? 0 :
				      (int)((deadline - fuzz.now + 999) / 1000);
}

/* Checks that an encoded event parses back and names no uid. */
static char *fuzz_encode(const struct event *ev)
{
	size_t len;
	char *json = protocol_encode(ev, 0, &len);
	cJSON *root;
	int k;

	fuzz_check(json, "event %d could not be encoded", ev->type);
	root = cJSON_Parse(json);
	fuzz_check(cJSON_IsObject(root), "encoded event does not parse: %s",
		   json);
	cJSON_Delete(root);
	if (ev->type == EVENT_BOARD) {
		/* The compact form a transport may ask for parses too. */
		struct event compact = *ev;
		char *text;

		compact.compact = true;
		text = protocol_encode(&compact, 0, &len);
		root = text ? cJSON_Parse(text) : NULL;
		fuzz_check(cJSON_IsObject(root) &&
				   !cJSON_GetObjectItemCaseSensitive(root,
								     "content"),
			   "a compact board is not JSON without content: %s",
			   text ? text : "(none)");
		cJSON_Delete(root);
		free(text);
	}
	for (k = 0; k < FUZZ_UIDS; k++)
		fuzz_check(!strstr(json, fuzz_uids[k]),
			   "an event carries uid %d: %s", k, json);
	return json;
}

/* The sink: checks each event as it is sent and logs it. */
static void fuzz_send(void *ctx, void *conn, const struct event *ev)
{
	const struct lobby_player *player, *opponent;
	const struct fuzz_room *entry;
	struct fuzz_event *logged;
	int c, k;

	(void)ctx;
	fuzz_check(conn, "event %d sent to a NULL connection", ev->type);
	c = fuzz_conn_index(conn);
	fuzz_check(c >= 0 && c < fuzz.next_conn,
		   "event %d sent to an unknown connection", ev->type);
	k = fuzz.conn_uid[c];
	fuzz_check(k != FUZZ_NO_CONN &&
			   (fuzz.uid_conn[k] == c || fuzz.connecting == c),
		   "event %d sent to connection %d, bound to no seat", ev->type,
		   c);
	player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	fuzz_check(player && player->conn == conn,
		   "event %d to connection %d: its seat (uid %d) is gone or "
		   "has another connection",
		   ev->type, c, k);
	fuzz_check(fuzz.event_count < FUZZ_EVENTS, "over %d events",
		   FUZZ_EVENTS);

	if (player->state == PLAYER_WAITING) {
		fuzz_check(ev->type == EVENT_WAITING ||
				   ev->type == EVENT_PONG ||
				   ev->type == EVENT_ERROR ||
				   ev->type == EVENT_REPLACED,
			   "a waiting player got event %d", ev->type);
	} else {
		entry = fuzz_room_find(player->room);
		fuzz_check(entry,
			   "event %d about a room the journal never "
			   "heard of",
			   ev->type);
		opponent = player->room->seats[role_other(player->role)];
		switch (ev->type) {
		case EVENT_ROLE:
			fuzz_check(ev->role == player->role &&
					   !strcmp(ev->room_id,
						   player->room->id),
				   "role names the wrong side or room");
			break;
		case EVENT_BOARD:
			fuzz_check(ev->game == &player->room->game,
				   "board of another room");
			fuzz_check(ev->game->moves_played > 0 &&
					   entry->moves_recorded ==
						   ev->game->moves_played,
				   "board of %d moves, %d recorded",
				   ev->game->moves_played,
				   entry->moves_recorded);
			break;
		case EVENT_WINNER:
			fuzz_check(ev->game == &player->room->game,
				   "winner of another room");
			fuzz_check(game_is_over(ev->game) &&
					   entry->over_recorded,
				   "winner before the journal heard of it");
			break;
		case EVENT_DISCONNECT:
			fuzz_check(!opponent, "disconnect, opponent seated");
			break;
		case EVENT_OPPONENT_AWAY:
			fuzz_check(opponent && !opponent->conn,
				   "opponent_away, opponent is not away");
			fuzz_check(ev->seconds == fuzz_seconds_left(
							  opponent->away_until),
				   "opponent_away: expected %d s, got %d",
				   fuzz_seconds_left(opponent->away_until),
				   ev->seconds);
			break;
		case EVENT_OPPONENT_BACK:
			/* Sent before the returner's seat takes its conn. */
			fuzz_check(opponent && !opponent->away_until,
				   "opponent_back, opponent is still away");
			break;
		default:
			break;
		}
	}
	if (ev->type == EVENT_ERROR)
		fuzz_check(ev->code > ERR_NONE && ev->code < ERR_COUNT &&
				   ev->text && ev->text[0],
			   "error without code or text");

	logged = &fuzz.events[fuzz.event_count++];
	logged->conn = c;
	logged->type = ev->type;
	logged->seconds = ev->seconds;
	logged->resume = ev->resume;
	logged->game = ev->game;
	logged->json = ev->type == EVENT_REPLACED ? NULL : fuzz_encode(ev);
	if (fuzz_trace)
		fprintf(stderr, "  -> conn %d (uid %d): %s\n", c, k,
			logged->json ? logged->json : "replaced");
}

/* The journal: each fact once, in order, before any player hears it. */
static void fuzz_record(void *ctx, enum lobby_record type,
			const struct lobby_room *room)
{
	struct fuzz_room *entry = fuzz_room_find(room);
	const struct game *game = &room->game;

	(void)ctx;
	if (fuzz_trace)
		fprintf(stderr, "  record %d, room %.8s, %d moves\n", type,
			room->id, game->moves_played);
	switch (type) {
	case RECORD_ROOM_OPENED:
		fuzz_check(!entry, "room opened twice");
		fuzz_check(room->seats[ROLE_FRONT] && room->seats[ROLE_BACK] &&
				   game->moves_played == 0 &&
				   !game_is_over(game),
			   "opened room is not a fresh game for two");
		fuzz_room_add(room);
		fuzz.opened++;
		break;
	case RECORD_MOVE:
		fuzz_check(entry, "move in an unknown room");
		fuzz_check(game->moves_played == entry->moves_recorded + 1,
			   "move %d recorded after %d", game->moves_played,
			   entry->moves_recorded);
		fuzz_check(game->history[game->moves_played - 1] ==
				   game->last_move.y * game->board.size +
					   game->last_move.x,
			   "history does not end with the last move");
		entry->moves_recorded++;
		fuzz.moves++;
		break;
	case RECORD_GAME_OVER:
		fuzz_check(entry, "game over in an unknown room");
		fuzz_check(!entry->over_recorded && game_is_over(game),
			   "game over recorded twice or while playing");
		entry->over_recorded = true;
		fuzz.finished[game->reason]++;
		break;
	case RECORD_ROOM_CLOSED:
		fuzz_check(entry, "unknown room closed");
		fuzz_check(entry->over_recorded,
			   "room closed with its game not recorded over");
		fuzz_check(!room->seats[ROLE_FRONT] && !room->seats[ROLE_BACK],
			   "room closed with a player seated");
		entry->room = NULL;
		break;
	default:
		fuzz_check(false, "record type %d", type);
	}
}

/* Forgets the events of the last operation. */
static void fuzz_events_clear(void)
{
	size_t i;

	for (i = 0; i < fuzz.event_count; i++)
		free(fuzz.events[i].json);
	fuzz.event_count = 0;
}

/* Counts this operation's events of type to conn (-1: any connection). */
static int fuzz_events_count(int conn, enum event_type type)
{
	size_t i;
	int count = 0;

	for (i = 0; i < fuzz.event_count; i++)
		if ((conn < 0 || fuzz.events[i].conn == conn) &&
		    fuzz.events[i].type == type)
			count++;
	return count;
}

/* Checks the lobby against the shadow model after an operation. */
static void fuzz_check_lobby(void)
{
	const struct lobby_stats *stats = &fuzz.lobby.stats;
	const struct lobby_player *rooms_seen[2 * FUZZ_UIDS];
	const struct lobby_player *player;
	unsigned long players = 0, waiting = 0, away = 0, rooms = 0, live = 0;
	unsigned long queued = 0, listed = 0;
	uint64_t deadline = 0;
	size_t i, j;
	int k;

	for (k = 0; k < FUZZ_UIDS; k++) {
		const struct lobby_room *room;
		bool seen = false;

		player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
		if (fuzz.uid_conn[k] != FUZZ_NO_CONN)
			fuzz_check(
				player && player->conn ==
						  &fuzz.conns[fuzz.uid_conn[k]],
				"uid %d lost its connection", k);
		if (!player)
			continue;
		fuzz_check(!strcmp(player->uid, fuzz_uids[k]),
			   "uid %d found as %s", k, player->uid);
		players++;
		if (!player->conn) {
			fuzz_check(fuzz.uid_conn[k] == FUZZ_NO_CONN &&
					   player->state == PLAYER_PLAYING,
				   "uid %d has no connection and is not away",
				   k);
			away++;
		} else {
			fuzz_check(
				fuzz.conn_uid[fuzz_conn_index(player->conn)] ==
					k,
				"uid %d holds a connection not its own", k);
		}
		if (player->state == PLAYER_WAITING) {
			waiting++;
			continue;
		}
		room = player->room;
		fuzz_check(room && room->seats[player->role] == player,
			   "uid %d is not in its room's seat", k);
		if (room->seats[role_other(player->role)])
			fuzz_check(
				room->seats[role_other(player->role)]->room ==
					room,
				"uid %d's opponent is in another room", k);
		else
			fuzz_check(game_is_over(&room->game),
				   "a live game with an empty seat");
		for (j = 0; j < rooms; j++)
			if (rooms_seen[j]->room == room)
				seen = true;
		if (!seen) {
			rooms_seen[rooms++] = player;
			if (!game_is_over(&room->game))
				live++;
			fuzz_check(fuzz_room_find(room),
				   "a room the journal never heard of");
		}
	}
	for (struct list_node *node = fuzz.lobby.queue.head; node;
	     node = node->next) {
		player = list_entry(node, struct lobby_player, queue_node);
		fuzz_check(player->state == PLAYER_WAITING && player->conn,
			   "the queue holds a seated or away player");
		fuzz_check(!node->next || node->next->prev == node,
			   "the queue's links disagree");
		fuzz_check(++queued <= FUZZ_UIDS, "the queue loops");
	}
	for (struct list_node *node = fuzz.lobby.away.head; node;
	     node = node->next) {
		player = list_entry(node, struct lobby_player, away_node);
		fuzz_check(!player->conn && player->away_until >= deadline,
			   "the away list is out of order or holds a "
			   "connected player");
		fuzz_check(node->next || fuzz.lobby.away.tail == node,
			   "the away list's tail is wrong");
		fuzz_check(!node->next || node->next->prev == node,
			   "the away list's links disagree");
		deadline = player->away_until;
		fuzz_check(++listed <= FUZZ_UIDS, "the away list loops");
	}

	fuzz_check(stats->players == players, "players: expected %lu, got %lu",
		   players, stats->players);
	fuzz_check(fuzz.lobby.queue.count == waiting && queued == waiting,
		   "waiting: expected %lu, got %zu (queue %lu)", waiting,
		   fuzz.lobby.queue.count, queued);
	fuzz_check(fuzz.lobby.away.count == away && listed == away,
		   "away: expected %lu, got %zu (list %lu)", away,
		   fuzz.lobby.away.count, listed);
	fuzz_check(stats->rooms == rooms, "rooms: expected %lu, got %lu", rooms,
		   stats->rooms);
	fuzz_check(stats->rooms_live == live,
		   "rooms_live: expected %lu, got %lu", live,
		   stats->rooms_live);
	fuzz_check(stats->matches == fuzz.opened,
		   "matches: expected %lu, got %lu", fuzz.opened,
		   stats->matches);
	fuzz_check(stats->moves == fuzz.moves, "moves: expected %lu, got %lu",
		   fuzz.moves, stats->moves);
	for (i = 0; i <= REASON_FORFEIT; i++)
		fuzz_check(stats->games_finished[i] == fuzz.finished[i],
			   "games_finished[%zu]: expected %lu, got %lu", i,
			   fuzz.finished[i], stats->games_finished[i]);

	/* A board is the same text for everyone who gets it. */
	for (i = 0; i < fuzz.event_count; i++)
		for (j = i + 1; j < fuzz.event_count; j++)
			if (fuzz.events[i].type == EVENT_BOARD &&
			    fuzz.events[j].type == EVENT_BOARD &&
			    fuzz.events[i].game == fuzz.events[j].game)
				fuzz_check(!strcmp(fuzz.events[i].json,
						   fuzz.events[j].json),
					   "two boards of one room differ");
}

/* The uid of the (pick % connected)-th connected player; -1 for none. */
static int fuzz_pick(uint8_t pick)
{
	int connected[FUZZ_UIDS];
	int count = 0;
	int k;

	for (k = 0; k < FUZZ_UIDS; k++)
		if (fuzz.uid_conn[k] != FUZZ_NO_CONN)
			connected[count++] = k;
	return count ? connected[pick % count] : -1;
}

static struct lobby_player *fuzz_player(int k)
{
	struct lobby_player *player = lobby_find(&fuzz.lobby, fuzz_uids[k]);

	fuzz_check(player, "connected uid %d has no seat", k);
	return player;
}

/* The connection of the opponent of player; FUZZ_NO_CONN when none. */
static int fuzz_opponent_conn(const struct lobby_player *player)
{
	const struct lobby_player *opponent;

	if (player->state != PLAYER_PLAYING)
		return FUZZ_NO_CONN;
	opponent = player->room->seats[role_other(player->role)];
	if (!opponent || !opponent->conn)
		return FUZZ_NO_CONN;
	return fuzz_conn_index(opponent->conn);
}

/* Checks that the events to conn are exactly types, in order. */
static void fuzz_expect_sequence(int conn, const enum event_type *types,
				 int count)
{
	size_t i;
	int seen = 0;

	for (i = 0; i < fuzz.event_count; i++) {
		if (fuzz.events[i].conn != conn)
			continue;
		fuzz_check(seen < count && fuzz.events[i].type == types[seen],
			   "connection %d: event %d is %d, expected %d", conn,
			   seen, fuzz.events[i].type,
			   seen < count ? (int)types[seen] : -1);
		seen++;
	}
	fuzz_check(seen == count, "connection %d got %d events, expected %d",
		   conn, seen, count);
}

static void fuzz_op_connect(void)
{
	int k = fuzz_byte() % FUZZ_UIDS;
	const char *name = fuzz_names[fuzz_byte() % FUZZ_NAMES];
	struct lobby_player *player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	int old_conn = fuzz.uid_conn[k];
	int opponent_conn = FUZZ_NO_CONN;
	bool was_away = player && !player->conn;
	enum event_type resume[5];
	int resumed = 0;
	size_t i;
	int c;

	if (fuzz.next_conn == FUZZ_CONNS)
		return;
	if (player)
		opponent_conn = fuzz_opponent_conn(player);
	c = fuzz.next_conn++;
	fuzz.conn_uid[c] = k;
	fuzz.connecting = c;
	player = lobby_connect(&fuzz.lobby, fuzz_uids[k], name, &fuzz.conns[c],
			       fuzz.now);
	fuzz.connecting = FUZZ_NO_CONN;
	fuzz_check(player && player->conn == &fuzz.conns[c],
		   "connect did not bind the seat");
	fuzz_check(!strcmp(player->name, name), "the name was not taken");
	if (old_conn != FUZZ_NO_CONN) {
		fuzz_check(fuzz.events[0].conn == old_conn &&
				   fuzz.events[0].type == EVENT_REPLACED,
			   "the old connection was not replaced first");
		fuzz.conn_uid[old_conn] = FUZZ_NO_CONN;
	}
	fuzz_check(fuzz_events_count(-1, EVENT_REPLACED) ==
			   (old_conn != FUZZ_NO_CONN),
		   "replaced sent %d times",
		   fuzz_events_count(-1, EVENT_REPLACED));
	fuzz_check(fuzz_events_count(-1, EVENT_OPPONENT_BACK) ==
			   (was_away && opponent_conn != FUZZ_NO_CONN),
		   "opponent_back sent %d times",
		   fuzz_events_count(-1, EVENT_OPPONENT_BACK));
	fuzz.uid_conn[k] = c;

	/* A seat that existed resumes; a new one waits, maybe matched. */
	if (old_conn != FUZZ_NO_CONN || was_away) {
		const struct game *game;
		const struct lobby_player *opponent;

		if (player->state == PLAYER_WAITING) {
			resume[resumed++] = EVENT_WAITING;
		} else {
			game = &player->room->game;
			opponent =
				player->room->seats[role_other(player->role)];
			resume[resumed++] = EVENT_ROLE;
			if (game->moves_played > 0)
				resume[resumed++] = EVENT_BOARD;
			if (game_is_over(game))
				resume[resumed++] = EVENT_WINNER;
			if (!opponent)
				resume[resumed++] = EVENT_DISCONNECT;
			else if (!opponent->conn)
				resume[resumed++] = EVENT_OPPONENT_AWAY;
		}
		fuzz_expect_sequence(c, resume, resumed);
		for (i = 0; i < fuzz.event_count; i++)
			fuzz_check(fuzz.events[i].type != EVENT_BOARD ||
					   fuzz.events[i].resume,
				   "a resumed board is not marked resume");
	} else {
		resume[resumed++] = EVENT_WAITING;
		if (player->state == PLAYER_PLAYING)
			resume[resumed++] = EVENT_ROLE;
		fuzz_expect_sequence(c, resume, resumed);
	}
}

static void fuzz_op_disconnect(void)
{
	int k = fuzz_pick(fuzz_byte());
	bool leaving = fuzz_byte() & 1;
	struct lobby_player *player;
	bool keeps_seat;
	bool was_live;
	int opponent_conn;
	int c;

	if (k < 0)
		return;
	player = fuzz_player(k);
	c = fuzz.uid_conn[k];
	opponent_conn = fuzz_opponent_conn(player);
	was_live = player->state == PLAYER_PLAYING &&
		   !game_is_over(&player->room->game);
	keeps_seat = was_live && !leaving && fuzz.grace > 0;

	lobby_disconnect(&fuzz.lobby, player, leaving, fuzz.now);
	fuzz.conn_uid[c] = FUZZ_NO_CONN;
	fuzz.uid_conn[k] = FUZZ_NO_CONN;

	player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	if (keeps_seat) {
		enum event_type away = EVENT_OPPONENT_AWAY;

		fuzz_check(player && !player->conn &&
				   player->away_until == fuzz.now + fuzz.grace,
			   "a dropped player in a live game lost the seat");
		fuzz_check(fuzz.event_count ==
				   (size_t)(opponent_conn != FUZZ_NO_CONN),
			   "a drop sent %zu events", fuzz.event_count);
		if (opponent_conn != FUZZ_NO_CONN)
			fuzz_expect_sequence(opponent_conn, &away, 1);
	} else {
		enum event_type left[2] = { EVENT_WINNER, EVENT_DISCONNECT };
		int told = opponent_conn == FUZZ_NO_CONN ? 0 : was_live ? 2 : 1;

		fuzz_check(!player, "a leaving player kept the seat");
		fuzz_check(fuzz.event_count == (size_t)told,
			   "leaving sent %zu events, expected %d",
			   fuzz.event_count, told);
		if (told)
			fuzz_expect_sequence(opponent_conn, left + 2 - told,
					     told);
	}
}

/* Whether two games hold the same position and result, field by field
 * (struct padding is not compared). */
static bool fuzz_same_game(const struct game *a, const struct game *b)
{
	int i;

	if (a->board.size != b->board.size ||
	    a->board.stones != b->board.stones ||
	    memcmp(a->board.cells, b->board.cells, sizeof(a->board.cells)) ||
	    a->rule != b->rule || a->full_board != b->full_board ||
	    a->to_move != b->to_move || a->moves_played != b->moves_played ||
	    memcmp(a->history, b->history,
		   (size_t)a->moves_played * sizeof(a->history[0])) ||
	    a->winner != b->winner || a->reason != b->reason)
		return false;
	if (a->moves_played && (a->last_move.x != b->last_move.x ||
				a->last_move.y != b->last_move.y ||
				a->last_mover != b->last_mover))
		return false;
	if (a->reason == REASON_FIVE) {
		if (a->line.length != b->line.length)
			return false;
		for (i = 0; i < a->line.length; i++)
			if (a->line.cells[i].x != b->line.cells[i].x ||
			    a->line.cells[i].y != b->line.cells[i].y)
				return false;
	}
	return true;
}

/*
 * Checks the events of a move or board request of player: on success
 * board to every connected seat (then winner when it ended the game),
 * else one error to the requester and nothing changed.
 */
static void fuzz_request(struct lobby_player *player, const struct request *req)
{
	struct lobby_stats stats = fuzz.lobby.stats;
	struct game *game = player->room ? &player->room->game : NULL;
	struct game before, expected;
	enum move_result result = MOVE_OK;
	int c = fuzz_conn_index(player->conn);
	int opponent_conn = fuzz_opponent_conn(player);
	int x = req->x, y = req->y;

	if (player->state == PLAYER_PLAYING) {
		fuzz_check(!game_copy(&before, game) &&
				   !game_copy(&expected, game),
			   "out of memory");
		if (req->type == REQUEST_BOARD) {
			result = game_find_board_move(&expected, player->role,
						      req->cells, &x, &y);
			if (result != MOVE_GAME_OVER &&
			    result != MOVE_NOT_YOUR_TURN &&
			    req->role != player->role)
				result = MOVE_BAD_BOARD;
		}
		if (result == MOVE_OK)
			result = game_play(&expected, player->role, x, y);
	}

	lobby_request(&fuzz.lobby, player, req, fuzz.now);
	if (player->state != PLAYER_PLAYING || result != MOVE_OK) {
		enum event_type error = EVENT_ERROR;

		fuzz_expect_sequence(c, &error, 1);
		fuzz_check(fuzz.event_count == 1, "a refusal reached others");
		fuzz_check(!memcmp(&stats, &fuzz.lobby.stats, sizeof(stats)),
			   "a refusal changed the stats");
		if (game) {
			fuzz_check(fuzz_same_game(&before, game),
				   "a refusal changed the game");
			game_release(&before);
			game_release(&expected);
		}
		return;
	}
	fuzz_check(fuzz_same_game(&expected, game),
		   "the move made another position than game_play does");
	{
		enum event_type told[2] = { EVENT_BOARD, EVENT_WINNER };
		int count = game_is_over(game) ? 2 : 1;

		fuzz_expect_sequence(c, told, count);
		if (opponent_conn != FUZZ_NO_CONN)
			fuzz_expect_sequence(opponent_conn, told, count);
		fuzz_check(!fuzz.events[0].resume,
			   "a move's board is marked resume");
	}
	game_release(&before);
	game_release(&expected);
}

/* A coordinate: on the board for most bytes, else just off it or far. */
static int fuzz_coordinate(uint8_t byte, int size)
{
	static const int off[16] = {
		-1, -2, -100, 1000, INT32_MIN, INT32_MAX, -1, -1,
		-1, -1, -1,   -1,   -1,	       -1,	  -1, -1,
	};

	if (byte < 0xf0)
		return byte % size;
	if (byte < 0xf8)
		return off[byte - 0xf0];
	return size + (byte - 0xf8);
}

static void fuzz_op_move(void)
{
	int k = fuzz_pick(fuzz_byte());
	int size = fuzz.lobby.config.board_size;
	struct request req = { .type = REQUEST_MOVE };

	req.x = fuzz_coordinate(fuzz_byte(), size);
	req.y = fuzz_coordinate(fuzz_byte(), size);
	if (k >= 0)
		fuzz_request(fuzz_player(k), &req);
}

static void fuzz_op_board(void)
{
	int k = fuzz_pick(fuzz_byte());
	int cells = fuzz.lobby.config.board_size * fuzz.lobby.config.board_size;
	struct request req = { .type = REQUEST_BOARD };
	struct lobby_player *player;
	int edits, i;

	req.role = (fuzz_byte() & 1) ? ROLE_BACK : ROLE_FRONT;
	edits = fuzz_byte() % 4;
	if (k >= 0) {
		player = fuzz_player(k);
		if (player->room)
			memcpy(req.cells, player->room->game.board.cells,
			       (size_t)cells);
	}
	for (i = 0; i < edits; i++) {
		int hi = fuzz_byte();
		int cell = ((hi << 8) | fuzz_byte()) % cells;

		req.cells[cell] = (uint8_t)(fuzz_byte() % 3);
	}
	if (k >= 0)
		fuzz_request(fuzz_player(k), &req);
}

/* The index of the (pick % empty)-th empty cell of game; -1 when full. */
static int fuzz_empty_cell(const struct game *game, int pick)
{
	int cells = game->board.size * game->board.size;
	int empty = cells - game->board.stones;
	int i;

	if (empty <= 0)
		return -1;
	pick %= empty;
	for (i = 0; i < cells; i++)
		if (game->board.cells[i] == ROLE_NONE && pick-- == 0)
			return i;
	return -1;
}

static void fuzz_op_play(void)
{
	int k = fuzz_pick(fuzz_byte());
	int pick = fuzz_byte();
	struct request req = { .type = REQUEST_MOVE };
	struct lobby_player *player;
	int cell;

	if (k < 0)
		return;
	player = fuzz_player(k);
	if (player->room) {
		cell = fuzz_empty_cell(&player->room->game, pick);
		if (cell >= 0) {
			req.x = cell % player->room->game.board.size;
			req.y = cell / player->room->game.board.size;
		}
	}
	fuzz_request(player, &req);
}

static void fuzz_op_ping(void)
{
	int k = fuzz_pick(fuzz_byte());
	bool claim = fuzz_byte() & 1;
	struct request req = { .type = claim ? REQUEST_WINNER : REQUEST_PING };
	enum event_type pong = EVENT_PONG;

	if (k < 0)
		return;
	lobby_request(&fuzz.lobby, fuzz_player(k), &req, fuzz.now);
	if (claim)
		fuzz_check(fuzz.event_count == 0,
			   "a winner claim was answered");
	else
		fuzz_expect_sequence(fuzz.uid_conn[k], &pong, 1);
	fuzz_check(fuzz.event_count == !claim, "ping reached others");
}

static void fuzz_op_tick(void)
{
	uint8_t step = fuzz_byte();
	uint64_t next;
	const struct lobby_player *player;
	bool gone[FUZZ_UIDS];
	int k;

	fuzz.now += step < 200 ? step * 50ULL : (step - 200ULL) * 60000;
	for (k = 0; k < FUZZ_UIDS; k++) {
		player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
		gone[k] = player && !player->conn &&
			  player->away_until <= fuzz.now;
	}
	next = lobby_tick(&fuzz.lobby, fuzz.now);
	for (k = 0; k < FUZZ_UIDS; k++) {
		player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
		fuzz_check(!gone[k] || !player,
			   "uid %d kept its seat past its deadline", k);
		if (player && !player->conn)
			fuzz_check(player->away_until > fuzz.now,
				   "an away seat outlived its deadline");
	}
	player = list_first(&fuzz.lobby.away, struct lobby_player, away_node);
	fuzz_check(player ? next == player->away_until : next == UINT64_MAX,
		   "tick returned %llu", (unsigned long long)next);
	fuzz_check(fuzz_events_count(-1, EVENT_WINNER) +
				   fuzz_events_count(-1, EVENT_DISCONNECT) ==
			   (int)fuzz.event_count,
		   "tick sent something but winner and disconnect");
}

static void fuzz_op_restore(void)
{
	static const char *const bad_ids[] = {
		"",
		"not-a-uuid",
		"11111111-1111-4111-9111-11111111111",
		"11111111-1111-4111-9111-1111111111111",
	};
	uint8_t how = fuzz_byte();
	uint8_t who = fuzz_byte();
	uint8_t flags = fuzz_byte();
	int count = fuzz_byte();
	int size = fuzz.lobby.config.board_size;
	struct lobby_stats stats = fuzz.lobby.stats;
	uint16_t moves[BOARD_MAX_CELLS + 2];
	struct lobby_saved_game saved = { .moves = moves };
	struct lobby_room *room;
	struct game replay;
	char id[UID_LEN + 1];
	char canonical[UID_LEN + 1];
	uint8_t bytes[16];
	bool valid = true;
	int i, u;

	if ((how & 7) < 4) {
		fuzz_fill_random(NULL, bytes, sizeof(bytes));
		identity_format_uuid(bytes, id);
		if (how & 8) /* upper case: valid, stored in lower case */
			for (i = 0; id[i]; i++)
				if (id[i] >= 'a' && id[i] <= 'f')
					id[i] = (char)(id[i] - 'a' + 'A');
		saved.room_id = id;
	} else {
		saved.room_id = bad_ids[how & 3];
		valid = false;
	}
	if ((how >> 4) == 15) {
		saved.board_size = size == BOARD_MAX_SIZE ? size - 1 : size + 1;
		valid = false;
	} else {
		saved.board_size = size;
	}
	saved.rule = (flags & 1) ? RULE_STANDARD : RULE_FREESTYLE;
	saved.full_board = (flags & 2) ? FULL_BOARD_DRAW : FULL_BOARD_BACK;
	saved.uid[ROLE_FRONT] = fuzz_uids[who % FUZZ_UIDS];
	saved.uid[ROLE_BACK] = fuzz_uids[(who / FUZZ_UIDS) % FUZZ_UIDS];
	saved.name[ROLE_FRONT] = fuzz_names[(flags >> 2) % FUZZ_NAMES];
	saved.name[ROLE_BACK] = fuzz_names[(flags >> 5) % FUZZ_NAMES];
	for (u = ROLE_FRONT; u <= ROLE_BACK; u++)
		if (lobby_find(&fuzz.lobby, saved.uid[u]))
			valid = false;
	if (saved.uid[ROLE_FRONT] == saved.uid[ROLE_BACK])
		valid = false;

	/* The moves, replayed here to know what the lobby must make. */
	game_init(&replay, size, saved.rule, saved.full_board);
	if (count > size * size + 1)
		count %= size * size + 2;
	saved.moves_played = count;
	if (count > size * size)
		valid = false;
	for (i = 0; i < count; i++) {
		uint8_t m = fuzz_byte();
		int cell = m < 0xf0 ? fuzz_empty_cell(&replay, m) : -1;

		moves[i] = cell >= 0 ? (uint16_t)cell :
			   (m & 0x0f) == 0 ?
				       0xffff :
				       (uint16_t)((m & 0x0f) * size * size / 8);
		if (game_play(&replay, replay.to_move,
			      board_cell(size, moves[i]).x,
			      board_cell(size, moves[i]).y) != MOVE_OK)
			valid = false;
	}
	if (game_is_over(&replay))
		valid = false;

	room = lobby_restore(&fuzz.lobby, &saved, fuzz.now);
	fuzz_check(fuzz.event_count == 0, "restore sent events");
	if (!valid) {
		game_release(&replay);
		fuzz_check(!room, "an invalid saved game was restored");
		fuzz_check(!memcmp(&stats, &fuzz.lobby.stats, sizeof(stats)),
			   "a refused restore changed the stats");
		return;
	}
	fuzz_check(room, "a valid saved game was refused");
	fuzz_check(identity_check_uid(saved.room_id, canonical) &&
			   !strcmp(room->id, canonical),
		   "restored room id %s", room->id);
	fuzz_check(fuzz_same_game(&room->game, &replay),
		   "the restored game is not the replayed one");
	game_release(&replay);
	for (u = ROLE_FRONT; u <= ROLE_BACK; u++) {
		const struct lobby_player *seat = room->seats[u];

		fuzz_check(seat && !seat->conn && (int)seat->role == u &&
				   seat->away_until == fuzz.now + fuzz.grace &&
				   lobby_find(&fuzz.lobby, saved.uid[u]) ==
					   seat &&
				   !strcmp(seat->name, saved.name[u]),
			   "restored seat %d is wrong", u);
	}
	/* The journal knows the game already: every move is on record. */
	fuzz_room_add(room)->moves_recorded = room->game.moves_played;
	fuzz.restored++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lobby_config config;
	uint8_t header[4];
	size_t i;

	memset(&fuzz, 0, sizeof(fuzz));
	fuzz.data = data;
	fuzz.size = size;
	for (i = 0; i < sizeof(header); i++)
		header[i] = fuzz_byte();
	for (i = 0; i < FUZZ_CONNS; i++)
		fuzz.conn_uid[i] = FUZZ_NO_CONN;
	for (i = 0; i < FUZZ_UIDS; i++)
		fuzz.uid_conn[i] = FUZZ_NO_CONN;
	fuzz.connecting = FUZZ_NO_CONN;
	fuzz.rng = 0x9e3779b97f4a7c15ULL ^
		   ((uint64_t)header[0] << 24 | (uint64_t)header[1] << 16 |
		    (uint64_t)header[2] << 8 | header[3]);
	fuzz.grace = fuzz_graces[(header[1] >> 2) % 8];
	fuzz.now = ((uint64_t)header[2] << 8 | header[3]) * 1000003ULL;
	config = (struct lobby_config){
		.board_size = fuzz_sizes[header[0] % 8],
		.rule = (header[1] & 1) ? RULE_STANDARD : RULE_FREESTYLE,
		.full_board = (header[1] & 2) ? FULL_BOARD_DRAW :
						FULL_BOARD_BACK,
		.reconnect_grace_ms = fuzz.grace,
	};
	fuzz_check(!lobby_init(&fuzz.lobby, &config,
			       (struct lobby_random){ fuzz_fill_random, NULL },
			       (struct lobby_sink){ .send = fuzz_send,
						    .record = fuzz_record }),
		   "lobby_init refused a good config");

	if (fuzz_trace < 0)
		fuzz_trace = getenv("FUZZ_LOBBY_TRACE") != NULL;
	if (fuzz_trace)
		fprintf(stderr, "size %d, grace %llu, now %llu\n",
			config.board_size, (unsigned long long)fuzz.grace,
			(unsigned long long)fuzz.now);
	while (fuzz.pos < fuzz.size) {
		uint8_t op = fuzz_byte();

		if (fuzz_trace)
			fprintf(stderr, "op %u at byte %zu, now %llu\n",
				op % 10, fuzz.pos - 1,
				(unsigned long long)fuzz.now);
		switch (op % 10) {
		case 0:
		case 9:
			fuzz_op_connect();
			break;
		case 1:
			fuzz_op_disconnect();
			break;
		case 2:
			fuzz_op_move();
			break;
		case 3:
			fuzz_op_board();
			break;
		case 4:
			fuzz_op_ping();
			break;
		case 5:
			fuzz_op_tick();
			break;
		case 6:
			fuzz_op_restore();
			break;
		default:
			fuzz_op_play();
			break;
		}
		fuzz_check_lobby();
		fuzz_events_clear();
	}
	lobby_release(&fuzz.lobby);
	return 0;
}
