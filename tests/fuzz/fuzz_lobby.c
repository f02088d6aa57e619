/*
 * fuzz_lobby.c - libFuzzer target that drives one lobby through a
 * byte-coded sequence of operations and checks its invariants throughout.
 *
 * Input: a 4-byte header, then operations until the input runs out.
 *
 *   header[0] % 8       board size: 5 5 6 7 8 10 15 25
 *   header[0] >> 3 & 1  first-move timeout: 5 s (0) or 2 s (1)
 *   header[1] & 1       rule: freestyle (0) or standard (1)
 *   header[1] >> 1 & 1  full board: back wins (0) or draw (1)
 *   header[1] >> 2 % 8  reconnect grace (ms): 0 1 999 1000 1001 2500 30000
 *                       3600000
 *   header[1] >> 5 & 1  the default pool is untimed (0) or 10+1 (1)
 *   header[1] >> 6 & 1  waiting 20 s fills with the engine (1) or not
 *   header[2..3]        the clock's start, big-endian, times 1000003 ms
 *
 *   op < 0xa0: op % 10, then its argument bytes:
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
 *                                 a bad one; another board size (its
 *                                 own pool) when A >> 4 is 15, timed
 *                                 10+0 with clocks from U and F when 14;
 *                                 uids U % 6 (front) and
 *                                 U / 6 % 6 (back), which may clash; F:
 *                                 rule (bit 0), full board (bit 1), names;
 *                                 N moves, each M < 0xf0 the (M % empty)-th
 *                                 empty cell, else a raw, likely bad, index
 *   7, 8  play      P I           the (I % empty)-th empty cell
 *
 *   0xa0 <= op < 0xf8: (op - 0xa0) % 8, protocol 2:
 *   0     join      K N H         lobby_join() of uid K, name N, in pool
 *                                 H & 3 (0 the default, 1 another size,
 *                                 2 10+0, 3 10+2 on 6x6), against the
 *                                 engine when H & 4 (level H >> 3 % 5)
 *   1     resign    P W           an abort instead when W & 1
 *   2     offer     P W           what W % 3: takeback, draw, rematch;
 *                                 a redo when W is 255
 *   3     answer    P W           what (W & 3) % 3, accepting when W & 4
 *   4     emote     P W           the text {"type":"emote","emote":E}
 *                                 through protocol_parse(): E the W % 13-th
 *                                 word, 8 good then 5 bad; none when 255
 *   5     text      P T           the T % 16-th client text of
 *                                 fuzz_texts (offers, answers, resign,
 *                                 abort, redo, good and bad) parsed
 *   6     engine    P I           the engine's move for the first player
 *                                 from P % 6 on whose think is pending:
 *                                 the (I % empty)-th empty cell, an
 *                                 occupied one when I is 254 (refused,
 *                                 then forfeit), a forfeit when 255
 *   7     deadline  D             the clock to when lobby_tick() is next
 *                                 due, D % 3 - 1 ms; then a tick unless
 *                                 D & 4 (the next request comes late)
 *
 *   op >= 0xf8: (op - 0xf8) % 3, spectators (config.max_spectators 3):
 *   0     watch     W             a fresh connection watches the
 *                                 (W % open)-th open room of the journal,
 *                                 or an unknown id when W % 4 is 3 or
 *                                 none is open (the last closed room's
 *                                 when W & 4)
 *   1     unwatch   S             the (S % live)-th spectator leaves
 *   2     request   S R           the (S % watching)-th spectator whose
 *                                 room is open asks R % 10: ping, move,
 *                                 board, resign, abort, offer, answer,
 *                                 emote, redo, winner claim
 *   (0xf8-0xff were protocol 2's operations 0-7 again before.)
 *
 * A connected player P is the (P % connected)-th uid with a connection;
 * an operation that needs one is skipped when nobody is connected.
 *
 * The sink checks every event as it is sent: it goes to a connection that
 * is bound to a seat right now, it encodes to JSON that parses back and
 * carries no uid, and the journal (lobby_sink.record) heard of the fact
 * first, once. After every operation the lobby's stats, queues, pools
 * (lobby_each_pool()), away list, rooms and clocks are checked against a
 * shadow model, and each operation's events against what it must send.
 * A game ends once, with a winner that fits its reason; a rematch's room
 * follows the room closed just before, sides swapped; a finished timed
 * game's clocks stay as they stopped; lobby_tick() returns the next due
 * time and leaves no deadline passed. Any broken check aborts.
 *
 * A spectator's connection gets only what a spectator may: never an
 * offer, answer, role, waiting, welcome, count or uid; spectate first,
 * then the whole board of its room, then that room's game (a rematch's
 * spectate and board again); once its room closed one disconnect, then
 * nothing. Its ping gets pong, anything else error spectator and nothing
 * else is sent, recorded or changed. A refused watch sends nothing. A
 * seat hears the count (stats.spectators adds up) at most once per
 * LOBBY_COUNT_INTERVAL_MS, the number watching then; after a tick at or
 * past its due time the count told is the number watching.
 *
 * FUZZ_LOBBY_TRACE=1 in the environment prints every operation and event,
 * to read what a crashing input did.
 *
 * A libFuzzer target is one program: the operations' decoding, the shadow
 * model and the checks live together (over 2,000 lines).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby.h"

#define FUZZ_UIDS 6	      /* players the input chooses among */
#define FUZZ_CONNS 8192	      /* connections, each used once */
#define FUZZ_ROOMS 64	      /* rooms known to the journal at once */
#define FUZZ_EVENTS 256	      /* events one operation may send */
#define FUZZ_NO_CONN (-1)     /* not bound */
#define FUZZ_SPECS 32	      /* spectators watching at once */
#define FUZZ_MAX_SPECTATORS 3 /* config.max_spectators: hit often */

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
	bool undo;		 /* BOARD: a takeback's */
	enum game_reason reason; /* WINNER: the game's reason */
	enum error_code code;	 /* ERROR */
	int moves;		 /* BOARD: moves played then */
	const struct game *game; /* BOARD, WINNER */
	char *json;		 /* encoded; NULL for REPLACED */
};

/* One room the journal was told of, with the facts recorded so far. */
struct fuzz_room {
	const struct lobby_room *room; /* NULL: free slot */
	int moves_recorded;	       /* RECORD_MOVE calls */
	bool over_recorded;	       /* RECORD_GAME_OVER called */
	const struct lobby_player *seats[ROLE_COUNT]; /* when opened */
	const struct lobby_pool *pool;		      /* when opened */
	int64_t over_left[ROLE_COUNT]; /* timed: the clocks at the end */
	bool told[ROLE_COUNT];	       /* a count was told to the seat */
	uint64_t told_at[ROLE_COUNT];  /* when, the lobby's clock */
	bool told_any;		       /* a count was told to a seat */
	uint64_t last_told_at;	       /* when the last one was */
};

/* What a spectator is to get next. */
enum fuzz_stage {
	FUZZ_NEED_SPECTATE, /* spectate first */
	FUZZ_NEED_BOARD,    /* then the whole board */
	FUZZ_FOLLOWING,	    /* then what the players get */
};

/* One spectator, from lobby_watch() to lobby_unwatch(). */
struct fuzz_spec {
	bool live;			   /* watched, not unwatched */
	int conn;			   /* its connection */
	struct lobby_spectator *spectator; /* NULL during lobby_watch() */
	const struct lobby_room *room;	   /* the room its spectate named */
	enum fuzz_stage stage;
	bool closed; /* got the room's disconnect */
};

/* One event to a spectator during the current operation. */
struct fuzz_spec_event {
	int conn;
	enum event_type type;
	enum error_code code;
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
	unsigned long emotes;		      /* emotes accepted */
	enum lobby_record last_record;	      /* the journal's last fact */
	bool any_record;		      /* last_record is set */
	char closed_id[UID_LEN + 1];	      /* the last room closed */
	const struct lobby_player *closed_seats[ROLE_COUNT]; /* its seats */
	const struct lobby_pool *closed_pool;		     /* its pool */
	struct lobby_ai_ticket tickets[FUZZ_UIDS]; /* engine moves asked */
	bool ticket_valid[FUZZ_UIDS];
	struct lobby_pool_key keys[4]; /* the pools joined */
	struct fuzz_spec specs[FUZZ_SPECS];
	int conn_spec[FUZZ_CONNS]; /* specs index + 1; 0: a player's */
	const struct lobby_room *watch_room; /* during lobby_watch() */
	struct fuzz_spec_event spec_events[FUZZ_EVENTS]; /* this operation's */
	size_t spec_event_count;
	size_t count_events;   /* EVENT_SPECTATORS to players, this operation */
	unsigned long records; /* the journal's facts */
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
	memset(entry->told, 0, sizeof(entry->told));
	entry->told_any = false;
	return entry;
}

/* Whole seconds from now until deadline, rounded up. */
static int fuzz_seconds_left(uint64_t deadline)
{
	return deadline <= fuzz.now ? 0 :
				      (int)((deadline - fuzz.now + 999) / 1000);
}

/* The board writers' texts of a board event parse back too. */
static void fuzz_check_board_writer(const struct event *ev)
{
	size_t cap = PROTOCOL_BOARD_TEXT_MAX(ev->game->board.size);
	char *buf = malloc(cap);
	size_t n;
	cJSON *root;
	int content;

	fuzz_check(buf, "out of memory");
	for (content = 0; content < 2; content++) {
		n = ev->undo ? protocol_write_undo(ev->game, ev->undo_cell,
						   ev->undo_role, ev->now_ms,
						   buf, cap) :
			       protocol_write_board(ev->game, content,
						    ev->now_ms, buf, cap);
		fuzz_check(n > 0 && n < cap, "the board writer failed");
		root = cJSON_ParseWithLength(buf, n);
		fuzz_check(cJSON_IsObject(root),
			   "the board writer's text does not parse: %s", buf);
		cJSON_Delete(root);
	}
	free(buf);
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
		/* A takeback's board keeps its content. */
		fuzz_check(cJSON_IsObject(root) &&
				   (ev->undo ||
				    !cJSON_GetObjectItemCaseSensitive(
					    root, "content")),
			   "a compact board is not JSON without content: %s",
			   text ? text : "(none)");
		cJSON_Delete(root);
		free(text);
		fuzz_check_board_writer(ev);
	}
	for (k = 0; k < FUZZ_UIDS; k++)
		fuzz_check(!strstr(json, fuzz_uids[k]),
			   "an event carries uid %d: %s", k, json);
	return json;
}

/*
 * An event to spectator connection c: to a live spectator, never what
 * only a player gets (offer, answer, role, waiting, welcome, a count) nor
 * a uid; spectate first, then the board of its room, then its room's
 * game; after the room closed one disconnect and nothing more.
 */
static void fuzz_spec_send(int c, const struct event *ev)
{
	struct fuzz_spec *spec = &fuzz.specs[fuzz.conn_spec[c] - 1];
	const struct lobby_room *room;
	struct fuzz_spec_event *logged;
	char *json;

	fuzz_check(spec->live && spec->conn == c,
		   "event %d sent to connection %d, an unwatched spectator",
		   ev->type, c);
	fuzz_check(!spec->closed,
		   "event %d to spectator %d after its room closed", ev->type,
		   c);
	room = spec->spectator ? spec->spectator->room : fuzz.watch_room;
	fuzz_check(ev->type != EVENT_OFFER && ev->type != EVENT_ANSWER &&
			   ev->type != EVENT_ROLE &&
			   ev->type != EVENT_WAITING &&
			   ev->type != EVENT_WELCOME &&
			   ev->type != EVENT_SPECTATORS &&
			   ev->type != EVENT_REPLACED,
		   "a spectator got event %d", ev->type);
	fuzz_check(!ev->uid && !ev->opponent_name,
		   "event %d to a spectator carries a uid or a name", ev->type);
	if (ev->type == EVENT_DISCONNECT) {
		fuzz_check(!room && ev->text &&
				   !strcmp(ev->text, "the room closed"),
			   "a spectator's disconnect: %s, room %p",
			   ev->text ? ev->text : "(none)", (const void *)room);
		spec->closed = true;
	} else if (ev->type == EVENT_PONG || ev->type == EVENT_ERROR) {
		/* Answers to its requests: checked by the operation. */
	} else {
		fuzz_check(room && fuzz_room_find(room),
			   "event %d to a spectator of no known room",
			   ev->type);
		if (ev->type == EVENT_SPECTATE) {
			fuzz_check(ev->room_id &&
					   !strcmp(ev->room_id, room->id),
				   "spectate names another room");
			spec->room = room;
			spec->stage = FUZZ_NEED_BOARD;
		} else {
			fuzz_check(spec->stage != FUZZ_NEED_SPECTATE,
				   "a spectator got event %d before spectate",
				   ev->type);
			fuzz_check(spec->stage != FUZZ_NEED_BOARD ||
					   (ev->type == EVENT_BOARD &&
					    ev->resume),
				   "spectate followed by event %d, not the "
				   "whole board",
				   ev->type);
			fuzz_check(spec->room == room,
				   "event %d of another room than spectate's",
				   ev->type);
		}
		switch (ev->type) {
		case EVENT_BOARD:
			fuzz_check(ev->game == &room->game,
				   "a spectator got the board of another room");
			spec->stage = FUZZ_FOLLOWING;
			break;
		case EVENT_WINNER:
			fuzz_check(ev->game == &room->game &&
					   game_is_over(&room->game),
				   "a spectator's winner is wrong");
			break;
		case EVENT_OPPONENT_AWAY:
		case EVENT_OPPONENT_BACK:
			fuzz_check((ev->by == ROLE_FRONT ||
				    ev->by == ROLE_BACK) &&
					   room->seats[ev->by],
				   "away or back of seat %d", ev->by);
			if (ev->type == EVENT_OPPONENT_BACK)
				fuzz_check(room->seats[ev->by]->conn,
					   "back, but the seat has no "
					   "connection");
			else
				fuzz_check(
					!room->seats[ev->by]->conn &&
						ev->seconds ==
							fuzz_seconds_left(
								room->seats[ev->by]
									->away_until),
					"a spectator's opponent_away is wrong");
			break;
		case EVENT_EMOTE:
			fuzz_check(ev->by == ROLE_FRONT || ev->by == ROLE_BACK,
				   "emote by %d", ev->by);
			break;
		default:
			break;
		}
	}
	fuzz_check(fuzz.spec_event_count < FUZZ_EVENTS, "over %d events",
		   FUZZ_EVENTS);
	json = fuzz_encode(ev);
	if (fuzz_trace)
		fprintf(stderr, "  -> spectator conn %d: %s\n", c, json);
	free(json);
	logged = &fuzz.spec_events[fuzz.spec_event_count++];
	logged->conn = c;
	logged->type = ev->type;
	logged->code = ev->code;
}

/*
 * A count to seated player (connection c): the number watching now, at
 * most once a second to a seat of a room, except the last count told
 * again to a seat resuming.
 */
static void fuzz_count_send(const struct lobby_player *player, int c,
			    const struct event *ev)
{
	const struct lobby_room *room = player->room;
	struct fuzz_room *entry;
	int r = player->role;

	fuzz_check(player->state == PLAYER_PLAYING && room &&
			   (entry = fuzz_room_find(room)),
		   "a count to a player not in a known room");
	fuzz.count_events++;
	free(fuzz_encode(ev));
	if (fuzz_trace)
		fprintf(stderr, "  -> conn %d: spectators %lu\n", c, ev->count);
	if (fuzz.connecting == c) {
		fuzz_check(ev->count == room->count_told && ev->count,
			   "a resumed seat got count %lu, last told %lu",
			   ev->count, room->count_told);
		return;
	}
	fuzz_check(ev->count == room->spectators.count,
		   "count %lu told, %zu watching", ev->count,
		   (size_t)room->spectators.count);
	fuzz_check(
		!entry->told[r] ||
			fuzz.now >= entry->told_at[r] + LOBBY_COUNT_INTERVAL_MS,
		"two counts within %d ms: at %llu and %llu",
		LOBBY_COUNT_INTERVAL_MS, (unsigned long long)entry->told_at[r],
		(unsigned long long)fuzz.now);
	entry->told[r] = true;
	entry->told_at[r] = fuzz.now;
	entry->told_any = true;
	entry->last_told_at = fuzz.now;
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
	if (fuzz.conn_spec[c]) {
		fuzz_spec_send(c, ev);
		return;
	}
	k = fuzz.conn_uid[c];
	fuzz_check(k != FUZZ_NO_CONN &&
			   (fuzz.uid_conn[k] == c || fuzz.connecting == c),
		   "event %d sent to connection %d, bound to no seat", ev->type,
		   c);
	player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	/*
	 * lobby_join() with ai tells a new seat its role (and journals the
	 * room, and asks the engine to think) before the seat is in the
	 * seat table: the connection being bound may have no seat yet.
	 */
	fuzz_check((player && player->conn == conn) ||
			   (!player && fuzz.connecting == c &&
			    ev->type == EVENT_ROLE),
		   "event %d to connection %d: its seat (uid %d) is gone or "
		   "has another connection",
		   ev->type, c, k);
	if (ev->type == EVENT_SPECTATORS) {
		fuzz_count_send(player, c, ev);
		return;
	}
	fuzz_check(fuzz.event_count < FUZZ_EVENTS, "over %d events",
		   FUZZ_EVENTS);

	if (!player) {
		/* The role of a seat not in the table yet. */
	} else if (player->state == PLAYER_WAITING) {
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
			fuzz_check((ev->game->moves_played > 0 || ev->undo) &&
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
		case EVENT_OFFER:
		case EVENT_ANSWER:
			fuzz_check((unsigned)ev->what < OFFER_COUNT &&
					   (ev->by == ROLE_FRONT ||
					    ev->by == ROLE_BACK),
				   "offer or answer of what %d by %d", ev->what,
				   ev->by);
			break;
		case EVENT_EMOTE:
			fuzz_check((unsigned)ev->emote < EMOTE_COUNT &&
					   ev->by == role_other(player->role),
				   "emote %d by %d", ev->emote, ev->by);
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
	logged->undo = ev->undo;
	logged->code = ev->code;
	logged->moves = ev->game ? ev->game->moves_played : 0;
	logged->reason = ev->game ? ev->game->reason : REASON_NONE;
	logged->game = ev->game;
	logged->json = ev->type == EVENT_REPLACED ? NULL : fuzz_encode(ev);
	if (fuzz_trace)
		fprintf(stderr, "  -> conn %d (uid %d): %s\n", c, k,
			logged->json ? logged->json : "replaced");
}

/* Whether game is played as key says. */
static bool fuzz_key_equal(const struct lobby_pool_key *key,
			   const struct game *game)
{
	return key->size == game->board.size && key->rule == game->rule &&
	       time_control_equal(key->tc, game->clock.tc);
}

/*
 * A finished game's winner fits its reason: five and the losses name a
 * side, a full board the rules' result, agreement a draw, aborted nobody;
 * a timed game's clocks stopped, none below 0, a timeout's loser at 0.
 */
static void fuzz_check_result(const struct lobby_room *room)
{
	const struct game *game = &room->game;
	enum game_winner side = game->winner;
	bool timed = time_control_timed(game->clock.tc);

	switch (game->reason) {
	case REASON_FIVE:
		fuzz_check(side == (game->last_mover == ROLE_FRONT ?
					    WINNER_FRONT :
					    WINNER_BACK),
			   "five won by %d, last mover %d", side,
			   game->last_mover);
		break;
	case REASON_FULL:
		fuzz_check(
			game->board.stones ==
					game->board.size * game->board.size &&
				side == (game->full_board == FULL_BOARD_DRAW ?
						 WINNER_DRAW :
						 WINNER_BACK),
			"full board: winner %d", side);
		break;
	case REASON_FORFEIT:
	case REASON_RESIGN:
		fuzz_check(side == WINNER_FRONT || side == WINNER_BACK,
			   "reason %d with winner %d", game->reason, side);
		break;
	case REASON_TIMEOUT:
		fuzz_check((side == WINNER_FRONT || side == WINNER_BACK) &&
				   timed && game->moves_played >= 2,
			   "timeout won by %d after %d moves (timed %d)", side,
			   game->moves_played, timed);
		fuzz_check(game->clock.left_ms[side == WINNER_FRONT ?
						       ROLE_BACK :
						       ROLE_FRONT] == 0,
			   "the loser on time has %lld ms left",
			   (long long)game->clock
				   .left_ms[side == WINNER_FRONT ? ROLE_BACK :
								   ROLE_FRONT]);
		break;
	case REASON_AGREEMENT:
		fuzz_check(side == WINNER_DRAW, "agreement won by %d", side);
		break;
	case REASON_ABORTED:
		fuzz_check(side == WINNER_NOBODY && game->moves_played < 2,
			   "aborted: winner %d after %d moves", side,
			   game->moves_played);
		break;
	default:
		fuzz_check(false, "reason %d", game->reason);
	}
	fuzz_check(game->to_move == ROLE_NONE, "a finished game has a turn");
	if (timed)
		fuzz_check(!game->clock.running &&
				   game->clock.left_ms[ROLE_FRONT] >= 0 &&
				   game->clock.left_ms[ROLE_BACK] >= 0,
			   "a finished game's clock runs or is below 0");
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
		if (room->rematch_of[0]) {
			/* The room it follows was closed just before. */
			fuzz_check(fuzz.any_record &&
					   fuzz.last_record ==
						   RECORD_ROOM_CLOSED &&
					   !strcmp(room->rematch_of,
						   fuzz.closed_id),
				   "rematch of %s, not of the room just "
				   "closed (%s)",
				   room->rematch_of, fuzz.closed_id);
			fuzz_check(
				room->seats[ROLE_FRONT] ==
						fuzz.closed_seats[ROLE_BACK] &&
					room->seats[ROLE_BACK] ==
						fuzz.closed_seats[ROLE_FRONT] &&
					room->pool == fuzz.closed_pool,
				"a rematch did not swap the sides or "
				"changed the pool");
			fuzz_check(strcmp(room->id, room->rematch_of),
				   "a rematch kept the room id");
		}
		entry = fuzz_room_add(room);
		entry->seats[ROLE_FRONT] = room->seats[ROLE_FRONT];
		entry->seats[ROLE_BACK] = room->seats[ROLE_BACK];
		entry->pool = room->pool;
		fuzz_check(fuzz_key_equal(&room->pool->key, game),
			   "a room's game is not of its pool");
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
		fuzz_check(game->reason > REASON_NONE &&
				   game->reason < REASON_COUNT,
			   "game over for reason %d", game->reason);
		fuzz.finished[game->reason]++;
		fuzz_check_result(room);
		entry->over_left[ROLE_FRONT] = game->clock.left_ms[ROLE_FRONT];
		entry->over_left[ROLE_BACK] = game->clock.left_ms[ROLE_BACK];
		break;
	case RECORD_TAKEBACK:
		fuzz_check(entry, "takeback in an unknown room");
		fuzz_check(game->moves_played < entry->moves_recorded &&
				   !game_is_over(game),
			   "takeback to %d moves of %d, or of a game over",
			   game->moves_played, entry->moves_recorded);
		entry->moves_recorded = game->moves_played;
		break;
	case RECORD_ROOM_CLOSED:
		fuzz_check(entry, "unknown room closed");
		fuzz_check(entry->over_recorded,
			   "room closed with its game not recorded over");
		fuzz_check(!room->seats[ROLE_FRONT] && !room->seats[ROLE_BACK],
			   "room closed with a player seated");
		/* Its spectators heard it closed first (a rematch's were
		 * taken away to the next room, still theirs to show). */
		for (size_t i = 0; i < FUZZ_SPECS; i++)
			if (fuzz.specs[i].live && fuzz.specs[i].spectator &&
			    fuzz.specs[i].room == room)
				fuzz_check(
					fuzz.specs[i].closed ||
						fuzz.specs[i].spectator->room ==
							room,
					"a spectator of a closed room was "
					"not told");
		entry->room = NULL;
		snprintf(fuzz.closed_id, sizeof(fuzz.closed_id), "%s",
			 room->id);
		fuzz.closed_seats[ROLE_FRONT] = entry->seats[ROLE_FRONT];
		fuzz.closed_seats[ROLE_BACK] = entry->seats[ROLE_BACK];
		fuzz.closed_pool = room->pool;
		break;
	default:
		fuzz_check(false, "record type %d", type);
	}
	fuzz.last_record = type;
	fuzz.records++;
	fuzz.any_record = true;
}

/* Forgets the events of the last operation. */
static void fuzz_events_clear(void)
{
	size_t i;

	for (i = 0; i < fuzz.event_count; i++)
		free(fuzz.events[i].json);
	fuzz.event_count = 0;
	fuzz.spec_event_count = 0;
	fuzz.count_events = 0;
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

/* lobby_each_pool()'s sums. */
struct fuzz_pool_sums {
	unsigned long games, waiting, pools;
	bool first_default;
};

static void fuzz_pool_sum(void *ctx, const struct lobby_pool *pool)
{
	struct fuzz_pool_sums *sums = ctx;

	if (sums->pools++ == 0)
		sums->first_default = pool == fuzz.lobby.default_pool;
	sums->games += pool->games;
	sums->waiting += pool->queue.count;
}

/* The pools' games add up to the live rooms, their queues to waiting. */
static void fuzz_check_pools(void)
{
	struct fuzz_pool_sums sums = { 0 };

	lobby_each_pool(&fuzz.lobby, fuzz_pool_sum, &sums);
	fuzz_check(sums.first_default, "the default pool is not first");
	fuzz_check(sums.games == fuzz.lobby.stats.rooms_live,
		   "pools' games %lu, rooms_live %lu", sums.games,
		   fuzz.lobby.stats.rooms_live);
	fuzz_check(sums.waiting == fuzz.lobby.stats.waiting,
		   "pools' queues %lu, waiting %lu", sums.waiting,
		   fuzz.lobby.stats.waiting);
}

/*
 * Every room the journal knows: clocks never below 0, a finished timed
 * game's clocks as they were when it ended, a live one's deadline not
 * passed unnoticed by more than the operation that is to notice it.
 */
static void fuzz_check_clocks(void)
{
	size_t i;
	int r;

	for (i = 0; i < FUZZ_ROOMS; i++) {
		const struct lobby_room *room = fuzz.rooms[i].room;
		const struct game *game;

		if (!room)
			continue;
		game = &room->game;
		if (!time_control_timed(game->clock.tc))
			continue;
		for (r = ROLE_FRONT; r <= ROLE_BACK; r++) {
			fuzz_check(game->clock.left_ms[r] >= 0 &&
					   fischer_left(&game->clock,
							(enum role)r,
							game->to_move,
							fuzz.now) >= 0,
				   "a clock below 0");
			if (fuzz.rooms[i].over_recorded)
				fuzz_check(
					game->clock.left_ms[r] ==
						fuzz.rooms[i].over_left[r],
					"a finished game's clock moved: "
					"%lld, was %lld",
					(long long)game->clock.left_ms[r],
					(long long)fuzz.rooms[i].over_left[r]);
		}
		if (fuzz.rooms[i].over_recorded)
			fuzz_check(!game->clock.running,
				   "a finished game's clock runs");
	}
}

/* Counts this operation's events to conn. */
static int fuzz_events_to(int conn)
{
	size_t i;
	int count = 0;

	for (i = 0; i < fuzz.event_count; i++)
		count += fuzz.events[i].conn == conn;
	return count;
}

/* lobby_each_room()'s walk: rooms seen, stopping after stop of them. */
struct fuzz_room_walk {
	unsigned long seen, stop;
};

static bool fuzz_room_visit(void *ctx, const struct lobby_room *room)
{
	struct fuzz_room_walk *walk = ctx;

	fuzz_check(fuzz_room_find(room) && walk->seen < FUZZ_ROOMS,
		   "lobby_each_room gave a room not open");
	return ++walk->seen < walk->stop;
}

/*
 * The spectators: stats.spectators is the live ones; each watches a
 * known room, after its spectate and board, or was told its room closed;
 * no room over the cap; a count not told again before its second ends.
 */
static void fuzz_check_spectators(void)
{
	unsigned long live = 0, closed = 0, watching = 0;
	size_t i;

	for (i = 0; i < FUZZ_SPECS; i++) {
		const struct fuzz_spec *spec = &fuzz.specs[i];
		const struct lobby_room *room;

		if (!spec->live)
			continue;
		live++;
		room = spec->spectator->room;
		if (!room) {
			fuzz_check(spec->closed,
				   "a spectator lost its room untold");
			closed++;
			continue;
		}
		fuzz_check(!spec->closed && spec->stage == FUZZ_FOLLOWING &&
				   spec->room == room && fuzz_room_find(room),
			   "spectator %d watches a room it was not shown "
			   "(stage %d, closed %d)",
			   spec->conn, spec->stage, spec->closed);
	}
	for (i = 0; i < FUZZ_ROOMS; i++) {
		const struct lobby_room *room = fuzz.rooms[i].room;

		if (!room)
			continue;
		watching += room->spectators.count;
		fuzz_check(room->spectators.count <= FUZZ_MAX_SPECTATORS,
			   "a room has %zu spectators",
			   (size_t)room->spectators.count);
		if (fuzz.rooms[i].told_any)
			fuzz_check(room->count_next >=
					   fuzz.rooms[i].last_told_at +
						   LOBBY_COUNT_INTERVAL_MS,
				   "a count is due before its second ends");
	}
	{
		/* lobby_each_room() walks every open room, and stops. */
		struct fuzz_room_walk walk = { 0, ULONG_MAX };
		unsigned long open = 0;

		for (i = 0; i < FUZZ_ROOMS; i++)
			open += fuzz.rooms[i].room != NULL;
		lobby_each_room(&fuzz.lobby, fuzz_room_visit, &walk);
		fuzz_check(walk.seen == open && open == fuzz.lobby.stats.rooms,
			   "lobby_each_room gave %lu rooms of %lu", walk.seen,
			   open);
		walk = (struct fuzz_room_walk){ 0, 1 };
		lobby_each_room(&fuzz.lobby, fuzz_room_visit, &walk);
		fuzz_check(walk.seen == (open > 0),
			   "lobby_each_room did not stop");
	}
	fuzz_check(fuzz.lobby.stats.spectators == live &&
			   watching + closed == live &&
			   fuzz.lobby.unwatched.count == closed,
		   "spectators: %lu, %lu live (%lu watching, %lu closed)",
		   fuzz.lobby.stats.spectators, live, watching, closed);
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
	for (struct list_node *pn = fuzz.lobby.pools.head; pn; pn = pn->next) {
		const struct lobby_pool *pool =
			list_entry(pn, struct lobby_pool, node);

		fuzz_check(lobby_pool_key_valid(&pool->key),
			   "a pool of a bad key");
		for (struct list_node *node = pool->queue.head; node;
		     node = node->next) {
			player = list_entry(node, struct lobby_player,
					    queue_node);
			fuzz_check(player->state == PLAYER_WAITING &&
					   player->conn && player->pool == pool,
				   "the queue holds a seated or away player");
			fuzz_check(!node->next || node->next->prev == node,
				   "the queue's links disagree");
			fuzz_check(++queued <= FUZZ_UIDS, "the queue loops");
		}
		fuzz_check(pool == fuzz.lobby.default_pool || pool->refs > 0,
			   "a pool nobody holds is kept");
	}
	fuzz_check_pools();
	fuzz_check_clocks();
	fuzz_check_spectators();
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
	fuzz_check(stats->waiting == waiting && queued == waiting,
		   "waiting: expected %lu, got %lu (queues %lu)", waiting,
		   stats->waiting, queued);
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
	fuzz_check(stats->emotes == fuzz.emotes,
		   "emotes: expected %lu, got %lu", fuzz.emotes, stats->emotes);
	for (i = 0; i < REASON_COUNT; i++)
		fuzz_check(stats->games_finished[i] == fuzz.finished[i],
			   "games_finished[%zu]: expected %lu, got %lu", i,
			   fuzz.finished[i], stats->games_finished[i]);

	/* A board is the same text for everyone who gets it (a takeback
	 * or redo sends one board per stone). */
	for (i = 0; i < fuzz.event_count; i++)
		for (j = i + 1; j < fuzz.event_count; j++)
			if (fuzz.events[i].type == EVENT_BOARD &&
			    fuzz.events[j].type == EVENT_BOARD &&
			    fuzz.events[i].game == fuzz.events[j].game &&
			    fuzz.events[i].moves == fuzz.events[j].moves &&
			    fuzz.events[i].undo == fuzz.events[j].undo &&
			    !fuzz.events[i].resume && !fuzz.events[j].resume)
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

/*
 * Connects uid k with name, through lobby_join() with pool (NULL: the
 * default) and ai when join is set, else lobby_connect().
 */
static void fuzz_connect(int k, const char *name, bool join,
			 const struct lobby_pool_key *pool, bool ai,
			 enum engine_level level)
{
	struct lobby_player *player = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	int old_conn = fuzz.uid_conn[k];
	int opponent_conn = FUZZ_NO_CONN;
	bool was_away = player && !player->conn;
	enum event_type resume[6];
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
	if (join) {
		struct lobby_join how = { .uid = fuzz_uids[k],
					  .name = name,
					  .pool = pool,
					  .ai = ai,
					  .level = level };

		player =
			lobby_join(&fuzz.lobby, &how, &fuzz.conns[c], fuzz.now);
	} else {
		player = lobby_connect(&fuzz.lobby, fuzz_uids[k], name,
				       &fuzz.conns[c], fuzz.now);
	}
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
			if (player->room->offer_by != ROLE_NONE)
				resume[resumed++] = EVENT_OFFER;
			if (!opponent)
				resume[resumed++] = EVENT_DISCONNECT;
			else if (!opponent->conn && !opponent->ai)
				resume[resumed++] = EVENT_OPPONENT_AWAY;
		}
		fuzz_expect_sequence(c, resume, resumed);
		for (i = 0; i < fuzz.event_count; i++)
			fuzz_check(fuzz.events[i].type != EVENT_BOARD ||
					   fuzz.events[i].resume,
				   "a resumed board is not marked resume");
	} else {
		if (!(join && ai))
			resume[resumed++] = EVENT_WAITING;
		if (player->state == PLAYER_PLAYING)
			resume[resumed++] = EVENT_ROLE;
		fuzz_expect_sequence(c, resume, resumed);
		fuzz_check(player->state == PLAYER_PLAYING || !(join && ai),
			   "a player of the engine waits");
		if (player->state == PLAYER_PLAYING)
			fuzz_check(fuzz_key_equal(
					   pool ? pool :
						  &fuzz.lobby.default_pool->key,
					   &player->room->game),
				   "seated in another pool than asked");
		else
			fuzz_check(
				player->pool->key.size ==
					(pool ? pool :
						&fuzz.lobby.default_pool->key)
						->size,
				"waiting in another pool than asked");
	}
}

static void fuzz_op_connect(void)
{
	int k = fuzz_byte() % FUZZ_UIDS;
	const char *name = fuzz_names[fuzz_byte() % FUZZ_NAMES];

	fuzz_connect(k, name, false, NULL, false, ENGINE_EASY);
}

/*
 * join K N H: uid K, name N, through lobby_join() in pool H & 3 of
 * fuzz.keys (0: NULL, the default), against the engine when H & 4, at
 * level H >> 3 % ENGINE_LEVEL_COUNT.
 */
static void fuzz_op_join(void)
{
	int k = fuzz_byte() % FUZZ_UIDS;
	const char *name = fuzz_names[fuzz_byte() % FUZZ_NAMES];
	uint8_t how = fuzz_byte();

	fuzz_connect(k, name, true, (how & 3) ? &fuzz.keys[how & 3] : NULL,
		     how & 4,
		     (enum engine_level)((how >> 3) % ENGINE_LEVEL_COUNT));
}

static void fuzz_op_disconnect(void)
{
	int k = fuzz_pick(fuzz_byte());
	bool leaving = fuzz_byte() & 1;
	struct lobby_player *player;
	bool keeps_seat;
	bool was_live;
	bool offer;
	int opponent_conn;
	int c;

	if (k < 0)
		return;
	player = fuzz_player(k);
	c = fuzz.uid_conn[k];
	opponent_conn = fuzz_opponent_conn(player);
	was_live = player->state == PLAYER_PLAYING &&
		   !game_is_over(&player->room->game);
	offer = player->state == PLAYER_PLAYING &&
		player->room->offer_by != ROLE_NONE;
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
		/* A pending offer lapses, a live game is forfeit, then
		 * the opponent hears the seat is empty. */
		enum event_type left[3];
		int told = 0;

		if (opponent_conn != FUZZ_NO_CONN) {
			if (offer)
				left[told++] = EVENT_ANSWER;
			if (was_live)
				left[told++] = EVENT_WINNER;
			left[told++] = EVENT_DISCONNECT;
		}

		fuzz_check(!player, "a leaving player kept the seat");
		fuzz_check(fuzz.event_count == (size_t)told,
			   "leaving sent %zu events, expected %d",
			   fuzz.event_count, told);
		if (told)
			fuzz_expect_sequence(opponent_conn, left, told);
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
/* When room's game must next be looked at for time; UINT64_MAX: never. */
static uint64_t fuzz_deadline(const struct lobby_room *room)
{
	const struct game *game = &room->game;

	if (game_is_over(game) || !time_control_timed(game->clock.tc))
		return UINT64_MAX;
	if (game->moves_played < 2)
		return fischer_abort_at(&game->clock, game->moves_played);
	return fischer_flag_at(&game->clock, game->to_move);
}

/* Whether player's game ran out of time by now, unnoticed yet. */
static bool fuzz_late(const struct lobby_player *player)
{
	uint64_t at = player->state == PLAYER_PLAYING ?
			      fuzz_deadline(player->room) :
			      UINT64_MAX;

	return at != UINT64_MAX && at <= fuzz.now;
}

/*
 * A request that comes after its game's deadline passed: the game ends
 * first (timeout, or aborted before 2 moves), everyone seated hears it,
 * then the request is judged in the finished game.
 */
static void fuzz_request_late(struct lobby_player *player,
			      const struct request *req)
{
	const struct lobby_room *room = player->room;
	int moves = room->game.moves_played;
	int c = fuzz_conn_index(player->conn);

	lobby_request(&fuzz.lobby, player, req, fuzz.now);
	fuzz_check(game_is_over(&room->game) &&
			   room->game.reason == (moves < 2 ? REASON_ABORTED :
							     REASON_TIMEOUT),
		   "a request after the deadline: reason %d after %d moves",
		   room->game.reason, moves);
	fuzz_check(fuzz_events_count(c, EVENT_WINNER) == 1,
		   "a late request's sender did not hear the game end");
	fuzz_check(fuzz_events_count(-1, EVENT_BOARD) == 0,
		   "a move after the deadline was played");
}

static void fuzz_request(struct lobby_player *player, const struct request *req)
{
	struct lobby_stats stats = fuzz.lobby.stats;
	struct game *game = player->room ? &player->room->game : NULL;
	struct game before, expected;
	enum move_result result = MOVE_OK;
	int c = fuzz_conn_index(player->conn);
	int opponent_conn = fuzz_opponent_conn(player);
	int x = req->x, y = req->y;
	bool offer = player->room && player->room->offer_by != ROLE_NONE;

	if (fuzz_late(player)) {
		fuzz_request_late(player, req);
		return;
	}
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
		/* A pending offer lapses first. */
		enum event_type told[3] = { EVENT_ANSWER, EVENT_BOARD,
					    EVENT_WINNER };
		int count = game_is_over(game) ? 2 : 1;

		fuzz_expect_sequence(c, told + !offer, count + offer);
		if (opponent_conn != FUZZ_NO_CONN)
			fuzz_expect_sequence(opponent_conn, told + !offer,
					     count + offer);
		fuzz_check(!fuzz.events[offer].resume,
			   "a move's board is marked resume");
		fuzz_check(player->room->offer_by == ROLE_NONE,
			   "an offer outlived a move");
	}
	game_release(&before);
	game_release(&expected);
}

/* The error code of this operation's error to conn; ERR_NONE: none. */
static enum error_code fuzz_error_to(int conn)
{
	size_t i;

	for (i = 0; i < fuzz.event_count; i++)
		if (fuzz.events[i].conn == conn &&
		    fuzz.events[i].type == EVENT_ERROR)
			return fuzz.events[i].code;
	return ERR_NONE;
}

/*
 * Any request but a move or board (resign, abort, offers, answers, redo,
 * emotes, and what protocol_parse() made of a text): carried out, and
 * checked against what PROTOCOL.md section 10 says it does.
 */
static void fuzz_request_other(struct lobby_player *player,
			       const struct request *req)
{
	struct lobby_stats stats = fuzz.lobby.stats;
	struct lobby_room *room = player->room;
	int c = fuzz_conn_index(player->conn);
	int opponent_conn = fuzz_opponent_conn(player);
	bool late = fuzz_late(player);
	bool live = room && !game_is_over(&room->game);
	bool ai = room && room->ai_role != ROLE_NONE;
	enum role offer_by = room ? room->offer_by : ROLE_NONE;
	enum offer_what offer_what = room ? room->offer_what : OFFER_DRAW;
	int moves = room ? room->game.moves_played : 0;
	enum role role = player->role;
	char room_id[UID_LEN + 1] = "";
	enum error_code code;

	if (room)
		snprintf(room_id, sizeof(room_id), "%s", room->id);
	lobby_request(&fuzz.lobby, player, req, fuzz.now);
	code = fuzz_error_to(c);
	if (req->type == REQUEST_EMOTE && code == ERR_NONE)
		fuzz.emotes++;
	if (room && player->room != room) {
		/* A rematch (the engine accepts at once): room is freed. */
		fuzz_check(code == ERR_NONE && req->what == OFFER_REMATCH &&
				   (req->type == REQUEST_ANSWER ||
				    (req->type == REQUEST_OFFER && ai)) &&
				   player->state == PLAYER_PLAYING &&
				   !strcmp(player->room->rematch_of, room_id) &&
				   player->role == role_other(role),
			   "a request moved the player to another room");
		fuzz_check(fuzz_events_count(c, EVENT_ROLE) == 1,
			   "no role after a rematch");
		return;
	}
	if (late) {
		/* The game ended first; then the request was judged. */
		fuzz_check(game_is_over(&room->game) &&
				   room->game.reason ==
					   (moves < 2 ? REASON_ABORTED :
							REASON_TIMEOUT),
			   "a request after the deadline: reason %d",
			   room->game.reason);
		fuzz_check(fuzz_events_count(c, EVENT_WINNER) == 1,
			   "a late request's sender did not hear the end");
		return;
	}
	if (!room) {
		fuzz_check(code == ERR_NOT_IN_GAME && fuzz.event_count == 1,
			   "a waiting player's request got %d", code);
		return;
	}
	if (code != ERR_NONE) {
		fuzz_check(fuzz.event_count == 1, "a refusal reached others");
		fuzz_check(!memcmp(&stats, &fuzz.lobby.stats, sizeof(stats)),
			   "a refusal changed the stats");
		fuzz_check(player->room == room && room->offer_by == offer_by &&
				   room->game.moves_played == moves &&
				   game_is_over(&room->game) == !live,
			   "a refusal changed the room");
		if (!live && req->type != REQUEST_EMOTE &&
		    !((req->type == REQUEST_OFFER ||
		       req->type == REQUEST_ANSWER) &&
		      req->what == OFFER_REMATCH))
			fuzz_check(code == ERR_GAME_OVER,
				   "refused in a finished game with %d", code);
		return;
	}
	switch (req->type) {
	case REQUEST_RESIGN:
	case REQUEST_ABORT:
		fuzz_check(live && (req->type == REQUEST_RESIGN || moves < 2),
			   "resign or abort accepted (live %d, %d moves)", live,
			   moves);
		fuzz_check(game_is_over(&room->game) &&
				   room->game.reason ==
					   (req->type == REQUEST_RESIGN ?
						    REASON_RESIGN :
						    REASON_ABORTED),
			   "resign or abort: reason %d", room->game.reason);
		if (req->type == REQUEST_RESIGN)
			fuzz_check(room->game.winner == (role == ROLE_FRONT ?
								 WINNER_BACK :
								 WINNER_FRONT),
				   "the resigner won");
		fuzz_check(fuzz_events_count(c, EVENT_WINNER) == 1 &&
				   fuzz_events_count(c, EVENT_ANSWER) ==
					   (offer_by != ROLE_NONE),
			   "resign or abort was not told as it should");
		if (opponent_conn != FUZZ_NO_CONN)
			fuzz_check(fuzz_events_count(opponent_conn,
						     EVENT_WINNER) == 1,
				   "the opponent did not hear the end");
		break;
	case REQUEST_OFFER:
		fuzz_check(offer_by == ROLE_NONE,
			   "an offer made over a pending one");
		fuzz_check(live != (req->what == OFFER_REMATCH),
			   "a rematch offered in a live game or another "
			   "offer in a finished one");
		fuzz_check(fuzz_events_count(c, EVENT_OFFER) ==
				   !(ai && req->what == OFFER_TAKEBACK),
			   "the offerer was not told its offer");
		if (!ai && opponent_conn != FUZZ_NO_CONN)
			fuzz_check(fuzz_events_count(opponent_conn,
						     EVENT_OFFER) == 1,
				   "the opponent was not told the offer");
		if (!ai)
			fuzz_check(room->offer_by == role &&
					   room->offer_what == req->what,
				   "the offer is not pending");
		break;
	case REQUEST_ANSWER:
		fuzz_check(offer_by == role_other(role) &&
				   offer_what == req->what,
			   "an answer with no such offer was taken");
		fuzz_check(fuzz_events_count(c, EVENT_ANSWER) == 1,
			   "the answerer was not told its answer");
		stats.offers[req->what][req->accept]++;
		if (req->what == OFFER_REMATCH && req->accept) {
			fuzz_check(player->state == PLAYER_PLAYING &&
					   player->room != room &&
					   !strcmp(player->room->rematch_of,
						   room_id) &&
					   player->role == role_other(role),
				   "an accepted rematch did not seat the "
				   "player in a new room on the other side");
			fuzz_check(fuzz_events_count(c, EVENT_ROLE) == 1,
				   "no role after a rematch");
			break;
		}
		fuzz_check(room->offer_by == ROLE_NONE,
			   "an answered offer is still pending");
		if (req->what == OFFER_DRAW && req->accept)
			fuzz_check(game_is_over(&room->game) &&
					   room->game.reason ==
						   REASON_AGREEMENT,
				   "an accepted draw did not end the game");
		else if (req->what == OFFER_TAKEBACK && req->accept)
			fuzz_check(room->game.moves_played < moves &&
					   room->game.to_move ==
						   role_other(role),
				   "an accepted takeback took nothing back "
				   "or left the offerer not to move");
		else
			fuzz_check(room->game.moves_played == moves &&
					   game_is_over(&room->game) == !live,
				   "a declined offer changed the game");
		fuzz_check(
			stats.offers[req->what][req->accept] ==
				fuzz.lobby.stats.offers[req->what][req->accept],
			"an answer was not counted");
		break;
	case REQUEST_EMOTE:
		fuzz_check(fuzz_events_to(c) == 0 &&
				   fuzz.event_count == (size_t)(opponent_conn !=
								FUZZ_NO_CONN),
			   "an emote went to %zu connections",
			   fuzz.event_count);
		if (opponent_conn != FUZZ_NO_CONN)
			fuzz_check(fuzz_events_count(opponent_conn,
						     EVENT_EMOTE) == 1,
				   "the opponent did not get the emote");
		break;
	default:
		break;
	}
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

/*
 * When lobby_tick() must be called next: the first away seat's deadline,
 * the first live timed room's, or the first waiting player's engine fill.
 */
static uint64_t fuzz_next_due(void)
{
	const struct lobby_player *player;
	uint64_t next = UINT64_MAX, at;
	size_t i;

	player = list_first(&fuzz.lobby.away, struct lobby_player, away_node);
	if (player)
		next = player->away_until;
	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room &&
		    (at = fuzz_deadline(fuzz.rooms[i].room)) < next)
			next = at;
	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room &&
		    fuzz.rooms[i].room->spectators.count !=
			    fuzz.rooms[i].room->count_told &&
		    fuzz.rooms[i].room->count_next < next)
			next = fuzz.rooms[i].room->count_next;
	if (fuzz.lobby.config.ai_fill_after_ms)
		for (struct list_node *pn = fuzz.lobby.pools.head; pn;
		     pn = pn->next) {
			const struct lobby_pool *pool =
				list_entry(pn, struct lobby_pool, node);

			player = list_first(&pool->queue, struct lobby_player,
					    queue_node);
			if (player &&
			    (at = player->waiting_since +
				  fuzz.lobby.config.ai_fill_after_ms) < next)
				next = at;
		}
	return next;
}

static void fuzz_tick(void)
{
	uint64_t next;
	const struct lobby_player *player;
	bool gone[FUZZ_UIDS];
	size_t i;
	int k;

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
	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room)
			fuzz_check(fuzz_deadline(fuzz.rooms[i].room) > fuzz.now,
				   "a flag or first-move deadline passed "
				   "the tick");
	fuzz_check(next == fuzz_next_due(), "tick returned %llu, not %llu",
		   (unsigned long long)next,
		   (unsigned long long)fuzz_next_due());
	fuzz_check(next > fuzz.now, "tick returned a time passed");
	/* Past its second, the count told is the number watching. */
	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room &&
		    fuzz.rooms[i].room->count_next <= fuzz.now)
			fuzz_check(
				fuzz.rooms[i].room->count_told ==
					fuzz.rooms[i].room->spectators.count,
				"after a due tick, count told %lu, %zu "
				"watching",
				fuzz.rooms[i].room->count_told,
				(size_t)fuzz.rooms[i].room->spectators.count);
	fuzz_check(fuzz_events_count(-1, EVENT_WINNER) +
				   fuzz_events_count(-1, EVENT_DISCONNECT) +
				   fuzz_events_count(-1, EVENT_ANSWER) +
				   fuzz_events_count(-1, EVENT_ROLE) ==
			   (int)fuzz.event_count,
		   "tick sent something but winner, disconnect, a lapsed "
		   "offer's answer and an engine match's role");
}

static void fuzz_op_tick(void)
{
	uint8_t step = fuzz_byte();

	fuzz.now += step < 200 ? step * 50ULL : (step - 200ULL) * 60000;
	fuzz_tick();
}

/*
 * deadline D: the clock goes to the next time lobby_tick() is due, plus
 * D % 3 - 1 ms; then a tick, unless D & 4: the next request comes late.
 */
static void fuzz_op_deadline(void)
{
	uint8_t d = fuzz_byte();
	uint64_t next = fuzz_next_due();

	if (next == UINT64_MAX)
		return;
	if (d % 3 == 0)
		next -= next > 0;
	else if (d % 3 == 2)
		next++;
	if (next > fuzz.now)
		fuzz.now = next;
	if (!(d & 4))
		fuzz_tick();
}

/* resign P W: an abort instead when W & 1. */
static void fuzz_op_resign(void)
{
	int k = fuzz_pick(fuzz_byte());
	struct request req = { .type = (fuzz_byte() & 1) ? REQUEST_ABORT :
							   REQUEST_RESIGN };

	if (k >= 0)
		fuzz_request_other(fuzz_player(k), &req);
}

/* offer P W: what W % 3 (takeback, draw, rematch); a redo when W is 255. */
static void fuzz_op_offer(void)
{
	int k = fuzz_pick(fuzz_byte());
	uint8_t w = fuzz_byte();
	struct request req = { .type = w == 255 ? REQUEST_REDO : REQUEST_OFFER,
			       .what = (enum offer_what)(w % OFFER_COUNT) };

	if (k >= 0)
		fuzz_request_other(fuzz_player(k), &req);
}

/* answer P W: what (W & 3) % 3, accepting when W & 4. */
static void fuzz_op_answer(void)
{
	int k = fuzz_pick(fuzz_byte());
	uint8_t w = fuzz_byte();
	struct request req = { .type = REQUEST_ANSWER,
			       .what = (enum offer_what)((w & 3) % OFFER_COUNT),
			       .accept = (w & 4) != 0 };

	if (k >= 0)
		fuzz_request_other(fuzz_player(k), &req);
}

/*
 * Client texts of protocol 2, good and bad, for protocol_parse(): what
 * parses is carried out as the player's request.
 */
static const char *const fuzz_texts[] = {
	"{\"type\":\"resign\"}",
	"{\"type\":\"abort\"}",
	"{\"type\":\"offer\",\"what\":\"draw\"}",
	"{\"type\":\"offer\",\"what\":\"takeback\"}",
	"{\"type\":\"offer\",\"what\":\"rematch\"}",
	"{\"type\":\"offer\",\"what\":\"resign\"}",
	"{\"type\":\"offer\"}",
	"{\"type\":\"answer\",\"what\":\"draw\",\"accept\":true}",
	"{\"type\":\"answer\",\"what\":\"draw\",\"accept\":false}",
	"{\"type\":\"answer\",\"what\":\"rematch\",\"accept\":true}",
	"{\"type\":\"answer\",\"what\":\"rematch\",\"accept\":false}",
	"{\"type\":\"answer\",\"what\":\"takeback\",\"accept\":true}",
	"{\"type\":\"answer\",\"what\":\"takeback\",\"accept\":0}",
	"{\"type\":\"answer\",\"what\":\"draw\"}",
	"{\"type\":\"redo\"}",
	"{\"type\":\"move\",\"x\":0,\"y\":0}",
};

#define FUZZ_TEXTS (sizeof(fuzz_texts) / sizeof(fuzz_texts[0]))

static const char *const fuzz_emote_words[] = {
	"hello", "hurry", "nice",  "wow",  "oops", "thanks", "gg",
	"smug",	 "",	  "HELLO", "kiss", "gg ",  "催促",
};

#define FUZZ_EMOTE_WORDS \
	(sizeof(fuzz_emote_words) / sizeof(fuzz_emote_words[0]))

/* Parses text as player k's message and carries out what it asks. */
static void fuzz_text(int k, const char *text)
{
	struct lobby_player *player = fuzz_player(k);
	struct request req;
	const char *message = NULL;
	enum error_code code;

	memset(&req, 0, sizeof(req));
	code = protocol_parse(text, strlen(text),
			      lobby_player_board_size(player), &req, &message);
	if (fuzz_trace)
		fprintf(stderr, "  text %s: %d\n", text, code);
	if (code != ERR_NONE) {
		fuzz_check(message && message[0], "a refusal without text");
		return;
	}
	if (req.type == REQUEST_EMOTE)
		fuzz_check((unsigned)req.emote < EMOTE_COUNT &&
				   !strstr(text, "\"\"") &&
				   !strstr(text, "HELLO") &&
				   !strstr(text, "kiss") &&
				   !strstr(text, "gg \""),
			   "protocol_parse took a bad emote: %s", text);
	if (req.type == REQUEST_MOVE || req.type == REQUEST_BOARD)
		fuzz_request(player, &req);
	else if (req.type != REQUEST_PING && req.type != REQUEST_WINNER)
		fuzz_request_other(player, &req);
}

/* emote P W: emote word W % 13 (8 good, then bad), as text. */
static void fuzz_op_emote(void)
{
	int k = fuzz_pick(fuzz_byte());
	uint8_t w = fuzz_byte();
	char text[96];

	if (k < 0)
		return;
	if (w == 255)
		snprintf(text, sizeof(text), "{\"type\":\"emote\"}");
	else
		snprintf(text, sizeof(text),
			 "{\"type\":\"emote\",\"emote\":\"%s\"}",
			 fuzz_emote_words[w % FUZZ_EMOTE_WORDS]);
	fuzz_text(k, text);
}

/* text P T: client text T % 16 of fuzz_texts. */
static void fuzz_op_text(void)
{
	int k = fuzz_pick(fuzz_byte());
	uint8_t t = fuzz_byte();

	if (k >= 0)
		fuzz_text(k, fuzz_texts[t % FUZZ_TEXTS]);
}

/* The sink's think: the engine is to move in room; keep its ticket. */
static void fuzz_think(void *ctx, struct lobby_room *room)
{
	const struct lobby_player *human =
		room->seats[role_other(room->ai_role)];
	int k;

	(void)ctx;
	fuzz_check(room->ai_role != ROLE_NONE &&
			   room->game.to_move == room->ai_role &&
			   !game_is_over(&room->game) && human && !human->ai,
		   "think asked for a room where the engine is not to move");
	for (k = 0; k < FUZZ_UIDS; k++)
		if (!strcmp(human->uid, fuzz_uids[k]))
			break;
	fuzz_check(k < FUZZ_UIDS, "think for an unknown player");
	lobby_ai_ticket(room, &fuzz.tickets[k]);
	fuzz.ticket_valid[k] = true;
}

/*
 * engine P I: the engine's move asked for the (P % 6)-th player on (or
 * after it) with a ticket: the (I % empty)-th empty cell of that room, an
 * occupied cell when I is 254 (refused: then it forfeits), a forfeit when
 * I is 255. The ticket may be stale.
 */
static void fuzz_op_engine(void)
{
	int start = fuzz_byte() % FUZZ_UIDS;
	uint8_t pick = fuzz_byte();
	const struct lobby_player *human;
	const struct lobby_room *room = NULL;
	int moves = 0;
	int k, n, x = 0, y = 0, rc;

	for (n = 0; n < FUZZ_UIDS; n++)
		if (fuzz.ticket_valid[(start + n) % FUZZ_UIDS])
			break;
	if (n == FUZZ_UIDS)
		return;
	k = (start + n) % FUZZ_UIDS;
	fuzz.ticket_valid[k] = false;
	human = lobby_find(&fuzz.lobby, fuzz_uids[k]);
	if (human && human->state == PLAYER_PLAYING &&
	    human->room->ai_role != ROLE_NONE) {
		const struct game *game = &human->room->game;
		int cell = pick < 254	      ? fuzz_empty_cell(game, pick) :
			   game->moves_played ? game->history[0] :
						-1;

		room = human->room;
		moves = game->moves_played;
		if (cell >= 0) {
			x = cell % game->board.size;
			y = cell / game->board.size;
		}
	}
	if (pick == 255) {
		rc = lobby_ai_forfeit(&fuzz.lobby, &fuzz.tickets[k], fuzz.now);
		fuzz_check(rc == 0 || fuzz.event_count == 0 ||
				   fuzz_events_count(-1, EVENT_WINNER) > 0,
			   "a stale forfeit told something");
		return;
	}
	rc = lobby_ai_move(&fuzz.lobby, &fuzz.tickets[k], x, y, fuzz.now);
	if (rc == 0) {
		fuzz_check(room && room->game.moves_played == moves + 1,
			   "an engine move was not played");
		if (human->conn)
			fuzz_check(
				fuzz_events_count(fuzz_conn_index(human->conn),
						  EVENT_BOARD) == 1,
				"the player did not see the engine's move");
	} else if (rc == -EINVAL) {
		fuzz_check(fuzz.event_count == 0 && room &&
				   room->game.moves_played == moves,
			   "a refused engine move changed something");
		rc = lobby_ai_forfeit(&fuzz.lobby, &fuzz.tickets[k], fuzz.now);
		fuzz_check(rc == 0 && game_is_over(&room->game) &&
				   room->game.reason == REASON_FORFEIT,
			   "the engine's forfeit did not end the game");
	} else {
		fuzz_check(rc == -ESTALE, "lobby_ai_move returned %d", rc);
		fuzz_check(!room || room->game.moves_played == moves,
			   "a stale engine move was played");
	}
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
		/* Another pool's size: its own pool. */
		size = size == BOARD_MAX_SIZE ? size - 1 : size + 1;
	} else if ((how >> 4) == 14) {
		/* A timed game, its clocks 0 to 10 s. */
		saved.tc = fuzz.keys[2].tc;
		saved.clock_ms[ROLE_FRONT] = (int64_t)(who % 11) * 1000;
		saved.clock_ms[ROLE_BACK] = (int64_t)(flags % 11) * 997;
	}
	saved.board_size = size;
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
	fuzz_check(fuzz_key_equal(&room->pool->key, &room->game) &&
			   room->pool->key.size == size &&
			   time_control_equal(room->pool->key.tc, saved.tc),
		   "a restored room is in another pool");
	if (time_control_timed(saved.tc))
		fuzz_check(room->game.clock.left_ms[ROLE_FRONT] ==
					   saved.clock_ms[ROLE_FRONT] &&
				   room->game.clock.left_ms[ROLE_BACK] ==
					   saved.clock_ms[ROLE_BACK],
			   "a restored game's clocks are not the saved ones");
	{
		struct fuzz_room *entry = fuzz_room_add(room);

		entry->moves_recorded = room->game.moves_played;
		entry->seats[ROLE_FRONT] = room->seats[ROLE_FRONT];
		entry->seats[ROLE_BACK] = room->seats[ROLE_BACK];
		entry->pool = room->pool;
	}
	fuzz.restored++;
}

/*
 * watch W: a new connection watches the (W % open)-th room the journal
 * knows open, or, when W % 4 is 3 or none is open, an id no room has (the
 * last closed room's, or a fixed one): NULL with no_such_room then, and
 * too_many_spectators at the cap; nothing sent but to the spectator
 * (spectate, the whole board, winner when over, away seats) and the
 * count to the players.
 */
static void fuzz_op_watch(void)
{
	uint8_t w = fuzz_byte();
	const struct lobby_room *open[FUZZ_ROOMS];
	const struct lobby_room *room = NULL;
	struct lobby_stats stats = fuzz.lobby.stats;
	unsigned long records = fuzz.records;
	struct lobby_spectator *spectator;
	struct fuzz_spec *spec = NULL;
	enum error_code code = ERR_NONE;
	const char *id;
	size_t i, n = 0, full;
	int c;

	for (i = 0; i < FUZZ_ROOMS; i++)
		if (fuzz.rooms[i].room)
			open[n++] = fuzz.rooms[i].room;
	for (i = 0; i < FUZZ_SPECS; i++)
		if (!fuzz.specs[i].live) {
			spec = &fuzz.specs[i];
			break;
		}
	if (!spec || fuzz.next_conn == FUZZ_CONNS)
		return;
	if (n && w % 4 != 3) {
		room = open[w % n];
		id = room->id;
	} else {
		id = fuzz.closed_id[0] && (w & 4) ?
			     fuzz.closed_id :
			     "00000000-0000-4000-8000-00000000beef";
	}
	full = room ? room->spectators.count : 0;
	c = fuzz.next_conn++;
	memset(spec, 0, sizeof(*spec));
	spec->live = true;
	spec->conn = c;
	fuzz.conn_spec[c] = (int)(spec - fuzz.specs) + 1;
	fuzz.watch_room = room;
	spectator =
		lobby_watch(&fuzz.lobby, id, &fuzz.conns[c], fuzz.now, &code);
	fuzz.watch_room = NULL;
	fuzz_check(fuzz.event_count == 0 && fuzz.records == records,
		   "watching sent a player something or was recorded");
	if (!room || full >= FUZZ_MAX_SPECTATORS) {
		fuzz_check(!spectator &&
				   code == (room ? ERR_TOO_MANY_SPECTATORS :
						   ERR_NO_SUCH_ROOM),
			   "watching %s (%zu watching) gave %p, code %d", id,
			   full, (void *)spectator, code);
		fuzz_check(fuzz.spec_event_count == 0 &&
				   fuzz.count_events == 0 &&
				   !memcmp(&stats, &fuzz.lobby.stats,
					   sizeof(stats)),
			   "a refused watch sent something or changed "
			   "the stats");
		spec->live = false;
		return;
	}
	fuzz_check(spectator && spectator->room == room &&
			   spectator->conn == &fuzz.conns[c],
		   "watching an open room with room gave %p, code %d",
		   (void *)spectator, code);
	spec->spectator = spectator;
	fuzz_check(fuzz.spec_event_count >= 2 &&
			   fuzz.spec_events[0].type == EVENT_SPECTATE &&
			   fuzz.spec_events[1].type == EVENT_BOARD,
		   "a new spectator did not get spectate, board");
	fuzz_check((fuzz.spec_event_count >= 3 &&
		    fuzz.spec_events[2].type == EVENT_WINNER) ==
			   game_is_over(&room->game),
		   "a new spectator's winner does not fit the game");
	for (i = 0; i < fuzz.spec_event_count; i++)
		fuzz_check(fuzz.spec_events[i].conn == c,
			   "watching told another spectator");
}

/* The (pick % n)-th live spectator (not closed ones when open_only). */
static struct fuzz_spec *fuzz_spec_pick(uint8_t pick, bool open_only)
{
	struct fuzz_spec *live[FUZZ_SPECS];
	size_t i, n = 0;

	for (i = 0; i < FUZZ_SPECS; i++)
		if (fuzz.specs[i].live && !(open_only && fuzz.specs[i].closed))
			live[n++] = &fuzz.specs[i];
	return n ? live[pick % n] : NULL;
}

/* unwatch S: the S-th live spectator's connection closes: silent. */
static void fuzz_op_unwatch(void)
{
	struct fuzz_spec *spec = fuzz_spec_pick(fuzz_byte(), false);
	unsigned long spectators = fuzz.lobby.stats.spectators;
	unsigned long records = fuzz.records;

	if (!spec)
		return;
	lobby_unwatch(&fuzz.lobby, spec->spectator, fuzz.now);
	spec->live = false;
	spec->spectator = NULL;
	fuzz_check(fuzz.event_count == 0 && fuzz.spec_event_count == 0 &&
			   fuzz.records == records,
		   "unwatching sent something but a count");
	fuzz_check(fuzz.lobby.stats.spectators == spectators - 1,
		   "unwatching left stats.spectators at %lu",
		   fuzz.lobby.stats.spectators);
}

/*
 * spectator request S R: the S-th spectator still watching asks R % 10:
 * ping, or a move, board, resign, abort, offer, answer, emote, redo, a
 * winner claim: pong to a ping, error spectator to the rest, and nothing
 * else sent, recorded or changed.
 */
static void fuzz_op_spectator_request(void)
{
	static const enum request_type types[10] = {
		REQUEST_PING,  REQUEST_MOVE,   REQUEST_BOARD,  REQUEST_RESIGN,
		REQUEST_ABORT, REQUEST_OFFER,  REQUEST_ANSWER, REQUEST_EMOTE,
		REQUEST_REDO,  REQUEST_WINNER,
	};
	struct fuzz_spec *spec = fuzz_spec_pick(fuzz_byte(), true);
	uint8_t r = fuzz_byte();
	struct request req = { .type = types[r % 10],
			       .what = (enum offer_what)(r % OFFER_COUNT),
			       .accept = (r & 0x80) != 0 };
	struct lobby_stats stats = fuzz.lobby.stats;
	unsigned long records = fuzz.records;
	const struct lobby_room *room;
	int moves = 0;
	bool over = false;
	enum role offer_by = ROLE_NONE;

	if (!spec)
		return;
	room = spec->spectator->room;
	if (room) {
		moves = room->game.moves_played;
		over = game_is_over(&room->game);
		offer_by = room->offer_by;
	}
	lobby_spectator_request(&fuzz.lobby, spec->spectator, &req);
	fuzz_check(fuzz.spec_event_count == 1 &&
			   fuzz.spec_events[0].conn == spec->conn &&
			   fuzz.spec_events[0].type ==
				   (req.type == REQUEST_PING ? EVENT_PONG :
							       EVENT_ERROR) &&
			   (req.type == REQUEST_PING ||
			    fuzz.spec_events[0].code == ERR_SPECTATOR),
		   "a spectator's request %d was answered wrong", req.type);
	fuzz_check(fuzz.event_count == 0 && fuzz.count_events == 0 &&
			   fuzz.records == records &&
			   !memcmp(&stats, &fuzz.lobby.stats, sizeof(stats)),
		   "a spectator's request reached others, the journal or "
		   "the stats");
	fuzz_check(spec->spectator->room == room &&
			   (!room || (room->game.moves_played == moves &&
				      game_is_over(&room->game) == over &&
				      room->offer_by == offer_by)),
		   "a spectator's request changed its room");
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
		.first_move_ms = (header[0] & 8) ? 2000 : 5000,
		.ai_fill_after_ms = (header[1] & 0x40) ? 20000 : 0,
		.ai_fill_level = ENGINE_EASY,
		.max_spectators = FUZZ_MAX_SPECTATORS,
	};
	if (header[1] & 0x20) /* the default pool is timed too: 10+1 */
		config.time_control = (struct time_control){ .base_ms = 10000,
							     .inc_ms = 1000 };
	/* The pools a join names: 1 another size, 2 10+0, 3 10+2 on 6x6. */
	fuzz.keys[0] = (struct lobby_pool_key){ config.board_size, config.rule,
						config.time_control };
	fuzz.keys[1] = (struct lobby_pool_key){ config.board_size == 7 ? 9 : 7,
						config.rule,
						{ 0, 0 } };
	fuzz.keys[2] = (struct lobby_pool_key){ config.board_size,
						config.rule,
						{ 10000, 0 } };
	fuzz.keys[3] =
		(struct lobby_pool_key){ 6, RULE_FREESTYLE, { 10000, 2000 } };
	for (i = 0; i < 4; i++)
		fuzz_check(lobby_pool_key_valid(&fuzz.keys[i]),
			   "pool %zu is not valid", i);
	fuzz_check(!lobby_init(&fuzz.lobby, &config,
			       (struct lobby_random){ fuzz_fill_random, NULL },
			       (struct lobby_sink){ .send = fuzz_send,
						    .record = fuzz_record,
						    .think = fuzz_think }),
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
				op < 0xa0  ? op % 10 :
				op >= 0xf8 ? 18 + (op - 0xf8) % 3 :
					     10 + (op - 0xa0) % 8,
				fuzz.pos - 1, (unsigned long long)fuzz.now);
		if (op >= 0xf8) {
			if ((op - 0xf8) % 3 == 0)
				fuzz_op_watch();
			else if ((op - 0xf8) % 3 == 1)
				fuzz_op_unwatch();
			else
				fuzz_op_spectator_request();
			fuzz_check_lobby();
			fuzz_events_clear();
			continue;
		}
		switch (op < 0xa0 ? op % 10 : 10 + (op - 0xa0) % 8) {
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
		case 7:
		case 8:
			fuzz_op_play();
			break;
		case 10:
			fuzz_op_join();
			break;
		case 11:
			fuzz_op_resign();
			break;
		case 12:
			fuzz_op_offer();
			break;
		case 13:
			fuzz_op_answer();
			break;
		case 14:
			fuzz_op_emote();
			break;
		case 15:
			fuzz_op_text();
			break;
		case 16:
			fuzz_op_engine();
			break;
		default:
			fuzz_op_deadline();
			break;
		}
		fuzz_check_lobby();
		fuzz_events_clear();
	}
	lobby_release(&fuzz.lobby);
	return 0;
}
