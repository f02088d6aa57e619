/*
 * test_protocol_encode.c - encoding server messages: every event type read
 * back with cJSON, boards by hand, the headroom, and the words of the error
 * codes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "protocol.h"
#include "renju.h"
#include "expect.h"

static const char *code_name(int code)
{
	return code == ERR_NONE ? "ERR_NONE" :
				  error_code_name((enum error_code)code);
}

#define expect_code(actual, expected) expect_enum(actual, expected, code_name)

/* Encodes ev with headroom, checks the framing and parses the JSON back. */
static cJSON *encode(const struct event *ev, size_t headroom)
{
	size_t len = 0;
	cJSON *root;
	char *buffer;

	buffer = protocol_encode(ev, headroom, &len);
	if (!buffer)
		fail_msg("event type %d was not encoded", ev->type);
	if (strlen(buffer + headroom) != len)
		fail_msg("len is %zu, text is %zu bytes", len,
			 strlen(buffer + headroom));
	if (strchr(buffer + headroom, '\n') || buffer[headroom] != '{')
		fail_msg("not compact JSON: %s", buffer + headroom);
	root = cJSON_ParseWithLength(buffer + headroom, len);
	if (!cJSON_IsObject(root))
		fail_msg("not a JSON object: %s", buffer + headroom);
	free(buffer);
	return root;
}

/* The string member name of object; fails when it is not a string. */
static const char *member_string(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	if (!cJSON_IsString(item))
		fail_msg("member \"%s\" is not a string", name);
	return item->valuestring;
}

/* The number member name of object; fails when it is not a number. */
static double member_number(const cJSON *object, const char *name)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);

	if (!cJSON_IsNumber(item))
		fail_msg("member \"%s\" is not a number", name);
	return item->valuedouble;
}

static int member_count(const cJSON *object)
{
	return cJSON_GetArraySize(object);
}

static void encodes_welcome_with_uid_protocol_size_rule_version(void **state)
{
	struct event ev = {
		.type = EVENT_WELCOME,
		.uid = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0",
		.version = "0.1.0",
		.size = 16,
		.rule = RULE_STANDARD,
	};
	cJSON *root = encode(&ev, 0);

	(void)state;
	expect_str(member_string(root, "type"), "welcome");
	expect_str(member_string(root, "uid"), ev.uid);
	expect_int(member_number(root, "protocol"), 2);
	expect_int(member_number(root, "size"), 16);
	expect_str(member_string(root, "rule"), "standard");
	expect_str(member_string(root, "tc"), "none");
	expect_str(member_string(root, "version"), "0.1.0");
	expect_int(member_count(root), 7);
	cJSON_Delete(root);
}

static void encodes_welcome_with_the_pool_asked_for(void **state)
{
	struct event ev = {
		.type = EVENT_WELCOME,
		.uid = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0",
		.version = "0.1.0",
		.size = 19,
		.rule = RULE_STANDARD,
		.tc = { 300000, 5000 },
	};
	cJSON *root = encode(&ev, 0);

	(void)state;
	expect_int(member_number(root, "protocol"), PROTOCOL_VERSION);
	expect_int(PROTOCOL_VERSION, 2);
	expect_int(member_number(root, "size"), 19);
	expect_str(member_string(root, "rule"), "standard");
	expect_str(member_string(root, "tc"), "300+5");
	/* the pool, not a game: no clocks */
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "clock"));
	expect_int(member_count(root), 7);
	cJSON_Delete(root);
}

static void encodes_waiting_and_pong_as_just_their_type(void **state)
{
	struct event waiting = { .type = EVENT_WAITING };
	struct event pong = { .type = EVENT_PONG };
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&waiting, 0, &len);
	expect_str(text, "{\"type\":\"waiting\"}");
	expect_int(len, strlen("{\"type\":\"waiting\"}"));
	free(text);
	text = protocol_encode(&pong, 0, &len);
	expect_str(text, "{\"type\":\"pong\"}");
	free(text);
}

static void encodes_role_with_the_opponent_name(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_BACK,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
		.rule = RULE_FREESTYLE,
		.opponent_name = "\xe6\x9d\x8e \"Li\" \\",
	};
	const cJSON *opponent;
	cJSON *root = encode(&ev, 16);

	(void)state;
	expect_str(member_string(root, "type"), "role");
	expect_str(member_string(root, "role"), "back");
	expect_str(member_string(root, "room"), ev.room_id);
	expect_int(member_number(root, "size"), 15);
	expect_str(member_string(root, "rule"), "freestyle");
	opponent = cJSON_GetObjectItemCaseSensitive(root, "opponent");
	assert_true(cJSON_IsObject(opponent));
	expect_str(member_string(opponent, "name"), ev.opponent_name);
	expect_int(member_count(opponent), 1);
	cJSON_Delete(root);
}

static void
encodes_an_engine_opponent_with_ai_and_level_and_no_name(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_FRONT,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
		.ai_level = "hard",
	};
	const cJSON *opponent;
	cJSON *root = encode(&ev, 0);

	(void)state;
	opponent = cJSON_GetObjectItemCaseSensitive(root, "opponent");
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opponent, "ai")));
	expect_str(member_string(opponent, "level"), "hard");
	/* the client names the computer, in its own language */
	expect_int(member_count(opponent), 2);
	cJSON_Delete(root);
}

static void encodes_offer_and_answer_with_who(void **state)
{
	struct event offer = { .type = EVENT_OFFER, .by = ROLE_BACK };
	struct event answer = {
		.type = EVENT_ANSWER,
		.by = ROLE_FRONT,
		.accept = true,
	};
	cJSON *root = encode(&offer, 0);

	(void)state;
	expect_str(member_string(root, "type"), "offer");
	expect_str(member_string(root, "what"), "takeback");
	expect_str(member_string(root, "by"), "back");
	expect_int(member_count(root), 3);
	cJSON_Delete(root);
	root = encode(&answer, 0);
	expect_str(member_string(root, "type"), "answer");
	expect_str(member_string(root, "by"), "front");
	assert_true(
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "accept")));
	cJSON_Delete(root);
	answer.accept = false;
	root = encode(&answer, 0);
	assert_true(cJSON_IsFalse(
		cJSON_GetObjectItemCaseSensitive(root, "accept")));
	cJSON_Delete(root);
}

static void encodes_a_takeback_board_with_content_and_undo(void **state)
{
	struct game game;
	struct event ev = {
		.type = EVENT_BOARD,
		.undo = true,
		.compact = true, /* ignored: a takeback always has content */
	};
	const cJSON *content, *undo;
	cJSON *root;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_BACK);
	assert_int_equal(game_play(&game, ROLE_FRONT, 2, 2), MOVE_OK);
	assert_int_equal(game_play(&game, ROLE_BACK, 3, 1), MOVE_OK);
	assert_true(game_undo(&game, &ev.undo_cell, &ev.undo_role));
	ev.game = &game;
	root = encode(&ev, 0);
	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	expect_int(cJSON_GetArraySize(content), 25);
	expect_str(cJSON_GetArrayItem(content, 12)->valuestring, "front");
	expect_str(cJSON_GetArrayItem(content, 8)->valuestring, "");
	expect_str(member_string(root, "role"), "back");
	expect_int(member_number(root, "moves"), 1);
	undo = cJSON_GetObjectItemCaseSensitive(root, "undo");
	expect_int(member_number(undo, "x"), 3);
	expect_int(member_number(undo, "y"), 1);
	expect_str(member_string(undo, "role"), "back");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "move"));
	cJSON_Delete(root);
	game_release(&game);
}

/*
 * A renju game where black's G7 (6, 8) would make two threes:
 *      . . . . . . . . .
 *  9   . . . . . . X . .     (6, 6)
 *  8   . . . . . . X . .     (6, 7)
 *  7   . . . . . . * X X     (6, 8) forbidden; (7, 8) (8, 8)
 * White's four stones wait in the first column. Black is to move.
 */
static void play_renju_double_three(struct game *game, enum rule rule)
{
	static const struct cell black[] = { { 6, 6 },
					     { 6, 7 },
					     { 7, 8 },
					     { 8, 8 } };

	game_init(game, 15, rule, FULL_BOARD_BACK);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(game_play(game, ROLE_FRONT, black[i].x,
					   black[i].y),
				 MOVE_OK);
		assert_int_equal(game_play(game, ROLE_BACK, 0, i), MOVE_OK);
	}
}

/* The one forbidden point of play_renju_double_three(), or none. */
static void expect_forbidden_g7(const cJSON *root, bool present)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "forbidden");

	if (!present) {
		assert_null(list);
		return;
	}
	assert_true(cJSON_IsArray(list));
	expect_int(cJSON_GetArraySize(list), 1);
	expect_int(member_number(cJSON_GetArrayItem(list, 0), "x"), 6);
	expect_int(member_number(cJSON_GetArrayItem(list, 0), "y"), 8);
}

static void encodes_black_s_forbidden_points_in_a_renju_board(void **state)
{
	struct game game;
	struct event ev = { .type = EVENT_BOARD };
	cJSON *root;

	(void)state;
	play_renju_double_three(&game, RULE_RENJU);
	ev.game = &game;
	for (int compact = 0; compact < 2; compact++) {
		ev.compact = compact;
		root = encode(&ev, 0);
		expect_str(member_string(root, "role"), "front");
		expect_forbidden_g7(root, true);
		cJSON_Delete(root);
	}
	/* White to move: none. */
	assert_int_equal(game_play(&game, ROLE_FRONT, 10, 10), MOVE_OK);
	root = encode(&ev, 0);
	expect_forbidden_g7(root, false);
	cJSON_Delete(root);
	/* Black's stone taken back: the list again, in the takeback board. */
	assert_true(game_undo(&game, &ev.undo_cell, &ev.undo_role));
	ev.undo = true;
	root = encode(&ev, 0);
	expect_str(member_string(root, "role"), "front");
	expect_forbidden_g7(root, true);
	cJSON_Delete(root);
	game_release(&game);
	/* The same position under freestyle: never. */
	play_renju_double_three(&game, RULE_FREESTYLE);
	ev = (struct event){ .type = EVENT_BOARD, .game = &game };
	root = encode(&ev, 0);
	expect_forbidden_g7(root, false);
	cJSON_Delete(root);
	game_release(&game);
}

/*
 * A compact renju board whose forbidden list is long (black's XX.XX runs
 * on every other row) does not fit the compact bound alone:
 * protocol_board_text_max() makes room for the list.
 */
static void sizes_a_renju_board_for_its_forbidden_list(void **state)
{
	static char buf[PROTOCOL_BOARD_TEXT_MAX(15) +
			PROTOCOL_FORBIDDEN_TEXT_MAX(15)];
	struct game game;
	struct cell cells[BOARD_MAX_CELLS];
	size_t max, len;
	int count;

	(void)state;
	game_init(&game, 15, RULE_RENJU, FULL_BOARD_BACK);
	/* Black XX.XX runs on every other row, white out of the way. */
	for (int y = 0; y < 15; y += 2) {
		static const int xs[] = { 1, 2, 4, 5, 9, 10, 12, 13 };

		for (int i = 0; i < 8; i++)
			board_set(&game.board, xs[i], y, ROLE_FRONT);
	}
	count = renju_forbidden(&game.board, cells, BOARD_MAX_CELLS);
	assert_true(count > 8);
	max = protocol_board_text_max(&game, false);
	assert_true(max > PROTOCOL_COMPACT_BOARD_TEXT_MAX);
	assert_int_equal(
		protocol_write_board(&game, false, 0, buf,
				     PROTOCOL_COMPACT_BOARD_TEXT_MAX + 1),
		0);
	len = protocol_write_board(&game, false, 0, buf, max + 1);
	assert_true(len > 0 && len <= max);
	max = protocol_board_text_max(&game, true);
	len = protocol_write_board(&game, true, 0, buf, max + 1);
	assert_true(len > 0 && len <= max);
	game_release(&game);
}

static void encodes_role_without_opponent_when_the_name_is_empty(void **state)
{
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_FRONT,
		.room_id = "6f1c0e2a-9b7d-4c3e-8a5f-0123456789ab",
		.size = 15,
	};
	cJSON *root;

	(void)state;
	root = encode(&ev, 0);
	expect_str(member_string(root, "role"), "front");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "opponent"));
	/* untimed: tc "none", and neither clock nor abort_in */
	expect_str(member_string(root, "tc"), "none");
	expect_int(member_count(root), 6);
	cJSON_Delete(root);
	ev.opponent_name = "";
	root = encode(&ev, 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "opponent"));
	cJSON_Delete(root);
}

/* Checks that a board message's content mirrors game's board. */
static void check_content(const cJSON *root, const struct game *game)
{
	const cJSON *content;
	const cJSON *cell;
	int i = 0;

	content = cJSON_GetObjectItemCaseSensitive(root, "content");
	assert_true(cJSON_IsArray(content));
	expect_int(member_count(content), game->board.size * game->board.size);
	cJSON_ArrayForEach(cell, content) {
		const char *want = role_name((enum role)game->board.cells[i]);

		if (!cJSON_IsString(cell) || strcmp(cell->valuestring, want))
			fail_msg("content[%d] should be \"%s\"", i, want);
		i++;
	}
}

static void encodes_board_before_any_move_with_front_to_move(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_BACK);
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "type"), "board");
	check_content(root, &game);
	expect_str(member_string(root, "role"), "front");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "move"));
	expect_int(member_number(root, "moves"), 0);
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_board_with_content_next_side_move_and_count(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	const cJSON *move;
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	game_play(&game, ROLE_BACK, 0, 14);
	game_play(&game, ROLE_FRONT, 14, 0);
	ev.game = &game;
	root = encode(&ev, 16);
	check_content(root, &game);
	expect_str(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "content"),
				      14 * 15)
			   ->valuestring,
		   "back");
	expect_str(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "content"), 14)
			   ->valuestring,
		   "front");
	expect_str(member_string(root, "role"), "back");
	move = cJSON_GetObjectItemCaseSensitive(root, "move");
	assert_true(cJSON_IsObject(move));
	expect_int(member_number(move, "x"), 14);
	expect_int(member_number(move, "y"), 0);
	expect_str(member_string(move, "role"), "front");
	expect_int(member_count(move), 3);
	expect_int(member_number(root, "moves"), 3);
	expect_int(member_count(root), 5);
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_board_after_a_win_with_the_other_side_next(void **state)
{
	struct event ev = { .type = EVENT_BOARD };
	struct game game;
	cJSON *root;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_FRONT, i, 0);
		game_play(&game, ROLE_BACK, i, 1);
	}
	game_play(&game, ROLE_FRONT, 4, 0);
	assert_true(game_is_over(&game));
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "role"), "back");
	expect_int(member_number(root, "moves"), 9);
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_winner_by_five_with_the_line(void **state)
{
	struct event ev = { .type = EVENT_WINNER };
	const cJSON *line;
	const cJSON *cell;
	struct game game;
	cJSON *root;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 14, 14);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_BACK, 2 + i, 2 + i);
		game_play(&game, ROLE_FRONT, 0, i);
	}
	game_play(&game, ROLE_BACK, 6, 6);
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "type"), "winner");
	expect_str(member_string(root, "winner"), "back");
	expect_str(member_string(root, "reason"), "five");
	line = cJSON_GetObjectItemCaseSensitive(root, "line");
	assert_true(cJSON_IsArray(line));
	expect_int(member_count(line), 5);
	i = 0;
	cJSON_ArrayForEach(cell, line) {
		expect_int(member_number(cell, "x"), 2 + i);
		expect_int(member_number(cell, "y"), 2 + i);
		expect_int(member_count(cell), 2);
		i++;
	}
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_winner_by_full_board_or_forfeit_without_line(void **state)
{
	struct event ev = { .type = EVENT_WINNER };
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_DRAW);
	game.winner = WINNER_DRAW;
	game.reason = REASON_FULL;
	ev.game = &game;
	root = encode(&ev, 0);
	expect_str(member_string(root, "winner"), "draw");
	expect_str(member_string(root, "reason"), "full");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "line"));
	expect_int(member_count(root), 3);
	cJSON_Delete(root);

	game_release(&game);
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_forfeit(&game, ROLE_BACK);
	root = encode(&ev, 0);
	expect_str(member_string(root, "winner"), "front");
	expect_str(member_string(root, "reason"), "forfeit");
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "line"));
	cJSON_Delete(root);
	game_release(&game);
}

/* A clock reading of the timed tests, and their first-move deadline. */
#define T0 7000000u
#define FIRST_MS 30000

/* A 15x15 game of tc whose clocks started at T0. */
static void timed_game(struct game *game, struct time_control tc)
{
	assert_int_equal(game_init(game, 15, RULE_FREESTYLE, FULL_BOARD_BACK),
			 0);
	fischer_start(&game->clock, tc, FIRST_MS, T0);
}

/* Plays role's move at (x, y) at now_ms, as a room does. */
static void timed_move(struct game *game, enum role role, int x, int y,
		       uint64_t now_ms)
{
	assert_int_equal(game_play(game, role, x, y), MOVE_OK);
	fischer_moved(&game->clock, role, game->moves_played, now_ms);
}

/* The number member name of the object member "clock" of root. */
static double clock_of(const cJSON *root, const char *name)
{
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(root, "clock");

	if (!cJSON_IsObject(clock))
		fail_msg("no clock object");
	if (member_count(clock) != 2)
		fail_msg("clock has %d members, not front and back",
			 member_count(clock));
	return member_number(clock, name);
}

/* Writes the board of game at now_ms and parses it. */
static cJSON *write_board(const struct game *game, bool content,
			  uint64_t now_ms)
{
	char buf[PROTOCOL_BOARD_TEXT_MAX(15)];
	size_t len;
	cJSON *root;

	len = protocol_write_board(game, content, now_ms, buf, sizeof(buf));
	if (!len)
		fail_msg("the board did not fit %zu bytes", sizeof(buf));
	expect_int(len, strlen(buf));
	root = cJSON_ParseWithLength(buf, len);
	if (!cJSON_IsObject(root))
		fail_msg("not a JSON object: %s", buf);
	return root;
}

static void encodes_a_timed_role_with_clock_and_abort_in(void **state)
{
	struct game game;
	struct event ev = {
		.type = EVENT_ROLE,
		.role = ROLE_BACK,
		.room_id = "0193b2c4-5e6f-8a01-9b2c-3d4e5f60718a",
		.size = 15,
		.rule = RULE_FREESTYLE,
		.tc = { 300000, 5000 },
		.opponent_name = "Ada",
	};
	cJSON *root;

	(void)state;
	timed_game(&game, ev.tc);
	ev.game = &game;
	ev.now_ms = T0 + 4000;
	root = encode(&ev, 0);
	expect_str(member_string(root, "tc"), "300+5");
	expect_int(clock_of(root, "front"), 300000);
	expect_int(clock_of(root, "back"), 300000);
	expect_int(member_number(root, "abort_in"), FIRST_MS - 4000);
	expect_str(member_string(cJSON_GetObjectItemCaseSensitive(root,
								  "opponent"),
				 "name"),
		   "Ada");
	cJSON_Delete(root);

	/* resumed after both moved: the clocks of the moment, no abort_in */
	timed_move(&game, ROLE_FRONT, 7, 7, T0 + 10000);
	timed_move(&game, ROLE_BACK, 8, 8, T0 + 20000);
	ev.now_ms = T0 + 20000 + 12000;
	root = encode(&ev, 0);
	expect_int(clock_of(root, "front"), 305000 - 12000);
	expect_int(clock_of(root, "back"), 305000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "abort_in"));
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_a_timed_board_with_clock_and_abort_in(void **state)
{
	struct game game;
	cJSON *root;

	(void)state;
	timed_game(&game, (struct time_control){ 60000, 2000 });
	timed_move(&game, ROLE_FRONT, 7, 7, T0 + 5000);
	root = write_board(&game, true, T0 + 5000);
	expect_int(clock_of(root, "front"), 62000);
	expect_int(clock_of(root, "back"), 60000);
	/* back must answer within the deadline, counted from this move */
	expect_int(member_number(root, "abort_in"), FIRST_MS);
	expect_int(member_number(root, "moves"), 1);
	cJSON_Delete(root);
	root = write_board(&game, true, T0 + 5000 + 9000);
	expect_int(member_number(root, "abort_in"), FIRST_MS - 9000);
	expect_int(clock_of(root, "back"), 60000);
	cJSON_Delete(root);

	timed_move(&game, ROLE_BACK, 8, 8, T0 + 20000);
	root = write_board(&game, true, T0 + 20000);
	expect_int(clock_of(root, "front"), 62000);
	expect_int(clock_of(root, "back"), 62000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "abort_in"));
	cJSON_Delete(root);

	/* front took 7 s over its second move: charged, and given 2 s */
	timed_move(&game, ROLE_FRONT, 6, 6, T0 + 27000);
	root = write_board(&game, false, T0 + 27000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "content"));
	expect_str(member_string(root, "role"), "back");
	expect_int(clock_of(root, "front"), 57000);
	expect_int(clock_of(root, "back"), 62000);
	cJSON_Delete(root);
	/* a board written later shows back's clock run down */
	root = write_board(&game, true, T0 + 27000 + 1500);
	expect_int(clock_of(root, "back"), 60500);
	expect_int(clock_of(root, "front"), 57000);
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_an_untimed_board_without_clock(void **state)
{
	struct game game;
	cJSON *root;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	fischer_start(&game.clock, (struct time_control){ 0, 0 }, FIRST_MS, T0);
	root = write_board(&game, true, T0 + 1000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "clock"));
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "abort_in"));
	cJSON_Delete(root);
	assert_int_equal(game_play(&game, ROLE_FRONT, 7, 7), MOVE_OK);
	root = write_board(&game, false, T0 + 1000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "clock"));
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "abort_in"));
	expect_int(member_count(root), 4);
	cJSON_Delete(root);
	expect_int(protocol_abort_in(&game, T0), -1);
	game_release(&game);
}

static void abort_in_counts_down_to_zero_and_stops_at_two_moves(void **state)
{
	struct game game;

	(void)state;
	timed_game(&game, (struct time_control){ 60000, 0 });
	expect_int(protocol_abort_in(&game, T0), FIRST_MS);
	expect_int(protocol_abort_in(&game, T0 + FIRST_MS - 1), 1);
	expect_int(protocol_abort_in(&game, T0 + FIRST_MS), 0);
	expect_int(protocol_abort_in(&game, T0 + FIRST_MS + 5000), 0);
	timed_move(&game, ROLE_FRONT, 0, 0, T0 + 1000);
	expect_int(protocol_abort_in(&game, T0 + 1000), FIRST_MS);
	timed_move(&game, ROLE_BACK, 1, 0, T0 + 2000);
	expect_int(protocol_abort_in(&game, T0 + 2000), -1);
	game_release(&game);

	/* a game that ended before its second move has no deadline */
	timed_game(&game, (struct time_control){ 60000, 0 });
	fischer_stop(&game.clock, ROLE_FRONT, T0 + 100);
	game_halt(&game, REASON_ABORTED);
	expect_int(protocol_abort_in(&game, T0 + 100), -1);
	game_release(&game);
}

static void encodes_a_timed_winner_with_the_final_clock(void **state)
{
	struct event ev = { .type = EVENT_WINNER };
	struct game game;
	cJSON *root;

	(void)state;
	timed_game(&game, (struct time_control){ 60000, 2000 });
	timed_move(&game, ROLE_FRONT, 7, 7, T0);
	timed_move(&game, ROLE_BACK, 8, 8, T0 + 1000);
	/* front's flag falls */
	fischer_stop(&game.clock, ROLE_FRONT, T0 + 1000 + 62000);
	game_lose(&game, ROLE_FRONT, REASON_TIMEOUT);
	ev.game = &game;
	ev.now_ms = T0 + 1000 + 62000 + 5000;
	root = encode(&ev, 0);
	expect_str(member_string(root, "winner"), "back");
	expect_str(member_string(root, "reason"), "timeout");
	expect_int(clock_of(root, "front"), 0);
	expect_int(clock_of(root, "back"), 62000);
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "abort_in"));
	assert_null(cJSON_GetObjectItemCaseSensitive(root, "line"));
	expect_int(member_count(root), 4);
	cJSON_Delete(root);
	game_release(&game);
}

static void encodes_resign_agreement_and_aborted_winners(void **state)
{
	static const struct {
		enum game_reason reason;
		enum role loser;
		const char *winner, *word;
	} ends[] = {
		{ REASON_RESIGN, ROLE_BACK, "front", "resign" },
		{ REASON_RESIGN, ROLE_FRONT, "back", "resign" },
		{ REASON_AGREEMENT, ROLE_NONE, "draw", "agreement" },
		{ REASON_ABORTED, ROLE_NONE, "none", "aborted" },
	};
	struct event ev = { .type = EVENT_WINNER };
	struct game game;
	cJSON *root;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
		if (ends[i].loser == ROLE_NONE)
			game_halt(&game, ends[i].reason);
		else
			game_lose(&game, ends[i].loser, ends[i].reason);
		ev.game = &game;
		root = encode(&ev, 0);
		expect_str(member_string(root, "winner"), ends[i].winner);
		expect_str(member_string(root, "reason"), ends[i].word);
		/* untimed: no clock */
		expect_int(member_count(root), 3);
		cJSON_Delete(root);
		game_release(&game);
	}
}

static void encodes_offers_and_answers_of_draw_and_rematch(void **state)
{
	static const char *const words[OFFER_COUNT] = { "takeback", "draw",
							"rematch" };
	struct event offer = { .type = EVENT_OFFER, .by = ROLE_FRONT };
	struct event answer = { .type = EVENT_ANSWER, .by = ROLE_BACK };
	cJSON *root;
	int what;

	(void)state;
	for (what = 0; what < OFFER_COUNT; what++) {
		offer.what = (enum offer_what)what;
		root = encode(&offer, 0);
		expect_str(member_string(root, "type"), "offer");
		expect_str(member_string(root, "what"), words[what]);
		expect_str(member_string(root, "by"), "front");
		expect_int(member_count(root), 3);
		cJSON_Delete(root);
		answer.what = (enum offer_what)what;
		answer.accept = what != OFFER_DRAW;
		root = encode(&answer, 0);
		expect_str(member_string(root, "type"), "answer");
		expect_str(member_string(root, "what"), words[what]);
		expect_str(member_string(root, "by"), "back");
		expect_int(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				   root, "accept")),
			   what != OFFER_DRAW);
		expect_int(member_count(root), 4);
		cJSON_Delete(root);
	}
}

/* Encodes ev and checks the whole text. */
static void expect_encoded(const struct event *ev, const char *expected)
{
	size_t len;
	char *text = protocol_encode(ev, 0, &len);

	expect_str(text, expected);
	expect_int(len, strlen(expected));
	free(text);
}

static void encodes_spectate_with_names_only_and_the_count(void **state)
{
	struct event ev = {
		.type = EVENT_SPECTATE,
		.uid = "3f2b8c1e-6a4d-4e2f-9b1a-0c5d7e8f9a0b",
		.room_id = "25edc766-5e4f-88e7-b550-709182c70aed",
		.size = 19,
		.rule = RULE_STANDARD,
		.tc = { 300000, 5000 },
		.names = { [ROLE_FRONT] = "Ann", [ROLE_BACK] = "" },
	};

	(void)state;
	expect_encoded(&ev,
		       "{\"type\":\"spectate\","
		       "\"room\":\"25edc766-5e4f-88e7-b550-709182c70aed\","
		       "\"size\":19,\"rule\":\"standard\",\"tc\":\"300+5\","
		       "\"players\":{\"front\":{\"name\":\"Ann\"},"
		       "\"back\":{}}}");
	ev = (struct event){ .type = EVENT_SPECTATORS, .count = 5000 };
	expect_encoded(&ev, "{\"type\":\"spectators\",\"count\":5000}");
	/* a spectator's welcome: no uid */
	ev = (struct event){ .type = EVENT_WELCOME,
			     .version = "1",
			     .size = 15 };
	expect_encoded(&ev, "{\"type\":\"welcome\",\"protocol\":2,"
			    "\"size\":15,\"rule\":\"freestyle\","
			    "\"tc\":\"none\",\"version\":\"1\"}");
}

static void
encodes_a_seat_away_or_back_with_its_role_for_spectators(void **state)
{
	struct event ev = { .type = EVENT_OPPONENT_AWAY, .seconds = 30 };

	(void)state;
	/* to a player: no role (it is the opponent) */
	expect_encoded(&ev, "{\"type\":\"opponent_away\",\"seconds\":30}");
	ev.by = ROLE_FRONT;
	expect_encoded(&ev, "{\"type\":\"opponent_away\",\"seconds\":30,"
			    "\"role\":\"front\"}");
	ev = (struct event){ .type = EVENT_OPPONENT_BACK };
	expect_encoded(&ev, "{\"type\":\"opponent_back\"}");
	ev.by = ROLE_BACK;
	expect_encoded(&ev, "{\"type\":\"opponent_back\",\"role\":\"back\"}");
}

static void encodes_an_emote_with_who_and_the_word_only(void **state)
{
	static const char *const words[EMOTE_COUNT] = {
		"hello", "hurry", "nice", "wow", "oops", "thanks", "gg", "smug",
	};
	struct event ev = {
		.type = EVENT_EMOTE,
		.by = ROLE_BACK,
		.text = "ignored",
	};
	char expected[96];
	size_t len;
	char *text;
	int emote;

	(void)state;
	for (emote = 0; emote < EMOTE_COUNT; emote++) {
		ev.emote = (enum emote)emote;
		ev.by = emote % 2 ? ROLE_FRONT : ROLE_BACK;
		snprintf(expected, sizeof(expected),
			 "{\"type\":\"emote\",\"by\":\"%s\","
			 "\"emote\":\"%s\"}",
			 emote % 2 ? "front" : "back", words[emote]);
		text = protocol_encode(&ev, 0, &len);
		expect_str(text, expected);
		expect_int(len, strlen(expected));
		free(text);
	}
	expect_str(protocol_event_name(EVENT_EMOTE), "emote");
}

static void encodes_disconnect_with_its_text(void **state)
{
	struct event ev = {
		.type = EVENT_DISCONNECT,
		.text = "opponent left",
	};
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&ev, 0, &len);
	expect_str(text, "{\"type\":\"disconnect\",\"disconnect\":"
			 "\"opponent left\"}");
	free(text);
}

static void encodes_error_with_code_and_message_for_every_code(void **state)
{
	struct event ev = { .type = EVENT_ERROR, .text = "it is \"wrong\"" };
	cJSON *root;
	int code;

	(void)state;
	for (code = ERR_BAD_JSON; code < ERR_COUNT; code++) {
		ev.code = (enum error_code)code;
		root = encode(&ev, 0);
		expect_str(member_string(root, "type"), "error");
		expect_str(member_string(root, "code"),
			   error_code_name((enum error_code)code));
		expect_str(member_string(root, "message"), ev.text);
		expect_int(member_count(root), 3);
		cJSON_Delete(root);
	}
}

static void encodes_opponent_away_with_its_seconds(void **state)
{
	static const int seconds[] = { 0, 1, 30, 3600, 2147483647 };
	struct event ev = { .type = EVENT_OPPONENT_AWAY };
	char expected[64];
	size_t len;
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(seconds) / sizeof(seconds[0]); i++) {
		ev.seconds = seconds[i];
		snprintf(expected, sizeof(expected),
			 "{\"type\":\"opponent_away\",\"seconds\":%d}",
			 seconds[i]);
		text = protocol_encode(&ev, 0, &len);
		expect_str(text, expected);
		expect_int(len, strlen(expected));
		free(text);
	}
}

static void encodes_opponent_back_as_just_its_type(void **state)
{
	/* Fields of other events are left out even when set. */
	struct event ev = {
		.type = EVENT_OPPONENT_BACK,
		.seconds = 30,
		.text = "ignored",
	};
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&ev, 0, &len);
	expect_str(text, "{\"type\":\"opponent_back\"}");
	expect_int(len, strlen("{\"type\":\"opponent_back\"}"));
	free(text);
}

static void encodes_invite_with_its_code_only(void **state)
{
	/* Fields of other events are left out even when set. */
	struct event ev = {
		.type = EVENT_INVITE,
		.invite = "Ab-_09zZyXwV",
		.text = "ignored",
		.room_id = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0",
		.seconds = 30,
	};
	static const char want[] =
		"{\"type\":\"invite\",\"code\":\"Ab-_09zZyXwV\"}";
	cJSON *root;
	size_t len;
	char *text;

	(void)state;
	text = protocol_encode(&ev, 0, &len);
	expect_str(text, want);
	expect_int(len, strlen(want));
	free(text);
	root = encode(&ev, 8);
	expect_str(member_string(root, "type"), "invite");
	expect_str(member_string(root, "code"), "Ab-_09zZyXwV");
	expect_int(member_count(root), 2);
	cJSON_Delete(root);
	expect_str(protocol_event_name(EVENT_INVITE), "invite");
}

static void does_not_encode_replaced(void **state)
{
	struct event ev = { .type = EVENT_REPLACED };
	size_t len = 12345;

	(void)state;
	assert_null(protocol_encode(&ev, 16, &len));
}

static void encode_puts_the_text_after_the_headroom(void **state)
{
	struct event ev = { .type = EVENT_PONG };
	static const char pong[] = "{\"type\":\"pong\"}";
	size_t headrooms[] = { 0, 1, 16, 4096 };
	size_t len;
	size_t i;
	char *buffer;

	(void)state;
	for (i = 0; i < sizeof(headrooms) / sizeof(headrooms[0]); i++) {
		buffer = protocol_encode(&ev, headrooms[i], &len);
		assert_non_null(buffer);
		expect_int(len, sizeof(pong) - 1);
		/* Writes the headroom too, for valgrind and ASan to see. */
		memset(buffer, 'h', headrooms[i]);
		assert_memory_equal(buffer + headrooms[i], pong, sizeof(pong));
		free(buffer);
	}
}

static void error_code_names_are_the_protocol_words(void **state)
{
	static const char *const names[ERR_COUNT] = {
		"",
		"bad_json",
		"bad_type",
		"bad_uid",
		"bad_name",
		"not_in_game",
		"not_your_turn",
		"out_of_range",
		"occupied",
		"bad_board",
		"game_over",
		"too_large",
		"rate_limited",
		"bad_mode",
		"bad_offer",
		"nothing_to_undo",
		"nothing_to_redo",
		"offer_pending",
		"no_offer",
		"too_soon",
		"unavailable",
		"bad_query",
		"too_late",
		"opponent_gone",
		"bad_emote",
		"spectator",
		"no_such_room",
		"too_many_spectators",
		"no_such_invite",
		"forbidden",
	};
	int code;

	(void)state;
	for (code = 0; code < ERR_COUNT; code++)
		expect_str(error_code_name((enum error_code)code), names[code]);
}

static void refused_moves_map_to_their_error_codes(void **state)
{
	(void)state;
	expect_code(error_from_move_result(MOVE_OK), ERR_NONE);
	expect_code(error_from_move_result(MOVE_OUT_OF_RANGE),
		    ERR_OUT_OF_RANGE);
	expect_code(error_from_move_result(MOVE_OCCUPIED), ERR_OCCUPIED);
	expect_code(error_from_move_result(MOVE_NOT_YOUR_TURN),
		    ERR_NOT_YOUR_TURN);
	expect_code(error_from_move_result(MOVE_GAME_OVER), ERR_GAME_OVER);
	expect_code(error_from_move_result(MOVE_BAD_BOARD), ERR_BAD_BOARD);
	expect_code(error_from_move_result(MOVE_FORBIDDEN), ERR_FORBIDDEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			encodes_an_engine_opponent_with_ai_and_level_and_no_name),
		cmocka_unit_test(encodes_offer_and_answer_with_who),
		cmocka_unit_test(
			encodes_a_takeback_board_with_content_and_undo),
		cmocka_unit_test(
			encodes_welcome_with_uid_protocol_size_rule_version),
		cmocka_unit_test(encodes_waiting_and_pong_as_just_their_type),
		cmocka_unit_test(encodes_role_with_the_opponent_name),
		cmocka_unit_test(
			encodes_role_without_opponent_when_the_name_is_empty),
		cmocka_unit_test(
			encodes_board_before_any_move_with_front_to_move),
		cmocka_unit_test(
			encodes_board_with_content_next_side_move_and_count),
		cmocka_unit_test(
			encodes_board_after_a_win_with_the_other_side_next),
		cmocka_unit_test(encodes_winner_by_five_with_the_line),
		cmocka_unit_test(
			encodes_winner_by_full_board_or_forfeit_without_line),
		cmocka_unit_test(encodes_welcome_with_the_pool_asked_for),
		cmocka_unit_test(encodes_a_timed_role_with_clock_and_abort_in),
		cmocka_unit_test(encodes_a_timed_board_with_clock_and_abort_in),
		cmocka_unit_test(encodes_an_untimed_board_without_clock),
		cmocka_unit_test(
			abort_in_counts_down_to_zero_and_stops_at_two_moves),
		cmocka_unit_test(encodes_a_timed_winner_with_the_final_clock),
		cmocka_unit_test(encodes_resign_agreement_and_aborted_winners),
		cmocka_unit_test(
			encodes_offers_and_answers_of_draw_and_rematch),
		cmocka_unit_test(encodes_an_emote_with_who_and_the_word_only),
		cmocka_unit_test(encodes_disconnect_with_its_text),
		cmocka_unit_test(
			encodes_error_with_code_and_message_for_every_code),
		cmocka_unit_test(encodes_opponent_away_with_its_seconds),
		cmocka_unit_test(encodes_opponent_back_as_just_its_type),
		cmocka_unit_test(encodes_invite_with_its_code_only),
		cmocka_unit_test(does_not_encode_replaced),
		cmocka_unit_test(encode_puts_the_text_after_the_headroom),
		cmocka_unit_test(
			encodes_spectate_with_names_only_and_the_count),
		cmocka_unit_test(
			encodes_a_seat_away_or_back_with_its_role_for_spectators),
		cmocka_unit_test(error_code_names_are_the_protocol_words),
		cmocka_unit_test(refused_moves_map_to_their_error_codes),
		cmocka_unit_test(
			encodes_black_s_forbidden_points_in_a_renju_board),
		cmocka_unit_test(sizes_a_renju_board_for_its_forbidden_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
