/*
 * test_game.c - turns, refusals, fives, full boards, forfeits and the
 * seed-form board of one game.
 *
 * One test file per module (core/game.c); over 600 lines because each rule
 * has a test of its own.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"
#include "expect.h"

/* core's names, taking the int expect_enum() hands over. */
static const char *result_name(int result)
{
	return move_result_name((enum move_result)result);
}

static const char *winner_name(int winner)
{
	if (winner == WINNER_NONE)
		return "none";
	return game_winner_name((enum game_winner)winner);
}

static const char *reason_name(int reason)
{
	if (reason == REASON_NONE)
		return "none";
	return game_reason_name((enum game_reason)reason);
}

#define expect_result(actual, expected) \
	expect_enum(actual, expected, result_name)

/*
 * A 5x5 board filled with no five anywhere, row by row: 13 front stones (F)
 * and 12 back stones (B).
 */
static const char no_five_fill[] = "FBFBF"
				   "FFBFB"
				   "FBBBF"
				   "BFBFB"
				   "FBFBF";

/* A 5x5 fill whose only five is the top row, completed at (4, 0). */
static const char five_on_last_cell_fill[] = "FFFFF"
					     "FFFBB"
					     "BBBBF"
					     "BFFBB"
					     "BFBFB";

/*
 * Plays a 5x5 pattern to the end, front and back alternating, each side
 * taking its own cells in reading order but (last_x, last_y) last of all.
 * Every move but the last must leave the game going.
 */
static void play_pattern(struct game *game, const char *pattern, int last_x,
			 int last_y)
{
	struct cell front[13], back[12];
	int fronts = 0, backs = 0;
	int x, y, i;

	for (y = 0; y < 5; y++) {
		for (x = 0; x < 5; x++) {
			if (x == last_x && y == last_y)
				continue;
			if (pattern[y * 5 + x] == 'F')
				front[fronts++] = (struct cell){ x, y };
			else
				back[backs++] = (struct cell){ x, y };
		}
	}
	front[fronts++] = (struct cell){ last_x, last_y };
	assert_int_equal(fronts, 13);
	assert_int_equal(backs, 12);

	for (i = 0; i < 25; i++) {
		const struct cell *c = i % 2 ? &back[i / 2] : &front[i / 2];
		enum role role = i % 2 ? ROLE_BACK : ROLE_FRONT;

		expect_result(game_play(game, role, c->x, c->y), MOVE_OK);
		if (i < 24 && game_is_over(game))
			fail_msg("game ended early, at move %d (%d, %d)", i + 1,
				 c->x, c->y);
	}
}

static void init_puts_front_to_move_on_an_empty_board(void **state)
{
	struct game game;

	(void)state;
	expect_int(game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK), 0);
	expect_int(game.to_move, ROLE_FRONT);
	expect_int(game.moves_played, 0);
	expect_int(game.board.stones, 0);
	expect_int(game.board.size, 15);
	expect_int(game.rule, RULE_FREESTYLE);
	expect_int(game.full_board, FULL_BOARD_BACK);
	expect_enum(game.winner, WINNER_NONE, winner_name);
	expect_enum(game.reason, REASON_NONE, reason_name);
	assert_false(game_is_over(&game));
	game_release(&game);
}

static void init_refuses_a_board_size_out_of_range(void **state)
{
	struct game game;

	(void)state;
	expect_int(game_init(&game, 4, RULE_FREESTYLE, FULL_BOARD_BACK),
		   -EINVAL);
	expect_int(game_init(&game, 26, RULE_STANDARD, FULL_BOARD_DRAW),
		   -EINVAL);
}

static void front_moves_first_then_the_sides_alternate(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	expect_result(game_play(&game, ROLE_FRONT, 7, 7), MOVE_OK);
	expect_int(game.to_move, ROLE_BACK);
	expect_result(game_play(&game, ROLE_BACK, 8, 8), MOVE_OK);
	expect_int(game.to_move, ROLE_FRONT);
	expect_result(game_play(&game, ROLE_FRONT, 6, 6), MOVE_OK);
	expect_int(game.to_move, ROLE_BACK);
	expect_int(game.moves_played, 3);
	expect_int(board_get(&game.board, 7, 7), ROLE_FRONT);
	expect_int(board_get(&game.board, 8, 8), ROLE_BACK);
	expect_int(board_get(&game.board, 6, 6), ROLE_FRONT);
	game_release(&game);
}

static void a_move_records_the_last_move_and_its_mover(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 3, 11);
	expect_int(game.last_move.x, 3);
	expect_int(game.last_move.y, 11);
	expect_int(game.last_mover, ROLE_FRONT);
	game_play(&game, ROLE_BACK, 14, 0);
	expect_int(game.last_move.x, 14);
	expect_int(game.last_move.y, 0);
	expect_int(game.last_mover, ROLE_BACK);
	game_release(&game);
}

static void back_cannot_move_first(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	expect_result(game_play(&game, ROLE_BACK, 7, 7), MOVE_NOT_YOUR_TURN);
	expect_result(game_play(&game, ROLE_NONE, 7, 7), MOVE_NOT_YOUR_TURN);
	game_release(&game);
}

static void a_side_cannot_move_twice_in_a_row(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	expect_result(game_play(&game, ROLE_FRONT, 8, 8), MOVE_NOT_YOUR_TURN);
	game_release(&game);
}

static void a_move_off_the_board_is_out_of_range(void **state)
{
	static const struct cell off[] = {
		{ -1, 0 },	   { 0, -1 },  { 15, 0 },
		{ 0, 15 },	   { 15, 15 }, { -2147483647 - 1, 0 },
		{ 0, 2147483647 },
	};
	struct game game;
	size_t i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		enum move_result result =
			game_play(&game, ROLE_FRONT, off[i].x, off[i].y);

		if (result != MOVE_OUT_OF_RANGE)
			fail_msg("(%d, %d): expected MOVE_OUT_OF_RANGE, got %s",
				 off[i].x, off[i].y, move_result_name(result));
	}
	expect_result(game_play(&game, ROLE_FRONT, 14, 14), MOVE_OK);
	game_release(&game);
}

static void a_move_on_a_stone_is_occupied(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	expect_result(game_play(&game, ROLE_BACK, 7, 7), MOVE_OCCUPIED);
	game_play(&game, ROLE_BACK, 8, 7);
	expect_result(game_play(&game, ROLE_FRONT, 8, 7), MOVE_OCCUPIED);
	expect_result(game_play(&game, ROLE_FRONT, 7, 7), MOVE_OCCUPIED);
	game_release(&game);
}

static void the_turn_is_checked_before_the_range_and_the_cell(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	expect_result(game_play(&game, ROLE_FRONT, 99, 99), MOVE_NOT_YOUR_TURN);
	expect_result(game_play(&game, ROLE_FRONT, 7, 7), MOVE_NOT_YOUR_TURN);
	game_release(&game);
}

static void a_refused_move_changes_nothing(void **state)
{
	struct game game, before;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	before = game;
	game_play(&game, ROLE_FRONT, 0, 0);
	game_play(&game, ROLE_BACK, 7, 7);
	game_play(&game, ROLE_BACK, -1, 3);
	game_play(&game, ROLE_NONE, 1, 1);
	assert_memory_equal(&game, &before, sizeof(game));
	game_release(&game);
}

/*
 * Renju: black's forbidden point is refused and changes nothing; white
 * may play it; black's five is never refused.
 *  . . X . . .      black at (6, 6) (6, 7) (7, 8) (8, 8): (6, 8) would
 *  . . X . . .      make two threes
 *  . . * X X .
 */
static void renju_refuses_black_s_forbidden_point_and_nothing_else(void **state)
{
	static const struct cell black[] = { { 6, 6 },
					     { 6, 7 },
					     { 7, 8 },
					     { 8, 8 } };
	struct game game, before;

	(void)state;
	game_init(&game, 15, RULE_RENJU, FULL_BOARD_BACK);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(game_play(&game, ROLE_FRONT, black[i].x,
					   black[i].y),
				 MOVE_OK);
		assert_int_equal(game_play(&game, ROLE_BACK, 0, i), MOVE_OK);
	}
	before = game;
	assert_int_equal(game_play(&game, ROLE_FRONT, 6, 8), MOVE_FORBIDDEN);
	assert_memory_equal(&game, &before, sizeof(game));
	expect_str(move_result_name(MOVE_FORBIDDEN), "forbidden");
	/* White may take the point. */
	assert_int_equal(game_play(&game, ROLE_FRONT, 12, 12), MOVE_OK);
	assert_int_equal(game_play(&game, ROLE_BACK, 6, 8), MOVE_OK);
	game_release(&game);
	/* Under freestyle the same point is an ordinary move. */
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (int i = 0; i < 4; i++) {
		game_play(&game, ROLE_FRONT, black[i].x, black[i].y);
		game_play(&game, ROLE_BACK, 0, i);
	}
	assert_int_equal(game_play(&game, ROLE_FRONT, 6, 8), MOVE_OK);
	game_release(&game);
}

static void the_history_lists_every_move_as_a_flat_index_in_order(void **state)
{
	static const struct cell moves[] = {
		{ 7, 7 }, { 0, 0 }, { 14, 14 }, { 14, 0 }, { 0, 14 }, { 3, 11 },
	};
	struct game game;
	size_t i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
		expect_result(game_play(&game, i % 2 ? ROLE_BACK : ROLE_FRONT,
					moves[i].x, moves[i].y),
			      MOVE_OK);
	expect_int(game.moves_played, 6);
	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
		if (game.history[i] != moves[i].y * 15 + moves[i].x)
			fail_msg("history[%zu]: expected %d, got %u", i,
				 moves[i].y * 15 + moves[i].x, game.history[i]);
	game_release(&game);
}

static void a_refused_move_or_a_forfeit_adds_nothing_to_history(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	game_play(&game, ROLE_FRONT, 8, 8);
	game_play(&game, ROLE_BACK, 7, 7);
	game_play(&game, ROLE_BACK, 15, 0);
	game_forfeit(&game, ROLE_BACK);
	game_play(&game, ROLE_BACK, 8, 8);
	expect_int(game.moves_played, 1);
	expect_int(game.history[0], 7 * 15 + 7);
	expect_int(game.history[1], 0);
	game_release(&game);
}

static void the_history_of_a_full_board_holds_every_cell_once(void **state)
{
	bool seen[25] = { false };
	struct game game;
	int i;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_DRAW);
	play_pattern(&game, no_five_fill, 4, 4);
	expect_int(game.moves_played, 25);
	expect_int(game.history[24], 4 * 5 + 4);
	for (i = 0; i < 25; i++) {
		if (game.history[i] >= 25 || seen[game.history[i]])
			fail_msg("history[%d] = %u: off the board or twice", i,
				 game.history[i]);
		seen[game.history[i]] = true;
		if (game.board.cells[game.history[i]] !=
		    (i % 2 ? ROLE_BACK : ROLE_FRONT))
			fail_msg("history[%d] = %u holds the other side", i,
				 game.history[i]);
	}
	game_release(&game);
}

static void front_wins_with_five_in_a_row(void **state)
{
	struct game game;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 4; i++) {
		expect_result(game_play(&game, ROLE_FRONT, 3 + i, 5), MOVE_OK);
		expect_result(game_play(&game, ROLE_BACK, 3 + i, 6), MOVE_OK);
	}
	expect_result(game_play(&game, ROLE_FRONT, 7, 5), MOVE_OK);
	assert_true(game_is_over(&game));
	expect_enum(game.winner, WINNER_FRONT, winner_name);
	expect_enum(game.reason, REASON_FIVE, reason_name);
	expect_int(game.to_move, ROLE_NONE);
	expect_int(game.moves_played, 9);
	expect_int(game.line.length, 5);
	for (i = 0; i < 5; i++) {
		expect_int(game.line.cells[i].x, 3 + i);
		expect_int(game.line.cells[i].y, 5);
	}
	game_release(&game);
}

static void back_wins_with_five_in_a_column(void **state)
{
	struct game game;
	int i;

	(void)state;
	game_init(&game, 15, RULE_STANDARD, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 0, 0);
	for (i = 0; i < 4; i++) {
		expect_result(game_play(&game, ROLE_BACK, 14, 10 + i), MOVE_OK);
		expect_result(game_play(&game, ROLE_FRONT, 2 * i + 2, 0),
			      MOVE_OK);
	}
	assert_false(game_is_over(&game));
	/* The last stone lands at the top of the run. */
	expect_result(game_play(&game, ROLE_BACK, 14, 9), MOVE_OK);
	expect_enum(game.winner, WINNER_BACK, winner_name);
	expect_enum(game.reason, REASON_FIVE, reason_name);
	expect_int(game.line.length, 5);
	expect_int(game.line.cells[0].y, 9);
	expect_int(game.line.cells[4].y, 13);
	expect_int(game.last_mover, ROLE_BACK);
	game_release(&game);
}

static void a_full_board_without_five_goes_to_back_by_default(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_BACK);
	play_pattern(&game, no_five_fill, 4, 4);
	assert_true(game_is_over(&game));
	assert_true(board_is_full(&game.board));
	expect_enum(game.winner, WINNER_BACK, winner_name);
	expect_enum(game.reason, REASON_FULL, reason_name);
	expect_int(game.to_move, ROLE_NONE);
	expect_int(game.moves_played, 25);
	game_release(&game);
}

static void a_full_board_without_five_is_a_draw_when_so_configured(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 5, RULE_STANDARD, FULL_BOARD_DRAW);
	play_pattern(&game, no_five_fill, 0, 0);
	expect_enum(game.winner, WINNER_DRAW, winner_name);
	expect_enum(game.reason, REASON_FULL, reason_name);
	expect_int(game.to_move, ROLE_NONE);
	game_release(&game);
}

static void a_five_on_the_last_empty_cell_wins_rather_than_fills(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 5, RULE_FREESTYLE, FULL_BOARD_DRAW);
	play_pattern(&game, five_on_last_cell_fill, 4, 0);
	assert_true(board_is_full(&game.board));
	expect_enum(game.winner, WINNER_FRONT, winner_name);
	expect_enum(game.reason, REASON_FIVE, reason_name);
	game_release(&game);
}

static void every_move_after_the_game_is_over_is_refused(void **state)
{
	struct game game, before;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_FRONT, i, 0);
		game_play(&game, ROLE_BACK, i, 1);
	}
	game_play(&game, ROLE_FRONT, 4, 0);
	assert_true(game_is_over(&game));
	before = game;
	expect_result(game_play(&game, ROLE_BACK, 4, 1), MOVE_GAME_OVER);
	expect_result(game_play(&game, ROLE_FRONT, 9, 9), MOVE_GAME_OVER);
	expect_result(game_play(&game, ROLE_BACK, -1, 99), MOVE_GAME_OVER);
	expect_result(game_play(&game, ROLE_BACK, 0, 0), MOVE_GAME_OVER);
	assert_memory_equal(&game, &before, sizeof(game));
	game_release(&game);
}

static void forfeit_gives_a_live_game_to_the_other_side(void **state)
{
	struct game game;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	game_forfeit(&game, ROLE_FRONT);
	assert_true(game_is_over(&game));
	expect_enum(game.winner, WINNER_BACK, winner_name);
	expect_enum(game.reason, REASON_FORFEIT, reason_name);
	expect_int(game.to_move, ROLE_NONE);
	expect_result(game_play(&game, ROLE_BACK, 8, 8), MOVE_GAME_OVER);

	game_release(&game);
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_forfeit(&game, ROLE_BACK);
	expect_enum(game.winner, WINNER_FRONT, winner_name);
	game_release(&game);
}

static void forfeit_after_the_game_is_over_changes_nothing(void **state)
{
	struct game game, before;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 4; i++) {
		game_play(&game, ROLE_FRONT, 0, i);
		game_play(&game, ROLE_BACK, 1, i);
	}
	game_play(&game, ROLE_FRONT, 0, 4);
	before = game;
	game_forfeit(&game, ROLE_FRONT);
	assert_memory_equal(&game, &before, sizeof(game));
	expect_enum(game.winner, WINNER_FRONT, winner_name);
	expect_enum(game.reason, REASON_FIVE, reason_name);
	game_release(&game);
}

static void winner_and_reason_names_are_the_protocol_words(void **state)
{
	(void)state;
	expect_str(game_winner_name(WINNER_NONE), "");
	expect_str(game_winner_name(WINNER_FRONT), "front");
	expect_str(game_winner_name(WINNER_BACK), "back");
	expect_str(game_winner_name(WINNER_DRAW), "draw");
	expect_str(game_reason_name(REASON_NONE), "");
	expect_str(game_reason_name(REASON_FIVE), "five");
	expect_str(game_reason_name(REASON_FULL), "full");
	expect_str(game_reason_name(REASON_FORFEIT), "forfeit");
}

/* A game with front at (7, 7) and back at (8, 8); front to move. */
static void two_moves_in(struct game *game, uint8_t cells[BOARD_MAX_CELLS])
{
	game_init(game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(game, ROLE_FRONT, 7, 7);
	game_play(game, ROLE_BACK, 8, 8);
	memcpy(cells, game->board.cells, sizeof(game->board.cells));
}

static void board_move_finds_the_one_new_stone(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game, before;
	int x = -1, y = -1;

	(void)state;
	two_moves_in(&game, cells);
	cells[3 * 15 + 12] = ROLE_FRONT;
	before = game;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_OK);
	expect_int(x, 12);
	expect_int(y, 3);
	assert_memory_equal(&game, &before, sizeof(game));
	game_release(&game);
}

static void board_move_finds_the_first_and_the_last_cell(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS] = { 0 };
	struct game game;
	int x = -1, y = -1;

	(void)state;
	game_init(&game, 16, RULE_FREESTYLE, FULL_BOARD_BACK);
	cells[0] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_OK);
	expect_int(x, 0);
	expect_int(y, 0);
	cells[0] = ROLE_NONE;
	cells[16 * 16 - 1] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_OK);
	expect_int(x, 15);
	expect_int(y, 15);
	game_release(&game);
}

static void board_move_with_no_change_is_a_bad_board(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	game_release(&game);
}

static void board_move_with_two_new_stones_is_a_bad_board(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[0] = ROLE_FRONT;
	cells[1] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	game_release(&game);
}

static void board_move_in_the_wrong_colour_is_a_bad_board(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[0] = ROLE_BACK;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	cells[1] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	game_release(&game);
}

static void board_move_with_a_stone_removed_is_bad_board(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[8 * 15 + 8] = ROLE_NONE;
	cells[0] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	game_release(&game);
}

static void board_move_onto_the_opponent_stone_is_occupied(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[8 * 15 + 8] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_OCCUPIED);
	game_release(&game);
}

static void board_move_with_a_value_beyond_back_is_a_bad_board(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[0] = ROLE_FRONT;
	cells[200] = 3;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	cells[200] = 255;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_BAD_BOARD);
	game_release(&game);
}

static void board_move_out_of_turn_is_not_your_turn(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	cells[0] = ROLE_BACK;
	expect_result(game_find_board_move(&game, ROLE_BACK, cells, &x, &y),
		      MOVE_NOT_YOUR_TURN);
	/* The turn is judged before the board itself. */
	cells[0] = 7;
	expect_result(game_find_board_move(&game, ROLE_BACK, cells, &x, &y),
		      MOVE_NOT_YOUR_TURN);
	game_release(&game);
}

static void board_move_after_the_game_is_over_is_game_over(void **state)
{
	uint8_t cells[BOARD_MAX_CELLS];
	struct game game;
	int x, y;

	(void)state;
	two_moves_in(&game, cells);
	game_forfeit(&game, ROLE_BACK);
	cells[0] = ROLE_FRONT;
	expect_result(game_find_board_move(&game, ROLE_FRONT, cells, &x, &y),
		      MOVE_GAME_OVER);
	expect_result(game_find_board_move(&game, ROLE_BACK, cells, &x, &y),
		      MOVE_GAME_OVER);
	game_release(&game);
}

static void undo_takes_back_the_last_move_and_gives_the_turn_back(void **state)
{
	struct game game;
	struct cell cell;
	enum role mover;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	assert_false(game_undo(&game, &cell, &mover));
	assert_int_equal(game_play(&game, ROLE_FRONT, 7, 7), MOVE_OK);
	assert_int_equal(game_play(&game, ROLE_BACK, 8, 8), MOVE_OK);
	assert_true(game_undo(&game, &cell, &mover));
	expect_int(cell.x, 8);
	expect_int(cell.y, 8);
	expect_int(mover, ROLE_BACK);
	expect_int(game.to_move, ROLE_BACK);
	expect_int(game.moves_played, 1);
	expect_int(board_get(&game.board, 8, 8), ROLE_NONE);
	expect_int(game.last_move.x, 7);
	expect_int(game.last_mover, ROLE_FRONT);
	assert_true(game_undo(&game, &cell, &mover));
	expect_int(mover, ROLE_FRONT);
	expect_int(game.to_move, ROLE_FRONT);
	expect_int(game.moves_played, 0);
	expect_int(game.last_mover, ROLE_NONE);
	expect_int(game.board.stones, 0);
	/* the same cell can be played again */
	assert_int_equal(game_play(&game, ROLE_FRONT, 7, 7), MOVE_OK);
	game_release(&game);
}

static void a_copy_has_its_own_moves(void **state)
{
	struct game game, copy;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	game_play(&game, ROLE_FRONT, 7, 7);
	game_play(&game, ROLE_BACK, 8, 8);
	expect_int(game_copy(&copy, &game), 0);
	assert_true(copy.history != game.history);
	expect_int(copy.moves_played, 2);
	expect_int(copy.history[1], 8 * 15 + 8);
	/* the copy moves on, the original does not see it, and back */
	expect_result(game_play(&copy, ROLE_FRONT, 0, 0), MOVE_OK);
	expect_int(game.moves_played, 2);
	expect_int(game.history[2], 0);
	expect_int(board_get(&game.board, 0, 0), ROLE_NONE);
	expect_result(game_play(&game, ROLE_FRONT, 14, 14), MOVE_OK);
	expect_int(copy.history[2], 0);
	expect_int(game.history[2], 14 * 15 + 14);
	game_release(&copy);
	expect_int(game.history[0], 7 * 15 + 7); /* still its own */
	game_release(&game);
}

static void undo_refuses_a_finished_game(void **state)
{
	struct game game;
	struct cell cell;
	enum role mover;
	int i;

	(void)state;
	game_init(&game, 15, RULE_FREESTYLE, FULL_BOARD_BACK);
	for (i = 0; i < 5; i++) {
		assert_int_equal(game_play(&game, ROLE_FRONT, i, 0), MOVE_OK);
		if (i < 4)
			assert_int_equal(game_play(&game, ROLE_BACK, i, 1),
					 MOVE_OK);
	}
	assert_true(game_is_over(&game));
	assert_false(game_undo(&game, &cell, &mover));
	expect_int(game.moves_played, 9);
	game_release(&game);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_puts_front_to_move_on_an_empty_board),
		cmocka_unit_test(init_refuses_a_board_size_out_of_range),
		cmocka_unit_test(front_moves_first_then_the_sides_alternate),
		cmocka_unit_test(a_move_records_the_last_move_and_its_mover),
		cmocka_unit_test(back_cannot_move_first),
		cmocka_unit_test(a_side_cannot_move_twice_in_a_row),
		cmocka_unit_test(a_move_off_the_board_is_out_of_range),
		cmocka_unit_test(a_move_on_a_stone_is_occupied),
		cmocka_unit_test(
			the_turn_is_checked_before_the_range_and_the_cell),
		cmocka_unit_test(a_refused_move_changes_nothing),
		cmocka_unit_test(
			renju_refuses_black_s_forbidden_point_and_nothing_else),
		cmocka_unit_test(
			the_history_lists_every_move_as_a_flat_index_in_order),
		cmocka_unit_test(
			a_refused_move_or_a_forfeit_adds_nothing_to_history),
		cmocka_unit_test(
			the_history_of_a_full_board_holds_every_cell_once),
		cmocka_unit_test(front_wins_with_five_in_a_row),
		cmocka_unit_test(back_wins_with_five_in_a_column),
		cmocka_unit_test(
			a_full_board_without_five_goes_to_back_by_default),
		cmocka_unit_test(
			a_full_board_without_five_is_a_draw_when_so_configured),
		cmocka_unit_test(
			a_five_on_the_last_empty_cell_wins_rather_than_fills),
		cmocka_unit_test(every_move_after_the_game_is_over_is_refused),
		cmocka_unit_test(forfeit_gives_a_live_game_to_the_other_side),
		cmocka_unit_test(
			forfeit_after_the_game_is_over_changes_nothing),
		cmocka_unit_test(
			winner_and_reason_names_are_the_protocol_words),
		cmocka_unit_test(board_move_finds_the_one_new_stone),
		cmocka_unit_test(board_move_finds_the_first_and_the_last_cell),
		cmocka_unit_test(board_move_with_no_change_is_a_bad_board),
		cmocka_unit_test(board_move_with_two_new_stones_is_a_bad_board),
		cmocka_unit_test(board_move_in_the_wrong_colour_is_a_bad_board),
		cmocka_unit_test(board_move_with_a_stone_removed_is_bad_board),
		cmocka_unit_test(
			board_move_onto_the_opponent_stone_is_occupied),
		cmocka_unit_test(
			board_move_with_a_value_beyond_back_is_a_bad_board),
		cmocka_unit_test(board_move_out_of_turn_is_not_your_turn),
		cmocka_unit_test(
			undo_takes_back_the_last_move_and_gives_the_turn_back),
		cmocka_unit_test(undo_refuses_a_finished_game),
		cmocka_unit_test(a_copy_has_its_own_moves),
		cmocka_unit_test(
			board_move_after_the_game_is_over_is_game_over),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
