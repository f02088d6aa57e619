/*
 * test_lobby.c - the queue, matching, rooms, move routing, errors,
 * disconnects, takeovers and counters of the lobby, through a sink that
 * records every event and a random source that replays scripted bytes.
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
	char *json;			   /* encoded, or NULL for REPLACED */
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
	r = &f->records[f->count++];
	memset(r, 0, sizeof(*r));
	r->conn = conn;
	r->type = ev->type;
	r->role = ev->role;
	r->code = ev->code;
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
}

static int setup_lobby(void **state, int size, enum full_board full_board)
{
	struct lobby_config config = {
		.board_size = size,
		.rule = RULE_FREESTYLE,
		.full_board = full_board,
	};
	struct fixture *f = calloc(1, sizeof(*f));
	int i;

	if (!f)
		return -1;
	for (i = 0; i < MAX_UIDS; i++)
		snprintf(f->uids[i], sizeof(f->uids[i]),
			 "%08x-aaaa-4bbb-8ccc-%012x", 0xa0000000u + i, i);
	if (lobby_init(&f->lobby, &config,
		       (struct lobby_random){ fill_random, f },
		       (struct lobby_sink){ record_event, NULL, f })) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_lobby(state, 15, FULL_BOARD_BACK);
}

static int setup_small_drawn(void **state)
{
	return setup_lobby(state, 5, FULL_BOARD_DRAW);
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
	case EVENT_REPLACED:
		return "replaced";
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
		expect_int(s_->waiting, want_waiting);                     \
		expect_int(s_->rooms, want_rooms);                         \
		expect_int(s_->rooms_live, want_live);                     \
		expect_int(s_->matches, want_matches);                     \
		expect_int(s_->moves, want_moves);                         \
	} while (0)

static struct request move_request(int x, int y)
{
	struct request req = { .type = REQUEST_MOVE, .x = x, .y = y };

	return req;
}

static void play(struct fixture *f, struct lobby_player *player, int x, int y)
{
	struct request req = move_request(x, y);

	lobby_request(&f->lobby, player, &req);
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
	struct lobby_sink sink = { record_event, NULL, NULL };
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
			      (struct lobby_sink){ NULL, NULL, NULL }),
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
	assert_ptr_equal(f->lobby.queue_head, p2);
	assert_ptr_equal(f->lobby.queue_tail, p2);
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
	assert_true(protocol_check_uid(f->records[6].room, checked));
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
	lobby_request(&f->lobby, p0, &req);
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
	lobby_request(&f->lobby, p[0], &ping);
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
	lobby_request(&f->lobby, player, req);
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
	lobby_request(&f->lobby, p1, &ping);
	lobby_request(&f->lobby, p2, &ping);
	expect_events(f, 2);
	expect_event(f, 0, 1, EVENT_PONG);
	expect_event(f, 1, 2, EVENT_PONG);
	forget_records(f);
	lobby_request(&f->lobby, p0, &claim);
	lobby_request(&f->lobby, p2, &claim);
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
	assert_null(f->lobby.queue_head);
	assert_null(f->lobby.queue_tail);
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
	again = lobby_connect(&f->lobby, f->uids[0], "zero again",
			      conn(f, 100), 0);
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
	lobby_request(&f->lobby, p[1], &bad);
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

#define lobby_test(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
