/*
 * test_board.c - the board: sizes, ranges, stones and the shared names.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "expect.h"

static void init_accepts_every_size_from_5_to_25(void **state)
{
	struct board board;
	int size;

	(void)state;
	for (size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++) {
		expect_int(board_init(&board, size), 0);
		expect_int(board.size, size);
		expect_int(board.stones, 0);
	}
}

static void init_refuses_sizes_outside_5_to_25(void **state)
{
	static const int bad_sizes[] = { -1, 0, 1, 4, 26, 100 };
	struct board board;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		if (board_init(&board, bad_sizes[i]) != -EINVAL)
			fail_msg("board_init(%d) should be -EINVAL",
				 bad_sizes[i]);
	}
}

static void init_leaves_every_cell_empty(void **state)
{
	struct board board;
	int x, y;

	(void)state;
	memset(&board, 0xff, sizeof(board));
	expect_int(board_init(&board, BOARD_MAX_SIZE), 0);
	for (y = 0; y < board.size; y++)
		for (x = 0; x < board.size; x++)
			if (board_get(&board, x, y) != ROLE_NONE)
				fail_msg("cell (%d, %d) is not empty", x, y);
}

static void in_range_accepts_the_corners_and_refuses_one_past(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	assert_true(board_in_range(&board, 0, 0));
	assert_true(board_in_range(&board, 14, 0));
	assert_true(board_in_range(&board, 0, 14));
	assert_true(board_in_range(&board, 14, 14));
	assert_false(board_in_range(&board, -1, 0));
	assert_false(board_in_range(&board, 0, -1));
	assert_false(board_in_range(&board, 15, 0));
	assert_false(board_in_range(&board, 0, 15));
	assert_false(board_in_range(&board, 15, 15));
	assert_false(board_in_range(&board, -2147483647 - 1, 3));
	assert_false(board_in_range(&board, 3, 2147483647));
}

static void set_places_a_stone_at_its_flat_index(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 15);
	board_set(&board, 3, 7, ROLE_FRONT);
	board_set(&board, 14, 14, ROLE_BACK);
	expect_int(board_get(&board, 3, 7), ROLE_FRONT);
	expect_int(board_get(&board, 14, 14), ROLE_BACK);
	expect_int(board.cells[7 * 15 + 3], ROLE_FRONT);
	expect_int(board.cells[14 * 15 + 14], ROLE_BACK);
	expect_int(board_get(&board, 7, 3), ROLE_NONE);
	expect_int(board.stones, 2);
}

static void clear_empties_a_cell_and_counts_it(void **state)
{
	struct board board;

	(void)state;
	board_init(&board, 5);
	board_set(&board, 2, 2, ROLE_FRONT);
	board_clear(&board, 2, 2);
	expect_int(board_get(&board, 2, 2), ROLE_NONE);
	expect_int(board.stones, 0);
}

static void is_full_only_when_the_last_cell_is_filled(void **state)
{
	struct board board;
	int x, y;

	(void)state;
	board_init(&board, 5);
	for (y = 0; y < 5; y++) {
		for (x = 0; x < 5; x++) {
			assert_false(board_is_full(&board));
			board_set(&board, x, y,
				  (x + y) % 2 ? ROLE_BACK : ROLE_FRONT);
		}
	}
	assert_true(board_is_full(&board));
	board_clear(&board, 4, 4);
	assert_false(board_is_full(&board));
}

static void role_other_swaps_front_and_back(void **state)
{
	(void)state;
	expect_int(role_other(ROLE_FRONT), ROLE_BACK);
	expect_int(role_other(ROLE_BACK), ROLE_FRONT);
	expect_int(role_other(ROLE_NONE), ROLE_NONE);
}

static void names_are_the_protocol_words(void **state)
{
	(void)state;
	expect_str(role_name(ROLE_FRONT), "front");
	expect_str(role_name(ROLE_BACK), "back");
	expect_str(role_name(ROLE_NONE), "");
	expect_str(rule_name(RULE_FREESTYLE), "freestyle");
	expect_str(rule_name(RULE_STANDARD), "standard");
	expect_str(rule_name(RULE_RENJU), "renju");
	for (int i = 0; i < RULE_COUNT; i++) {
		enum rule rule = RULE_COUNT;

		assert_true(rule_parse(rule_name((enum rule)i), &rule));
		assert_int_equal(rule, i);
	}
	for (size_t i = 0; i < 4; i++) {
		static const char *const bad[] = { "", "Renju", "renju ",
						   "gomoku" };
		enum rule rule = RULE_STANDARD;

		assert_false(rule_parse(bad[i], &rule));
		assert_int_equal(rule, RULE_STANDARD);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_accepts_every_size_from_5_to_25),
		cmocka_unit_test(init_refuses_sizes_outside_5_to_25),
		cmocka_unit_test(init_leaves_every_cell_empty),
		cmocka_unit_test(
			in_range_accepts_the_corners_and_refuses_one_past),
		cmocka_unit_test(set_places_a_stone_at_its_flat_index),
		cmocka_unit_test(clear_empties_a_cell_and_counts_it),
		cmocka_unit_test(is_full_only_when_the_last_cell_is_filled),
		cmocka_unit_test(role_other_swaps_front_and_back),
		cmocka_unit_test(names_are_the_protocol_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
