/*
 * test_lobby.c - the queue, matching, rooms, move routing, errors,
 * disconnects, takeovers, the reconnect grace, the journal hook, restored
 * games and counters of the lobby, through a sink that records every event
 * and every journal fact, and a random source that replays scripted bytes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lobby.h"
#include "expect.h"

#define MAX_UIDS 1000
#define MAX_FACTS 64

/* The reconnect grace of the grace tests, and a clock reading of theirs. */
#define GRACE_MS 30000
#define T0 1000000

/* A copy of one event the lobby sent, with what it pointed to. */
struct record {
	void *conn;			   /* the receiving connection */
	enum event_type type;		   /* what was sent */
	enum role role;			   /* ROLE */
	char room[UID_LEN + 1];		   /* ROLE */
	bool has_opponent;		   /* ROLE: it named an opponent */
	char opponent[NAME_MAX_BYTES + 1]; /* ROLE */
	enum error_code code;		   /* ERROR */
	char text[128];			   /* ERROR, DISCONNECT */
	enum game_winner winner;	   /* WINNER */
	enum game_reason reason;	   /* WINNER */
	struct win_line line;		   /* WINNER */
	int moves;			   /* BOARD, WINNER: moves played */
	struct cell move;		   /* BOARD: the last move */
	int seconds;			   /* OPPONENT_AWAY */
	bool resume;			   /* BOARD: a returner's position */
	bool undo;			   /* BOARD: a takeback's */
	struct cell undo_cell;		   /* BOARD with undo */
	enum role undo_role;		   /* BOARD with undo */
	bool accept;			   /* ANSWER */
	enum role by;			   /* OFFER, ANSWER */
	char ai_level[16];		   /* ROLE: the engine's level */
	char *json;			   /* encoded, or NULL for REPLACED */
};

/* A copy of one fact the lobby told the journal (lobby_sink.record). */
struct fact {
	enum lobby_record type;	       /* what happened */
	const struct lobby_room *room; /* the room it happened in */
	char room_id[UID_LEN + 1];     /* read during the call */
	int moves;		       /* moves played at the time */
	enum game_reason reason;       /* the game's end at the time */
	bool seated[ROLE_COUNT];       /* by role: a player in the seat */
	size_t events_before;	       /* events sent before it */
};

/* One of these per test: the lobby and what it has said and drawn. */
struct fixture {
	struct lobby lobby;		  /* the lobby under test */
	bool released;			  /* lobby_release() already called */
	struct record *records;		  /* every event, in order */
	size_t count;			  /* records used */
	size_t capacity;		  /* records allocated */
	uint8_t script[256];		  /* random bytes to hand out */
	size_t script_len;		  /* bytes scripted */
	size_t script_pos;		  /* bytes handed out */
	bool endless;			  /* after the script, count upwards */
	uint8_t counter;		  /* the next byte when endless */
	char uids[MAX_UIDS][UID_LEN + 1]; /* uid i of the test */
	char conns[2 * MAX_UIDS];	  /* &conns[i] is connection i */
	struct fact facts[MAX_FACTS];	  /* every fact, in order */
	size_t fact_count;		  /* facts used */
	int thinks;			  /* lobby_sink.think calls */
	struct lobby_ai_ticket ticket;	  /* the last think's ticket */
};

static void record_event(void *ctx, void *conn, const struct event *ev)
{
	struct fixture *f = ctx;
	struct record *r;
	size_t len;

	if (f->count == f->capacity) {
		f->capacity = f->capacity ? 2 * f->capacity : 64;
		f->records =
			realloc(f->records, f->capacity * sizeof(*f->records));
		assert_non_null(f->records);
	}
	if (!conn)
		fail_msg("event %d was sent to a NULL connection", ev->type);
	r = &f->records[f->count++];
	memset(r, 0, sizeof(*r));
	r->conn = conn;
	r->seconds = ev->seconds;
	r->resume = ev->resume;
	r->type = ev->type;
	r->role = ev->role;
	r->code = ev->code;
	r->undo = ev->undo;
	r->undo_cell = ev->undo_cell;
	r->undo_role = ev->undo_role;
	r->accept = ev->accept;
	r->by = ev->by;
	if (ev->ai_level)
		snprintf(r->ai_level, sizeof(r->ai_level), "%s", ev->ai_level);
	if (ev->room_id)
		snprintf(r->room, sizeof(r->room), "%s", ev->room_id);
	if (ev->opponent_name && ev->opponent_name[0]) {
		r->has_opponent = true;
		snprintf(r->opponent, sizeof(r->opponent), "%s",
			 ev->opponent_name);
	}
	if (ev->text)
		snprintf(r->text, sizeof(r->text), "%s", ev->text);
	if (ev->game) {
		r->winner = ev->game->winner;
		r->reason = ev->game->reason;
		r->line = ev->game->line;
		r->moves = ev->game->moves_played;
		r->move = ev->game->last_move;
	}
	if (ev->type != EVENT_REPLACED) {
		r->json = protocol_encode(ev, 0, &len);
		if (!r->json)
			fail_msg("event type %d could not be encoded",
				 ev->type);
	}
}

static void record_fact(void *ctx, enum lobby_record type,
			const struct lobby_room *room)
{
	struct fixture *f = ctx;
	struct fact *fact;

	if (f->fact_count == MAX_FACTS)
		fail_msg("more than %d facts recorded", MAX_FACTS);
	fact = &f->facts[f->fact_count++];
	fact->type = type;
	fact->room = room;
	snprintf(fact->room_id, sizeof(fact->room_id), "%s", room->id);
	fact->moves = room->game.moves_played;
	fact->reason = room->game.reason;
	fact->seated[ROLE_FRONT] = room->seats[ROLE_FRONT] != NULL;
	fact->seated[ROLE_BACK] = room->seats[ROLE_BACK] != NULL;
	fact->events_before = f->count;
}

static void record_think(void *ctx, struct lobby_room *room)
{
	struct fixture *f = ctx;

	if (room->ai_role == ROLE_NONE || room->game.to_move != room->ai_role)
		fail_msg("think called when the engine is not to move");
	f->thinks++;
	lobby_ai_ticket(room, &f->ticket);
}

static void fill_random(void *ctx, void *buf, size_t len)
{
	struct fixture *f = ctx;
	uint8_t *bytes = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		if (f->script_pos < f->script_len)
			bytes[i] = f->script[f->script_pos++];
		else if (f->endless)
			bytes[i] = f->counter++;
		else
			fail_msg("the lobby drew more random bytes than the "
				 "test scripted (%zu)",
				 f->script_len);
	}
}

/* Queues len random bytes for the lobby to draw. */
static void script_bytes(struct fixture *f, const uint8_t *bytes, size_t len)
{
	assert_true(f->script_len + len <= sizeof(f->script));
	memcpy(f->script + f->script_len, bytes, len);
	f->script_len += len;
}

/* Queues the draws of one match: a room id of 16 id_byte, then coin. */
static void script_match(struct fixture *f, uint8_t id_byte, uint8_t coin)
{
	uint8_t bytes[17];

	memset(bytes, id_byte, 16);
	bytes[16] = coin;
	script_bytes(f, bytes, sizeof(bytes));
}

static void forget_records(struct fixture *f)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		free(f->records[i].json);
	f->count = 0;
	f->fact_count = 0;
}

/* (Re)starts f's lobby with config, telling the journal when journal. */
static int start_lobby(struct fixture *f, const struct lobby_config *config,
		       bool journal)
{
	return lobby_init(
		&f->lobby, config, (struct lobby_random){ fill_random, f },
		(struct lobby_sink){ .send = record_event,
				     .record = journal ? record_fact : NULL,
				     .think = record_think,
				     .ctx = f });
}

static int setup_lobby_with(void **state, int size, enum full_board full_board,
			    uint64_t grace_ms, bool journal)
{
	struct lobby_config config = {
		.board_size = size,
		.rule = RULE_FREESTYLE,
		.full_board = full_board,
		.reconnect_grace_ms = grace_ms,
	};
	struct fixture *f = calloc(1, sizeof(*f));
	int i;

	if (!f)
		return -1;
	for (i = 0; i < MAX_UIDS; i++)
		snprintf(f->uids[i], sizeof(f->uids[i]),
			 "%08x-aaaa-4bbb-8ccc-%012x", 0xa0000000u + i, i);
	if (start_lobby(f, &config, journal)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int setup_lobby(void **state, int size, enum full_board full_board)
{
	return setup_lobby_with(state, size, full_board, 0, false);
}

static int setup(void **state)
{
	return setup_lobby(state, 15, FULL_BOARD_BACK);
}

static int setup_small_drawn(void **state)
{
	return setup_lobby(state, 5, FULL_BOARD_DRAW);
}

/* 15x15, a grace of GRACE_MS, and a journal that records every fact. */
static int setup_grace(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, GRACE_MS, true);
}

/* As setup_grace, with no grace: a drop forfeits at once. */
static int setup_journal_no_grace(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, 0, true);
}

/* As setup_grace, with no journal (lobby_sink.record NULL). */
static int setup_grace_no_journal(void **state)
{
	return setup_lobby_with(state, 15, FULL_BOARD_BACK, GRACE_MS, false);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f->released)
		lobby_release(&f->lobby);
	forget_records(f);
	free(f->records);
	free(f);
	return 0;
}

static void *conn(struct fixture *f, int i)
{
	return &f->conns[i];
}

/* Connects player i (uid i) on connection i. */
static struct lobby_player *join(struct fixture *f, int i, const char *name)
{
	struct lobby_player *player;

	player = lobby_connect(&f->lobby, f->uids[i], name, conn(f, i), 0);
	if (!player)
		fail_msg("player %d could not connect", i);
	return player;
}

static const char *type_name(int type)
{
	switch (type) {
	case EVENT_WELCOME:
		return "welcome";
	case EVENT_WAITING:
		return "waiting";
	case EVENT_ROLE:
		return "role";
	case EVENT_BOARD:
		return "board";
	case EVENT_WINNER:
		return "winner";
	case EVENT_DISCONNECT:
		return "disconnect";
	case EVENT_ERROR:
		return "error";
	case EVENT_PONG:
		return "pong";
	case EVENT_OPPONENT_AWAY:
		return "opponent_away";
	case EVENT_OPPONENT_BACK:
		return "opponent_back";
	case EVENT_REPLACED:
		return "replaced";
	case EVENT_OFFER:
		return "offer";
	case EVENT_ANSWER:
		return "answer";
	default:
		return "(not an event)";
	}
}

static const char *code_name(int code)
{
	return code == ERR_NONE ? "none" : error_code_name(code);
}

/* Which connection index c is, for messages. */
static long conn_index(struct fixture *f, void *c)
{
	return (char *)c - f->conns;
}

/* Checks that event i went to connection c with type. */
#define expect_event(f, i, c, want_type)                                       \
	do {                                                                   \
		size_t i_ = (i);                                               \
		if (i_ >= (f)->count)                                          \
			fail_msg("expected event %zu (%s), only %zu sent", i_, \
				 type_name(want_type), (f)->count);            \
		if ((f)->records[i_].conn != conn(f, c) ||                     \
		    (f)->records[i_].type != (want_type))                      \
			fail_msg("event %zu: expected %s to conn %d, "         \
				 "got %s to conn %ld",                         \
				 i_, type_name(want_type), (c),                \
				 type_name((f)->records[i_].type),             \
				 conn_index(f, (f)->records[i_].conn));        \
	} while (0)

#define expect_events(f, n)                                                \
	do {                                                               \
		if ((f)->count != (size_t)(n))                             \
			fail_msg("expected %d events, got %zu%s%s", (n),   \
				 (f)->count, (f)->count ? ", first " : "", \
				 (f)->count ?                              \
					 type_name((f)->records[0].type) : \
					 "");                              \
	} while (0)

/* Checks every counter of the lobby. */
#define expect_stats(f, want_players, want_waiting, want_rooms, want_live, \
		     want_matches, want_moves)                             \
	do {                                                               \
		const struct lobby_stats *s_ = &(f)->lobby.stats;          \
		expect_int(s_->players, want_players);                     \
		expect_int((f)->lobby.queue.count, want_waiting);          \
		expect_int(s_->rooms, want_rooms);                         \
		expect_int(s_->rooms_live, want_live);                     \
		expect_int(s_->matches, want_matches);                     \
		expect_int(s_->moves, want_moves);                         \
	} while (0)

/* The first and last players of the queue and of the away list. */
#define queue_first(f) \
	list_first(&(f)->lobby.queue, struct lobby_player, queue_node)
#define queue_last(f)                                                          \
	((f)->lobby.queue.tail ? list_entry((f)->lobby.queue.tail,             \
					    struct lobby_player, queue_node) : \
				 NULL)
#define away_first(f) \
	list_first(&(f)->lobby.away, struct lobby_player, away_node)
#define away_last(f)                                                         \
	((f)->lobby.away.tail ? list_entry((f)->lobby.away.tail,             \
					   struct lobby_player, away_node) : \
				NULL)

static struct request move_request(int x, int y)
{
	struct request req = { .type = REQUEST_MOVE, .x = x, .y = y };

	return req;
}

static void play(struct fixture *f, struct lobby_player *player, int x, int y)
{
	struct request req = move_request(x, y);

	lobby_request(&f->lobby, player, &req, 0);
}

/* Pairs players 0 and 1 with coin; player 0 queued first. */
static void pair(struct fixture *f, struct lobby_player **p0,
		 struct lobby_player **p1, uint8_t coin)
{
	script_match(f, 0x11, coin);
	*p0 = join(f, 0, "zero");
	*p1 = join(f, 1, "one");
	forget_records(f);
}

/* Checks that no recorded event carries any test uid. */
static void expect_no_uid_sent(struct fixture *f, int uids)
{
	size_t i;
	int u;

	for (i = 0; i < f->count; i++) {
		if (!f->records[i].json)
			continue;
		for (u = 0; u < uids; u++)
			if (strstr(f->records[i].json, f->uids[u]))
				fail_msg("event %zu carries uid %d: %s", i, u,
					 f->records[i].json);
	}
}

static void init_refuses_a_bad_config(void **state)
{
	struct lobby_config config = { .board_size = 4 };
	struct lobby_random random = { fill_random, NULL };
	struct lobby_sink sink = { .send = record_event };
	struct lobby lobby;

	(void)state;
	expect_int(lobby_init(&lobby, &config, random, sink), -EINVAL);
	config.board_size = 26;
	expect_int(lobby_init(&lobby, &config, random, sink), -EINVAL);
	config.board_size = 15;
	expect_int(lobby_init(&lobby, &config,
			      (struct lobby_random){ NULL, NULL }, sink),
		   -EINVAL);
	expect_int(lobby_init(&lobby, &config, random,
			      (struct lobby_sink){ .send = NULL }),
		   -EINVAL);
	expect_int(lobby_init(&lobby, &config, random, sink), 0);
	lobby_release(&lobby);
}

static void the_first_player_waits_alone(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = join(f, 0, "zero");
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_int(p0->state, PLAYER_WAITING);
	expect_str(p0->uid, f->uids[0]);
	expect_str(p0->name, "zero");
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 1, 1, 0, 0, 0, 0);
}

static void the_first_two_players_are_paired_and_the_third_waits(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	p1 = join(f, 1, "one");
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	p2 = join(f, 2, "two");
	expect_events(f, 5);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_event(f, 1, 1, EVENT_WAITING);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	expect_event(f, 4, 2, EVENT_WAITING);
	expect_int(p0->state, PLAYER_PLAYING);
	expect_int(p1->state, PLAYER_PLAYING);
	expect_int(p2->state, PLAYER_WAITING);
	assert_ptr_equal(p0->room, p1->room);
	assert_ptr_equal(queue_first(f), p2);
	assert_ptr_equal(queue_last(f), p2);
	expect_stats(f, 3, 1, 1, 1, 1, 0);
}

static void the_queue_pairs_first_come_first_served(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[5];
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 5; i++)
		p[i] = join(f, i, NULL);
	assert_ptr_equal(p[0]->room, p[1]->room);
	assert_ptr_equal(p[2]->room, p[3]->room);
	assert_ptr_not_equal(p[0]->room, p[2]->room);
	expect_int(p[4]->state, PLAYER_WAITING);
	expect_stats(f, 5, 1, 2, 2, 2, 0);
}

static void an_even_random_byte_makes_the_first_in_line_front(void **state)
{
	static const uint8_t coins[] = { 0, 2, 0xfe };
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(coins); i++) {
		pair(f, &p0, &p1, coins[i]);
		if (p0->role != ROLE_FRONT || p1->role != ROLE_BACK)
			fail_msg("coin %u: first queued is %s, expected front",
				 coins[i], role_name(p0->role));
		assert_ptr_equal(p0->room->seats[ROLE_FRONT], p0);
		assert_ptr_equal(p0->room->seats[ROLE_BACK], p1);
		lobby_disconnect(&f->lobby, p0, false, 0);
		lobby_disconnect(&f->lobby, p1, false, 0);
	}
}

static void an_odd_random_byte_makes_the_first_in_line_back(void **state)
{
	static const uint8_t coins[] = { 1, 3, 0xff };
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(coins); i++) {
		script_match(f, 0x11, coins[i]);
		p0 = join(f, 0, NULL);
		p1 = join(f, 1, NULL);
		if (p0->role != ROLE_BACK || p1->role != ROLE_FRONT)
			fail_msg("coin %u: first queued is %s, expected back",
				 coins[i], role_name(p0->role));
		/* Role goes to front first: here the second player. */
		expect_event(f, f->count - 2, 1, EVENT_ROLE);
		expect_int(f->records[f->count - 2].role, ROLE_FRONT);
		expect_event(f, f->count - 1, 0, EVENT_ROLE);
		expect_int(f->records[f->count - 1].role, ROLE_BACK);
		lobby_disconnect(&f->lobby, p0, false, 0);
		lobby_disconnect(&f->lobby, p1, false, 0);
	}
}

static void role_names_the_opponent_and_never_its_uid(void **state)
{
	struct fixture *f = *state;

	script_match(f, 0x11, 0);
	join(f, 0, "alice");
	join(f, 1, "");
	expect_event(f, 2, 0, EVENT_ROLE);
	assert_false(f->records[2].has_opponent);
	expect_event(f, 3, 1, EVENT_ROLE);
	assert_true(f->records[3].has_opponent);
	expect_str(f->records[3].opponent, "alice");
	expect_int(f->records[2].role, ROLE_FRONT);
	expect_int(f->records[3].role, ROLE_BACK);
	expect_no_uid_sent(f, 2);
}

static void room_ids_are_uuids_from_the_random_bytes(void **state)
{
	struct fixture *f = *state;
	char checked[UID_LEN + 1];

	script_match(f, 0x11, 0);
	script_match(f, 0xab, 0);
	join(f, 0, NULL);
	join(f, 1, NULL);
	join(f, 2, NULL);
	join(f, 3, NULL);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	expect_str(f->records[2].room, "11111111-1111-4111-9111-111111111111");
	expect_str(f->records[3].room, f->records[2].room);
	expect_event(f, 6, 2, EVENT_ROLE);
	expect_event(f, 7, 3, EVENT_ROLE);
	expect_str(f->records[6].room, "abababab-abab-4bab-abab-abababababab");
	expect_str(f->records[7].room, f->records[6].room);
	assert_true(identity_check_uid(f->records[6].room, checked));
	expect_str(checked, f->records[6].room);
}

static void a_move_reaches_both_players_front_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 1); /* player 1 is front */
	play(f, p1, 7, 7);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_int(f->records[0].moves, 1);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->records[0].move.y, 7);
	expect_str(f->records[0].json, f->records[1].json);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	forget_records(f);
	play(f, p0, 8, 7);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_int(f->records[1].moves, 2);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
}

static void a_seed_form_board_is_played_as_a_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request req = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	pair(f, &p0, &p1, 0);
	req.cells[3 * 15 + 4] = ROLE_FRONT;
	lobby_request(&f->lobby, p0, &req, 0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[0].move.x, 4);
	expect_int(f->records[0].move.y, 3);
	expect_int(p0->room->game.to_move, ROLE_BACK);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
}

static void moves_in_one_room_never_reach_another_room(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	struct request ping = { .type = REQUEST_PING };
	size_t i;
	int k;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (k = 0; k < 4; k++)
		p[k] = join(f, k, NULL);
	forget_records(f);
	for (k = 0; k < 4; k++) {
		play(f, p[0], k, 0);
		play(f, p[1], k, 1);
	}
	play(f, p[0], 4, 0);
	play(f, p[1], 9, 9);
	lobby_request(&f->lobby, p[0], &ping, 0);
	lobby_disconnect(&f->lobby, p[1], false, 0);
	for (i = 0; i < f->count; i++)
		if (f->records[i].conn == conn(f, 2) ||
		    f->records[i].conn == conn(f, 3))
			fail_msg("event %zu (%s) of room A reached room B", i,
				 type_name(f->records[i].type));
	expect_int(p[2]->room->game.moves_played, 0);
	expect_int(p[2]->room->game.winner, WINNER_NONE);
}

/*
 * Checks that req from player is refused with code, sent to player only,
 * and that nothing else changed.
 */
static void expect_refusal(struct fixture *f, struct lobby_player *player,
			   const struct request *req, enum error_code code)
{
	struct lobby_stats stats = f->lobby.stats;
	struct game game;

	if (player->room)
		game = player->room->game;
	forget_records(f);
	lobby_request(&f->lobby, player, req, 0);
	if (f->count != 1 || f->records[0].type != EVENT_ERROR)
		fail_msg("expected one error, got %zu events, first %s",
			 f->count,
			 f->count ? type_name(f->records[0].type) : "-");
	if (f->records[0].conn != player->conn)
		fail_msg("the error went to conn %ld, not the requester",
			 conn_index(f, f->records[0].conn));
	expect_enum(f->records[0].code, code, code_name);
	if (!f->records[0].text[0])
		fail_msg("error %s came without a message", code_name(code));
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	if (player->room)
		assert_memory_equal(&game, &player->room->game, sizeof(game));
	forget_records(f);
}

static void
a_paused_lobby_refuses_every_request_but_ping_until_resumed(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);
	struct request offer = { .type = REQUEST_OFFER };
	struct request answer = { .type = REQUEST_ANSWER, .accept = true };
	struct request redo = { .type = REQUEST_REDO };
	struct request ping = { .type = REQUEST_PING };

	pair(f, &p0, &p1, 0);
	lobby_pause(&f->lobby, true);
	expect_refusal(f, p0, &move, ERR_UNAVAILABLE);
	expect_refusal(f, p1, &move, ERR_UNAVAILABLE);
	expect_refusal(f, p0, &offer, ERR_UNAVAILABLE);
	expect_refusal(f, p1, &answer, ERR_UNAVAILABLE);
	expect_refusal(f, p0, &redo, ERR_UNAVAILABLE);
	lobby_request(&f->lobby, p0, &ping, 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_PONG);
	forget_records(f);
	/* Players still pair meanwhile: a room is journalled with a move. */
	script_match(f, 0x22, 0);
	join(f, 2, NULL);
	join(f, 3, NULL);
	expect_stats(f, 4, 0, 2, 2, 2, 0);
	forget_records(f);
	lobby_pause(&f->lobby, false);
	play(f, p0, 7, 7);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
}

static void a_move_before_being_matched_is_not_in_game(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;
	struct request move = move_request(7, 7);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	p0 = join(f, 0, NULL);
	expect_refusal(f, p0, &move, ERR_NOT_IN_GAME);
	board.cells[0] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_NOT_IN_GAME);
	expect_stats(f, 1, 1, 0, 0, 0, 0);
}

static void a_move_out_of_turn_is_not_your_turn(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p1, &move, ERR_NOT_YOUR_TURN);
	play(f, p0, 7, 7);
	move = move_request(8, 8);
	expect_refusal(f, p0, &move, ERR_NOT_YOUR_TURN);
}

static void a_move_off_the_board_is_out_of_range(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(15, 0);

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p0, &move, ERR_OUT_OF_RANGE);
	move = move_request(-1, -1);
	expect_refusal(f, p0, &move, ERR_OUT_OF_RANGE);
}

static void a_move_on_a_stone_is_occupied(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(7, 7);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	expect_refusal(f, p1, &move, ERR_OCCUPIED);
	board.cells[7 * 15 + 7] = ROLE_BACK;
	expect_refusal(f, p1, &board, ERR_OCCUPIED);
}

static void a_move_after_the_game_is_over_is_game_over(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(9, 9);
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	expect_refusal(f, p1, &move, ERR_GAME_OVER);
	expect_refusal(f, p0, &move, ERR_GAME_OVER);
	memcpy(board.cells, p1->room->game.board.cells, sizeof(board.cells));
	board.cells[9 * 15 + 9] = ROLE_BACK;
	expect_refusal(f, p1, &board, ERR_GAME_OVER);
}

static void a_board_that_is_not_one_new_stone_is_bad_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_FRONT };

	pair(f, &p0, &p1, 0);
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	board.cells[0] = ROLE_FRONT;
	board.cells[1] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	board.cells[1] = ROLE_NONE;
	board.cells[0] = ROLE_BACK;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
}

static void a_board_naming_the_other_side_is_bad_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };

	pair(f, &p0, &p1, 0);
	board.cells[0] = ROLE_FRONT;
	expect_refusal(f, p0, &board, ERR_BAD_BOARD);
	/* Out of turn, the turn is what is wrong. */
	board.cells[0] = ROLE_BACK;
	board.role = ROLE_FRONT;
	expect_refusal(f, p1, &board, ERR_NOT_YOUR_TURN);
}

static void a_five_sends_board_then_winner_with_line_to_both(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	const struct record *r;
	int i;

	pair(f, &p0, &p1, 1); /* player 1 is front */
	for (i = 0; i < 4; i++) {
		play(f, p1, 10, 2 + i);
		play(f, p0, 11, 2 + i);
	}
	forget_records(f);
	play(f, p1, 10, 6);
	expect_events(f, 4);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_event(f, 2, 1, EVENT_WINNER);
	expect_event(f, 3, 0, EVENT_WINNER);
	for (i = 2; i < 4; i++) {
		r = &f->records[i];
		expect_int(r->winner, WINNER_FRONT);
		expect_int(r->reason, REASON_FIVE);
		expect_int(r->line.length, 5);
		expect_int(r->line.cells[0].x, 10);
		expect_int(r->line.cells[0].y, 2);
		expect_int(r->line.cells[4].y, 6);
		assert_non_null(
			strstr(r->json, "\"line\":[{\"x\":10,\"y\":2}"));
	}
	expect_stats(f, 2, 0, 1, 0, 1, 9);
	expect_int(f->lobby.stats.games_finished[REASON_FIVE], 1);
	expect_int(f->lobby.stats.games_finished[REASON_FULL], 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
}

static void a_full_board_is_a_draw_sent_to_both(void **state)
{
	/* Row by row, front (F) and back (B): no five anywhere. */
	static const char fill[] = "FBFBF"
				   "FFBFB"
				   "FBBBF"
				   "BFBFB"
				   "FBFBF";
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *mover;
	struct cell cells[2][13];
	int counts[2] = { 0, 0 };
	int x, y, i;

	pair(f, &p0, &p1, 0);
	for (y = 0; y < 5; y++)
		for (x = 0; x < 5; x++) {
			int side = fill[y * 5 + x] == 'F' ? 0 : 1;

			cells[side][counts[side]++] = (struct cell){ x, y };
		}
	for (i = 0; i < 25; i++) {
		const struct cell *c = &cells[i % 2][i / 2];

		mover = i % 2 ? p1 : p0;
		forget_records(f);
		play(f, mover, c->x, c->y);
		expect_event(f, 0, 0, EVENT_BOARD);
	}
	expect_events(f, 4);
	expect_event(f, 2, 0, EVENT_WINNER);
	expect_event(f, 3, 1, EVENT_WINNER);
	expect_int(f->records[3].winner, WINNER_DRAW);
	expect_int(f->records[3].reason, REASON_FULL);
	assert_null(strstr(f->records[3].json, "line"));
	expect_stats(f, 2, 0, 1, 0, 1, 25);
	expect_int(f->lobby.stats.games_finished[REASON_FULL], 1);
}

static void ping_gets_pong_and_a_winner_claim_gets_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;
	struct request ping = { .type = REQUEST_PING };
	struct request claim = { .type = REQUEST_WINNER };

	pair(f, &p0, &p1, 0);
	p2 = join(f, 2, NULL);
	forget_records(f);
	lobby_request(&f->lobby, p1, &ping, 0);
	lobby_request(&f->lobby, p2, &ping, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_PONG);
	expect_event(f, 1, 2, EVENT_PONG);
	forget_records(f);
	lobby_request(&f->lobby, p0, &claim, 0);
	lobby_request(&f->lobby, p2, &claim, 0);
	expect_events(f, 0);
	assert_false(game_is_over(&p0->room->game));
	expect_stats(f, 3, 1, 1, 1, 1, 0);
}

static void a_waiting_player_who_leaves_is_never_matched(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *p2;

	p0 = join(f, 0, NULL);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 1);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	assert_null(queue_first(f));
	assert_null(queue_last(f));
	assert_null(lobby_find(&f->lobby, f->uids[0]));

	script_match(f, 0x11, 0);
	p1 = join(f, 1, NULL);
	p2 = join(f, 2, NULL);
	assert_ptr_equal(p1->room, p2->room);
	expect_int(p1->role, ROLE_FRONT);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
}

static void leaving_a_live_game_sends_forfeit_then_disconnect(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request move = move_request(9, 9);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	assert_null(strstr(f->records[0].json, "line"));
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_str(f->records[1].text, "opponent left");
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
	assert_null(p1->room->seats[ROLE_FRONT]);
	assert_null(lobby_find(&f->lobby, f->uids[0]));

	expect_refusal(f, p1, &move, ERR_GAME_OVER);
	lobby_disconnect(&f->lobby, p1, false, 0);
	expect_events(f, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 1);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
}

static void leaving_after_the_game_is_over_sends_only_disconnect(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, false, 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_DISCONNECT);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 0);
	expect_int(f->lobby.stats.games_finished[REASON_FIVE], 1);
	expect_stats(f, 1, 0, 1, 0, 1, 9);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 9);
}

static void players_who_leave_and_return_are_matched_anew(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char first_room[UID_LEN + 1];

	pair(f, &p0, &p1, 0);
	snprintf(first_room, sizeof(first_room), "%s", p0->room->id);
	lobby_disconnect(&f->lobby, p0, false, 0);
	lobby_disconnect(&f->lobby, p1, false, 0);
	script_match(f, 0x22, 1);
	p1 = join(f, 1, NULL);
	p0 = join(f, 0, NULL);
	assert_ptr_equal(p0->room, p1->room);
	expect_int(p1->role, ROLE_BACK);
	if (strcmp(p0->room->id, first_room) == 0)
		fail_msg("the new room reused id %s", first_room);
	expect_stats(f, 2, 0, 1, 1, 2, 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], 1);
}

static void the_same_uid_takes_over_with_role_and_board(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *again;
	struct lobby_stats stats;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	forget_records(f);
	stats = f->lobby.stats;
	again = lobby_connect(&f->lobby, f->uids[0], "zero again", conn(f, 100),
			      0);
	assert_ptr_equal(again, p0);
	expect_events(f, 3);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_str(f->records[1].room, p0->room->id);
	expect_str(f->records[1].opponent, "one");
	expect_event(f, 2, 100, EVENT_BOARD);
	expect_int(f->records[2].moves, 2);
	expect_int(f->records[2].move.x, 8);
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	expect_str(p0->name, "zero again");
	assert_ptr_equal(p0->conn, conn(f, 100));

	/* Later events go to the new connection only. */
	forget_records(f);
	play(f, p0, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
}

static void a_takeover_before_any_move_gets_role_only(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 1);
	lobby_connect(&f->lobby, f->uids[1], "one", conn(f, 101), 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_REPLACED);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
}

static void a_takeover_of_a_finished_game_gets_the_winner(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	play(f, p0, 4, 0);
	forget_records(f);
	lobby_connect(&f->lobby, f->uids[1], "", conn(f, 101), 0);
	expect_events(f, 4);
	expect_event(f, 0, 1, EVENT_REPLACED);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_event(f, 2, 101, EVENT_BOARD);
	expect_event(f, 3, 101, EVENT_WINNER);
	expect_int(f->records[3].winner, WINNER_FRONT);
	expect_int(f->records[3].line.length, 5);
	expect_stats(f, 2, 0, 1, 0, 1, 9);
}

static void a_takeover_of_a_waiting_seat_keeps_waiting(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *again;

	p0 = join(f, 0, "zero");
	forget_records(f);
	again = lobby_connect(&f->lobby, f->uids[0], "", conn(f, 100), 0);
	assert_ptr_equal(again, p0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_WAITING);
	expect_str(p0->name, "");
	expect_stats(f, 1, 1, 0, 0, 0, 0);

	/* The seat is still first in line. */
	script_match(f, 0x11, 0);
	join(f, 1, NULL);
	expect_int(p0->state, PLAYER_PLAYING);
	expect_int(p0->role, ROLE_FRONT);
	expect_event(f, f->count - 2, 100, EVENT_ROLE);
}

static void a_seat_taken_over_then_left_forfeits_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	lobby_connect(&f->lobby, f->uids[0], NULL, conn(f, 100), 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, false, 0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_stats(f, 1, 0, 1, 0, 1, 0);
}

static void no_event_to_anyone_carries_a_whole_uid(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	struct request bad = move_request(99, 0);
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 1);
	for (i = 0; i < 4; i++)
		p[i] = join(f, i, i % 2 ? "" : "name");
	for (i = 0; i < 4; i++) {
		play(f, p[0], i, 0);
		play(f, p[1], i, 1);
	}
	play(f, p[0], 4, 0);
	lobby_request(&f->lobby, p[1], &bad, 0);
	lobby_connect(&f->lobby, f->uids[2], "back", conn(f, 102), 0);
	lobby_disconnect(&f->lobby, p[3], false, 0);
	lobby_disconnect(&f->lobby, p[0], false, 0);
	expect_no_uid_sent(f, 4);
}

static void the_seat_table_grows_and_finds_1000_players(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *players[MAX_UIDS];
	size_t buckets;
	int i;

	f->endless = true;
	for (i = 0; i < MAX_UIDS; i++)
		players[i] = join(f, i, NULL);
	buckets = f->lobby.seat_buckets;
	if (buckets < MAX_UIDS || (buckets & (buckets - 1)))
		fail_msg("%zu buckets for %d players", buckets, MAX_UIDS);
	expect_stats(f, MAX_UIDS, 0, MAX_UIDS / 2, MAX_UIDS / 2, MAX_UIDS / 2,
		     0);
	for (i = 0; i < MAX_UIDS; i++)
		if (lobby_find(&f->lobby, f->uids[i]) != players[i])
			fail_msg("player %d not found after growth", i);

	/* Leave in an order unrelated to the joins: 7 is prime to 1000. */
	for (i = 0; i < MAX_UIDS; i++)
		lobby_disconnect(&f->lobby, players[(i * 7) % MAX_UIDS], false,
				 0);
	for (i = 0; i < MAX_UIDS; i++)
		if (lobby_find(&f->lobby, f->uids[i]))
			fail_msg("player %d found after leaving", i);
	expect_stats(f, 0, 0, 0, 0, MAX_UIDS / 2, 0);
	expect_int(f->lobby.stats.games_finished[REASON_FORFEIT], MAX_UIDS / 2);
}

static void release_frees_every_seat_and_room_without_sending(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[5];
	size_t sent;
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 5; i++)
		p[i] = join(f, i, NULL);
	play(f, p[0], 7, 7);
	lobby_disconnect(&f->lobby, p[3], false, 0); /* room B half empty */
	sent = f->count;
	lobby_release(&f->lobby);
	f->released = true;
	expect_int(f->count, sent);
	assert_null(f->lobby.seats);
	expect_int(f->lobby.stats.players, 0);
}

/* --- The reconnect grace, the journal and restored games. --- */

static const char *fact_name(int type)
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
	default:
		return "(not a fact)";
	}
}

/* Checks that fact i is want_type, recorded after want_before events. */
#define expect_fact(f, i, want_type, want_before)                              \
	do {                                                                   \
		size_t i_ = (i);                                               \
		const struct fact *fact_;                                      \
		if (i_ >= (f)->fact_count)                                     \
			fail_msg("expected fact %zu (%s), only %zu recorded",  \
				 i_, fact_name(want_type), (f)->fact_count);   \
		fact_ = &(f)->facts[i_];                                       \
		if (fact_->type != (want_type))                                \
			fail_msg("fact %zu: expected %s, got %s", i_,          \
				 fact_name(want_type),                         \
				 fact_name(fact_->type));                      \
		if (fact_->events_before != (size_t)(want_before))             \
			fail_msg("fact %zu (%s): expected after %zu events, "  \
				 "got after %zu",                              \
				 i_, fact_name(want_type),                     \
				 (size_t)(want_before), fact_->events_before); \
	} while (0)

#define expect_facts(f, n)                                               \
	do {                                                             \
		if ((f)->fact_count != (size_t)(n))                      \
			fail_msg("expected %d facts, got %zu%s%s", (n),  \
				 (f)->fact_count,                        \
				 (f)->fact_count ? ", first " : "",      \
				 (f)->fact_count ?                       \
					 fact_name((f)->facts[0].type) : \
					 "");                            \
	} while (0)

#define expect_away(f, want_away) expect_int((f)->lobby.away.count, want_away)

/* Checks the finished games counters, by reason. */
#define expect_finished(f, want_five, want_full, want_forfeit)                \
	do {                                                                  \
		const struct lobby_stats *s_ = &(f)->lobby.stats;             \
		expect_int(s_->games_finished[REASON_FIVE], want_five);       \
		expect_int(s_->games_finished[REASON_FULL], want_full);       \
		expect_int(s_->games_finished[REASON_FORFEIT], want_forfeit); \
	} while (0)

/* Connects uid i again on connection c at now_ms. */
static struct lobby_player *rejoin(struct fixture *f, int i, const char *name,
				   int c, uint64_t now_ms)
{
	struct lobby_player *player;

	player = lobby_connect(&f->lobby, f->uids[i], name, conn(f, c), now_ms);
	if (!player)
		fail_msg("player %d could not connect again", i);
	return player;
}

/* The player's connection dropped (not on purpose) at now_ms. */
static void drop(struct fixture *f, struct lobby_player *player,
		 uint64_t now_ms)
{
	lobby_disconnect(&f->lobby, player, false, now_ms);
}

/* Front (player 0 after pair(f, ..., 0)) makes five on row 0. */
static void play_to_five(struct fixture *f, struct lobby_player *front,
			 struct lobby_player *back)
{
	int i;

	for (i = 0; i < 4; i++) {
		play(f, front, i, 0);
		play(f, back, i, 1);
	}
	play(f, front, 4, 0);
}

/* Restarts f's lobby, same settings and journal, with another grace. */
static void restart_with_grace(struct fixture *f, uint64_t grace_ms)
{
	struct lobby_config config = f->lobby.config;
	bool journal = f->lobby.sink.record != NULL;

	lobby_release(&f->lobby);
	config.reconnect_grace_ms = grace_ms;
	if (start_lobby(f, &config, journal))
		fail_msg("the lobby could not restart with a grace of %llu ms",
			 (unsigned long long)grace_ms);
}

static void a_dropped_player_keeps_the_seat_for_the_grace(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
	expect_int(f->records[0].seconds, 30);
	expect_str(f->records[0].json,
		   "{\"type\":\"opponent_away\",\"seconds\":30}");
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	assert_null(p0->conn);
	expect_int(p0->away_until, T0 + GRACE_MS);
	expect_int(p0->state, PLAYER_PLAYING);
	assert_ptr_equal(p0->room->seats[ROLE_FRONT], p0);
	assert_false(game_is_over(&p0->room->game));
	assert_ptr_equal(away_first(f), p0);
	assert_ptr_equal(away_last(f), p0);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 0);
}

static void leaving_on_purpose_forfeits_at_once_despite_the_grace(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(away_first(f));
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void a_drop_without_grace_forfeits_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p1, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_FRONT);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	assert_null(away_first(f));
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void a_waiting_player_who_drops_is_freed_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	p0 = join(f, 0, "zero");
	expect_stats(f, 1, 1, 0, 0, 0, 0);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 0);
	expect_facts(f, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(queue_first(f));
	assert_null(away_first(f));
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void a_drop_after_the_game_is_over_frees_the_seat_at_once(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play_to_five(f, p0, p1);
	forget_records(f);
	drop(f, p1, T0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 9);
	expect_away(f, 0);
	expect_finished(f, 1, 0, 0);

	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 9);
	expect_away(f, 0);
}

static void opponent_away_counts_whole_seconds_rounded_up(void **state)
{
	static const struct {
		uint64_t grace_ms;
		int seconds;
	} cases[] = {
		{ 1, 1 },    { 999, 1 },  { 1000, 1 },	 { 1001, 2 },
		{ 1500, 2 }, { 2000, 2 }, { 30000, 30 }, { 3600000, 3600 },
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		restart_with_grace(f, cases[i].grace_ms);
		pair(f, &p0, &p1, 0);
		drop(f, p0, T0);
		expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
		if (f->records[0].seconds != cases[i].seconds)
			fail_msg("grace %llu ms: expected %d s, got %d",
				 (unsigned long long)cases[i].grace_ms,
				 cases[i].seconds, f->records[0].seconds);
		forget_records(f);
	}
}

static void a_resume_tells_the_seconds_left_rounded_up(void **state)
{
	static const struct {
		uint64_t after_ms; /* since the opponent dropped */
		int seconds;
	} cases[] = {
		{ 0, 30 },     { 1, 30 },    { 999, 30 },  { 1000, 29 },
		{ 10000, 20 }, { 28999, 2 }, { 29000, 1 }, { 29999, 1 },
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		forget_records(f);
		/* Player 1 takes its own seat over: it hears where 0 is. */
		rejoin(f, 1, "one", 200 + (int)i, T0 + cases[i].after_ms);
		expect_events(f, 3);
		expect_event(f, 2, 200 + (int)i, EVENT_OPPONENT_AWAY);
		if (f->records[2].seconds != cases[i].seconds)
			fail_msg(
				"%llu ms after the drop: expected %d s, got %d",
				(unsigned long long)cases[i].after_ms,
				cases[i].seconds, f->records[2].seconds);
	}
}

static void a_player_back_within_the_grace_resumes_the_game(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1, *again;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	play(f, p1, 8, 8);
	forget_records(f);
	again = rejoin(f, 0, "zero", 100, T0 + 10000);
	assert_ptr_equal(again, p0);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_OPPONENT_BACK);
	expect_str(f->records[0].json, "{\"type\":\"opponent_back\"}");
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_str(f->records[1].room, p0->room->id);
	expect_str(f->records[1].opponent, "one");
	expect_event(f, 2, 100, EVENT_BOARD);
	expect_int(f->records[2].moves, 2);
	expect_int(f->records[2].move.x, 8);
	expect_int(f->records[2].move.y, 8);
	assert_true(f->records[2].resume);
	assert_ptr_equal(p0->conn, conn(f, 100));
	expect_int(p0->away_until, 0);
	assert_null(away_first(f));
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
	expect_away(f, 0);

	/* The deadline that was is forgotten; the game goes on. */
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 0);
	play(f, p0, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	assert_false(f->records[0].resume);
	assert_false(f->records[1].resume);
	expect_stats(f, 2, 0, 1, 1, 1, 3);
}

static void
the_present_player_plays_on_and_the_away_one_hears_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request ping = { .type = REQUEST_PING };
	struct request move = move_request(9, 9);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	forget_records(f);
	play(f, p1, 8, 8);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_BOARD);
	expect_int(f->records[0].moves, 2);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 2);
	expect_away(f, 1);
	expect_int(p0->room->game.to_move, ROLE_FRONT);

	/* Now it is the away player's turn: the present one must wait. */
	expect_refusal(f, p1, &move, ERR_NOT_YOUR_TURN);
	lobby_request(&f->lobby, p1, &ping, 0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_PONG);
	expect_away(f, 1);
}

static void a_returner_whose_game_ended_meanwhile_gets_the_result(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0 + 1000);
	expect_events(f, 0); /* the only one left to tell is away */
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_int(f->facts[0].reason, REASON_FORFEIT);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 1);

	forget_records(f);
	rejoin(f, 0, "zero", 100, T0 + 2000);
	expect_events(f, 4);
	expect_event(f, 0, 100, EVENT_ROLE);
	assert_false(f->records[0].has_opponent);
	expect_event(f, 1, 100, EVENT_BOARD);
	expect_int(f->records[1].moves, 1);
	expect_event(f, 2, 100, EVENT_WINNER);
	expect_int(f->records[2].winner, WINNER_FRONT);
	expect_int(f->records[2].reason, REASON_FORFEIT);
	expect_event(f, 3, 100, EVENT_DISCONNECT);
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);

	forget_records(f);
	lobby_disconnect(&f->lobby, p0, true, T0 + 3000);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 1, 1);
}

static void
both_away_the_first_deadline_forfeits_and_the_second_sees_it(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	expect_events(f, 1);
	expect_event(f, 0, 1, EVENT_OPPONENT_AWAY);
	forget_records(f);
	drop(f, p1, T0 + 5000);
	expect_events(f, 0); /* player 0 is away: nobody to tell */
	assert_ptr_equal(away_first(f), p0);
	assert_ptr_equal(away_last(f), p1);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 2);

	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 0);
	expect_away(f, 2);

	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), T0 + 5000 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[1]), p1);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 1);
	expect_finished(f, 0, 0, 1);

	forget_records(f);
	rejoin(f, 1, "one", 101, T0 + GRACE_MS + 1000);
	expect_events(f, 4);
	expect_event(f, 0, 101, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	assert_false(f->records[0].has_opponent);
	expect_event(f, 1, 101, EVENT_BOARD);
	expect_event(f, 2, 101, EVENT_WINNER);
	expect_int(f->records[2].winner, WINNER_BACK);
	expect_int(f->records[2].reason, REASON_FORFEIT);
	expect_event(f, 3, 101, EVENT_DISCONNECT);
	expect_facts(f, 0);
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + 10 * GRACE_MS), UINT64_MAX);
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[1]), p1);
}

static void a_returner_whose_opponent_is_away_too_is_told_so(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	drop(f, p1, T0 + 5000);
	forget_records(f);
	rejoin(f, 0, "zero", 100, T0 + 20000);
	expect_events(f, 2); /* no board: no move yet; no back: 1 away */
	expect_event(f, 0, 100, EVENT_ROLE);
	expect_str(f->records[0].opponent, "one");
	expect_event(f, 1, 100, EVENT_OPPONENT_AWAY);
	expect_int(f->records[1].seconds, 15);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 1);
	assert_ptr_equal(away_first(f), p1);

	forget_records(f);
	rejoin(f, 1, "one", 101, T0 + 21000);
	expect_events(f, 2);
	expect_event(f, 0, 100, EVENT_OPPONENT_BACK);
	expect_event(f, 1, 101, EVENT_ROLE);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 0);
	assert_null(away_first(f));
}

static void tick_before_the_deadline_changes_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct lobby_stats stats;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	forget_records(f);
	stats = f->lobby.stats;
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_events(f, 0);
	expect_facts(f, 0);
	assert_memory_equal(&stats, &f->lobby.stats, sizeof(stats));
	assert_ptr_equal(lobby_find(&f->lobby, f->uids[0]), p0);
	expect_away(f, 1);
}

static void tick_at_the_deadline_forfeits_the_absent_player(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	drop(f, p0, T0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(away_first(f));
	expect_stats(f, 1, 0, 1, 0, 1, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void tick_long_after_the_deadline_forfeits_just_the_same(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p1, T0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 100 * GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_FRONT);
	expect_event(f, 1, 0, EVENT_DISCONNECT);
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 1, 0, 1, 0, 1, 1);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void tick_with_nobody_away_returns_uint64_max(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	pair(f, &p0, &p1, 0);
	join(f, 2, NULL);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), UINT64_MAX);
	expect_int(lobby_tick(&f->lobby, UINT64_MAX - 1), UINT64_MAX);
	expect_events(f, 0);
	expect_stats(f, 3, 1, 1, 1, 1, 0);
	expect_away(f, 0);
}

static void tick_returns_the_earliest_deadline_first(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p[4];
	int i;

	script_match(f, 0x11, 0);
	script_match(f, 0x22, 0);
	for (i = 0; i < 4; i++)
		p[i] = join(f, i, NULL);
	drop(f, p[2], T0);
	drop(f, p[0], T0 + 1000);
	expect_away(f, 2);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), T0 + 1000 + GRACE_MS);
	expect_events(f, 2);
	expect_event(f, 0, 3, EVENT_WINNER);
	expect_event(f, 1, 3, EVENT_DISCONNECT);
	expect_away(f, 1);
	expect_stats(f, 3, 0, 2, 1, 2, 0);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + 1000 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_away(f, 0);
	expect_stats(f, 2, 0, 2, 0, 2, 0);
	expect_finished(f, 0, 0, 2);
}

static void a_takeover_of_a_connected_seat_still_sends_replaced(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	rejoin(f, 0, "zero", 100, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 100, EVENT_ROLE);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 0);
	expect_away(f, 0);
	assert_null(away_first(f));
}

static void the_journal_hears_room_opened_before_the_role_events(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	expect_facts(f, 0);
	join(f, 1, "one");
	expect_events(f, 4);
	expect_event(f, 2, 0, EVENT_ROLE);
	expect_event(f, 3, 1, EVENT_ROLE);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_OPENED, 2);
	assert_ptr_equal(f->facts[0].room, p0->room);
	expect_str(f->facts[0].room_id, p0->room->id);
	assert_true(f->facts[0].seated[ROLE_FRONT]);
	assert_true(f->facts[0].seated[ROLE_BACK]);
	expect_int(f->facts[0].moves, 0);
}

static void the_journal_hears_each_move_once_before_the_boards(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	struct request board = { .type = REQUEST_BOARD, .role = ROLE_BACK };
	struct request move = move_request(7, 7);

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	expect_events(f, 2);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 1);
	assert_ptr_equal(f->facts[0].room, p0->room);

	/* A refusal is no fact. */
	expect_refusal(f, p1, &move, ERR_OCCUPIED);
	expect_facts(f, 0);

	/* A seed-form board is a move like any other. */
	memcpy(board.cells, p1->room->game.board.cells, sizeof(board.cells));
	board.cells[3 * 15 + 4] = ROLE_BACK;
	lobby_request(&f->lobby, p1, &board, 0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 2);
	expect_int(p1->room->game.history[1], 3 * 15 + 4);
}

static void the_journal_hears_game_over_before_the_winners(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	int i;

	pair(f, &p0, &p1, 0);
	for (i = 0; i < 4; i++) {
		play(f, p0, i, 0);
		play(f, p1, i, 1);
	}
	forget_records(f);
	play(f, p0, 4, 0);
	expect_events(f, 4);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_event(f, 2, 0, EVENT_WINNER);
	expect_event(f, 3, 1, EVENT_WINNER);
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(f->facts[0].moves, 9);
	expect_fact(f, 1, RECORD_GAME_OVER, 0);
	expect_int(f->facts[1].reason, REASON_FIVE);
	expect_stats(f, 2, 0, 1, 0, 1, 9);
	expect_finished(f, 1, 0, 0);
}

static void
the_journal_hears_room_closed_once_as_the_last_one_leaves(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	char room_id[UID_LEN + 1];
	const struct lobby_room *room;

	pair(f, &p0, &p1, 0);
	room = p0->room;
	snprintf(room_id, sizeof(room_id), "%s", room->id);
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	forget_records(f);
	lobby_disconnect(&f->lobby, p1, true, T0);
	expect_events(f, 0);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_ROOM_CLOSED, 0);
	/* Read during the call, so the room was not yet freed. */
	assert_ptr_equal(f->facts[0].room, room);
	expect_str(f->facts[0].room_id, room_id);
	assert_false(f->facts[0].seated[ROLE_FRONT]);
	assert_false(f->facts[0].seated[ROLE_BACK]);
	expect_stats(f, 0, 0, 0, 0, 1, 0);
}

static void every_fact_of_a_whole_game_is_recorded_exactly_once(void **state)
{
	static const enum lobby_record expected[] = {
		RECORD_ROOM_OPENED, RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_MOVE,      RECORD_MOVE,
		RECORD_MOVE,	    RECORD_GAME_OVER, RECORD_ROOM_CLOSED,
	};
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	size_t i;

	script_match(f, 0x11, 0);
	p0 = join(f, 0, "zero");
	p1 = join(f, 1, "one");
	play_to_five(f, p0, p1);
	drop(f, p1, T0);
	drop(f, p0, T0);
	expect_facts(f, (int)(sizeof(expected) / sizeof(expected[0])));
	for (i = 0; i < f->fact_count; i++) {
		if (f->facts[i].type != expected[i])
			fail_msg("fact %zu: expected %s, got %s", i,
				 fact_name(expected[i]),
				 fact_name(f->facts[i].type));
		if (expected[i] == RECORD_MOVE && f->facts[i].moves != (int)i)
			fail_msg("fact %zu: expected move %zu, got %d", i, i,
				 f->facts[i].moves);
	}
	expect_stats(f, 0, 0, 0, 0, 1, 9);
	expect_finished(f, 1, 0, 0);
}

static void drops_returns_and_takeovers_record_nothing(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);
	drop(f, p0, T0);
	rejoin(f, 0, "zero", 100, T0 + 1);
	rejoin(f, 1, "one", 101, T0 + 2);
	rejoin(f, 1, "one", 102, T0 + 3);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 1, 1);
	expect_away(f, 0);
}

static void a_lobby_without_a_journal_runs_every_path(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;
	const uint16_t moves[] = { 0, 15 };
	struct lobby_saved_game saved = {
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.board_size = 15,
		.uid = { NULL, f->uids[2], f->uids[3] },
		.moves = moves,
		.moves_played = 2,
	};

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	drop(f, p0, T0);
	rejoin(f, 0, "zero", 100, T0 + 1);
	drop(f, p1, T0 + 2);
	expect_int(lobby_tick(&f->lobby, T0 + 2 + GRACE_MS), UINT64_MAX);
	lobby_disconnect(&f->lobby, p0, true, T0 + 3);
	script_match(f, 0x22, 0);
	p0 = join(f, 0, NULL);
	p1 = join(f, 1, NULL);
	play_to_five(f, p0, p1);
	drop(f, p0, T0 + 4);
	drop(f, p1, T0 + 4);
	assert_non_null(lobby_restore(&f->lobby, &saved, T0 + 5));
	expect_int(lobby_tick(&f->lobby, T0 + 5 + GRACE_MS), UINT64_MAX);
	expect_facts(f, 0);
	expect_stats(f, 0, 0, 0, 0, 2, 10);
	expect_away(f, 0);
	expect_finished(f, 1, 0, 2);
}

/* A saved game of uids 0 (front, "zero") and 1 (back, "one"). */
static struct lobby_saved_game saved_game(struct fixture *f,
					  const uint16_t *moves, int count)
{
	struct lobby_saved_game saved = {
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.board_size = 15,
		.rule = RULE_FREESTYLE,
		.full_board = FULL_BOARD_BACK,
		.uid = { NULL, f->uids[0], f->uids[1] },
		.name = { NULL, "zero", "one" },
		.moves = moves,
		.moves_played = count,
	};

	return saved;
}

/* Front (7,7), back (8,8), front (8,7): back to move. */
static const uint16_t three_moves[] = { 7 * 15 + 7, 8 * 15 + 8, 7 * 15 + 8 };

/* Checks that restoring saved is refused and leaves the lobby as it was. */
static void expect_restore_refused(struct fixture *f,
				   const struct lobby_saved_game *saved,
				   const char *why)
{
	struct lobby_stats stats = f->lobby.stats;
	const struct lobby_player *away_head = away_first(f);
	bool had[2];
	int i;

	for (i = 0; i < 2; i++)
		had[i] = lobby_find(&f->lobby, saved->uid[ROLE_FRONT + i]);
	forget_records(f);
	if (lobby_restore(&f->lobby, saved, T0))
		fail_msg("%s: expected NULL, got a room", why);
	expect_events(f, 0);
	expect_facts(f, 0);
	if (memcmp(&stats, &f->lobby.stats, sizeof(stats)))
		fail_msg("%s: the stats changed", why);
	assert_ptr_equal(away_first(f), away_head);
	for (i = 0; i < 2; i++)
		if (!had[i] &&
		    lobby_find(&f->lobby, saved->uid[ROLE_FRONT + i]))
			fail_msg("%s: the %s uid got a seat", why,
				 i ? "back" : "front");
}

static void restore_seats_a_saved_game_with_both_players_away(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;
	const struct game *game;
	int role;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_str(room->id, saved.room_id);
	game = &room->game;
	expect_int(game->board.size, 15);
	expect_int(game->moves_played, 3);
	expect_int(game->board.stones, 3);
	expect_int(game->to_move, ROLE_BACK);
	expect_int(board_get(&game->board, 7, 7), ROLE_FRONT);
	expect_int(board_get(&game->board, 8, 8), ROLE_BACK);
	expect_int(board_get(&game->board, 8, 7), ROLE_FRONT);
	assert_memory_equal(game->history, three_moves, sizeof(three_moves));
	expect_int(game->last_move.x, 8);
	expect_int(game->last_move.y, 7);
	expect_int(game->last_mover, ROLE_FRONT);
	assert_false(game_is_over(game));
	for (role = ROLE_FRONT; role <= ROLE_BACK; role++) {
		const struct lobby_player *seat = room->seats[role];

		assert_non_null(seat);
		assert_ptr_equal(lobby_find(&f->lobby, saved.uid[role]), seat);
		expect_str(seat->name, saved.name[role]);
		expect_int(seat->role, role);
		expect_int(seat->state, PLAYER_PLAYING);
		assert_null(seat->conn);
		expect_int(seat->away_until, T0 + GRACE_MS);
	}
	expect_events(f, 0);
	expect_facts(f, 0);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, T0), T0 + GRACE_MS);
}

static void
a_restored_game_resumes_with_the_board_and_the_side_to_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *front, *back;
	struct request move = move_request(0, 0);
	struct lobby_room *room;
	char back_board[4096];

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	back = rejoin(f, 1, "one", 1, T0 + 1000);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	expect_str(f->records[0].room, saved.room_id);
	expect_str(f->records[0].opponent, "zero");
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[1].moves, 3);
	if (!strstr(f->records[1].json, "],\"role\":\"back\",\"move\":{\"x\":8,"
					"\"y\":7,\"role\":\"front\"},"
					"\"moves\":3}"))
		fail_msg("expected back to move after front's (8, 7), got %s",
			 f->records[1].json);
	expect_event(f, 2, 1, EVENT_OPPONENT_AWAY);
	expect_int(f->records[2].seconds, 29);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 1);
	snprintf(back_board, sizeof(back_board), "%s", f->records[1].json);

	forget_records(f);
	front = rejoin(f, 0, "zero", 0, T0 + 2000);
	expect_events(f, 3);
	expect_event(f, 0, 1, EVENT_OPPONENT_BACK);
	expect_event(f, 1, 0, EVENT_ROLE);
	expect_int(f->records[1].role, ROLE_FRONT);
	expect_event(f, 2, 0, EVENT_BOARD);
	expect_str(f->records[2].json, back_board);
	expect_away(f, 0);
	assert_ptr_equal(front->room, room);
	assert_ptr_equal(back->room, room);

	expect_refusal(f, front, &move, ERR_NOT_YOUR_TURN);
	play(f, back, 9, 9);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_event(f, 1, 1, EVENT_BOARD);
	expect_int(f->records[0].moves, 4);
	expect_facts(f, 1);
	expect_fact(f, 0, RECORD_MOVE, 0);
	expect_int(room->game.history[3], 9 * 15 + 9);
	expect_stats(f, 2, 0, 1, 1, 0, 1);
}

static void restore_without_moves_puts_front_to_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, NULL, 0);
	struct lobby_room *room;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_int(room->game.to_move, ROLE_FRONT);
	expect_int(room->game.moves_played, 0);
	rejoin(f, 0, "zero", 0, T0);
	expect_events(f, 2); /* role and opponent_away: no board */
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_event(f, 1, 0, EVENT_OPPONENT_AWAY);
	expect_int(f->records[1].seconds, 30);
	play(f, room->seats[ROLE_FRONT], 7, 7);
	expect_int(room->game.moves_played, 1);
}

static void restore_refuses_an_invalid_move_list(void **state)
{
	static const uint16_t twice[] = { 7 * 15 + 7, 7 * 15 + 7 };
	static const uint16_t off_board[] = { 7 * 15 + 7, 15 * 15 };
	static const uint16_t far_off[] = { 0xffff };
	static uint16_t too_many[15 * 15 + 1];
	struct fixture *f = *state;
	struct lobby_saved_game saved;

	saved = saved_game(f, twice, 2);
	expect_restore_refused(f, &saved, "a stone played twice");
	saved = saved_game(f, off_board, 2);
	expect_restore_refused(f, &saved, "a move off the board");
	saved = saved_game(f, far_off, 1);
	expect_restore_refused(f, &saved, "move 0xffff");
	saved = saved_game(f, too_many, 15 * 15 + 1);
	expect_restore_refused(f, &saved, "more moves than cells");
	saved = saved_game(f, three_moves, -1);
	expect_restore_refused(f, &saved, "a negative move count");
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
}

static void restore_refuses_a_finished_game(void **state)
{
	/* Front makes five on row 0; back answers on row 1. */
	static const uint16_t five[] = { 0, 15, 1, 16, 2, 17, 3, 18, 4 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, five, 9);

	expect_restore_refused(f, &saved, "a game won by five");
	/* The same game one move earlier is still on. */
	saved.moves_played = 8;
	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
}

static void restore_refuses_a_uid_that_already_has_a_seat(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);

	join(f, 0, "zero");
	expect_restore_refused(f, &saved, "front uid waiting");
	saved.uid[ROLE_FRONT] = f->uids[2];
	saved.uid[ROLE_BACK] = f->uids[0];
	expect_restore_refused(f, &saved, "back uid waiting");
	saved.uid[ROLE_BACK] = f->uids[2];
	expect_restore_refused(f, &saved, "the same uid on both sides");

	/* A restored seat counts too. */
	saved.uid[ROLE_BACK] = f->uids[3];
	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	saved.room_id = "7f1c0e2a-9b7d-4c3e-8a5f-0123456789ab";
	saved.uid[ROLE_FRONT] = f->uids[4];
	expect_restore_refused(f, &saved, "back uid away in another room");
	expect_stats(f, 3, 1, 1, 1, 0, 0);
	expect_away(f, 2);
}

static void restore_refuses_a_board_of_another_size(void **state)
{
	static const uint16_t one_move[] = { 0 };
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, one_move, 1);

	saved.board_size = 16;
	expect_restore_refused(f, &saved, "a 16x16 game in a 15x15 lobby");
	saved.board_size = 5;
	expect_restore_refused(f, &saved, "a 5x5 game in a 15x15 lobby");
	saved.board_size = 0;
	expect_restore_refused(f, &saved, "a board of size 0");
	expect_stats(f, 0, 0, 0, 0, 0, 0);
}

static void restore_refuses_a_bad_room_id(void **state)
{
	static const char *const bad_ids[] = {
		"",
		"not-a-uuid",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789a",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789abc",
		"6f1c0e2a_9b7d-4c3e-8a5f-0123456789ab",
		"6f1c0e2a-9b7d-4c3e-8a5f-0123456789ag",
	};
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;
	size_t i;

	for (i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		saved.room_id = bad_ids[i];
		expect_restore_refused(f, &saved, bad_ids[i]);
	}
	/* Upper case is a good uuid: the room gets the canonical form. */
	saved.room_id = "6F1C0E2A-9B7D-4C3E-8A5F-0123456789AB";
	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_str(room->id, "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab");
}

static void restored_seats_expire_by_tick_and_forfeit(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_room *room;

	room = lobby_restore(&f->lobby, &saved, T0);
	assert_non_null(room);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS - 1), T0 + GRACE_MS);
	expect_stats(f, 2, 0, 1, 1, 0, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 0);
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_int(f->facts[0].reason, REASON_FORFEIT);
	assert_ptr_equal(f->facts[0].room, room);
	expect_fact(f, 1, RECORD_ROOM_CLOSED, 0);
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

static void a_restored_player_back_late_finds_the_forfeit(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *back;

	assert_non_null(lobby_restore(&f->lobby, &saved, T0));
	back = rejoin(f, 1, "one", 1, T0 + 1000);
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0 + GRACE_MS), UINT64_MAX);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_event(f, 1, 1, EVENT_DISCONNECT);
	expect_stats(f, 1, 0, 1, 0, 0, 0);
	expect_away(f, 0);

	/* The front uid, back too late, starts afresh in the queue. */
	forget_records(f);
	join(f, 0, "zero");
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WAITING);
	expect_stats(f, 2, 1, 1, 0, 0, 0);
	assert_ptr_equal(back->room->seats[ROLE_BACK], back);
}

/*
 * Found by fuzz_lobby: with no grace, a seat restored at 0 ms is away
 * until 0, a deadline lobby_leave() took for "not away"; the first tick
 * freed the seat but left it in the away list (use after free).
 */
static void
a_restored_game_without_grace_is_given_up_at_the_first_tick(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);

	assert_non_null(lobby_restore(&f->lobby, &saved, 0));
	expect_int(away_first(f)->away_until, 0);
	expect_away(f, 2);
	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	assert_null(away_first(f));
	assert_null(away_last(f));
	assert_null(lobby_find(&f->lobby, f->uids[0]));
	assert_null(lobby_find(&f->lobby, f->uids[1]));
	expect_facts(f, 2);
	expect_fact(f, 0, RECORD_GAME_OVER, 0);
	expect_fact(f, 1, RECORD_ROOM_CLOSED, 0);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
	expect_finished(f, 0, 0, 1);
}

/* Same, when a player of it comes back before the tick and leaves. */
static void a_seat_away_until_zero_is_freed_when_it_leaves(void **state)
{
	struct fixture *f = *state;
	struct lobby_saved_game saved = saved_game(f, three_moves, 3);
	struct lobby_player *front;

	assert_non_null(lobby_restore(&f->lobby, &saved, 0));
	front = rejoin(f, 0, "zero", 0, 0);
	expect_away(f, 1);
	lobby_disconnect(&f->lobby, front, true, 0);
	expect_away(f, 1);
	expect_stats(f, 1, 0, 1, 0, 0, 0);
	expect_int(lobby_tick(&f->lobby, 0), UINT64_MAX);
	expect_stats(f, 0, 0, 0, 0, 0, 0);
	expect_away(f, 0);
}

#define lobby_test(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define grace_test(name) \
	cmocka_unit_test_setup_teardown(name, setup_grace, teardown)

/* Connects player i against the engine at level. */
static struct lobby_player *join_ai(struct fixture *f, int i,
				    enum engine_level level, uint8_t coin)
{
	struct lobby_player *player;

	script_match(f, 0x22, coin);
	player = lobby_connect_ai(&f->lobby, f->uids[i], "", conn(f, i), level,
				  T0);
	if (!player)
		fail_msg("player %d could not connect to play the engine", i);
	return player;
}

static void request(struct fixture *f, struct lobby_player *player,
		    enum request_type type, bool accept, uint64_t now)
{
	struct request req = { .type = type, .accept = accept };

	lobby_request(&f->lobby, player, &req, now);
}

/* Checks that event i is a takeback board of the stone at (x, y). */
static void expect_undo(struct fixture *f, size_t i, int c, int x, int y,
			int moves)
{
	expect_event(f, i, c, EVENT_BOARD);
	if (!f->records[i].undo)
		fail_msg("event %zu: expected a takeback board", i);
	expect_int(f->records[i].undo_cell.x, x);
	expect_int(f->records[i].undo_cell.y, y);
	expect_int(f->records[i].moves, moves);
	if (!strstr(f->records[i].json, "\"content\":[") ||
	    !strstr(f->records[i].json, "\"undo\":{") ||
	    strstr(f->records[i].json, "\"move\":"))
		fail_msg("event %zu: a takeback board needs content and undo, "
			 "and no move: %s",
			 i, f->records[i].json);
}

static void the_engine_seats_a_player_at_once_and_thinks_as_front(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_HARD, 1);

	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_int(f->records[0].role, ROLE_BACK);
	expect_str(f->records[0].opponent, "");
	expect_str(f->records[0].ai_level, "hard");
	if (!strstr(f->records[0].json,
		    "\"opponent\":{\"ai\":true,\"level\":\"hard\"}"))
		fail_msg("role: %s", f->records[0].json);
	expect_int(f->thinks, 1);
	expect_str(f->ticket.uid, f->uids[0]);
	expect_int(f->lobby.stats.ai_rooms, 1);
	expect_int(f->lobby.queue.count, 0);
	expect_int(f->lobby.stats.players, 1);
	forget_records(f);

	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 7, 7), 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_int(f->records[0].moves, 1);
	/* the same ticket again: the position has changed since */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8), -ESTALE);
	play(f, p0, 8, 8);
	expect_int(f->thinks, 2);
	/* an occupied cell is refused: the caller forfeits the engine */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 7, 7), -EINVAL);
	forget_records(f);
	expect_int(lobby_ai_forfeit(&f->lobby, &f->ticket), 0);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_WINNER);
	expect_int(f->records[0].winner, WINNER_BACK);
	expect_int(f->records[0].reason, REASON_FORFEIT);
	expect_int(lobby_ai_forfeit(&f->lobby, &f->ticket), -ESTALE);
	/* the player leaves: room and engine seat go (ASan checks) */
	lobby_disconnect(&f->lobby, p0, true, T0);
	expect_int(f->lobby.stats.ai_rooms, 0);
	expect_int(f->lobby.stats.rooms, 0);
	expect_int(f->lobby.stats.players, 0);
}

static void the_engine_as_back_waits_for_the_players_move(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_EASY, 0);

	expect_int(f->records[0].role, ROLE_FRONT);
	expect_str(f->records[0].ai_level, "easy");
	expect_int(f->thinks, 0);
	play(f, p0, 7, 7);
	expect_int(f->thinks, 1);
	/* a uid with a seat resumes it, whatever the mode */
	forget_records(f);
	assert_ptr_equal(lobby_connect_ai(&f->lobby, f->uids[0], "", conn(f, 2),
					  ENGINE_HARD, T0),
			 p0);
	expect_event(f, 0, 0, EVENT_REPLACED);
	expect_event(f, 1, 2, EVENT_ROLE);
	expect_event(f, 2, 2, EVENT_BOARD);
	expect_events(f, 3); /* the engine is never away */
	expect_int(f->lobby.stats.ai_rooms, 1);
}

static void
an_engine_takeback_removes_the_reply_and_the_move_and_redo_puts_them_back(
	void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_MEDIUM, 0);

	play(f, p0, 7, 7);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8), 0);
	play(f, p0, 6, 6);
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 9, 9), 0);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 2);
	expect_undo(f, 0, 0, 9, 9, 3);
	expect_undo(f, 1, 0, 6, 6, 2);
	expect_int(f->lobby.stats.takebacks, 1);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 4);
	expect_undo(f, 2, 0, 8, 8, 1);
	expect_undo(f, 3, 0, 7, 7, 0);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_event(f, 4, 0, EVENT_ERROR);
	expect_int(f->records[4].code, ERR_NOTHING_TO_UNDO);
	forget_records(f);

	/* redo: one takeback's worth at a time, the player's move first */
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_BOARD);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->records[0].moves, 1);
	expect_int(f->records[1].move.x, 8);
	expect_int(f->records[1].moves, 2);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 4);
	expect_int(f->records[2].move.x, 6);
	expect_int(f->records[3].move.x, 9);
	expect_int(f->thinks, 2); /* the player is to move: no search */
	request(f, p0, REQUEST_REDO, false, T0);
	expect_event(f, 4, 0, EVENT_ERROR);
	expect_int(f->records[4].code, ERR_NOTHING_TO_REDO);

	/* a new move forgets what could be redone */
	request(f, p0, REQUEST_OFFER, false, T0);
	play(f, p0, 0, 0);
	forget_records(f);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_event(f, 0, 0, EVENT_ERROR);
	expect_int(f->records[0].code, ERR_NOTHING_TO_REDO);
}

static void a_takeback_while_the_engine_thinks_drops_its_search(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0 = join_ai(f, 0, ENGINE_MEDIUM, 0);
	struct lobby_ai_ticket stale;

	play(f, p0, 7, 7);
	stale = f->ticket;
	forget_records(f);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 1);
	expect_undo(f, 0, 0, 7, 7, 0);
	expect_int(lobby_ai_move(&f->lobby, &stale, 8, 8), -ESTALE);
	expect_int(f->thinks, 1);
	forget_records(f);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_events(f, 1);
	expect_int(f->records[0].move.x, 7);
	expect_int(f->thinks, 2); /* the engine is to move again */
	expect_int(lobby_ai_move(&f->lobby, &f->ticket, 8, 8), 0);
}

static void
a_human_takeback_needs_consent_and_a_refusal_waits_ten_seconds(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1; /* coin 0: p0 front */

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	forget_records(f);

	request(f, p1, REQUEST_OFFER, false, T0);
	expect_event(f, 0, 1, EVENT_ERROR);
	expect_int(f->records[0].code, ERR_NOTHING_TO_UNDO);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_int(f->records[1].code, ERR_NO_OFFER);
	request(f, p1, REQUEST_REDO, false, T0);
	expect_int(f->records[2].code, ERR_NOTHING_TO_REDO);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_OFFER);
	expect_event(f, 1, 1, EVENT_OFFER);
	expect_int(f->records[1].by, ROLE_FRONT);
	request(f, p0, REQUEST_OFFER, false, T0);
	expect_int(f->records[2].code, ERR_OFFER_PENDING);
	request(f, p0, REQUEST_ANSWER, true, T0);
	expect_int(f->records[3].code, ERR_NO_OFFER);
	forget_records(f);

	request(f, p1, REQUEST_ANSWER, false, T0);
	expect_events(f, 2);
	expect_event(f, 0, 0, EVENT_ANSWER);
	expect_event(f, 1, 1, EVENT_ANSWER);
	expect_int(f->records[0].accept, false);
	expect_int(f->records[0].by, ROLE_BACK);
	request(f, p0, REQUEST_OFFER, false, T0 + LOBBY_OFFER_COOLDOWN_MS - 1);
	expect_int(f->records[2].code, ERR_TOO_SOON);
	forget_records(f);

	request(f, p0, REQUEST_OFFER, false, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_event(f, 0, 0, EVENT_OFFER);
	request(f, p1, REQUEST_ANSWER, true, T0 + LOBBY_OFFER_COOLDOWN_MS);
	expect_events(f, 6);
	expect_event(f, 2, 0, EVENT_ANSWER);
	expect_int(f->records[2].accept, true);
	expect_undo(f, 4, 0, 7, 7, 0);
	expect_undo(f, 5, 1, 7, 7, 0);
	expect_int(f->lobby.stats.moves, 1);
	/* front is to move again */
	forget_records(f);
	play(f, p1, 1, 1);
	expect_int(f->records[0].code, ERR_NOT_YOUR_TURN);
	play(f, p0, 3, 3);
	expect_event(f, 1, 0, EVENT_BOARD);
	expect_no_uid_sent(f, 2);
}

static void an_accepted_takeback_after_a_reply_removes_both(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	request(f, p0, REQUEST_OFFER, false, T0);
	forget_records(f);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_events(f, 6);
	expect_undo(f, 2, 0, 8, 8, 1);
	expect_undo(f, 4, 0, 7, 7, 0);
	expect_int(f->fact_count, 0); /* no journal in this fixture */
}

static void a_move_while_an_offer_waits_declines_it(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	play(f, p0, 6, 6);
	request(f, p0, REQUEST_OFFER, false, T0);
	forget_records(f);
	play(f, p1, 9, 9);
	expect_events(f, 4);
	expect_event(f, 0, 0, EVENT_ANSWER);
	expect_event(f, 1, 1, EVENT_ANSWER);
	expect_int(f->records[0].accept, false);
	expect_int(f->records[0].by, ROLE_BACK);
	expect_event(f, 2, 0, EVENT_BOARD);
	request(f, p1, REQUEST_ANSWER, true, T0);
	expect_int(f->records[4].code, ERR_NO_OFFER);
	/* a finished game takes no offers */
	play(f, p0, 5, 5);
	play(f, p1, 10, 10);
	play(f, p0, 4, 4);
	play(f, p1, 11, 11);
	play(f, p0, 3, 3); /* five: 3..7 on the diagonal */
	forget_records(f);
	request(f, p1, REQUEST_OFFER, false, T0);
	expect_int(f->records[0].code, ERR_GAME_OVER);
	request(f, p0, REQUEST_REDO, false, T0);
	expect_int(f->records[1].code, ERR_GAME_OVER);
}

static void the_journal_hears_a_takeback_with_the_moves_left(void **state)
{
	struct fixture *f = *state;
	struct lobby_player *p0, *p1;

	pair(f, &p0, &p1, 0);
	play(f, p0, 7, 7);
	play(f, p1, 8, 8);
	request(f, p1, REQUEST_OFFER, false, T0);
	forget_records(f);
	request(f, p0, REQUEST_ANSWER, true, T0);
	/* back offered after its reply: only that reply is taken back */
	expect_int(f->fact_count, 1);
	expect_int(f->facts[0].type, RECORD_TAKEBACK);
	expect_int(f->facts[0].moves, 1);
	/* told to the journal before the players heard of it */
	expect_int(f->facts[0].events_before, 2);
	expect_events(f, 4);
}

static void a_player_who_waited_long_enough_plays_the_engine(void **state)
{
	struct fixture *f = *state;
	struct lobby_config config = {
		.board_size = 15,
		.ai_fill_after_ms = 5000,
		.ai_fill_level = ENGINE_EASY,
	};

	lobby_release(&f->lobby);
	expect_int(start_lobby(f, &config, false), 0);
	assert_non_null(
		lobby_connect(&f->lobby, f->uids[0], "", conn(f, 0), T0));
	forget_records(f);
	expect_int(lobby_tick(&f->lobby, T0), T0 + 5000);
	expect_int(lobby_tick(&f->lobby, T0 + 4999), T0 + 5000);
	expect_events(f, 0);
	script_match(f, 0x33, 1);
	expect_int(lobby_tick(&f->lobby, T0 + 5000), UINT64_MAX);
	expect_events(f, 1);
	expect_event(f, 0, 0, EVENT_ROLE);
	expect_str(f->records[0].ai_level, "easy");
	expect_int(f->thinks, 1);
	expect_int(f->lobby.queue.count, 0);
	/* two who find each other first never see the engine */
	script_match(f, 0x44, 0);
	assert_non_null(lobby_connect(&f->lobby, f->uids[1], "", conn(f, 1),
				      T0 + 6000));
	assert_non_null(lobby_connect(&f->lobby, f->uids[2], "", conn(f, 2),
				      T0 + 9000));
	expect_int(lobby_tick(&f->lobby, T0 + 20000), UINT64_MAX);
	expect_int(f->lobby.stats.ai_matches, 1);
	expect_int(f->lobby.stats.matches, 2);
}

static void release_frees_engine_rooms_too(void **state)
{
	struct fixture *f = *state;

	join_ai(f, 0, ENGINE_HARD, 0);
	join_ai(f, 1, ENGINE_HARD, 1);
	expect_int(f->lobby.stats.ai_rooms, 2);
	/* teardown releases the lobby: ASan and valgrind see no leak */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_refuses_a_bad_config),
		lobby_test(the_first_player_waits_alone),
		lobby_test(
			the_first_two_players_are_paired_and_the_third_waits),
		lobby_test(the_queue_pairs_first_come_first_served),
		lobby_test(an_even_random_byte_makes_the_first_in_line_front),
		lobby_test(an_odd_random_byte_makes_the_first_in_line_back),
		lobby_test(role_names_the_opponent_and_never_its_uid),
		lobby_test(room_ids_are_uuids_from_the_random_bytes),
		lobby_test(a_move_reaches_both_players_front_first),
		lobby_test(a_seed_form_board_is_played_as_a_move),
		lobby_test(moves_in_one_room_never_reach_another_room),
		lobby_test(
			a_paused_lobby_refuses_every_request_but_ping_until_resumed),
		lobby_test(a_move_before_being_matched_is_not_in_game),
		lobby_test(a_move_out_of_turn_is_not_your_turn),
		lobby_test(a_move_off_the_board_is_out_of_range),
		lobby_test(a_move_on_a_stone_is_occupied),
		lobby_test(a_move_after_the_game_is_over_is_game_over),
		lobby_test(a_board_that_is_not_one_new_stone_is_bad_board),
		lobby_test(a_board_naming_the_other_side_is_bad_board),
		lobby_test(a_five_sends_board_then_winner_with_line_to_both),
		cmocka_unit_test_setup_teardown(
			a_full_board_is_a_draw_sent_to_both, setup_small_drawn,
			teardown),
		lobby_test(ping_gets_pong_and_a_winner_claim_gets_nothing),
		lobby_test(a_waiting_player_who_leaves_is_never_matched),
		lobby_test(leaving_a_live_game_sends_forfeit_then_disconnect),
		lobby_test(
			leaving_after_the_game_is_over_sends_only_disconnect),
		lobby_test(players_who_leave_and_return_are_matched_anew),
		lobby_test(the_same_uid_takes_over_with_role_and_board),
		lobby_test(a_takeover_before_any_move_gets_role_only),
		lobby_test(a_takeover_of_a_finished_game_gets_the_winner),
		lobby_test(a_takeover_of_a_waiting_seat_keeps_waiting),
		lobby_test(a_seat_taken_over_then_left_forfeits_once),
		lobby_test(no_event_to_anyone_carries_a_whole_uid),
		lobby_test(the_seat_table_grows_and_finds_1000_players),
		lobby_test(release_frees_every_seat_and_room_without_sending),
		grace_test(a_dropped_player_keeps_the_seat_for_the_grace),
		grace_test(
			leaving_on_purpose_forfeits_at_once_despite_the_grace),
		cmocka_unit_test_setup_teardown(
			a_drop_without_grace_forfeits_at_once,
			setup_journal_no_grace, teardown),
		grace_test(a_waiting_player_who_drops_is_freed_at_once),
		grace_test(
			a_drop_after_the_game_is_over_frees_the_seat_at_once),
		grace_test(opponent_away_counts_whole_seconds_rounded_up),
		grace_test(a_resume_tells_the_seconds_left_rounded_up),
		grace_test(a_player_back_within_the_grace_resumes_the_game),
		grace_test(
			the_present_player_plays_on_and_the_away_one_hears_nothing),
		grace_test(
			a_returner_whose_game_ended_meanwhile_gets_the_result),
		grace_test(
			both_away_the_first_deadline_forfeits_and_the_second_sees_it),
		grace_test(a_returner_whose_opponent_is_away_too_is_told_so),
		grace_test(tick_before_the_deadline_changes_nothing),
		grace_test(tick_at_the_deadline_forfeits_the_absent_player),
		grace_test(tick_long_after_the_deadline_forfeits_just_the_same),
		grace_test(tick_with_nobody_away_returns_uint64_max),
		grace_test(tick_returns_the_earliest_deadline_first),
		grace_test(a_takeover_of_a_connected_seat_still_sends_replaced),
		grace_test(
			the_journal_hears_room_opened_before_the_role_events),
		grace_test(the_journal_hears_each_move_once_before_the_boards),
		grace_test(the_journal_hears_game_over_before_the_winners),
		grace_test(
			the_journal_hears_room_closed_once_as_the_last_one_leaves),
		grace_test(every_fact_of_a_whole_game_is_recorded_exactly_once),
		grace_test(drops_returns_and_takeovers_record_nothing),
		cmocka_unit_test_setup_teardown(
			a_lobby_without_a_journal_runs_every_path,
			setup_grace_no_journal, teardown),
		grace_test(restore_seats_a_saved_game_with_both_players_away),
		lobby_test(
			the_engine_seats_a_player_at_once_and_thinks_as_front),
		lobby_test(the_engine_as_back_waits_for_the_players_move),
		lobby_test(
			an_engine_takeback_removes_the_reply_and_the_move_and_redo_puts_them_back),
		lobby_test(a_takeback_while_the_engine_thinks_drops_its_search),
		lobby_test(
			a_human_takeback_needs_consent_and_a_refusal_waits_ten_seconds),
		lobby_test(an_accepted_takeback_after_a_reply_removes_both),
		lobby_test(a_move_while_an_offer_waits_declines_it),
		grace_test(the_journal_hears_a_takeback_with_the_moves_left),
		lobby_test(a_player_who_waited_long_enough_plays_the_engine),
		lobby_test(release_frees_engine_rooms_too),
		grace_test(
			a_restored_game_resumes_with_the_board_and_the_side_to_move),
		grace_test(restore_without_moves_puts_front_to_move),
		grace_test(restore_refuses_an_invalid_move_list),
		grace_test(restore_refuses_a_finished_game),
		grace_test(restore_refuses_a_uid_that_already_has_a_seat),
		grace_test(restore_refuses_a_board_of_another_size),
		grace_test(restore_refuses_a_bad_room_id),
		grace_test(restored_seats_expire_by_tick_and_forfeit),
		grace_test(a_restored_player_back_late_finds_the_forfeit),
		cmocka_unit_test_setup_teardown(
			a_restored_game_without_grace_is_given_up_at_the_first_tick,
			setup_journal_no_grace, teardown),
		cmocka_unit_test_setup_teardown(
			a_seat_away_until_zero_is_freed_when_it_leaves,
			setup_journal_no_grace, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
