/*
 * test_rules.c - judging a five through the last stone, in every direction,
 * at every edge, and under both rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "expect.h"

/* The directions rules_find_five() reports lines along. */
static const struct cell across = { 1, 0 };
static const struct cell down = { 0, 1 };
static const struct cell diagonal = { 1, 1 };
static const struct cell anti_diagonal = { 1, -1 };

/* Puts count stones of role from (x, y) on, stepping by step. */
static void place_run(struct board *board, enum role role, int x, int y,
		      struct cell step, int count)
{
	int i;

	for (i = 0; i < count; i++)
		board_set(board, x + i * step.x, y + i * step.y, role);
}

/*
 * Checks that *line is the count cells from (x, y) on along step, in that
 * order.
 */
static void check_line(const struct win_line *line, int x, int y,
		       struct cell step, int count)
{
	int i;

	if (line->length != count)
		fail_msg("win line has %d cells, expected %d", line->length,
			 count);
	for (i = 0; i < count; i++) {
		if (line->cells[i].x != x + i * step.x ||
		    line->cells[i].y != y + i * step.y)
			fail_msg("win line cell %d is (%d, %d), expected "
				 "(%d, %d)",
				 i, line->cells[i].x, line->cells[i].y,
				 x + i * step.x, y + i * step.y);
	}
}

/*
 * Lays a run of five from (x, y) along step on a board of size and checks
 * that each of its stones, judged as the last one played, wins with the
 * whole run as its line.
 */
static void check_five_wins(int size, int x, int y, struct cell step)
{
	struct win_line line;
	struct board board;
	int last;

	board_init(&board, size);
	place_run(&board, ROLE_FRONT, x, y, step, 5);
	for (last = 0; last < 5; last++) {
		int last_x = x + last * step.x;
		int last_y = y + last * step.y;

		memset(&line, 0, sizeof(line));
		if (!rules_find_five(&board, RULE_FREESTYLE, last_x, last_y,
				     &line))
			fail_msg("five from (%d, %d) step (%d, %d) on %dx%d "
				 "not found from its stone at (%d, %d)",
				 x, y, step.x, step.y, size, size, last_x,
				 last_y);
		check_line(&line, x, y, step, 5);
		if (!rules_find_five(&board, RULE_STANDARD, last_x, last_y,
				     &line))
			fail_msg("exact five from (%d, %d) not found under "
				 "standard from (%d, %d)",
				 x, y, last_x, last_y);
		check_line(&line, x, y, step, 5);
	}
}

static void five_in_a_row_wins_horizontally_at_the_left_edge(void **state)
{
	(void)state;
	check_five_wins(15, 0, 7, across);
	check_five_wins(15, 0, 0, across);
	check_five_wins(15, 0, 14, across);
}

static void five_in_a_row_wins_horizontally_at_the_right_edge(void **state)
{
	(void)state;
	check_five_wins(15, 10, 7, across);
	check_five_wins(15, 10, 0, across);
	check_five_wins(25, 20, 24, across);
}

static void five_in_a_row_wins_vertically_at_the_top_edge(void **state)
{
	(void)state;
	check_five_wins(15, 7, 0, down);
	check_five_wins(15, 0, 0, down);
	check_five_wins(15, 14, 0, down);
}

static void five_in_a_row_wins_vertically_at_the_bottom_edge(void **state)
{
	(void)state;
	check_five_wins(15, 7, 10, down);
	check_five_wins(15, 14, 10, down);
	check_five_wins(25, 0, 20, down);
}

static void five_wins_diagonally_from_the_top_left_corner(void **state)
{
	(void)state;
	check_five_wins(15, 0, 0, diagonal);
	check_five_wins(15, 3, 0, diagonal);
	check_five_wins(15, 0, 3, diagonal);
}

static void five_wins_diagonally_into_the_bottom_right_corner(void **state)
{
	(void)state;
	check_five_wins(15, 10, 10, diagonal);
	check_five_wins(25, 20, 20, diagonal);
}

static void five_wins_on_the_anti_diagonal_from_the_bottom_left(void **state)
{
	(void)state;
	check_five_wins(15, 0, 14, anti_diagonal);
	check_five_wins(15, 0, 9, anti_diagonal);
}

static void five_wins_on_the_anti_diagonal_into_the_top_right(void **state)
{
	(void)state;
	check_five_wins(15, 10, 4, anti_diagonal);
	check_five_wins(25, 20, 4, anti_diagonal);
}

static void five_wins_mid_board_in_every_direction(void **state)
{
	(void)state;
	check_five_wins(15, 5, 7, across);
	check_five_wins(15, 7, 5, down);
	check_five_wins(15, 5, 5, diagonal);
	check_five_wins(15, 5, 9, anti_diagonal);
}

static void five_wins_across_the_whole_smallest_board(void **state)
{
	(void)state;
	check_five_wins(5, 0, 2, across);
	check_five_wins(5, 2, 0, down);
	check_five_wins(5, 0, 0, diagonal);
	check_five_wins(5, 0, 4, anti_diagonal);
}

static void four_in_a_row_is_not_a_win_in_any_direction(void **state)
{
	const struct cell steps[] = { across, down, diagonal, anti_diagonal };
	struct board board;
	size_t i;
	int last;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		board_init(&board, 15);
		place_run(&board, ROLE_BACK, 5, 7, steps[i], 4);
		for (last = 0; last < 4; last++) {
			int x = 5 + last * steps[i].x;
			int y = 7 + last * steps[i].y;

			if (rules_find_five(&board, RULE_FREESTYLE, x, y, NULL))
				fail_msg("four along (%d, %d) won from "
					 "(%d, %d)",
					 steps[i].x, steps[i].y, x, y);
		}
	}
}

static void a_gap_breaks_the_run(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 2, 3, across, 2);
	place_run(&board, ROLE_FRONT, 5, 3, across, 3);
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 3, 3, NULL));
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 5, 3, NULL));
}

static void an_opponent_stone_breaks_the_run(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 2, 3, down, 2);
	board_set(&board, 2, 5, ROLE_BACK);
	place_run(&board, ROLE_FRONT, 2, 6, down, 3);
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 2, 4, NULL));
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 2, 5, NULL));
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 2, 6, NULL));
}

static void an_empty_cell_is_never_a_win(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 0, 0, across, 2);
	place_run(&board, ROLE_FRONT, 3, 0, across, 2);
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 2, 0, NULL));
	assert_false(rules_find_five(&board, RULE_FREESTYLE, -1, 0, NULL));
}

static void a_five_not_through_the_cell_is_not_found(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 0, 0, across, 5);
	board_set(&board, 10, 10, ROLE_FRONT);
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 10, 10, NULL));
}

static void six_in_a_row_wins_under_freestyle_with_all_six_cells(void **state)
{
	struct win_line line;
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 4, 2, across, 6);
	assert_true(rules_find_five(&board, RULE_FREESTYLE, 9, 2, &line));
	check_line(&line, 4, 2, across, 6);
	assert_true(rules_find_five(&board, RULE_FREESTYLE, 6, 2, &line));
	check_line(&line, 4, 2, across, 6);
}

static void six_in_a_row_is_not_a_win_under_standard(void **state)
{
	struct board board;
	int x;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 4, 2, across, 6);
	for (x = 4; x < 10; x++)
		if (rules_find_five(&board, RULE_STANDARD, x, 2, NULL))
			fail_msg("six won under standard from (%d, 2)", x);
}

static void renju_six_is_no_win_for_black_and_a_win_for_white(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 4, 2, across, 6);
	place_run(&board, ROLE_BACK, 4, 4, across, 6);
	for (int x = 4; x < 10; x++) {
		if (rules_find_five(&board, RULE_RENJU, x, 2, NULL))
			fail_msg("black's six won under renju from (%d, 2)", x);
		if (!rules_find_five(&board, RULE_RENJU, x, 4, NULL))
			fail_msg("white's six lost under renju from (%d, 4)",
				 x);
	}
	/* Black's exact five wins. */
	board_clear(&board, 9, 2);
	assert_true(rules_find_five(&board, RULE_RENJU, 4, 2, NULL));
}

static void nine_from_two_fours_wins_under_freestyle(void **state)
{
	struct win_line line;
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_BACK, 2, 12, anti_diagonal, 9);
	assert_true(rules_find_five(&board, RULE_FREESTYLE, 6, 8, &line));
	check_line(&line, 2, 12, anti_diagonal, 9);
}

static void nine_from_two_fours_is_not_a_win_under_standard(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_BACK, 2, 2, diagonal, 9);
	assert_false(rules_find_five(&board, RULE_STANDARD, 6, 6, NULL));
}

static void standard_five_wins_despite_an_overline_across_it(void **state)
{
	struct win_line line;
	struct board board;

	(void)state;
	board_init(&board, 15);
	/* Six across row 7 and five down column 7, crossing at (7, 7). */
	place_run(&board, ROLE_FRONT, 3, 7, across, 6);
	place_run(&board, ROLE_FRONT, 7, 3, down, 4);
	assert_true(rules_find_five(&board, RULE_STANDARD, 7, 7, &line));
	check_line(&line, 7, 3, down, 5);
}

static void standard_five_next_to_a_gap_and_an_own_stone_wins(void **state)
{
	struct win_line line;
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_BACK, 1, 1, diagonal, 5);
	board_set(&board, 7, 7, ROLE_BACK);
	assert_true(rules_find_five(&board, RULE_STANDARD, 3, 3, &line));
	check_line(&line, 1, 1, diagonal, 5);
}

static void stones_of_the_other_side_do_not_count(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	place_run(&board, ROLE_FRONT, 0, 0, across, 4);
	board_set(&board, 4, 0, ROLE_BACK);
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 4, 0, NULL));
	assert_false(rules_find_five(&board, RULE_FREESTYLE, 3, 0, NULL));
}

static void a_run_too_long_for_a_game_reports_nine_cells(void **state)
{
	struct win_line line;
	struct board board;

	(void)state;
	board_init(&board, 25);
	place_run(&board, ROLE_FRONT, 0, 3, across, 25);
	assert_true(rules_find_five(&board, RULE_FREESTYLE, 12, 3, &line));
	check_line(&line, 8, 3, across, 9);
	assert_false(rules_find_five(&board, RULE_STANDARD, 12, 3, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			five_in_a_row_wins_horizontally_at_the_left_edge),
		cmocka_unit_test(
			five_in_a_row_wins_horizontally_at_the_right_edge),
		cmocka_unit_test(five_in_a_row_wins_vertically_at_the_top_edge),
		cmocka_unit_test(
			five_in_a_row_wins_vertically_at_the_bottom_edge),
		cmocka_unit_test(five_wins_diagonally_from_the_top_left_corner),
		cmocka_unit_test(
			five_wins_diagonally_into_the_bottom_right_corner),
		cmocka_unit_test(
			five_wins_on_the_anti_diagonal_from_the_bottom_left),
		cmocka_unit_test(
			five_wins_on_the_anti_diagonal_into_the_top_right),
		cmocka_unit_test(five_wins_mid_board_in_every_direction),
		cmocka_unit_test(five_wins_across_the_whole_smallest_board),
		cmocka_unit_test(four_in_a_row_is_not_a_win_in_any_direction),
		cmocka_unit_test(a_gap_breaks_the_run),
		cmocka_unit_test(an_opponent_stone_breaks_the_run),
		cmocka_unit_test(an_empty_cell_is_never_a_win),
		cmocka_unit_test(a_five_not_through_the_cell_is_not_found),
		cmocka_unit_test(
			six_in_a_row_wins_under_freestyle_with_all_six_cells),
		cmocka_unit_test(six_in_a_row_is_not_a_win_under_standard),
		cmocka_unit_test(
			renju_six_is_no_win_for_black_and_a_win_for_white),
		cmocka_unit_test(nine_from_two_fours_wins_under_freestyle),
		cmocka_unit_test(
			nine_from_two_fours_is_not_a_win_under_standard),
		cmocka_unit_test(
			standard_five_wins_despite_an_overline_across_it),
		cmocka_unit_test(
			standard_five_next_to_a_gap_and_an_own_stone_wins),
		cmocka_unit_test(stones_of_the_other_side_do_not_count),
		cmocka_unit_test(a_run_too_long_for_a_game_reports_nine_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
